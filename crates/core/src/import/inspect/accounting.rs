//! Whether an Inspect log's `input_tokens` include the cached reads: a rule on the version of
//! inspect_ai that wrote the log (`eval.packages.inspect_ai`) and the provider of the evaluated
//! model (the prefix of `eval.model`, `openai/gpt-4o` → `openai`).
//!
//! Inspect's `ModelUsage` has counted cached reads both ways. Its changelog:
//!
//! - **0.3.184** (28 February 2026): "Normalize handling of cached tokens in `ModelUsage` (input
//!   tokens now excludes cached tokens whereas previously it included them for some
//!   providers)". Before it, the OpenAI converter — used by `openai`, by `openai-api` (any
//!   OpenAI-compatible service) and by every provider built on it — and Grok's counted cached
//!   reads inside `input_tokens`, as the OpenAI API's `prompt_tokens` does.
//! - **0.3.208** (19 April 2026): "Google: Correct counting for cached input tokens". Gemini's
//!   `prompt_token_count` includes the cached content, and Inspect passed it through until
//!   then.
//! - Anthropic's API reports `input_tokens` without the cache, and Inspect never added it.
//!
//! Any other provider before 0.3.184 (Mistral, Bedrock, Azure AI, Groq, Hugging Face, a mock
//! model, ...) is not stated: the manifest says how to count, as it does for a hand-written
//! wave. A version is compared as Python packaging orders them: `0.3.184.dev12+g1234` is a
//! development build *before* 0.3.184, so it still counts the old way.

use crate::import::Stated;

/// The first inspect_ai that excludes cached reads from `input_tokens` for every provider but
/// Google's.
pub(crate) const NORMALISED: Version = Version::release(0, 3, 184);
/// The first inspect_ai that excludes them for Google's Gemini too.
pub(crate) const GEMINI_NORMALISED: Version = Version::release(0, 3, 208);

/// The providers whose usage went through the OpenAI converter (or Grok's, which counted the
/// same way) before 0.3.184: `openai`, `openai-api/<service>` and the providers built on the
/// OpenAI-compatible client.
pub(crate) const INCLUDED_UNTIL_NORMALISED: &[&str] = &[
    "openai",
    "openai-api",
    "grok",
    "together",
    "fireworks",
    "sambanova",
    "ollama",
    "openrouter",
    "perplexity",
    "llama-cpp-python",
    "vllm",
    "sglang",
    "cf",
    "deepseek",
    "hf-inference-providers",
    "moonshot",
];

/// Gemini, through Google's own provider (`google`) or the older Vertex one (`vertex`).
pub(crate) const GEMINI: &[&str] = &["google", "vertex"];

/// Never included: Anthropic's API reports input without the cache.
pub(crate) const NEVER_INCLUDED: &[&str] = &["anthropic"];

/// A release number with whether it is a pre-release of it (`.dev`, `a`, `b`, `rc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Version {
    pub release: [u64; 3],
    /// A development build or pre-release comes before its release.
    pub pre: bool,
}

impl Version {
    pub const fn release(major: u64, minor: u64, patch: u64) -> Version {
        Version {
            release: [major, minor, patch],
            pre: false,
        }
    }

    /// Reads `0.3.95`, `0.3.95.dev16+g6527d0861`, `0.3.154.dev44+g32a84c8fe.d20251213`,
    /// `0.3.58rc1`; `None` for text that does not start with a number.
    pub fn parse(text: &str) -> Option<Version> {
        let text = text.trim();
        let text = text.strip_prefix('v').unwrap_or(text);
        // A local version (`+g1234`) says nothing about the order.
        let public = text.split('+').next().unwrap_or("");
        let mut release = [0u64; 3];
        let mut rest = public;
        let mut parts = 0;
        while parts < 3 {
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            if digits == 0 {
                break;
            }
            release[parts] = rest[..digits].parse().ok()?;
            parts += 1;
            rest = &rest[digits..];
            match rest.strip_prefix('.') {
                Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) && parts < 3 => rest = r,
                _ => break,
            }
        }
        if parts == 0 {
            return None;
        }
        // Further release components (0.3.95.1) sort after 0.3.95; they cannot cross a
        // threshold that is itself three components long, so they are dropped.
        while let Some(r) = rest.strip_prefix('.')
            && r.starts_with(|c: char| c.is_ascii_digit())
        {
            rest = r.trim_start_matches(|c: char| c.is_ascii_digit());
        }
        let suffix = rest
            .trim_start_matches(['.', '-', '_'])
            .to_ascii_lowercase();
        let pre = ["dev", "a", "b", "rc", "alpha", "beta", "pre", "c"]
            .iter()
            .any(|p| suffix.starts_with(p));
        Some(Version { release, pre })
    }

    /// Whether this version comes before `other` (a release).
    pub fn before(&self, other: &Version) -> bool {
        self.release < other.release || (self.release == other.release && self.pre && !other.pre)
    }
}

/// The provider of an Inspect model name: the part before the first `/`.
pub fn provider(model: &str) -> &str {
    model.split('/').next().unwrap_or(model)
}

/// What a log written by inspect_ai `version` says about the evaluated `model`'s input
/// tokens, and why; `None` when the rule does not say (the manifest must).
pub(crate) fn stated(version: Option<&str>, model: &str) -> Option<Stated> {
    let provider = provider(model);
    if NEVER_INCLUDED.contains(&provider) {
        return Some(Stated {
            input_tokens_include_cache_reads: false,
            why: format!(
                "inspect_ai counts cached reads outside input_tokens for {provider} models in \
                 every version"
            ),
        });
    }
    let written = version?;
    let v = Version::parse(written)?;
    let (threshold, family) = if GEMINI.contains(&provider) {
        (GEMINI_NORMALISED, "Google's Gemini")
    } else if INCLUDED_UNTIL_NORMALISED.contains(&provider) {
        (NORMALISED, "OpenAI and OpenAI-compatible")
    } else if v.before(&NORMALISED) {
        // Before the normalisation, only the converters above are known to have counted
        // cached reads inside input_tokens.
        return None;
    } else {
        (NORMALISED, "every")
    };
    let t = threshold.release;
    let at = format!("{}.{}.{}", t[0], t[1], t[2]);
    Some(if v.before(&threshold) {
        Stated {
            input_tokens_include_cache_reads: true,
            why: format!(
                "inspect_ai {written} (before {at}) counted cached reads inside input_tokens \
                 for {family} models such as {model}"
            ),
        }
    } else {
        Stated {
            input_tokens_include_cache_reads: false,
            why: format!(
                "inspect_ai {written} (since {at}) counts cached reads outside input_tokens for \
                 {family} models such as {model}"
            ),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn versions_are_ordered_as_python_packaging_orders_them() {
        assert_eq!(v("0.3.95").release, [0, 3, 95]);
        assert!(!v("0.3.95").pre);
        assert!(v("0.3.95.dev16+g6527d0861").pre);
        assert!(v("0.3.154.dev44+g32a84c8fe.d20251213").pre);
        assert!(v("0.3.58rc1").pre);
        assert!(!v("0.3.184.post1").pre);
        assert!(v("0.3.183").before(&NORMALISED));
        assert!(v("0.3.184.dev3").before(&NORMALISED));
        assert!(!v("0.3.184").before(&NORMALISED));
        assert!(!v("0.3.184.post1").before(&NORMALISED));
        assert!(!v("0.3.184.1").before(&NORMALISED));
        assert!(!v("0.4").before(&NORMALISED));
        assert!(v("0.3").before(&NORMALISED));
        assert!(!v("1.0.0").before(&NORMALISED));
        assert_eq!(Version::parse("unknown"), None);
        assert_eq!(Version::parse(""), None);
    }

    fn includes(version: &str, model: &str) -> Option<bool> {
        stated(Some(version), model).map(|s| s.input_tokens_include_cache_reads)
    }

    #[test]
    fn openai_counted_cached_reads_inside_until_0_3_184() {
        for model in [
            "openai/gpt-4o-mini",
            "openai-api/deepseek/deepseek-chat",
            "grok/grok-4",
            "ollama/gemma3",
            "together/meta-llama/Llama-3-70b",
        ] {
            assert_eq!(
                includes("0.3.95.dev16+g6527d0861", model),
                Some(true),
                "{model}"
            );
            assert_eq!(includes("0.3.183", model), Some(true), "{model}");
            assert_eq!(includes("0.3.184.dev1", model), Some(true), "{model}");
            assert_eq!(includes("0.3.184", model), Some(false), "{model}");
            assert_eq!(includes("0.3.285", model), Some(false), "{model}");
        }
        let why = stated(Some("0.3.95"), "openai/gpt-4o-mini").unwrap().why;
        assert_eq!(
            why,
            "inspect_ai 0.3.95 (before 0.3.184) counted cached reads inside input_tokens for \
             OpenAI and OpenAI-compatible models such as openai/gpt-4o-mini"
        );
    }

    #[test]
    fn gemini_until_0_3_208_and_anthropic_never() {
        assert_eq!(includes("0.3.184", "google/gemini-2.5-pro"), Some(true));
        assert_eq!(includes("0.3.207", "google/gemini-2.5-pro"), Some(true));
        assert_eq!(includes("0.3.208", "google/gemini-2.5-pro"), Some(false));
        assert_eq!(includes("0.3.50", "vertex/gemini-1.5-pro"), Some(true));
        for version in ["0.3.25", "0.3.183", "0.3.300"] {
            assert_eq!(
                includes(version, "anthropic/claude-sonnet-4-5"),
                Some(false)
            );
        }
        // Anthropic's rule needs no version.
        assert_eq!(
            stated(None, "anthropic/claude-3-5-sonnet").map(|s| s.input_tokens_include_cache_reads),
            Some(false)
        );
    }

    #[test]
    fn other_providers_are_stated_only_after_the_normalisation() {
        assert_eq!(includes("0.3.135", "mistral/mistral-large"), None);
        assert_eq!(includes("0.3.42", "azureai/Meta-Llama-3-1-405B"), None);
        assert_eq!(includes("0.3.135.dev2", "hardcoded/hardcoded"), None);
        assert_eq!(includes("0.3.184", "mistral/mistral-large"), Some(false));
        assert_eq!(includes("0.3.285", "fixed/model-a"), Some(false));
        assert_eq!(stated(None, "openai/gpt-4"), None);
        assert_eq!(stated(Some("unknown"), "openai/gpt-4"), None);
    }
}
