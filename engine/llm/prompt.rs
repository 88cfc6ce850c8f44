//! What tg asks the model: the system prompt (the text of `tg vocab prompt`, plus one line
//! on the answer's shape), a JSON schema of the answer generated from the same vocabulary,
//! and the request body. The prompt's hash is part of every cache key, so a change of
//! vocabulary, prompt or request parameters never replays an answer given to another.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use tg_extract::vocab::Vocabulary;

/// The six modalities, in the order the prompt lists them.
pub const MODALITIES: [&str; 6] = ["assertion", "reported", "hedged", "denied", "undecided", "question"];

/// The line appended to the vocabulary's prompt: the answer is one JSON object.
const ANSWER_SHAPE: &str = "\nAnswer with one JSON object {\"claims\": [...]} holding the claim objects described above \
(an empty list when the text states none). The document is the user's message; quote it exactly, \
character for character, including its spacing and punctuation.\n";

/// The prompt of one vocabulary: system text, answer schema and their hash.
#[derive(Clone, Debug)]
pub struct Prompt {
    /// The system message: `Vocabulary::prompt` and [`ANSWER_SHAPE`].
    pub system: String,
    /// The JSON schema of an answer (`response_format`).
    pub schema: Value,
    /// blake3 (hex) of the system text, the schema and the fixed request parameters.
    pub hash: String,
}

impl Prompt {
    /// The prompt generated from `vocab`.
    pub fn new(vocab: &Vocabulary) -> Prompt {
        let system = vocab.prompt() + ANSWER_SHAPE;
        let schema = schema(vocab);
        // The body without model and document: everything else a request depends on.
        let template = body("", &system, &schema, "");
        let hash = blake3::hash(template.to_string().as_bytes()).to_hex().to_string();
        Prompt { system, schema, hash }
    }

    /// The chat-completions request body for one chunk of text.
    pub fn request(&self, model: &str, chunk: &str) -> String {
        body(model, &self.system, &self.schema, chunk).to_string()
    }
}

/// The request body: deterministic sampling (temperature 0, seed 0) and the schema as
/// `response_format`, which llama.cpp's server, Ollama and vLLM all accept.
fn body(model: &str, system: &str, schema: &Value, chunk: &str) -> Value {
    json!({
        "model": model,
        "temperature": 0,
        "seed": 0,
        "stream": false,
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": chunk},
        ],
        "response_format": {"type": "json_schema", "json_schema": {"name": "claims", "schema": schema}},
    })
}

/// The JSON schema of an answer: `{"claims": [claim…]}`, each claim's relation, types and
/// modality restricted to the vocabulary's, attributes to those some relation carries.
pub fn schema(vocab: &Vocabulary) -> Value {
    let types: Vec<&String> = vocab.types.keys().collect();
    let relations: Vec<&String> = vocab.relations.keys().collect();
    let attributes: BTreeSet<&String> = vocab.relations.values().flat_map(|r| r.attributes.iter()).collect();
    let attr_props: serde_json::Map<String, Value> = attributes.into_iter().map(|a| (a.clone(), json!({"type": "string"}))).collect();
    let string = json!({"type": "string"});
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["claims"],
        "properties": {
            "claims": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["subject", "subject_type", "relation", "object", "object_type", "modality", "polarity", "asserter", "quote"],
                    "properties": {
                        "subject": string,
                        "subject_type": {"type": "string", "enum": types},
                        "relation": {"type": "string", "enum": relations},
                        "object": string,
                        "object_type": {"type": "string", "enum": types},
                        "modality": {"type": "string", "enum": MODALITIES},
                        "polarity": {"type": "string", "enum": ["positive", "negative"]},
                        "asserter": string,
                        "quote": string,
                        "attributes": {"type": "object", "additionalProperties": false, "properties": attr_props},
                    },
                },
            },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_is_the_vocabulary_prompt_and_the_schema_lists_the_vocabulary() {
        let v = Vocabulary::builtin();
        let p = Prompt::new(v);
        assert!(p.system.starts_with(&v.prompt()));
        let rels = &p.schema["properties"]["claims"]["items"]["properties"]["relation"]["enum"];
        assert_eq!(rels.as_array().map(Vec::len), Some(v.relations.len()));
        assert!(rels.as_array().is_some_and(|a| a.iter().any(|r| r == "TRANSFERRED")));
        // The hash depends on the vocabulary, not on the chunk or model.
        assert_eq!(p.hash, Prompt::new(v).hash);
        let body: Value = serde_json::from_str(&p.request("m", "Acme paid Beta.")).unwrap_or_default();
        assert_eq!(body["messages"][1]["content"], "Acme paid Beta.");
        assert_eq!(body["model"], "m");
    }
}
