//! An Inspect sample's texts (issue "show the sample itself"): what the model was asked, the
//! target, what it answered and the deciding scorer's explanation, as Inspect's own log viewer
//! shows them first. Read from the sample's `input`, `target`, `output` and `scores`, with
//! `attachment://` references resolved from the sample's `attachments`; each text cut to
//! [`AttemptTexts::CAP`] characters by [`AttemptTexts::capped`].

use serde_json::Value;

use super::log::Sample;
use crate::model::AttemptTexts;

use super::log::ATTACHMENT;

/// The texts of `s`, the explanation taken from `scorer` (the scorer that decides), else from
/// the first scorer that gives one. `None` when the sample records none.
pub fn of(s: &Sample, scorer: Option<&str>) -> Option<AttemptTexts> {
    let text = |v: &str| resolve(s, v);
    let input = s.input.as_ref().and_then(|v| input(v, &text));
    let target = s.target.as_ref().and_then(|v| target(v, &text));
    let answer = s.output.as_ref().and_then(|v| answer(v, &text));
    let explanation = scorer
        .and_then(|want| s.explanations.iter().find(|(n, _)| n == want))
        .or_else(|| s.explanations.first())
        .map(|(_, e)| text(e));
    AttemptTexts::capped(input, target, answer, explanation)
}

/// `t`, or the attachment it refers to (said in words when the sample does not keep it).
fn resolve(s: &Sample, t: &str) -> String {
    match t.strip_prefix(ATTACHMENT) {
        Some(name) => match s.attachments.get(name) {
            Some(a) => a.clone(),
            None => format!("[an attachment the sample does not keep: {name}]"),
        },
        None => t.to_string(),
    }
}

/// A message's `content`: a string, or a list of parts whose text parts are joined (an image,
/// audio or video part said in words).
fn content(v: &Value, text: &dyn Fn(&str) -> String) -> Option<String> {
    match v {
        Value::String(t) => Some(text(t)),
        Value::Array(parts) => {
            let out: Vec<String> = parts
                .iter()
                .filter_map(|p| match p.get("type").and_then(Value::as_str) {
                    Some("text") => p.get("text").and_then(Value::as_str).map(text),
                    Some("reasoning") => None,
                    Some(kind) => Some(format!("[{kind}]")),
                    None => p.as_str().map(text),
                })
                .collect();
            (!out.is_empty()).then(|| out.join("\n"))
        }
        _ => None,
    }
}

/// The input: a string as it is; chat messages as "role: content", a blank line between.
fn input(v: &Value, text: &dyn Fn(&str) -> String) -> Option<String> {
    match v {
        Value::String(t) => Some(text(t)),
        Value::Array(messages) => {
            let out: Vec<String> = messages
                .iter()
                .filter_map(|m| {
                    let body = content(m.get("content")?, text)?;
                    Some(match m.get("role").and_then(Value::as_str) {
                        Some(role) => format!("{role}: {body}"),
                        None => body,
                    })
                })
                .collect();
            (!out.is_empty()).then(|| out.join("\n\n"))
        }
        _ => None,
    }
}

/// The target: a string, or a list of them one per line.
fn target(v: &Value, text: &dyn Fn(&str) -> String) -> Option<String> {
    match v {
        Value::String(t) => Some(text(t)),
        Value::Array(ts) => {
            let out: Vec<String> = ts.iter().filter_map(Value::as_str).map(text).collect();
            (!out.is_empty()).then(|| out.join("\n"))
        }
        _ => None,
    }
}

/// The answer: the output's `completion` when written, else its first choice's message.
fn answer(v: &Value, text: &dyn Fn(&str) -> String) -> Option<String> {
    if let Some(Value::String(c)) = v.get("completion")
        && !c.is_empty()
    {
        return Some(text(c));
    }
    let message = v.get("choices")?.get(0)?.get("message")?;
    content(message.get("content")?, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A sample read from its text, its keys in the order written (as inspect_ai writes them:
    /// `attachments` last).
    fn sample(v: Value) -> Sample {
        let mut text = String::from("{");
        let o = v.as_object().unwrap();
        let order = [
            "id",
            "epoch",
            "input",
            "target",
            "output",
            "scores",
            "attachments",
        ];
        for k in order.iter().filter(|k| o.contains_key(**k)) {
            if text.len() > 1 {
                text.push(',');
            }
            text.push_str(&format!("{:?}:{}", k, o[*k]));
        }
        text.push('}');
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn chat_input_parts_attachments_and_the_deciding_explanation() {
        let s = sample(json!({
            "id": 1, "epoch": 1,
            "input": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": [
                    {"type": "text", "text": "attachment://a1"},
                    {"type": "image", "image": "attachment://img"}
                ]}
            ],
            "target": ["4", "four"],
            "output": {"choices": [{"message": {"role": "assistant", "content": "4"}}]},
            "scores": {
                "first": {"value": "C", "explanation": "matched"},
                "second": {"value": 1, "explanation": "graded"}
            },
            "attachments": {"a1": "What is 2 + 2?", "img": "data:image/png;base64,AAAA"}
        }));
        // The image is named but not kept: only a text's attachments are read.
        assert_eq!(
            s.attachments.keys().collect::<Vec<_>>(),
            ["a1", "img"],
            "both are referenced"
        );
        let t = of(&s, Some("second")).unwrap();
        assert_eq!(
            t.input.as_deref(),
            Some("system: Be brief.\n\nuser: What is 2 + 2?\n[image]")
        );
        assert_eq!(t.target.as_deref(), Some("4\nfour"));
        assert_eq!(t.answer.as_deref(), Some("4"));
        assert_eq!(t.explanation.as_deref(), Some("graded"));
        assert_eq!(
            of(&s, None).unwrap().explanation.as_deref(),
            Some("matched")
        );
    }

    #[test]
    fn unreferenced_attachments_are_not_kept_and_a_missing_one_is_said() {
        let s = sample(json!({
            "input": "attachment://gone",
            "output": {"completion": "yes", "choices": []},
            "attachments": {"other": "x".repeat(100)}
        }));
        assert!(s.attachments.is_empty());
        let t = of(&s, None).unwrap();
        assert_eq!(
            t.input.as_deref(),
            Some("[an attachment the sample does not keep: gone]")
        );
        assert_eq!(t.answer.as_deref(), Some("yes"));
        assert_eq!(t.target, None);
    }

    #[test]
    fn a_long_text_is_cut_and_the_cut_said() {
        let s = sample(json!({"input": "é".repeat(AttemptTexts::CAP + 5)}));
        let t = of(&s, None).unwrap().input.unwrap();
        assert!(t.starts_with(&"é".repeat(AttemptTexts::CAP)));
        assert!(t.ends_with(&format!(
            "\n[cut: the text ran to {} characters; the first {} are kept]",
            AttemptTexts::CAP + 5,
            AttemptTexts::CAP
        )));
        assert_eq!(of(&sample(json!({"input": "  "})), None), None);
    }
}
