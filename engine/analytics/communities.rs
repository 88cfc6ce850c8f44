//! `tg communities`: the case's sub-networks and what each is about.
//!
//! Label propagation over the entity graph with fixed tie-breaks: every node starts with
//! its own label; rounds visit nodes in key order and give each the label of greatest
//! total edge weight among its neighbours, keeping its own label when that is among the
//! best, else taking the smallest; until no label changes (at most 100 rounds). The
//! result depends only on the graph. Communities are numbered by size (largest first),
//! then by their smallest key. Recomputed from the graph on each use: it costs
//! milliseconds for thousands of entities, and the graph is what changes with documents.
//!
//! Each community is labelled by c-TF-IDF (BERTopic's class-based TF-IDF): the texts of
//! the units (chunks and claims) naming its members form one class document;
//! `tf(t, c) / |c| · ln(1 + A / f(t))`, A the mean class length, f(t) the term's count
//! over all classes. Its representative documents are those with most such units.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::graph::EntityGraph;
use tg_store::{Store, StoreError};
use tg_text::terms::{Analyzer, is_stop, words};

/// Label terms per community.
pub const LABEL_TERMS: usize = 5;
/// Representative documents per community.
pub const REPRESENTATIVES: usize = 3;

/// One community.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Community {
    /// Number, from 1 (largest first).
    pub id: usize,
    /// Member entity keys, sorted.
    pub members: Vec<String>,
    /// Label terms (the most frequent surface word of each stem), best first.
    pub label: Vec<String>,
    /// c-TF-IDF of each label term, same order (JSON: six decimals, as text).
    #[serde(serialize_with = "fixed6s")]
    pub weights: Vec<f64>,
    /// Documents with the most units naming a member, with their counts.
    pub documents: Vec<(String, usize)>,
}

/// Every community (singletons included) of the graph.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Communities {
    /// Communities with two or more members, by id.
    pub communities: Vec<Community>,
    /// Entities alone in their community.
    pub singletons: Vec<String>,
    /// Node → community id (0 for a singleton).
    #[serde(skip)]
    pub of: Vec<usize>,
    /// Label propagation rounds run.
    pub rounds: usize,
}

fn fixed6s<S: serde::Serializer>(x: &[f64], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(x.len()))?;
    for v in x {
        seq.serialize_element(&format!("{v:.6}"))?;
    }
    seq.end()
}

/// Label propagation with fixed tie-breaks (see the module docs): a label per node.
pub fn propagate(g: &EntityGraph) -> (Vec<usize>, usize) {
    let n = g.len();
    let mut label: Vec<usize> = (0..n).collect();
    let mut rounds = 0;
    for _ in 0..100 {
        rounds += 1;
        let mut changed = false;
        for v in 0..n {
            if g.adj[v].is_empty() {
                continue;
            }
            let mut w: BTreeMap<usize, f64> = BTreeMap::new();
            for &(u, x) in &g.adj[v] {
                *w.entry(label[u]).or_default() += x;
            }
            let best = w.values().copied().fold(f64::MIN, f64::max);
            let own = w.get(&label[v]).is_some_and(|&x| x == best);
            if !own {
                let pick = w.iter().find(|e| *e.1 == best).map(|e| *e.0).unwrap_or(label[v]);
                if pick != label[v] {
                    label[v] = pick;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    (label, rounds)
}

/// Communities of the store's entity graph, labelled from the store's indexed units.
pub fn communities(store: &Store, g: &EntityGraph) -> Result<Communities, StoreError> {
    let (big, of, rounds) = number(g);
    label(store, g, big, of, rounds)
}

/// The communities of two or more members, numbered (largest first, then smallest key),
/// and each node's community number (0: alone); with the rounds propagation ran.
pub fn number(g: &EntityGraph) -> (Vec<Vec<usize>>, Vec<usize>, usize) {
    let (label, rounds) = propagate(g);
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (v, &l) in label.iter().enumerate() {
        groups.entry(l).or_default().push(v);
    }
    let mut big: Vec<Vec<usize>> = groups.values().filter(|m| m.len() > 1).cloned().collect();
    big.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| g.keys[a[0]].cmp(&g.keys[b[0]])));
    let mut of = vec![0; g.len()];
    for (i, m) in big.iter().enumerate() {
        for &v in m {
            of[v] = i + 1;
        }
    }
    (big, of, rounds)
}

/// Labels and representative documents of numbered communities (see [`number`]).
fn label(store: &Store, g: &EntityGraph, big: Vec<Vec<usize>>, of: Vec<usize>, rounds: usize) -> Result<Communities, StoreError> {
    let singletons: Vec<String> = (0..g.len()).filter(|&v| of[v] == 0).map(|v| g.keys[v].clone()).collect();

    // Class documents: the units naming a member of each community.
    let an = Analyzer::default();
    let mut tf: Vec<BTreeMap<String, f64>> = vec![BTreeMap::new(); big.len()];
    let mut surface: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    let mut docs: Vec<BTreeMap<String, usize>> = vec![BTreeMap::new(); big.len()];
    let mut texts: BTreeMap<u32, String> = BTreeMap::new();
    let mut ids: BTreeMap<u32, String> = BTreeMap::new();
    for (num, u) in store.all_units()? {
        let mut cs: Vec<usize> = u.entities.iter().filter_map(|e| g.node_of.get(e)).map(|&v| of[v]).filter(|&c| c > 0).collect();
        cs.sort_unstable();
        cs.dedup();
        if cs.is_empty() {
            continue;
        }
        if let std::collections::btree_map::Entry::Vacant(e) = texts.entry(num) {
            e.insert(store.text_of(num)?.unwrap_or_default());
            ids.insert(num, store.doc_id(num)?.unwrap_or_default());
        }
        let slice = texts[&num].get(u.start as usize..u.end as usize).unwrap_or("");
        let ws: Vec<String> = words(slice).into_iter().filter(|w| w.chars().count() >= 3 && w.chars().any(char::is_alphabetic) && !is_stop(w)).collect();
        for c in cs {
            *docs[c - 1].entry(ids[&num].clone()).or_default() += 1;
            for w in &ws {
                let s = an.stem(w);
                *tf[c - 1].entry(s.clone()).or_default() += 1.0;
                *surface.entry(s).or_default().entry(w.clone()).or_default() += 1;
            }
        }
    }
    let mut total: BTreeMap<&str, f64> = BTreeMap::new();
    for t in &tf {
        for (k, v) in t {
            *total.entry(k.as_str()).or_default() += v;
        }
    }
    let sizes: Vec<f64> = tf.iter().map(|t| t.values().sum::<f64>()).collect();
    let avg = if sizes.is_empty() { 0.0 } else { sizes.iter().sum::<f64>() / sizes.len() as f64 };
    let mut out = vec![];
    for (i, m) in big.iter().enumerate() {
        let mut scored: Vec<(f64, &String)> = tf[i].iter().map(|(t, &x)| ((x / sizes[i].max(1.0)) * (1.0 + avg / total[t.as_str()]).ln(), t)).collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        scored.truncate(LABEL_TERMS);
        let label = scored
            .iter()
            .map(|(_, s)| surface.get(*s).and_then(|f| f.iter().max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0))).map(|(w, _)| w.clone())).unwrap_or_else(|| (*s).clone()))
            .collect();
        let mut d: Vec<(String, usize)> = docs[i].iter().map(|(k, &v)| (k.clone(), v)).collect();
        d.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let mut members: Vec<String> = m.iter().map(|&v| g.keys[v].clone()).collect();
        members.sort();
        out.push(Community { id: i + 1, members, label, weights: scored.iter().map(|x| x.0).collect(), documents: d });
    }
    Ok(Communities { communities: out, singletons, of, rounds })
}

/// The text form: each community with its label, members and representative documents
/// (all its documents when `all_docs`).
pub fn render(c: &Communities, all_docs: bool) -> String {
    let mut out = format!("{} communities, {} singletons (label propagation, {} rounds)\n", c.communities.len(), c.singletons.len(), c.rounds);
    for k in &c.communities {
        out.push_str(&format!("community {} ({} members): {}\n", k.id, k.members.len(), k.label.join(", ")));
        out.push_str(&format!("  members: {}\n", k.members.join(", ")));
        let docs: Vec<String> = k.documents.iter().take(if all_docs { usize::MAX } else { REPRESENTATIVES }).map(|(d, n)| format!("{d} ({n})")).collect();
        out.push_str(&format!("  {}: {}\n", if all_docs { "documents" } else { "representative documents" }, docs.join(", ")));
    }
    out
}

/// Why `tg communities --entity/--topic` has nothing to show.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// `--topic N` past the communities the case has.
    #[error("there is no community {topic} (the case has {communities})")]
    NoCommunity {
        /// The number asked for.
        topic: usize,
        /// How many communities there are.
        communities: usize,
    },
    /// No entity of the graph has the name.
    #[error("no entity of the graph is named {0:?}")]
    NoEntity(String),
    /// The entities named are in no community: no claim links them to another entity.
    #[error("{} {} in no community: no claim links {} to another entity", .0.join(", "), if .0.len() == 1 { "is" } else { "are" }, if .0.len() == 1 { "it" } else { "them" })]
    Alone(Vec<String>),
}

/// The communities to show: all; the community of `entity` (a key, or a name as a query
/// names it: graph-first); or community `topic` (topic-first). An entity alone in its
/// community or an unknown one is an error naming it.
pub fn select(g: &EntityGraph, c: &Communities, entity: Option<&str>, topic: Option<usize>) -> Result<Communities, SelectError> {
    let pick =
        |ids: Vec<usize>| Communities { communities: c.communities.iter().filter(|k| ids.contains(&k.id)).cloned().collect(), singletons: vec![], of: vec![], rounds: c.rounds };
    if let Some(t) = topic {
        if t == 0 || t > c.communities.len() {
            return Err(SelectError::NoCommunity { topic: t, communities: c.communities.len() });
        }
        return Ok(pick(vec![t]));
    }
    let Some(e) = entity else { return Ok(c.clone()) };
    let nodes: Vec<usize> = match g.node_of.get(e) {
        Some(&n) => vec![n],
        None => crate::search::seeds(g, e),
    };
    if nodes.is_empty() {
        return Err(SelectError::NoEntity(e.to_string()));
    }
    let mut ids: Vec<usize> = nodes.iter().map(|&n| c.of[n]).filter(|&i| i > 0).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        let keys: Vec<&str> = nodes.iter().map(|&n| g.keys[n].as_str()).collect();
        return Err(SelectError::Alone(keys.iter().map(|k| k.to_string()).collect()));
    }
    Ok(pick(ids))
}
