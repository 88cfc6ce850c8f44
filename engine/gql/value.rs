//! Runtime values of the GQL evaluator and openCypher's three comparison notions:
//! equality (`=`, three-valued), comparability (`<`, null across types) and the global
//! sort order of `ORDER BY` (openCypher 9, "Comparability and equality", "Ordering").

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::temporal::{Duration, Temporal};

/// A node's index in its [`crate::graph::Graph`].
pub type NodeId = usize;
/// A relationship's index in its [`crate::graph::Graph`].
pub type RelId = usize;

/// One openCypher value. Integers and floats stay distinct (`1` is not `1.0` in output),
/// but compare numerically.
#[derive(Clone, Debug)]
pub enum Value {
    /// `null`: the absent or unknown value.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A 64-bit signed integer; arithmetic overflow is an error, never a wrap.
    Int(i64),
    /// A 64-bit float.
    Float(f64),
    /// A string.
    Str(Rc<str>),
    /// A list.
    List(Rc<Vec<Value>>),
    /// A map with sorted keys (output order is deterministic).
    Map(Rc<BTreeMap<String, Value>>),
    /// A node of the graph.
    Node(NodeId),
    /// A relationship of the graph.
    Rel(RelId),
    /// A path: `nodes.len() == rels.len() + 1`.
    Path(Rc<Path>),
    /// A date, time, local time, local datetime or datetime.
    Temporal(Temporal),
    /// A duration.
    Duration(Duration),
}

/// A walk through the graph; the direction of each step is read from the relationship's
/// endpoints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    /// The nodes in walking order.
    pub nodes: Vec<NodeId>,
    /// The relationships between consecutive nodes.
    pub rels: Vec<RelId>,
}

impl Value {
    /// A string value.
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }
    /// A list value.
    pub fn list(v: Vec<Value>) -> Value {
        Value::List(Rc::new(v))
    }
    /// Whether the value is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
    /// openCypher's type name, for TypeError messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "Null",
            Value::Bool(_) => "Boolean",
            Value::Int(_) => "Integer",
            Value::Float(_) => "Float",
            Value::Str(_) => "String",
            Value::List(_) => "List",
            Value::Map(_) => "Map",
            Value::Node(_) => "Node",
            Value::Rel(_) => "Relationship",
            Value::Path(_) => "Path",
            Value::Temporal(t) => t.type_name(),
            Value::Duration(_) => "Duration",
        }
    }
    fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }
}

/// Compares an integer with a float exactly (no rounding of large integers).
fn cmp_int_float(i: i64, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f >= 9.3e18 {
        return Some(Ordering::Less);
    }
    if f <= -9.3e18 {
        return Some(Ordering::Greater);
    }
    let t = f.trunc();
    match i.cmp(&(t as i64)) {
        Ordering::Equal => 0.0f64.partial_cmp(&(f - t)),
        o => Some(o),
    }
}

fn cmp_num(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::Int(x), Value::Float(y)) => cmp_int_float(*x, *y),
        (Value::Float(x), Value::Int(y)) => cmp_int_float(*y, *x).map(Ordering::reverse),
        _ => None,
    }
}

/// `a = b` under three-valued logic: `None` is `null`.
pub fn equals(a: &Value, b: &Value) -> Option<bool> {
    match (a, b) {
        (Value::Null, _) | (_, Value::Null) => None,
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => Some(cmp_num(a, b) == Some(Ordering::Equal)),
        (Value::Bool(x), Value::Bool(y)) => Some(x == y),
        (Value::Str(x), Value::Str(y)) => Some(x == y),
        (Value::Node(x), Value::Node(y)) => Some(x == y),
        (Value::Rel(x), Value::Rel(y)) => Some(x == y),
        (Value::Path(x), Value::Path(y)) => Some(x == y),
        (Value::Temporal(x), Value::Temporal(y)) => Some(x.same(y)),
        (Value::Duration(x), Value::Duration(y)) => Some(x == y),
        (Value::List(x), Value::List(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            let mut unknown = false;
            for (p, q) in x.iter().zip(y.iter()) {
                match equals(p, q) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    Some(true) => {}
                }
            }
            if unknown { None } else { Some(true) }
        }
        (Value::Map(x), Value::Map(y)) => {
            if x.len() != y.len() || x.keys().zip(y.keys()).any(|(p, q)| p != q) {
                return Some(false);
            }
            let mut unknown = false;
            for (p, q) in x.values().zip(y.values()) {
                match equals(p, q) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    Some(true) => {}
                }
            }
            if unknown { None } else { Some(true) }
        }
        _ => Some(false),
    }
}

/// `a < b` and friends: `None` (null) when either is null or the types are not comparable.
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Null, _) | (_, Value::Null) => None,
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => cmp_num(a, b),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
        (Value::Temporal(x), Value::Temporal(y)) => x.compare(y),
        (Value::List(x), Value::List(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                match compare(p, q)? {
                    Ordering::Equal => {}
                    o => return Some(o),
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        _ => None,
    }
}

fn order_rank(v: &Value) -> u8 {
    match v {
        Value::Map(_) => 0,
        Value::Node(_) => 1,
        Value::Rel(_) => 2,
        Value::List(_) => 3,
        Value::Path(_) => 4,
        Value::Temporal(t) => 5 + t.order_rank(),
        Value::Duration(_) => 10,
        Value::Str(_) => 11,
        Value::Bool(_) => 12,
        Value::Int(_) | Value::Float(_) => 13,
        Value::Null => 15,
    }
}

/// The total order of `ORDER BY` (ascending): maps, nodes, relationships, lists, paths,
/// strings, booleans, numbers (NaN last among them), then null. Also the equivalence
/// used by DISTINCT and grouping (`Equal` means "the same group").
pub fn order(a: &Value, b: &Value) -> Ordering {
    let (ra, rb) = (order_rank(a), order_rank(b));
    if ra != rb {
        return ra.cmp(&rb);
    }
    match (a, b) {
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            let na = a.as_f64().is_some_and(f64::is_nan);
            let nb = b.as_f64().is_some_and(f64::is_nan);
            match (na, nb) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                _ => cmp_num(a, b).unwrap_or(Ordering::Equal),
            }
        }
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Str(x), Value::Str(y)) => x.cmp(y),
        (Value::Node(x), Value::Node(y)) | (Value::Rel(x), Value::Rel(y)) => x.cmp(y),
        (Value::List(x), Value::List(y)) => order_lists(x, y),
        (Value::Path(x), Value::Path(y)) => x.nodes.cmp(&y.nodes).then_with(|| x.rels.cmp(&y.rels)),
        (Value::Temporal(x), Value::Temporal(y)) => x.order_key().cmp(&y.order_key()),
        (Value::Duration(x), Value::Duration(y)) => (x.months, x.days, x.secs, x.nanos).cmp(&(y.months, y.days, y.secs, y.nanos)),
        (Value::Map(x), Value::Map(y)) => {
            for ((k1, v1), (k2, v2)) in x.iter().zip(y.iter()) {
                let o = k1.cmp(k2).then_with(|| order(v1, v2));
                if o != Ordering::Equal {
                    return o;
                }
            }
            x.len().cmp(&y.len())
        }
        _ => Ordering::Equal,
    }
}

fn order_lists(x: &[Value], y: &[Value]) -> Ordering {
    for (p, q) in x.iter().zip(y.iter()) {
        let o = order(p, q);
        if o != Ordering::Equal {
            return o;
        }
    }
    x.len().cmp(&y.len())
}

/// A key for grouping and DISTINCT: values equal under [`order`] share a key.
#[derive(Clone, Debug)]
pub struct Key(pub Vec<Value>);

impl Key {
    /// Whether two value lists are the same key (equal under [`order`]).
    pub fn eq_values(a: &[Value], b: &[Value]) -> bool {
        order_lists(a, b) == Ordering::Equal
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        order_lists(&self.0, &other.0)
    }
}
