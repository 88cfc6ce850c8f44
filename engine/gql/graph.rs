//! The in-memory property graph GQL queries run over: nodes with labels and properties,
//! typed relationships with properties, adjacency lists and a label index. Filled by
//! `CREATE` scripts or by `view` from a store.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::gql::value::{Key, NodeId, RelId, Value};

/// Nodes of one label by the value of one property.
type PropIndex = BTreeMap<Key, Vec<NodeId>>;

/// A node: labels in insertion order and properties (null values are never stored).
#[derive(Clone, Debug, Default)]
pub struct Node {
    /// Labels.
    pub labels: Vec<String>,
    /// Properties.
    pub props: BTreeMap<String, Value>,
}

/// A relationship from `src` to `dst`.
#[derive(Clone, Debug)]
pub struct Rel {
    /// Start node.
    pub src: NodeId,
    /// End node.
    pub dst: NodeId,
    /// The type.
    pub typ: String,
    /// Properties.
    pub props: BTreeMap<String, Value>,
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
    pub by_label: BTreeMap<String, Vec<NodeId>>,
    /// Equality indexes `(label, key) → value → nodes`, built on first use by
    /// [`Graph::nodes_with`] and dropped whenever a node is added.
    index: RefCell<BTreeMap<(String, String), Rc<PropIndex>>>,
}

impl Graph {
    /// Adds a node; null properties are dropped.
    pub fn add_node(&mut self, labels: Vec<String>, props: BTreeMap<String, Value>) -> NodeId {
        self.index.get_mut().clear();
        let id = self.nodes.len();
        let mut ls: Vec<String> = vec![];
        for l in labels {
            if !ls.contains(&l) {
                self.by_label.entry(l.clone()).or_default().push(id);
                ls.push(l);
            }
        }
        self.nodes.push(Node { labels: ls, props: props.into_iter().filter(|(_, v)| !v.is_null()).collect() });
        self.out.push(vec![]);
        self.inc.push(vec![]);
        id
    }

    /// Adds a relationship; null properties are dropped.
    pub fn add_rel(&mut self, src: NodeId, dst: NodeId, typ: String, props: BTreeMap<String, Value>) -> RelId {
        let id = self.rels.len();
        self.rels.push(Rel { src, dst, typ, props: props.into_iter().filter(|(_, v)| !v.is_null()).collect() });
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
    pub fn nodes_with(&self, label: &str, key: &str, v: &Value) -> Vec<NodeId> {
        let ix = {
            let mut cache = self.index.borrow_mut();
            let entry = cache.entry((label.to_string(), key.to_string())).or_insert_with(|| {
                let mut m: PropIndex = BTreeMap::new();
                for &n in self.by_label.get(label).map(Vec::as_slice).unwrap_or(&[]) {
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

    /// Whether node `n` carries every label in `labels`.
    pub fn has_labels(&self, n: NodeId, labels: &[String]) -> bool {
        self.nodes.get(n).is_some_and(|node| labels.iter().all(|l| node.labels.contains(l)))
    }
}
