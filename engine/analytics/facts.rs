//! Centrality and communities as relations (tag DERIVED): what rules read when they
//! declare them, what `tg explain` explains down to the claims they rest on, and what the
//! GQL view shows as node properties.
//!
//! | relation | columns |
//! |---|---|
//! | `pagerank` | entity, score (6 decimals, text), rank (from 1) |
//! | `entity_degree` | entity, distinct neighbours |
//! | `betweenness` | entity, score (6 decimals, text) |
//! | `god_node` | entity |
//! | `bridge` | a, b (a < b) |
//! | `orphan` | entity |
//! | `community` | entity, community id (from 1) |
//! | `community_label` | community id, rank (from 1), term, c-TF-IDF weight (6 decimals, text) |
//! | `community_doc` | community id, document, units naming a member |
//!
//! Every raw entity key of a `same_as` class gets its class's rows, so a rule joining on
//! `claim` subjects finds them. Scores are text because Datalog numbers are 32-bit
//! integers; the text sorts as the number does (fixed decimals, all below 1).

use std::collections::BTreeSet;

use crate::central::{Centrality, centrality};
use crate::communities::{Communities, communities};
use crate::graph::EntityGraph;
use tg_store::{ColumnType, Store, StoreError, Value};

use ColumnType::{Number as N, Symbol as S};

/// The analytics relations and their columns.
pub const RELATIONS: &[(&str, &[ColumnType])] = &[
    ("pagerank", &[S, S, N]),
    ("entity_degree", &[S, N]),
    ("betweenness", &[S, S]),
    ("god_node", &[S]),
    ("bridge", &[S, S]),
    ("orphan", &[S]),
    ("community", &[S, N]),
    ("community_label", &[N, N, S, S]),
    ("community_doc", &[N, S, N]),
];

/// The `.decl` of each analytics relation in `rels` that `sources` do not declare (for a
/// REPL query that reads one without declaring it).
pub fn declarations(rels: &[&str], sources: &[(String, String)]) -> String {
    let mut out = String::new();
    for (r, cols) in RELATIONS.iter().filter(|(r, _)| rels.contains(r)) {
        let declared = sources.iter().any(|(_, t)| t.contains(&format!(".decl {r}(")));
        if declared {
            continue;
        }
        let cs: Vec<String> = cols.iter().enumerate().map(|(i, c)| format!("c{i}:{}", if *c == S { "symbol" } else { "number" })).collect();
        out.push_str(&format!(".decl {r}({})\n", cs.join(", ")));
    }
    out
}

/// The columns of an analytics relation.
pub fn columns(rel: &str) -> Option<Vec<ColumnType>> {
    RELATIONS.iter().find(|(r, _)| *r == rel).map(|(_, c)| c.to_vec())
}

/// Everything computed once: the graph, its centrality and its communities.
pub struct Analysis {
    /// The entity graph.
    pub graph: EntityGraph,
    /// Centrality measures.
    pub central: Centrality,
    /// Communities.
    pub communities: Communities,
}

/// Whether `rel` is one of the analytics relations.
pub fn is_relation(rel: &str) -> bool {
    RELATIONS.iter().any(|(r, _)| *r == rel)
}

/// Computes the analysis of the store's current graph.
pub fn analyse(store: &Store) -> Result<Analysis, StoreError> {
    let graph = EntityGraph::from_store(store)?;
    let central = centrality(&graph);
    let communities = communities(store, &graph)?;
    Ok(Analysis { graph, central, communities })
}

fn s(x: &str) -> Value {
    Value::Sym(x.to_string())
}

/// A score as its fact text: six decimals.
pub fn score(x: f64) -> String {
    format!("{x:.6}")
}

/// The rows of one relation (all of them when `rel` is `None`), sorted.
pub fn rows(a: &Analysis, rel: Option<&str>) -> Vec<(String, Vec<Value>)> {
    let want = |r: &str| rel.is_none_or(|x| x == r);
    let g = &a.graph;
    let members = |key: &str| -> Vec<String> { g.node_of.get(key).map(|&n| g.members[n].clone()).unwrap_or_else(|| vec![key.to_string()]) };
    let mut out: BTreeSet<(String, Vec<Value>)> = BTreeSet::new();
    for (i, m) in a.central.ranking.iter().enumerate() {
        for k in members(&m.entity) {
            if want("pagerank") {
                out.insert(("pagerank".into(), vec![s(&k), s(&score(m.pagerank)), Value::Num(i as i32 + 1)]));
            }
            if want("entity_degree") {
                out.insert(("entity_degree".into(), vec![s(&k), Value::Num(m.degree as i32)]));
            }
            if want("betweenness") {
                out.insert(("betweenness".into(), vec![s(&k), s(&score(m.betweenness))]));
            }
        }
    }
    for e in &a.central.god_nodes {
        for k in members(e).iter().filter(|_| want("god_node")) {
            out.insert(("god_node".into(), vec![s(k)]));
        }
    }
    for e in &a.central.orphans {
        for k in members(e).iter().filter(|_| want("orphan")) {
            out.insert(("orphan".into(), vec![s(k)]));
        }
    }
    if want("bridge") {
        for (x, y) in &a.central.bridges {
            out.insert(("bridge".into(), vec![s(x), s(y)]));
        }
    }
    for c in &a.communities.communities {
        let id = Value::Num(c.id as i32);
        for m in &c.members {
            for k in members(m).iter().filter(|_| want("community")) {
                out.insert(("community".into(), vec![s(k), id.clone()]));
            }
        }
        for (r, t) in c.label.iter().enumerate().filter(|_| want("community_label")) {
            let w = c.weights.get(r).copied().unwrap_or(0.0);
            out.insert(("community_label".into(), vec![id.clone(), Value::Num(r as i32 + 1), s(t), s(&score(w))]));
        }
        for (d, n) in c.documents.iter().filter(|_| want("community_doc")) {
            out.insert(("community_doc".into(), vec![id.clone(), s(d), Value::Num(*n as i32)]));
        }
    }
    out.into_iter().collect()
}

/// The analytics facts a program reads: rows of the analytics relations it declares
/// (none, and no work, when it declares none). Given to the evaluator like an analyst's
/// judgements, so such a program is always evaluated in full (docs/SEARCH.md).
pub fn given_for(store: &Store, declared: &[&str]) -> Result<Vec<(String, Vec<Value>)>, StoreError> {
    let wanted: Vec<&str> = RELATIONS.iter().map(|(r, _)| *r).filter(|r| declared.contains(r)).collect();
    if wanted.is_empty() {
        return Ok(vec![]);
    }
    let a = analyse(store)?;
    Ok(rows(&a, None).into_iter().filter(|(r, _)| wanted.contains(&r.as_str())).collect())
}

/// An analytics fact's method line and the stored facts it rests on, as (relation, arguments).
pub type Explained = (String, Vec<(String, Vec<Value>)>);

/// How an analytics fact holds: `None` if it is not one (or does not hold); else the
/// method line and the stored facts it rests on (claims, entities), at most `limit`.
pub fn explain(store: &Store, rel: &str, args: &[Value], limit: usize) -> Result<Option<Explained>, StoreError> {
    if columns(rel).is_none() {
        return Ok(None);
    }
    let a = analyse(store)?;
    if !rows(&a, Some(rel)).iter().any(|(_, r)| r == args) {
        return Ok(None);
    }
    let g = &a.graph;
    let key = |i: usize| match args.get(i) {
        Some(Value::Sym(x)) => x.clone(),
        _ => String::new(),
    };
    let claims_of = |k: &str| g.node_of.get(k).map(|&n| g.claims[n].iter().map(|c| ("claim".to_string(), c.args.clone())).collect::<Vec<_>>()).unwrap_or_default();
    let (method, mut premises) = match rel {
        "pagerank" => (format!("PageRank over the entity graph ({} nodes, {} edges), damping 0.85; its claims", g.len(), g.edges()), claims_of(&key(0))),
        "entity_degree" => ("distinct neighbours in the entity graph; its claims".to_string(), claims_of(&key(0))),
        "betweenness" => (format!("betweenness ({}); its claims", a.central.betweenness_method), claims_of(&key(0))),
        "god_node" => ("degree at least 3 and at least mean + 2 sd; its claims".to_string(), claims_of(&key(0))),
        "bridge" => {
            let b = key(1);
            let bn = g.node_of.get(&b).copied();
            let between: Vec<(String, Vec<Value>)> =
                claims_of(&key(0)).into_iter().filter(|(_, c)| [2, 4].iter().any(|&i| matches!(c.get(i), Some(Value::Sym(x)) if g.node_of.get(x).copied() == bn))).collect();
            ("removing this edge disconnects its component; the claims on it".to_string(), between)
        }
        "orphan" => {
            let k = key(0);
            let t = k.split_once(':').map_or("?", |(t, _)| t).to_string();
            ("no claim links this entity to another".to_string(), vec![("entity".to_string(), vec![s(&k), s(&t)])])
        }
        "community" => {
            let id = args.get(1).cloned();
            let same: BTreeSet<String> = rows(&a, Some("community"))
                .into_iter()
                .filter(|(_, r)| r.get(1).cloned() == id)
                .filter_map(|(_, r)| match r.first() {
                    Some(Value::Sym(x)) => Some(x.clone()),
                    _ => None,
                })
                .collect();
            let inside: Vec<(String, Vec<Value>)> =
                claims_of(&key(0)).into_iter().filter(|(_, c)| [2, 4].iter().all(|&i| matches!(c.get(i), Some(Value::Sym(x)) if same.contains(x)))).collect();
            (format!("label propagation over the entity graph ({} rounds); its claims inside the community", a.communities.rounds), inside)
        }
        _ => {
            let id = args.first().cloned();
            let members: Vec<(String, Vec<Value>)> = rows(&a, Some("community")).into_iter().filter(|(_, r)| r.get(1).cloned() == id).collect();
            ("c-TF-IDF over the units naming the community's members; its members".to_string(), members)
        }
    };
    premises.truncate(limit);
    Ok(Some((method, premises)))
}
