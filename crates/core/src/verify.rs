//! Verification, one operation for every face (`benchledger verify`, Python's
//! `Ledger.verify`): publications recomputed from the ledger (or a bundle, [`bundle`]) and
//! compared byte for byte with what was published; their signatures checked against a trusted
//! key; the chain checked to end at a head kept outside the ledger; and (`--ledger`) everything
//! the ledger stores checked against what it was derived from.
//!
//! [`run`] takes a [`Request`] of plain data (the key already read) and returns a [`Report`]:
//! the report for people as text, the same verdicts as data ([`Verification`], the JSON
//! document), and the error a failed check ends with ([`Report::outcome`]). Nothing is
//! written, printed or timed here.

use std::path::Path;

use crate::attest::PublicKey;
use crate::chain;
use crate::digest::{is_sha256, sha256_hex, short};
use crate::error::{Error, Hint, Result};
use crate::figures::{Basis, FigureTally};
use crate::formats::json::HashSink;
use crate::formats::tally;
use crate::formats::wave::Digest;
use crate::ledger::{
    ChainEntry, Ledger, LogEntryRow, LogKind, PublicationRow, RubricRow, StoredClaims, WaveRow,
    WithdrawalRow,
};
use crate::model::{Attempt, AttemptFields, Seat, SeatData, SeatTotals, Wave};
use crate::publication;
use crate::publication::bundle;
use crate::publication::signature::{self, SignatureCheck};
use crate::report::verify::{
    Check, Entry, SignatureJson, SignedTally, Tally, Verdict, Verification,
};
use crate::rescore;
use crate::rubric::SeatScore;

/// What a verification is asked to check.
#[derive(Debug, Clone, Default)]
pub struct Request<'a> {
    /// These publications.
    pub ids: &'a [i64],
    /// Every publication and withdrawal.
    pub all: bool,
    /// A bundle's directory, instead of the ledger.
    pub bundle: Option<&'a Path>,
    /// The ledger's integrity.
    pub ledger: bool,
    /// The hash the chain must end at.
    pub expect_head: Option<&'a str>,
    /// The key every publication checked must be signed by (`--trusted-key`), read
    /// ([`signature::read_public`]).
    pub trusted_key: Option<PublicKey>,
}

/// What a verification found: the report for people, the same verdicts as data, and whether
/// everything in it passed.
#[derive(Debug)]
pub struct Report {
    /// The report for people, line by line (what `verify` prints without `--format json`).
    pub text: String,
    /// The same verdicts as data; `ok` says whether everything checked passed.
    pub found: Verification,
    publications_failed: bool,
    other_failed: bool,
    /// The key every publication checked must be signed by (`--trusted-key`).
    trusted: Option<PublicKey>,
    /// The publications whose signature failed its check, by id.
    badly_signed: Vec<i64>,
}

/// Verifies what `req` asks, in a bundle's ledger (read into memory, nothing written in the
/// bundle) or in the ledger `open` opens, which is opened only once the request is known to
/// make sense. An error is a verification that could not be made (a request that makes no
/// sense, a ledger or bundle that cannot be read); what it found wrong is in the report
/// ([`Report::outcome`]).
///
/// # Example
///
/// Every check of `verify --all --ledger` on a ledger file:
///
/// ```
/// use std::path::Path;
/// use benchledger_core::{Ledger, import::Quiet, ingest, verify};
///
/// # fn main() -> benchledger_core::Result<()> {
/// let dir = tempfile::tempdir().unwrap();
/// let db = dir.path().join("ledger.db");
/// let (ledger, _created) = Ledger::create(&db)?;
/// let wave = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/rca-wave-1/wave.toml");
/// ingest::run::manifests(&ledger, &[wave], "2026-12-04T00:00:00Z", &mut Quiet)?;
/// drop(ledger);
///
/// let request = verify::Request { all: true, ledger: true, ..Default::default() };
/// let report = verify::run(&request, || Ledger::open(&db))?;
/// assert!(report.outcome().is_ok(), "{}", report.text);
/// # Ok(())
/// # }
/// ```
pub fn run(req: &Request<'_>, open: impl FnOnce() -> Result<Ledger>) -> Result<Report> {
    let mut report = Report {
        text: String::new(),
        found: Verification::default(),
        publications_failed: false,
        other_failed: false,
        trusted: req.trusted_key.clone(),
        badly_signed: Vec::new(),
    };
    if let Some(h) = req.expect_head
        && !is_sha256(h)
    {
        return Err(Error::argument(
            "expect_head",
            format!("{h:?}"),
            "is not a record hash: give the chain head's 64 lower-case hex digits, as printed \
             when a publication or a withdrawal was recorded",
        ));
    }
    match req.bundle {
        Some(dir) => verify_bundle(dir, req, &mut report)?,
        None => {
            if req.trusted_key.is_some() && req.ids.is_empty() && !req.all {
                return Err(Error::switch(
                    "trusted_key",
                    "checks the signatures of the publications named, and none is",
                )
                .hinted(Hint::AlsoGive("all")));
            }
            if req.ids.is_empty() && !req.all && !req.ledger && req.expect_head.is_none() {
                return Err(Error::Usage(
                    "name the publications to verify (see `benchledger publications`), or pass \
                     --all, --ledger or --expect-head HASH"
                        .into(),
                ));
            }
            let ledger = open()?;
            if req.all || !req.ids.is_empty() {
                let ids = if req.all { &[][..] } else { req.ids };
                verify_publications(&ledger, ids, None, &mut report)?;
            }
            if let Some(expected) = req.expect_head {
                verify_head(&ledger, expected, false, req.ledger, &mut report)?;
            }
            if req.ledger {
                ledger_integrity(&ledger, &mut report, false)?;
            }
        }
    }
    report.found.ok =
        !report.publications_failed && !report.other_failed && report.badly_signed.is_empty();
    Ok(report)
}

/// Verifies the bundle in `dir`: its notes, its publications, its ledger's integrity, and its
/// head when one is expected.
fn verify_bundle(dir: &Path, req: &Request<'_>, report: &mut Report) -> Result<()> {
    // Read into memory, never opened by SQLite: nothing is written in the bundle.
    let (ledger, notes) = bundle::open(dir)?;
    report.text.push_str(&notes.concat());
    report.found.notes.extend(
        notes
            .iter()
            .map(|n| n.trim_end().trim_start_matches("note: ").to_string()),
    );
    verify_publications(&ledger, req.ids, Some(dir), report)?;
    // Its derived tables (tallies, stored scores) and every record, as in a ledger: a bundle
    // is someone else's file, edited with anything.
    ledger_integrity(&ledger, report, true)?;
    if let Some(expected) = req.expect_head {
        verify_head(&ledger, expected, true, true, report)?;
    }
    Ok(())
}

impl Report {
    /// The verdicts as the JSON document `verify --format json` prints (kind `verify`).
    pub fn json(&self) -> String {
        crate::report::to_json("verify", &self.found)
    }

    /// How the verification ends: nothing, when everything checked passed; otherwise
    /// [`Error::CheckFailed`] saying what failed first (a publication that does not reproduce,
    /// then anything else the ledger should hold, then signatures).
    pub fn outcome(&self) -> Result<()> {
        match (
            self.publications_failed,
            self.other_failed,
            self.badly_signed.is_empty(),
        ) {
            (false, false, true) => Ok(()),
            (true, _, _) => Err(Error::CheckFailed(
                "verify: a publication does not reproduce from the ledger (see above)".into(),
            )),
            (false, true, _) => Err(Error::CheckFailed(
                "verify: the ledger does not hold what it should (see above)".into(),
            )),
            (false, false, false) => Err(Error::CheckFailed(badly_signed_message(
                &self.badly_signed,
                self.trusted.as_ref(),
            ))),
        }
    }
}

/// Verifies the named publications (or all, with the withdrawals between them) of a ledger —
/// a bundle's, when `bundle` names its directory.
fn verify_publications(
    ledger: &Ledger,
    ids: &[i64],
    bundle: Option<&Path>,
    report: &mut Report,
) -> Result<()> {
    let in_bundle = bundle.is_some();
    let entries = ledger.chain()?;
    let chosen: Vec<usize> = if ids.is_empty() {
        (0..entries.len()).collect()
    } else {
        let mut v = Vec::new();
        for id in ids {
            match entries
                .iter()
                .position(|e| matches!(e, ChainEntry::Publication(p) if p.id == *id))
            {
                Some(i) => v.push(i),
                None => {
                    ledger.publication(*id)?;
                }
            }
        }
        v
    };
    let publications = chosen
        .iter()
        .filter(|&&i| matches!(entries[i], ChainEntry::Publication(_)))
        .count();
    if publications == 0 && chosen.is_empty() {
        report.text.push_str("no publications to verify\n");
        report.found.publications = Some(Tally::default());
        return Ok(());
    }
    let price_tables = ledger.price_tables()?;
    let (mut failed, mut signed) = (0, 0);
    for &i in &chosen {
        let mut problems =
            publication::reproduce::problems(ledger, &entries, i, &price_tables, in_bundle);
        let mut signature_lines = String::new();
        match &entries[i] {
            ChainEntry::Publication(p) => {
                let (lines, good) = publication_entry(ledger, p, bundle, &mut problems, report)?;
                signature_lines = lines;
                if !problems.is_empty() {
                    failed += 1;
                }
                signed += usize::from(good);
            }
            ChainEntry::Withdrawal(w) => withdrawal_entry(w, &mut problems, report),
            // `Ledger::chain` holds the publications and withdrawals only.
            ChainEntry::Logged(_) => {}
        }
        for pr in problems {
            report.text.push_str(&format!("  - {pr}\n"));
        }
        report.text.push_str(&signature_lines);
    }
    if in_bundle
        && let Some(&first) = chosen.first()
        && let Some(link) = entries[first].prev_sha256()
    {
        let note = format!(
            "the link to the entry before {} (sha256 {}) lies outside this bundle",
            entries[first].label(),
            short(link)
        );
        report.text.push_str(&format!("note: {note}\n"));
        report.found.notes.push(note);
    }
    report.found.publications = Some(Tally {
        reproduced: publications - failed,
        total: publications,
    });
    report.text.push_str(&format!(
        "{} of {} publication{} reproduce{}\n",
        publications - failed,
        publications,
        if publications == 1 { "" } else { "s" },
        if publications - failed == 1 { "s" } else { "" }
    ));
    if failed > 0 {
        report.publications_failed = true;
    }
    if let Some(key) = report.trusted.clone() {
        signed_summary(report, &key, signed, publications);
    }
    Ok(())
}

/// A publication of the chain, checked (its reproduction's `problems` found already, its
/// bundle's files when `bundle` names its directory, its signature): its report line and its
/// entry. Returns the lines of its signature's check, and whether the trusted key signed it.
fn publication_entry(
    ledger: &Ledger,
    p: &PublicationRow,
    bundle: Option<&Path>,
    problems: &mut Vec<String>,
    report: &mut Report,
) -> Result<(String, bool)> {
    let envelope = ledger.publication_envelope(p.id)?;
    // A bundle's files are checked against the rubric the publication names (one that cannot
    // be loaded is reported above).
    if let Some(dir) = bundle
        && let Ok(rubric) = ledger.publication_rubric(p.id)
    {
        problems.extend(bundle::file_problems(dir, p, &rubric, envelope.as_deref()));
    }
    let signature = check_signature(ledger, p, envelope.as_deref(), &report.trusted);
    let mut signature_lines = String::new();
    let mut signed = false;
    if let Some((lines, json)) = &signature {
        signature_lines.clone_from(lines);
        if json.verdict == Verdict::Mismatch {
            report.badly_signed.push(p.id);
        } else if json.signed_by_trusted_key {
            signed = true;
        }
    }
    let head = format!(
        "publication #{} {:?} ({} under {})",
        p.id, p.title, p.wave, p.rubric
    );
    if problems.is_empty() {
        report.text.push_str(&format!(
            "{head}: OK — reproduces byte for byte (output sha256 {})\n",
            short(&p.output_sha256)
        ));
    } else {
        report.text.push_str(&format!("{head}: MISMATCH\n"));
    }
    report.found.entries.push(Entry::Publication {
        id: p.id,
        title: p.title.clone(),
        wave: p.wave.clone(),
        rubric: p.rubric.clone(),
        output_sha256: p.output_sha256.clone(),
        verdict: Verdict::of(problems),
        problems: problems.clone(),
        signature: signature.map(|(_, json)| json),
    });
    Ok((signature_lines, signed))
}

/// A withdrawal of the chain, checked: its report line and its entry.
fn withdrawal_entry(w: &WithdrawalRow, problems: &mut Vec<String>, report: &mut Report) {
    problems.extend(chain::withdrawal_problems(w));
    let what = match &w.superseded_by {
        Some(by) => format!("superseded by {by}"),
        None => "withdrawn".into(),
    };
    if problems.is_empty() {
        report.text.push_str(&format!(
            "withdrawal #{} of wave {}: OK — {what} on {}: {}\n",
            w.id, w.wave, w.created_at, w.reason
        ));
    } else {
        report.other_failed = true;
        report.text.push_str(&format!(
            "withdrawal #{} of wave {}: MISMATCH\n",
            w.id, w.wave
        ));
    }
    report.found.entries.push(Entry::Withdrawal {
        id: w.id,
        wave: w.wave.clone(),
        superseded_by: w.superseded_by.clone(),
        created_at: w.created_at.clone(),
        reason: w.reason.clone(),
        verdict: Verdict::of(problems),
        problems: problems.clone(),
    });
}

/// A publication's signature, checked (see [`signature::check_envelope`]): the lines of the
/// report that say so, and the same as data. Nothing for an unsigned publication checked
/// without a trusted key, whose report is as it was before publications were signed.
fn check_signature(
    ledger: &Ledger,
    p: &PublicationRow,
    envelope: Option<&str>,
    trusted: &Option<PublicKey>,
) -> Option<(String, SignatureJson)> {
    let trusted = trusted.as_ref();
    let found = match envelope {
        Some(text) => signature::check_envelope(ledger, p, text, trusted),
        None if trusted.is_some() => SignatureCheck {
            problems: vec![format!(
                "it is not signed (no envelope is kept beside it){}",
                trusted.map_or(String::new(), |k| format!(
                    ", so not by the trusted key {}",
                    short(&k.id())
                ))
            )],
            ..SignatureCheck::default()
        },
        None => return None,
    };
    let keys = found
        .keyids
        .iter()
        .map(|k| short(k).to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let mut lines = match (&found.problems[..], trusted) {
        ([], Some(key)) => format!(
            "  signature: OK — signed by the trusted key {}\n",
            short(&key.id())
        ),
        ([], None) => format!(
            "  signature: signed by key {keys}; its statement names this publication as stored \
             (pass --trusted-key to check who signed it)\n"
        ),
        (_, Some(_)) => "  signature: NOT SIGNED BY THE TRUSTED KEY\n".to_string(),
        (_, None) => format!("  signature: MISMATCH (signed by key {keys})\n"),
    };
    for pr in &found.problems {
        lines.push_str(&format!("    - {pr}\n"));
    }
    let json = SignatureJson {
        signed: found.signed,
        keyids: found.keyids,
        trusted_key: trusted.map(PublicKey::id),
        signed_by_trusted_key: found.trusted,
        verdict: Verdict::of(&found.problems),
        problems: found.problems,
    };
    Some((lines, json))
}

/// The closing line of `--trusted-key`: how many of the publications checked it signed.
fn signed_summary(report: &mut Report, key: &PublicKey, signed: usize, total: usize) {
    report.text.push_str(&format!(
        "{signed} of {total} publication{} signed by the trusted key {}\n",
        if total == 1 { "" } else { "s" },
        key.id()
    ));
    report.found.signatures = Some(SignedTally {
        trusted_key: key.id(),
        signed,
        total,
    });
}

/// Checks that the chain ends exactly at `expected`, and that every link on the way holds:
/// the publications' and withdrawals', and the log's that follows them. In a bundle
/// (`in_bundle`), the links to entries outside it are not checked, and the head is its
/// publication's log entry or its signature's ([`bundle_head_walk`]) — or its record hash,
/// which `publish` printed before the log began and which the log entry names.
///
/// Unless `entries_checked` (the log section of `--ledger` checks them), each log entry on the
/// way is checked too, against its hash and the row it names: an entry naming a publication
/// deleted behind benchledger's back still ends the chain, but no longer holds.
fn verify_head(
    ledger: &Ledger,
    expected: &str,
    in_bundle: bool,
    entries_checked: bool,
    report: &mut Report,
) -> Result<()> {
    let records = ledger.chain()?;
    let log = ledger.log()?;
    let walk = chain::walk(&records, &log);
    let mut problems = link_problems(&records, in_bundle);
    problems.extend(
        chain::log_links(&walk, in_bundle)
            .into_iter()
            .map(|(label, p)| format!("{label}: {p}")),
    );
    if !entries_checked {
        problems.extend(log_entry_problems(ledger, &records, &log)?);
    }
    let walk = if in_bundle {
        bundle_head_walk(walk, expected)
    } else {
        walk
    };
    let names_expected = |e: &ChainEntry| {
        matches!(e, ChainEntry::Logged(l) if l.kind == LogKind::Publication
            && l.subject_sha256 == expected)
    };
    let bundled_record = in_bundle && walk.last().is_some_and(names_expected);
    if !bundled_record {
        let logged_record = walk.iter().find(|e| names_expected(e));
        match (chain::head_problem(&walk, expected), logged_record) {
            (Some(_), Some(entry)) => problems.push(format!(
                "{expected} is the record hash of a publication, not a head: the chain went on \
                 to its {}, and ends at {} ({}). Keep the head `publish` or `publications \
                 --head` prints",
                entry.label(),
                walk.last().map_or("", ChainEntry::sha256),
                walk.last().map_or(String::new(), ChainEntry::label)
            )),
            (problem, _) => problems.extend(problem),
        }
    }
    report.found.head = Some(Check::new(
        "head",
        format!("the chain ends at {expected}, as expected"),
        problems.clone(),
    ));
    if problems.is_empty() {
        let at = walk.last().map_or(String::new(), ChainEntry::label);
        let at = if bundled_record {
            format!("the publication's record hash, which its {at} names")
        } else {
            at
        };
        report.text.push_str(&format!(
            "chain head: OK — the chain ends at {expected} ({at}), as expected\n"
        ));
    } else {
        report.other_failed = true;
        report.text.push_str("chain head: MISMATCH\n");
        for p in problems {
            report.text.push_str(&format!("  - {p}\n"));
        }
    }
    Ok(())
}

/// A bundle's chain, up to the entry its head may be: the publication's signature entry (which
/// `publish --sign` writes after the publication's own, and `sign` later) when `expected` is its
/// hash; otherwise the entries before the trailing signature entries, so that the publication's
/// log entry, or its record hash, is the head whether or not it was signed since.
fn bundle_head_walk(mut walk: Vec<ChainEntry>, expected: &str) -> Vec<ChainEntry> {
    let is_signature =
        |e: &ChainEntry| matches!(e, ChainEntry::Logged(l) if l.kind == LogKind::Signature);
    let signed_from = walk
        .iter()
        .rposition(|e| !is_signature(e))
        .map_or(0, |i| i + 1);
    let end = walk[signed_from..]
        .iter()
        .position(|e| e.sha256() == expected)
        .map_or(signed_from, |i| signed_from + i + 1);
    walk.truncate(end);
    walk
}

/// Every broken link of the chain, labelled; in a bundle (`in_bundle`), the first entry's
/// predecessor lies outside it.
fn link_problems(entries: &[ChainEntry], in_bundle: bool) -> Vec<String> {
    chain::broken_links(entries, in_bundle)
        .into_iter()
        .map(|(label, p)| format!("{label}: {p}"))
        .collect()
}

/// One section of the integrity report: its name, what was found right, and what was wrong.
fn section(report: &mut Report, name: &str, ok: String, problems: Vec<String>) {
    report
        .found
        .ledger
        .get_or_insert_with(Vec::new)
        .push(Check::new(name, ok.clone(), problems.clone()));
    if problems.is_empty() {
        report.text.push_str(&format!("  {name}: OK — {ok}\n"));
    } else {
        report.other_failed = true;
        report.text.push_str(&format!("  {name}: MISMATCH\n"));
        report
            .text
            .push_str(&format!("{}\n", publication::indent(&problems)));
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Everything the ledger stores, checked against what it was derived from, so that an edit
/// made behind benchledger's back (with the sqlite3 shell, say) shows even where nothing was
/// published:
///
/// - the schema, against what `schema.sql` makes of a new ledger (a dropped trigger, a
///   changed CHECK);
/// - every reference between rows: a row naming an id its table does not hold (a display
///   name, an envelope, an origin planted ahead of the row it names) is named;
/// - every wave's rows, against the content hash stored when it was ingested;
/// - every seat's stored tally, against a tally of its attempts (a rescore reads the tally in
///   their place);
/// - every registered rubric's text, against its SHA-256;
/// - every registered price table's text, against its SHA-256;
/// - every set of registered submission rules, against its SHA-256, and every review recorded
///   with a wave, its findings against their SHA-256 and its rules registered (a section
///   printed only when the ledger holds either);
/// - every stored score, against a rescore of its wave under its rubric;
/// - every entry of the chain: its record hash and its link.
///
/// A bundle's ledger (`in_bundle`) is checked the same way, but for the link of its first
/// entry, which lies outside the bundle.
fn ledger_integrity(ledger: &Ledger, report: &mut Report, in_bundle: bool) -> Result<()> {
    report.text.push_str(if in_bundle {
        "the bundle's ledger, against what it was derived from (as verify --ledger checks a \
         ledger):\n"
    } else {
        "the ledger, against what it was derived from (verify --ledger):\n"
    });
    let schema = ledger.schema_differences()?;
    section(
        report,
        "schema",
        format!(
            "tables, CHECKs, indexes and triggers match schema.sql (version {})",
            crate::ledger::schema_version()
        ),
        schema,
    );
    section(
        report,
        "references",
        "every row names rows that exist".into(),
        ledger.dangling_references()?,
    );
    // A row that cannot be read at all (a count below 0, written with the store's CHECKs
    // off) is a finding, named with its table and column, not a failure to verify (issue 34):
    // the checks from the one that met it on are not run, and the report says so.
    let checked = (|| -> Result<()> {
        let waves = ledger.waves()?;
        check_waves(ledger, &waves, report)?;
        let rubrics = ledger.rubrics()?;
        check_rubrics(&rubrics, report);
        check_prices(ledger, report)?;
        check_reviews(ledger, report)?;
        check_scores(ledger, &rubrics, &waves, report)?;
        check_chain(ledger, report, in_bundle)
    })();
    match checked {
        Err(e @ Error::Ledger { .. }) => {
            section(
                report,
                "rows",
                String::new(),
                vec![format!(
                    "{e}; the checks that read it, and those after them, were not run"
                )],
            );
            Ok(())
        }
        other => other,
    }
}

/// `verify --ledger`'s waves and tallies sections: every wave's rows against its stored
/// content hash, every seat's stored tally against its attempts.
fn check_waves(ledger: &Ledger, waves: &[WaveRow], report: &mut Report) -> Result<()> {
    let mut problems = ledger.problems_of_unlisted_waves()?;
    let mut tally_problems = ledger.tallies_of_unknown_formats()?;
    let mut counts = TallyCounts::default();
    for w in waves {
        let mut digest = match Digest::new(w.content.format, HashSink::new(), &w.wave) {
            Ok(d) => d,
            Err(e) => {
                problems.push(format!("wave {}: {e}", w.wave.id));
                continue;
            }
        };
        let seats = ledger.fold_wave(
            &w.wave.id,
            AttemptFields::ALL,
            |_| Vec::new(),
            |v, a| v.push(a.clone()),
        );
        match seats {
            Ok(seats) => {
                tally_problems.extend(check_tallies(ledger, &w.wave, &seats, &mut counts)?);
                for (seat, attempts) in seats {
                    digest.seat(&SeatData { seat, attempts });
                }
                let sha = digest.sha256();
                if sha != w.content.sha256 {
                    problems.push(format!(
                        "wave {}: its rows no longer hash to the content hash stored when it was \
                         ingested (sha256 {} stored, the rows hash to {}): a row was changed, \
                         added or deleted behind benchledger's back",
                        w.wave.id,
                        short(&w.content.sha256),
                        short(&sha)
                    ));
                }
            }
            Err(e) => problems.push(format!("wave {}: cannot be read: {e}", w.wave.id)),
        }
    }
    section(
        report,
        "waves",
        format!(
            "{}, each one's rows hashing to its stored content hash",
            plural(waves.len(), "wave", "waves")
        ),
        problems,
    );

    let mut summary = format!(
        "{}, each what its seat's attempts add up to",
        plural(counts.tallied, "stored seat tally", "stored seat tallies")
    );
    if counts.untallied > 0 {
        summary.push_str(&format!(
            "; {} none (ingested before tallies were kept: a rescore reads their attempts)",
            plural(counts.untallied, "seat has", "seats have")
        ));
    }
    if counts.older_only > 0 {
        summary.push_str(&format!(
            "; {} in an older format only (the first rescore that wants it keeps one in format \
             {})",
            plural(counts.older_only, "seat has one", "seats have one"),
            tally::LATEST
        ));
    }
    section(report, "tallies", summary, tally_problems);
    Ok(())
}

/// How many seat tallies `verify --ledger` found.
#[derive(Default)]
struct TallyCounts {
    /// Stored tallies, of every format.
    tallied: usize,
    /// Seats with none in any format.
    untallied: usize,
    /// Seats with one in an older format and none in the latest.
    older_only: usize,
}

/// The problems of the seat tallies stored for one wave's seats, in every format the build
/// knows, each against the tally of the seat's attempts written in that format.
fn check_tallies(
    ledger: &Ledger,
    wave: &Wave,
    seats: &[(Seat, Vec<Attempt>)],
    counts: &mut TallyCounts,
) -> Result<Vec<String>> {
    let basis = Basis::of(wave);
    let fresh: Vec<SeatTotals> = seats
        .iter()
        .map(|(_, attempts)| FigureTally::of_attempts(&basis, attempts).totals())
        .collect();
    let mut has = vec![[false; tally::VERSIONS.len()]; seats.len()];
    let mut problems = Vec::new();
    for (v, &format) in tally::VERSIONS.iter().enumerate() {
        let mut stored: std::collections::HashMap<String, String> = ledger
            .seat_tallies_in(std::slice::from_ref(&wave.id), format)?
            .into_iter()
            .flatten()
            .filter_map(|(seat, text)| Some((seat.id, text?)))
            .collect();
        for (i, (seat, _)) in seats.iter().enumerate() {
            let Some(text) = stored.remove(&seat.id) else {
                continue;
            };
            has[i][v] = true;
            counts.tallied += 1;
            // A tally of an older format is never read for its totals, only checked.
            let (named, used) = if format == tally::LATEST {
                (
                    String::new(),
                    ", and a rescore would read it instead of them",
                )
            } else {
                (format!(" in format {format}"), "")
            };
            let problem = match tally::read(format, &text) {
                // Unreadable, it is not used: a rescore reads the attempts.
                Err(e) => Some(format!(
                    "its stored tally{named} does not read ({e}), so a rescore reads its \
                     attempts instead"
                )),
                Ok(_) if tally::write_in(format, &fresh[i]).as_deref() != Some(text.as_str()) => {
                    Some(format!(
                        "its stored tally{named} is not what its attempts add up to{used}"
                    ))
                }
                Ok(_) => None,
            };
            if let Some(problem) = problem {
                problems.push(format!(
                    "wave {}, seat {}: {problem}: it was written or changed behind \
                     benchledger's back",
                    wave.id, seat.id
                ));
            }
        }
    }
    for formats in has {
        if formats.iter().all(|h| !h) {
            counts.untallied += 1;
        } else if !formats[tally::VERSIONS.len() - 1] {
            counts.older_only += 1;
        }
    }
    Ok(problems)
}

/// `verify --ledger`'s rubrics section: every registered rubric's text against its SHA-256
/// (and its name against what it says).
fn check_rubrics(rubrics: &[RubricRow], report: &mut Report) {
    let mut problems = Vec::new();
    for r in rubrics {
        let origin = std::path::PathBuf::from(format!("{} (registered text)", r.id()));
        if let Ok(parsed) = crate::rubric::parse(&origin, &r.text) {
            problems.extend(publication::rubric_name_problem(r, &parsed));
            // Registered with --allow-scale-violation exactly when `rubric check` rejects it.
            let proven = crate::rubric::check(&parsed).ok();
            if proven == r.scale_violation {
                problems.push(format!(
                    "rubric {}: it is marked as {} a scale violation, but `rubric check` {} it: \
                     the mark was changed behind benchledger's back",
                    r.id(),
                    if r.scale_violation {
                        "registered with"
                    } else {
                        "free of"
                    },
                    if proven { "passes" } else { "rejects" }
                ));
            }
        }
        let sha = sha256_hex(r.text.as_bytes());
        if sha != r.sha256 {
            problems.push(format!(
                "rubric {}: its text hashes to {}, not to its registered sha256 {}: it was edited \
                 behind benchledger's back",
                r.id(),
                short(&sha),
                short(&r.sha256)
            ));
        }
    }
    section(
        report,
        "rubrics",
        format!(
            "{}, each hashing to its registered sha256",
            plural(
                rubrics.len(),
                "registered rubric text",
                "registered rubric texts"
            )
        ),
        problems,
    );
}

/// `verify --ledger`'s prices section: every registered price table's text against its
/// SHA-256 (and its name against what it says).
fn check_prices(ledger: &Ledger, report: &mut Report) -> Result<()> {
    let tables = ledger.price_tables()?;
    let mut problems = Vec::new();
    for t in &tables {
        let origin = std::path::PathBuf::from(format!("price table {} (registered text)", t.id()));
        match crate::prices::parse(&origin, &t.text) {
            Ok(parsed) => problems.extend(publication::prices_name_problem(t, &parsed)),
            Err(e) => problems.push(format!(
                "price table {}: its text no longer parses: {e}",
                t.id()
            )),
        }
        let sha = sha256_hex(t.text.as_bytes());
        if sha != t.sha256 {
            problems.push(format!(
                "price table {}: its text hashes to {}, not to its registered sha256 {}: it was \
                 edited behind benchledger's back",
                t.id(),
                short(&sha),
                short(&t.sha256)
            ));
        }
    }
    section(
        report,
        "prices",
        if tables.is_empty() {
            "no price table registered".into()
        } else {
            format!(
                "{}, each hashing to its registered sha256",
                plural(
                    tables.len(),
                    "registered price table text",
                    "registered price table texts"
                )
            )
        },
        problems,
    );
    Ok(())
}

/// `verify --ledger`'s reviews section, when the ledger holds submission rules or reviews:
/// each registered rules text against its SHA-256 and its own name@version, and each review's
/// findings against their SHA-256, its rules registered under the hash it names.
fn check_reviews(ledger: &Ledger, report: &mut Report) -> Result<()> {
    let (rules, reviews) = (ledger.rules_rows()?, ledger.reviews()?);
    if rules.is_empty() && reviews.is_empty() {
        return Ok(());
    }
    let mut problems = Vec::new();
    for r in &rules {
        let origin = std::path::PathBuf::from(format!("rules {} (registered text)", r.id()));
        match crate::review::parse_rules(&origin, &r.text) {
            Ok(p) if (p.name.as_str(), p.version) != (r.name.as_str(), r.version) => {
                problems.push(format!(
                    "rules {}: the registered text says it is {}@{}",
                    r.id(),
                    p.name,
                    p.version
                ))
            }
            Ok(_) => {}
            Err(e) => problems.push(format!("rules {}: its text no longer parses: {e}", r.id())),
        }
        let sha = sha256_hex(r.text.as_bytes());
        if sha != r.sha256 {
            problems.push(format!(
                "rules {}: their text hashes to {}, not to their registered sha256 {}: it was \
                 edited behind benchledger's back",
                r.id(),
                short(&sha),
                short(&r.sha256)
            ));
        }
    }
    for v in &reviews {
        let sha = sha256_hex(v.findings.as_bytes());
        if sha != v.findings_sha256 {
            problems.push(format!(
                "the review of wave {} under rules {}: its findings hash to {}, not to the \
                 recorded {}: they were edited behind benchledger's back",
                v.wave,
                v.rules(),
                short(&sha),
                short(&v.findings_sha256)
            ));
        }
        if !rules.iter().any(|r| r.sha256 == v.rules_sha256) {
            problems.push(format!(
                "the review of wave {} names rules {} with sha256 {}, which are not registered",
                v.wave,
                v.rules(),
                short(&v.rules_sha256)
            ));
        }
    }
    section(
        report,
        "reviews",
        format!(
            "{} and {}, each hashing to its recorded sha256",
            plural(
                rules.len(),
                "registered rules text",
                "registered rules texts"
            ),
            plural(reviews.len(), "review", "reviews")
        ),
        problems,
    );
    Ok(())
}

/// `verify --ledger`'s scores section: every stored score against a rescore of its wave under
/// its rubric.
fn check_scores(
    ledger: &Ledger,
    rubrics: &[RubricRow],
    waves: &[WaveRow],
    report: &mut Report,
) -> Result<()> {
    let mut problems = Vec::new();
    let mut checked = 0;
    for r in rubrics {
        let origin = std::path::PathBuf::from(format!("{} (registered text)", r.id()));
        let rubric = match crate::rubric::parse(&origin, &r.text) {
            Ok(rubric) => rubric,
            Err(e) => {
                problems.push(format!("rubric {}: its text no longer parses: {e}", r.id()));
                continue;
            }
        };
        for w in waves {
            let stored = ledger.stored_scores(&r.sha256, &w.wave.id)?;
            if stored.is_empty() {
                continue;
            }
            let fresh = rescore::streamed(ledger, &rubric, &w.wave.id)?;
            for s in &fresh.seats {
                match stored.iter().find(|x| x.score.seat == s.seat) {
                    Some(x) => {
                        checked += 1;
                        if let Some(d) = score_difference(&x.score, s) {
                            problems.push(format!(
                                "rubric {}, wave {}, seat {}: {d}",
                                r.id(),
                                w.wave.id,
                                s.seat
                            ));
                        }
                    }
                    None => problems.push(format!(
                        "rubric {}, wave {}, seat {}: its stored score is missing (the others \
                         are there)",
                        r.id(),
                        w.wave.id,
                        s.seat
                    )),
                }
            }
        }
    }
    section(
        report,
        "scores",
        format!(
            "{}, each equal to a rescore under its rubric",
            plural(checked, "stored score", "stored scores")
        ),
        problems,
    );
    Ok(())
}

/// `verify --ledger`'s chain section: every publication's and withdrawal's record hash and
/// link; then its log section ([`check_log`]).
fn check_chain(ledger: &Ledger, report: &mut Report, in_bundle: bool) -> Result<()> {
    let entries = ledger.chain()?;
    let log = ledger.log()?;
    let mut problems = link_problems(&entries, in_bundle);
    for e in &entries {
        match e {
            ChainEntry::Withdrawal(w) => problems.extend(
                chain::withdrawal_problems(w)
                    .into_iter()
                    .map(|p| format!("{}: {p}", e.label())),
            ),
            ChainEntry::Publication(p) => {
                if let Some(problem) = record_problem(p) {
                    problems.push(format!("{}: {problem}", e.label()));
                }
            }
            ChainEntry::Logged(_) => {}
        }
    }
    section(
        report,
        "chain",
        match (entries.last(), log.is_empty()) {
            (Some(last), true) => format!(
                "{}, every record and link intact; head {} (keep it outside the ledger and \
                 check it with --expect-head)",
                plural(entries.len(), "entry", "entries"),
                last.sha256()
            ),
            (Some(_), false) => format!(
                "{}, every record and link intact",
                plural(entries.len(), "entry", "entries")
            ),
            (None, _) => "empty".into(),
        },
        problems,
    );
    check_log(ledger, &entries, &log, report, in_bundle)
}

/// What is wrong with each log entry, against its own hash and the row it names, labelled.
fn log_entry_problems(
    ledger: &Ledger,
    records: &[ChainEntry],
    log: &[LogEntryRow],
) -> Result<Vec<String>> {
    let (waves, rubrics, price_tables) =
        (ledger.waves()?, ledger.rubrics()?, ledger.price_tables()?);
    let rules = ledger.rules_rows()?;
    let contents = ledger.logged_contents()?;
    let named = chain::Named {
        waves: &waves,
        rubrics: &rubrics,
        price_tables: &price_tables,
        rules: &rules,
        records,
        contents: &contents,
    }
    .index();
    let mut out = Vec::new();
    for e in log {
        let mut problems = chain::entry_problems(e, &named);
        // A publication made since the log began was written with its claims row (schema
        // version 7): without one, its claims would be read from its published text instead.
        if e.kind == LogKind::Publication
            && let Ok(id) = e.subject.parse::<i64>()
            && problems.is_empty()
            && ledger.publication_claims(id)? == StoredClaims::Unrecorded
        {
            problems.push(format!(
                "publication #{id} has no claims row, though it was written with one (every \
                 publication since schema version 7 is): the row was deleted behind \
                 benchledger's back"
            ));
        }
        out.extend(problems.into_iter().map(|p| format!("{}: {p}", e.label())));
    }
    Ok(out)
}

/// `verify --ledger`'s log section: every log entry's hash and link, each against the row it
/// names (deleted, or rewritten with its hash), and the rows added after the log began that no
/// entry names.
fn check_log(
    ledger: &Ledger,
    records: &[ChainEntry],
    log: &[LogEntryRow],
    report: &mut Report,
    in_bundle: bool,
) -> Result<()> {
    let walk = chain::walk(records, log);
    let mut problems: Vec<String> = chain::log_links(&walk, in_bundle)
        .into_iter()
        .map(|(label, p)| format!("{label}: {p}"))
        .collect();
    problems.extend(log_entry_problems(ledger, records, log)?);
    let coverage = ledger.log_coverage()?;
    if !in_bundle {
        problems.extend(coverage.unaccounted.iter().map(|what| {
            format!(
                "{what}: no log entry names it, and nothing from before the log began does \
                 (no publication or withdrawal the log's first entry links to): it was added \
                 behind benchledger's back, or nothing shows it is older than the log"
            )
        }));
    }
    let mut older = Vec::new();
    for (n, one, many) in [
        (coverage.older[0], "wave", "waves"),
        (coverage.older[1], "rubric", "rubrics"),
        (coverage.older[2], "price table", "price tables"),
    ] {
        if n > 0 {
            older.push(plural(n, one, many));
        }
    }
    let mut ok = match walk.last() {
        Some(last) if !log.is_empty() => format!(
            "{}, every record and link intact, each naming a row as the ledger holds it; head \
             {} (keep it outside the ledger and check it with --expect-head)",
            plural(log.len(), "entry", "entries"),
            last.sha256()
        ),
        _ => format!(
            "no entries (nothing was written since the log began, at schema version {})",
            crate::ledger::LOG_SCHEMA_VERSION
        ),
    };
    if !older.is_empty() && !in_bundle {
        ok.push_str(&format!(
            "; {} from before the log began (named by the chain the log's first entry links \
             to), checked against their own hashes only",
            older.join(", ")
        ));
    }
    section(report, "log", ok, problems);
    Ok(())
}

/// Whether a publication's record hash still covers its fields (the reproduction itself is
/// `verify --all`'s).
fn record_problem(p: &PublicationRow) -> Option<String> {
    let record = publication::Record {
        id: p.id,
        wave: &p.wave,
        rubric_sha256: &p.rubric_sha256,
        title: &p.title,
        created_at: &p.created_at,
        input_sha256: &p.input_sha256,
        output_sha256: &p.output_sha256,
        prev_sha256: p.prev_sha256.as_deref(),
    };
    match crate::formats::record::publication_sha256(p.record_format, &record) {
        Ok(sha) if sha == p.sha256 => None,
        Ok(_) => Some(
            "the publication record was edited: its fields no longer hash to its sha256".into(),
        ),
        Err(e) => Some(format!("its record cannot be checked: {e}")),
    }
}

/// How a stored score differs from a fresh one, if it does: every stored value must be exactly
/// what a rescore gives.
fn score_difference(stored: &SeatScore, fresh: &SeatScore) -> Option<String> {
    let num = |x: Option<f64>| x.map_or("undefined".to_string(), |x| x.to_string());
    let mut out = Vec::new();
    if stored.score.map(f64::to_bits) != fresh.score.map(f64::to_bits) {
        out.push(format!(
            "score {} stored, {} on rescoring",
            num(stored.score),
            num(fresh.score)
        ));
    }
    if stored.rank != fresh.rank {
        out.push(format!(
            "rank {} stored, {} on rescoring",
            stored.rank.map_or("none".into(), |r| r.to_string()),
            fresh.rank.map_or("none".into(), |r| r.to_string())
        ));
    }
    let same_factors = stored.factors.len() == fresh.factors.len()
        && stored
            .factors
            .iter()
            .zip(&fresh.factors)
            .all(|((k, v), (l, w))| k == l && v.to_bits() == w.to_bits());
    if !same_factors {
        out.push("the values that made it differ from a rescore".into());
    }
    for (what, a, b) in [
        ("gate", &stored.gate, &fresh.gate),
        ("tie-break", &stored.tie, &fresh.tie),
        ("note", &stored.note, &fresh.note),
    ] {
        if a != b {
            out.push(format!("its {what} differs from a rescore"));
        }
    }
    (!out.is_empty()).then(|| out.join("; "))
}

/// The error of a verification whose only failures are signatures: the publications named.
fn badly_signed_message(ids: &[i64], trusted: Option<&PublicKey>) -> String {
    let named = ids
        .iter()
        .map(|id| format!("#{id}"))
        .collect::<Vec<_>>()
        .join(", ");
    let (publications, are) = if ids.len() == 1 {
        ("publication", "is")
    } else {
        ("publications", "are")
    };
    match trusted {
        Some(key) => format!(
            "verify: {publications} {named} {are} not signed by the trusted key {} (see above)",
            short(&key.id())
        ),
        None => format!(
            "verify: the signed statement of {publications} {named} does not match {} (see above)",
            if ids.len() == 1 { "it" } else { "them" }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_that_makes_no_sense_is_refused_before_the_ledger_is_opened() {
        let never = || -> Result<Ledger> { panic!("the ledger was opened") };
        for req in [
            Request::default(),
            Request {
                all: true,
                expect_head: Some("abc"),
                ..Default::default()
            },
        ] {
            assert!(
                matches!(
                    run(&req, never),
                    Err(Error::Usage(_) | Error::Argument { .. })
                ),
                "{req:?}"
            );
        }
    }
}
