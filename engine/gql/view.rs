//! The property-graph view of a store (docs/GQL.md): entities, documents and chunks as
//! nodes; claims as relationships typed by their relation, carrying modality, polarity,
//! asserter, tag, validity date, their attributes and the citation `[doc:start-end]`.
//! Entities that a `same_as` relation links are one node (union-find, the smallest key
//! represents the class) unless the raw view is asked for.

use std::collections::BTreeMap;
use std::path::Path;

use crate::graph::Graph;
use crate::value::{NodeId, Value};
use tg_store::{Store, StoreError, Value as SVal};

/// How the view treats identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identity {
    /// `same_as` classes are one node.
    Merged,
    /// Every entity key is its own node.
    Raw,
}

fn sym(v: Option<&SVal>) -> String {
    match v {
        Some(SVal::Sym(s)) => s.clone(),
        Some(SVal::Num(n)) => n.to_string(),
        None => String::new(),
    }
}

/// An attribute value as a GQL value: a transfer's amounts and count (`amount`,
/// `total_amount`, `transfers`) become numbers, the rest stays text.
fn attr_value(key: &str, v: &str) -> Value {
    if matches!(key, "amount" | "total_amount" | "transfers") {
        if let Ok(i) = v.parse::<i64>() {
            return Value::Int(i);
        }
        if let Ok(f) = v.parse::<f64>() {
            return Value::Float(f);
        }
    }
    Value::str(v)
}

fn find(parent: &mut BTreeMap<String, String>, k: &str) -> String {
    let mut cur = k.to_string();
    while let Some(p) = parent.get(&cur) {
        if *p == cur {
            break;
        }
        cur = p.clone();
    }
    cur
}

/// The `same_as` classes: each entity key to its representative (smallest key).
fn identity_classes(store: &Store) -> Result<BTreeMap<String, String>, StoreError> {
    let mut pairs: Vec<(String, String)> = vec![];
    if store.relation_names()?.iter().any(|r| r == "same_as") {
        for f in store.lookup("same_as", &[])? {
            pairs.push((sym(f.first()), sym(f.get(1))));
        }
        for (f, _) in store.derived_facts("same_as")? {
            pairs.push((sym(f.first()), sym(f.get(1))));
        }
    }
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    for (a, b) in pairs {
        let (ra, rb) = (find(&mut parent, &a), find(&mut parent, &b));
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
            let r = find(&mut parent, &k);
            (k, r)
        })
        .collect())
}

/// Why a store's graph view could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// There is no store at the path.
    #[error("no store at {} (run `tg build` first, or pass --db or --script)", .0.display())]
    NoStore(std::path::PathBuf),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A property `tg load` stored does not decode (a damaged store).
    #[error("stored property {literal}: {detail}")]
    Property {
        /// The stored literal.
        literal: String,
        /// What is wrong with it.
        detail: String,
    },
}

/// Opens the store at `path` and builds its view with `same_as` classes merged.
pub fn from_store(path: &Path) -> Result<Graph, ViewError> {
    from_store_with(path, Identity::Merged)
}

/// Opens the store at `path` and builds its view.
pub fn from_store_with(path: &Path, identity: Identity) -> Result<Graph, ViewError> {
    if !path.exists() {
        return Err(ViewError::NoStore(path.to_path_buf()));
    }
    let store = Store::open_existing(path)?;
    build(&store, identity)
}

/// Builds the view of an open store.
pub fn build(store: &Store, identity: Identity) -> Result<Graph, ViewError> {
    let e = ViewError::Store;
    let classes = if identity == Identity::Merged { identity_classes(store)? } else { BTreeMap::new() };
    let rep = |k: &str| classes.get(k).cloned().unwrap_or_else(|| k.to_string());
    let mut g = Graph::default();

    // Documents and chunks.
    let mut docs: BTreeMap<String, NodeId> = BTreeMap::new();
    for f in store.lookup("document", &[]).map_err(e)? {
        let id = sym(f.first());
        let mut p = BTreeMap::new();
        p.insert("id".to_string(), Value::str(&id));
        p.insert("format".to_string(), Value::str(&sym(f.get(1))));
        docs.insert(id, g.add_node(vec!["Document".into()], p));
    }
    for f in store.lookup("chunk", &[]).map_err(e)? {
        let doc = sym(f.first());
        let index = match f.get(1) {
            Some(SVal::Num(n)) => *n as i64,
            _ => 0,
        };
        let mut p = BTreeMap::new();
        p.insert("doc".to_string(), Value::str(&doc));
        p.insert("index".to_string(), Value::Int(index));
        let args = [SVal::Sym(doc.clone()), SVal::Num(index as i32), f.get(2).cloned().unwrap_or(SVal::Num(-1))];
        if let Some(c) = store.supports("chunk", &args).map_err(e)?.first() {
            p.insert("citation".to_string(), Value::str(&format!("[{}:{}-{}]", c.doc, c.start, c.end)));
            p.insert("text".to_string(), Value::str(&c.quote));
        }
        let n = g.add_node(vec!["Chunk".into()], p);
        if let Some(&d) = docs.get(&doc) {
            g.add_rel(d, n, "HAS_CHUNK".into(), BTreeMap::new());
        }
    }

    // Entities: one node per identity class.
    let mut ents: BTreeMap<String, NodeId> = BTreeMap::new();
    let mut surfaces: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut mentions: Vec<(String, String, String)> = vec![];
    for f in store.lookup("mention", &[]).map_err(e)? {
        let (doc, ent, surface) = (sym(f.first()), sym(f.get(1)), sym(f.get(2)));
        surfaces.entry(rep(&ent)).or_default().push(surface.clone());
        mentions.push((doc, ent, surface));
    }
    let mut attrs: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    for f in store.lookup("entity_attr", &[]).map_err(e)? {
        let (ent, k, v) = (sym(f.first()), sym(f.get(1)), sym(f.get(2)));
        attrs.entry(rep(&ent)).or_default().insert(k.clone(), attr_value(&k, &v));
    }
    // Search index, centrality and communities (issue 22): `CALL tg.search`, and the
    // `pagerank`, `degree`, `betweenness`, `community` properties of entity nodes.
    // The measures are the facts `tg derive` stored while they are current, else computed.
    let ix = tg_analytics::search::MemIndex::load(store).map_err(e)?;
    let (central, community_of): (tg_analytics::central::Centrality, BTreeMap<String, usize>) = match tg_analytics::stored::load(store).map_err(e)? {
        Some(a) => (a.central, a.graph.keys.iter().cloned().zip(a.communities.of.iter().copied()).collect()),
        None => {
            let (_, of, _) = tg_analytics::communities::number(&ix.graph);
            (tg_analytics::central::centrality(&ix.graph), ix.graph.keys.iter().cloned().zip(of).collect())
        }
    };
    let measures: BTreeMap<&str, &tg_analytics::central::Measures> = central.ranking.iter().map(|m| (m.entity.as_str(), m)).collect();
    let mut members: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for f in store.lookup("entity", &[]).map_err(e)? {
        let (key, typ) = (sym(f.first()), sym(f.get(1)));
        members.entry(rep(&key)).or_default().push((key, typ));
    }
    for (r, ms) in &members {
        let mut labels = vec!["Entity".to_string()];
        for (_, t) in ms {
            if !labels.contains(t) {
                labels.push(t.clone());
            }
        }
        let mut forms = surfaces.get(r).cloned().unwrap_or_default();
        forms.sort();
        forms.dedup();
        // The display name: the most frequent surface form, ties to the smallest.
        let name = {
            let all = surfaces.get(r).cloned().unwrap_or_default();
            let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
            for s in &all {
                *counts.entry(s.as_str()).or_default() += 1;
            }
            let best = counts.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))).map(|(s, _)| s.to_string());
            best.unwrap_or_else(|| r.split_once(':').map_or(r.clone(), |(_, n)| n.to_string()))
        };
        let mut p = attrs.get(r).cloned().unwrap_or_default();
        p.insert("name".into(), Value::str(&name));
        p.insert("key".into(), Value::str(r));
        p.insert("surfaces".into(), Value::list(forms.iter().map(|s| Value::str(s)).collect()));
        if let Some(&n) = ix.graph.node_of.get(r) {
            let round6 = |x: f64| (x * 1e6).round() / 1e6;
            if let Some(m) = measures.get(ix.graph.keys[n].as_str()) {
                p.insert("pagerank".into(), Value::Float(round6(m.pagerank)));
                p.insert("degree".into(), Value::Int(m.degree as i64));
                p.insert("betweenness".into(), Value::Float(round6(m.betweenness)));
            }
            if let Some(&c) = community_of.get(&ix.graph.keys[n])
                && c > 0
            {
                p.insert("community".into(), Value::Int(c as i64));
            }
        }
        if ms.len() > 1 {
            let mut keys: Vec<&String> = ms.iter().map(|(k, _)| k).collect();
            keys.sort();
            keys.dedup();
            p.insert("members".into(), Value::list(keys.into_iter().map(|k| Value::str(k)).collect()));
        }
        let n = g.add_node(labels, p);
        for (k, _) in ms {
            ents.insert(k.clone(), n);
        }
    }
    let mut seen_mentions = std::collections::BTreeSet::new();
    for (doc, ent, surface) in &mentions {
        let (Some(&n), Some(&d)) = (ents.get(ent), docs.get(doc)) else { continue };
        if seen_mentions.insert((n, d, surface.clone())) {
            let mut p = BTreeMap::new();
            p.insert("surface".to_string(), Value::str(surface));
            g.add_rel(n, d, "MENTIONED_IN".into(), p);
        }
    }

    // Claims.
    let mut claim_attrs: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    for f in store.lookup("claim_attr", &[]).map_err(e)? {
        let (id, k, v) = (sym(f.first()), sym(f.get(1)), sym(f.get(2)));
        claim_attrs.entry(id).or_default().insert(k.clone(), attr_value(&k, &v));
    }
    for (rel, key) in [("claim_valid", "t_valid"), ("claim_correction", "correction"), ("claim_audit", "audit"), ("claim_generated", "source")] {
        for f in store.lookup(rel, &[]).map_err(e)? {
            claim_attrs.entry(sym(f.first())).or_default().insert(key.into(), Value::str(&sym(f.get(1))));
        }
    }
    for f in store.lookup("claim", &[]).map_err(e)? {
        let id = sym(f.first());
        let subject = sym(f.get(2));
        let object = sym(f.get(4));
        let node_of = |k: &str, g: &mut Graph, ents: &mut BTreeMap<String, NodeId>| -> NodeId {
            if let Some(&n) = ents.get(k) {
                return n;
            }
            let mut p = BTreeMap::new();
            p.insert("name".to_string(), Value::str(k.split_once(':').map_or(k, |(_, n)| n)));
            p.insert("key".to_string(), Value::str(k));
            let n = g.add_node(vec!["Entity".into()], p);
            ents.insert(k.to_string(), n);
            n
        };
        let s = node_of(&subject, &mut g, &mut ents);
        let o = node_of(&object, &mut g, &mut ents);
        let mut p = claim_attrs.get(&id).cloned().unwrap_or_default();
        p.insert("id".into(), Value::str(&id));
        p.insert("doc".into(), Value::str(&sym(f.get(1))));
        p.insert("modality".into(), Value::str(&sym(f.get(5))));
        p.insert("polarity".into(), Value::str(&sym(f.get(6))));
        p.insert("asserter".into(), Value::str(&sym(f.get(7))));
        let cites = store.supports("claim", &f).map_err(e)?;
        if let Some(c) = cites.first() {
            p.insert("citation".into(), Value::str(&format!("[{}:{}-{}]", c.doc, c.start, c.end)));
            p.insert("quote".into(), Value::str(&c.quote));
            p.insert("tag".into(), Value::str(c.tag.name()));
        }
        if cites.len() > 1 {
            p.insert("citations".into(), Value::list(cites.iter().map(|c| Value::str(&format!("[{}:{}-{}]", c.doc, c.start, c.end))).collect()));
        }
        g.add_rel(s, o, sym(f.get(3)), p);
    }
    crate::load::add_to_view(store, &mut g)?;
    g.search = crate::graph::SearchIndex(Some(std::rc::Rc::new(ix)));
    Ok(g)
}
