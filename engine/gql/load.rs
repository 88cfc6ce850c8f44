//! `tg load FILE.cypher`: a CREATE script stored into a case as a document of its own.
//! The script runs into an in-memory graph first (a failing script writes nothing); then
//! the script text becomes the document's canonical text and every node, label, property
//! and relationship becomes a fact citing the bytes of the pattern that created it, tagged
//! GENERATED: a loaded graph is what its author asserted, never ground truth derived by tg.
//! The view (`view`) turns the facts back into the author's nodes and relationships.

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::GqlError;
use crate::graph::Graph;
use crate::value::Value;
use tg_store::{CitedFact, ColumnType, NewDocument, SourceDigest, Store, StoreError, Tag, Value as SVal};

/// The format recorded for a loaded script's document; `tg build` keeps such documents.
pub const FORMAT: &str = tg_store::SCRIPT_FORMAT;

/// `graph_node(doc, node)`: a node a loaded script created (cites its node pattern).
pub const NODE: &str = "graph_node";
/// `graph_label(node, label)`: one label of a loaded node.
pub const LABEL: &str = "graph_label";
/// `graph_rel(rel, src, type, dst)`: a relationship a loaded script created (cites the
/// pattern from its start node to its end node).
pub const REL: &str = "graph_rel";
/// `graph_prop(element, key, value)`: a property of a loaded node or relationship, the
/// value written as a Cypher literal.
pub const PROP: &str = "graph_prop";

/// Why a load failed; the store is untouched in every case.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The script could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The script.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The file does not begin like a Cypher script (its contents are not shown).
    #[error("{path} is not a CREATE script: it does not begin with a Cypher clause (its contents are not shown)")]
    NotAScript {
        /// The file.
        path: String,
    },
    /// The script failed to parse or run.
    #[error("script {path} failed: {error}")]
    Script {
        /// The script.
        path: String,
        /// The GQL error.
        error: GqlError,
    },
    /// A property value that a store cannot hold (a node, relationship, path or map).
    #[error("script {path}: property `{key}` holds a {kind}, which a store cannot hold")]
    Unstorable {
        /// The script.
        path: String,
        /// The property key.
        key: String,
        /// The value's type.
        kind: &'static str,
    },
    /// The store refused the document.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a load did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loaded {
    /// The stored script is byte-identical: nothing was written.
    Unchanged,
    /// The script's document and facts were written (replacing an earlier version).
    Written {
        /// Nodes created.
        nodes: usize,
        /// Relationships created.
        rels: usize,
        /// Facts stored.
        facts: usize,
    },
}

/// A property value as a Cypher literal that `RETURN <literal>` reads back as the same
/// value; `None` for values a store cannot hold.
pub fn encode(v: &Value) -> Option<String> {
    Some(match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) if f.is_finite() => crate::functions::fmt_float(*f),
        Value::Float(f) => format!("toFloat('{}')", crate::functions::fmt_float(*f)),
        Value::Str(s) => quote(s),
        Value::List(l) => format!("[{}]", l.iter().map(encode).collect::<Option<Vec<_>>>()?.join(", ")),
        Value::Temporal(t) => format!("{}({})", t.type_name().to_lowercase(), quote(&t.to_string())),
        Value::Duration(d) => format!("duration({})", quote(&d.to_string())),
        Value::Map(_) | Value::Node(_) | Value::Rel(_) | Value::Path(_) => return None,
    })
}

/// Reads back a literal written by [`encode`]: integers and plain strings directly, the
/// rest through the query language.
pub fn decode(lit: &str) -> Result<Value, GqlError> {
    if let Ok(i) = lit.parse::<i64>() {
        return Ok(Value::Int(i));
    }
    if let Some(body) = lit.strip_prefix('\'').and_then(|x| x.strip_suffix('\''))
        && !body.contains(['\\', '\''])
    {
        return Ok(Value::str(body));
    }
    crate::cli::literal_value(lit)
}

fn quote(s: &str) -> String {
    let mut o = String::from("'");
    for c in s.chars() {
        match c {
            '\\' => o.push_str("\\\\"),
            '\'' => o.push_str("\\'"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c => o.push(c),
        }
    }
    o.push('\'');
    o
}

fn sym(s: &str) -> SVal {
    SVal::Sym(s.to_string())
}

/// Runs `script` and turns its graph into cited facts of document `doc`.
fn facts_of(doc: &str, path: &str, script: &str) -> Result<(Graph, Vec<CitedFact>), LoadError> {
    let mut g = Graph::default();
    crate::run_script(&mut g, script, &BTreeMap::new()).map_err(|error| LoadError::Script { path: path.to_string(), error })?;
    let whole = (0u64, script.len() as u64);
    let fact = |rel: &str, args: Vec<SVal>, span: Option<(usize, usize)>| CitedFact {
        rel: rel.to_string(),
        args,
        tag: Tag::Generated,
        spans: vec![span.map_or(whole, |(a, b)| (a as u64, b as u64))],
    };
    let mut facts = vec![CitedFact { rel: "document".into(), args: vec![sym(doc), sym(FORMAT)], tag: Tag::Structural, spans: vec![whole] }];
    let node_key = |n: usize| format!("{doc}#n{n}");
    for (n, node) in g.nodes.iter().enumerate() {
        let span = g.node_src.get(n).copied().flatten();
        let key = node_key(n);
        facts.push(fact(NODE, vec![sym(doc), sym(&key)], span));
        for &l in &node.labels {
            facts.push(fact(LABEL, vec![sym(&key), sym(g.name(l))], span));
        }
        for (k, v) in g.props_map(g.node_props(n)) {
            let lit = encode(&v).ok_or_else(|| LoadError::Unstorable { path: path.to_string(), key: k.clone(), kind: v.type_name() })?;
            facts.push(fact(PROP, vec![sym(&key), sym(&k), sym(&lit)], span));
        }
    }
    for (r, rel) in g.rels.iter().enumerate() {
        let span = g.rel_src.get(r).copied().flatten();
        let key = format!("{doc}#r{r}");
        facts.push(fact(REL, vec![sym(&key), sym(&node_key(rel.src)), sym(g.name(rel.typ)), sym(&node_key(rel.dst))], span));
        for (k, v) in g.props_map(g.rel_props(r)) {
            let lit = encode(&v).ok_or_else(|| LoadError::Unstorable { path: path.to_string(), key: k.clone(), kind: v.type_name() })?;
            facts.push(fact(PROP, vec![sym(&key), sym(&k), sym(&lit)], span));
        }
    }
    Ok((g, facts))
}

/// Declares the relations of loaded graphs (and the schema's) in `store`.
pub fn declare(store: &Store) -> Result<(), StoreError> {
    tg_rules::schema::declare_schema(store)?;
    use ColumnType::Symbol as S;
    store.declare(NODE, &[S, S])?;
    store.declare(LABEL, &[S, S])?;
    store.declare(REL, &[S, S, S, S])?;
    store.declare(PROP, &[S, S, S])?;
    Ok(())
}

/// A script that ran: its bytes, text and the facts it asserts, ready to store.
pub struct Prepared {
    doc: String,
    bytes: Vec<u8>,
    text: String,
    nodes: usize,
    rels: usize,
    facts: Vec<CitedFact>,
}

/// Reads and runs the script at `path` as document `doc`, without touching any store.
pub fn prepare(path: &Path, doc: &str) -> Result<Prepared, LoadError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LoadError::Read { path: shown.clone(), source })?;
    let text = String::from_utf8(bytes.clone()).map_err(|e| LoadError::Read { path: shown.clone(), source: std::io::Error::new(std::io::ErrorKind::InvalidData, e) })?;
    if !tg_text::sniff::looks_like_cypher(&text) {
        return Err(LoadError::NotAScript { path: shown });
    }
    let (g, facts) = facts_of(doc, &shown, &text)?;
    Ok(Prepared { doc: doc.to_string(), bytes, text, nodes: g.nodes.len(), rels: g.rels.len(), facts })
}

/// Stores a prepared script: unchanged bytes write nothing, changed ones replace the
/// document's facts in one batch.
pub fn store(store: &Store, p: &Prepared) -> Result<Loaded, LoadError> {
    if let Some(old) = store.document(&p.doc)?
        && old.format == FORMAT
        && old.source_blake3 == blake3::hash(&p.bytes).to_hex().as_str()
    {
        return Ok(Loaded::Unchanged);
    }
    declare(store)?;
    store.put_document(&NewDocument { id: &p.doc, format: FORMAT, source: SourceDigest::of(&p.bytes), text: &p.text }, &p.facts)?;
    Ok(Loaded::Written { nodes: p.nodes, rels: p.rels, facts: p.facts.len() })
}

/// Adds the loaded graphs of `store` to the view `g`: each loaded node and relationship
/// as its author wrote it (labels, type, typed properties).
pub fn add_to_view(store: &Store, g: &mut Graph) -> Result<(), crate::view::ViewError> {
    let e = crate::view::ViewError::Store;
    if !store.relation_names().map_err(e)?.iter().any(|r| r == NODE) {
        return Ok(());
    }
    let text = |v: Option<&SVal>| match v {
        Some(SVal::Sym(s)) => s.clone(),
        Some(SVal::Num(n)) => n.to_string(),
        None => String::new(),
    };
    let mut labels: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in store.lookup(LABEL, &[]).map_err(e)? {
        labels.entry(text(f.first())).or_default().push(text(f.get(1)));
    }
    let mut props: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    for f in store.lookup(PROP, &[]).map_err(e)? {
        let lit = text(f.get(2));
        let v = decode(&lit).map_err(|x| crate::view::ViewError::Property { literal: lit.clone(), detail: x.to_string() })?;
        props.entry(text(f.first())).or_default().insert(text(f.get(1)), v);
    }
    // Nodes in creation order within each script (keys end in `#n<number>`).
    let mut keys: Vec<String> = store.lookup(NODE, &[]).map_err(e)?.iter().map(|f| text(f.get(1))).collect();
    let order = |k: &String| {
        let (d, n) = k.rsplit_once("#n").unwrap_or((k.as_str(), ""));
        (d.to_string(), n.parse::<u64>().unwrap_or(u64::MAX))
    };
    keys.sort_by_key(order);
    let mut ids = BTreeMap::new();
    for k in keys {
        let id = g.add_node(labels.remove(&k).unwrap_or_default(), props.remove(&k).unwrap_or_default());
        ids.insert(k, id);
    }
    let mut rels: Vec<(String, String, String, String)> =
        store.lookup(REL, &[]).map_err(e)?.iter().map(|f| (text(f.first()), text(f.get(1)), text(f.get(2)), text(f.get(3)))).collect();
    let rorder = |k: &String| {
        let (d, n) = k.rsplit_once("#r").unwrap_or((k.as_str(), ""));
        (d.to_string(), n.parse::<u64>().unwrap_or(u64::MAX))
    };
    rels.sort_by_key(|r| rorder(&r.0));
    for (k, s, t, d) in rels {
        if let (Some(&a), Some(&b)) = (ids.get(&s), ids.get(&d)) {
            g.add_rel(a, b, t, props.remove(&k).unwrap_or_default());
        }
    }
    Ok(())
}
