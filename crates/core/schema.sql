-- benchledger's ledger schema: the single source of truth.
--
-- The file is a list of migrations, each opened by a line `-- migration N`, numbered from 1
-- without gaps. A ledger's `PRAGMA user_version` is the last migration it has run; opening a
-- ledger runs the newer ones, in order, in one transaction. History is append-only: never edit,
-- remove or reorder a migration that has shipped; add a new one at the end.
--
-- Raw facts (waves, seats, attempts, trace steps) are append-only: triggers refuse any UPDATE or
-- DELETE. Scores are derived and may be replaced. Registered rubric texts, registered price
-- tables and publications are frozen.

-- migration 1
CREATE TABLE suite (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE CHECK (length(name) > 0)
) STRICT;

CREATE TABLE wave (
    id                              INTEGER PRIMARY KEY,
    slug                            TEXT NOT NULL UNIQUE CHECK (length(slug) > 0),
    suite_id                        INTEGER NOT NULL REFERENCES suite(id),
    started_at                      TEXT NOT NULL,
    notes                           TEXT,
    -- The suite's declared size; NULL when undeclared. With declared ids, see wave_problem.
    suite_problems                  INTEGER CHECK (suite_problems >= 0),
    suite_problems_listed           INTEGER NOT NULL DEFAULT 0 CHECK (suite_problems_listed IN (0, 1)),
    -- load
    parallel_sessions               INTEGER CHECK (parallel_sessions >= 1),
    tool_server_sessions            INTEGER CHECK (tool_server_sessions >= 1),
    serial_rerun                    INTEGER CHECK (serial_rerun IN (0, 1)),
    -- accounting
    input_tokens_include_cache_reads INTEGER NOT NULL CHECK (input_tokens_include_cache_reads IN (0, 1)),
    price_source                    TEXT,
    -- budget, per problem
    budget_tokens                   REAL CHECK (budget_tokens > 0),
    budget_wall_s                   REAL CHECK (budget_wall_s > 0),
    budget_cost_usd                 REAL CHECK (budget_cost_usd > 0),
    -- provenance
    harness_version                 TEXT,
    producer                        TEXT,
    producer_version                TEXT,
    -- SHA-256 of the wave's canonical content, to recognise a re-ingest.
    content_sha256                  TEXT NOT NULL CHECK (length(content_sha256) = 64),
    ingested_at                     TEXT NOT NULL
) STRICT;

CREATE TABLE wave_problem (
    wave_id INTEGER NOT NULL REFERENCES wave(id),
    problem TEXT NOT NULL,
    PRIMARY KEY (wave_id, problem)
) STRICT, WITHOUT ROWID;

CREATE TABLE seat (
    id       INTEGER PRIMARY KEY,
    wave_id  INTEGER NOT NULL REFERENCES wave(id),
    slug     TEXT NOT NULL CHECK (length(slug) > 0),
    model    TEXT NOT NULL,
    provider TEXT NOT NULL,
    harness  TEXT NOT NULL,
    config   TEXT,
    UNIQUE (wave_id, slug)
) STRICT;

CREATE TABLE attempt (
    id                       INTEGER PRIMARY KEY,
    seat_id                  INTEGER NOT NULL REFERENCES seat(id),
    problem                  TEXT NOT NULL CHECK (length(problem) > 0),
    trial                    INTEGER NOT NULL CHECK (trial >= 1),
    correct                  INTEGER NOT NULL CHECK (correct IN (0, 1)),
    outcome                  REAL CHECK (outcome BETWEEN 0 AND 1),
    input_tokens             INTEGER CHECK (input_tokens >= 0),
    output_tokens            INTEGER CHECK (output_tokens >= 0),
    input_tokens_cache_read  INTEGER CHECK (input_tokens_cache_read >= 0),
    input_tokens_cache_write INTEGER CHECK (input_tokens_cache_write >= 0),
    wall_s                   REAL CHECK (wall_s >= 0),
    cost_usd                 REAL CHECK (cost_usd >= 0),
    steps                    INTEGER CHECK (steps >= 0),
    errors                   INTEGER CHECK (errors >= 0),
    -- JSON array of {"item": text, "pass": bool}, as given; NULL when absent.
    checklist                TEXT,
    UNIQUE (seat_id, problem, trial)
) STRICT;

CREATE TABLE trace_step (
    attempt_id INTEGER NOT NULL REFERENCES attempt(id),
    idx        INTEGER NOT NULL CHECK (idx >= 0),
    tool       TEXT NOT NULL,
    ok         INTEGER NOT NULL CHECK (ok IN (0, 1)),
    error      TEXT,
    PRIMARY KEY (attempt_id, idx)
) STRICT, WITHOUT ROWID;

CREATE TABLE rubric (
    id              INTEGER PRIMARY KEY,
    name            TEXT NOT NULL,
    version         INTEGER NOT NULL CHECK (version >= 1),
    sha256          TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
    -- The rubric file's text, verbatim, so old scores stay reproducible after the file changes.
    text            TEXT NOT NULL,
    -- 1 when `rubric check` rejected it and it was registered with --allow-scale-violation.
    scale_violation INTEGER NOT NULL CHECK (scale_violation IN (0, 1)),
    added_at        TEXT NOT NULL,
    UNIQUE (name, version)
) STRICT;

-- Derived: what a registered rubric makes of each seat. Replaced by rescoring.
CREATE TABLE score (
    rubric_id INTEGER NOT NULL REFERENCES rubric(id),
    seat_id   INTEGER NOT NULL REFERENCES seat(id),
    -- NULL when the score is undefined for this seat; `note` says why.
    score     REAL,
    rank      INTEGER,
    -- JSON object of the named values that made the score.
    factors   TEXT NOT NULL,
    -- The gate the seat failed, if any.
    gate      TEXT,
    -- How a tie on score was settled, if the seat tied.
    tie       TEXT,
    -- Why the score is undefined, when it is.
    note      TEXT,
    PRIMARY KEY (rubric_id, seat_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE publication (
    id             INTEGER PRIMARY KEY,
    wave_id        INTEGER NOT NULL REFERENCES wave(id),
    rubric_id      INTEGER NOT NULL REFERENCES rubric(id),
    -- The rubric text's SHA-256 at publication, kept here so an edited rubric row is caught.
    rubric_sha256  TEXT NOT NULL CHECK (length(rubric_sha256) = 64),
    title          TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    -- The canonical serialisation of every input row the leaderboard used, and its SHA-256.
    input          TEXT NOT NULL,
    input_sha256   TEXT NOT NULL CHECK (length(input_sha256) = 64),
    -- The rendered leaderboard, byte for byte, and its SHA-256.
    output         TEXT NOT NULL,
    output_sha256  TEXT NOT NULL CHECK (length(output_sha256) = 64),
    -- The previous publication's sha256 (NULL for the first): the publications form a chain.
    prev_sha256    TEXT CHECK (length(prev_sha256) = 64),
    -- SHA-256 over this record's fields and prev_sha256.
    sha256         TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64)
) STRICT;

CREATE INDEX seat_by_wave ON seat(wave_id);
CREATE INDEX attempt_by_seat ON attempt(seat_id, problem, trial);
CREATE INDEX score_by_seat ON score(seat_id);

CREATE TRIGGER wave_no_update BEFORE UPDATE ON wave
BEGIN SELECT RAISE(ABORT, 'benchledger: waves are append-only raw facts and cannot be changed'); END;
CREATE TRIGGER wave_no_delete BEFORE DELETE ON wave
BEGIN SELECT RAISE(ABORT, 'benchledger: waves are append-only raw facts and cannot be deleted'); END;
CREATE TRIGGER wave_problem_no_update BEFORE UPDATE ON wave_problem
BEGIN SELECT RAISE(ABORT, 'benchledger: declared problems are append-only raw facts and cannot be changed'); END;
CREATE TRIGGER wave_problem_no_delete BEFORE DELETE ON wave_problem
BEGIN SELECT RAISE(ABORT, 'benchledger: declared problems are append-only raw facts and cannot be deleted'); END;
CREATE TRIGGER seat_no_update BEFORE UPDATE ON seat
BEGIN SELECT RAISE(ABORT, 'benchledger: seats are append-only raw facts and cannot be changed'); END;
CREATE TRIGGER seat_no_delete BEFORE DELETE ON seat
BEGIN SELECT RAISE(ABORT, 'benchledger: seats are append-only raw facts and cannot be deleted'); END;
CREATE TRIGGER attempt_no_update BEFORE UPDATE ON attempt
BEGIN SELECT RAISE(ABORT, 'benchledger: attempts are append-only raw facts and cannot be changed'); END;
CREATE TRIGGER attempt_no_delete BEFORE DELETE ON attempt
BEGIN SELECT RAISE(ABORT, 'benchledger: attempts are append-only raw facts and cannot be deleted'); END;
CREATE TRIGGER trace_step_no_update BEFORE UPDATE ON trace_step
BEGIN SELECT RAISE(ABORT, 'benchledger: trace steps are append-only raw facts and cannot be changed'); END;
CREATE TRIGGER trace_step_no_delete BEFORE DELETE ON trace_step
BEGIN SELECT RAISE(ABORT, 'benchledger: trace steps are append-only raw facts and cannot be deleted'); END;
CREATE TRIGGER rubric_no_update BEFORE UPDATE ON rubric
BEGIN SELECT RAISE(ABORT, 'benchledger: a registered rubric version is immutable; register a new version instead'); END;
CREATE TRIGGER rubric_no_delete BEFORE DELETE ON rubric
BEGIN SELECT RAISE(ABORT, 'benchledger: a registered rubric version is immutable and cannot be deleted'); END;
CREATE TRIGGER publication_no_update BEFORE UPDATE ON publication
BEGIN SELECT RAISE(ABORT, 'benchledger: publications are frozen and cannot be changed'); END;
CREATE TRIGGER publication_no_delete BEFORE DELETE ON publication
BEGIN SELECT RAISE(ABORT, 'benchledger: publications are frozen and cannot be deleted'); END;

-- migration 2
-- Hashes are 64 lower-case hex digits (a stored hash that is not cannot be cut or compared
-- safely); each wave and publication records the version of the serialisation its hashes were
-- computed over (docs/formats.md); withdrawals and supersessions are appended to the same chain
-- as publications. SQLite cannot add a CHECK to a column in place, so wave, rubric and
-- publication are rebuilt (foreign keys are checked after the migration, not during it).
CREATE TABLE wave_v2 (
    id                              INTEGER PRIMARY KEY,
    slug                            TEXT NOT NULL UNIQUE CHECK (length(slug) > 0),
    suite_id                        INTEGER NOT NULL REFERENCES suite(id),
    started_at                      TEXT NOT NULL,
    notes                           TEXT,
    suite_problems                  INTEGER CHECK (suite_problems >= 0),
    suite_problems_listed           INTEGER NOT NULL DEFAULT 0 CHECK (suite_problems_listed IN (0, 1)),
    parallel_sessions               INTEGER CHECK (parallel_sessions >= 1),
    tool_server_sessions            INTEGER CHECK (tool_server_sessions >= 1),
    serial_rerun                    INTEGER CHECK (serial_rerun IN (0, 1)),
    input_tokens_include_cache_reads INTEGER NOT NULL CHECK (input_tokens_include_cache_reads IN (0, 1)),
    price_source                    TEXT,
    budget_tokens                   REAL CHECK (budget_tokens > 0),
    budget_wall_s                   REAL CHECK (budget_wall_s > 0),
    budget_cost_usd                 REAL CHECK (budget_cost_usd > 0),
    harness_version                 TEXT,
    producer                        TEXT,
    producer_version                TEXT,
    -- SHA-256 of the wave's content in wave content format `content_format` (docs/formats.md).
    content_sha256                  TEXT NOT NULL
        CHECK (length(content_sha256) = 64 AND content_sha256 NOT GLOB '*[^0-9a-f]*'),
    content_format                  INTEGER NOT NULL CHECK (content_format >= 1),
    ingested_at                     TEXT NOT NULL
) STRICT;
INSERT INTO wave_v2
    SELECT id, slug, suite_id, started_at, notes, suite_problems, suite_problems_listed,
        parallel_sessions, tool_server_sessions, serial_rerun, input_tokens_include_cache_reads,
        price_source, budget_tokens, budget_wall_s, budget_cost_usd, harness_version, producer,
        producer_version, content_sha256, 1, ingested_at
    FROM wave;
DROP TABLE wave;
ALTER TABLE wave_v2 RENAME TO wave;

CREATE TABLE rubric_v2 (
    id              INTEGER PRIMARY KEY,
    name            TEXT NOT NULL,
    version         INTEGER NOT NULL CHECK (version >= 1),
    sha256          TEXT NOT NULL UNIQUE
        CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
    text            TEXT NOT NULL,
    scale_violation INTEGER NOT NULL CHECK (scale_violation IN (0, 1)),
    added_at        TEXT NOT NULL,
    UNIQUE (name, version)
) STRICT;
INSERT INTO rubric_v2 SELECT id, name, version, sha256, text, scale_violation, added_at FROM rubric;
DROP TABLE rubric;
ALTER TABLE rubric_v2 RENAME TO rubric;

CREATE TABLE publication_v2 (
    id             INTEGER PRIMARY KEY,
    wave_id        INTEGER NOT NULL REFERENCES wave(id),
    rubric_id      INTEGER NOT NULL REFERENCES rubric(id),
    rubric_sha256  TEXT NOT NULL
        CHECK (length(rubric_sha256) = 64 AND rubric_sha256 NOT GLOB '*[^0-9a-f]*'),
    title          TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    -- The publication input format (docs/formats.md) of `input`.
    input_format   INTEGER NOT NULL CHECK (input_format >= 1),
    input          TEXT NOT NULL,
    input_sha256   TEXT NOT NULL
        CHECK (length(input_sha256) = 64 AND input_sha256 NOT GLOB '*[^0-9a-f]*'),
    output         TEXT NOT NULL,
    output_sha256  TEXT NOT NULL
        CHECK (length(output_sha256) = 64 AND output_sha256 NOT GLOB '*[^0-9a-f]*'),
    -- The previous entry of the chain (a publication or a withdrawal); NULL for the first.
    prev_sha256    TEXT
        CHECK (length(prev_sha256) = 64 AND prev_sha256 NOT GLOB '*[^0-9a-f]*'),
    -- The record format (docs/formats.md) `sha256` was computed in.
    record_format  INTEGER NOT NULL CHECK (record_format >= 1),
    sha256         TEXT NOT NULL UNIQUE
        CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')
) STRICT;
INSERT INTO publication_v2
    SELECT id, wave_id, rubric_id, rubric_sha256, title, created_at, 1, input, input_sha256,
        output, output_sha256, prev_sha256, 1, sha256
    FROM publication;
DROP TABLE publication;
ALTER TABLE publication_v2 RENAME TO publication;

-- A wave taken off the leaderboards without deleting anything: withdrawn by hand (`benchledger
-- withdraw`), or superseded by a corrected wave whose manifest names it. A withdrawal is an
-- entry of the chain: it sits after publication `after_publication` (0: before the first) and
-- links to the entry before it, so removing one breaks the chain or moves its head.
CREATE TABLE withdrawal (
    id                INTEGER PRIMARY KEY,
    wave_id           INTEGER NOT NULL REFERENCES wave(id),
    -- The wave that supersedes it; NULL for a withdrawal by hand.
    superseded_by     INTEGER REFERENCES wave(id),
    reason            TEXT NOT NULL CHECK (length(reason) > 0),
    created_at        TEXT NOT NULL,
    after_publication INTEGER NOT NULL CHECK (after_publication >= 0),
    prev_sha256       TEXT
        CHECK (length(prev_sha256) = 64 AND prev_sha256 NOT GLOB '*[^0-9a-f]*'),
    record_format     INTEGER NOT NULL CHECK (record_format >= 1),
    sha256            TEXT NOT NULL UNIQUE
        CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')
) STRICT;
CREATE INDEX withdrawal_by_wave ON withdrawal(wave_id);

CREATE TRIGGER wave_no_update BEFORE UPDATE ON wave
BEGIN SELECT RAISE(ABORT, 'benchledger: waves are append-only raw facts and cannot be changed'); END;
CREATE TRIGGER wave_no_delete BEFORE DELETE ON wave
BEGIN SELECT RAISE(ABORT, 'benchledger: waves are append-only raw facts and cannot be deleted'); END;
CREATE TRIGGER rubric_no_update BEFORE UPDATE ON rubric
BEGIN SELECT RAISE(ABORT, 'benchledger: a registered rubric version is immutable; register a new version instead'); END;
CREATE TRIGGER rubric_no_delete BEFORE DELETE ON rubric
BEGIN SELECT RAISE(ABORT, 'benchledger: a registered rubric version is immutable and cannot be deleted'); END;
CREATE TRIGGER publication_no_update BEFORE UPDATE ON publication
BEGIN SELECT RAISE(ABORT, 'benchledger: publications are frozen and cannot be changed'); END;
CREATE TRIGGER publication_no_delete BEFORE DELETE ON publication
BEGIN SELECT RAISE(ABORT, 'benchledger: publications are frozen and cannot be deleted'); END;
CREATE TRIGGER withdrawal_no_update BEFORE UPDATE ON withdrawal
BEGIN SELECT RAISE(ABORT, 'benchledger: withdrawals are entries of the chain and cannot be changed'); END;
CREATE TRIGGER withdrawal_no_delete BEFORE DELETE ON withdrawal
BEGIN SELECT RAISE(ABORT, 'benchledger: withdrawals are entries of the chain and cannot be deleted'); END;

-- migration 3
-- What importers read from harness logs beside the verdict (wave content format 2): the seconds
-- the agent itself worked, whether the attempt ended in an infrastructure failure (it still
-- counts, as not Correct), and how the harness says it ended. Older attempts hold NULL, 0, NULL.
ALTER TABLE attempt ADD COLUMN working_s REAL CHECK (working_s >= 0);
ALTER TABLE attempt ADD COLUMN infra_error INTEGER NOT NULL DEFAULT 0
    CHECK (infra_error IN (0, 1) AND NOT (infra_error = 1 AND correct = 1));
ALTER TABLE attempt ADD COLUMN end_reason TEXT;

-- migration 4
-- Registered price tables (docs/prices.md): USD per million tokens per model, with the date and
-- source of the prices. Like a rubric, a registered `name@version` keeps its text verbatim with
-- its SHA-256, and is frozen: a changed table is a new version. Leaderboards that fill in costs
-- from a table name it, and a publication's input records its hash.
CREATE TABLE price_table (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL CHECK (length(name) > 0),
    version  INTEGER NOT NULL CHECK (version >= 1),
    sha256   TEXT NOT NULL UNIQUE
        CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
    -- The price table file's text, verbatim, so a leaderboard priced with it reproduces after
    -- the file changes.
    text     TEXT NOT NULL,
    added_at TEXT NOT NULL,
    UNIQUE (name, version)
) STRICT;

CREATE TRIGGER price_table_no_update BEFORE UPDATE ON price_table
BEGIN SELECT RAISE(ABORT, 'benchledger: a registered price table version is immutable; register a new version instead'); END;
CREATE TRIGGER price_table_no_delete BEFORE DELETE ON price_table
BEGIN SELECT RAISE(ABORT, 'benchledger: a registered price table version is immutable and cannot be deleted'); END;

-- migration 5
-- Canary problems (wave content format 2): problems any working harness solves, declared by a
-- wave's manifest (`canary_problems`), so that a seat failing one is flagged wherever it is
-- shown and a rubric can gate on `canary_failures`. Raw facts, like the declared problems.
CREATE TABLE wave_canary (
    wave_id INTEGER NOT NULL REFERENCES wave(id),
    problem TEXT NOT NULL CHECK (length(problem) > 0),
    PRIMARY KEY (wave_id, problem)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER wave_canary_no_update BEFORE UPDATE ON wave_canary
BEGIN SELECT RAISE(ABORT, 'benchledger: canary problems are append-only raw facts and cannot be changed'); END;
CREATE TRIGGER wave_canary_no_delete BEFORE DELETE ON wave_canary
BEGIN SELECT RAISE(ABORT, 'benchledger: canary problems are append-only raw facts and cannot be deleted'); END;
-- migration 6
-- Seat tallies: each seat's totals (every attempt added, every field read) in seat tally format
-- `format` (docs/formats.md, "Seat tally"), written when the seat is ingested. Derived from the
-- seat's attempts, which are append-only, so never stale: a rescore under rubrics that read
-- nothing of an attempt but its figures reads these instead of the attempts, and `verify
-- --ledger` checks each against a tally of its attempts. A later format adds rows beside the old
-- ones; none is changed or deleted. A seat ingested before this migration has none, and a
-- rescore reads its attempts.
CREATE TABLE seat_tally (
    seat_id INTEGER NOT NULL REFERENCES seat(id),
    format  INTEGER NOT NULL CHECK (format >= 1),
    tally   TEXT NOT NULL,
    PRIMARY KEY (seat_id, format)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER seat_tally_no_update BEFORE UPDATE ON seat_tally
BEGIN SELECT RAISE(ABORT, 'benchledger: seat tallies are derived from append-only attempts and cannot be changed'); END;
CREATE TRIGGER seat_tally_no_delete BEFORE DELETE ON seat_tally
BEGIN SELECT RAISE(ABORT, 'benchledger: seat tallies are derived from append-only attempts and cannot be deleted'); END;

-- migration 7
-- The claims file a publication carries (`publish --claims`, docs/claims.md), kept beside it
-- rather than only inside its published text: the text the claims section quotes (line endings
-- made `\n`, ending in one), or NULL for a publication that carries none. Written with its
-- publication, in the same transaction, and frozen like it. `verify` checks the claims again
-- and renders the section from this text; nothing is read back out of the published Markdown.
-- A publication made before this migration has no row, and its claims, if any, are read from
-- its published text as before.
CREATE TABLE publication_claims (
    publication_id INTEGER PRIMARY KEY REFERENCES publication(id),
    text           TEXT
) STRICT;

CREATE TRIGGER publication_claims_no_update BEFORE UPDATE ON publication_claims
BEGIN SELECT RAISE(ABORT, 'benchledger: publications are frozen and cannot be changed'); END;
CREATE TRIGGER publication_claims_no_delete BEFORE DELETE ON publication_claims
BEGIN SELECT RAISE(ABORT, 'benchledger: publications are frozen and cannot be deleted'); END;

-- migration 8
-- The signed statement of a publication (`publish --sign`, `sign`; docs/trust.md): a DSSE
-- envelope (JSON) holding an in-toto Statement v1 whose subjects are the publication's input
-- and output texts and whose predicate names its rubric, wave and chain record, signed with
-- ed25519. One per publication, written in the publish transaction (or later, by `sign`), and
-- frozen. A publication without a row is unsigned. `verify --trusted-key` checks it.
CREATE TABLE publication_envelope (
    publication_id INTEGER PRIMARY KEY REFERENCES publication(id),
    envelope       TEXT NOT NULL
) STRICT;

CREATE TRIGGER publication_envelope_no_update BEFORE UPDATE ON publication_envelope
BEGIN SELECT RAISE(ABORT, 'benchledger: publications are frozen and cannot be changed'); END;
CREATE TRIGGER publication_envelope_no_delete BEFORE DELETE ON publication_envelope
BEGIN SELECT RAISE(ABORT, 'benchledger: publications are frozen and cannot be deleted'); END;

-- migration 9
-- The attempt table carried the same index twice: `attempt_by_seat` on (seat_id, problem,
-- trial), and the one SQLite makes for the UNIQUE constraint on the same columns. The
-- constraint's index serves every query that used `attempt_by_seat` (a seat's attempts in
-- ledger order, a seat's last attempt), so the copy goes: every ingest wrote each attempt into
-- both.
DROP INDEX attempt_by_seat;

-- migration 10
-- How people see a seat, and where each attempt came from: both raw facts beside the seat and
-- the attempt, kept outside the wave's content hash (docs/formats.md, "Wave content": a wave
-- hashed before this migration keeps its hash, and so does every publication, which shows
-- seat ids only). Append-only like the seats: a display name, once given, is never changed; a
-- re-ingest of a wave already held may give one to a seat that has none.
--
-- A seat's display name (a manifest's `display_name`, `ingest --from --display-name`): shown
-- in tables and charts in place of the id, which stays the key.
CREATE TABLE seat_display_name (
    seat_id INTEGER PRIMARY KEY REFERENCES seat(id),
    name    TEXT NOT NULL CHECK (length(name) > 0)
) STRICT;

-- Where an attempt was read from, as its importer found it: the file or directory (a results
-- file as the manifest names it, relative to the manifest; a trial's directory for
-- Terminal-Bench and Harbor) and, when that holds several attempts, the record in the format's
-- own words ("sample 2 epoch 1"). Written for the attempts of the formats that name one (not
-- for native JSON lines and CSV, whose seat names its file); none for a wave ingested before
-- this migration.
CREATE TABLE attempt_origin (
    attempt_id INTEGER PRIMARY KEY REFERENCES attempt(id),
    file       TEXT NOT NULL CHECK (length(file) > 0),
    record     TEXT
) STRICT;

CREATE TRIGGER seat_display_name_no_update BEFORE UPDATE ON seat_display_name
BEGIN SELECT RAISE(ABORT, 'benchledger: display names are append-only raw facts and cannot be changed'); END;
CREATE TRIGGER seat_display_name_no_delete BEFORE DELETE ON seat_display_name
BEGIN SELECT RAISE(ABORT, 'benchledger: display names are append-only raw facts and cannot be deleted'); END;
CREATE TRIGGER attempt_origin_no_update BEFORE UPDATE ON attempt_origin
BEGIN SELECT RAISE(ABORT, 'benchledger: attempt origins are append-only raw facts and cannot be changed'); END;
CREATE TRIGGER attempt_origin_no_delete BEFORE DELETE ON attempt_origin
BEGIN SELECT RAISE(ABORT, 'benchledger: attempt origins are append-only raw facts and cannot be deleted'); END;

-- migration 11
-- The log: from this migration on, every write that adds a fact appends an entry here, in the
-- same transaction (docs/formats.md, "Log entries"): an ingest (the wave's slug, content format
-- and content hash), a rubric or price table registered (its name, version and the SHA-256 of
-- its text), a publication or a withdrawal (its id, record format and record hash), a
-- publication's signature (its id and the SHA-256 of the envelope), a seat's display name
-- ("WAVE/SEAT" and the SHA-256 of the name), a wave's attempt origins (the wave's id and the
-- SHA-256 of its origins). Each entry is hashed over its own fields and links to the one before it (the first to the head of the
-- chain of publications and withdrawals as it then was), so deleting or rewriting a logged row
-- contradicts its entry, and deleting or rewriting an entry breaks the next link or moves the
-- head. Rows written before this migration have no entry.
CREATE TABLE chain_entry (
    seq            INTEGER PRIMARY KEY CHECK (seq >= 1),
    kind           TEXT NOT NULL
        CHECK (kind IN ('ingest', 'rubric', 'price_table', 'publication', 'withdrawal',
                        'signature', 'display_name', 'origins')),
    -- The wave's slug; the rubric's or price table's name; the publication's or withdrawal's
    -- id, in decimal (a signature's: the signed publication's); "WAVE/SEAT" for a display name.
    subject        TEXT NOT NULL CHECK (length(subject) > 0),
    -- The wave's content format; the rubric's or price table's version; the record format of
    -- the publication or withdrawal; 1 for a signature, a display name and origins.
    version        INTEGER NOT NULL CHECK (version >= 1),
    -- The wave's content hash; the SHA-256 of the registered text; the record hash; the
    -- SHA-256 of the envelope, the name, or the origins (docs/formats.md).
    subject_sha256 TEXT NOT NULL
        CHECK (length(subject_sha256) = 64 AND subject_sha256 NOT GLOB '*[^0-9a-f]*'),
    created_at     TEXT NOT NULL,
    prev_sha256    TEXT
        CHECK (length(prev_sha256) = 64 AND prev_sha256 NOT GLOB '*[^0-9a-f]*'),
    -- The log entry format (docs/formats.md) `sha256` was computed in.
    record_format  INTEGER NOT NULL CHECK (record_format >= 1),
    sha256         TEXT NOT NULL UNIQUE
        CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')
) STRICT;
CREATE INDEX chain_entry_by_subject ON chain_entry(kind, subject);

CREATE TRIGGER chain_entry_no_update BEFORE UPDATE ON chain_entry
BEGIN SELECT RAISE(ABORT, 'benchledger: log entries are entries of the chain and cannot be changed'); END;
CREATE TRIGGER chain_entry_no_delete BEFORE DELETE ON chain_entry
BEGIN SELECT RAISE(ABORT, 'benchledger: log entries are entries of the chain and cannot be deleted'); END;

-- migration 12
-- The factor every timeout of a run was scaled by (Harbor's `timeout_multiplier`), a load
-- condition like the sessions beside it: finite and above 0, NULL when the wave records none
-- (every wave ingested before this migration). Part of the wave's content hash in wave content
-- format 3, the only format a wave that records one is hashed in (docs/formats.md), so no wave
-- ingested before it changes its hash.
ALTER TABLE wave ADD COLUMN timeout_multiplier REAL CHECK (timeout_multiplier > 0);

-- migration 13
-- Submission rules and reviews (docs/review.md). Registered submission rules (`rules add`): a
-- `name@version` with its SHA-256 and verbatim text, frozen like rubrics and price tables.
-- A review recorded with the wave it let in (`review --ingest`): the rules it ran under (name,
-- version and SHA-256 of their text, which are registered in the same transaction), its
-- verdict, its findings (the review document's `findings`, as JSON) and their SHA-256. A raw
-- fact, append-only; a wave holds at most one review under each rules text. The log's kinds
-- gain `rules` (a registration) and `review` (a recorded review: "WAVE/NAME@VERSION", version
-- 1 and the SHA-256 of the review's record, docs/formats.md), so `chain_entry` is rebuilt with
-- the longer list (SQLite cannot change a CHECK in place); its rows go over as they are.
CREATE TABLE submission_rules (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL CHECK (length(name) > 0),
    version  INTEGER NOT NULL CHECK (version >= 1),
    sha256   TEXT NOT NULL UNIQUE
        CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
    -- The rules file's text, verbatim, so a review recorded under it reproduces after the file
    -- changes.
    text     TEXT NOT NULL,
    added_at TEXT NOT NULL,
    UNIQUE (name, version)
) STRICT;

CREATE TRIGGER submission_rules_no_update BEFORE UPDATE ON submission_rules
BEGIN SELECT RAISE(ABORT, 'benchledger: registered submission rules are immutable; register a new version instead'); END;
CREATE TRIGGER submission_rules_no_delete BEFORE DELETE ON submission_rules
BEGIN SELECT RAISE(ABORT, 'benchledger: registered submission rules are immutable and cannot be deleted'); END;

CREATE TABLE wave_review (
    id              INTEGER PRIMARY KEY,
    wave_id         INTEGER NOT NULL REFERENCES wave(id),
    rules_name      TEXT NOT NULL CHECK (length(rules_name) > 0),
    rules_version   INTEGER NOT NULL CHECK (rules_version >= 1),
    rules_sha256    TEXT NOT NULL
        CHECK (length(rules_sha256) = 64 AND rules_sha256 NOT GLOB '*[^0-9a-f]*'),
    verdict         TEXT NOT NULL CHECK (verdict IN ('accept', 'needs-review', 'reject')),
    -- The review document's `findings` array (JSON), and its SHA-256.
    findings        TEXT NOT NULL,
    findings_sha256 TEXT NOT NULL
        CHECK (length(findings_sha256) = 64 AND findings_sha256 NOT GLOB '*[^0-9a-f]*'),
    reviewed_at     TEXT NOT NULL,
    UNIQUE (wave_id, rules_sha256)
) STRICT;

CREATE TRIGGER wave_review_no_update BEFORE UPDATE ON wave_review
BEGIN SELECT RAISE(ABORT, 'benchledger: reviews are append-only raw facts and cannot be changed'); END;
CREATE TRIGGER wave_review_no_delete BEFORE DELETE ON wave_review
BEGIN SELECT RAISE(ABORT, 'benchledger: reviews are append-only raw facts and cannot be deleted'); END;

CREATE TABLE chain_entry_v13 (
    seq            INTEGER PRIMARY KEY CHECK (seq >= 1),
    kind           TEXT NOT NULL
        CHECK (kind IN ('ingest', 'rubric', 'price_table', 'publication', 'withdrawal',
                        'signature', 'display_name', 'origins', 'rules', 'review')),
    subject        TEXT NOT NULL CHECK (length(subject) > 0),
    version        INTEGER NOT NULL CHECK (version >= 1),
    subject_sha256 TEXT NOT NULL
        CHECK (length(subject_sha256) = 64 AND subject_sha256 NOT GLOB '*[^0-9a-f]*'),
    created_at     TEXT NOT NULL,
    prev_sha256    TEXT
        CHECK (length(prev_sha256) = 64 AND prev_sha256 NOT GLOB '*[^0-9a-f]*'),
    record_format  INTEGER NOT NULL CHECK (record_format >= 1),
    sha256         TEXT NOT NULL UNIQUE
        CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')
) STRICT;
INSERT INTO chain_entry_v13
    SELECT seq, kind, subject, version, subject_sha256, created_at, prev_sha256, record_format,
        sha256
    FROM chain_entry;
DROP TABLE chain_entry;
ALTER TABLE chain_entry_v13 RENAME TO chain_entry;
CREATE INDEX chain_entry_by_subject ON chain_entry(kind, subject);

CREATE TRIGGER chain_entry_no_update BEFORE UPDATE ON chain_entry
BEGIN SELECT RAISE(ABORT, 'benchledger: log entries are entries of the chain and cannot be changed'); END;
CREATE TRIGGER chain_entry_no_delete BEFORE DELETE ON chain_entry
BEGIN SELECT RAISE(ABORT, 'benchledger: log entries are entries of the chain and cannot be deleted'); END;

-- migration 14
-- An attempt's sample, as its importer read it (docs/formats.md, "Attempt texts"): what the
-- model was asked, the target, what it answered and the scorer's explanation, each absent when
-- the format records none and each cut to 4,000 characters with the cut said at its end.
-- Evidence beside the numbers: outside the wave's content hash (no wave's hash or publication
-- moves), covered by the wave's `texts` log entry (its id and the SHA-256 of its texts, written
-- with its ingest). None for a wave ingested before this migration. The log's kinds gain
-- `texts`, so `chain_entry` is rebuilt with the longer list; its rows go over as they are.
CREATE TABLE attempt_text (
    attempt_id  INTEGER PRIMARY KEY REFERENCES attempt(id),
    input       TEXT,
    target      TEXT,
    answer      TEXT,
    explanation TEXT,
    CHECK (coalesce(input, target, answer, explanation) IS NOT NULL)
) STRICT;

CREATE TRIGGER attempt_text_no_update BEFORE UPDATE ON attempt_text
BEGIN SELECT RAISE(ABORT, 'benchledger: attempt texts are append-only raw facts and cannot be changed'); END;
CREATE TRIGGER attempt_text_no_delete BEFORE DELETE ON attempt_text
BEGIN SELECT RAISE(ABORT, 'benchledger: attempt texts are append-only raw facts and cannot be deleted'); END;

CREATE TABLE chain_entry_v14 (
    seq            INTEGER PRIMARY KEY CHECK (seq >= 1),
    kind           TEXT NOT NULL
        CHECK (kind IN ('ingest', 'rubric', 'price_table', 'publication', 'withdrawal',
                        'signature', 'display_name', 'origins', 'rules', 'review', 'texts')),
    subject        TEXT NOT NULL CHECK (length(subject) > 0),
    version        INTEGER NOT NULL CHECK (version >= 1),
    subject_sha256 TEXT NOT NULL
        CHECK (length(subject_sha256) = 64 AND subject_sha256 NOT GLOB '*[^0-9a-f]*'),
    created_at     TEXT NOT NULL,
    prev_sha256    TEXT
        CHECK (length(prev_sha256) = 64 AND prev_sha256 NOT GLOB '*[^0-9a-f]*'),
    record_format  INTEGER NOT NULL CHECK (record_format >= 1),
    sha256         TEXT NOT NULL UNIQUE
        CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')
) STRICT;
INSERT INTO chain_entry_v14
    SELECT seq, kind, subject, version, subject_sha256, created_at, prev_sha256, record_format,
        sha256
    FROM chain_entry;
DROP TABLE chain_entry;
ALTER TABLE chain_entry_v14 RENAME TO chain_entry;
CREATE INDEX chain_entry_by_subject ON chain_entry(kind, subject);

CREATE TRIGGER chain_entry_no_update BEFORE UPDATE ON chain_entry
BEGIN SELECT RAISE(ABORT, 'benchledger: log entries are entries of the chain and cannot be changed'); END;
CREATE TRIGGER chain_entry_no_delete BEFORE DELETE ON chain_entry
BEGIN SELECT RAISE(ABORT, 'benchledger: log entries are entries of the chain and cannot be deleted'); END;
