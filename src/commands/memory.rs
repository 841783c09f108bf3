//! Giving freed memory back to the system between seats.
//!
//! Ingest holds one seat's attempts at a time, and frees them once the seat is staged. glibc's
//! allocator keeps what is freed for reuse rather than returning it, and a seat's attempt list
//! grows by reallocation among the many small strings of its problem ids: each seat's large
//! blocks land past the last one's, and the resident set grew by some 16 MB a seat (a wave of
//! ten 100k-attempt seats peaked at ~200 MB of RSS while the heap itself never held more than
//! ~34 MB; bench/README.md). Trimming after each seat keeps the resident set at one seat's worth.

/// Returns the allocator's free pages to the system (glibc only; elsewhere nothing to do).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn release_freed() {
    // SAFETY: malloc_trim takes no pointers and only walks glibc's own heap, releasing pages
    // no allocation uses; it is safe to call at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Returns the allocator's free pages to the system (glibc only; elsewhere nothing to do).
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn release_freed() {}
