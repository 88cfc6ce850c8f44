//! The analytics as stored facts (issue 22): `tg derive` computes centrality and
//! communities after the rules (which derive the `same_as` classes the graph is made of)
//! and stores every row of [`crate::facts::RELATIONS`], plus one
//! `entity_graph(nodes, edges, betweenness method, rounds)` fact, in the derived layer —
//! tagged INFERRED like every derived fact, each with a witness naming the method (a
//! "rule" whose text starts `tg analytics`) and the first claims it rests on. So they are
//! in `tg dump`, `tg export` and `tg stats`, and `tg central` / `tg communities` read them
//! back instead of recomputing while they are current ([`load`]).
//!
//! They are a function of the store's facts and derived `same_as` alone, so an
//! incrementally maintained store and a full rebuild store the same rows.

use std::collections::{BTreeMap, BTreeSet};

use crate::central::{Centrality, Measures};
use crate::communities::{Communities, Community};
use crate::facts::{self, Analysis};
use crate::graph::EntityGraph;
use tg_store::{ColumnType, Derivation, DerivedFact, Store, StoreError, Value, hex};

use ColumnType::{Number as N, Symbol as S};

/// The summary relation: nodes, edges, betweenness method, label propagation rounds.
pub const SUMMARY: &str = "entity_graph";
/// Columns of [`SUMMARY`].
pub const SUMMARY_COLUMNS: &[ColumnType] = &[N, N, S, N];
/// Claims a stored witness names (`tg explain` lists up to 20, recomputed).
pub const WITNESS_CLAIMS: usize = 3;

/// Every relation stored: the analytics relations and the summary.
pub fn relations() -> Vec<(&'static str, &'static [ColumnType])> {
    let mut out: Vec<(&str, &[ColumnType])> = facts::RELATIONS.to_vec();
    out.push((SUMMARY, SUMMARY_COLUMNS));
    out
}

/// Whether `rel` is stored by [`refresh`].
pub fn is_stored(rel: &str) -> bool {
    rel == SUMMARY || facts::is_relation(rel)
}

/// The method text of a relation: the "rule" its witnesses name.
pub fn method(rel: &str) -> String {
    let m = match rel {
        "pagerank" => {
            "PageRank over the entity graph (a same_as class is one node; edges weighted by the claims linking two entities, denied ones excluded), damping 0.85, power iteration to 1e-12; score with six decimals, rank from 1, ties by key"
        }
        "entity_degree" => "distinct neighbours in the entity graph",
        "betweenness" => "Brandes betweenness, unweighted, normalised by (n-1)(n-2): exact up to 2000 nodes, else 256 sources drawn with seed 22",
        "god_node" => "degree at least 3 and at least the mean degree plus two standard deviations",
        "bridge" => "an edge whose removal disconnects its component (Tarjan)",
        "orphan" => "an entity no claim links to another",
        "community" => {
            "label propagation over the entity graph: nodes in key order, the neighbour label of greatest weight, own label kept on ties, else the smallest; communities of 2+ members numbered by size, then smallest key"
        }
        "community_label" => "c-TF-IDF over the texts of the units naming the community's members: tf(t,c)/|c| * ln(1 + A/f(t)), the five best terms",
        "community_doc" => "the documents of the units naming a member of the community, with their counts",
        _ => "the entity graph's size, the betweenness method and the label propagation rounds",
    };
    format!("tg analytics {rel}: {m}")
}

/// The method's hash as a rule hash (blake3, first 16 bytes, hex), as `tg explain --verify` checks.
fn rule_hash(text: &str) -> String {
    hex(&blake3::hash(text.as_bytes()).as_bytes()[..16])
}

fn sym(v: Option<&Value>) -> String {
    match v {
        Some(Value::Sym(s)) => s.clone(),
        Some(Value::Num(n)) => n.to_string(),
        None => String::new(),
    }
}

fn num(v: Option<&Value>) -> i64 {
    match v {
        Some(Value::Num(n)) => i64::from(*n),
        Some(Value::Sym(s)) => s.parse().unwrap_or(0),
        None => 0,
    }
}

/// The first claims (by id) a row rests on, as the witness body.
fn body(a: &Analysis, community_of: &BTreeMap<&str, i64>, rel: &str, args: &[Value]) -> Vec<(String, Vec<Value>)> {
    let g = &a.graph;
    let claims = |k: &str| g.node_of.get(k).map(|&n| g.claims[n].as_slice()).unwrap_or_default();
    let node = |k: &str| g.node_of.get(k).copied();
    let pick: Vec<(String, Vec<Value>)> = match rel {
        "pagerank" | "entity_degree" | "betweenness" | "god_node" => {
            claims(&sym(args.first())).iter().take(WITNESS_CLAIMS).map(|c| ("claim".to_string(), c.args.clone())).collect()
        }
        "bridge" => {
            let b = node(&sym(args.get(1)));
            claims(&sym(args.first()))
                .iter()
                .filter(|c| [2, 4].iter().any(|&i| node(&sym(c.args.get(i))) == b))
                .take(WITNESS_CLAIMS)
                .map(|c| ("claim".to_string(), c.args.clone()))
                .collect()
        }
        "orphan" => {
            let k = sym(args.first());
            let t = k.split_once(':').map_or("?", |(t, _)| t).to_string();
            vec![("entity".to_string(), vec![Value::Sym(k), Value::Sym(t)])]
        }
        "community" => {
            let id = num(args.get(1));
            claims(&sym(args.first()))
                .iter()
                .filter(|c| [2, 4].iter().all(|&i| community_of.get(sym(c.args.get(i)).as_str()) == Some(&id)))
                .take(WITNESS_CLAIMS)
                .map(|c| ("claim".to_string(), c.args.clone()))
                .collect()
        }
        "community_label" | "community_doc" => {
            let id = num(args.first());
            let members: Vec<&str> = community_of.iter().filter(|(_, c)| **c == id).map(|(k, _)| *k).take(WITNESS_CLAIMS).collect();
            members.into_iter().map(|k| ("community".to_string(), vec![Value::Sym(k.to_string()), Value::Num(id as i32)])).collect()
        }
        _ => vec![],
    };
    pick
}

/// The facts to store for an analysis, each with its witness, and the methods (hash, text).
pub fn derived_facts(a: &Analysis) -> (Vec<DerivedFact>, Vec<(String, String)>) {
    let rows = facts::rows(a, None);
    let community_of: BTreeMap<&str, i64> = rows
        .iter()
        .filter(|(r, _)| r == "community")
        .filter_map(|(_, args)| match args.first() {
            Some(Value::Sym(k)) => Some((k.as_str(), num(args.get(1)))),
            _ => None,
        })
        .collect();
    let mut methods: BTreeMap<String, String> = BTreeMap::new();
    let mut out = vec![];
    for (rel, args) in &rows {
        let text = method(rel);
        let hash = rule_hash(&text);
        methods.entry(hash.clone()).or_insert(text);
        out.push(DerivedFact { rel: rel.clone(), args: args.clone(), why: Derivation { round: 0, rule: hash, body: body(a, &community_of, rel, args) } });
    }
    if !a.graph.is_empty() {
        let text = method(SUMMARY);
        let hash = rule_hash(&text);
        methods.entry(hash.clone()).or_insert(text);
        let args =
            vec![Value::Num(a.central.nodes as i32), Value::Num(a.central.edges as i32), Value::Sym(a.central.betweenness_method.clone()), Value::Num(a.communities.rounds as i32)];
        out.push(DerivedFact { rel: SUMMARY.to_string(), args, why: Derivation { round: 0, rule: hash, body: vec![] } });
    }
    (out, methods.into_iter().collect())
}

/// What [`refresh`] stored.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Refreshed {
    /// Facts written (new or with a new witness).
    pub written: usize,
    /// Facts removed.
    pub removed: usize,
    /// Entity graph nodes.
    pub nodes: usize,
    /// Communities of 2+ members.
    pub communities: usize,
    /// God nodes.
    pub god_nodes: usize,
    /// Bridges.
    pub bridges: usize,
    /// Orphans.
    pub orphans: usize,
    /// The stored facts, by relation (for the derived layer's change report).
    #[serde(skip)]
    pub facts: Vec<(String, Vec<Value>)>,
}

/// Computes the analysis of the store as it is and stores it (see the module docs).
pub fn refresh(store: &Store) -> Result<Refreshed, StoreError> {
    let a = facts::analyse(store)?;
    let (facts, methods) = derived_facts(&a);
    let (written, removed) = store.replace_analytics(&relations(), &facts, &methods)?;
    Ok(Refreshed {
        written,
        removed,
        nodes: a.central.nodes,
        communities: a.communities.communities.len(),
        god_nodes: a.central.god_nodes.len(),
        bridges: a.central.bridges.len(),
        orphans: a.central.orphans.len(),
        facts: facts.into_iter().map(|f| (f.rel, f.args)).collect(),
    })
}

/// Relations a full derivation replaces: every declared one but the analytics' (which
/// [`refresh`] replaces after it). `None` when the store holds no analytics relation.
pub fn rules_scope(store: &Store) -> Result<Option<Vec<String>>, StoreError> {
    let names = store.relation_names()?;
    if !names.iter().any(|n| is_stored(n)) {
        return Ok(None);
    }
    Ok(Some(names.into_iter().filter(|n| !is_stored(n)).collect()))
}

/// The analysis read back from the stored facts, when they are current
/// ([`Store::analytics_current`]); `None` otherwise (the caller computes it). The graph
/// itself is rebuilt from the facts (cheap); the measures, communities, labels and
/// documents are the stored rows.
pub fn load(store: &Store) -> Result<Option<Analysis>, StoreError> {
    if !store.analytics_current()? || store.schema(SUMMARY)?.is_none() {
        return Ok(None);
    }
    let summary = match store.derived_facts(SUMMARY)?.into_iter().next() {
        Some((args, _)) => args,
        None => return Ok(None),
    };
    let graph = EntityGraph::from_store(store)?;
    let is_node = |k: &str| graph.keys.binary_search_by(|x| x.as_str().cmp(k)).is_ok();
    let read = |rel: &str| -> Result<Vec<Vec<Value>>, StoreError> {
        if store.schema(rel)?.is_none() {
            return Ok(vec![]);
        }
        let mut v: Vec<Vec<Value>> = store.derived_facts(rel)?.into_iter().map(|(a, _)| a).collect();
        v.retain(|args| match rel {
            "community_label" | "community_doc" | "bridge" => true,
            _ => is_node(&sym(args.first())),
        });
        Ok(v)
    };
    let score = |v: Option<&Value>| sym(v).parse::<f64>().unwrap_or(0.0);
    let degree: BTreeMap<String, usize> = read("entity_degree")?.into_iter().map(|a| (sym(a.first()), num(a.get(1)) as usize)).collect();
    let between: BTreeMap<String, f64> = read("betweenness")?.into_iter().map(|a| (sym(a.first()), score(a.get(1)))).collect();
    let mut ranked: Vec<(i64, Measures)> = read("pagerank")?
        .into_iter()
        .map(|a| {
            let e = sym(a.first());
            let m = Measures { pagerank: score(a.get(1)), degree: degree.get(&e).copied().unwrap_or(0), betweenness: between.get(&e).copied().unwrap_or(0.0), entity: e };
            (num(a.get(2)), m)
        })
        .collect();
    ranked.sort_by(|x, y| x.0.cmp(&y.0).then_with(|| x.1.entity.cmp(&y.1.entity)));
    let mut god_nodes: Vec<String> = read("god_node")?.into_iter().map(|a| sym(a.first())).collect();
    god_nodes.sort_by(|a, b| degree.get(b).cmp(&degree.get(a)).then_with(|| a.cmp(b)));
    let mut bridges: Vec<(String, String)> = read("bridge")?.into_iter().map(|a| (sym(a.first()), sym(a.get(1)))).collect();
    bridges.sort();
    let mut orphans: Vec<String> = read("orphan")?.into_iter().map(|a| sym(a.first())).collect();
    orphans.sort();
    let central = Centrality {
        nodes: num(summary.first()) as usize,
        edges: num(summary.get(1)) as usize,
        betweenness_method: sym(summary.get(2)),
        ranking: ranked.into_iter().map(|(_, m)| m).collect(),
        god_nodes,
        bridges,
        orphans,
    };
    let mut members: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for a in read("community")? {
        members.entry(num(a.get(1)) as usize).or_default().insert(sym(a.first()));
    }
    let mut labels: BTreeMap<usize, Vec<(i64, String, f64)>> = BTreeMap::new();
    for a in read("community_label")? {
        labels.entry(num(a.first()) as usize).or_default().push((num(a.get(1)), sym(a.get(2)), score(a.get(3))));
    }
    let mut docs: BTreeMap<usize, Vec<(String, usize)>> = BTreeMap::new();
    for a in read("community_doc")? {
        docs.entry(num(a.first()) as usize).or_default().push((sym(a.get(1)), num(a.get(2)) as usize));
    }
    let mut of = vec![0; graph.len()];
    let mut list = vec![];
    for (id, ms) in members {
        for m in &ms {
            if let Some(&n) = graph.node_of.get(m) {
                of[n] = id;
            }
        }
        let mut l = labels.remove(&id).unwrap_or_default();
        l.sort_by_key(|a| a.0);
        let mut d = docs.remove(&id).unwrap_or_default();
        d.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        list.push(Community { id, members: ms.into_iter().collect(), label: l.iter().map(|x| x.1.clone()).collect(), weights: l.iter().map(|x| x.2).collect(), documents: d });
    }
    let singletons: Vec<String> = (0..graph.len()).filter(|&n| of[n] == 0).map(|n| graph.keys[n].clone()).collect();
    let communities = Communities { communities: list, singletons, of, rounds: num(summary.get(3)) as usize };
    Ok(Some(Analysis { graph, central, communities }))
}

/// The analysis: read back from the stored facts when current ([`load`]), else computed.
/// The flag says which (true: stored).
pub fn current_or_computed(store: &Store) -> Result<(Analysis, bool), StoreError> {
    match load(store)? {
        Some(a) => Ok((a, true)),
        None => Ok((facts::analyse(store)?, false)),
    }
}
