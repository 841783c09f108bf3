//! The rules' `[[scan]]` patterns over every trajectory the submission holds, and the
//! `[secrets]` search over every file it holds (and every member of its archives).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;

use super::finding::{Evidence, Finding};
use super::rules::Rules;
use super::runs::{Run, Trajectory};
use super::trajectory::{Hit, Scanner, TrialFacts, WHOLE};
use super::verdict::Verdict;
use super::{Checks, secrets};
use crate::import::{ReadSeek, Source};

/// A ZIP archive's first bytes.
const ZIP: &[u8; 4] = b"PK\x03\x04";

/// At most this many keys are kept per file (all are counted).
const KEYS_PER_FILE: usize = 20;

pub(super) fn scans(
    c: &mut Checks,
    src: &dyn Source,
    rules: &Rules,
    run: &Run,
    files: &[(PathBuf, String)],
) {
    if !rules.scans.is_empty() {
        trajectories(c, src, rules, run);
    }
    if let Some(verdict) = rules.secrets {
        keys(c, src, verdict, files);
    }
}

/// Each hit as evidence: the trajectory's file, its problem and trial (the file's, or a log's
/// sample's), its step and excerpt.
fn evidence(t: &Trajectory, member: Option<&str>, hit: &Hit, facts: &[TrialFacts]) -> Evidence {
    let f = facts.get(hit.trial);
    let file = match member {
        Some(m) => format!("{}#{m}", t.shown),
        None => t.shown.clone(),
    };
    Evidence {
        file: Some(file),
        problem: t
            .problem
            .clone()
            .or_else(|| f.and_then(|f| f.problem.clone())),
        trial: t
            .trial
            .clone()
            .or_else(|| f.and_then(|f| f.epoch.map(|e| format!("epoch {e}")))),
        step: hit.step.clone(),
        excerpt: Some(hit.excerpt.clone()),
        ..Evidence::default()
    }
}

fn trajectories(c: &mut Checks, src: &dyn Source, rules: &Rules, run: &Run) {
    if run.trajectories.is_empty() {
        for s in &rules.scans {
            c.unchecked(
                &format!("scan.{}", s.id),
                Verdict::NeedsReview,
                "the submission holds no trajectory to search",
            );
        }
        return;
    }
    let scanner = Scanner::new(&rules.scans);
    let mut scanned = Scanned::default();
    for t in &run.trajectories {
        match src.open(&t.path) {
            Ok(opened) if t.archive => scanned.archive(&scanner, t, opened),
            Ok(opened) => scanned.file(&scanner, t, opened),
            Err(e) => scanned.unreadable.push(Evidence {
                excerpt: Some(e.to_string()),
                ..Evidence::file(t.shown.clone())
            }),
        }
    }
    scanned.report(c, rules);
}

/// What searching the trajectories found: each scan's hits (by the scan's index), the files
/// that cannot be read, and how many were read.
#[derive(Default)]
struct Scanned {
    by_scan: BTreeMap<usize, Vec<Evidence>>,
    unreadable: Vec<Evidence>,
    read: u64,
    buf: Vec<u8>,
}

impl Scanned {
    /// Searches each sample of an Inspect log archive (`samples/*.json`), in name order.
    fn archive(&mut self, scanner: &Scanner, t: &Trajectory, opened: Box<dyn ReadSeek + '_>) {
        let mut zip = match zip::ZipArchive::new(std::io::BufReader::new(opened)) {
            Ok(z) => z,
            Err(e) => {
                self.unreadable.push(Evidence {
                    excerpt: Some(format!("not a ZIP archive: {e}")),
                    ..Evidence::file(t.shown.clone())
                });
                return;
            }
        };
        let mut names: Vec<String> = zip
            .file_names()
            .filter_map(|n| n.ok().map(|n| n.into_owned()))
            .filter(|n| n.starts_with("samples/") && n.ends_with(".json"))
            .collect();
        names.sort();
        for name in names {
            let member = match zip.by_name(&name) {
                Ok(m) => m,
                Err(e) => {
                    self.unreadable.push(Evidence {
                        excerpt: Some(e.to_string()),
                        ..Evidence::file(format!("{}#{name}", t.shown))
                    });
                    continue;
                }
            };
            let len = member.size();
            let found = scanner.scan_reader(t.layout, member, len, &mut self.buf);
            self.add(t, Some(&name), found);
        }
    }

    /// Searches a trajectory file whole.
    fn file(&mut self, scanner: &Scanner, t: &Trajectory, mut opened: Box<dyn ReadSeek + '_>) {
        let len = std::io::Seek::seek(&mut opened, std::io::SeekFrom::End(0))
            .and_then(|n| std::io::Seek::seek(&mut opened, std::io::SeekFrom::Start(0)).map(|_| n))
            .unwrap_or(WHOLE + 1);
        let found = scanner.scan_reader(t.layout, opened, len, &mut self.buf);
        self.add(t, None, found);
    }

    /// A file's (or an archive member's) search: its hits as evidence, or it unreadable.
    fn add(
        &mut self,
        t: &Trajectory,
        member: Option<&str>,
        found: Result<(Vec<Hit>, Vec<TrialFacts>), String>,
    ) {
        match found {
            Ok((hits, facts)) => {
                self.read += 1;
                for h in &hits {
                    self.by_scan
                        .entry(h.scan)
                        .or_default()
                        .push(evidence(t, member, h, &facts));
                }
            }
            Err(e) => self.unreadable.push(Evidence {
                excerpt: Some(e),
                ..Evidence::file(match member {
                    Some(name) => format!("{}#{name}", t.shown),
                    None => t.shown.clone(),
                })
            }),
        }
    }

    /// The findings: the trajectories that cannot be read, then each scan found or not.
    fn report(mut self, c: &mut Checks, rules: &Rules) {
        if !self.unreadable.is_empty() {
            c.found(
                Finding::new(
                    "integrity",
                    Verdict::NeedsReview,
                    "trajectories that cannot be read as JSON (not searched)",
                )
                .with(self.unreadable),
            );
        }
        let read = self.read;
        for (i, s) in rules.scans.iter().enumerate() {
            let rule = format!("scan.{}", s.id);
            match self.by_scan.remove(&i) {
                None => c.passed(
                    &rule,
                    format!(
                        "not found in {read} trajector{}",
                        if read == 1 { "y" } else { "ies" }
                    ),
                ),
                Some(hits) => {
                    let what = s
                        .description
                        .clone()
                        .unwrap_or_else(|| format!("the pattern `{}`", s.pattern));
                    c.found(
                        Finding::new(
                            &rule,
                            s.verdict,
                            format!(
                                "{what}: found {} time{} in the {}",
                                hits.len(),
                                if hits.len() == 1 { "" } else { "s" },
                                match s.place {
                                    super::Place::Any => "trajectories".to_string(),
                                    p => format!("trajectories' {}", p.key()),
                                }
                            ),
                        )
                        .with(hits),
                    );
                }
            }
        }
    }
}

/// Keys in one stream, as evidence.
fn search_stream(
    reader: impl Read,
    shown: String,
    found: &mut Vec<Evidence>,
    count: &mut u64,
    unreadable: &mut Vec<Evidence>,
) {
    match secrets::search(reader, KEYS_PER_FILE) {
        Ok((keys, n)) => {
            *count += n;
            found.extend(keys.into_iter().map(|k| Evidence {
                line: Some(k.line),
                excerpt: Some(format!("{} key {}", k.kind, k.masked)),
                ..Evidence::file(shown.clone())
            }));
        }
        Err(e) => unreadable.push(Evidence {
            excerpt: Some(e.to_string()),
            ..Evidence::file(shown)
        }),
    }
}

fn keys(c: &mut Checks, src: &dyn Source, verdict: Verdict, files: &[(PathBuf, String)]) {
    let mut found = Vec::new();
    let mut count = 0u64;
    let mut unreadable = Vec::new();
    for (path, shown) in files {
        let mut f = match src.open(path) {
            Ok(f) => f,
            Err(e) => {
                unreadable.push(Evidence {
                    excerpt: Some(e.to_string()),
                    ..Evidence::file(shown.clone())
                });
                continue;
            }
        };
        let mut head = [0u8; 4];
        let n = f.read(&mut head).unwrap_or(0);
        let _ = std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(0));
        // An archive: each member searched as it is stored uncompressed (a compressed one hides
        // its keys from a search of the raw bytes); a broken archive is searched as bytes.
        if n == 4 && &head == ZIP {
            if let Ok(mut zip) = zip::ZipArchive::new(std::io::BufReader::new(f)) {
                for i in 0..zip.len() {
                    let Ok(member) = zip.by_index(i) else {
                        continue;
                    };
                    if member.is_dir() {
                        continue;
                    }
                    let name = match member.name() {
                        Ok(n) => format!("{shown}#{n}"),
                        Err(_) => format!("{shown}#member {i}"),
                    };
                    search_stream(member, name, &mut found, &mut count, &mut unreadable);
                }
                continue;
            }
            let Ok(f) = src.open(path) else { continue };
            search_stream(f, shown.clone(), &mut found, &mut count, &mut unreadable);
        } else {
            search_stream(f, shown.clone(), &mut found, &mut count, &mut unreadable);
        }
    }
    if !unreadable.is_empty() {
        c.found(
            Finding::new(
                "integrity",
                Verdict::NeedsReview,
                "files that cannot be read (not searched for keys)",
            )
            .with(unreadable),
        );
    }
    if count == 0 {
        c.passed(
            "secrets",
            format!(
                "no key or token in {} file{}",
                files.len(),
                if files.len() == 1 { "" } else { "s" }
            ),
        );
    } else {
        c.found(
            Finding::new(
                "secrets",
                verdict,
                format!(
                    "{count} key{} or token{} in the submission's files (shown masked): remove \
                     them from the submission, and revoke them, since they have been shared",
                    if count == 1 { "" } else { "s" },
                    if count == 1 { "" } else { "s" }
                ),
            )
            .with(found),
        );
    }
}
