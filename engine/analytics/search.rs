//! `tg search`: full-text retrieval over the store's chunks and claims (docs/SEARCH.md).
//!
//! - **BM25** (k1 = 1.2, b = 0.75) over the in-store postings; each query term also
//!   matches the indexed terms it is a prefix of (terms of 3+ characters), at half weight,
//!   the best expansion counting per unit.
//! - **PPR**: personalized PageRank over the entity graph from the entities the query
//!   names; a unit scores the PageRank of the entities it names.
//! - **Hybrid**: reciprocal rank fusion (k = 60) of the BM25 and PPR rankings.
//!
//! Scores are sums in a fixed order of values computed from integers, printed with four
//! decimals; ties go to document id, then span, then kind — never to storage order.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::graph::{EntityGraph, pagerank_from};
use crate::linking::link;
use tg_store::search_units::{CHUNK, UNIT_KEY, Unit};
use tg_store::{Posting, Store, StoreError, Value};
use tg_text::terms::Analyzer;

/// BM25 term-frequency saturation.
pub const K1: f64 = 1.2;
/// BM25 length normalisation.
pub const B: f64 = 0.75;
/// Reciprocal rank fusion constant.
pub const RRF_K: f64 = 60.0;
/// Weight of a prefix expansion against an exact term.
pub const PREFIX_WEIGHT: f64 = 0.5;
/// PageRank damping of the PPR ranking.
pub const DAMPING: f64 = 0.85;
/// How deep each ranking is read before fusion.
pub const FUSE_DEPTH: usize = 100;
/// PPR reads the units of this many entities of highest PageRank (ties by key).
pub const PPR_ENTITIES: usize = 64;

/// Why a search failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The store was written by a tg without search.
    #[error("the store has no search index (it was written by an older tg); rebuild it into a new --db")]
    NoIndex,
    /// The query has no searchable term and names no entity.
    #[error("the query {0:?} has no searchable words (only stop words or punctuation)")]
    EmptyQuery(String),
}

/// Which ranking `search` returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// BM25 alone.
    Bm25,
    /// Personalized PageRank from the entities the query names.
    Ppr,
    /// Reciprocal rank fusion of both.
    Hybrid,
}

impl Mode {
    /// Parses `bm25`, `ppr` or `hybrid`.
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "bm25" => Some(Mode::Bm25),
            "ppr" => Some(Mode::Ppr),
            "hybrid" => Some(Mode::Hybrid),
            _ => None,
        }
    }
}

/// What a claim hit says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimHit {
    /// Claim id.
    pub id: String,
    /// Subject entity key.
    pub subject: String,
    /// Relation of the vocabulary.
    pub relation: String,
    /// Object entity key.
    pub object: String,
    /// assertion, reported, hedged, denied, undecided or question.
    pub modality: String,
    /// positive or negative.
    pub polarity: String,
    /// Who the document attributes it to.
    pub asserter: String,
}

/// One hit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hit {
    /// Rank from 1.
    pub rank: usize,
    /// The score of the mode asked for (BM25, PageRank mass, or fused).
    pub score: f64,
    /// `chunk` or `claim`.
    pub kind: &'static str,
    /// Document id.
    pub doc: String,
    /// Span start.
    pub start: u64,
    /// Span end.
    pub end: u64,
    /// `[doc:start-end]`.
    pub citation: String,
    /// The cited text.
    pub text: String,
    /// For a claim: what it says, with modality and asserter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<ClaimHit>,
    /// For a chunk: its index in the document (`chunk(doc, index, block)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk_index: Option<i64>,
    /// Rank in the BM25 list (hybrid and ppr modes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bm25_rank: Option<usize>,
    /// Rank in the PPR list (hybrid and ppr modes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ppr_rank: Option<usize>,
}

/// The answer to one query.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Results {
    /// The query as given.
    pub query: String,
    /// The mode.
    pub mode: Mode,
    /// The query's terms after stemming.
    pub terms: Vec<String>,
    /// Entities the query names (PPR's seeds), by key.
    pub seeds: Vec<String>,
    /// Units indexed.
    pub units: u64,
    /// Hits, best first.
    pub hits: Vec<Hit>,
}

/// A unit's identity: document number and unit key.
pub type UnitId = (u32, [u8; UNIT_KEY]);

/// Where the postings come from: the store's index, or a copy of it in memory (the GQL
/// view's, for `CALL tg.search`). Both give the same postings in the same order.
pub trait Index {
    /// Units indexed and their total length.
    fn totals(&self) -> Result<(u64, u64), StoreError>;
    /// Postings of a term (or of every term it is a prefix of), by term, document, unit.
    fn postings(&self, term: &str, prefix: bool) -> Result<Vec<Posting>, StoreError>;
    /// Units naming a raw entity key.
    fn entity_units(&self, entity: &str) -> Result<Vec<UnitId>, StoreError>;
    /// One unit.
    fn unit(&self, id: &UnitId) -> Result<Option<Unit>, StoreError>;
    /// A document's id.
    fn doc_id(&self, num: u32) -> Result<String, StoreError>;
    /// A document's canonical text.
    fn text(&self, num: u32) -> Result<String, StoreError>;
}

impl Index for Store {
    fn totals(&self) -> Result<(u64, u64), StoreError> {
        self.search_totals()
    }
    fn postings(&self, term: &str, prefix: bool) -> Result<Vec<Posting>, StoreError> {
        Store::postings(self, term, prefix)
    }
    fn entity_units(&self, entity: &str) -> Result<Vec<UnitId>, StoreError> {
        Store::entity_units(self, entity)
    }
    fn unit(&self, id: &UnitId) -> Result<Option<Unit>, StoreError> {
        self.indexed_unit(id.0, &id.1)
    }
    fn doc_id(&self, num: u32) -> Result<String, StoreError> {
        Ok(Store::doc_id(self, num)?.unwrap_or_default())
    }
    fn text(&self, num: u32) -> Result<String, StoreError> {
        Ok(self.text_of(num)?.unwrap_or_default())
    }
}

/// The store's index copied into memory, with the entity graph: what `CALL tg.search`
/// reads once the GQL view is built (the view holds no store).
#[derive(Default)]
pub struct MemIndex {
    totals: (u64, u64),
    postings: BTreeMap<String, Vec<(UnitId, u32, u32)>>,
    entities: BTreeMap<String, Vec<UnitId>>,
    units: BTreeMap<UnitId, Unit>,
    ids: BTreeMap<u32, String>,
    texts: BTreeMap<u32, String>,
    /// The entity graph (PPR's).
    pub graph: EntityGraph,
}

impl MemIndex {
    /// Copies the store's index and builds its entity graph.
    pub fn load(store: &Store) -> Result<MemIndex, StoreError> {
        let mut m = MemIndex { totals: store.search_totals()?, graph: EntityGraph::from_store(store)?, ..MemIndex::default() };
        for (num, u) in store.all_units()? {
            let id = (num, u.key());
            for (t, tf) in &u.terms {
                m.postings.entry(t.clone()).or_default().push((id, *tf, u.len));
            }
            for e in &u.entities {
                m.entities.entry(e.clone()).or_default().push(id);
            }
            if let std::collections::btree_map::Entry::Vacant(e) = m.ids.entry(num) {
                e.insert(store.doc_id(num)?.unwrap_or_default());
                m.texts.insert(num, store.text_of(num)?.unwrap_or_default());
            }
            m.units.insert(id, u);
        }
        Ok(m)
    }
}

impl Index for MemIndex {
    fn totals(&self) -> Result<(u64, u64), StoreError> {
        Ok(self.totals)
    }
    fn postings(&self, term: &str, prefix: bool) -> Result<Vec<Posting>, StoreError> {
        let mut out = vec![];
        // (term, [(unit, term frequency, unit length)]) of the matching terms.
        type Lists<'a> = Box<dyn Iterator<Item = (&'a String, &'a Vec<(UnitId, u32, u32)>)> + 'a>;
        let range: Lists = if prefix {
            Box::new(self.postings.range(term.to_string()..).take_while(|(t, _)| t.starts_with(term)))
        } else {
            Box::new(self.postings.get_key_value(term).into_iter())
        };
        for (t, list) in range {
            for (id, tf, len) in list {
                out.push(Posting { term: std::rc::Rc::from(t.as_str()), doc: id.0, unit: id.1, tf: *tf, len: *len });
            }
        }
        Ok(out)
    }
    fn entity_units(&self, entity: &str) -> Result<Vec<UnitId>, StoreError> {
        Ok(self.entities.get(entity).cloned().unwrap_or_default())
    }
    fn unit(&self, id: &UnitId) -> Result<Option<Unit>, StoreError> {
        Ok(self.units.get(id).cloned())
    }
    fn doc_id(&self, num: u32) -> Result<String, StoreError> {
        Ok(self.ids.get(&num).cloned().unwrap_or_default())
    }
    fn text(&self, num: u32) -> Result<String, StoreError> {
        Ok(self.texts.get(&num).cloned().unwrap_or_default())
    }
}

/// Document ids by number, read once each.
#[derive(Default)]
struct DocIds(HashMap<u32, String>);

impl DocIds {
    fn get(&mut self, store: &dyn Index, n: u32) -> Result<String, StoreError> {
        if let Some(s) = self.0.get(&n) {
            return Ok(s.clone());
        }
        let id = store.doc_id(n)?;
        self.0.insert(n, id.clone());
        Ok(id)
    }
}

/// The `depth` best scored units, best first: score, then document id, span, kind, key.
/// Units tied with the last one kept are all ranked before cutting, so the cut never
/// depends on the map's order.
fn rank(store: &dyn Index, ids: &mut DocIds, scores: HashMap<UnitId, f64>, depth: usize) -> Result<Vec<(UnitId, f64)>, StoreError> {
    let mut all: Vec<(UnitId, f64)> = scores.into_iter().collect();
    if all.len() > depth && depth > 0 {
        all.select_nth_unstable_by(depth - 1, |a, b| b.1.total_cmp(&a.1));
        let cut = all[depth - 1].1;
        all.retain(|x| x.1 >= cut);
    }
    let mut v: Vec<(String, UnitId, f64)> = vec![];
    for (u, s) in all {
        v.push((ids.get(store, u.0)?, u, s));
    }
    v.sort_by(|a, b| b.2.total_cmp(&a.2).then_with(|| a.0.cmp(&b.0)).then_with(|| a.1.1.cmp(&b.1.1)));
    v.truncate(depth);
    Ok(v.into_iter().map(|(_, u, s)| (u, s)).collect())
}

/// BM25 scores of every unit matching some query term.
pub fn bm25(store: &dyn Index, terms: &[String]) -> Result<HashMap<UnitId, f64>, StoreError> {
    let (n, total) = store.totals()?;
    let avg = if n == 0 { 1.0 } else { total as f64 / n as f64 };
    let mut scores: HashMap<UnitId, f64> = HashMap::new();
    for q in terms {
        let postings = store.postings(q, q.chars().count() >= 3)?;
        // Document frequency of each matched term.
        let mut df: BTreeMap<&str, u64> = BTreeMap::new();
        for p in &postings {
            *df.entry(&p.term).or_default() += 1;
        }
        let mut best: HashMap<UnitId, f64> = HashMap::with_capacity(postings.len());
        for p in &postings {
            let d = df[&*p.term] as f64;
            let idf = (1.0 + (n as f64 - d + 0.5) / (d + 0.5)).ln();
            let tf = p.tf as f64;
            let s = idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * p.len as f64 / avg));
            let w = if *p.term == **q { 1.0 } else { PREFIX_WEIGHT };
            let e = best.entry((p.doc, p.unit)).or_insert(0.0);
            if w * s > *e {
                *e = w * s;
            }
        }
        for (u, s) in best {
            *scores.entry(u).or_insert(0.0) += s;
        }
    }
    Ok(scores)
}

/// The entities (graph nodes) a query names (PPR's seeds): whole names and aliases, the
/// longest match winning ([`crate::linking`]).
pub fn seeds(g: &EntityGraph, query: &str) -> Vec<usize> {
    link(g, query).into_iter().map(|(n, _)| n).collect()
}

/// PPR scores of units: each unit gets the highest PageRank (from the weighted `seeds`,
/// see [`crate::linking`]) of the entities it names, among the
/// [`PPR_ENTITIES`] entities of highest PageRank — the highest, not the sum, so a long
/// chunk naming many entities does not outrank a claim about the one asked for.
pub fn ppr(store: &dyn Index, g: &EntityGraph, seeds: &[(usize, f64)]) -> Result<HashMap<UnitId, f64>, StoreError> {
    let mut scores: HashMap<UnitId, f64> = HashMap::new();
    if seeds.is_empty() {
        return Ok(scores);
    }
    let mut teleport = vec![0.0; g.len()];
    let sum: f64 = seeds.iter().map(|x| x.1).sum();
    for &(n, w) in seeds {
        if let Some(t) = teleport.get_mut(n) {
            *t += if sum > 0.0 { w / sum } else { 1.0 / seeds.len() as f64 };
        }
    }
    let pr = pagerank_from(g, &teleport, DAMPING);
    let mut top: Vec<usize> = (0..pr.len()).filter(|&n| pr[n] >= 1e-9).collect();
    top.sort_by(|&a, &b| pr[b].total_cmp(&pr[a]).then_with(|| g.keys[a].cmp(&g.keys[b])));
    top.truncate(PPR_ENTITIES);
    for n in top {
        let p = &pr[n];
        for m in &g.members[n] {
            for u in store.entity_units(m)? {
                let e = scores.entry(u).or_insert(0.0);
                if *p > *e {
                    *e = *p;
                }
            }
        }
    }
    Ok(scores)
}

fn sym(v: Option<&Value>) -> String {
    match v {
        Some(Value::Sym(s)) => s.clone(),
        Some(Value::Num(n)) => n.to_string(),
        None => String::new(),
    }
}

/// A hit for a unit: its citation, text, and for a claim what it says.
fn hit(store: &dyn Index, ids: &mut DocIds, texts: &mut HashMap<u32, String>, id: &UnitId, u: &Unit, rank: usize, score: f64) -> Result<Hit, StoreError> {
    let doc = ids.get(store, id.0)?;
    if let std::collections::hash_map::Entry::Vacant(e) = texts.entry(id.0) {
        let t = store.text(id.0)?;
        e.insert(t);
    }
    let text = texts.get(&id.0).and_then(|t| t.get(u.start as usize..u.end as usize)).unwrap_or("").to_string();
    let claim = (u.kind != CHUNK).then(|| ClaimHit {
        id: sym(u.fact.first()),
        subject: sym(u.fact.get(2)),
        relation: sym(u.fact.get(3)),
        object: sym(u.fact.get(4)),
        modality: sym(u.fact.get(5)),
        polarity: sym(u.fact.get(6)),
        asserter: sym(u.fact.get(7)),
    });
    Ok(Hit {
        rank,
        score,
        kind: if u.kind == CHUNK { "chunk" } else { "claim" },
        citation: format!("[{doc}:{}-{}]", u.start, u.end),
        doc,
        start: u.start,
        end: u.end,
        text,
        chunk_index: if u.kind == CHUNK {
            match u.fact.get(1) {
                Some(Value::Num(n)) => Some(*n as i64),
                _ => None,
            }
        } else {
            None
        },
        claim,
        bm25_rank: None,
        ppr_rank: None,
    })
}

/// Ranks from 1 where equal scores share a rank ("1, 2, 2, 4"): in fusion a tie carries
/// no order, so units PPR cannot tell apart (all naming the entity asked for) get one rank
/// and BM25 orders them.
fn shared_ranks(l: &[(UnitId, f64)]) -> Vec<usize> {
    let mut out = Vec::with_capacity(l.len());
    for (i, (_, s)) in l.iter().enumerate() {
        let r = if i > 0 && l[i - 1].1 == *s { out[i - 1] } else { i + 1 };
        out.push(r);
    }
    out
}

/// Runs one query over the store: the `k` best units by `mode`.
pub fn search(store: &Store, query: &str, mode: Mode, k: usize) -> Result<Results, SearchError> {
    if !store.has_search_index()? {
        return Err(SearchError::NoIndex);
    }
    let g = if mode == Mode::Bm25 { EntityGraph::default() } else { EntityGraph::from_store(store)? };
    search_in(store, &g, query, mode, k)
}

/// Runs one query over an index and its entity graph (see [`search`]).
pub fn search_in(store: &dyn Index, g: &EntityGraph, query: &str, mode: Mode, k: usize) -> Result<Results, SearchError> {
    let an = Analyzer::default();
    let mut terms: Vec<String> = vec![];
    for t in an.terms(query) {
        if !terms.contains(&t) {
            terms.push(t);
        }
    }
    let linked = if mode == Mode::Bm25 { vec![] } else { link(g, query) };
    let seed_nodes: Vec<usize> = linked.iter().map(|x| x.0).collect();
    if terms.is_empty() && seed_nodes.is_empty() {
        return Err(SearchError::EmptyQuery(query.to_string()));
    }
    let mut ids = DocIds::default();
    let depth = FUSE_DEPTH.max(k);
    let lexical = if mode == Mode::Ppr { vec![] } else { rank(store, &mut ids, bm25(store, &terms)?, depth)? };
    let graph = if mode == Mode::Bm25 { vec![] } else { rank(store, &mut ids, ppr(store, g, &linked)?, depth)? };
    let list: Vec<(UnitId, f64)> = match mode {
        Mode::Bm25 => lexical.clone(),
        Mode::Ppr => graph.clone(),
        Mode::Hybrid => {
            let mut fused: HashMap<UnitId, f64> = HashMap::new();
            for l in [&lexical, &graph] {
                for ((u, _), r) in l.iter().zip(shared_ranks(l)).take(FUSE_DEPTH.max(k)) {
                    *fused.entry(*u).or_insert(0.0) += 1.0 / (RRF_K + r as f64);
                }
            }
            rank(store, &mut ids, fused, depth)?
        }
    };
    let pos = |l: &[(UnitId, f64)], u: &UnitId| l.iter().zip(shared_ranks(l)).take(FUSE_DEPTH.max(k)).find(|x| x.0.0 == *u).map(|x| x.1);
    let mut texts = HashMap::new();
    let mut hits = vec![];
    for (i, (u, s)) in list.iter().take(k).enumerate() {
        let Some(unit) = store.unit(u)? else { continue };
        let mut h = hit(store, &mut ids, &mut texts, u, &unit, i + 1, *s)?;
        if mode != Mode::Bm25 {
            h.bm25_rank = pos(&lexical, u);
            h.ppr_rank = pos(&graph, u);
        }
        hits.push(h);
    }
    let (units, _) = store.totals()?;
    Ok(Results { query: query.to_string(), mode, terms, seeds: seed_nodes.iter().map(|&n| g.keys[n].clone()).collect(), units, hits })
}

/// The text form of results: one line per hit (rank, score, kind, citation; for a claim
/// its relation, modality and asserter), then the cited text on an indented line.
pub fn render(r: &Results) -> String {
    let mut out = String::new();
    if !r.seeds.is_empty() {
        out.push_str(&format!("entities named: {}\n", r.seeds.join(", ")));
    }
    if r.hits.is_empty() {
        out.push_str(&format!("no hits for {:?} among {} units\n", r.query, r.units));
    }
    for h in &r.hits {
        let mut line = format!("{:>3}. {:.4} {} {}", h.rank, h.score, h.kind, h.citation);
        if let Some(c) = &h.claim {
            line.push_str(&format!(" {}({} -> {}) modality={} polarity={} asserter={}", c.relation, c.subject, c.object, c.modality, c.polarity, c.asserter));
        }
        if h.bm25_rank.is_some() || h.ppr_rank.is_some() {
            let r = |x: Option<usize>| x.map_or("-".to_string(), |n| n.to_string());
            line.push_str(&format!(" (bm25 #{}, ppr #{})", r(h.bm25_rank), r(h.ppr_rank)));
        }
        out.push_str(&line);
        out.push('\n');
        let flat: String = h.text.split_whitespace().collect::<Vec<_>>().join(" ");
        let shown: String = flat.chars().take(200).collect();
        let more = if flat.chars().count() > 200 { "…" } else { "" };
        out.push_str(&format!("     \"{shown}{more}\"\n"));
    }
    out
}

/// The JSON form of results (scores as fixed four-decimal strings, so output is stable).
pub fn to_json(r: &Results) -> String {
    let mut v = serde_json::to_value(r).unwrap_or_default();
    if let Some(hits) = v.get_mut("hits").and_then(|h| h.as_array_mut()) {
        for (h, orig) in hits.iter_mut().zip(&r.hits) {
            h["score"] = serde_json::Value::String(format!("{:.4}", orig.score));
        }
    }
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}
