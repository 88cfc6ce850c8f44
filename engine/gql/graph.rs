//! The in-memory property graph GQL queries run over: nodes with labels and properties,
//! typed relationships with properties, adjacency lists and a label index. Filled by
//! `CREATE` scripts or by `view` from a store.
//!
//! Labels, relationship types and property keys are interned to [`Sym`]s, and properties
//! are kept as small vectors sorted by symbol, so the matcher compares integers instead of
//! strings and reads a property without a map lookup by text.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::gql::value::{Key, NodeId, RelId, Value};

/// An interned label, relationship type or property key of one [`Graph`].
pub type Sym = u32;

/// Nodes of one label by the value of one property.
type PropIndex = BTreeMap<Key, Vec<NodeId>>;

/// The properties of a node or relationship: `(key, value)` sorted by key symbol, never
/// null. Read by symbol ([`Props::get`]) or by name through the graph ([`Graph::prop`]).
#[derive(Clone, Debug, Default)]
pub struct Props(Vec<(Sym, Value)>);

impl Props {
    /// The value under key `k`.
    pub fn get(&self, k: Sym) -> Option<&Value> {
        if self.0.len() <= 8 {
            return self.0.iter().find(|(s, _)| *s == k).map(|(_, v)| v);
        }
        self.0.binary_search_by_key(&k, |(s, _)| *s).ok().map(|i| &self.0[i].1)
    }

    /// The entries in symbol order.
    pub fn iter(&self) -> impl Iterator<Item = &(Sym, Value)> {
        self.0.iter()
    }

    /// Whether there are no properties.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A node: labels in insertion order and properties.
#[derive(Clone, Debug, Default)]
pub struct Node {
    /// Labels.
    pub labels: Vec<Sym>,
    /// Properties.
    pub props: Props,
}

/// A relationship from `src` to `dst`.
#[derive(Clone, Debug)]
pub struct Rel {
    /// Start node.
    pub src: NodeId,
    /// End node.
    pub dst: NodeId,
    /// The type.
    pub typ: Sym,
    /// Properties.
    pub props: Props,
}

/// The graph. Ids are dense indexes, so iteration order is creation order.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// Nodes by id.
    pub nodes: Vec<Node>,
    /// Relationships by id.
    pub rels: Vec<Rel>,
    /// Outgoing relationships per node.
    pub out: Vec<Vec<RelId>>,
    /// Incoming relationships per node.
    pub inc: Vec<Vec<RelId>>,
    /// Nodes per label.
    pub by_label: BTreeMap<Sym, Vec<NodeId>>,
    /// Symbol texts by symbol.
    names: Vec<String>,
    /// Symbols by text.
    syms: BTreeMap<String, Sym>,
    /// Equality indexes `(label, key) → value → nodes`, built on first use by
    /// [`Graph::nodes_with`] and dropped whenever a node is added.
    index: RefCell<BTreeMap<(Sym, Sym), Rc<PropIndex>>>,
}

impl Graph {
    /// The symbol of `s`, if the graph has ever seen it.
    pub fn sym(&self, s: &str) -> Option<Sym> {
        self.syms.get(s).copied()
    }

    /// The symbol of `s`, made if new.
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&k) = self.syms.get(s) {
            return k;
        }
        let k = self.names.len() as Sym;
        self.names.push(s.to_string());
        self.syms.insert(s.to_string(), k);
        k
    }

    /// The text of symbol `k`.
    pub fn name(&self, k: Sym) -> &str {
        self.names.get(k as usize).map_or("", String::as_str)
    }

    /// Interns a property map, dropping nulls.
    pub fn props(&mut self, m: BTreeMap<String, Value>) -> Props {
        let mut v: Vec<(Sym, Value)> = m.into_iter().filter(|(_, x)| !x.is_null()).map(|(k, x)| (self.intern(&k), x)).collect();
        v.sort_by_key(|(k, _)| *k);
        Props(v)
    }

    /// The property `key` of `props`.
    pub fn prop<'a>(&self, props: &'a Props, key: &str) -> Option<&'a Value> {
        self.sym(key).and_then(|k| props.get(k))
    }

    /// `props` as a map by key text (sorted by key, for output and `properties()`).
    pub fn props_map(&self, props: &Props) -> BTreeMap<String, Value> {
        props.iter().map(|(k, v)| (self.name(*k).to_string(), v.clone())).collect()
    }

    /// The label texts of node `n`, in insertion order.
    pub fn labels(&self, n: NodeId) -> Vec<&str> {
        self.nodes.get(n).map(|node| node.labels.iter().map(|&l| self.name(l)).collect()).unwrap_or_default()
    }

    /// The type text of relationship `r`.
    pub fn rel_type(&self, r: RelId) -> Option<&str> {
        self.rels.get(r).map(|x| self.name(x.typ))
    }

    /// Adds a node; null properties are dropped.
    pub fn add_node(&mut self, labels: Vec<String>, props: BTreeMap<String, Value>) -> NodeId {
        self.index.get_mut().clear();
        let id = self.nodes.len();
        let mut ls: Vec<Sym> = vec![];
        for l in labels {
            let s = self.intern(&l);
            if !ls.contains(&s) {
                self.by_label.entry(s).or_default().push(id);
                ls.push(s);
            }
        }
        let props = self.props(props);
        self.nodes.push(Node { labels: ls, props });
        self.out.push(vec![]);
        self.inc.push(vec![]);
        id
    }

    /// Adds a relationship; null properties are dropped.
    pub fn add_rel(&mut self, src: NodeId, dst: NodeId, typ: String, props: BTreeMap<String, Value>) -> RelId {
        let id = self.rels.len();
        let typ = self.intern(&typ);
        let props = self.props(props);
        self.rels.push(Rel { src, dst, typ, props });
        if let Some(o) = self.out.get_mut(src) {
            o.push(id);
        }
        if let Some(i) = self.inc.get_mut(dst) {
            i.push(id);
        }
        id
    }

    /// The nodes labelled `label` whose property `key` may equal `v`: a superset of the
    /// matches (callers still check), exact for strings, booleans and integers.
    pub fn nodes_with(&self, label: Sym, key: Sym, v: &Value) -> Vec<NodeId> {
        let ix = {
            let mut cache = self.index.borrow_mut();
            let entry = cache.entry((label, key)).or_insert_with(|| {
                let mut m: PropIndex = BTreeMap::new();
                for &n in self.by_label.get(&label).map(Vec::as_slice).unwrap_or(&[]) {
                    if let Some(pv) = self.nodes.get(n).and_then(|node| node.props.get(key)) {
                        m.entry(Key(vec![pv.clone()])).or_default().push(n);
                    }
                }
                Rc::new(m)
            });
            entry.clone()
        };
        ix.get(&Key(vec![v.clone()])).cloned().unwrap_or_default()
    }

    /// Whether node `n` carries every label in `labels` (by text).
    pub fn has_labels(&self, n: NodeId, labels: &[String]) -> bool {
        self.nodes.get(n).is_some_and(|node| labels.iter().all(|l| self.sym(l).is_some_and(|s| node.labels.contains(&s))))
    }

    /// Whether node `n` carries every label in `labels` (by symbol).
    pub fn has_syms(&self, n: NodeId, labels: &[Sym]) -> bool {
        self.nodes.get(n).is_some_and(|node| labels.iter().all(|s| node.labels.contains(s)))
    }
}
