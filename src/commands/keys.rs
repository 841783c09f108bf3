//! Signing keys as files: `benchledger keygen` writes a new ed25519 key pair, `sign` signs a
//! publication already in the ledger (one that verifies), and `publish --sign`, `sign --key`
//! and `verify --trusted-key` read keys through [`read_private`] and the library's
//! [`signature::read_public`].
//!
//! The private key is PKCS#8 PEM (RFC 8410), written with mode 0600 into a new file, never over
//! one already there; the public key beside it (`KEY.pub`) is SubjectPublicKeyInfo PEM, the
//! form OpenSSL, Python's `cryptography` and Go's `crypto/x509` read. The seed comes from the
//! operating system's randomness (`getrandom`), the only randomness a key may have.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::Ctx;
use crate::cli::{KeygenArgs, SignArgs};
use benchledger_core::attest::PrivateKey;
use benchledger_core::error::{Error, Result};
use benchledger_core::ledger::ChainEntry;
use benchledger_core::publication::{self, signature};

/// The public key's file beside a private key's: `KEY.pub`.
pub fn public_path(private: &Path) -> PathBuf {
    let mut name = private.as_os_str().to_owned();
    name.push(".pub");
    PathBuf::from(name)
}

// A private key from its file, for `flag`: the library reads it.
pub use benchledger_core::publication::signature::read_private;

/// Creates a new file holding `text`, never through anything already at `path`; `mode` on
/// unix.
fn create_new(path: &Path, text: &str, mode: u32) -> Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(mode);
    }
    #[cfg(not(unix))]
    let _ = mode;
    options
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.sync_all()))
        .map_err(|e| Error::io(path, e))
}

/// `benchledger keygen --out KEY`: a new key pair, KEY (private, 0600) and KEY.pub.
pub fn keygen(ctx: &mut Ctx<'_>, out: &Path) -> Result<()> {
    let public = public_path(out);
    for path in [out, public.as_path()] {
        if std::fs::symlink_metadata(path).is_ok() {
            return Err(Error::Usage(format!(
                "{} exists: keygen writes a new key pair and never replaces a file (a key \
                 replaced is a key lost). Choose another --out, or move the old one away \
                 first. Nothing was written",
                path.display()
            )));
        }
    }
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| {
        Error::Usage(format!(
            "the operating system gave no randomness for a new key ({e}); nothing was written"
        ))
    })?;
    let key = PrivateKey::from_seed(&seed);
    seed.fill(0);
    create_new(out, &key.to_pem(), 0o600)?;
    let public_key = key.public();
    if let Err(e) = create_new(&public, &public_key.to_pem(), 0o644) {
        // Leave no half pair: the private key file was made here, just now.
        let _ = std::fs::remove_file(out);
        return Err(e);
    }
    ctx.write(&format!(
        "wrote the private key {} (ed25519, PKCS#8 PEM, mode 0600: keep it secret) and the \
         public key {} (SubjectPublicKeyInfo PEM: publish it)\n  key id {}\n\
         sign with `benchledger publish ... --sign {}`; anyone checks with `benchledger verify \
         --all --trusted-key {}`\n",
        out.display(),
        public.display(),
        public_key.id(),
        out.display(),
        public.display()
    ))
}

/// `benchledger sign N --key KEY`: signs a publication already in the ledger, once.
pub fn sign(ctx: &mut Ctx<'_>, id: i64, key_file: &Path) -> Result<()> {
    let key = read_private(key_file, "--key")?;
    let mut ledger = ctx.open_write()?;
    let row = ledger.publication(id)?;
    // A signature vouches for the publication: sign only one that reproduces, with its link.
    let entries = ledger.chain()?;
    let at = entries
        .iter()
        .position(|e| matches!(e, ChainEntry::Publication(p) if p.id == id));
    if let Some(i) = at {
        let problems =
            publication::reproduce::problems(&ledger, &entries, i, &ledger.price_tables()?, false);
        if !problems.is_empty() {
            return Err(Error::CheckFailed(format!(
                "publication #{id} does not verify, so it was not signed (`benchledger verify \
                 {id}` says more):\n{}",
                publication::indent(&problems)
            )));
        }
    }
    let content = ledger.wave_content_hash(&row.wave)?;
    let now = super::now()?;
    ledger.sign_publication(
        id,
        &|row| signature::sign(&key, row, &row.rubric, &content.sha256),
        &now,
    )?;
    let mut msg = format!(
        "signed publication #{id} {:?}\n  key id {}\n",
        row.title,
        key.public().id()
    );
    // The chain's head: the signature's log entry.
    if let Some(head) = ledger.walk()?.last() {
        msg.push_str(&format!(
            "  chain head    {} (keep it outside the ledger: `verify --expect-head`)\n",
            head.sha256()
        ));
    }
    ctx.write(&msg)
}

/// `benchledger keygen`, from its flags.
pub fn run_keygen(ctx: &mut Ctx<'_>, args: KeygenArgs) -> Result<()> {
    keygen(ctx, &args.out)
}

/// `benchledger sign`, from its flags.
pub fn run_sign(ctx: &mut Ctx<'_>, args: SignArgs) -> Result<()> {
    sign(ctx, args.id, &args.key)
}
