//! The case's entity graph, the input of centrality, communities and personalized
//! PageRank: one node per entity (a `same_as` class is one node, represented by its
//! smallest key, as in the GQL view), one undirected weighted edge per pair of entities
//! some claim links (weight: the number of such claims; denied claims link nothing).
//! Dates and amounts are values, not parties: they are not nodes.
//!
//! Nodes are numbered in key order and every adjacency list is sorted, so every algorithm
//! over the graph visits it in one order whatever the store's history.

use std::collections::BTreeMap;

use tg_store::{Store, StoreError, Value};

/// Entity types that are values rather than parties (not nodes of the graph).
pub const VALUE_TYPES: &[&str] = &["Date", "Money"];

/// One claim as the graph keeps it (for explanations and topic labels).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimRef {
    /// Claim id.
    pub id: String,
    /// Document id.
    pub doc: String,
    /// Relation.
    pub relation: String,
    /// The claim's full fact arguments (to cite it).
    pub args: Vec<Value>,
}

/// The entity graph.
#[derive(Clone, Debug, Default)]
pub struct EntityGraph {
    /// Node keys (class representatives), sorted.
    pub keys: Vec<String>,
    /// Each node's entity type (of its representative; `?` if unknown).
    pub types: Vec<String>,
    /// Neighbours with edge weights, sorted by neighbour.
    pub adj: Vec<Vec<(usize, f64)>>,
    /// Each node's claims (as subject or object), sorted by id.
    pub claims: Vec<Vec<ClaimRef>>,
    /// Raw entity key → node.
    pub node_of: BTreeMap<String, usize>,
    /// Node → its raw member keys, sorted.
    pub members: Vec<Vec<String>>,
}

fn sym(v: Option<&Value>) -> String {
    match v {
        Some(Value::Sym(s)) => s.clone(),
        Some(Value::Num(n)) => n.to_string(),
        None => String::new(),
    }
}

fn find(parent: &BTreeMap<String, String>, k: &str) -> String {
    let mut cur = k.to_string();
    while let Some(p) = parent.get(&cur) {
        if *p == cur {
            break;
        }
        cur = p.clone();
    }
    cur
}

/// Raw entity key → its class representative (smallest key), from stored and derived `same_as`.
pub fn classes(store: &Store) -> Result<BTreeMap<String, String>, StoreError> {
    let mut pairs: Vec<(String, String)> = vec![];
    if store.schema("same_as")?.is_some() {
        for f in store.lookup("same_as", &[])? {
            pairs.push((sym(f.first()), sym(f.get(1))));
        }
        for (f, _) in store.derived_facts("same_as")? {
            pairs.push((sym(f.first()), sym(f.get(1))));
        }
    }
    pairs.sort();
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    for (a, b) in pairs {
        let (ra, rb) = (find(&parent, &a), find(&parent, &b));
        if ra != rb {
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            parent.insert(hi, lo.clone());
            parent.entry(lo.clone()).or_insert(lo);
        }
    }
    let keys: Vec<String> = parent.keys().cloned().collect();
    Ok(keys
        .into_iter()
        .map(|k| {
            let r = find(&parent, &k);
            (k, r)
        })
        .collect())
}

fn type_of(key: &str) -> &str {
    key.split_once(':').map_or("?", |(t, _)| t)
}

impl EntityGraph {
    /// Builds the graph from the store's `entity` and `claim` facts and `same_as` classes.
    pub fn from_store(store: &Store) -> Result<EntityGraph, StoreError> {
        let classes = classes(store)?;
        let rep = |k: &str| classes.get(k).cloned().unwrap_or_else(|| k.to_string());
        let mut raw: BTreeMap<String, String> = BTreeMap::new(); // raw key → rep
        if store.schema("entity")?.is_some() {
            for f in store.lookup("entity", &[])? {
                let k = sym(f.first());
                if !VALUE_TYPES.contains(&sym(f.get(1)).as_str()) {
                    raw.insert(k.clone(), rep(&k));
                }
            }
        }
        let mut claims = vec![];
        if store.schema("claim")?.is_some() {
            for f in store.lookup("claim", &[])? {
                if sym(f.get(5)) == "denied" {
                    continue;
                }
                let (s, o) = (sym(f.get(2)), sym(f.get(4)));
                if VALUE_TYPES.contains(&type_of(&s)) || VALUE_TYPES.contains(&type_of(&o)) {
                    continue;
                }
                raw.entry(s.clone()).or_insert_with(|| rep(&s));
                raw.entry(o.clone()).or_insert_with(|| rep(&o));
                claims.push((s, o, ClaimRef { id: sym(f.first()), doc: sym(f.get(1)), relation: sym(f.get(3)), args: f.clone() }));
            }
        }
        let mut reps: Vec<String> = raw.values().cloned().collect();
        reps.sort();
        reps.dedup();
        let index: BTreeMap<String, usize> = reps.iter().enumerate().map(|(i, k)| (k.clone(), i)).collect();
        let mut g = EntityGraph {
            types: reps.iter().map(|k| type_of(k).to_string()).collect(),
            adj: vec![vec![]; reps.len()],
            claims: vec![vec![]; reps.len()],
            members: vec![vec![]; reps.len()],
            keys: reps,
            node_of: BTreeMap::new(),
        };
        for (k, r) in &raw {
            let n = index[r];
            g.node_of.insert(k.clone(), n);
            g.members[n].push(k.clone());
        }
        let mut weights: BTreeMap<(usize, usize), f64> = BTreeMap::new();
        for (s, o, c) in claims {
            let (a, b) = (g.node_of[&s], g.node_of[&o]);
            g.claims[a].push(c.clone());
            if a != b {
                g.claims[b].push(c);
                *weights.entry((a.min(b), a.max(b))).or_default() += 1.0;
            }
        }
        for ((a, b), w) in weights {
            g.adj[a].push((b, w));
            g.adj[b].push((a, w));
        }
        for l in &mut g.adj {
            l.sort_by_key(|x| x.0);
        }
        for c in &mut g.claims {
            c.sort_by(|x, y| x.id.cmp(&y.id));
            c.dedup_by(|x, y| x.id == y.id);
        }
        Ok(g)
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the graph has no nodes.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Number of edges.
    pub fn edges(&self) -> usize {
        self.adj.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// A node's weighted degree.
    pub fn strength(&self, n: usize) -> f64 {
        self.adj[n].iter().map(|x| x.1).sum()
    }
}

/// PageRank over `g`, personalized when `seeds` is non-empty (teleport only to the seeds,
/// uniformly); `damping` is the probability of following an edge. Power iteration in node
/// order until the L1 change is below 1e-12 or 200 rounds: deterministic to the last bit.
pub fn pagerank(g: &EntityGraph, seeds: &[usize], damping: f64) -> Vec<f64> {
    let n = g.len();
    if n == 0 {
        return vec![];
    }
    let mut teleport = vec![0.0; n];
    if seeds.is_empty() {
        teleport.iter_mut().for_each(|t| *t = 1.0 / n as f64);
    } else {
        for &s in seeds {
            teleport[s] += 1.0 / seeds.len() as f64;
        }
    }
    pagerank_from(g, &teleport, damping)
}

/// PageRank with a given teleport distribution (one weight per node, summing to 1): the
/// personalized PageRank of weighted seeds.
pub fn pagerank_from(g: &EntityGraph, teleport: &[f64], damping: f64) -> Vec<f64> {
    let n = g.len();
    if n == 0 || teleport.len() != n {
        return vec![0.0; n];
    }
    let teleport = teleport.to_vec();
    let strength: Vec<f64> = (0..n).map(|i| g.strength(i)).collect();
    let mut r = teleport.clone();
    for _ in 0..200 {
        let mut next = vec![0.0; n];
        let mut dangling = 0.0;
        for i in 0..n {
            if strength[i] == 0.0 {
                dangling += r[i];
                continue;
            }
            for &(j, w) in &g.adj[i] {
                next[j] += damping * r[i] * w / strength[i];
            }
        }
        // Mass that cannot move (isolated nodes) and the teleport share go back to the teleport set.
        let back = (1.0 - damping) + damping * dangling;
        for i in 0..n {
            next[i] += back * teleport[i];
        }
        let diff: f64 = next.iter().zip(&r).map(|(a, b)| (a - b).abs()).sum();
        r = next;
        if diff < 1e-12 {
            break;
        }
    }
    r
}
