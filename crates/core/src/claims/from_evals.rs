//! Claims read from the aggregate files of model-evaluation harnesses, apart from the agent
//! leaderboards of [`super::from`] because their figures are means over instances rather than
//! a leaderboard's columns:
//!
//! - **HELM** (a run directory's `stats.json`, HELM's `Stat` list: `name` {`name`, `split`,
//!   `perturbation`, `sub_split`}, `count`, `sum`, `mean`, ...): of the unperturbed `test`
//!   split, the main metric's mean (`exact_match`, or the one named) → `mean_outcome` (the
//!   importer's outcome is that metric per instance), `num_prompt_tokens` →
//!   `mean_input_tokens`, `num_completion_tokens` → `mean_output_tokens`,
//!   `inference_runtime` → `mean_wall_s`, `num_instances` → `problems`. HELM writes its means
//!   unrounded: ±10⁻⁹.
//! - **Every Eval Ever** (an aggregate record `<id>.json`): one evaluation result's
//!   `score_details.score` → `accuracy` where its metric is an accuracy (`metric_id`,
//!   `metric_kind` or `metric_name`), else `mean_outcome`; scaled by 100 where `metric_unit` is
//!   `percent`; at its written decimals. Its `uncertainty` (standard error, confidence
//!   interval, standard deviation) is said in the claim's source; of an accuracy, its
//!   `standard_error.value` → `accuracy_se` (same scale, within `import::claims::se_precision`); its
//!   `num_samples` → `attempts`.
//!
//! Each reader lives beside its format's importer (`import/helm/claims.rs`,
//! `import/eee/claims.rs`); they are re-exported here, where the commands call them.

pub use crate::import::eee::claims::eee;
pub use crate::import::helm::claims::{HELM_METRIC, helm};
