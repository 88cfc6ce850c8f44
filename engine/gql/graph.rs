//! The in-memory property graph GQL queries run over: nodes with labels and properties,
//! typed relationships with properties, adjacency lists and a label index. Filled by
//! `CREATE` scripts or by `view` from a store.

use std::collections::BTreeMap;

use crate::gql::value::{NodeId, RelId, Value};

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
}

impl Graph {
    /// Adds a node; null properties are dropped.
    pub fn add_node(&mut self, labels: Vec<String>, props: BTreeMap<String, Value>) -> NodeId {
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

    /// Whether node `n` carries every label in `labels`.
    pub fn has_labels(&self, n: NodeId, labels: &[String]) -> bool {
        self.nodes.get(n).is_some_and(|node| labels.iter().all(|l| node.labels.contains(l)))
    }
}
