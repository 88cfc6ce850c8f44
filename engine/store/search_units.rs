//! What the search index holds for one document: its *units* — every chunk span and every
//! claim span — each with its stemmed terms, its length in terms and the entities it
//! names. A pure function of the document's text and cited facts, so the store can keep
//! the index in the same atomic batch as the facts (`Store::put_document`), and an
//! incremental build gives the index a full rebuild gives.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Value, render_fact};
use tg_text::terms::Analyzer;

/// A chunk unit (`chunk(doc, index, block)` span).
pub const CHUNK: u8 = 0;
/// A claim unit (`claim(id, doc, subject, relation, object, modality, polarity, asserter)` span).
pub const CLAIM: u8 = 1;

/// Bytes of a unit key: start u64 ‖ end u64 ‖ kind u8 ‖ 8 bytes of the fact's blake3.
pub const UNIT_KEY: usize = 25;

/// One indexed unit as the store keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// [`CHUNK`] or [`CLAIM`].
    pub kind: u8,
    /// Cited span.
    pub start: u64,
    /// Cited span end (exclusive).
    pub end: u64,
    /// The fact's arguments (for a claim: id, doc, subject, relation, object, modality, polarity, asserter).
    pub fact: Vec<Value>,
    /// Each distinct term with its count, by term.
    pub terms: Vec<(String, u32)>,
    /// Number of terms (with repeats): the unit's length for BM25.
    pub len: u32,
    /// Entity keys the unit names, sorted: a chunk's mentions inside its span, a claim's subject and object.
    pub entities: Vec<String>,
}

impl Unit {
    /// The unit's key within its document: position first, so a document's units scan in text order.
    pub fn key(&self) -> [u8; UNIT_KEY] {
        let rel = if self.kind == CHUNK { "chunk" } else { "claim" };
        let h = blake3::hash(render_fact(rel, &self.fact).as_bytes());
        let mut k = [0u8; UNIT_KEY];
        k[..8].copy_from_slice(&self.start.to_be_bytes());
        k[8..16].copy_from_slice(&self.end.to_be_bytes());
        k[16] = self.kind;
        k[17..].copy_from_slice(&h.as_bytes()[..8]);
        k
    }
}

/// One cited fact of a document, as the index reads it.
pub struct FactSpan<'a> {
    /// Relation name.
    pub rel: &'a str,
    /// Arguments.
    pub args: &'a [Value],
    /// Span start.
    pub start: u64,
    /// Span end.
    pub end: u64,
}

fn sym(v: Option<&Value>) -> String {
    match v {
        Some(Value::Sym(s)) => s.clone(),
        Some(Value::Num(n)) => n.to_string(),
        None => String::new(),
    }
}

/// Whether a fact of `rel` becomes a unit.
pub fn is_unit(rel: &str) -> bool {
    rel == "chunk" || rel == "claim"
}

/// One unit of a chunk or claim fact (other relations: `None`).
pub fn unit(an: &Analyzer, text: &str, f: &FactSpan, mentions: &[(u64, u64, String)]) -> Option<Unit> {
    let kind = match f.rel {
        "chunk" => CHUNK,
        "claim" => CLAIM,
        _ => return None,
    };
    let slice = text.get(f.start as usize..f.end as usize)?;
    let all = an.terms(slice);
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    for t in &all {
        *counts.entry(t.clone()).or_default() += 1;
    }
    let mut entities: Vec<String> = if kind == CLAIM {
        vec![sym(f.args.get(2)), sym(f.args.get(4))]
    } else {
        mentions.iter().filter(|(a, b, _)| *a >= f.start && *b <= f.end).map(|(_, _, e)| e.clone()).collect()
    };
    entities.retain(|e| !e.is_empty());
    entities.sort();
    entities.dedup();
    Some(Unit { kind, start: f.start, end: f.end, fact: f.args.to_vec(), terms: counts.into_iter().collect(), len: all.len() as u32, entities })
}

/// Every unit of a document: its chunk and claim facts, one per cited span, in key order.
pub fn units(text: &str, facts: &[FactSpan]) -> BTreeMap<[u8; UNIT_KEY], Unit> {
    let an = Analyzer::default();
    let mut mentions: Vec<(u64, u64, String)> = facts.iter().filter(|f| f.rel == "mention").map(|f| (f.start, f.end, sym(f.args.get(1)))).collect();
    mentions.sort();
    let mut out = BTreeMap::new();
    for f in facts {
        if let Some(u) = unit(&an, text, f, &mentions) {
            out.insert(u.key(), u);
        }
    }
    out
}
