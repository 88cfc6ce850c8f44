//! `tg central`: who matters in the entity graph.
//!
//! - PageRank (damping 0.85, edge weights = claim counts).
//! - Degree: distinct neighbours.
//! - Betweenness (Brandes, unweighted shortest paths, normalised by (n-1)(n-2)/2): exact
//!   up to [`EXACT_LIMIT`] nodes; above, estimated from [`SAMPLES`] source nodes drawn
//!   with a fixed seed ([`SEED`]) and scaled by n / samples, so the same graph always gives
//!   the same estimate.
//! - God nodes: degree at least 3 and at least the mean degree plus two standard
//!   deviations — the hubs a case's claims lean on.
//! - Bridges: edges whose removal disconnects their component (Tarjan, iterative).
//! - Orphans: entities no claim links to anything.

use serde::Serialize;

use crate::graph::{EntityGraph, pagerank};

/// Largest graph whose betweenness is computed exactly.
pub const EXACT_LIMIT: usize = 2000;
/// Source nodes of the sampled betweenness.
pub const SAMPLES: usize = 256;
/// Seed of the sample.
pub const SEED: u64 = 22;

/// One entity's measures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measures {
    /// Entity key (class representative).
    pub entity: String,
    /// PageRank.
    #[serde(serialize_with = "fixed6")]
    pub pagerank: f64,
    /// Distinct neighbours.
    pub degree: usize,
    /// Normalised betweenness.
    #[serde(serialize_with = "fixed6")]
    pub betweenness: f64,
}

/// What `tg central` reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Centrality {
    /// Nodes.
    pub nodes: usize,
    /// Edges.
    pub edges: usize,
    /// `exact` or `sampled (256 sources, seed 22)`.
    pub betweenness_method: String,
    /// Every node, by PageRank (highest first), then key.
    pub ranking: Vec<Measures>,
    /// God nodes, by degree then key.
    pub god_nodes: Vec<String>,
    /// Bridge edges (a < b by key), sorted.
    pub bridges: Vec<(String, String)>,
    /// Entities without edges, sorted.
    pub orphans: Vec<String>,
}

/// Scores in JSON as text with six decimals, so output is byte-stable.
pub fn fixed6<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{x:.6}"))
}

/// splitmix64: a tiny fixed generator for the betweenness sample.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Betweenness of every node (Brandes), from all sources or a seeded sample.
pub fn betweenness(g: &EntityGraph) -> (Vec<f64>, String) {
    let n = g.len();
    let mut bc = vec![0.0; n];
    let (sources, method): (Vec<usize>, String) = if n <= EXACT_LIMIT {
        ((0..n).collect(), "exact".into())
    } else {
        let mut state = SEED;
        let mut picked = std::collections::BTreeSet::new();
        while picked.len() < SAMPLES {
            picked.insert((splitmix(&mut state) % n as u64) as usize);
        }
        (picked.into_iter().collect(), format!("sampled ({SAMPLES} sources, seed {SEED})"))
    };
    let mut sigma = vec![0.0f64; n];
    let mut dist = vec![-1i64; n];
    let mut delta = vec![0.0f64; n];
    let mut preds: Vec<Vec<usize>> = vec![vec![]; n];
    for &s in &sources {
        let mut order = Vec::new();
        for i in 0..n {
            sigma[i] = 0.0;
            dist[i] = -1;
            delta[i] = 0.0;
            preds[i].clear();
        }
        sigma[s] = 1.0;
        dist[s] = 0;
        let mut queue = std::collections::VecDeque::from([s]);
        while let Some(v) = queue.pop_front() {
            order.push(v);
            for &(w, _) in &g.adj[v] {
                if dist[w] < 0 {
                    dist[w] = dist[v] + 1;
                    queue.push_back(w);
                }
                if dist[w] == dist[v] + 1 {
                    sigma[w] += sigma[v];
                    preds[w].push(v);
                }
            }
        }
        for &w in order.iter().rev() {
            for &v in &preds[w] {
                delta[v] += sigma[v] / sigma[w] * (1.0 + delta[w]);
            }
            if w != s {
                bc[w] += delta[w];
            }
        }
    }
    let scale = if sources.len() < n && !sources.is_empty() { n as f64 / sources.len() as f64 } else { 1.0 };
    // Undirected: each pair counted from both ends; normalise by the number of pairs.
    let pairs = if n > 2 { ((n - 1) * (n - 2)) as f64 } else { 1.0 };
    for b in &mut bc {
        *b = *b * scale / pairs;
    }
    (bc, method)
}

/// Bridge edges (Tarjan's low-link, iterative, in node order), as node pairs (a < b).
pub fn bridges(g: &EntityGraph) -> Vec<(usize, usize)> {
    let n = g.len();
    let mut disc = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut time = 0;
    let mut out = vec![];
    for root in 0..n {
        if disc[root] != usize::MAX {
            continue;
        }
        // (node, parent, next neighbour index)
        let mut stack: Vec<(usize, usize, usize)> = vec![(root, usize::MAX, 0)];
        disc[root] = time;
        low[root] = time;
        time += 1;
        while let Some(top) = stack.last_mut() {
            let (v, parent) = (top.0, top.1);
            if top.2 < g.adj[v].len() {
                let w = g.adj[v][top.2].0;
                top.2 += 1;
                if w == parent {
                    continue;
                }
                if disc[w] == usize::MAX {
                    disc[w] = time;
                    low[w] = time;
                    time += 1;
                    stack.push((w, v, 0));
                } else {
                    low[v] = low[v].min(disc[w]);
                }
            } else {
                stack.pop();
                if parent != usize::MAX {
                    low[parent] = low[parent].min(low[v]);
                    if low[v] > disc[parent] {
                        out.push((parent.min(v), parent.max(v)));
                    }
                }
            }
        }
    }
    out.sort_unstable();
    out
}

/// Every measure over `g`.
pub fn centrality(g: &EntityGraph) -> Centrality {
    let n = g.len();
    let pr = pagerank(g, &[], 0.85);
    let (bc, method) = betweenness(g);
    let degree: Vec<usize> = (0..n).map(|i| g.adj[i].len()).collect();
    let mut ranking: Vec<Measures> = (0..n).map(|i| Measures { entity: g.keys[i].clone(), pagerank: pr[i], degree: degree[i], betweenness: bc[i] }).collect();
    ranking.sort_by(|a, b| b.pagerank.total_cmp(&a.pagerank).then_with(|| a.entity.cmp(&b.entity)));
    let mean = if n == 0 { 0.0 } else { degree.iter().sum::<usize>() as f64 / n as f64 };
    let var = if n == 0 { 0.0 } else { degree.iter().map(|&d| (d as f64 - mean).powi(2)).sum::<f64>() / n as f64 };
    let cut = mean + 2.0 * var.sqrt();
    let mut gods: Vec<usize> = (0..n).filter(|&i| degree[i] >= 3 && degree[i] as f64 >= cut).collect();
    gods.sort_by(|&a, &b| degree[b].cmp(&degree[a]).then_with(|| g.keys[a].cmp(&g.keys[b])));
    Centrality {
        nodes: n,
        edges: g.edges(),
        betweenness_method: method,
        ranking,
        god_nodes: gods.into_iter().map(|i| g.keys[i].clone()).collect(),
        bridges: bridges(g).into_iter().map(|(a, b)| (g.keys[a].clone(), g.keys[b].clone())).collect(),
        orphans: (0..n).filter(|&i| degree[i] == 0).map(|i| g.keys[i].clone()).collect(),
    }
}

/// The text form: a table of the `top` best by PageRank, then god nodes, bridges, orphans.
pub fn render(c: &Centrality, top: usize) -> String {
    let mut out = format!("entity graph: {} nodes, {} edges; betweenness {}\n", c.nodes, c.edges, c.betweenness_method);
    out.push_str("rank\tpagerank\tdegree\tbetweenness\tentity\n");
    for (i, m) in c.ranking.iter().take(top).enumerate() {
        out.push_str(&format!("{}\t{:.6}\t{}\t{:.6}\t{}\n", i + 1, m.pagerank, m.degree, m.betweenness, m.entity));
    }
    out.push_str(&format!("god nodes ({}): {}\n", c.god_nodes.len(), c.god_nodes.join(", ")));
    out.push_str(&format!("bridges ({}):\n", c.bridges.len()));
    for (a, b) in &c.bridges {
        out.push_str(&format!("  {a} -- {b}\n"));
    }
    out.push_str(&format!("orphans ({}): {}\n", c.orphans.len(), c.orphans.join(", ")));
    out
}
