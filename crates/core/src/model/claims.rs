//! Claims as data: a number someone published about a wave, the figure of benchledger's it
//! names and the precision it was published with (docs/claims.md). The types live here, below
//! every layer, so that what reads a harness's own files (`import`, one module per format)
//! can make claims as well as attempts; parsing a claims file (`claims::spec`), rounding
//! (`claims::round`) and checking (`claims::check`) stay in `claims`.

/// The most decimals a claim can give.
pub const MAX_DECIMALS: u32 = 12;

/// How precisely a number was published.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Precision {
    /// Rounded to this many decimals.
    Decimals(u32),
    /// Anything within this distance of the published value.
    Tolerance(f64),
}

/// A figure `show` prints per seat, by its JSON name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SeatFigure {
    Problems,
    Attempts,
    Correct,
    Missing,
    Denominator,
    Accuracy,
    /// The standard error of the accuracy, clustered by problem, as `show` computes it
    /// (`accuracy_se`: docs/statistics.md).
    AccuracySe,
    InputTokens,
    OutputTokens,
    InputTokensCacheRead,
    InputTokensCacheWrite,
    TokensTotal,
    NewInputTokens,
    WallS,
    CostUsd,
    CostOfPassUsd,
    CostOfPassPerProblemUsd,
    Steps,
    Errors,
    CanaryFailures,
}

impl SeatFigure {
    pub const ALL: [SeatFigure; 20] = [
        SeatFigure::Problems,
        SeatFigure::Attempts,
        SeatFigure::Correct,
        SeatFigure::Missing,
        SeatFigure::Denominator,
        SeatFigure::Accuracy,
        SeatFigure::AccuracySe,
        SeatFigure::InputTokens,
        SeatFigure::OutputTokens,
        SeatFigure::InputTokensCacheRead,
        SeatFigure::InputTokensCacheWrite,
        SeatFigure::TokensTotal,
        SeatFigure::NewInputTokens,
        SeatFigure::WallS,
        SeatFigure::CostUsd,
        SeatFigure::CostOfPassUsd,
        SeatFigure::CostOfPassPerProblemUsd,
        SeatFigure::Steps,
        SeatFigure::Errors,
        SeatFigure::CanaryFailures,
    ];

    /// The name `show`'s JSON gives it (for Cost-of-Pass per problem, its
    /// `cost_of_pass_per_problem[].usd`).
    pub fn name(self) -> &'static str {
        match self {
            SeatFigure::Problems => "problems",
            SeatFigure::Attempts => "attempts",
            SeatFigure::Correct => "correct",
            SeatFigure::Missing => "missing",
            SeatFigure::Denominator => "denominator",
            SeatFigure::Accuracy => "accuracy",
            SeatFigure::AccuracySe => "accuracy_se",
            SeatFigure::InputTokens => "input_tokens",
            SeatFigure::OutputTokens => "output_tokens",
            SeatFigure::InputTokensCacheRead => "input_tokens_cache_read",
            SeatFigure::InputTokensCacheWrite => "input_tokens_cache_write",
            SeatFigure::TokensTotal => "tokens_total",
            SeatFigure::NewInputTokens => "new_input_tokens",
            SeatFigure::WallS => "wall_s",
            SeatFigure::CostUsd => "cost_usd",
            SeatFigure::CostOfPassUsd => "cost_of_pass_usd",
            SeatFigure::CostOfPassPerProblemUsd => "cost_of_pass_per_problem_usd",
            SeatFigure::Steps => "steps",
            SeatFigure::Errors => "errors",
            SeatFigure::CanaryFailures => "canary_failures",
        }
    }
}

/// A quantity known per attempt, whose mean over attempts can be claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Measure {
    CostUsd,
    WallS,
    TokensTotal,
    /// The graded outcome, or 1/0 from Correct where none is graded: the mean score a
    /// benchmark reports where its "accuracy" is a mean of per-task scores (HAL's
    /// AssistantBench).
    Outcome,
    /// Input tokens as the results report them (HELM's `num_prompt_tokens`).
    InputTokens,
    /// Output tokens (HELM's `num_completion_tokens`).
    OutputTokens,
}

impl Measure {
    pub const ALL: [Measure; 6] = [
        Measure::CostUsd,
        Measure::WallS,
        Measure::TokensTotal,
        Measure::Outcome,
        Measure::InputTokens,
        Measure::OutputTokens,
    ];

    /// The figure's name: `mean_` and the measure's.
    pub fn name(self) -> &'static str {
        match self {
            Measure::CostUsd => "mean_cost_usd",
            Measure::WallS => "mean_wall_s",
            Measure::TokensTotal => "mean_tokens_total",
            Measure::Outcome => "mean_outcome",
            Measure::InputTokens => "mean_input_tokens",
            Measure::OutputTokens => "mean_output_tokens",
        }
    }
}

/// A figure benchledger computes for a seat of a wave, which a claim names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Figure {
    Seat(SeatFigure),
    /// The mean per attempt of a quantity, over the attempts where it is known.
    Mean(Measure),
    /// pass@k, as `trials` computes it.
    PassAtK(u64),
    /// pass^k, as `trials` computes it.
    PassHatK(u64),
    /// The seat's score under a registered rubric.
    Score {
        name: String,
        version: u32,
    },
}

impl Figure {
    /// The figure as a claims file names it.
    pub fn name(&self) -> String {
        match self {
            Figure::Seat(f) => f.name().into(),
            Figure::Mean(m) => m.name().into(),
            Figure::PassAtK(k) => format!("pass_at_k.{k}"),
            Figure::PassHatK(k) => format!("pass_hat_k.{k}"),
            Figure::Score { name, version } => format!("score:{name}@{version}"),
        }
    }

    /// Whether the figure is a share of problems (accuracy), the kind a publisher's own counts
    /// of Correct and problems can be given for.
    pub(crate) fn is_accuracy(&self) -> bool {
        matches!(self, Figure::Seat(SeatFigure::Accuracy))
    }
}

/// The counts a publisher states behind an accuracy: so many Correct of so many problems.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub correct: u64,
    pub of: u64,
}

/// The lines of a claim's fields that name something in the ledger, for errors about them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Lines {
    pub wave: usize,
    pub seat: usize,
    pub figure: usize,
}

/// One published number and where to find it in the ledger.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    /// Line of the claim (its `[[claim]]`) in its file.
    pub line: usize,
    /// Lines of its wave, seat and figure.
    pub lines: Lines,
    pub wave: String,
    pub seat: String,
    pub figure: Figure,
    /// As published, in the published scale.
    pub value: f64,
    /// What the figure was multiplied by to be published: 100 for a percentage.
    pub scale: f64,
    pub precision: Precision,
    /// The publisher's name for the figure, given when what was published is another figure
    /// than the one the claim names (`solveable_accuracy` claimed as `accuracy`): a claim that
    /// differs names it as a cause.
    pub metric: Option<String>,
    /// The publisher's own counts behind an accuracy, when given.
    pub counts: Option<Counts>,
    /// Where this one number came from, when the file's source does not say it all.
    pub source: Option<String>,
}

/// A parsed, checked claims file.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimsFile {
    pub name: String,
    pub version: u32,
    /// Where the numbers were published.
    pub source: String,
    pub description: Option<String>,
    /// In file order; at least one.
    pub claims: Vec<Claim>,
}

impl ClaimsFile {
    /// `name@version`.
    pub fn id(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }
}
