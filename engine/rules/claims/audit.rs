//! Audit by a second reader: `tg audit emit` samples claims and shows each as its quote
//! alone (no surrounding text, no other claims, no extraction method) with the claim to
//! judge; `tg audit ingest` turns the reader's verdicts into `claim_audit` facts, kept
//! in the ledger like outside claims so rebuilds keep them.
//!
//! Items are named by an opaque id (a hash of the claim id), so the reader cannot tell
//! an outside claim (`gen-…`) from an extracted one. The sample for a seed is the claims
//! in order of blake3(seed ‖ claim id): deterministic, and a larger sample of the same
//! seed extends a smaller one.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Value as Json, json};

use super::Refusal;
use super::ledger::{AuditRecord, audit_facts, audit_key, records};
use tg_store::{LedgerWrite, Store, StoreError, Value};

/// The instruction every item carries.
pub const INSTRUCTION: &str = "You are a second reader checking one claim against one quote. Judge only from the quote: \
you see no other text. Try to refute the claim. Answer supported only if the quote itself clearly states the claim, with its \
subject, relation, object and modality; refuted if the quote contradicts it; otherwise unsupported (the default when in doubt). \
Give a one-sentence reason.";

/// The verdicts a reader may give.
pub const VERDICTS: [&str; 3] = ["supported", "refuted", "unsupported"];

/// The opaque item id of a claim.
pub fn item_id(claim: &str) -> String {
    let mut h = blake3::Hasher::new();
    h.update(b"textgraph-audit-item\0");
    h.update(claim.as_bytes());
    h.finalize().to_hex()[..16].to_string()
}

fn text(v: &Value) -> &str {
    match v {
        Value::Sym(s) => s,
        Value::Num(_) => "",
    }
}

/// A stored claim with where its quote is.
struct Cited {
    id: String,
    args: Vec<Value>,
    doc: String,
    start: u64,
    end: u64,
    quote: String,
}

/// Every `claim` fact with its first citation, by claim id.
fn cited_claims(store: &Store) -> Result<BTreeMap<String, Cited>, StoreError> {
    let mut out = BTreeMap::new();
    for args in store.lookup("claim", &[])? {
        let Some(c) = store.supports("claim", &args)?.into_iter().next() else { continue };
        let id = text(&args[0]).to_string();
        out.insert(id.clone(), Cited { id, doc: c.doc, start: c.start, end: c.end, quote: c.quote, args });
    }
    Ok(out)
}

/// An entity key shown to the reader: its name and type.
fn party(key: &str) -> (String, String) {
    match key.split_once(':') {
        Some((t, n)) => (n.to_string(), t.to_string()),
        None => (key.to_string(), String::new()),
    }
}

/// Which claims an audit batch draws from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    /// How many (all when `None`).
    pub size: Option<usize>,
    /// The seed of the order.
    pub seed: u64,
    /// Only outside claims (those with a `claim_generated` fact).
    pub generated_only: bool,
}

/// The audit batch file: `sample.size` claims in the seed's order.
pub fn emit(store: &Store, vocab: &tg_extract::vocab::Vocabulary, sample: &Sample) -> Result<Json, StoreError> {
    let mut claims = cited_claims(store)?;
    if sample.generated_only {
        let generated: std::collections::BTreeSet<String> = store.lookup("claim_generated", &[])?.iter().map(|r| text(&r[0]).to_string()).collect();
        claims.retain(|id, _| generated.contains(id));
    }
    let seed = sample.seed;
    let population = claims.len();
    let mut order: Vec<(String, &Cited)> = claims
        .values()
        .map(|c| {
            let mut h = blake3::Hasher::new();
            h.update(&seed.to_be_bytes());
            h.update(c.id.as_bytes());
            (h.finalize().to_hex().to_string(), c)
        })
        .collect();
    order.sort_by(|a, b| (&a.0, &a.1.id).cmp(&(&b.0, &b.1.id)));
    order.truncate(sample.size.unwrap_or(population));
    let mut items = vec![];
    for (_, c) in order {
        let a = &c.args;
        let (s, st) = party(text(&a[2]));
        let (o, ot) = party(text(&a[4]));
        let rel = text(&a[3]);
        let asserter = if text(&a[7]) == "document" { "the document itself".to_string() } else { party(text(&a[7])).0 };
        let mut claim = json!({
            "subject": s, "subject_type": st, "relation": rel, "object": o, "object_type": ot,
            "modality": text(&a[5]), "polarity": text(&a[6]), "asserter": asserter,
        });
        if let Some(r) = vocab.relations.get(rel) {
            claim["relation_means"] = json!(r.description);
        }
        let attrs: BTreeMap<String, String> = store.lookup("claim_attr", &[a[0].clone()])?.into_iter().map(|r| (text(&r[1]).to_string(), text(&r[2]).to_string())).collect();
        if !attrs.is_empty() {
            claim["attributes"] = json!(attrs);
        }
        let item = item_id(&c.id);
        let prompt = format!(
            "{INSTRUCTION}\n\nQuote:\n\"\"\"\n{}\n\"\"\"\n\nClaim: {}\n\nAnswer as JSON: {{\"item\": \"{item}\", \"verdict\": \"supported\" | \"refuted\" | \"unsupported\", \"reason\": \"…\"}}",
            c.quote, claim
        );
        items.push(json!({"item": item, "quote": c.quote, "claim": claim, "prompt": prompt}));
    }
    Ok(json!({
        "format": "textgraph-audit/1",
        "seed": seed,
        "population": population,
        "sample": items.len(),
        "instruction": INSTRUCTION,
        "answer_format": {"verdicts": [{"item": "ITEM", "verdict": "supported | refuted | unsupported", "reason": "TEXT"}]},
        "items": items,
    }))
}

/// One verdict of a verdicts file.
#[derive(Clone, Debug, Default, Deserialize)]
struct Verdict {
    #[serde(default)]
    item: String,
    #[serde(default)]
    verdict: String,
    #[serde(default)]
    reason: String,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum VerdictFile {
    Wrapped { verdicts: Vec<Verdict> },
    Bare(Vec<Verdict>),
}

/// What ingesting verdicts did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ingested {
    /// Verdicts stored, by verdict.
    pub counts: BTreeMap<String, usize>,
    /// Verdicts refused: (position in the file from 1, refusal).
    pub refused: Vec<(usize, Refusal)>,
}

impl Ingested {
    /// `14 supported · 4 refuted · 4/18 refuted = 22.2%` (unsupported shown when any).
    pub fn summary(&self) -> String {
        let n = |v: &str| self.counts.get(v).copied().unwrap_or(0);
        let total: usize = self.counts.values().sum();
        let mut parts = vec![format!("{} supported", n("supported")), format!("{} refuted", n("refuted"))];
        if n("unsupported") > 0 {
            parts.push(format!("{} unsupported", n("unsupported")));
        }
        let pct = if total == 0 { 0.0 } else { 100.0 * n("refuted") as f64 / total as f64 };
        parts.push(format!("{}/{total} refuted = {pct:.1}%", n("refuted")));
        parts.join(" · ")
    }
}

/// Stores a verdicts file (`{"verdicts": [{"item", "verdict", "reason"}]}` or the bare
/// array): each good verdict becomes a ledger record and a `claim_audit` fact citing the
/// claim's quote, replacing an earlier verdict on the same claim. Claims are never
/// deleted. A file that is not such JSON is one refusal (`bad_json`).
pub fn ingest(store: &Store, json: &str) -> Result<Result<Ingested, Refusal>, StoreError> {
    crate::schema::declare_schema(store)?;
    let verdicts = match serde_json::from_str::<VerdictFile>(json) {
        Ok(VerdictFile::Wrapped { verdicts }) | Ok(VerdictFile::Bare(verdicts)) => verdicts,
        Err(e) => return Ok(Err(Refusal::new("bad_json", format!("not a verdicts file ({{\"verdicts\": [{{\"item\", \"verdict\", \"reason\"}}, …]}}): {e}")))),
    };
    let claims = cited_claims(store)?;
    let by_item: BTreeMap<String, &Cited> = claims.values().map(|c| (item_id(&c.id), c)).collect();
    let mut out = Ingested::default();
    for (i, v) in verdicts.iter().enumerate() {
        let Some(c) = by_item.get(v.item.as_str()) else {
            out.refused.push((i + 1, Refusal::new("unknown_item", format!("item {:?} is not a claim of this store", v.item))));
            continue;
        };
        if !VERDICTS.contains(&v.verdict.as_str()) {
            out.refused.push((i + 1, Refusal::new("bad_verdict", format!("verdict {:?} is not one of supported, refuted, unsupported", v.verdict))));
            continue;
        }
        let text = store.text(&c.doc)?.unwrap_or_default();
        let record = AuditRecord {
            claim: c.id.clone(),
            doc: c.doc.clone(),
            quote: c.quote.clone(),
            start: c.start,
            end: c.end,
            verdict: v.verdict.clone(),
            reason: v.reason.trim().to_string(),
        };
        let key = audit_key(&c.doc, &c.id);
        let old: Vec<_> = records(store, Some(&c.doc))?
            .into_iter()
            .filter_map(|r| match r {
                super::ledger::Record::Audit(a) if a.claim == c.id => Some(audit_facts(&a, &text)),
                _ => None,
            })
            .flatten()
            .collect();
        let json = serde_json::to_string(&record).map_err(|e| StoreError::Corruption { path: store.path().to_path_buf(), detail: e.to_string() })?;
        store.amend_document(&c.doc, &audit_facts(&record, &text), &old, &[LedgerWrite::Put(&key, &json)])?;
        *out.counts.entry(v.verdict.clone()).or_default() += 1;
    }
    Ok(Ok(out))
}
