//! Ledger records of outside claims and audit verdicts, and the facts they give
//! against a document's current text.
//!
//! A record keeps the quote's *text* and the span it was recorded at. Its facts are a
//! pure function of the record and the text ([`cite`]): the quote at its recorded span
//! if the bytes are still there, else the occurrence nearest that span, else none — the
//! record is then *stale* and gives one `claim_stale` fact citing the empty span at the
//! start of the text. Nothing about the record changes when its document does, so a
//! stale claim comes back as soon as its quote does.

use serde::{Deserialize, Serialize};

use super::quote::occurrences;
use tg_store::{CitedFact, Store, StoreError, Tag, Value};

/// An outside claim as the ledger keeps it (JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimRecord {
    /// Claim id (`gen-` + 16 hex digits).
    pub id: String,
    /// Document id.
    pub doc: String,
    /// Subject entity key and type.
    pub subject: (String, String),
    /// Relation.
    pub relation: String,
    /// Object entity key and type.
    pub object: (String, String),
    /// Modality name.
    pub modality: String,
    /// positive or negative.
    pub polarity: String,
    /// Asserter entity key and type, or (`document`, ``).
    pub asserter: (String, String),
    /// The names as given, for citing the entities inside the quote: subject, object, asserter.
    pub names: [String; 3],
    /// The quote, verbatim.
    pub quote: String,
    /// Where it was recorded.
    pub start: u64,
    /// End of the recorded span (exclusive).
    pub end: u64,
    /// Attributes (key, value), sorted.
    pub attributes: Vec<(String, String)>,
    /// Who proposed it (`--source`).
    pub source: String,
    /// Warnings kept with it: (code, message).
    pub warnings: Vec<(String, String)>,
}

/// A verdict of `tg audit ingest` on one claim's citation (JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRecord {
    /// The claim judged.
    pub claim: String,
    /// Its document.
    pub doc: String,
    /// The quote the reader saw.
    pub quote: String,
    /// Where the quote was when judged.
    pub start: u64,
    /// End of that span.
    pub end: u64,
    /// supported, refuted or unsupported.
    pub verdict: String,
    /// The reader's reason.
    pub reason: String,
}

/// The ledger key of a claim record.
pub fn claim_key(doc: &str, id: &str) -> String {
    format!("{doc}\0claim\0{id}")
}

/// The ledger key of an audit record.
pub fn audit_key(doc: &str, claim: &str) -> String {
    format!("{doc}\0audit\0{claim}")
}

/// Where a record's quote is in `text`: its recorded span if the bytes are still there,
/// else the occurrence nearest it (ties: the earlier), else `None` (stale).
pub fn cite(text: &str, quote: &str, start: u64, end: u64) -> Option<(u64, u64)> {
    if text.as_bytes().get(start as usize..end as usize) == Some(quote.as_bytes()) {
        return Some((start, end));
    }
    occurrences(text, quote).into_iter().min_by_key(|&s| ((s as u64).abs_diff(start), s)).map(|s| (s as u64, (s + quote.len()) as u64))
}

fn sym(s: &str) -> Value {
    Value::Sym(s.to_string())
}

fn fact(rel: &str, args: Vec<Value>, span: (u64, u64)) -> CitedFact {
    CitedFact { rel: rel.into(), args, tag: Tag::Generated, spans: vec![span] }
}

/// The span citing an entity named `name` in the quote at `q`: its first verbatim
/// occurrence inside the quote, else the quote.
fn name_span(text: &str, q: (u64, u64), name: &str) -> (u64, u64) {
    let quote = &text[q.0 as usize..q.1 as usize];
    match (name.is_empty(), quote.find(name)) {
        (false, Some(i)) => (q.0 + i as u64, q.0 + (i + name.len()) as u64),
        _ => q,
    }
}

/// The facts of a claim record against `text`; `None` for the span when it is stale.
pub fn claim_facts(r: &ClaimRecord, text: &str) -> (Vec<CitedFact>, Option<(u64, u64)>) {
    let Some(q) = cite(text, &r.quote, r.start, r.end) else {
        return (vec![fact("claim_stale", vec![sym(&r.id), sym(&r.doc), sym(&r.quote)], (0, 0))], None);
    };
    let mut out = vec![
        fact("claim", vec![sym(&r.id), sym(&r.doc), sym(&r.subject.0), sym(&r.relation), sym(&r.object.0), sym(&r.modality), sym(&r.polarity), sym(&r.asserter.0)], q),
        fact("claim_generated", vec![sym(&r.id), sym(&r.source)], q),
    ];
    for (k, v) in &r.attributes {
        out.push(fact("claim_attr", vec![sym(&r.id), sym(k), sym(v)], q));
    }
    for (code, msg) in &r.warnings {
        out.push(fact("claim_warning", vec![sym(&r.id), sym(code), sym(msg)], q));
    }
    let parties = [(&r.subject, &r.names[0]), (&r.object, &r.names[1]), (&r.asserter, &r.names[2])];
    for ((key, kind), name) in parties {
        if key != "document" && !kind.is_empty() {
            out.push(fact("entity", vec![sym(key), sym(kind)], name_span(text, q, name)));
        }
    }
    (out, Some(q))
}

/// The fact of an audit record against `text` (none when its quote is gone: the verdict
/// stays in the ledger).
pub fn audit_facts(a: &AuditRecord, text: &str) -> Vec<CitedFact> {
    match cite(text, &a.quote, a.start, a.end) {
        Some(q) => vec![fact("claim_audit", vec![sym(&a.claim), sym(&a.verdict), sym(&a.reason)], q)],
        None => vec![],
    }
}

/// A ledger record, parsed.
#[derive(Clone, Debug)]
pub enum Record {
    /// An outside claim.
    Claim(Box<ClaimRecord>),
    /// A verdict.
    Audit(AuditRecord),
}

/// Every ledger record of a document (all documents for `None`), in key order.
pub fn records(store: &Store, doc: Option<&str>) -> Result<Vec<Record>, StoreError> {
    let prefix = doc.map(|d| format!("{d}\0")).unwrap_or_default();
    let mut out = vec![];
    for (k, v) in store.ledger_records(&prefix)? {
        let bad = |e: serde_json::Error| StoreError::Corruption { path: store.path().to_path_buf(), detail: format!("ledger record {k:?}: {e}") };
        if k.contains("\0claim\0") {
            out.push(Record::Claim(Box::new(serde_json::from_str(&v).map_err(bad)?)));
        } else if k.contains("\0audit\0") {
            out.push(Record::Audit(serde_json::from_str(&v).map_err(bad)?));
        }
    }
    Ok(out)
}

/// What a document's ledger records give when the document is (re-)written with `text`:
/// their facts, for the same batch, and a warning for each claim that is now stale.
/// Ingest calls this for every document it writes.
pub fn document_facts(store: &Store, doc: &str, text: &str) -> Result<(Vec<CitedFact>, Vec<String>), StoreError> {
    let mut facts = vec![];
    let mut warnings = vec![];
    for r in records(store, Some(doc))? {
        match r {
            Record::Claim(c) => {
                let (fs, at) = claim_facts(&c, text);
                if at.is_none() {
                    warnings.push(format!(
                        "outside claim {} is stale: its quote no longer occurs in the text; kept in the ledger as claim_stale (quote {:?})",
                        c.id,
                        super::clip(&c.quote, 60)
                    ));
                }
                facts.extend(fs);
            }
            Record::Audit(a) => facts.extend(audit_facts(&a, text)),
        }
    }
    Ok((facts, warnings))
}

/// The number of outside claims the ledger keeps for `doc` (warned about when the
/// document is retracted: they stay in the ledger, without facts).
pub fn claims_of(store: &Store, doc: &str) -> Result<usize, StoreError> {
    Ok(records(store, Some(doc))?.iter().filter(|r| matches!(r, Record::Claim(_))).count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_is_cited_where_it_was_else_nearest_else_stale() {
        assert_eq!(cite("xx abc yy abc", "abc", 10, 13), Some((10, 13)));
        // The text moved: the occurrence nearest the recorded span.
        assert_eq!(cite("abc xx abc yyyy abc", "abc", 10, 13), Some((7, 10)));
        assert_eq!(cite("no such words", "abc", 0, 3), None);
        // A recorded span past the end of a shorter text is no panic.
        assert_eq!(cite("ab", "abc", 100, 103), None);
    }
}
