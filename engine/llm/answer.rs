//! A model's answer → the claims it proposes. Lenient about the envelope (the object of
//! the schema, a bare list, JSON Lines as `tg vocab prompt` asks, a Markdown code fence
//! around any of them), strict about each claim: a claim that is not an object of string
//! fields is refused on its own (`bad_json`) and the others are still gated.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

/// One claim as a model writes it (fields outside the schema are ignored).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct ModelClaim {
    /// Subject name.
    #[serde(default)]
    pub subject: String,
    /// Subject type.
    #[serde(default)]
    pub subject_type: Option<String>,
    /// Relation.
    #[serde(default)]
    pub relation: String,
    /// Object name.
    #[serde(default)]
    pub object: String,
    /// Object type.
    #[serde(default)]
    pub object_type: Option<String>,
    /// Modality.
    #[serde(default)]
    pub modality: Option<String>,
    /// positive / negative.
    #[serde(default)]
    pub polarity: Option<String>,
    /// Asserter name or `document`.
    #[serde(default)]
    pub asserter: Option<String>,
    /// The verbatim quote.
    #[serde(default)]
    pub quote: Option<String>,
    /// Attributes: strings, numbers or booleans.
    #[serde(default)]
    pub attributes: BTreeMap<String, Value>,
}

impl ModelClaim {
    /// The attributes as text (numbers and booleans as written); `Err` names one that is
    /// neither.
    pub fn attribute_texts(&self) -> Result<BTreeMap<String, String>, String> {
        self.attributes.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| tg_rules::claims::attribute_text(k, v).map(|t| (k.clone(), t))).collect()
    }
}

/// Why an answer as a whole could not be read (it is not cached: the chunk is asked again
/// on the next build).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed answer: {0}")]
pub struct Malformed(pub String);

/// The claims of an answer, each parsed or refused with a reason.
pub fn claims(content: &str) -> Result<Vec<Result<ModelClaim, String>>, Malformed> {
    let text = unfence(content.trim());
    let items: Vec<Value> = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(mut m)) => match m.remove("claims") {
            Some(Value::Array(a)) => a,
            Some(other) => return Err(Malformed(format!("\"claims\" is not a list but {}", kind(&other)))),
            // A single claim object on its own.
            None if m.contains_key("relation") => vec![Value::Object(m)],
            None => return Err(Malformed("an object without \"claims\"".into())),
        },
        Ok(Value::Array(a)) => a,
        Ok(other) => return Err(Malformed(format!("{} instead of an object with \"claims\"", kind(&other)))),
        Err(whole) => {
            // JSON Lines, as `tg vocab prompt` asks for.
            let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            let parsed: Result<Vec<Value>, _> = lines.iter().map(|l| serde_json::from_str::<Value>(l)).collect();
            match parsed {
                Ok(v) if !v.is_empty() && v.iter().all(Value::is_object) => v,
                _ if text.is_empty() => return Err(Malformed("the answer is empty".into())),
                _ => return Err(Malformed(format!("not JSON ({whole})"))),
            }
        }
    };
    Ok(items
        .into_iter()
        .map(|v| match v {
            Value::Object(_) => serde_json::from_value::<ModelClaim>(v).map_err(|e| format!("not a claim object: {e}")),
            other => Err(format!("not a claim object: {}", kind(&other))),
        })
        .collect())
}

/// The text inside a Markdown code fence (```json … ```), or the text itself.
fn unfence(s: &str) -> &str {
    let Some(rest) = s.strip_prefix("```") else { return s };
    let body = rest.split_once('\n').map_or("", |(_, b)| b);
    body.trim_end().strip_suffix("```").unwrap_or(body).trim()
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_are_read_and_bad_items_refused_alone() {
        let one = r#"{"subject": "A", "relation": "PAID", "object": "B", "quote": "A paid B"}"#;
        for content in [format!("{{\"claims\": [{one}]}}"), format!("[{one}]"), format!("{one}\n{one}"), format!("```json\n{{\"claims\": [{one}]}}\n```"), one.to_string()] {
            let c = claims(&content).unwrap_or_default();
            assert!(!c.is_empty() && c.iter().all(|x| x.as_ref().is_ok_and(|m| m.relation == "PAID")), "{content}");
        }
        let mixed = claims(&format!("{{\"claims\": [{one}, 7, {{\"subject\": 3}}]}}")).unwrap_or_default();
        assert_eq!(mixed.iter().filter(|x| x.is_ok()).count(), 1);
        assert_eq!(mixed.len(), 3);
        assert_eq!(claims("{\"claims\": []}"), Ok(vec![]));
    }

    #[test]
    fn malformed_answers_say_why() {
        assert_eq!(claims("").err().map(|e| e.0), Some("the answer is empty".into()));
        assert!(claims("{\"claims\": [ {\"subject\": ").err().is_some_and(|e| e.0.starts_with("not JSON")));
        assert_eq!(claims("{\"claims\": 3}").err().map(|e| e.0), Some("\"claims\" is not a list but a number".into()));
        assert_eq!(claims("\"no\"").err().map(|e| e.0), Some("a string instead of an object with \"claims\"".into()));
    }
}
