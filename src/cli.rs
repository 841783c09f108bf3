//! What the user typed: clap types only. The `///` comments here are the `--help` text.
//! Meaning and validation live in the library; the commands module acts on these values.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// How a listing is printed (`--format`). The library renders Markdown, CSV and JSON; a table
/// for a terminal is drawn by [`crate::terminal`]. The `///` comments on the values are the
/// `--help` text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum Format {
    /// Aligned columns for a terminal; numbers rounded for reading.
    #[default]
    Table,
    /// A JSON document with a format version; numbers unrounded. Documented in the README.
    Json,
    /// Comma-separated values with a header row; numbers unrounded.
    Csv,
    /// A Markdown table, for pasting into a changelog or a pull request.
    Md,
}

/// benchledger keeps AI-agent benchmark leaderboards honest: every wave in one SQLite ledger with
/// the conditions that shape its numbers, scored by versioned TOML rubrics that cannot leave
/// their scale, rescored reproducibly, published and verified byte for byte.
///
/// Exit status: 0 ok; 1 a check failed (rubric check, verify, a claim that differs); 2 bad input
/// or usage; 3 could not complete through no fault of the input (the ledger busy past --wait,
/// read-only, or the disk failed): nothing was written.
///
/// Environment: BENCHLEDGER_DB, the ledger when --db is not given. On a terminal, tables fit
/// its width (COLUMNS when the terminal does not say), naming the columns left out; piped
/// output and --wide are full width. NO_COLOR turns off the colour of help and usage errors,
/// which is only ever used on a terminal.
#[derive(Debug, Parser)]
#[command(name = "benchledger", version, about, long_about)]
pub struct Cli {
    /// The ledger: an SQLite file, or a database on a PostgreSQL server
    /// (postgresql://USER@HOST/DATABASE). Defaults to $BENCHLEDGER_DB, else ./benchledger.db.
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,

    /// How long a command that writes (ingest, rubric add, prices add, rescore, publish, sign,
    /// withdraw, copy) waits for another writer to finish with the ledger, in seconds (default
    /// 600). When the wait runs out it exits with status 3, having written nothing. Those
    /// commands also take it after their name; commands that only read never wait.
    #[arg(
        long,
        value_name = "SECONDS",
        value_parser = clap::value_parser!(u64).range(0..=MAX_WAIT_SECONDS)
    )]
    pub wait: Option<u64>,

    /// Print tables at full width, every column, even on a narrow terminal. (Output piped or
    /// redirected is always full width; on a terminal, tables fit its width, leaving out
    /// lower-priority columns and saying which.)
    #[arg(long, global = true)]
    pub wide: bool,

    #[command(subcommand)]
    pub command: Command,
}

/// The longest `--wait` (SQLite counts its wait in milliseconds, in 31 bits): 24 days.
pub const MAX_WAIT_SECONDS: u64 = 2_000_000;

/// How long `--wait` waits when it is not given.
pub const DEFAULT_WAIT_SECONDS: u64 = 600;

/// `--wait`, offered by the commands that write to the ledger (and before the command's name,
/// for any): a command that only reads never waits, so it does not take it.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct WaitArg {
    /// How long to wait for another writer to finish with the ledger, in seconds (default
    /// 600). When the wait runs out it exits with status 3, having written nothing.
    #[arg(
        long,
        value_name = "SECONDS",
        value_parser = clap::value_parser!(u64).range(0..=MAX_WAIT_SECONDS)
    )]
    pub wait: Option<u64>,
}

/// How intervals are drawn: a percentile bootstrap over problems, from a seeded, named
/// generator, so that the same ledger gives the same interval on every machine.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct CiArgs {
    /// Intervals at this confidence level, in percent (`--ci` alone: 95). `show`, `score` and
    /// `publish` draw intervals only when it is given; `versus` always draws its one, at 95
    /// unless told otherwise.
    #[arg(
        long = "ci",
        value_name = "LEVEL",
        num_args = 0..=1,
        default_missing_value = "95"
    )]
    pub level: Option<f64>,
    /// How many bootstrap resamples (default 2000).
    #[arg(long, value_name = "N")]
    pub resamples: Option<u32>,
    /// The seed of the resampling generator, ChaCha20 (default 0).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

#[derive(Debug, Args, Clone, Copy)]
pub struct FormatArg {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Which registered price table sets a listing's costs (`--prices`, `--reprice`).
#[derive(Debug, Args, Clone, Default)]
pub struct PricesArg {
    /// Fill in the cost of every attempt that lacks one from this registered price table
    /// (NAME@VERSION: see `benchledger prices list`). Recorded costs are kept; the listing
    /// names the table and how many costs it set.
    #[arg(long, value_name = "NAME@VERSION")]
    pub prices: Option<String>,
    /// With --prices: price every attempt from the table, setting aside the costs recorded with
    /// the results, so that all of the listing's costs come from one table. An attempt the
    /// table cannot price is left without a cost.
    #[arg(long, requires = "prices")]
    pub reprice: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a ledger (or check that an existing one opens and is up to date).
    Init,

    /// Read wave manifests and their result files into the ledger.
    ///
    /// Everything is checked before anything is written; all the named waves land in one
    /// transaction, or none does. Re-ingesting a wave with the same content is a no-op.
    ///
    /// With --from inspect, the arguments are Inspect AI logs (.eval or .json) or directories
    /// of them, and the wave is built from the logs' own metadata: one seat per model, the
    /// suite the task, the start the earliest log's, the token accounting by the version of
    /// inspect_ai that wrote them (docs/importers.md). --manifest adds what logs cannot say.
    Ingest(IngestArgs),

    /// List the waves with their load, accounting and budget.
    Waves(WavesArgs),

    /// Show each seat's absolute figures in one wave (with --ci, accuracy and Cost-of-Pass
    /// with their intervals, and each seat's tie-group letters).
    Show(ShowArgs),

    /// Check, register and list rubrics.
    Rubric {
        #[command(subcommand)]
        command: RubricCommand,
    },

    /// Check, register and list price tables: USD per million tokens per model, which fill in
    /// the costs of attempts that lack them (`show --prices`, `score --prices`).
    Prices {
        #[command(subcommand)]
        command: PricesCommand,
    },

    /// The leaderboard of one wave under one rubric: absolute figures first, then the score
    /// and the rank.
    ///
    /// With --ci, each seat's accuracy, Cost-of-Pass and score carry an interval, and its rank
    /// a rank range; the seats whose range overlaps the leader's are marked as not separable
    /// from it; and a Group column gives each seat the tie-group letters of `versus --all`
    /// (seats sharing a letter cannot be told apart on accuracy).
    Score(ScoreArgs),

    /// Score every wave (or the named ones) under a registered rubric and store the scores,
    /// keyed by the rubric's hash. Attempts are never touched; running it twice stores the
    /// same numbers.
    Rescore(RescoreArgs),

    /// The stored scores of a registered rubric across history: every wave (or the named ones),
    /// seat by seat, as `rescore` left them.
    History(HistoryArgs),

    /// How a rubric change shifts past scores: per wave and seat, old and new score, the
    /// delta, the rank before and after; then a summary.
    Diff(DiffArgs),

    /// One seat across waves, on absolutes only, with the waves' load and accounting side by
    /// side and every differing condition called out as a confounder.
    Compare(CompareArgs),

    /// Review a submission before it joins the leaderboard: a run's files (a Harbor job
    /// directory, Inspect logs, any --from format) checked under declared submission rules,
    /// without writing to the ledger (docs/review.md).
    ///
    /// Every finding is printed with its evidence (file, problem, trial, step, a short
    /// excerpt; keys and tokens masked), then the figures recomputed from the per-trial
    /// verdicts, the claims checked, the cost and the position. The verdict is the worst
    /// finding's: accept (exit 0), needs-review or reject (exit 1). A submission or rules file
    /// that cannot be read exits 2, naming the file, line and field.
    Review(ReviewArgs),

    /// Check, register and list submission rules: versioned TOML files that say what
    /// `review` checks (docs/review.md).
    Rules {
        #[command(subcommand)]
        command: RulesCommand,
    },

    /// Check numbers others published — a leaderboard's, a paper's — against the ledger, and
    /// write claims files from leaderboards' own files (docs/claims.md).
    Claims {
        #[command(subcommand)]
        command: ClaimsCommand,
    },

    /// Freeze a publication: the rendered leaderboard, the rubric's hash, a digest of every
    /// input row, chained to the previous publication.
    ///
    /// With --ci, the leaderboard carries intervals and rank ranges, the publication records
    /// their method, level, resamples and seed, and verify draws them again.
    Publish(PublishArgs),

    /// List the publications.
    Publications(PublicationsArgs),

    /// List the shipped model alias table (models/aliases.v1.toml): each model's canonical id,
    /// family and provider, and the names harnesses, gateways and clouds give it. Ingest reads
    /// it: a results file naming an alias of its seat's model is not a mismatch, and a model
    /// named without its provider gets the provider here. Seats keep the name their files used.
    Models(ModelsArgs),

    /// Write a new ed25519 key pair to sign publications with: KEY, the private key (PKCS#8
    /// PEM, mode 0600), and KEY.pub, the public key (SubjectPublicKeyInfo PEM) to publish.
    /// Never replaces a file. docs/trust.md says what a signature proves.
    Keygen(KeygenArgs),

    /// Sign a publication already in the ledger (one published without --sign): a DSSE
    /// envelope holding an in-toto statement of its texts and what they were made from, kept
    /// beside it. A publication carries one signature; check it with `verify --trusted-key`.
    Sign(SignArgs),

    /// Recompute publications from the ledger and their rubric, compare byte for byte, and
    /// check the chain. Exits 1 on any mismatch.
    Verify(VerifyArgs),

    /// Repeated trials: per seat, its problems and trials, pass@k (the chance that at least one
    /// of k trials passes) and pass^k (that all k pass).
    Trials(TrialsArgs),

    /// A wave's problem × seat matrix (pass / fail / missing, k of n trials passed,
    /// infrastructure errors), most-solved problems first. A seat solves a
    /// problem when more than half of its trials there are Correct. With --regressions A B:
    /// for every seat in both waves, the problems it solves in one and not the other.
    Problems(ProblemsArgs),

    /// Two seats of one wave, paired on the problems both attempted: who solved what, the
    /// accuracy difference with a bootstrap interval, McNemar's exact test, the paired test on
    /// every trial, and a verdict. With --all: every pair, Holm-corrected, and tie groups.
    Versus(VersusArgs),

    /// Power and sample size from a wave's own data: the smallest difference between two seats
    /// this design detects, with more trials per problem, and (with --delta) how many problems
    /// a design needs to detect a given difference.
    Plan(PlanArgs),

    /// Take a wave off the leaderboards without deleting anything: append a withdrawal to the
    /// chain. `score`, `rescore`, `history`, `diff` and `compare` leave it out unless told
    /// --include-withdrawn; its publications still verify, shown as withdrawn.
    Withdraw(WithdrawArgs),

    /// Copy a whole ledger into a new one, on either store: an SQLite file into a PostgreSQL
    /// database (postgresql://USER@HOST/DATABASE) or back, or into a new file. Every row goes
    /// over as it is, ids and hashes included, so `verify` passes on the copy. The destination
    /// must be new or empty; --db is not used.
    Copy(CopyArgs),

    /// Write a self-contained reproduction bundle of a publication.
    Bundle(BundleArgs),

    /// The ledger's rows as CSV or JSON lines: attempts, seats' absolute figures, or scores
    /// under a rubric. Every row carries its wave and seat, so the exports of two waves
    /// concatenate into one table; integers stay integers; unknown is an empty cell (CSV) or
    /// null (JSON). The column order is documented in the README. `--format parquet --out DIR`
    /// writes attempts, seats and scores as three Parquet files into DIR instead (columns in
    /// docs/export.md; a build with the cargo feature `parquet`); `--format eee --out DIR`,
    /// each seat of each wave as an Every Eval Ever record with its attempts; `--format
    /// hf-eval-results --out DIR`, each seat's Correct-rate as a Hugging Face model
    /// repository's `.eval_results/` file (docs/export.md).
    Export(ExportArgs),

    /// Write a static site of the ledger: every wave with its conditions and leaderboards, a
    /// cost–accuracy chart with its frontier, each seat wave over wave with its load, rubric
    /// changes as slope charts, and every publication with its verification. It needs no
    /// server or network: open DIR/index.html, or put DIR on any static host.
    Site(SiteArgs),

    /// Build a ledger from the shipped examples and walk through what benchledger shows.
    ///
    /// The ledger goes to a temporary directory unless --db is given explicitly
    /// (BENCHLEDGER_DB is ignored here, so the demo never writes into your own ledger).
    Demo(DemoArgs),

    /// Print a completion script for a shell, generated from these very definitions: e.g.
    /// `benchledger completions bash > ~/.local/share/bash-completion/completions/benchledger`,
    /// or `benchledger completions zsh > "${fpath[1]}/_benchledger"`.
    Completions(CompletionsArgs),

    /// Print benchledger's man page (roff), generated from these very definitions: e.g.
    /// `benchledger man | man -l -`. With --out DIR, write it and one page per command
    /// (benchledger-show.1, ...) into DIR.
    Man(ManArgs),
}

impl Command {
    /// The `--wait` given after the command's name, for a command that writes.
    pub fn wait(&self) -> Option<u64> {
        match self {
            Command::Ingest(a) => a.wait.wait,
            Command::Rescore(a) => a.wait.wait,
            Command::Publish(a) => a.wait.wait,
            Command::Sign(a) => a.wait.wait,
            Command::Withdraw(a) => a.wait.wait,
            Command::Copy(a) => a.wait.wait,
            Command::Rubric {
                command: RubricCommand::Add { wait, .. },
            }
            | Command::Prices {
                command: PricesCommand::Add { wait, .. },
            } => wait.wait,
            _ => None,
        }
    }
}

/// The flags of `ingest` (its help text is the doc comment of [`Command::Ingest`]).
#[derive(Debug, Args)]
pub struct IngestArgs {
    /// Wave manifests (TOML); with --from, the logs or directories of logs.
    #[arg(required = true, value_name = "MANIFEST.toml | LOG_OR_DIR")]
    pub manifests: Vec<PathBuf>,
    /// Read the arguments as results files of this format (or directories of them) and build
    /// the waves from what they say: one wave per suite, one seat per model. The formats:
    /// jsonl, csv, tau-bench, terminal-bench, openhands, swe-bench, hal, tau2-bench, inspect,
    /// inspect-summaries, harbor, lm-eval, helm, eee (docs/importers.md).
    #[arg(long, value_name = "FORMAT")]
    pub from: Option<String>,
    /// With --from: the wave's id (default: the suite and the date of the earliest file);
    /// with files of several suites, the prefix of each wave's id.
    #[arg(long, value_name = "ID", requires = "from")]
    pub wave: Option<String>,
    /// With --from: a wave manifest without seats, for what the files cannot say (load,
    /// budget, the suite and its size, notes); what it says wins over the files.
    #[arg(long, value_name = "M.toml", requires = "from")]
    pub manifest: Option<PathBuf>,
    /// With --from: the suite's size, for files that do not say it.
    #[arg(long, value_name = "N", requires = "from")]
    pub suite_problems: Option<u64>,
    /// With --from: the suite, for files that do not name it.
    #[arg(long, value_name = "NAME", requires = "from")]
    pub suite: Option<String>,
    /// With --from: when the run started (RFC 3339 with its offset), for files that do not
    /// say.
    #[arg(long, value_name = "TIME", requires = "from")]
    pub started_at: Option<String>,
    /// With --from: the model, for files that do not name it. Files that name another model
    /// are refused, unless --model-mismatch=allow.
    #[arg(long, value_name = "MODEL", requires = "from")]
    pub model: Option<String>,
    /// With --from: the agent or harness, for files that do not name it.
    #[arg(long, value_name = "NAME", requires = "from")]
    pub harness: Option<String>,
    /// With --from: the model's provider, for files that do not name it.
    #[arg(long, value_name = "NAME", requires = "from")]
    pub provider: Option<String>,
    /// With --from and --model: `allow` keeps files that name another model than --model
    /// (a model served under another name), recording the difference in the wave's notes.
    #[arg(long, value_name = "allow", value_parser = ["allow"], requires = "model")]
    pub model_mismatch: Option<String>,
    /// With --from lm-eval: one wave per group of tasks (its subtasks' documents together,
    /// `<subtask>/<doc_id>`), instead of each subtask a wave.
    #[arg(long, requires = "from")]
    pub group: bool,
    /// With --from, for a format of several scorers or metrics (inspect, helm): the one whose
    /// value decides Correct, for every file (default: the format's own, docs/importers.md).
    #[arg(long, value_name = "NAME", requires = "from")]
    pub scorer: Option<String>,
    /// With --from: the results at PATH (a file, or every file under a directory) are of MODEL
    /// (and PROVIDER), in place of --model and --provider, so that the logs of several models
    /// make one wave: give it once per path. The deepest PATH holding a file is its.
    #[arg(long, value_name = "PATH=MODEL[@PROVIDER]", requires = "from")]
    pub seat: Vec<String>,
    /// With --from: show seat SEAT as NAME in tables and charts (its id stays the key). Give it
    /// once per seat, SEAT being the id the seat gets (the model's name as a slug, as `ingest
    /// --from` prints it); with files of several suites, every wave's seat of that id is named.
    /// A SEAT no wave has is refused, naming the seats there are.
    #[arg(long = "display-name", value_name = "SEAT=NAME", requires = "from")]
    pub display_name: Vec<String>,
    #[command(flatten)]
    pub wait: WaitArg,
}

/// The flags of `waves` (its help text is the doc comment of [`Command::Waves`]).
#[derive(Debug, Args)]
pub struct WavesArgs {
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `show` (its help text is the doc comment of [`Command::Show`]).
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The wave's id.
    pub wave: String,
    #[command(flatten)]
    pub prices: PricesArg,
    #[command(flatten)]
    pub ci: CiArgs,
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `score` (its help text is the doc comment of [`Command::Score`]).
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// The wave's id.
    #[arg(long)]
    pub wave: String,
    /// A registered rubric as NAME@VERSION, or a path to a rubric file.
    #[arg(long)]
    pub rubric: String,
    /// Also show withdrawn and superseded waves, marked as such.
    #[arg(long)]
    pub include_withdrawn: bool,
    #[command(flatten)]
    pub prices: PricesArg,
    #[command(flatten)]
    pub ci: CiArgs,
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `rescore` (its help text is the doc comment of [`Command::Rescore`]).
#[derive(Debug, Args)]
pub struct RescoreArgs {
    /// A registered rubric, NAME@VERSION.
    #[arg(long, required_unless_present = "all", conflicts_with = "all")]
    pub rubric: Option<String>,
    /// Every registered rubric, in one pass over the ledger: each wave's attempts are read
    /// once and fed to every rubric.
    #[arg(long)]
    pub all: bool,
    /// Only these waves (repeatable). Default: every wave not withdrawn.
    #[arg(long = "wave", value_name = "WAVE")]
    pub waves: Vec<String>,
    /// Also rescore withdrawn and superseded waves.
    #[arg(long)]
    pub include_withdrawn: bool,
    #[command(flatten)]
    pub wait: WaitArg,
}

/// The flags of `history` (its help text is the doc comment of [`Command::History`]).
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// A registered rubric, NAME@VERSION.
    #[arg(long)]
    pub rubric: String,
    /// Only this seat.
    #[arg(long)]
    pub seat: Option<String>,
    /// Only these waves (repeatable). Default: every wave not withdrawn.
    #[arg(long = "wave", value_name = "WAVE")]
    pub waves: Vec<String>,
    /// Also show withdrawn and superseded waves, marked as such.
    #[arg(long)]
    pub include_withdrawn: bool,
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `diff` (its help text is the doc comment of [`Command::Diff`]).
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The old rubric: NAME@VERSION or a rubric file.
    pub old: String,
    /// The new rubric: NAME@VERSION or a rubric file.
    pub new: String,
    /// Only these waves (repeatable). Default: every wave not withdrawn.
    #[arg(long = "wave", value_name = "WAVE")]
    pub waves: Vec<String>,
    /// Also show withdrawn and superseded waves, marked as such.
    #[arg(long)]
    pub include_withdrawn: bool,
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `compare` (its help text is the doc comment of [`Command::Compare`]).
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The seat's id (the same id in each wave).
    #[arg(long)]
    pub seat: String,
    /// Two or more waves, oldest first.
    #[arg(required = true, num_args = 2.., value_name = "WAVE")]
    pub waves: Vec<String>,
    /// Also show where the seat stands under these rubrics (repeatable). A relative
    /// rubric is shown only as the seat's rank inside each wave.
    #[arg(long = "rubric", value_name = "RUBRIC")]
    pub rubrics: Vec<String>,
    /// Also show withdrawn and superseded waves, marked as such.
    #[arg(long)]
    pub include_withdrawn: bool,
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `publish` (its help text is the doc comment of [`Command::Publish`]).
#[derive(Debug, Args)]
pub struct PublishArgs {
    /// The wave's id.
    #[arg(long)]
    pub wave: String,
    /// A registered rubric, NAME@VERSION.
    #[arg(long)]
    pub rubric: String,
    /// A title for the publication. Default: "WAVE under NAME@VERSION".
    #[arg(long)]
    pub title: Option<String>,
    /// Fill in the cost of every attempt that lacks one from this registered price table
    /// (NAME@VERSION). The publication records the table's hash, and verify recomputes
    /// the leaderboard with it.
    #[arg(long, value_name = "NAME@VERSION")]
    pub prices: Option<String>,
    #[command(flatten)]
    pub ci: CiArgs,
    /// Also write a self-contained reproduction bundle to this directory.
    #[arg(long, value_name = "DIR")]
    pub bundle: Option<PathBuf>,
    /// Write the published Markdown to this file (created or replaced) instead of printing
    /// it after the digests.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Check the claims in this file against the published wave and carry them, with their
    /// verdicts and the file itself, in the published text, which verify checks again.
    #[arg(long, value_name = "FILE")]
    pub claims: Option<PathBuf>,
    /// Sign the publication with this private key (from `benchledger keygen`): a DSSE
    /// envelope holding an in-toto statement of its input and output texts, its rubric, wave
    /// and chain record, kept beside it in the ledger and carried by its bundle.
    #[arg(long, value_name = "KEY")]
    pub sign: Option<PathBuf>,
    #[command(flatten)]
    pub wait: WaitArg,
}

/// The flags of `keygen` (its help text is the doc comment of [`Command::Keygen`]).
#[derive(Debug, Args)]
pub struct KeygenArgs {
    /// The private key file to write; the public key goes beside it, as FILE.pub. Neither may
    /// exist.
    #[arg(long, value_name = "KEY")]
    pub out: PathBuf,
}

/// The flags of `sign` (its help text is the doc comment of [`Command::Sign`]).
#[derive(Debug, Args)]
pub struct SignArgs {
    /// The publication's id.
    pub id: i64,
    /// The private key file (from `benchledger keygen`).
    #[arg(long, value_name = "KEY")]
    pub key: PathBuf,
    #[command(flatten)]
    pub wait: WaitArg,
}

/// The flags of `publications` (its help text is the doc comment of [`Command::Publications`]).
#[derive(Debug, Args)]
pub struct PublicationsArgs {
    /// Print only the record hash of the chain's last entry (a publication or a
    /// withdrawal), to keep outside the ledger — a git tag, a README badge — and check
    /// later with `verify --expect-head`.
    #[arg(long, conflicts_with = "format")]
    pub head: bool,
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `verify` (its help text is the doc comment of [`Command::Verify`]).
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Publication ids.
    pub ids: Vec<i64>,
    /// Every publication, and every withdrawal between them.
    #[arg(long, conflicts_with = "ids")]
    pub all: bool,
    /// Verify a reproduction bundle instead of the ledger. The bundle is only read, never
    /// written: its ledger is loaded into memory, and only regular files in it are read.
    /// Everything its ledger stores is checked too, as `--ledger` checks a ledger; with
    /// `--expect-head`, its publication's record must hash to HASH (the head printed right
    /// after publishing it).
    #[arg(long, value_name = "DIR", conflicts_with = "ledger")]
    pub bundle: Option<PathBuf>,
    /// Fail unless the chain ends exactly at this record hash (from `publications
    /// --head`), with every link on the way intact.
    #[arg(long, value_name = "HASH")]
    pub expect_head: Option<String>,
    /// Check everything the ledger stores against what it was derived from: the schema
    /// against schema.sql, every wave's rows against its content hash, every seat's stored
    /// tally against its attempts, every rubric and price table text against its hash,
    /// every stored score against a rescore, every chain record.
    #[arg(long)]
    pub ledger: bool,
    /// Fail unless every publication checked is signed by this public key (a `keygen`
    /// KEY.pub, SubjectPublicKeyInfo PEM): its envelope's signature verifies, and its signed
    /// statement names the publication's texts, rubric, wave and record as stored. Without it,
    /// a signed publication's statement is still held to what is stored.
    #[arg(long, value_name = "PUB")]
    pub trusted_key: Option<PathBuf>,
    /// Output format: the report (`table`), or `json`, the same verdicts as a document (each
    /// publication and withdrawal with its verdict and problems, the head check, the ledger's
    /// checks). Documented in the README.
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `trials` (its help text is the doc comment of [`Command::Trials`]).
#[derive(Debug, Args)]
pub struct TrialsArgs {
    /// The wave's id.
    pub wave: String,
    /// The k to show, comma-separated (default: 1 up to the fewest trials of a problem).
    #[arg(long, value_delimiter = ',', value_name = "K,...")]
    pub k: Vec<u64>,
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `problems` (its help text is the doc comment of [`Command::Problems`]).
#[derive(Debug, Args)]
pub struct ProblemsArgs {
    /// The wave; with --regressions, the two waves, the earlier first.
    #[arg(required = true, num_args = 1..=2, value_name = "WAVE")]
    pub waves: Vec<String>,
    /// Compare two waves: the problems each seat solves in one and not the other.
    #[arg(long)]
    pub regressions: bool,
    /// Only this seat (repeat for more).
    #[arg(long, value_name = "SEAT")]
    pub seat: Vec<String>,
    /// One problem's sample: every seat's attempts at it with the texts the log recorded
    /// (input, target, answer, the scorer's explanation).
    #[arg(long, value_name = "ID", conflicts_with = "regressions")]
    pub problem: Option<String>,
    /// Show a withdrawn wave too (marked as withdrawn).
    #[arg(long)]
    pub include_withdrawn: bool,
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `plan` (its help text is the doc comment of [`Command::Plan`]).
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// The wave's id.
    #[arg(long)]
    pub wave: String,
    /// The first seat.
    #[arg(long)]
    pub seat: String,
    /// The seat to compare it with.
    #[arg(long)]
    pub vs: String,
    /// The difference to detect, as a share (0.03 for 3 points).
    #[arg(long)]
    pub delta: Option<f64>,
    /// The two-sided test's level (default 0.05).
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The chance of detecting the difference (default 0.8).
    #[arg(long, default_value_t = 0.8)]
    pub power: f64,
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `versus` (its help text is the doc comment of [`Command::Versus`]).
#[derive(Debug, Args)]
pub struct VersusArgs {
    /// The wave's id.
    #[arg(long)]
    pub wave: String,
    /// The first seat.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub a: Option<String>,
    /// The second seat.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub b: Option<String>,
    /// Every pair of the wave's seats, with Holm's correction over all of them and the tie
    /// groups as letters (seats sharing a letter cannot be told apart).
    #[arg(long)]
    pub all: bool,
    /// The family-wise error rate `--all` holds the pairs to (default 0.05).
    #[arg(long, value_name = "ALPHA", requires = "all")]
    pub alpha: Option<f64>,
    #[command(flatten)]
    pub ci: CiArgs,
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `withdraw` (its help text is the doc comment of [`Command::Withdraw`]).
#[derive(Debug, Args)]
pub struct WithdrawArgs {
    /// The wave's id.
    pub wave: String,
    /// Why it is withdrawn (a wrong budget, a broken harness, ...); kept in the chain.
    #[arg(long)]
    pub reason: String,
    #[command(flatten)]
    pub wait: WaitArg,
}

/// The flags of `copy` (its help text is the doc comment of [`Command::Copy`]).
#[derive(Debug, Args)]
pub struct CopyArgs {
    /// The ledger to copy: a file or a postgresql:// URL.
    #[arg(long, value_name = "LEDGER")]
    pub from: PathBuf,
    /// Where to copy it: a new file, or an empty PostgreSQL database.
    #[arg(long, value_name = "LEDGER")]
    pub to: PathBuf,
    #[command(flatten)]
    pub wait: WaitArg,
}

/// The flags of `bundle` (its help text is the doc comment of [`Command::Bundle`]).
#[derive(Debug, Args)]
pub struct BundleArgs {
    /// The publication's id.
    pub id: i64,
    /// The directory to write (created; if it exists, it must be an empty directory, not a
    /// symbolic link).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// The flags of `export` (its help text is the doc comment of [`Command::Export`]).
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// csv, jsonl, parquet, eee or hf-eval-results.
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// attempts, seats or scores (csv and jsonl).
    #[arg(long, value_enum)]
    pub what: Option<ExportWhat>,
    /// The directory to write the files into (parquet, eee and hf-eval-results; made if
    /// missing, the files of the export replaced).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Only these waves (repeatable), in the order given. Default: every wave not
    /// withdrawn, oldest first.
    #[arg(long = "wave", value_name = "WAVE")]
    pub waves: Vec<String>,
    /// The rubric of `--what scores`: NAME@VERSION, or a rubric file.
    #[arg(long)]
    pub rubric: Option<String>,
    /// Also export withdrawn and superseded waves.
    #[arg(long)]
    pub include_withdrawn: bool,
    /// Leave out the CSV header row (to append to an export made before).
    #[arg(long)]
    pub no_header: bool,
    /// With hf-eval-results: the Hub benchmark dataset of a suite, SUITE=OWNER/NAME or
    /// SUITE=OWNER/NAME:TASK (the task of its eval.yaml; default `default`). Repeatable; a suite
    /// not named keeps its own name as the dataset id.
    #[arg(long = "hf-dataset", value_name = "SUITE=OWNER/NAME[:TASK]")]
    pub hf_dataset: Vec<String>,
    /// With hf-eval-results: a link to the results (a repository of the ledger, a site), written
    /// as each entry's `source.url`.
    #[arg(long, value_name = "URL")]
    pub source_url: Option<String>,
}

/// The flags of `site` (its help text is the doc comment of [`Command::Site`]).
#[derive(Debug, Args)]
pub struct SiteArgs {
    /// The directory to write: new, empty, or one an earlier `site` wrote (whose files are
    /// replaced; nothing else in it is touched).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The rubric the front page ranks every suite under (default: the most recently
    /// registered rubric that scores the suite's latest wave, else plain accuracy).
    #[arg(long, value_name = "NAME@VERSION")]
    pub rubric: Option<String>,
    /// The site's site.toml: the front page's title and description, suites pinned first or
    /// hidden, the artifacts base URL (README: "site.toml"). Without it, suites go newest
    /// latest wave first and every one is shown.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The base URL where the attempts' origins are published: a problem page's "Came from"
    /// links each attempt's file under it (instead of site.toml's `artifacts`).
    #[arg(long, value_name = "URL")]
    pub artifacts: Option<String>,
    /// A wave of at most N problems gets a page per problem (every seat's attempts and
    /// traces); every wave gets its problem × seat matrix.
    #[arg(long, value_name = "N", default_value_t = benchledger_core::site::PROBLEM_PAGES)]
    pub problem_pages: usize,
    /// How many attempts the problem pages show in all, or `all` (instead of site.toml's
    /// `attempt_pages`; default 5,000): each suite's latest wave gets its problem pages, then
    /// whole waves do, newest first, while they fit. A wave without them keeps its matrix.
    #[arg(long, value_name = "N|all", value_parser = benchledger_core::site::AttemptPages::parse)]
    pub attempt_pages: Option<benchledger_core::site::AttemptPages>,
    /// Every leaderboard carries intervals, rank ranges and tie-group letters (interval and
    /// rank range columns, a Group column, accuracy whiskers on the cost–accuracy chart), drawn
    /// as `score --ci` draws them: at 95 % unless --ci LEVEL says otherwise (--ci alone
    /// changes nothing), with --resamples and --seed as there.
    #[command(flatten)]
    pub ci: CiArgs,
    /// Draw no intervals, rank ranges or letters: the site as it is without uncertainty.
    #[arg(long, conflicts_with_all = ["level", "resamples", "seed"])]
    pub no_ci: bool,
    /// Every wave's costs, before its leaderboards, charts and problem pages are made (each
    /// page names the table). Publications are shown as they were frozen.
    #[command(flatten)]
    pub prices: PricesArg,
}

/// The flags of `demo` (its help text is the doc comment of [`Command::Demo`]).
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Instead of the tour, write the shipped examples, rubrics, price tables and claims
    /// under DIR (DIR/examples, DIR/rubrics, DIR/prices, DIR/claims), so that the README's
    /// session runs from DIR.
    #[arg(long, value_name = "DIR")]
    pub write: Option<PathBuf>,
}

/// The flags of `models` (its help text is the doc comment of [`Command::Models`]).
#[derive(Debug, Args)]
pub struct ModelsArgs {
    #[command(flatten)]
    pub format: FormatArg,
}

/// The flags of `completions` (its help text is the doc comment of [`Command::Completions`]).
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// bash, elvish, fish, powershell or zsh.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The flags of `man` (its help text is the doc comment of [`Command::Man`]).
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The directory to write the pages into (it must exist).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum RubricCommand {
    /// Parse rubric files and prove, by interval arithmetic, the range each score can take.
    ///
    /// Exits 1 when a rubric's score can leave its declared scale, naming the kind of seat
    /// that leaves it.
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },

    /// Register rubric files in the ledger as NAME@VERSION, with their SHA-256 and verbatim
    /// text. A registered version is immutable.
    Add {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Register a rubric that fails `rubric check` (to reproduce historical numbers). It
        /// is marked as such wherever it is shown.
        #[arg(long)]
        allow_scale_violation: bool,
        #[command(flatten)]
        wait: WaitArg,
    },

    /// List the registered rubrics.
    List {
        #[command(flatten)]
        format: FormatArg,
    },

    /// Print a registered rubric's verbatim text, with its hash and check verdict.
    Show {
        /// NAME@VERSION.
        rubric: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum PricesCommand {
    /// Parse price table files and print what each declares: its models and their prices.
    ///
    /// Exits 2 when a file is not a valid price table, naming its line and field.
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },

    /// Register price table files in the ledger as NAME@VERSION, with their SHA-256 and
    /// verbatim text. A registered version is immutable.
    Add {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        wait: WaitArg,
    },

    /// List the registered price tables.
    List {
        #[command(flatten)]
        format: FormatArg,
    },

    /// Print a registered price table's verbatim text, with its hash.
    Show {
        /// NAME@VERSION.
        prices: String,
    },
}

/// How `review` prints its findings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ReviewFormat {
    /// For people.
    #[default]
    Text,
    /// For a pull request's comment: the verdict, a table of the rules, the findings.
    Md,
    /// For bots: the `review` document (docs/review.md).
    Json,
}

/// The flags of `review` (its help text is the doc comment of [`Command::Review`]).
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The submission: results files of the --from format, or directories holding them (a
    /// Harbor job directory, a directory of Inspect logs).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The submission rules: a rules file, or NAME@VERSION of rules benchledger ships
    /// (terminal-bench-2@1, swe-bench@1).
    #[arg(long, value_name = "RULES")]
    pub rules: String,
    /// The submission's format, as `ingest --from` names it (default: harbor for a directory
    /// holding a Harbor job, inspect for Inspect logs).
    #[arg(long, value_name = "FORMAT")]
    pub from: Option<String>,
    /// A claims file naming the submission's wave and seats: the figures the submitter
    /// claims, checked against the ones recomputed (default for a Harbor job: the figures of
    /// its result.json).
    #[arg(long, value_name = "CLAIMS.toml")]
    pub claims: Option<PathBuf>,
    /// A wave of the ledger: where the submission would rank on its problems, and whether the
    /// data separate it from the leader and its neighbours.
    #[arg(long, value_name = "WAVE")]
    pub against: Option<String>,
    /// A registered price table (NAME@VERSION): every attempt's cost recomputed from its
    /// tokens, cached reads and writes at their own prices, beside the submission's own.
    #[arg(long, value_name = "NAME@VERSION")]
    pub prices: Option<String>,
    /// The suite's size, for files that do not say it (missing problems count as not Correct).
    #[arg(long, value_name = "N")]
    pub suite_problems: Option<u64>,
    /// Ingest the submission as a wave when the review accepts it, in the same step, as
    /// `ingest --from` would (nothing is ingested otherwise).
    #[arg(long)]
    pub ingest: bool,
    /// The wave's id (as `ingest --from --wave`).
    #[arg(long, value_name = "ID")]
    pub wave: Option<String>,
    /// A wave manifest without seats, for what the files cannot say (as `ingest --from`).
    #[arg(long, value_name = "M.toml")]
    pub manifest: Option<PathBuf>,
    /// The suite, for files that do not name it.
    #[arg(long, value_name = "NAME")]
    pub suite: Option<String>,
    /// When the run started (RFC 3339 with its offset), for files that do not say.
    #[arg(long, value_name = "TIME")]
    pub started_at: Option<String>,
    /// The model, for files that do not name it.
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,
    /// The model's provider, for files that do not name it.
    #[arg(long, value_name = "NAME")]
    pub provider: Option<String>,
    /// The agent or harness, for files that do not name it.
    #[arg(long, value_name = "NAME")]
    pub harness: Option<String>,
    /// How to print the review.
    #[arg(long, value_enum, default_value_t = ReviewFormat::Text)]
    pub format: ReviewFormat,
}

#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// Parse submission rules files and print what each checks.
    ///
    /// Exits 2 when a file is not valid rules (an unknown key, a malformed pattern), naming
    /// its line and field.
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },

    /// Register submission rules files in the ledger as NAME@VERSION, with their SHA-256 and
    /// verbatim text. Registered rules are immutable: other text under the same NAME@VERSION
    /// is refused (bump `version`), and so is other text under a name@version that ships
    /// with benchledger.
    Add {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },

    /// List the registered submission rules and those that ship with benchledger, with how
    /// many waves a review under each let in (`review --ingest`).
    List {
        #[command(flatten)]
        format: FormatArg,
    },

    /// Print submission rules' verbatim text, with its hash: registered rules, else shipped.
    Show {
        /// NAME@VERSION.
        rules: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum ClaimsCommand {
    /// Check each claim of claims files against the ledger: the published value, the
    /// ledger's, the ledger's at the published precision, and a verdict — reproduced, differs
    /// (by how much, and the plausible causes), or cannot be computed (and why).
    ///
    /// Exits 1 when any claim differs; 2 when a file is not a valid claims file or names a
    /// wave, seat or rubric the ledger does not have.
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        prices: PricesArg,
        #[command(flatten)]
        format: FormatArg,
    },

    /// Write a claims file from a leaderboard's own files, mapping each published figure to
    /// benchledger's.
    From {
        #[command(subcommand)]
        source: ClaimsFrom,
    },
}

#[derive(Debug, Subcommand)]
pub enum ClaimsFrom {
    /// An OpenHands index model directory (results/MODEL): its scores.json (accuracy, cost
    /// per instance, average runtime) and metadata.json.
    Openhands {
        /// The model directory.
        dir: PathBuf,
        /// The claims file to write (a new file: never overwritten).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Each benchmark B is claimed about wave PREFIX + B.
        #[arg(long, value_name = "PREFIX", default_value = "oh-")]
        wave_prefix: String,
        /// The seat the claims are about. Default: the model directory's name.
        #[arg(long)]
        seat: Option<String>,
    },

    /// A Terminal-Bench run's results.json: its accuracy and pass@k.
    TerminalBench {
        /// The run's results.json.
        results: PathBuf,
        /// The claims file to write (a new file: never overwritten).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The wave the run was ingested as.
        #[arg(long)]
        wave: String,
        /// The seat the run was ingested as.
        #[arg(long)]
        seat: String,
    },

    /// lm-evaluation-harness's results_DATE.json: one task's "METRIC,FILTER" value (the
    /// task's first metric and filter, or --metric) as the seat's accuracy.
    LmEval {
        /// The run's results_DATE.json.
        results: PathBuf,
        /// The task (a subtask of a group is a task of its own), or a group ingested whole
        /// (`ingest --from lm-eval --group`): its figure is over all its tasks' documents.
        #[arg(long)]
        task: String,
        /// The figure: METRIC or METRIC,FILTER (default: the task's first metric and filter).
        #[arg(long)]
        metric: Option<String>,
        /// The claims file to write (a new file: never overwritten).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The wave the task was ingested as.
        #[arg(long)]
        wave: String,
        /// The seat the run was ingested as.
        #[arg(long)]
        seat: String,
    },

    /// A HELM run directory's stats.json: the main metric's mean, the mean prompt and
    /// completion tokens and runtime per instance, the number of instances.
    Helm {
        /// The run directory (benchmark_output/runs/SUITE/RUN), holding stats.json.
        run_dir: PathBuf,
        /// The run's main metric (default exact_match, as the importer reads it).
        #[arg(long)]
        metric: Option<String>,
        /// The claims file to write (a new file: never overwritten).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The wave the run was ingested as.
        #[arg(long)]
        wave: String,
        /// The seat the run was ingested as.
        #[arg(long)]
        seat: String,
    },

    /// An Every Eval Ever aggregate record (ID.json, or the ID_samples.jsonl beside it): one
    /// evaluation's score, with its uncertainty, and its number of samples.
    Eee {
        /// The aggregate record, or its samples file.
        record: PathBuf,
        /// The evaluation (its evaluation_name); needed when the record holds several.
        #[arg(long)]
        evaluation: Option<String>,
        /// The claims file to write (a new file: never overwritten).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The wave the records were ingested as.
        #[arg(long)]
        wave: String,
        /// The seat the records were ingested as.
        #[arg(long)]
        seat: String,
    },

    /// A Harbor job's result.json: its mean reward and pass@k.
    Harbor {
        /// The job's result.json.
        result: PathBuf,
        /// The claims file to write (a new file: never overwritten).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The wave the job was ingested as.
        #[arg(long)]
        wave: String,
        /// The seat the job was ingested as.
        #[arg(long)]
        seat: String,
    },

    /// A HAL harness upload (*_UPLOAD.json): its accuracy and total cost.
    Hal {
        /// The upload.
        upload: PathBuf,
        /// The claims file to write (a new file: never overwritten).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The wave the upload was ingested as.
        #[arg(long)]
        wave: String,
        /// The seat the upload was ingested as.
        #[arg(long)]
        seat: String,
    },
}

/// What to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportWhat {
    /// One row per attempt, as recorded.
    Attempts,
    /// One row per seat and wave: the absolute figures `show` prints.
    Seats,
    /// One row per seat and wave under a rubric (--rubric): the figures and the score `score`
    /// prints.
    Scores,
}

impl From<ExportWhat> for benchledger_core::report::export::What {
    fn from(w: ExportWhat) -> Self {
        use benchledger_core::report::export::What;
        match w {
            ExportWhat::Attempts => What::Attempts,
            ExportWhat::Seats => What::Seats,
            ExportWhat::Scores => What::Scores,
        }
    }
}

/// How an export is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Comma-separated values, a header row first (unless --no-header).
    Csv,
    /// One JSON object per line, keys in the columns' order.
    Jsonl,
    /// Apache Parquet files (attempts, seats, scores) written into --out DIR.
    Parquet,
    /// Every Eval Ever records (schema 0.3.0) written into --out DIR: per wave and seat an
    /// aggregate record and its attempts as instance rows, in EEE's `data/` layout.
    Eee,
    /// Hugging Face `.eval_results/` YAML files written into --out DIR: per model
    /// (`PROVIDER/MODEL/.eval_results/`), a file per wave and seat with its Correct-rate.
    HfEvalResults,
}

impl From<ExportFormat> for benchledger_core::report::export::ExportFormat {
    fn from(f: ExportFormat) -> Self {
        use benchledger_core::report::export::ExportFormat as Core;
        match f {
            ExportFormat::Csv => Core::Csv,
            ExportFormat::Jsonl => Core::Jsonl,
            ExportFormat::Parquet => Core::Parquet,
            ExportFormat::Eee => Core::Eee,
            ExportFormat::HfEvalResults => Core::HfEvalResults,
        }
    }
}
