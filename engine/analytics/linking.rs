//! Which entities a query names: the seeds of personalized PageRank (`tg search --mode
//! ppr|hybrid`) and the names `tg communities --entity` accepts.
//!
//! An entity is named when its **whole name** — the words of its key's name, legal forms
//! aside — appears in the query as a run of consecutive words, or the whole name of one
//! of its aliases (the other keys of its `same_as` class: "Novak" names Marek Novak once
//! the extractor's mention of "Novak" is merged with him) does. No partial names: a first
//! word or a surname alone matched every "Acme …" and every junk person named "… Advisory"
//! (measured, docs/SEARCH.md). A match inside a longer
//! match ("Acme Trading" inside "Acme Trading Products") does not count: the query names
//! the longer one. Nothing named, nothing seeded: the query is BM25's alone.
//!
//! Each seed weighs the IDF of the words that named it over the graph's names
//! (Σ ln(1 + nodes / nodes-whose-names-hold-the-word)), so a rare name pulls more than a
//! common one. Names and queries are compared as lower-cased words ([`words`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::graph::{EntityGraph, VALUE_TYPES};
use tg_text::terms::{is_stop, words};

/// Legal-form words that do not name an organisation by themselves.
pub const FORMS: &[&str] = &["ag", "bv", "co", "company", "corp", "corporation", "gmbh", "holdings", "inc", "limited", "llc", "llp", "ltd", "nv", "plc", "sa", "sarl", "the"];

/// The name words of a raw key (`Organization:beta holdings sa` → `beta`); `None` for a
/// value type or a name of legal forms or stop words only.
fn name_words(raw: &str) -> Option<Vec<String>> {
    let (typ, name) = raw.split_once(':')?;
    if VALUE_TYPES.contains(&typ) {
        return None;
    }
    let ws: Vec<String> = words(name).into_iter().filter(|w| !FORMS.contains(&w.as_str())).collect();
    if ws.is_empty() || ws.iter().all(|w| is_stop(w)) {
        return None;
    }
    Some(ws)
}

/// Every span (start, end) of the query where `name` occurs as consecutive words.
fn spans(query: &[String], name: &[String]) -> Vec<(usize, usize)> {
    if name.is_empty() || name.len() > query.len() {
        return vec![];
    }
    (0..=query.len() - name.len()).filter(|&i| query[i..i + name.len()] == *name).map(|i| (i, i + name.len())).collect()
}

/// The graph nodes a query names, each with its seed weight (see the module docs),
/// sorted by node.
pub fn link(g: &EntityGraph, query: &str) -> Vec<(usize, f64)> {
    let q = words(query);
    // Document frequency of each name word over the graph's nodes.
    let mut df: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    let mut names: Vec<(usize, Vec<String>)> = vec![];
    for (raw, &n) in &g.node_of {
        let Some(ws) = name_words(raw) else { continue };
        for w in &ws {
            df.entry(w.clone()).or_default().insert(n);
        }
        names.push((n, ws));
    }
    // Matches: (span, node, the words that matched).
    let mut found: Vec<((usize, usize), usize, Vec<String>)> = vec![];
    for (n, ws) in &names {
        for s in spans(&q, ws) {
            found.push((s, *n, ws.clone()));
        }
    }
    let inside = |a: (usize, usize), b: (usize, usize)| b.0 <= a.0 && a.1 <= b.1 && (b.1 - b.0) > (a.1 - a.0);
    let total = g.len().max(1) as f64;
    let mut weight: BTreeMap<usize, f64> = BTreeMap::new();
    for (s, n, ws) in &found {
        if found.iter().any(|(t, _, _)| inside(*s, *t)) {
            continue;
        }
        let w: f64 = ws.iter().map(|x| (1.0 + total / df.get(x).map_or(1, BTreeSet::len) as f64).ln()).sum();
        let e = weight.entry(*n).or_insert(0.0);
        if w > *e {
            *e = w;
        }
    }
    weight.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(keys: &[&str]) -> EntityGraph {
        let mut g = EntityGraph::default();
        for (i, k) in keys.iter().enumerate() {
            g.keys.push(k.to_string());
            g.types.push(k.split(':').next().unwrap_or("?").to_string());
            g.adj.push(vec![]);
            g.claims.push(vec![]);
            g.members.push(vec![k.to_string()]);
            g.node_of.insert(k.to_string(), i);
        }
        g
    }

    /// Whole names only, the longest match wins, a surname alone names nobody, and a query
    /// naming nothing seeds nothing.
    #[test]
    fn whole_names_longest_match_and_nothing_named() {
        let g =
            graph(&["Organization:acme trading ltd", "Organization:acme trading products ltd", "Person:marek novak", "Email:marek.novak@acme-trading.example", "Location:panama"]);
        let nodes = |q: &str| link(&g, q).into_iter().map(|(n, _)| g.keys[n].clone()).collect::<Vec<_>>();
        assert_eq!(nodes("where is Acme Trading Products registered"), ["Organization:acme trading products ltd"]);
        assert_eq!(nodes("wires from Acme Trading"), ["Organization:acme trading ltd"]);
        assert_eq!(nodes("director shared with Acme"), Vec::<String>::new());
        assert_eq!(nodes("Marek Novak denied"), ["Person:marek novak"]);
        assert_eq!(nodes("Novak denied"), Vec::<String>::new());
        assert_eq!(nodes("structuring advisory"), Vec::<String>::new());
        assert_eq!(nodes("registered in Panama"), ["Location:panama"]);
    }
}
