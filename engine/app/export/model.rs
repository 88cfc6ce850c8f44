//! The graph every export format writes: documents, entities (with their `same_as`
//! class), reified claims, derived facts with their rule, and the edges between them.
//!
//! Read once from the store, everything sorted by id, so each writer only formats.

use std::collections::{BTreeMap, BTreeSet};

use tg_analytics::graph::classes;
use tg_store::{Store, StoreError, Value, fact_id, render_fact};

/// A document of the case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// Document id (path relative to the corpus root).
    pub id: String,
    /// Detected format.
    pub format: String,
    /// blake3 of the canonical text (what citations index into).
    pub text_blake3: String,
}

/// An entity: its key, type, name and `same_as` class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entity {
    /// Entity key (`Type:normalised name`).
    pub id: String,
    /// Vocabulary type.
    pub entity_type: String,
    /// The normalised name (the key without its type).
    pub name: String,
    /// The key of its class representative (itself when unmerged).
    pub class: String,
}

/// A claim, reified: who said what about whom, with modality and the verbatim quote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Claim id.
    pub id: String,
    /// Document the claim is read from.
    pub doc: String,
    /// Subject entity key.
    pub subject: String,
    /// Relation (closed vocabulary).
    pub relation: String,
    /// Object entity key.
    pub object: String,
    /// Modality (assertion, reported, hedged, denied, undecided, question).
    pub modality: String,
    /// Polarity (positive, negative).
    pub polarity: String,
    /// Asserter: an entity key, or `document`.
    pub asserter: String,
    /// The verbatim quote (the first citation's bytes).
    pub quote: String,
    /// First citation's start byte in the canonical text.
    pub start: u64,
    /// First citation's end byte (exclusive).
    pub end: u64,
    /// Every citation, `[doc:start-end]`, space-separated.
    pub citation: String,
    /// Trust tag (EXTRACTED, INFERRED or GENERATED).
    pub tag: String,
    /// Valid-from date (ISO 8601) when the text states one, else empty.
    pub valid_from: String,
    /// Extra values (`claim_attr`), by key; several values of one key joined by `; `.
    pub attrs: BTreeMap<String, String>,
}

/// A fact derived by a rule of the library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derived {
    /// Fact id (content hash of its canonical text).
    pub id: String,
    /// Relation.
    pub relation: String,
    /// The fact as text, e.g. `same_as("A", "B")`.
    pub fact: String,
    /// Hash of the rule that derived it.
    pub rule: String,
    /// Round of its stratum.
    pub round: u32,
    /// Entity arguments: (position, entity key).
    pub entities: Vec<(usize, String)>,
}

/// A rule that derived at least one exported fact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Content hash (hex).
    pub hash: String,
    /// Rule text.
    pub text: String,
}

/// Everything an export writes.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// Documents, by id.
    pub documents: Vec<Document>,
    /// Entities, by key.
    pub entities: Vec<Entity>,
    /// Claims, by id.
    pub claims: Vec<Claim>,
    /// Stored and derived `same_as` pairs (a < b), sorted.
    pub same_as: Vec<(String, String)>,
    /// Derived facts, by id.
    pub derived: Vec<Derived>,
    /// Rules of the derived facts, by hash.
    pub rules: Vec<Rule>,
}

fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::Sym(s)) => s.clone(),
        Some(Value::Num(n)) => n.to_string(),
        None => String::new(),
    }
}

/// The name part of an entity key (`Organization:acme ltd` → `acme ltd`).
pub fn name_of(key: &str) -> &str {
    key.split_once(':').map_or(key, |(_, n)| n)
}

fn type_of(key: &str) -> &str {
    key.split_once(':').map_or("?", |(t, _)| t)
}

impl Graph {
    /// Reads the graph from a store (stored and derived layers).
    pub fn from_store(store: &Store) -> Result<Graph, StoreError> {
        let mut g = Graph::default();
        for id in store.document_ids()? {
            if let Some(r) = store.document(&id)? {
                g.documents.push(Document { id, format: r.format, text_blake3: r.text_blake3 });
            }
        }
        let mut types: BTreeMap<String, String> = BTreeMap::new();
        for f in store.lookup("entity", &[])? {
            types.insert(text(f.first()), text(f.get(1)));
        }
        let mut attrs: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
        for f in store.lookup("claim_attr", &[])? {
            attrs.entry(text(f.first())).or_default().entry(text(f.get(1))).or_default().insert(text(f.get(2)));
        }
        let mut valid: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for f in store.lookup("claim_valid", &[])? {
            valid.entry(text(f.first())).or_default().insert(text(f.get(1)));
        }
        for f in store.lookup("claim", &[])? {
            let supports = store.supports("claim", &f)?;
            let tag = supports.iter().map(|c| c.tag).min().map_or("EXTRACTED", |t| t.name()).to_string();
            let first = supports.first();
            let citation = supports.iter().map(|c| format!("[{}:{}-{}]", c.doc, c.start, c.end)).collect::<Vec<_>>().join(" ");
            let id = text(f.first());
            let claim = Claim {
                doc: text(f.get(1)),
                subject: text(f.get(2)),
                relation: text(f.get(3)),
                object: text(f.get(4)),
                modality: text(f.get(5)),
                polarity: text(f.get(6)),
                asserter: text(f.get(7)),
                quote: first.map(|c| c.quote.clone()).unwrap_or_default(),
                start: first.map_or(0, |c| c.start),
                end: first.map_or(0, |c| c.end),
                citation,
                tag,
                valid_from: valid.get(&id).and_then(|s| s.iter().next().cloned()).unwrap_or_default(),
                attrs: attrs.get(&id).map(|m| m.iter().map(|(k, v)| (k.clone(), v.iter().cloned().collect::<Vec<_>>().join("; "))).collect()).unwrap_or_default(),
                id,
            };
            for k in [&claim.subject, &claim.object] {
                types.entry(k.clone()).or_insert_with(|| type_of(k).to_string());
            }
            if claim.asserter != "document" {
                types.entry(claim.asserter.clone()).or_insert_with(|| type_of(&claim.asserter).to_string());
            }
            g.claims.push(claim);
        }
        // One claim id can in principle appear in two documents' facts: keep the first.
        g.claims.sort_by(|a, b| (&a.id, &a.doc, a.start).cmp(&(&b.id, &b.doc, b.start)));
        g.claims.dedup_by(|a, b| a.id == b.id);
        let mut same: BTreeSet<(String, String)> = BTreeSet::new();
        for f in store.lookup("same_as", &[])?.into_iter().chain(store.derived_facts("same_as")?.into_iter().map(|(f, _)| f)) {
            let (a, b) = (text(f.first()), text(f.get(1)));
            if a != b {
                same.insert(if a < b { (a, b) } else { (b, a) });
            }
        }
        for (a, b) in &same {
            for k in [a, b] {
                types.entry(k.clone()).or_insert_with(|| type_of(k).to_string());
            }
        }
        g.same_as = same.into_iter().collect();
        let class = classes(store)?;
        g.entities = types
            .into_iter()
            .map(|(id, entity_type)| Entity { name: name_of(&id).to_string(), class: class.get(&id).cloned().unwrap_or_else(|| id.clone()), entity_type, id })
            .collect();
        let known: BTreeSet<&str> = g.entities.iter().map(|e| e.id.as_str()).collect();
        let mut rule_hashes: BTreeSet<String> = BTreeSet::new();
        for rel in store.relation_names()? {
            for (args, why) in store.derived_facts(&rel)? {
                let entities = args
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| match v {
                        Value::Sym(s) if known.contains(s.as_str()) => Some((i, s.clone())),
                        _ => None,
                    })
                    .collect();
                rule_hashes.insert(why.rule.clone());
                g.derived.push(Derived { id: fact_id(&rel, &args), fact: render_fact(&rel, &args), relation: rel.clone(), rule: why.rule, round: why.round, entities });
            }
        }
        g.derived.sort_by(|a, b| (&a.id, &a.fact).cmp(&(&b.id, &b.fact)));
        g.derived.dedup_by(|a, b| a.id == b.id);
        for hash in rule_hashes {
            let text = store.rule_text(&hash)?.unwrap_or_default();
            g.rules.push(Rule { hash, text });
        }
        Ok(g)
    }

    /// The claim edges between entities: every claim as (subject, object, claim).
    pub fn claim_edges(&self) -> impl Iterator<Item = &Claim> {
        self.claims.iter()
    }

    /// Claims whose asserter is an entity (not the document itself).
    pub fn asserted(&self) -> impl Iterator<Item = &Claim> {
        self.claims.iter().filter(|c| c.asserter != "document")
    }

    /// Derived-fact → entity argument edges: (derived id, position, entity key).
    pub fn arguments(&self) -> impl Iterator<Item = (&str, usize, &str)> {
        self.derived.iter().flat_map(|d| d.entities.iter().map(move |(i, e)| (d.id.as_str(), *i, e.as_str())))
    }

    /// Counts printed after a file export: `N documents, N entities, …`.
    pub fn summary(&self) -> String {
        format!(
            "{} documents, {} entities, {} claims, {} same_as pairs, {} derived facts, {} rules",
            self.documents.len(),
            self.entities.len(),
            self.claims.len(),
            self.same_as.len(),
            self.derived.len(),
            self.rules.len()
        )
    }
}
