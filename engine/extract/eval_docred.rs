//! `tg eval docred`: the extractor against Re-DocRED's gold — entity mentions per type
//! (PER → Person, ORG → Organization, LOC → Location; exact byte spans) and the relations
//! that map onto the vocabulary, scored between coreference clusters as DocRED scores
//! them (a predicted argument stands for the gold cluster one of whose mentions it overlaps).
//!
//! Each document is rebuilt as natural text ([`super::ner_train::detokenize`] per sentence,
//! sentences joined by one space) and extracted whole, with its gold sentence spans, so
//! names found once are found again and coreference works as in a real document.
//!
//! With `TG_NER_ONLY` set in the environment (a diagnostic of `tg-train-ner`), the entity
//! predictions are the name recogniser's alone, without the rule finders.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use super::eval::{Counts, EvalError, Lenient, Report, Scores};
use super::modality::Modality;
use super::ner::Model;
use super::ner_train::detokenize;
use super::vocab::Vocabulary;
use super::{Input, extract_with};
use tg_text::document::Span;

/// Re-DocRED entity type → ours (TIME, NUM and MISC are not scored).
pub const DOCRED_ENTITY_MAP: &[(&str, &str)] = &[("PER", "Person"), ("ORG", "Organization"), ("LOC", "Location")];

/// Re-DocRED relation → (scored class, whether our subject is DocRED's tail). Our claims
/// map onto the class by [`CLAIM_CLASS`].
pub const DOCRED_RELATION_MAP: &[(&str, &str, bool)] = &[
    ("P108", "EMPLOYED_BY", false),   // employer: person → organisation
    ("P488", "EMPLOYED_BY", true),    // chairperson: organisation → person (an officer)
    ("P749", "SUBSIDIARY_OF", false), // parent organization: subsidiary → parent
    ("P355", "SUBSIDIARY_OF", true),  // subsidiary: parent → subsidiary
    ("P127", "OWNS", true),           // owned by: owned → owner
];

/// Our relation → the scored class.
pub const CLAIM_CLASS: &[(&str, &str)] =
    &[("EMPLOYED_BY", "EMPLOYED_BY"), ("OFFICER_OF", "EMPLOYED_BY"), ("DIRECTOR_OF", "EMPLOYED_BY"), ("SUBSIDIARY_OF", "SUBSIDIARY_OF"), ("OWNS", "OWNS")];

/// A Re-DocRED document as its JSON has it (also read by `ner_train`).
#[derive(Deserialize)]
pub(crate) struct DocredDoc {
    #[serde(default)]
    pub(crate) title: String,
    pub(crate) sents: Vec<Vec<String>>,
    #[serde(rename = "vertexSet")]
    pub(crate) vertex_set: Vec<Vec<DocredMention>>,
    #[serde(default)]
    labels: Vec<DocredLabel>,
}

/// One mention of a Re-DocRED entity cluster.
#[derive(Deserialize)]
pub(crate) struct DocredMention {
    pub(crate) pos: [usize; 2],
    pub(crate) sent_id: usize,
    #[serde(rename = "type")]
    pub(crate) kind: String,
}

#[derive(Deserialize)]
struct DocredLabel {
    h: usize,
    t: usize,
    r: String,
}

/// One document rebuilt: its text, sentence spans and each cluster's mention spans and type.
struct Rebuilt {
    text: String,
    sentences: Vec<Span>,
    clusters: Vec<Vec<(Span, String)>>,
}

fn rebuild(d: &DocredDoc) -> Rebuilt {
    let mut text = String::new();
    let mut sentences = vec![];
    let mut token_spans: Vec<Vec<Span>> = vec![];
    for s in &d.sents {
        if !text.is_empty() {
            text.push(' ');
        }
        let base = text.len();
        let (t, spans) = detokenize(s);
        text.push_str(&t);
        sentences.push((base, text.len()));
        token_spans.push(spans.into_iter().map(|(a, b)| (a + base, b + base)).collect());
    }
    let clusters = d
        .vertex_set
        .iter()
        .map(|v| {
            v.iter()
                .filter_map(|m| {
                    let toks = token_spans.get(m.sent_id)?;
                    (m.pos[0] < m.pos[1] && m.pos[1] <= toks.len()).then(|| ((toks[m.pos[0]].0, toks[m.pos[1] - 1].1), m.kind.clone()))
                })
                .collect()
        })
        .collect();
    Rebuilt { text, sentences, clusters }
}

fn bump(s: &mut Scores, class: &str, f: impl FnOnce(&mut Counts)) {
    f(s.per_type.entry(class.to_string()).or_default());
}

fn total(s: &mut Scores) {
    let mut all = Counts::default();
    for c in s.per_type.values() {
        all.tp += c.tp;
        all.fp += c.fp;
        all.fn_ += c.fn_;
    }
    s.overall = all;
}

/// Evaluates the extractor (rules and the given name recogniser) on the Re-DocRED
/// documents for which `keep(index)` holds.
pub fn docred(json: &str, vocab: &Vocabulary, names: &Model, keep: &dyn Fn(usize) -> bool) -> Result<Report, EvalError> {
    let docs: Vec<DocredDoc> = serde_json::from_str(json).map_err(|e| EvalError::Docred(e.to_string()))?;
    let mut rep = Report { dataset: "docred".into(), ..Default::default() };
    let mut rels = Scores::default();
    for (n, d) in docs.iter().enumerate() {
        if !keep(n) {
            continue;
        }
        let r = rebuild(d);
        rep.sentences += r.sentences.len();
        rep.bytes += r.text.len();
        let id = format!("docred-{n}");
        let x = extract_with(&Input { id: &id, text: &r.text, sentences: &r.sentences, fields: &[], people: &[], date: None }, vocab, names);
        // Entities: every gold mention of a mapped type against every mention we found.
        let mut gold: BTreeSet<(String, Span)> = BTreeSet::new();
        for c in &r.clusters {
            for (sp, t) in c {
                if let Some((_, ours)) = DOCRED_ENTITY_MAP.iter().find(|(k, _)| k == t) {
                    gold.insert((ours.to_string(), *sp));
                }
            }
        }
        let pred: BTreeSet<(String, Span)> = if std::env::var_os("TG_NER_ONLY").is_some() {
            names.document(&r.text, &r.sentences).into_iter().flatten().map(|(sp, k)| (k.to_string(), sp)).collect()
        } else {
            // A name that refers to another mention (a surname after the full name) is a
            // mention of its own for NER; pronouns and "the company" are not.
            let named = |m: &super::entities::Mention, ante: &Option<Span>| ante.is_none() || super::eval::is_name(&m.surface);
            x.mentions.iter().filter(|(m, ante)| named(m, ante) && DOCRED_ENTITY_MAP.iter().any(|(_, o)| *o == m.kind)).map(|(m, _)| (m.kind.to_string(), m.span)).collect()
        };
        let overlap = |a: Span, b: Span| a.0 < b.1 && b.0 < a.1;
        // What the other side has at an error's span: the gold type of any kind (MISC,
        // TIME… too), or the predicted type, exactly there or overlapping it.
        let gold_any: Vec<(Span, &str)> = r.clusters.iter().flatten().map(|(sp, t)| (*sp, t.as_str())).collect();
        let there = |sp: Span, others: &mut dyn Iterator<Item = (Span, &str)>| {
            let others: Vec<(Span, &str)> = others.collect();
            others
                .iter()
                .find(|o| o.0 == sp)
                .map(|o| format!("; there: {}", o.1))
                .or_else(|| others.iter().find(|o| overlap(o.0, sp)).map(|o| format!("; overlaps: {} {:?}", o.1, &r.text[o.0.0..o.0.1])))
                .unwrap_or_default()
        };
        for p in &pred {
            if gold.contains(p) {
                bump(&mut rep.entities, &p.0, |c| c.tp += 1);
            } else {
                bump(&mut rep.entities, &p.0, |c| c.fp += 1);
                let t = there(p.1, &mut gold_any.iter().copied());
                rep.errors.push(format!("fp entity {} {:?} (document {n}{t})", p.0, &r.text[p.1.0..p.1.1]));
            }
            rep.entities.lenient.pred += 1;
            if gold.iter().any(|g| g.0 == p.0 && overlap(g.1, p.1)) {
                rep.entities.lenient.pred_hit += 1;
            }
        }
        for g in &gold {
            if !pred.contains(g) {
                bump(&mut rep.entities, &g.0, |c| c.fn_ += 1);
                let t = there(g.1, &mut pred.iter().map(|(k, sp)| (*sp, k.as_str())));
                rep.errors.push(format!("fn entity {} {:?} (document {n}{t})", g.0, &r.text[g.1.0..g.1.1]));
            }
            rep.entities.lenient.gold += 1;
            if pred.iter().any(|p| p.0 == g.0 && overlap(g.1, p.1)) {
                rep.entities.lenient.gold_hit += 1;
            }
        }
        // Relations between clusters.
        let cluster_of = |sp: Span| r.clusters.iter().position(|c| c.iter().any(|(g, _)| overlap(*g, sp)));
        let mut gold_rels: BTreeSet<(String, usize, usize)> = BTreeSet::new();
        for l in &d.labels {
            if let Some((_, class, swap)) = DOCRED_RELATION_MAP.iter().find(|(k, _, _)| *k == l.r) {
                gold_rels.insert((class.to_string(), if *swap { l.t } else { l.h }, if *swap { l.h } else { l.t }));
            }
        }
        let mut pred_rels: BTreeSet<(String, usize, usize)> = BTreeSet::new();
        for c in &x.claims {
            if c.modality == Modality::Denied {
                continue;
            }
            let Some((_, class)) = CLAIM_CLASS.iter().find(|(k, _)| *k == c.rel) else {
                *rep.unscored_claims.entry(c.rel.to_string()).or_default() += 1;
                continue;
            };
            let Some((s, o)) = c.args else { continue };
            let resolve = |sp: Span| c.antecedents.iter().find(|a| a.2 == sp).map_or(sp, |a| a.1);
            match (cluster_of(resolve(s)), cluster_of(resolve(o))) {
                (Some(h), Some(t)) if h != t => {
                    pred_rels.insert((class.to_string(), h, t));
                }
                _ => {
                    bump(&mut rels, class, |k| k.fp += 1);
                    rels.lenient.pred += 1;
                    rep.errors.push(format!("fp relation {class} {:?} (document {n}, argument not a gold entity)", &r.text[c.quote.0..c.quote.1]));
                }
            }
        }
        for p in &pred_rels {
            rels.lenient.pred += 1;
            if gold_rels.contains(p) {
                bump(&mut rels, &p.0, |c| c.tp += 1);
                rels.lenient.pred_hit += 1;
            } else {
                bump(&mut rels, &p.0, |c| c.fp += 1);
                rep.errors.push(format!("fp relation {} cluster {} → {} (document {n})", p.0, p.1, p.2));
            }
        }
        for g in &gold_rels {
            rels.lenient.gold += 1;
            if pred_rels.contains(g) {
                rels.lenient.gold_hit += 1;
            } else {
                bump(&mut rels, &g.0, |c| c.fn_ += 1);
            }
        }
    }
    for (_, ours) in DOCRED_ENTITY_MAP {
        rep.entities.per_type.entry(ours.to_string()).or_default();
    }
    let classes: BTreeMap<&str, ()> = DOCRED_RELATION_MAP.iter().map(|(_, c, _)| (*c, ())).collect();
    for c in classes.keys() {
        rels.per_type.entry(c.to_string()).or_default();
    }
    total(&mut rep.entities);
    rep.entities.alias = rep.entities.overall;
    total(&mut rels);
    rels.alias = rels.overall;
    rep.relations = Some(rels);
    let _ = Lenient::default();
    Ok(rep)
}

/// The per-type entity counts of several reports added up (cross-validation folds).
pub fn add_reports(into: &mut Report, other: &Report) {
    into.sentences += other.sentences;
    into.bytes += other.bytes;
    let add = |a: &mut Scores, b: &Scores| {
        for (k, c) in &b.per_type {
            let e = a.per_type.entry(k.clone()).or_default();
            e.tp += c.tp;
            e.fp += c.fp;
            e.fn_ += c.fn_;
        }
        a.lenient.pred += b.lenient.pred;
        a.lenient.pred_hit += b.lenient.pred_hit;
        a.lenient.gold += b.lenient.gold;
        a.lenient.gold_hit += b.lenient.gold_hit;
        a.alias.tp += b.alias.tp;
        a.alias.fp += b.alias.fp;
        a.alias.fn_ += b.alias.fn_;
        total(a);
    };
    add(&mut into.entities, &other.entities);
    match (&mut into.relations, &other.relations) {
        (Some(a), Some(b)) => add(a, b),
        (None, Some(b)) => into.relations = Some(b.clone()),
        _ => {}
    }
    for (k, n) in &other.unscored_claims {
        *into.unscored_claims.entry(k.clone()).or_default() += n;
    }
    into.errors.extend(other.errors.iter().cloned());
}
