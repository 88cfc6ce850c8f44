//! The in-memory property graph GQL queries run over: nodes with labels and properties,
//! typed relationships with properties, adjacency lists and a label index. Filled by
//! `CREATE` scripts or by `view` from a store.
//!
//! Labels, relationship types and property keys are interned to [`Sym`]s, and properties
//! are kept sorted by symbol, so the matcher compares integers instead of strings and
//! reads a property without a map lookup by text. The properties of all nodes (and of all
//! relationships) sit in one array, each element holding its span of it: no allocation
//! per element while loading, and a property column is built by reading memory in order.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::value::{NodeId, RelId, Value, order};

/// An interned label, relationship type or property key of one [`Graph`].
pub type Sym = u32;

/// Nodes of one label by the value of one property.
/// A label's nodes with a property, sorted by its value under [`order`] (stably: equal
/// values keep the label's node order); the nodes of one value are a run.
type PropIndex = Vec<(Value, NodeId)>;

/// The properties of a node or relationship: `(key, value)` sorted by key symbol, never
/// null. Read by symbol ([`Props::get`]) or by name through the graph ([`Graph::prop`]);
/// got from [`Graph::node_props`] or [`Graph::rel_props`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Props<'g>(&'g [(Sym, Value)]);

/// Where an element's properties sit in its graph's property array.
#[derive(Clone, Copy, Debug, Default)]
pub struct PropSpan {
    start: usize,
    len: u32,
}

impl<'g> Props<'g> {
    /// The value under key `k`.
    pub fn get(&self, k: Sym) -> Option<&'g Value> {
        if self.0.len() <= 8 {
            return self.0.iter().find(|(s, _)| *s == k).map(|(_, v)| v);
        }
        self.0.binary_search_by_key(&k, |(s, _)| *s).ok().map(|i| &self.0[i].1)
    }

    /// The entries in symbol order.
    pub fn iter(&self) -> impl Iterator<Item = &'g (Sym, Value)> + use<'g> {
        self.0.iter()
    }

    /// Whether there are no properties.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A node: labels in insertion order and properties ([`Graph::node_props`]).
#[derive(Clone, Debug, Default)]
pub struct Node {
    /// Labels.
    pub labels: Vec<Sym>,
    props: PropSpan,
}

/// A relationship from `src` to `dst`, with properties ([`Graph::rel_props`]).
#[derive(Clone, Debug)]
pub struct Rel {
    /// Start node.
    pub src: NodeId,
    /// End node.
    pub dst: NodeId,
    /// The type.
    pub typ: Sym,
    props: PropSpan,
}

/// The graph. Ids are dense indexes, so iteration order is creation order.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// Nodes by id.
    pub nodes: Vec<Node>,
    /// Relationships by id.
    pub rels: Vec<Rel>,
    /// The outgoing steps of each node, in relationship id order.
    pub out: Vec<Vec<Edge>>,
    /// The incoming steps of each node, in relationship id order.
    pub inc: Vec<Vec<Edge>>,
    /// Nodes per label.
    pub by_label: BTreeMap<Sym, Vec<NodeId>>,
    /// The properties of every node, each node's a span of it.
    node_props: Vec<(Sym, Value)>,
    /// The properties of every relationship, each relationship's a span of it.
    rel_props: Vec<(Sym, Value)>,
    /// Symbol texts by symbol.
    names: Vec<String>,
    /// Symbols by text.
    syms: BTreeMap<String, Sym>,
    /// Where a script's CREATE wrote each node: byte span of its node pattern.
    pub node_src: Vec<Option<(usize, usize)>>,
    /// Where a script's CREATE wrote each relationship: byte span from its start node
    /// pattern to its end node pattern.
    pub rel_src: Vec<Option<(usize, usize)>>,
    /// Label bits per node: bit `i` is the label `bit_labels[i]` (the first 64 labels).
    pub label_bits: Vec<u64>,
    /// The labels that have a bit, in order of first use.
    bit_labels: Vec<Sym>,
    /// Structures derived on first use and dropped whenever the graph changes.
    derived: RefCell<Derived>,
    /// A store view's search index, for `CALL tg.search` (issue 22).
    pub search: SearchIndex,
}

/// The search index a store's view carries (none for a script's graph).
#[derive(Clone, Default)]
pub struct SearchIndex(pub Option<std::rc::Rc<tg_analytics::search::MemIndex>>);

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "SearchIndex(loaded)" } else { "SearchIndex(none)" })
    }
}

/// What [`Graph`] derives from itself for reading: equality indexes, property columns
/// and the adjacency.
#[derive(Clone, Debug, Default)]
struct Derived {
    /// `(label, key) → value → nodes`, for [`Graph::nodes_with`].
    index: BTreeMap<(Sym, Sym), Rc<PropIndex>>,
    /// The `(label, key)` pairs [`Graph::nodes_with`] has answered by a scan.
    scanned: std::collections::BTreeSet<(Sym, Sym)>,
    /// The relationship keys [`Graph::rel_column_when_reread`] has been asked for.
    reread: std::collections::BTreeSet<Sym>,
    /// One property of every node, by node id.
    node_cols: BTreeMap<Sym, Rc<Column>>,
    /// One property of every relationship, by relationship id.
    rel_cols: BTreeMap<Sym, Rc<Column>>,
    /// The adjacency, outgoing (`[0]`) and incoming (`[1]`), each built when a scan
    /// first reads a relationship property that way.
    adj: [Option<Rc<Adjacency>>; 2],
    /// One property of every relationship in list order: `(key, incoming)` → the values
    /// by position in the concatenated outgoing (or incoming) lists.
    list_cols: BTreeMap<(Sym, bool), Rc<Column>>,
}

/// One property key's values for every node (or every relationship), by id: packed
/// integers when every value is an integer, else values (null where absent).
#[derive(Clone, Debug)]
pub enum Column {
    /// Integers, with `i64::MIN` standing for null (used only when no value is `i64::MIN`).
    Ints(Vec<i64>),
    /// Any values.
    Values(Vec<Value>),
}

impl Column {
    /// Builds the column of `vals`, in one pass (integers until a value is not one).
    fn build<'a>(vals: impl ExactSizeIterator<Item = Option<&'a Value>>) -> Column {
        let mut ints: Vec<i64> = Vec::with_capacity(vals.len());
        let mut rest = vals;
        for v in rest.by_ref() {
            match v {
                None => ints.push(i64::MIN),
                Some(Value::Int(i)) if *i != i64::MIN => ints.push(*i),
                Some(other) => {
                    let mut all: Vec<Value> = Vec::with_capacity(ints.capacity());
                    all.extend(ints.iter().map(|&i| if i == i64::MIN { Value::Null } else { Value::Int(i) }));
                    all.push(other.clone());
                    all.extend(rest.map(|v| v.cloned().unwrap_or(Value::Null)));
                    return Column::Values(all);
                }
            }
        }
        Column::Ints(ints)
    }

    /// The column of `n` values given as `(position, value)` (null at positions not given;
    /// positions out of range are skipped), in one pass.
    fn scatter<'a>(n: usize, vals: impl Iterator<Item = (usize, Option<&'a Value>)>) -> Column {
        let mut ints: Vec<i64> = vec![i64::MIN; n];
        let mut rest = vals;
        for (p, v) in rest.by_ref() {
            match (ints.get_mut(p), v) {
                (None, _) | (_, None) => {}
                (Some(slot), Some(Value::Int(i))) if *i != i64::MIN => *slot = *i,
                (Some(_), Some(other)) => {
                    let mut all: Vec<Value> = ints.iter().map(|&i| if i == i64::MIN { Value::Null } else { Value::Int(i) }).collect();
                    all[p] = other.clone();
                    for (p, v) in rest {
                        if let (Some(slot), Some(v)) = (all.get_mut(p), v) {
                            *slot = v.clone();
                        }
                    }
                    return Column::Values(all);
                }
            }
        }
        Column::Ints(ints)
    }

    /// The values at `ids`, in that order (null where out of range).
    fn gather(&self, ids: impl Iterator<Item = usize>) -> Column {
        match self {
            Column::Ints(v) => Column::Ints(ids.map(|i| v.get(i).copied().unwrap_or(i64::MIN)).collect()),
            Column::Values(v) => Column::Values(ids.map(|i| v.get(i).cloned().unwrap_or(Value::Null)).collect()),
        }
    }

    /// The value at `i` (null where absent).
    #[inline]
    pub fn get(&self, i: usize) -> Value {
        match self {
            Column::Ints(v) => match v.get(i) {
                Some(&x) if x != i64::MIN => Value::Int(x),
                _ => Value::Null,
            },
            Column::Values(v) => v.get(i).cloned().unwrap_or(Value::Null),
        }
    }
}

/// One step from a node: the relationship, the node at its other end and its type, held
/// whole in the node's list so that walking it reads no relationship. Ids are held in 32
/// bits (12 bytes a step, not 24: half the memory to walk; an in-memory graph never nears
/// 2^32 elements).
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    rel: u32,
    other: u32,
    /// The relationship's type.
    pub typ: Sym,
}

impl Edge {
    /// The step along relationship `rel` to `other`.
    pub fn new(rel: RelId, other: NodeId, typ: Sym) -> Edge {
        Edge { rel: rel as u32, other: other as u32, typ }
    }

    /// The relationship.
    pub fn rel(&self) -> RelId {
        self.rel as RelId
    }

    /// The node at the other end.
    pub fn other(&self) -> NodeId {
        self.other as NodeId
    }
}

/// Every node's list of one direction ([`Graph::out`] or [`Graph::inc`]) concatenated in
/// node order into one array: a scan reads its steps in memory order, and
/// [`Graph::list_rel_column`] lays out a relationship property in the same order.
#[derive(Clone, Debug, Default)]
pub struct Adjacency {
    off: Vec<usize>,
    steps: Vec<Edge>,
}

/// The adjacency size from which [`Graph::list_rel_column`] copies the lists on a second
/// thread.
const PARALLEL_FROM: usize = 1 << 16;

/// Where each node's list starts in the concatenation of `lists`, and (last) the total.
fn list_offsets(lists: &[Vec<Edge>]) -> Vec<usize> {
    let mut off = Vec::with_capacity(lists.len() + 1);
    let mut total = 0usize;
    off.push(0);
    for l in lists {
        total += l.len();
        off.push(total);
    }
    off
}

impl Adjacency {
    /// The concatenation of `lists`, whose [`list_offsets`] are `off`.
    fn copy(lists: &[Vec<Edge>], off: Vec<usize>) -> Adjacency {
        let mut steps = Vec::with_capacity(off.last().copied().unwrap_or(0));
        for l in lists {
            steps.extend_from_slice(l);
        }
        Adjacency { off, steps }
    }

    /// The steps of `n` and the position of the first of them in the whole array.
    pub fn steps(&self, n: NodeId) -> (usize, &[Edge]) {
        match (self.off.get(n), self.off.get(n + 1)) {
            (Some(&a), Some(&b)) => (a, self.steps.get(a..b).unwrap_or(&[])),
            _ => (0, &[]),
        }
    }
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

    /// Interns a property map's keys.
    fn intern_props(&mut self, m: BTreeMap<String, Value>) -> Vec<(Sym, Value)> {
        m.into_iter().map(|(k, x)| (self.intern(&k), x)).collect()
    }

    /// Appends `props` to `arena` sorted by key, without nulls, the last value of a
    /// repeated key winning; their span.
    fn push_props(arena: &mut Vec<(Sym, Value)>, props: impl IntoIterator<Item = (Sym, Value)>) -> PropSpan {
        let start = arena.len();
        arena.extend(props.into_iter().filter(|(_, v)| !v.is_null()));
        if let Some(mine) = arena.get_mut(start..)
            && !mine.is_sorted_by(|a, b| a.0 < b.0)
        {
            // A stable sort, then the last entry of each key is kept, in place.
            mine.sort_by_key(|(k, _)| *k);
            let mut kept = 0;
            for i in 0..mine.len() {
                if mine.get(i + 1).is_some_and(|next| next.0 == mine[i].0) {
                    continue;
                }
                mine.swap(kept, i);
                kept += 1;
            }
            arena.truncate(start + kept);
        }
        PropSpan { start, len: (arena.len() - start) as u32 }
    }

    /// The properties of node `n` (none when there is no such node).
    pub fn node_props(&self, n: NodeId) -> Props<'_> {
        Props(self.nodes.get(n).and_then(|x| self.node_props.get(x.props.start..x.props.start + x.props.len as usize)).unwrap_or(&[]))
    }

    /// The properties of relationship `r` (none when there is no such relationship).
    pub fn rel_props(&self, r: RelId) -> Props<'_> {
        Props(self.rels.get(r).and_then(|x| self.rel_props.get(x.props.start..x.props.start + x.props.len as usize)).unwrap_or(&[]))
    }

    /// The property `key` of `props`.
    pub fn prop<'a>(&self, props: Props<'a>, key: &str) -> Option<&'a Value> {
        self.sym(key).and_then(|k| props.get(k))
    }

    /// `props` as a map by key text (sorted by key, for output and `properties()`).
    pub fn props_map(&self, props: Props<'_>) -> BTreeMap<String, Value> {
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
        let labels: Vec<Sym> = labels.iter().map(|l| self.intern(l)).collect();
        let props = self.intern_props(props);
        self.add_node_interned(&labels, props)
    }

    /// Adds a node with interned labels and property keys (for bulk loading); null
    /// properties are dropped, and of a key given twice the last value is kept.
    pub fn add_node_interned(&mut self, labels: &[Sym], props: impl IntoIterator<Item = (Sym, Value)>) -> NodeId {
        *self.derived.get_mut() = Derived::default();
        let id = self.nodes.len();
        let mut ls: Vec<Sym> = vec![];
        let mut bits = 0u64;
        for &s in labels {
            if !ls.contains(&s) {
                self.by_label.entry(s).or_default().push(id);
                ls.push(s);
                let b = match self.bit_labels.iter().position(|&x| x == s) {
                    Some(b) => Some(b),
                    None if self.bit_labels.len() < 64 => {
                        self.bit_labels.push(s);
                        Some(self.bit_labels.len() - 1)
                    }
                    None => None,
                };
                if let Some(b) = b {
                    bits |= 1 << b;
                }
            }
        }
        self.label_bits.push(bits);
        self.node_src.push(None);
        let props = Self::push_props(&mut self.node_props, props);
        self.nodes.push(Node { labels: ls, props });
        self.out.push(vec![]);
        self.inc.push(vec![]);
        id
    }

    /// Adds a relationship; null properties are dropped.
    pub fn add_rel(&mut self, src: NodeId, dst: NodeId, typ: String, props: BTreeMap<String, Value>) -> RelId {
        let typ = self.intern(&typ);
        let props = self.intern_props(props);
        self.add_rel_interned(src, dst, typ, props)
    }

    /// Adds a relationship with an interned type and property keys (for bulk loading);
    /// null properties are dropped, and of a key given twice the last value is kept.
    pub fn add_rel_interned(&mut self, src: NodeId, dst: NodeId, typ: Sym, props: impl IntoIterator<Item = (Sym, Value)>) -> RelId {
        *self.derived.get_mut() = Derived::default();
        let id = self.rels.len();
        let props = Self::push_props(&mut self.rel_props, props);
        self.rels.push(Rel { src, dst, typ, props });
        self.rel_src.push(None);
        if let Some(o) = self.out.get_mut(src) {
            o.push(Edge::new(id, dst, typ));
        }
        if let Some(i) = self.inc.get_mut(dst) {
            i.push(Edge::new(id, src, typ));
        }
        id
    }

    /// The nodes labelled `label` whose property `key` may equal `v`: a superset of the
    /// matches (callers still check), exact for strings, booleans and integers.
    pub fn nodes_with(&self, label: Sym, key: Sym, v: &Value) -> Vec<NodeId> {
        let nodes = self.by_label.get(&label).map(Vec::as_slice).unwrap_or(&[]);
        // The first lookup scans the label's nodes: one scan costs a fraction of sorting
        // them, which pays off only from the second lookup on.
        let first = {
            let mut d = self.derived.borrow_mut();
            !d.index.contains_key(&(label, key)) && d.scanned.insert((label, key))
        };
        if first {
            let same = |x: &Value| match (x, v) {
                (Value::Int(a), Value::Int(b)) => a == b,
                _ => order(x, v) == std::cmp::Ordering::Equal,
            };
            return nodes.iter().copied().filter(|&n| self.node_props(n).get(key).is_some_and(same)).collect();
        }
        let ix = {
            let mut cache = self.derived.borrow_mut();
            let entry = cache.index.entry((label, key)).or_insert_with(|| {
                // One sort of (value, node) pairs: no allocation per node, unlike a map.
                let mut m: PropIndex = nodes.iter().filter_map(|&n| self.node_props(n).get(key).map(|pv| (pv.clone(), n))).collect();
                m.sort_by(|a, b| order(&a.0, &b.0));
                Rc::new(m)
            });
            entry.clone()
        };
        let start = ix.partition_point(|(x, _)| order(x, v) == std::cmp::Ordering::Less);
        ix[start..].iter().take_while(|(x, _)| order(x, v) == std::cmp::Ordering::Equal).map(|&(_, n)| n).collect()
    }

    /// Whether node `n` carries every label in `labels` (by text).
    pub fn has_labels(&self, n: NodeId, labels: &[String]) -> bool {
        self.nodes.get(n).is_some_and(|node| labels.iter().all(|l| self.sym(l).is_some_and(|s| node.labels.contains(&s))))
    }

    /// Whether node `n` carries every label in `labels` (by symbol).
    pub fn has_syms(&self, n: NodeId, labels: &[Sym]) -> bool {
        self.nodes.get(n).is_some_and(|node| labels.iter().all(|s| node.labels.contains(s)))
    }

    /// The label bit mask of `labels`, when every one of them has a bit (`Some(0)` for
    /// none); `None` when a label has no bit (check [`Node::labels`] instead).
    pub fn label_mask(&self, labels: &[Sym]) -> Option<u64> {
        let mut m = 0u64;
        for l in labels {
            m |= 1 << self.bit_labels.iter().position(|x| x == l)?;
        }
        Some(m)
    }

    /// Property `key` of every node, built on first use.
    pub fn node_column(&self, key: Sym) -> Rc<Column> {
        let mut d = self.derived.borrow_mut();
        d.node_cols.entry(key).or_insert_with(|| Rc::new(Column::build((0..self.nodes.len()).map(|n| self.node_props(n).get(key))))).clone()
    }

    /// Property `key` of every relationship by id, when it is built or this is not the
    /// first time it is asked for (then it is built). `None` the first time: a caller that
    /// reads each relationship once, in id order, reads the property array as fast as a
    /// column it would first have to build; from the second reading on, the column (a
    /// fraction of the memory) is faster.
    pub fn rel_column_when_reread(&self, key: Sym) -> Option<Rc<Column>> {
        let first = {
            let mut d = self.derived.borrow_mut();
            d.reread.insert(key) && !d.rel_cols.contains_key(&key)
        };
        (!first).then(|| self.rel_column(key))
    }

    /// Property `key` of every relationship, built on first use.
    pub fn rel_column(&self, key: Sym) -> Rc<Column> {
        let mut d = self.derived.borrow_mut();
        d.rel_cols.entry(key).or_insert_with(|| Rc::new(Column::build((0..self.rels.len()).map(|r| self.rel_props(r).get(key))))).clone()
    }

    /// Property `key` of every relationship in the order of the outgoing
    /// (`incoming == false`) or incoming [`Adjacency`], built on first use: a scan over the
    /// adjacency then reads the property in memory order instead of by relationship id.
    pub fn list_rel_column(&self, key: Sym, incoming: bool) -> Rc<Column> {
        if let Some(c) = self.derived.borrow().list_cols.get(&(key, incoming)) {
            return c.clone();
        }
        let by_id = self.derived.borrow().rel_cols.get(&key).cloned();
        let col = Rc::new(match (by_id, self.built_adjacency(incoming)) {
            (Some(by_id), _) => by_id.gather(self.adjacency(incoming).steps.iter().map(Edge::rel)),
            // Without the column by id, the values are placed straight from the property
            // array, read in order.
            (None, Some(adj)) => self.scatter_rel_column(key, &adj.off, incoming),
            // Without the adjacency either: one thread copies the lists into it while this
            // one places the values (they read different memory; a small graph is not
            // worth a thread).
            (None, None) => {
                let lists = if incoming { &self.inc } else { &self.out };
                let off = list_offsets(lists);
                let (adj, col) = if off.last().is_some_and(|&t| t >= PARALLEL_FROM) {
                    std::thread::scope(|s| {
                        let copy = s.spawn(|| Adjacency::copy(lists, off.clone()));
                        let col = self.scatter_rel_column(key, &off, incoming);
                        (copy.join().unwrap_or_else(|_| Adjacency::copy(lists, off.clone())), col)
                    })
                } else {
                    (Adjacency::copy(lists, off.clone()), self.scatter_rel_column(key, &off, incoming))
                };
                self.derived.borrow_mut().adj[usize::from(incoming)].get_or_insert_with(|| Rc::new(adj));
                col
            }
        });
        self.derived.borrow_mut().list_cols.insert((key, incoming), col.clone());
        col
    }

    /// Property `key` of every relationship placed at its position in the adjacency of
    /// one direction whose offsets are `off`.
    fn scatter_rel_column(&self, key: Sym, off: &[usize], incoming: bool) -> Column {
        let total = off.last().copied().unwrap_or(0);
        Column::scatter(total, self.placements(off, incoming).map(|(id, at)| (at.unwrap_or(usize::MAX), self.rel_props(id).get(key))))
    }

    /// Each relationship in id order with its position in the [`Adjacency`] of one
    /// direction whose offsets are `off` (`None`: it has no step there), as a counting
    /// sort would place it: each list holds its relationships in id order.
    fn placements<'a>(&'a self, off: &[usize], incoming: bool) -> impl Iterator<Item = (RelId, Option<usize>)> + use<'a> {
        // `at[node]` is where the node's next step goes; the last entry (the total) never
        // moves, so a relationship from no node of the lists is placed nowhere.
        let total = off.last().copied().unwrap_or(0);
        let mut at: Vec<usize> = off.to_vec();
        self.rels.iter().enumerate().map(move |(id, r)| {
            let from = if incoming { r.dst } else { r.src };
            let place = match at.get_mut(from) {
                Some(slot) if *slot < total => {
                    *slot += 1;
                    Some(*slot - 1)
                }
                _ => None,
            };
            (id, place)
        })
    }

    /// The [`Adjacency`] of one direction if some query has built it already.
    pub fn built_adjacency(&self, incoming: bool) -> Option<Rc<Adjacency>> {
        self.derived.borrow().adj[usize::from(incoming)].clone()
    }

    /// The [`Adjacency`] of one direction (outgoing, or `incoming`), built on first use
    /// by copying each node's list (its steps are whole, so each list is one copy).
    pub fn adjacency(&self, incoming: bool) -> Rc<Adjacency> {
        let mut d = self.derived.borrow_mut();
        d.adj[usize::from(incoming)]
            .get_or_insert_with(|| {
                let lists = if incoming { &self.inc } else { &self.out };
                Rc::new(Adjacency::copy(lists, list_offsets(lists)))
            })
            .clone()
    }
}
