-- benchledger's ledger schema on PostgreSQL: schema.sql's tables in PostgreSQL's dialect.
--
-- The same list of migrations as schema.sql, numbered the same way (`-- migration N`, from 1
-- without gaps): migration N here makes what migration N there makes, so a ledger's schema
-- version means the same on both stores, and every schema.sql migration gets its mirror here
-- (a test counts them). History is append-only: never edit, remove or reorder a migration that
-- has shipped; add a new one at the end. The applied versions are rows of
-- `benchledger_migration`, which benchledger makes before the first migration; a ledger's
-- version is the largest. The migrations run in the schema the connection works in
-- (`current_schema()`, usually `public`), in one transaction holding benchledger's write lock.
--
-- Dialect: ids are `bigint` (assigned by benchledger as on SQLite: the largest so far plus one),
-- flags `boolean`, SQLite's REAL `double precision`, and every text column compares and sorts
-- byte by byte (`COLLATE "C"`), as SQLite's do, so listings come out in the same order.
-- Raw facts (waves, seats, attempts, trace steps) are append-only; registered rubric texts,
-- price tables, publications and withdrawals frozen: a PL/pgSQL trigger refuses any UPDATE,
-- DELETE or TRUNCATE of them (TRUNCATE fires no row trigger, so it has its own).

-- migration 1
CREATE FUNCTION benchledger_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'restrict_violation', MESSAGE = TG_ARGV[0];
END
$$;

CREATE TABLE suite (
    id   bigint PRIMARY KEY,
    name text COLLATE "C" NOT NULL UNIQUE CHECK (length(name) > 0)
);

CREATE TABLE wave (
    id                               bigint PRIMARY KEY,
    slug                             text COLLATE "C" NOT NULL UNIQUE CHECK (length(slug) > 0),
    suite_id                         bigint NOT NULL REFERENCES suite(id),
    started_at                       text COLLATE "C" NOT NULL,
    notes                            text COLLATE "C",
    suite_problems                   bigint CHECK (suite_problems >= 0),
    suite_problems_listed            boolean NOT NULL DEFAULT false,
    parallel_sessions                bigint CHECK (parallel_sessions >= 1),
    tool_server_sessions             bigint CHECK (tool_server_sessions >= 1),
    serial_rerun                     boolean,
    input_tokens_include_cache_reads boolean NOT NULL,
    price_source                     text COLLATE "C",
    budget_tokens                    double precision CHECK (budget_tokens > 0),
    budget_wall_s                    double precision CHECK (budget_wall_s > 0),
    budget_cost_usd                  double precision CHECK (budget_cost_usd > 0),
    harness_version                  text COLLATE "C",
    producer                         text COLLATE "C",
    producer_version                 text COLLATE "C",
    content_sha256                   text COLLATE "C" NOT NULL CHECK (length(content_sha256) = 64),
    ingested_at                      text COLLATE "C" NOT NULL
);

CREATE TABLE wave_problem (
    wave_id bigint NOT NULL REFERENCES wave(id),
    problem text COLLATE "C" NOT NULL,
    PRIMARY KEY (wave_id, problem)
);

CREATE TABLE seat (
    id       bigint PRIMARY KEY,
    wave_id  bigint NOT NULL REFERENCES wave(id),
    slug     text COLLATE "C" NOT NULL CHECK (length(slug) > 0),
    model    text COLLATE "C" NOT NULL,
    provider text COLLATE "C" NOT NULL,
    harness  text COLLATE "C" NOT NULL,
    config   text COLLATE "C",
    UNIQUE (wave_id, slug)
);

CREATE TABLE attempt (
    id                       bigint PRIMARY KEY,
    seat_id                  bigint NOT NULL REFERENCES seat(id),
    problem                  text COLLATE "C" NOT NULL CHECK (length(problem) > 0),
    trial                    bigint NOT NULL CHECK (trial >= 1),
    correct                  boolean NOT NULL,
    outcome                  double precision CHECK (outcome BETWEEN 0 AND 1),
    input_tokens             bigint CHECK (input_tokens >= 0),
    output_tokens            bigint CHECK (output_tokens >= 0),
    input_tokens_cache_read  bigint CHECK (input_tokens_cache_read >= 0),
    input_tokens_cache_write bigint CHECK (input_tokens_cache_write >= 0),
    wall_s                   double precision CHECK (wall_s >= 0),
    cost_usd                 double precision CHECK (cost_usd >= 0),
    steps                    bigint CHECK (steps >= 0),
    errors                   bigint CHECK (errors >= 0),
    checklist                text COLLATE "C",
    UNIQUE (seat_id, problem, trial)
);

CREATE TABLE trace_step (
    attempt_id bigint NOT NULL REFERENCES attempt(id),
    idx        bigint NOT NULL CHECK (idx >= 0),
    tool       text COLLATE "C" NOT NULL,
    ok         boolean NOT NULL,
    error      text COLLATE "C",
    PRIMARY KEY (attempt_id, idx)
);

CREATE TABLE rubric (
    id              bigint PRIMARY KEY,
    name            text COLLATE "C" NOT NULL,
    version         bigint NOT NULL CHECK (version >= 1),
    sha256          text COLLATE "C" NOT NULL UNIQUE CHECK (length(sha256) = 64),
    text            text COLLATE "C" NOT NULL,
    scale_violation boolean NOT NULL,
    added_at        text COLLATE "C" NOT NULL,
    UNIQUE (name, version)
);

CREATE TABLE score (
    rubric_id bigint NOT NULL REFERENCES rubric(id),
    seat_id   bigint NOT NULL REFERENCES seat(id),
    score     double precision,
    rank      bigint,
    factors   text COLLATE "C" NOT NULL,
    gate      text COLLATE "C",
    tie       text COLLATE "C",
    note      text COLLATE "C",
    PRIMARY KEY (rubric_id, seat_id)
);

CREATE TABLE publication (
    id             bigint PRIMARY KEY,
    wave_id        bigint NOT NULL REFERENCES wave(id),
    rubric_id      bigint NOT NULL REFERENCES rubric(id),
    rubric_sha256  text COLLATE "C" NOT NULL CHECK (length(rubric_sha256) = 64),
    title          text COLLATE "C" NOT NULL,
    created_at     text COLLATE "C" NOT NULL,
    input          text COLLATE "C" NOT NULL,
    input_sha256   text COLLATE "C" NOT NULL CHECK (length(input_sha256) = 64),
    output         text COLLATE "C" NOT NULL,
    output_sha256  text COLLATE "C" NOT NULL CHECK (length(output_sha256) = 64),
    prev_sha256    text COLLATE "C" CHECK (length(prev_sha256) = 64),
    sha256         text COLLATE "C" NOT NULL UNIQUE CHECK (length(sha256) = 64)
);

CREATE INDEX seat_by_wave ON seat(wave_id);
CREATE INDEX attempt_by_seat ON attempt(seat_id, problem, trial);
CREATE INDEX score_by_seat ON score(seat_id);

CREATE TRIGGER wave_no_update BEFORE UPDATE ON wave FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: waves are append-only raw facts and cannot be changed');
CREATE TRIGGER wave_no_delete BEFORE DELETE ON wave FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: waves are append-only raw facts and cannot be deleted');
CREATE TRIGGER wave_no_truncate BEFORE TRUNCATE ON wave FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: waves are append-only raw facts and cannot be deleted');
CREATE TRIGGER wave_problem_no_update BEFORE UPDATE ON wave_problem FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: declared problems are append-only raw facts and cannot be changed');
CREATE TRIGGER wave_problem_no_delete BEFORE DELETE ON wave_problem FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: declared problems are append-only raw facts and cannot be deleted');
CREATE TRIGGER wave_problem_no_truncate BEFORE TRUNCATE ON wave_problem FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: declared problems are append-only raw facts and cannot be deleted');
CREATE TRIGGER seat_no_update BEFORE UPDATE ON seat FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: seats are append-only raw facts and cannot be changed');
CREATE TRIGGER seat_no_delete BEFORE DELETE ON seat FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: seats are append-only raw facts and cannot be deleted');
CREATE TRIGGER seat_no_truncate BEFORE TRUNCATE ON seat FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: seats are append-only raw facts and cannot be deleted');
CREATE TRIGGER attempt_no_update BEFORE UPDATE ON attempt FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: attempts are append-only raw facts and cannot be changed');
CREATE TRIGGER attempt_no_delete BEFORE DELETE ON attempt FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: attempts are append-only raw facts and cannot be deleted');
CREATE TRIGGER attempt_no_truncate BEFORE TRUNCATE ON attempt FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: attempts are append-only raw facts and cannot be deleted');
CREATE TRIGGER trace_step_no_update BEFORE UPDATE ON trace_step FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: trace steps are append-only raw facts and cannot be changed');
CREATE TRIGGER trace_step_no_delete BEFORE DELETE ON trace_step FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: trace steps are append-only raw facts and cannot be deleted');
CREATE TRIGGER trace_step_no_truncate BEFORE TRUNCATE ON trace_step FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: trace steps are append-only raw facts and cannot be deleted');
CREATE TRIGGER rubric_no_update BEFORE UPDATE ON rubric FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: a registered rubric version is immutable; register a new version instead');
CREATE TRIGGER rubric_no_delete BEFORE DELETE ON rubric FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: a registered rubric version is immutable and cannot be deleted');
CREATE TRIGGER rubric_no_truncate BEFORE TRUNCATE ON rubric FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: a registered rubric version is immutable and cannot be deleted');
CREATE TRIGGER publication_no_update BEFORE UPDATE ON publication FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: publications are frozen and cannot be changed');
CREATE TRIGGER publication_no_delete BEFORE DELETE ON publication FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: publications are frozen and cannot be deleted');
CREATE TRIGGER publication_no_truncate BEFORE TRUNCATE ON publication FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: publications are frozen and cannot be deleted');

-- migration 2
-- Hashes are 64 lower-case hex digits; waves and publications record the formats their hashes
-- were computed in; withdrawals join the chain (schema.sql's migration 2, where SQLite has to
-- rebuild the tables to add a CHECK; PostgreSQL adds them in place).
ALTER TABLE wave ADD CONSTRAINT wave_content_sha256_hex CHECK (content_sha256 ~ '^[0-9a-f]{64}$');
ALTER TABLE wave ADD COLUMN content_format bigint NOT NULL DEFAULT 1 CHECK (content_format >= 1);
ALTER TABLE wave ALTER COLUMN content_format DROP DEFAULT;
ALTER TABLE rubric ADD CONSTRAINT rubric_sha256_hex CHECK (sha256 ~ '^[0-9a-f]{64}$');
ALTER TABLE publication ADD CONSTRAINT publication_rubric_sha256_hex
    CHECK (rubric_sha256 ~ '^[0-9a-f]{64}$');
ALTER TABLE publication ADD CONSTRAINT publication_input_sha256_hex
    CHECK (input_sha256 ~ '^[0-9a-f]{64}$');
ALTER TABLE publication ADD CONSTRAINT publication_output_sha256_hex
    CHECK (output_sha256 ~ '^[0-9a-f]{64}$');
ALTER TABLE publication ADD CONSTRAINT publication_prev_sha256_hex
    CHECK (prev_sha256 ~ '^[0-9a-f]{64}$');
ALTER TABLE publication ADD CONSTRAINT publication_sha256_hex CHECK (sha256 ~ '^[0-9a-f]{64}$');
ALTER TABLE publication ADD COLUMN input_format bigint NOT NULL DEFAULT 1 CHECK (input_format >= 1);
ALTER TABLE publication ALTER COLUMN input_format DROP DEFAULT;
ALTER TABLE publication ADD COLUMN record_format bigint NOT NULL DEFAULT 1 CHECK (record_format >= 1);
ALTER TABLE publication ALTER COLUMN record_format DROP DEFAULT;

CREATE TABLE withdrawal (
    id                bigint PRIMARY KEY,
    wave_id           bigint NOT NULL REFERENCES wave(id),
    superseded_by     bigint REFERENCES wave(id),
    reason            text COLLATE "C" NOT NULL CHECK (length(reason) > 0),
    created_at        text COLLATE "C" NOT NULL,
    after_publication bigint NOT NULL CHECK (after_publication >= 0),
    prev_sha256       text COLLATE "C" CHECK (prev_sha256 ~ '^[0-9a-f]{64}$'),
    record_format     bigint NOT NULL CHECK (record_format >= 1),
    sha256            text COLLATE "C" NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$')
);
CREATE INDEX withdrawal_by_wave ON withdrawal(wave_id);

CREATE TRIGGER withdrawal_no_update BEFORE UPDATE ON withdrawal FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: withdrawals are entries of the chain and cannot be changed');
CREATE TRIGGER withdrawal_no_delete BEFORE DELETE ON withdrawal FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: withdrawals are entries of the chain and cannot be deleted');
CREATE TRIGGER withdrawal_no_truncate BEFORE TRUNCATE ON withdrawal FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: withdrawals are entries of the chain and cannot be deleted');

-- migration 3
-- The seconds the agent itself worked, whether the attempt ended in an infrastructure failure
-- (never Correct), and how the harness says it ended.
ALTER TABLE attempt ADD COLUMN working_s double precision CHECK (working_s >= 0);
ALTER TABLE attempt ADD COLUMN infra_error boolean NOT NULL DEFAULT false
    CHECK (NOT (infra_error AND correct));
ALTER TABLE attempt ADD COLUMN end_reason text COLLATE "C";

-- migration 4
-- Registered price tables (docs/prices.md), frozen like rubrics.
CREATE TABLE price_table (
    id       bigint PRIMARY KEY,
    name     text COLLATE "C" NOT NULL CHECK (length(name) > 0),
    version  bigint NOT NULL CHECK (version >= 1),
    sha256   text COLLATE "C" NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    text     text COLLATE "C" NOT NULL,
    added_at text COLLATE "C" NOT NULL,
    UNIQUE (name, version)
);

CREATE TRIGGER price_table_no_update BEFORE UPDATE ON price_table FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: a registered price table version is immutable; register a new version instead');
CREATE TRIGGER price_table_no_delete BEFORE DELETE ON price_table FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: a registered price table version is immutable and cannot be deleted');
CREATE TRIGGER price_table_no_truncate BEFORE TRUNCATE ON price_table FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: a registered price table version is immutable and cannot be deleted');

-- migration 5
-- Canary problems (wave content format 2): problems any working harness solves, declared by a
-- wave's manifest (`canary_problems`), so that a seat failing one is flagged wherever it is
-- shown and a rubric can gate on `canary_failures`. Raw facts, like the declared problems.
CREATE TABLE wave_canary (
    wave_id bigint NOT NULL REFERENCES wave(id),
    problem text COLLATE "C" NOT NULL CHECK (length(problem) > 0),
    PRIMARY KEY (wave_id, problem)
);

CREATE TRIGGER wave_canary_no_update BEFORE UPDATE ON wave_canary FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: canary problems are append-only raw facts and cannot be changed');
CREATE TRIGGER wave_canary_no_delete BEFORE DELETE ON wave_canary FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: canary problems are append-only raw facts and cannot be deleted');
CREATE TRIGGER wave_canary_no_truncate BEFORE TRUNCATE ON wave_canary FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: canary problems are append-only raw facts and cannot be deleted');
-- migration 6
-- Seat tallies: each seat's totals (every attempt added, every field read) in seat tally format
-- `format` (docs/formats.md, "Seat tally"), written when the seat is ingested. Derived from the
-- seat's attempts, which are append-only, so never stale: a rescore under rubrics that read
-- nothing of an attempt but its figures reads these instead of the attempts, and `verify
-- --ledger` checks each against a tally of its attempts. A later format adds rows beside the old
-- ones; none is changed or deleted. A seat ingested before this migration has none, and a
-- rescore reads its attempts.
CREATE TABLE seat_tally (
    seat_id bigint NOT NULL REFERENCES seat(id),
    format  bigint NOT NULL CHECK (format >= 1),
    tally   text COLLATE "C" NOT NULL,
    PRIMARY KEY (seat_id, format)
);

CREATE TRIGGER seat_tally_no_update BEFORE UPDATE ON seat_tally FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: seat tallies are derived from append-only attempts and cannot be changed');
CREATE TRIGGER seat_tally_no_delete BEFORE DELETE ON seat_tally FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: seat tallies are derived from append-only attempts and cannot be deleted');
CREATE TRIGGER seat_tally_no_truncate BEFORE TRUNCATE ON seat_tally FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: seat tallies are derived from append-only attempts and cannot be deleted');

-- migration 7
-- The claims file a publication carries, kept beside it (schema.sql's migration 7): its text as
-- the claims section quotes it, or NULL for none. Frozen like the publication; a publication
-- made before this migration has no row.
CREATE TABLE publication_claims (
    publication_id bigint PRIMARY KEY REFERENCES publication(id),
    text           text COLLATE "C"
);

CREATE TRIGGER publication_claims_no_update BEFORE UPDATE ON publication_claims FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: publications are frozen and cannot be changed');
CREATE TRIGGER publication_claims_no_delete BEFORE DELETE ON publication_claims FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: publications are frozen and cannot be deleted');
CREATE TRIGGER publication_claims_no_truncate BEFORE TRUNCATE ON publication_claims FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: publications are frozen and cannot be deleted');

-- migration 8
-- The signed statement of a publication, kept beside it (schema.sql's migration 8): a DSSE
-- envelope holding an in-toto statement, signed with ed25519. One per publication, frozen; a
-- publication without a row is unsigned.
CREATE TABLE publication_envelope (
    publication_id bigint PRIMARY KEY REFERENCES publication(id),
    envelope       text COLLATE "C" NOT NULL
);

CREATE TRIGGER publication_envelope_no_update BEFORE UPDATE ON publication_envelope FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: publications are frozen and cannot be changed');
CREATE TRIGGER publication_envelope_no_delete BEFORE DELETE ON publication_envelope FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: publications are frozen and cannot be deleted');
CREATE TRIGGER publication_envelope_no_truncate BEFORE TRUNCATE ON publication_envelope FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: publications are frozen and cannot be deleted');

-- migration 9
-- The duplicate index on attempt(seat_id, problem, trial) goes (schema.sql's migration 9): the
-- UNIQUE constraint's own index serves every query that used it.
DROP INDEX attempt_by_seat;

-- migration 10
-- A seat's display name and each attempt's origin (schema.sql's migration 10): raw facts kept
-- outside the wave's content hash, append-only like the seats and attempts.
CREATE TABLE seat_display_name (
    seat_id bigint PRIMARY KEY REFERENCES seat(id),
    name    text COLLATE "C" NOT NULL CHECK (length(name) > 0)
);

CREATE TABLE attempt_origin (
    attempt_id bigint PRIMARY KEY REFERENCES attempt(id),
    file       text COLLATE "C" NOT NULL CHECK (length(file) > 0),
    record     text COLLATE "C"
);

CREATE TRIGGER seat_display_name_no_update BEFORE UPDATE ON seat_display_name FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: display names are append-only raw facts and cannot be changed');
CREATE TRIGGER seat_display_name_no_delete BEFORE DELETE ON seat_display_name FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: display names are append-only raw facts and cannot be deleted');
CREATE TRIGGER seat_display_name_no_truncate BEFORE TRUNCATE ON seat_display_name FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: display names are append-only raw facts and cannot be deleted');
CREATE TRIGGER attempt_origin_no_update BEFORE UPDATE ON attempt_origin FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: attempt origins are append-only raw facts and cannot be changed');
CREATE TRIGGER attempt_origin_no_delete BEFORE DELETE ON attempt_origin FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: attempt origins are append-only raw facts and cannot be deleted');
CREATE TRIGGER attempt_origin_no_truncate BEFORE TRUNCATE ON attempt_origin FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: attempt origins are append-only raw facts and cannot be deleted');

-- migration 11
-- The log (schema.sql's migration 11): from this migration on, every write that adds a fact
-- appends an entry, in the same transaction, hashed over its own fields and linked to the one
-- before it. Frozen like the chain's other entries.
CREATE TABLE chain_entry (
    seq            bigint PRIMARY KEY CHECK (seq >= 1),
    kind           text COLLATE "C" NOT NULL
        CHECK (kind IN ('ingest', 'rubric', 'price_table', 'publication', 'withdrawal',
                        'signature', 'display_name', 'origins')),
    subject        text COLLATE "C" NOT NULL CHECK (length(subject) > 0),
    version        bigint NOT NULL CHECK (version >= 1),
    subject_sha256 text COLLATE "C" NOT NULL CHECK (subject_sha256 ~ '^[0-9a-f]{64}$'),
    created_at     text COLLATE "C" NOT NULL,
    prev_sha256    text COLLATE "C" CHECK (prev_sha256 ~ '^[0-9a-f]{64}$'),
    record_format  bigint NOT NULL CHECK (record_format >= 1),
    sha256         text COLLATE "C" NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$')
);
CREATE INDEX chain_entry_by_subject ON chain_entry(kind, subject);

CREATE TRIGGER chain_entry_no_update BEFORE UPDATE ON chain_entry FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: log entries are entries of the chain and cannot be changed');
CREATE TRIGGER chain_entry_no_delete BEFORE DELETE ON chain_entry FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: log entries are entries of the chain and cannot be deleted');
CREATE TRIGGER chain_entry_no_truncate BEFORE TRUNCATE ON chain_entry FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: log entries are entries of the chain and cannot be deleted');

-- migration 12
-- A wave's timeout multiplier (schema.sql's migration 12): a load condition, in the content
-- hash of wave content format 3 only.
ALTER TABLE wave ADD COLUMN timeout_multiplier double precision CHECK (timeout_multiplier > 0);

-- migration 13
-- Submission rules and reviews (schema.sql's migration 13): registered rules frozen like
-- rubrics; a review recorded with the wave it let in, append-only; the log's kinds gain
-- `rules` and `review`.
CREATE TABLE submission_rules (
    id       bigint PRIMARY KEY,
    name     text COLLATE "C" NOT NULL CHECK (length(name) > 0),
    version  bigint NOT NULL CHECK (version >= 1),
    sha256   text COLLATE "C" NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    text     text COLLATE "C" NOT NULL,
    added_at text COLLATE "C" NOT NULL,
    UNIQUE (name, version)
);

CREATE TRIGGER submission_rules_no_update BEFORE UPDATE ON submission_rules FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: registered submission rules are immutable; register a new version instead');
CREATE TRIGGER submission_rules_no_delete BEFORE DELETE ON submission_rules FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: registered submission rules are immutable and cannot be deleted');
CREATE TRIGGER submission_rules_no_truncate BEFORE TRUNCATE ON submission_rules FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: registered submission rules are immutable and cannot be deleted');

CREATE TABLE wave_review (
    id              bigint PRIMARY KEY,
    wave_id         bigint NOT NULL REFERENCES wave(id),
    rules_name      text COLLATE "C" NOT NULL CHECK (length(rules_name) > 0),
    rules_version   bigint NOT NULL CHECK (rules_version >= 1),
    rules_sha256    text COLLATE "C" NOT NULL CHECK (rules_sha256 ~ '^[0-9a-f]{64}$'),
    verdict         text COLLATE "C" NOT NULL CHECK (verdict IN ('accept', 'needs-review', 'reject')),
    findings        text COLLATE "C" NOT NULL,
    findings_sha256 text COLLATE "C" NOT NULL CHECK (findings_sha256 ~ '^[0-9a-f]{64}$'),
    reviewed_at     text COLLATE "C" NOT NULL,
    UNIQUE (wave_id, rules_sha256)
);

CREATE TRIGGER wave_review_no_update BEFORE UPDATE ON wave_review FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: reviews are append-only raw facts and cannot be changed');
CREATE TRIGGER wave_review_no_delete BEFORE DELETE ON wave_review FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: reviews are append-only raw facts and cannot be deleted');
CREATE TRIGGER wave_review_no_truncate BEFORE TRUNCATE ON wave_review FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: reviews are append-only raw facts and cannot be deleted');

ALTER TABLE chain_entry DROP CONSTRAINT chain_entry_kind_check;
ALTER TABLE chain_entry ADD CONSTRAINT chain_entry_kind_check
    CHECK (kind IN ('ingest', 'rubric', 'price_table', 'publication', 'withdrawal',
                    'signature', 'display_name', 'origins', 'rules', 'review'));

-- migration 14
-- An attempt's sample (schema.sql's migration 14): input, target, answer and the scorer's
-- explanation, each cut to 4,000 characters; outside the content hash, covered by the wave's
-- `texts` log entry. The log's kinds gain `texts`.
CREATE TABLE attempt_text (
    attempt_id  bigint PRIMARY KEY REFERENCES attempt(id),
    input       text COLLATE "C",
    target      text COLLATE "C",
    answer      text COLLATE "C",
    explanation text COLLATE "C",
    CHECK (coalesce(input, target, answer, explanation) IS NOT NULL)
);

CREATE TRIGGER attempt_text_no_update BEFORE UPDATE ON attempt_text FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: attempt texts are append-only raw facts and cannot be changed');
CREATE TRIGGER attempt_text_no_delete BEFORE DELETE ON attempt_text FOR EACH ROW EXECUTE FUNCTION
    benchledger_refuse('benchledger: attempt texts are append-only raw facts and cannot be deleted');
CREATE TRIGGER attempt_text_no_truncate BEFORE TRUNCATE ON attempt_text FOR EACH STATEMENT EXECUTE FUNCTION
    benchledger_refuse('benchledger: attempt texts are append-only raw facts and cannot be deleted');

ALTER TABLE chain_entry DROP CONSTRAINT chain_entry_kind_check;
ALTER TABLE chain_entry ADD CONSTRAINT chain_entry_kind_check
    CHECK (kind IN ('ingest', 'rubric', 'price_table', 'publication', 'withdrawal',
                    'signature', 'display_name', 'origins', 'rules', 'review', 'texts'));
