//! Claims from outside extractors (issue 9): the gate through which investigators and
//! their agents (language models included) add claims our extractor missed, tagged
//! GENERATED so they can never pass for ground truth. docs/CLAIMS.md is the user's guide.
//!
//! A proposal ([`Proposal`]) is recorded only if its quote occurs verbatim in the
//! document's canonical text (one occurrence, or the one the caller names), its relation
//! and argument types are in the closed vocabulary, and its modality is one of the six.
//! Subject, object and asserter resolve to stored entities by name ([`resolve`]) or
//! become new ones. Anything else is a [`Refusal`]: a stable code and a message, never a
//! panic. A recorded claim lives in the store's *ledger* ([`ledger`]) and as GENERATED
//! facts of its document; ingest re-derives those facts from the ledger whenever it
//! rewrites the document, so `tg build` never loses one (a vanished quote makes the
//! claim stale, with a warning and a `claim_stale` fact).
//!
//! [`audit`] samples claims for a second reader and stores the verdicts as facts.

pub mod audit;
pub mod ledger;
pub mod quote;
pub mod render;
pub mod resolve;

use std::collections::BTreeMap;

use serde::Deserialize;

use ledger::{ClaimRecord, claim_key};
use quote::Choice;
use tg_extract::modality::Modality;
use tg_extract::vocab::{VocabError, Vocabulary};
use tg_store::{LedgerWrite, Store, StoreError, Value};

/// Why the gate refused something: a stable code (see docs/CLAIMS.md) and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Stable, snake_case: `quote_not_found`, `unknown_relation`, …
    pub code: &'static str,
    /// What is wrong and what would be accepted.
    pub message: String,
}

impl Refusal {
    /// A refusal.
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }
}

impl From<VocabError> for Refusal {
    fn from(e: VocabError) -> Refusal {
        let code = match &e {
            VocabError::UnknownRelation { .. } => "unknown_relation",
            VocabError::WrongType { .. } => "wrong_type",
            VocabError::UnknownAttribute { .. } => "unknown_attribute",
            _ => "vocabulary",
        };
        Refusal::new(code, e.to_string())
    }
}

/// A refusal, or a failure of the store underneath.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The gate refused the input.
    #[error("{}: {}", .0.code, .0.message)]
    Refused(Refusal),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Error {
        Error::Refused(r)
    }
}

/// A claim proposed by an outside extractor: the fields of `tg claim record` and of one
/// line of `tg claim import` (JSON; unknown fields are refused).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proposal {
    /// Document id.
    #[serde(default)]
    pub doc: String,
    /// Subject: a name or an entity key.
    #[serde(default)]
    pub subject: String,
    /// The subject's type, when the name alone does not tell.
    #[serde(default)]
    pub subject_type: Option<String>,
    /// Relation of the vocabulary.
    #[serde(default)]
    pub relation: String,
    /// Object: a name or an entity key.
    #[serde(default)]
    pub object: String,
    /// The object's type, when the name alone does not tell.
    #[serde(default)]
    pub object_type: Option<String>,
    /// The verbatim quote (`None`: the field is missing; blank: refused as empty).
    #[serde(default)]
    pub quote: Option<String>,
    /// One of the six modalities (required).
    #[serde(default)]
    pub modality: Option<String>,
    /// positive or negative (default: negative for denied, else positive).
    #[serde(default)]
    pub polarity: Option<String>,
    /// Who the quote attributes the claim to (default `document`).
    #[serde(default)]
    pub asserter: Option<String>,
    /// The asserter's type, when the name alone does not tell.
    #[serde(default)]
    pub asserter_type: Option<String>,
    /// Which occurrence of the quote, from 1.
    #[serde(default)]
    pub occurrence: Option<usize>,
    /// The occurrence nearest this byte offset.
    #[serde(default)]
    pub near: Option<u64>,
    /// Extra values the relation allows (amount, currency, date, …); in JSON, numbers and
    /// booleans are taken as their text (`480000` as `"480000"`).
    #[serde(default, deserialize_with = "scalar_map")]
    pub attributes: BTreeMap<String, String>,
    /// Who proposes it (a model's name, a person); default set by the caller.
    #[serde(default)]
    pub source: Option<String>,
}

/// An object of scalars as text: strings as they are, numbers and booleans as written.
fn scalar_map<'de, D: serde::Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    let raw: BTreeMap<String, serde_json::Value> = BTreeMap::deserialize(d)?;
    raw.into_iter().map(|(k, v)| attribute_text(&k, &v).map(|t| (k, t)).map_err(serde::de::Error::custom)).collect()
}

/// An attribute value as text (a string as it is, a number or boolean as written); `Err`
/// says why another value is none. Shared by claim proposals and model answers.
pub fn attribute_text(key: &str, v: &serde_json::Value) -> Result<String, String> {
    match v {
        serde_json::Value::String(s) => Ok(s.clone()),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        serde_json::Value::Bool(b) => Ok(b.to_string()),
        other => Err(format!("attribute {key} is not a string or number: {other}")),
    }
}

/// What recording a claim did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// The record (also when it was already in the ledger).
    pub record: ClaimRecord,
    /// Where its quote is cited now (the record keeps the span it was first recorded at).
    pub at: (u64, u64),
    /// Subject, object or asserter keys the claim created as new entities.
    pub new_entities: Vec<String>,
    /// The same claim was already recorded: nothing was written.
    pub already: bool,
}

/// The text cut to at most `n` chars, with `…` when cut (for messages).
pub fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n { s.to_string() } else { s.chars().take(n).collect::<String>() + "…" }
}

const MODALITIES: &str = "assertion, reported, hedged, denied, undecided, question";

/// Checks a proposal against the store and the vocabulary and, if it passes, records it:
/// a ledger record and its GENERATED facts in one batch. `default_source` names the
/// proposer when the proposal does not.
pub fn record(store: &Store, vocab: &Vocabulary, p: &Proposal, default_source: &str) -> Result<Recorded, Error> {
    crate::schema::declare_schema(store)?;
    record_declared(store, vocab, p, default_source)
}

/// A proposal that passed the gate: the record it would be, where its quote is, and the
/// entities it would create. Nothing is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gated {
    /// The ledger record (its facts: [`ledger::claim_facts`]).
    pub record: ClaimRecord,
    /// Subject, object or asserter keys the claim would create as new entities.
    pub new_entities: Vec<String>,
}

/// [`record`] in a store whose schema is already declared.
fn record_declared(store: &Store, vocab: &Vocabulary, p: &Proposal, default_source: &str) -> Result<Recorded, Error> {
    let Gated { record, new_entities } = gate(store, vocab, p, default_source)?;
    let (qs, qe) = (record.start, record.end);
    let key = claim_key(&p.doc, &record.id);
    // The same claim, recorded before (perhaps at another span of an earlier version of
    // the text) and cited at this span now: nothing to write.
    let text = store.text(&p.doc)?.unwrap_or_default();
    for r in ledger::records(store, Some(&p.doc))? {
        if let ledger::Record::Claim(c) = r
            && (c.id == record.id
                || (c.subject.0 == record.subject.0
                    && c.relation == record.relation
                    && c.object.0 == record.object.0
                    && c.modality == record.modality
                    && c.polarity == record.polarity
                    && c.asserter.0 == record.asserter.0
                    && c.quote == record.quote
                    && ledger::cite(&text, &c.quote, c.start, c.end) == Some((qs, qe))))
        {
            return Ok(Recorded { record: *c, at: (qs, qe), new_entities: vec![], already: true });
        }
    }
    let (facts, _) = ledger::claim_facts(&record, &text);
    let json = serde_json::to_string(&record).map_err(|e| StoreError::Corruption { path: store.path().to_path_buf(), detail: e.to_string() })?;
    store.amend_document(&p.doc, &facts, &[], &[LedgerWrite::Put(&key, &json)])?;
    Ok(Recorded { record, at: (qs, qe), new_entities, already: false })
}

/// The gate every outside claim passes (`tg claim record|import` and `tg build
/// --llm-extract` alike): the checks in the order of docs/CLAIMS.md, names resolved to
/// entities, the `gen-` id. The schema must be declared. Writes nothing.
pub fn gate(store: &Store, vocab: &Vocabulary, p: &Proposal, default_source: &str) -> Result<Gated, Error> {
    let missing = |name: &str| Refusal::new("missing_field", format!("field \"{name}\" is required"));
    for (name, v) in [("doc", &p.doc), ("subject", &p.subject), ("relation", &p.relation), ("object", &p.object)] {
        if v.trim().is_empty() {
            return Err(missing(name).into());
        }
    }
    let quote_text = p.quote.as_deref().ok_or_else(|| missing("quote"))?;
    if quote_text.trim().is_empty() {
        return Err(Refusal::new("empty_quote", "the quote is empty").into());
    }
    let modality = match p.modality.as_deref() {
        None | Some("") => return Err(Refusal::new("missing_modality", format!("modality is required: one of {MODALITIES}")).into()),
        Some(m) => Modality::parse(m).ok_or_else(|| Refusal::new("unknown_modality", format!("modality {m:?} is not one of {MODALITIES}")))?,
    };
    let polarity = match p.polarity.as_deref() {
        None => {
            if modality == Modality::Denied {
                "negative"
            } else {
                "positive"
            }
        }
        Some(x @ ("positive" | "negative")) => x,
        Some(x) => return Err(Refusal::new("bad_polarity", format!("polarity {x:?} is not positive or negative")).into()),
    };
    let Some(rel) = vocab.relations.get(&p.relation) else {
        return Err(Refusal::from(VocabError::UnknownRelation { rel: p.relation.clone(), allowed: vocab.relations.keys().cloned().collect::<Vec<_>>().join(", ") }).into());
    };
    for k in p.attributes.keys() {
        vocab.check_attribute(&p.relation, k).map_err(Refusal::from)?;
    }
    let text = store.text(&p.doc)?.ok_or_else(|| Refusal::new("document_not_found", format!("document {:?} is not in the store", p.doc)))?;
    let (qs, qe) = quote::locate(&p.doc, &text, quote_text, Choice { occurrence: p.occurrence, near: p.near })?;
    let subject = resolve::entity(store, vocab, &p.doc, &p.subject, p.subject_type.as_deref(), "subject", &rel.subject)?;
    let object = resolve::entity(store, vocab, &p.doc, &p.object, p.object_type.as_deref(), "object", &rel.object)?;
    vocab.check(&p.relation, &subject.kind, &object.kind).map_err(Refusal::from)?;
    let parties = ["Person".to_string(), "Organization".to_string()];
    let asserter_name = p.asserter.as_deref().map(str::trim).filter(|a| !a.is_empty() && *a != "document");
    let asserter = match asserter_name {
        None => None,
        Some(a) => {
            let r = match resolve::entity(store, vocab, &p.doc, a, p.asserter_type.as_deref(), "asserter", &parties) {
                // A party the name does not type: a person, unless the finders say otherwise.
                Err(Error::Refused(Refusal { code: "untyped_entity", .. })) => resolve::entity(store, vocab, &p.doc, a, Some("Person"), "asserter", &parties)?,
                r => r?,
            };
            if !parties.contains(&r.kind) {
                return Err(Refusal::new("wrong_type", format!("an asserter must be a Person or an Organization, not a {}", r.kind)).into());
            }
            Some(r)
        }
    };
    let warnings = if modality == Modality::Reported { attribution_warnings(store, &p.doc, quote_text, asserter.as_ref().zip(asserter_name))? } else { vec![] };
    let id = {
        let mut h = blake3::Hasher::new();
        for part in [
            p.doc.as_str(),
            &qs.to_string(),
            &qe.to_string(),
            &subject.key,
            &p.relation,
            &object.key,
            modality.name(),
            polarity,
            asserter.as_ref().map_or("document", |a| a.key.as_str()),
        ] {
            h.update(part.as_bytes());
            h.update(&[0]);
        }
        format!("gen-{}", &h.finalize().to_hex()[..16])
    };
    let new_entities: Vec<String> = [Some(&subject), Some(&object), asserter.as_ref()].into_iter().flatten().filter(|r| !r.existing).map(|r| r.key.clone()).collect();
    let record = ClaimRecord {
        id,
        doc: p.doc.clone(),
        subject: (subject.key.clone(), subject.kind.clone()),
        relation: p.relation.clone(),
        object: (object.key.clone(), object.kind.clone()),
        modality: modality.name().to_string(),
        polarity: polarity.to_string(),
        asserter: asserter.as_ref().map_or(("document".to_string(), String::new()), |a| (a.key.clone(), a.kind.clone())),
        names: [collapse_name(&p.subject), collapse_name(&p.object), asserter_name.map(collapse_name).unwrap_or_default()],
        quote: quote_text.to_string(),
        start: qs as u64,
        end: qe as u64,
        attributes: p.attributes.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        source: p.source.clone().filter(|s| !s.trim().is_empty()).unwrap_or_else(|| default_source.to_string()),
        warnings,
    };
    Ok(Gated { record, new_entities })
}

/// The warnings of a reported claim, (code, message): attribution outside the quote is
/// the commonest extraction error, so the asserter (by the name given or any surface the
/// document's mentions of that entity have) must be named inside the quote.
fn attribution_warnings(store: &Store, doc: &str, quote: &str, asserter: Option<(&resolve::Resolved, &str)>) -> Result<Vec<(String, String)>, StoreError> {
    let Some((r, name)) = asserter else {
        return Ok(vec![("reported_without_asserter".into(), "a reported claim names no asserter; say who the quote attributes it to".into())]);
    };
    let surfaces: Vec<String> = store
        .lookup("mention", &[Value::Sym(doc.to_string()), Value::Sym(r.key.clone())])?
        .into_iter()
        .filter_map(|row| match row.get(2) {
            Some(Value::Sym(s)) => Some(s.clone()),
            _ => None,
        })
        .collect();
    if std::iter::once(name.to_string()).chain(surfaces).any(|s| !s.is_empty() && quote.contains(&s)) {
        return Ok(vec![]);
    }
    Ok(vec![(
        "asserter_outside_quote".into(),
        format!("the asserter {name:?} is not named inside the quote; attribution outside the quoted span is the commonest extraction error"),
    )])
}

/// A name as written, whitespace collapsed (what the record cites inside the quote).
fn collapse_name(s: &str) -> String {
    tg_extract::entities::collapse(s)
}

/// One line of an import: its number (from 1) and what became of it.
#[derive(Debug)]
pub struct ImportLine {
    /// Line number in the file, from 1.
    pub line: usize,
    /// The claim recorded, or why not.
    pub result: Result<Recorded, Refusal>,
}

/// Records every non-blank line of a JSON Lines text as a [`Proposal`]; a line that is
/// not a JSON object of the known fields is refused with `bad_json`. Lines without a
/// `doc` take `default_doc` (the output of `tg vocab prompt` names no document). Lines
/// are recorded one batch each: good lines are kept whatever the bad ones do. Store
/// failures stop it.
pub fn import(store: &Store, vocab: &Vocabulary, jsonl: &str, default_doc: Option<&str>, default_source: &str) -> Result<Vec<ImportLine>, StoreError> {
    crate::schema::declare_schema(store)?;
    let mut out = vec![];
    for (i, line) in jsonl.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let result = match serde_json::from_str::<Proposal>(line) {
            Err(e) => Err(Refusal::new("bad_json", format!("not a claim object: {e}"))),
            Ok(mut p) => {
                if p.doc.is_empty() {
                    p.doc = default_doc.unwrap_or_default().to_string();
                }
                match record_declared(store, vocab, &p, default_source) {
                    Ok(r) => Ok(r),
                    Err(Error::Refused(r)) => Err(r),
                    Err(Error::Store(e)) => return Err(e),
                }
            }
        };
        out.push(ImportLine { line: i + 1, result });
    }
    Ok(out)
}

/// Where an outside claim stands now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Its quote is cited at this span of the current text.
    Cited(u64, u64),
    /// Its quote no longer occurs in the document.
    Stale,
    /// Its document is no longer in the store.
    Orphaned,
}

/// Every outside claim of the ledger with its status and latest verdict, in key order.
pub fn list(store: &Store) -> Result<Vec<(ClaimRecord, Status, Option<String>)>, StoreError> {
    let records = ledger::records(store, None)?;
    let mut verdicts: BTreeMap<String, String> = BTreeMap::new();
    for r in &records {
        if let ledger::Record::Audit(a) = r {
            verdicts.insert(a.claim.clone(), a.verdict.clone());
        }
    }
    let mut out = vec![];
    let mut texts: BTreeMap<String, Option<String>> = BTreeMap::new();
    for r in records {
        let ledger::Record::Claim(c) = r else { continue };
        if !texts.contains_key(&c.doc) {
            texts.insert(c.doc.clone(), store.text(&c.doc)?);
        }
        let status = match texts.get(&c.doc).and_then(|t| t.as_ref()) {
            None => Status::Orphaned,
            Some(t) => match ledger::cite(t, &c.quote, c.start, c.end) {
                Some((a, b)) => Status::Cited(a, b),
                None => Status::Stale,
            },
        };
        let v = verdicts.get(&c.id).cloned();
        out.push((*c, status, v));
    }
    Ok(out)
}

/// `tg claim widen`: the smallest span of `doc` containing the quote (the occurrence
/// `choice` names) and each string of `must`, within `budget` bytes; with its text.
pub fn widen(store: &Store, doc: &str, quote_text: &str, choice: Choice, must: &[String], budget: usize) -> Result<(usize, usize, String), Error> {
    let text = store.text(doc)?.ok_or_else(|| Refusal::new("document_not_found", format!("document {doc:?} is not in the store")))?;
    let q = quote::locate(doc, &text, quote_text, choice)?;
    let (a, b) = quote::widen(doc, &text, q, must, budget)?;
    Ok((a, b, text[a..b].to_string()))
}
