//! `benchledger init` and `benchledger ingest`.

use std::path::PathBuf;

use super::Ctx;
use crate::digest::wave_content_sha256;
use crate::error::Result;
use crate::ingest::read_wave;
use crate::ledger::{Ingested, Ledger};

pub fn init(ctx: &mut Ctx<'_>) -> Result<()> {
    let path = ctx.db_path();
    let (ledger, created) = Ledger::create(&path)?;
    let version = ledger.user_version()?;
    let msg = if created {
        format!(
            "created ledger {} (schema version {version})\n",
            path.display()
        )
    } else {
        format!(
            "ledger {} already exists (schema version {version}); nothing to do\n",
            path.display()
        )
    };
    ctx.write(&msg)
}

pub fn ingest(ctx: &mut Ctx<'_>, manifests: &[PathBuf]) -> Result<()> {
    // Read and check everything before the ledger is opened for writing.
    let mut waves = Vec::with_capacity(manifests.len());
    for m in manifests {
        let data = read_wave(m)?;
        let sha = wave_content_sha256(&data);
        waves.push((data, sha));
    }
    let mut ledger = ctx.open()?;
    let outcome = ledger.add_waves(&waves, &ctx.now)?;
    let mut msg = String::new();
    for ((data, sha), o) in waves.iter().zip(outcome) {
        let attempts: usize = data.seats.iter().map(|s| s.attempts.len()).sum();
        match o {
            Ingested::Added => msg.push_str(&format!(
                "added wave {}: {} seats, {attempts} attempts (sha256 {})\n",
                data.wave.id,
                data.seats.len(),
                &sha[..12]
            )),
            Ingested::AlreadyPresent => msg.push_str(&format!(
                "wave {} is already in the ledger with the same content (sha256 {}); nothing \
                 to do\n",
                data.wave.id,
                &sha[..12]
            )),
        }
    }
    ctx.write(&msg)
}
