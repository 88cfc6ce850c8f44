//! Extraction quality against public gold data (`tg eval`): FIRE (financial relation
//! extraction, JSON) and CoNLL-format NER.
//!
//! Each gold sentence is rebuilt from its tokens joined by single spaces (every token's
//! byte span recorded), run through the extractor, and scored **only for the types that
//! map onto our vocabulary** (see [`FIRE_ENTITY_MAP`], [`FIRE_RELATION_MAP`],
//! [`CONLL_ENTITY_MAP`] and docs/BENCHMARKS.md, "Extraction quality"). Gold of other types
//! is not counted as missed, and our mentions and claims of types the gold does not
//! annotate are not counted as wrong (they are reported as *unscored*).
//!
//! - An entity matches when its byte span equals a gold span (the gold token span's first
//!   token start to last token end) and its type equals the gold's mapped type. The
//!   lenient score counts a prediction right when it overlaps a gold span of its type,
//!   and a gold mention found when a prediction of its type overlaps it.
//! - A relation matches when its mapped type is the gold's and both its subject and
//!   object spans equal the gold head and tail spans, direction included (lenient:
//!   overlap). Denied claims ("did not acquire") assert no edge and are not predictions;
//!   an argument found by coreference ("It also acquired …") is scored at its antecedent's
//!   span, the entity the claim is about.
//!
//! - *Alias-aware* scores (`entities-alias`, `relations-alias`) are exact scores that
//!   accept FIRE's annotation convention: its spans take in a defined alias in
//!   parentheses (`CME Group Inc. ( CME Group )`) and a leading title (`Mr. Barron`),
//!   where our mentions name one of the two names, without the title. A prediction
//!   matches such a gold span when it is the span, its name before the parenthesis, the
//!   alias inside it (quotes dropped), the span without its title, or a compound
//!   modifier's name before its hyphen (`US-based`: `US`); any other boundary
//!   difference still counts as wrong ([`gold_variants`]).
//!
//! Precision, recall and F1 are micro-averaged; a ratio with a zero denominator is 0.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::modality::Modality;
use super::ner::Model;
use super::vocab::Vocabulary;
use super::{Input, entities, extract_with};
use tg_text::chunk::sentences;
use tg_text::document::Span;

/// FIRE entity type → our entity type. Location and GeopoliticalEntity both become
/// Location (ours covers countries, cities and jurisdictions alike).
pub const FIRE_ENTITY_MAP: &[(&str, &str)] =
    &[("Company", "Organization"), ("Person", "Person"), ("Money", "Money"), ("Date", "Date"), ("Location", "Location"), ("GeopoliticalEntity", "Location")];

/// Our relation → the FIRE relation it is scored as, and the class name it is reported
/// under. FIRE's `Employeeof` covers employees, officers and board members alike, so
/// EMPLOYED_BY, OFFICER_OF and DIRECTOR_OF are all scored as it (class EMPLOYED_BY).
/// `ActionBuy` (head buys tail) is ACQUIRED in the same direction; `Subsidiaryof` (head is
/// the subsidiary of tail) is SUBSIDIARY_OF.
pub const FIRE_RELATION_MAP: &[(&str, &str, &str)] = &[
    ("SUBSIDIARY_OF", "Subsidiaryof", "SUBSIDIARY_OF"),
    ("ACQUIRED", "ActionBuy", "ACQUIRED"),
    ("EMPLOYED_BY", "Employeeof", "EMPLOYED_BY"),
    ("OFFICER_OF", "Employeeof", "EMPLOYED_BY"),
    ("DIRECTOR_OF", "Employeeof", "EMPLOYED_BY"),
];

/// CoNLL NER tag (without its `B-`/`I-` prefix) → our entity type; MISC is ignored.
pub const CONLL_ENTITY_MAP: &[(&str, &str)] = &[("PER", "Person"), ("ORG", "Organization"), ("LOC", "Location")];

/// Why an evaluation could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvalError {
    /// The FIRE file is not valid JSON of the expected shape.
    #[error("not a FIRE file: {0}")]
    Fire(String),
    /// The Re-DocRED file is not valid JSON of the expected shape.
    #[error("not a Re-DocRED file: {0}")]
    Docred(String),
    /// The KPI-EDGAR workbook could not be read or has an unexpected shape.
    #[error("not a KPI-EDGAR workbook: {0}")]
    Kpi(String),
    /// A CoNLL line has no tag column.
    #[error("line {line}: not a CoNLL line (want `TOKEN ... TAG`): {text:?}")]
    Conll {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
}

/// True positives, false positives and false negatives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Predictions that match a gold item.
    pub tp: usize,
    /// Predictions that match none.
    pub fp: usize,
    /// Gold items no prediction matches.
    #[serde(rename = "fn")]
    pub fn_: usize,
}

impl Counts {
    fn add(&mut self, o: Counts) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
    }
    /// tp / (tp + fp), 0 without predictions.
    pub fn precision(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }
    /// tp / (tp + fn), 0 without gold.
    pub fn recall(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }
    /// Harmonic mean of precision and recall, 0 when both are 0.
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) }
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Scores of one task: overall, per class, and lenient (overlap) overall.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Scores {
    /// Exact matches, all classes.
    pub overall: Counts,
    /// Exact matches per class.
    pub per_type: BTreeMap<String, Counts>,
    /// Overlap matches, all classes (tp of precision side; fn of recall side).
    pub lenient: Lenient,
    /// Exact matches up to FIRE's alias and title convention, all classes.
    pub alias: Counts,
}

/// Overlap-based precision and recall (a prediction may overlap several gold items and
/// the reverse, so the two sides are counted separately).
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Lenient {
    /// Predictions overlapping a gold item of their class.
    pub pred_hit: usize,
    /// Predictions.
    pub pred: usize,
    /// Gold items overlapped by a prediction of their class.
    pub gold_hit: usize,
    /// Gold items.
    pub gold: usize,
}

impl Lenient {
    /// Overlap precision.
    pub fn precision(&self) -> f64 {
        ratio(self.pred_hit, self.pred)
    }
    /// Overlap recall.
    pub fn recall(&self) -> f64 {
        ratio(self.gold_hit, self.gold)
    }
    /// Overlap F1.
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) }
    }
}

/// An evaluation's result.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// `fire` or `conll`.
    pub dataset: String,
    /// Sentences (gold items) read.
    pub sentences: usize,
    /// Bytes of rebuilt text extracted.
    pub bytes: usize,
    /// Entity scores.
    pub entities: Scores,
    /// Relation scores (`None` for NER-only data).
    pub relations: Option<Scores>,
    /// Our claims whose relation has no counterpart in the gold, by relation (not scored).
    pub unscored_claims: BTreeMap<String, usize>,
    /// Every exact-match error: `fp|fn entity|relation CLASS "surface" … (sentence N)`.
    #[serde(skip)]
    pub errors: Vec<String>,
}

impl Report {
    /// 1 − relation precision: the share of scored edges the gold does not support.
    pub fn hallucinated_edge_rate(&self) -> Option<f64> {
        self.relations.as_ref().map(|r| if r.overall.tp + r.overall.fp == 0 { 0.0 } else { 1.0 - r.overall.precision() })
    }

    /// The text report: `entities P R F1`, `relations P R F1` (when scored), per-class
    /// rows `entity|relation CLASS P R F1 (tp fp fn)`, the hallucinated-edge rate, the
    /// lenient scores and the counts.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let row = |c: &Counts| format!("{:.2} {:.2} {:.2}", c.precision(), c.recall(), c.f1());
        let _ = writeln!(s, "entities {}", row(&self.entities.overall));
        if let Some(r) = &self.relations {
            let _ = writeln!(s, "relations {}", row(&r.overall));
        }
        for (t, c) in &self.entities.per_type {
            let _ = writeln!(s, "entity {t} {} ({} {} {})", row(c), c.tp, c.fp, c.fn_);
        }
        if let Some(r) = &self.relations {
            for (t, c) in &r.per_type {
                let _ = writeln!(s, "relation {t} {} ({} {} {})", row(c), c.tp, c.fp, c.fn_);
            }
        }
        if let Some(h) = self.hallucinated_edge_rate() {
            let _ = writeln!(s, "hallucinated-edge-rate {h:.2}");
        }
        if let Some(r) = self.relations.as_ref().filter(|r| r.alias.tp + r.alias.fp > 0) {
            let _ = writeln!(s, "hallucinated-edge-rate-alias {:.2}", 1.0 - r.alias.precision());
        }
        let _ = writeln!(s, "entities-alias {}", row(&self.entities.alias));
        if let Some(r) = &self.relations {
            let _ = writeln!(s, "relations-alias {}", row(&r.alias));
        }
        let l = &self.entities.lenient;
        let _ = writeln!(s, "entities-lenient {:.2} {:.2} {:.2}", l.precision(), l.recall(), l.f1());
        if let Some(r) = &self.relations {
            let l = &r.lenient;
            let _ = writeln!(s, "relations-lenient {:.2} {:.2} {:.2}", l.precision(), l.recall(), l.f1());
        }
        for (rel, n) in &self.unscored_claims {
            let _ = writeln!(s, "unscored-claims {rel} {n}");
        }
        let _ = writeln!(s, "sentences {} bytes {}", self.sentences, self.bytes);
        s
    }
}

/// Tokens joined by single spaces, with each token's byte span.
pub fn join_tokens<S: AsRef<str>>(tokens: &[S]) -> (String, Vec<Span>) {
    let mut text = String::new();
    let mut spans = Vec::with_capacity(tokens.len());
    for t in tokens {
        if !text.is_empty() {
            text.push(' ');
        }
        let s = text.len();
        text.push_str(t.as_ref());
        spans.push((s, text.len()));
    }
    (text, spans)
}

/// The byte span of tokens `start..end` (exclusive), `None` when out of range or empty.
fn token_span(spans: &[Span], start: usize, end: usize) -> Option<Span> {
    if start >= end || end > spans.len() {
        return None;
    }
    Some((spans[start].0, spans[end - 1].1))
}

fn overlaps(a: Span, b: Span) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// Titles FIRE keeps in a person's span and our mentions leave out.
const TITLES: &[&str] = &["Mr. ", "Ms. ", "Mrs. ", "Dr. ", "Mr ", "Ms ", "Mrs ", "Dr ", "Mr.", "Ms.", "Mrs.", "Dr."];

/// The spans a prediction may have to match the gold `span` of `text` under FIRE's
/// convention: the span; its name before ` ( ` (a trailing ` 's` or ` ,` dropped) and the
/// alias inside the parentheses (quotes dropped); the name of a compound modifier ending
/// the span ("Hyderabad-based": "Hyderabad"); each without a leading title.
pub fn gold_variants(text: &str, span: Span) -> Vec<Span> {
    let mut out = vec![span];
    let Some(s) = text.get(span.0..span.1) else { return out };
    if let Some(open) = s.find(" ( ")
        && s.ends_with(" )")
    {
        let mut name = &s[..open];
        for tail in [" 's", " ,"] {
            name = name.strip_suffix(tail).unwrap_or(name);
        }
        out.push((span.0, span.0 + name.len()));
        let inner_start = open + 3;
        let inner = &s[inner_start..s.len() - 2];
        let lead = inner.len() - inner.trim_start_matches(['"', '“', ' ']).len();
        let trail = inner.len() - inner.trim_end_matches(['"', '”', ' ']).len();
        if lead + trail < inner.len() {
            out.push((span.0 + inner_start + lead, span.0 + inner_start + inner.len() - trail));
        }
    }
    // FIRE's spans are whole tokens, so a place written as a compound modifier is the
    // token "Hyderabad-based"; our mention names the place before the hyphen.
    let last = s.rfind(' ').map_or(0, |k| k + 1);
    if let Some(h) = super::ner::modifier_compound_head(&s[last..]) {
        out.push((span.0, span.0 + last + h));
    }
    for v in out.clone() {
        let t = &text[v.0..v.1];
        if let Some(title) = TITLES.iter().find(|p| t.starts_with(**p) && t.len() > p.len()) {
            let skip = title.len() + t[title.len()..].len() - t[title.len()..].trim_start().len();
            out.push((v.0 + skip, v.1));
        }
    }
    out
}

/// Scores one sentence's predictions against its gold, both as (class, key) items
/// where the key is a list of spans, exact and lenient.
fn score(gold: &[(String, Vec<Span>)], pred: &[(String, Vec<Span>)], into: &mut Scores, what: &str, text: &str, n: usize, errors: &mut Vec<String>) {
    let quote = |spans: &[Span]| spans.iter().map(|s| format!("{:?}", &text[s.0..s.1])).collect::<Vec<_>>().join(" → ");
    let mut used = vec![false; gold.len()];
    for (class, spans) in pred {
        let c = into.per_type.entry(class.clone()).or_default();
        match gold.iter().enumerate().position(|(i, g)| !used[i] && g.0 == *class && g.1 == *spans) {
            Some(i) => {
                used[i] = true;
                c.tp += 1;
            }
            None => {
                c.fp += 1;
                errors.push(format!("fp {what} {class} {} (sentence {n})", quote(spans)));
            }
        }
        into.lenient.pred += 1;
        if gold.iter().any(|g| g.0 == *class && g.1.len() == spans.len() && g.1.iter().zip(spans).all(|(a, b)| overlaps(*a, *b))) {
            into.lenient.pred_hit += 1;
        }
    }
    // Alias-aware: the same one-to-one matching, each gold span standing for its variants.
    let variants: Vec<Vec<Vec<Span>>> = gold.iter().map(|(_, spans)| spans.iter().map(|sp| gold_variants(text, *sp)).collect()).collect();
    let mut taken = vec![false; gold.len()];
    for (class, spans) in pred {
        let hit = gold.iter().enumerate().position(|(i, g)| !taken[i] && g.0 == *class && g.1.len() == spans.len() && spans.iter().zip(&variants[i]).all(|(p, vs)| vs.contains(p)));
        match hit {
            Some(i) => {
                taken[i] = true;
                into.alias.tp += 1;
            }
            None => {
                into.alias.fp += 1;
                errors.push(format!("fp-alias {what} {class} {} (sentence {n})", quote(spans)));
            }
        }
    }
    for (i, (class, spans)) in gold.iter().enumerate() {
        if !taken[i] {
            into.alias.fn_ += 1;
            errors.push(format!("fn-alias {what} {class} {} (sentence {n})", quote(spans)));
        }
    }
    for (i, (class, spans)) in gold.iter().enumerate() {
        if !used[i] {
            into.per_type.entry(class.clone()).or_default().fn_ += 1;
            errors.push(format!("fn {what} {class} {} (sentence {n})", quote(spans)));
        }
        into.lenient.gold += 1;
        if pred.iter().any(|p| p.0 == *class && p.1.len() == spans.len() && p.1.iter().zip(spans).all(|(a, b)| overlaps(*a, *b))) {
            into.lenient.gold_hit += 1;
        }
    }
}

fn finish(s: &mut Scores) {
    let mut all = Counts::default();
    for c in s.per_type.values() {
        all.add(*c);
    }
    s.overall = all;
}

/// Removes duplicate predictions (the same class and spans found twice).
fn dedup(v: &mut Vec<(String, Vec<Span>)>) {
    v.sort();
    v.dedup();
}

/// A FIRE sentence as its JSON has it (also read by `ner_train`).
#[derive(Deserialize)]
pub(crate) struct FireItem {
    pub(crate) tokens: Vec<String>,
    pub(crate) entities: Vec<FireEntity>,
    #[serde(default)]
    relations: Vec<FireRelation>,
    #[serde(default)]
    pub(crate) orig_id: Option<serde_json::Value>,
}

/// A FIRE entity: its type and token range.
#[derive(Deserialize)]
pub(crate) struct FireEntity {
    #[serde(rename = "type")]
    pub(crate) kind: String,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

#[derive(Deserialize)]
struct FireRelation {
    head: usize,
    tail: usize,
    #[serde(rename = "type")]
    kind: String,
}

fn lookup<'a>(map: &[(&str, &'a str)], k: &str) -> Option<&'a str> {
    map.iter().find(|(a, _)| *a == k).map(|(_, b)| *b)
}

/// The mapped entity types a relation class allows on each side (ours).
fn class_allows(class: &str, vocab: &Vocabulary, head: &str, tail: &str) -> bool {
    FIRE_RELATION_MAP.iter().filter(|(_, _, c)| *c == class).any(|(ours, _, _)| vocab.check(ours, head, tail).is_ok())
}

/// Evaluates the extractor on a FIRE JSON file's text (a list of items with `tokens`,
/// `entities` and `relations`).
pub fn fire(json: &str, vocab: &Vocabulary) -> Result<Report, EvalError> {
    fire_with(json, vocab, &super::ner::BUILTIN, &|_| true)
}

/// [`fire`] with a given name recogniser, on the items for which `keep(index)` holds
/// (cross-validation scores each fold with a model trained without it).
pub fn fire_with(json: &str, vocab: &Vocabulary, names: &Model, keep: &dyn Fn(usize) -> bool) -> Result<Report, EvalError> {
    let items: Vec<FireItem> = serde_json::from_str(json).map_err(|e| EvalError::Fire(e.to_string()))?;
    let mut rep = Report { dataset: "fire".into(), relations: Some(Scores::default()), ..Default::default() };
    let mut rel_scores = Scores::default();
    for (n, item) in items.iter().enumerate() {
        if !keep(n) {
            continue;
        }
        let (text, spans) = join_tokens(&item.tokens);
        rep.sentences += 1;
        rep.bytes += text.len();
        // Gold, mapped.
        let mut gold_ents = vec![];
        let mut ent_class: Vec<Option<(&str, Span)>> = vec![];
        for e in &item.entities {
            let m = lookup(FIRE_ENTITY_MAP, &e.kind).zip(token_span(&spans, e.start, e.end));
            if let Some((t, sp)) = m {
                gold_ents.push((t.to_string(), vec![sp]));
            }
            ent_class.push(m);
        }
        let mut gold_rels = vec![];
        for r in &item.relations {
            let Some(class) = FIRE_RELATION_MAP.iter().find(|(_, fire, _)| *fire == r.kind).map(|(_, _, c)| *c) else { continue };
            let (Some(Some((ht, hs))), Some(Some((tt, ts)))) = (ent_class.get(r.head), ent_class.get(r.tail)) else { continue };
            // Only gold edges our vocabulary could state (ActionBuy of a product is not ACQUIRED of an organisation).
            if class_allows(class, vocab, ht, tt) {
                gold_rels.push((class.to_string(), vec![*hs, *ts]));
            }
        }
        dedup(&mut gold_rels);
        // Predictions.
        let sents = sentences(&text, 0, text.len());
        let id = format!("fire-{n}");
        let x = extract_with(&Input { id: &id, text: &text, sentences: &sents, fields: &[], people: &[], date: None }, vocab, names);
        let mut pred_ents: Vec<(String, Vec<Span>)> = x
            .mentions
            .iter()
            .filter(|(m, ante)| ante.is_none() && FIRE_ENTITY_MAP.iter().any(|(_, ours)| *ours == m.kind))
            .map(|(m, _)| (m.kind.to_string(), vec![m.span]))
            .collect();
        dedup(&mut pred_ents);
        let mut pred_rels = vec![];
        for c in &x.claims {
            if c.modality == Modality::Denied {
                continue;
            }
            match (FIRE_RELATION_MAP.iter().find(|(ours, _, _)| *ours == c.rel), c.args) {
                (Some((_, _, class)), Some((s, o))) => {
                    // An argument found by coreference ("It also acquired …", "the company") stands
                    // for its antecedent; a name said again ("Mr. Griess" after "Bret C. Griess")
                    // is scored where it stands, as the gold marks it there.
                    let resolve = |sp: Span| match c.antecedents.iter().find(|a| a.2 == sp) {
                        Some(a) if !is_name(&text[sp.0..sp.1]) => a.1,
                        _ => sp,
                    };
                    pred_rels.push((class.to_string(), vec![resolve(s), resolve(o)]));
                }
                _ => *rep.unscored_claims.entry(c.rel.to_string()).or_default() += 1,
            }
        }
        dedup(&mut pred_rels);
        score(&gold_ents, &pred_ents, &mut rep.entities, "entity", &text, n, &mut rep.errors);
        score(&gold_rels, &pred_rels, &mut rel_scores, "relation", &text, n, &mut rep.errors);
    }
    // Every mapped class gets a row, even when nothing was predicted or annotated.
    for (_, ours) in FIRE_ENTITY_MAP {
        rep.entities.per_type.entry(ours.to_string()).or_default();
    }
    for (_, _, class) in FIRE_RELATION_MAP {
        rel_scores.per_type.entry(class.to_string()).or_default();
    }
    finish(&mut rep.entities);
    finish(&mut rel_scores);
    rep.relations = Some(rel_scores);
    Ok(rep)
}

/// Whether a mention's text is a name, not a pronoun or description that refers back
/// (FIRE's and Re-DocRED's scoring both count a name said again where it stands).
pub(crate) fn is_name(s: &str) -> bool {
    let first = s.split_whitespace().next().unwrap_or_default();
    s.starts_with(|c: char| c.is_uppercase())
        && !matches!(first, "It" | "Its" | "He" | "His" | "Him" | "She" | "Her" | "They" | "Their" | "Them" | "We" | "Our" | "The" | "This" | "That" | "These" | "Those" | "Such")
}

/// Scores CoNLL-format NER (IOB1 or IOB2, the tag in the last column). Each document
/// (between `-DOCSTART-` lines) is extracted whole, as `tg build` extracts a file: its
/// sentences one a line, rebuilt from their tokens as text reads ([`super::ner_train::detokenize`]: no
/// space before closing punctuation, quotes around what they quote), so the
/// document-wide passes (one name, one type; a defined term such as `("Bank")` read as
/// its party everywhere after) are part of what is scored. Each gold sentence is scored
/// against the names found in it; pronouns and other lower-case referring expressions
/// ("it", "the Company") are no names and are left out.
pub fn conll(text: &str) -> Result<Report, EvalError> {
    let mut rep = Report { dataset: "conll".into(), ..Default::default() };
    // Documents of sentences of (token, tag).
    let mut docs: Vec<Vec<Vec<(String, String)>>> = vec![vec![]];
    let mut sentence: Vec<(String, String)> = vec![];
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with("-DOCSTART-") {
            if !sentence.is_empty()
                && let Some(d) = docs.last_mut()
            {
                d.push(std::mem::take(&mut sentence));
            }
            if l.starts_with("-DOCSTART-") {
                docs.push(vec![]);
            }
            continue;
        }
        let cols: Vec<&str> = l.split_whitespace().collect();
        let (Some(tok), Some(tag)) = (cols.first(), cols.last()) else { continue };
        if cols.len() < 2 {
            return Err(EvalError::Conll { line: i + 1, text: line.to_string() });
        }
        sentence.push((tok.to_string(), tag.to_string()));
    }
    if !sentence.is_empty()
        && let Some(d) = docs.last_mut()
    {
        d.push(sentence);
    }
    for doc in docs.iter().filter(|d| !d.is_empty()) {
        conll_document(doc, &mut rep);
    }
    for (_, ours) in CONLL_ENTITY_MAP {
        rep.entities.per_type.entry(ours.to_string()).or_default();
    }
    finish(&mut rep.entities);
    Ok(rep)
}

/// The gold names of one CoNLL sentence: (vocabulary type, [span]) from its tags, a run of
/// one type's I- tags (or a B- tag and the I- tags after it) being one name.
fn conll_gold(sentence: &[(String, String)], spans: &[Span]) -> Vec<(String, Vec<Span>)> {
    let mut gold = vec![];
    let mut cur: Option<(String, usize)> = None;
    let close = |cur: &mut Option<(String, usize)>, end: usize, gold: &mut Vec<(String, Vec<Span>)>| {
        if let Some((k, s)) = cur.take()
            && let Some(t) = lookup(CONLL_ENTITY_MAP, &k)
            && let Some(sp) = token_span(spans, s, end)
        {
            gold.push((t.to_string(), vec![sp]));
        }
    };
    for (i, (_, tag)) in sentence.iter().enumerate() {
        let (prefix, kind) = match tag.split_once('-') {
            Some((p, k)) if matches!(p, "B" | "I") => (p, k),
            _ => ("O", ""),
        };
        let continues = prefix == "I" && cur.as_ref().is_some_and(|(k, _)| k == kind);
        if !continues {
            close(&mut cur, i, &mut gold);
            if prefix != "O" {
                cur = Some((kind.to_string(), i));
            }
        }
    }
    close(&mut cur, sentence.len(), &mut gold);
    gold
}

/// Extracts one CoNLL document and scores each of its sentences.
fn conll_document(doc: &[Vec<(String, String)>], rep: &mut Report) {
    let mut text = String::new();
    let mut lines: Vec<(Span, Vec<Span>)> = vec![];
    for s in doc {
        let toks: Vec<&str> = s.iter().map(|(t, _)| t.as_str()).collect();
        let (line, spans) = super::ner_train::detokenize(&toks);
        let at = text.len();
        text.push_str(&line);
        lines.push(((at, text.len()), spans.into_iter().map(|(a, b)| (a + at, b + at)).collect()));
        text.push('\n');
    }
    let sents: Vec<Span> = lines.iter().flat_map(|(l, _)| sentences(&text, l.0, l.1)).collect();
    let x = extract_with(&super::Input { id: "conll", text: &text, sentences: &sents, fields: &[], people: &[], date: None }, Vocabulary::builtin(), &super::ner::BUILTIN);
    let mut names: Vec<(Span, &str)> = x
        .mentions
        .iter()
        .filter(|(m, _)| CONLL_ENTITY_MAP.iter().any(|(_, ours)| *ours == m.kind))
        .filter(|(m, _)| m.surface.starts_with(char::is_uppercase) && !matches!(m.surface.as_str(), "It" | "He" | "She" | "They" | "We" | "I"))
        .map(|(m, _)| (m.span, m.kind))
        .collect();
    names.sort();
    for (s, (line, spans)) in doc.iter().zip(&lines) {
        rep.sentences += 1;
        rep.bytes += line.1 - line.0;
        let gold = conll_gold(s, spans);
        let from = names.partition_point(|(sp, _)| sp.0 < line.0);
        // A name ending in an abbreviation's period ("Solar Inc.") where the gold tokens
        // split it off ("Inc", ".") is aligned to the tokens.
        let align = |sp: Span| if text[..sp.1].ends_with('.') && spans.iter().any(|t| t.1 + 1 == sp.1) { (sp.0, sp.1 - 1) } else { sp };
        let mut pred: Vec<(String, Vec<Span>)> = names[from..].iter().take_while(|(sp, _)| sp.1 <= line.1).map(|(sp, k)| (k.to_string(), vec![align(*sp)])).collect();
        dedup(&mut pred);
        let n = rep.sentences - 1;
        score(&gold, &pred, &mut rep.entities, "entity", &text, n, &mut rep.errors);
    }
}

/// Value tags of KPI-EDGAR's annotation guide (sheet `legend`): numeric tokens that state
/// a KPI's value or change. With a currency token right before them they are money.
const KPI_VALUE_TAGS: &[&str] = &["cy", "py", "py1", "increase", "increase_py", "decrease", "decrease_py"];

/// A sheet of a workbook: its name and rows of cell texts.
pub type Sheet = (String, Vec<Vec<String>>);

/// Reads every sheet of an .xlsx workbook as rows of cell texts.
pub fn read_xlsx(path: &std::path::Path) -> Result<Vec<Sheet>, EvalError> {
    use calamine::Reader as _;
    let mut wb: calamine::Xlsx<_> = calamine::open_workbook(path).map_err(|e| EvalError::Kpi(format!("{}: {e}", path.display())))?;
    let mut out = vec![];
    for name in wb.sheet_names() {
        let range = wb.worksheet_range(&name).map_err(|e| EvalError::Kpi(format!("sheet {name}: {e}")))?;
        let rows = range.rows().map(|r| r.iter().map(|c| if matches!(c, calamine::Data::Empty) { String::new() } else { c.to_string() }).collect()).collect();
        out.push((name, rows));
    }
    Ok(out)
}

/// Evaluates money extraction on KPI-EDGAR: in each sheet, a `Sentence` row (tokens) and
/// its `Manual Annotations` row (tags such as `cy_1`). Gold: value tokens ([`KPI_VALUE_TAGS`])
/// right after a currency token (`$`, `€`, `£`, `USD`, `EUR`, `GBP`). One of our Money
/// mentions is right (tp) when it covers a gold token, wrong (fp) when it covers no
/// annotated numeric token at all, and not scored when it covers only annotated tokens
/// that are not gold (a `false_positive` value such as a forecast, or a value whose
/// currency is not right before it); a gold token no mention covers is missed (fn). The
/// gold annotates KPI values only, so an amount it leaves out counts as a false positive:
/// precision is a lower bound.
pub fn kpi(sheets: &[(String, Vec<Vec<String>>)]) -> Result<Report, EvalError> {
    let mut rep = Report { dataset: "kpi".into(), ..Default::default() };
    let mut money = Counts::default();
    let mut lenient = Lenient::default();
    for (_, rows) in sheets.iter().filter(|(n, _)| n != "legend" && n != "possible_relations") {
        for (i, row) in rows.iter().enumerate() {
            if row.first().map(String::as_str) != Some("Sentence") {
                continue;
            }
            let cells: Vec<&str> = row[1..].iter().map(String::as_str).collect();
            let n = cells.iter().rposition(|t| !t.is_empty()).map_or(0, |p| p + 1);
            let tokens = &cells[..n];
            let Some(tags) = rows[i + 1..].iter().take(4).find(|r| r.first().map(String::as_str) == Some("Manual Annotations")) else {
                return Err(EvalError::Kpi(format!("a sentence (row {}) without its Manual Annotations row", i + 1)));
            };
            // "cy_1" → "cy"; "false_positive" stays whole.
            let tag = |k: usize| {
                let t = tags.get(k + 1).map(String::as_str).unwrap_or("");
                t.rsplit_once('_').filter(|(_, n)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())).map_or(t, |(b, _)| b)
            };
            let (text, spans) = join_tokens(tokens);
            rep.sentences += 1;
            rep.bytes += text.len();
            let is_currency = |t: &str| matches!(t, "$" | "€" | "£" | "USD" | "EUR" | "GBP" | "US$");
            let gold: Vec<Span> = (1..n).filter(|&k| KPI_VALUE_TAGS.contains(&tag(k)) && is_currency(tokens[k - 1])).map(|k| spans[k]).collect();
            let annotated: Vec<Span> = (0..n).filter(|&k| KPI_VALUE_TAGS.contains(&tag(k)) || tag(k) == "false_positive").map(|k| spans[k]).collect();
            let pred: Vec<Span> = sentences(&text, 0, text.len()).into_iter().flat_map(|s| entities::find(&text, s, None)).filter(|m| m.kind == "Money").map(|m| m.span).collect();
            let inside = |g: &Span, p: &Span| p.0 <= g.0 && g.1 <= p.1;
            let at = rep.sentences - 1;
            for g in &gold {
                lenient.gold += 1;
                if pred.iter().any(|p| inside(g, p)) {
                    lenient.gold_hit += 1;
                } else {
                    money.fn_ += 1;
                    rep.errors.push(format!("fn entity Money {:?} (sentence {at})", &text[g.0..g.1]));
                }
            }
            for p in &pred {
                lenient.pred += 1;
                if gold.iter().any(|g| inside(g, p)) {
                    money.tp += 1;
                    lenient.pred_hit += 1;
                } else if annotated.iter().any(|a| inside(a, p)) {
                    lenient.pred_hit += 1;
                } else {
                    money.fp += 1;
                    rep.errors.push(format!("fp entity Money {:?} (sentence {at})", &text[p.0..p.1]));
                }
            }
        }
    }
    rep.entities.overall = money;
    rep.entities.per_type.insert("Money".into(), money);
    rep.entities.lenient = lenient;
    Ok(rep)
}

#[cfg(test)]
mod tests {

    #[test]
    fn gold_variants_follow_fires_alias_and_title_convention() {
        let text = "CME Group Inc. ( CME Group ) bought it ; Mr. Barron said ; Green River Collieries , LLC 's ( \" Green River \" ) mine";
        let show = |needle: &str| {
            let start = text.find(needle).unwrap_or(0);
            gold_variants(text, (start, start + needle.len())).into_iter().map(|(a, b)| &text[a..b]).collect::<Vec<_>>()
        };
        assert_eq!(show("CME Group Inc. ( CME Group )"), ["CME Group Inc. ( CME Group )", "CME Group Inc.", "CME Group"]);
        assert_eq!(show("Mr. Barron"), ["Mr. Barron", "Barron"]);
        assert_eq!(
            show("Green River Collieries , LLC 's ( \" Green River \" )"),
            ["Green River Collieries , LLC 's ( \" Green River \" )", "Green River Collieries , LLC", "Green River"]
        );
        assert_eq!(show("bought it"), ["bought it"]);
        let text = "the US-based Coca-Cola unit";
        let show = |needle: &str| {
            let start = text.find(needle).unwrap_or(0);
            gold_variants(text, (start, start + needle.len())).into_iter().map(|(a, b)| &text[a..b]).collect::<Vec<_>>()
        };
        assert_eq!(show("US-based"), ["US-based", "US"]);
        assert_eq!(show("Coca-Cola"), ["Coca-Cola"]);
    }

    use super::*;

    #[test]
    fn tokens_join_with_spans() {
        let (t, s) = join_tokens(&["Acme", "Corp", "."]);
        assert_eq!(t, "Acme Corp .");
        assert_eq!(s, [(0, 4), (5, 9), (10, 11)]);
        assert_eq!(token_span(&s, 0, 2), Some((0, 9)));
        assert_eq!(token_span(&s, 2, 2), None);
        assert_eq!(token_span(&s, 1, 4), None);
    }

    #[test]
    fn counts_and_ratios() {
        let c = Counts { tp: 2, fp: 2, fn_: 6 };
        assert_eq!(c.precision(), 0.5);
        assert_eq!(c.recall(), 0.25);
        assert!((c.f1() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(Counts::default().f1(), 0.0);
    }

    #[test]
    fn conll_io_tags_group_runs_and_types() {
        let r = conll("-DOCSTART- -X- O O\n\nMr NNP - O\nJohn NNP - I-PER\nDoe NNP - I-PER\njoined VBD - O\nAcme NNP - I-ORG\nBank NNP - I-ORG\n. . - O\n").unwrap_or_default();
        assert_eq!(r.sentences, 1);
        // Gold: Person "John Doe", Organization "Acme Bank"; found: both exactly.
        assert_eq!(r.entities.overall, Counts { tp: 2, fp: 0, fn_: 0 });
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert!(fire("{", Vocabulary::builtin()).is_err());
        assert!(
            fire(
                "[{\"tokens\":[\"a\"],\"entities\":[{\"type\":\"Company\",\"start\":3,\"end\":9}],\"relations\":[{\"head\":7,\"tail\":0,\"type\":\"Subsidiaryof\"}]}]",
                Vocabulary::builtin()
            )
            .is_ok()
        );
        assert!(conll("lonely\n").is_err());
    }
}
