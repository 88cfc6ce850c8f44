//! `tg export --format json`: the graph as canonical JSON.
//!
//! Keys are sorted (serde_json's map is ordered), arrays are sorted by content,
//! ids are content hashes and nothing depends on time or intern order, so equal
//! stores export byte-identical files on any machine.

use serde_json::{Map, Value as Json, json};

use super::{Store, StoreError, Value, hex, render_fact};

fn arg(v: &Value) -> Json {
    match v {
        Value::Num(n) => json!(n),
        Value::Sym(s) => json!(s),
    }
}

/// A fact's stable id: the first 16 bytes of blake3 over its canonical text, in hex.
pub fn fact_id(rel: &str, args: &[Value]) -> String {
    hex(&blake3::hash(render_fact(rel, args).as_bytes()).as_bytes()[..16])
}

impl Store {
    /// The whole graph as canonical JSON text (ends with a newline).
    pub fn export_json(&self) -> Result<String, StoreError> {
        let mut documents = vec![];
        for id in self.document_ids()? {
            if let Some(r) = self.document(&id)? {
                documents.push(json!({
                    "id": id, "format": r.format, "size": r.size,
                    "source_blake3": r.source_blake3, "text_blake3": r.text_blake3,
                }));
            }
        }
        let mut facts = vec![];
        let mut derived = vec![];
        for rel in self.relation_names()? {
            for args in self.lookup(&rel, &[])? {
                let supports = self.supports(&rel, &args)?;
                let tag = supports.iter().map(|c| c.tag).min().map(|t| t.name()).unwrap_or("EXTRACTED");
                let cites: Vec<Json> = supports.into_iter().map(|c| json!({"doc": c.doc, "start": c.start, "end": c.end, "tag": c.tag.name(), "quote": c.quote})).collect();
                facts.push(json!({
                    "id": fact_id(&rel, &args), "relation": rel,
                    "args": args.iter().map(arg).collect::<Vec<_>>(), "tag": tag, "citations": cites,
                }));
            }
            for (args, why) in self.derived_facts(&rel)? {
                let from: Vec<Json> = why.body.iter().map(|(r, a)| json!(fact_id(r, a))).collect();
                derived.push(json!({
                    "id": fact_id(&rel, &args), "relation": rel,
                    "args": args.iter().map(arg).collect::<Vec<_>>(), "tag": "INFERRED",
                    "rule": why.rule, "round": why.round, "from": from,
                }));
            }
        }
        let by_id = |a: &Json, b: &Json| a["id"].as_str().cmp(&b["id"].as_str());
        facts.sort_by(by_id);
        derived.sort_by(by_id);
        let mut rules = vec![];
        for kv in self.rules.iter() {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            rules.push(json!({"hash": String::from_utf8_lossy(&k), "text": String::from_utf8_lossy(&v)}));
        }
        let mut root = Map::new();
        root.insert("format".into(), json!("textgraph-graph/1"));
        root.insert("documents".into(), Json::Array(documents));
        root.insert("facts".into(), Json::Array(facts));
        root.insert("derived".into(), Json::Array(derived));
        root.insert("rules".into(), Json::Array(rules));
        let mut text = serde_json::to_string_pretty(&Json::Object(root)).map_err(|e| self.corrupt(e.to_string()))?;
        text.push('\n');
        Ok(text)
    }
}
