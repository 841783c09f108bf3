//! Issue 34.3: whole-file JSON formats were read as a document, which grows about twelve times
//! the file in memory (a 100 MB HELM `per_instance_stats.json` reached 1.2 GB; one of 250 MB
//! tried to allocate 4 GiB and aborted). HELM's per-instance stats are streamed now, an entry
//! at a time: the heap this process holds at its highest while the importer reads a 100 MB
//! file is measured here, by an allocator that counts, and must stay under twice the file's
//! size plus a constant (the bound docs/importers.md states).

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use benchledger_core::import::{FORMATS, Input, Options, Quiet, ReadSeek, Source};

/// The system allocator, counting the bytes held and the most held at once.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn more(n: usize) {
    let now = HELD.fetch_add(n, Ordering::SeqCst) + n;
    PEAK.fetch_max(now, Ordering::SeqCst);
}

fn less(n: usize) {
    HELD.fetch_sub(n, Ordering::SeqCst);
}

// SAFETY: every call is passed on to the system allocator unchanged; only counts are kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            more(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            more(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        less(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            more(new_size);
            less(layout.size());
        }
        p
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

const MIB: usize = 1024 * 1024;

/// Files on disk, opened as streams.
struct Disk;

impl Source for Disk {
    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }
    fn read_text(&self, path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(path)
    }
    fn open_lines(&self, path: &Path) -> std::io::Result<Box<dyn std::io::BufRead + '_>> {
        Ok(Box::new(std::io::BufReader::new(std::fs::File::open(
            path,
        )?)))
    }
    fn open(&self, path: &Path) -> std::io::Result<Box<dyn ReadSeek + '_>> {
        Ok(Box::new(std::fs::File::open(path)?))
    }
}

/// Writes a HELM run directory whose per-instance stats are at least `size` bytes, in HELM's
/// own shape and indentation; returns the file's path and size.
fn helm_run(dir: &Path, size: usize) -> (std::path::PathBuf, usize) {
    std::fs::write(
        dir.join("run_spec.json"),
        r#"{"name": "arith:digits=2,model=org_tiny", "adapter_spec": {"model": "org/tiny"}}"#,
    )
    .unwrap();
    let path = dir.join("per_instance_stats.json");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let stat = |name: &str, x: f64| {
        format!(
            "   {{\n    \"name\": {{\n     \"name\": \"{name}\",\n     \"split\": \"test\"\n    }},\n    \
             \"count\": 1,\n    \"sum\": {x},\n    \"sum_squared\": {},\n    \"min\": {x},\n    \
             \"max\": {x},\n    \"mean\": {x},\n    \"variance\": 0.0,\n    \"stddev\": 0.0\n   }}",
            x * x
        )
    };
    out.write_all(b"[\n").unwrap();
    let mut written = 2;
    let mut i = 0usize;
    while written < size {
        let entry = format!(
            "{} {{\n  \"instance_id\": \"id{i}\",\n  \"train_trial_index\": 0,\n  \"stats\": [\n{},\n{},\n{},\n{}\n  ]\n }}",
            if i == 0 { "" } else { ",\n" },
            stat("exact_match", (i % 2) as f64),
            stat("num_prompt_tokens", 100.0),
            stat("num_completion_tokens", 2.0),
            stat("inference_runtime", 0.5),
        );
        out.write_all(entry.as_bytes()).unwrap();
        written += entry.len();
        i += 1;
    }
    out.write_all(b"\n]\n").unwrap();
    out.flush().unwrap();
    (path, written + 3)
}

#[test]
fn a_100_mb_helm_file_is_read_in_under_twice_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let (path, size) = helm_run(dir.path(), 100 * MIB);
    let helm = FORMATS.iter().find(|i| i.name() == "helm").unwrap();
    let base = HELD.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let imported = helm
        .read(&mut Input {
            src: &Disk,
            path: &path,
            options: &Options::default(),
            progress: &mut Quiet,
        })
        .unwrap();
    let peak = PEAK.load(Ordering::SeqCst) - base;
    let attempts = imported.records.len();
    assert!(attempts > 50_000, "{attempts}");
    assert_eq!(
        imported
            .records
            .iter()
            .filter(|r| r.attempt.correct)
            .count(),
        attempts / 2
    );
    drop(imported);
    eprintln!(
        "{attempts} instances, a file of {} MiB: the heap's peak {} MiB",
        size / MIB,
        peak / MIB
    );
    // The bound: twice the file, plus a constant for the buffers.
    assert!(
        peak < 2 * size + 16 * MIB,
        "reading a {} MiB file held {} MiB at its peak",
        size / MIB,
        peak / MIB
    );
}
