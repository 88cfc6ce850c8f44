//! Whole-graph scans of one relationship, `MATCH (a)-[r]->(b)` ([`Hop`]): instead of the
//! backtracking matcher building a row per step, a loop walks each start node's slice of
//! the compact adjacency and evaluates the WHERE conjuncts and the projection's
//! expressions straight from property columns: `a.k` and `b.k` by node id, `r.k` by the
//! relationship's position in the adjacency (memory order, not relationship id). Any other
//! expression form is evaluated by [`SExpr::eval`] over the row, which the scan keeps
//! filled in, so the results and their order are the matcher's.

use std::rc::Rc;

use crate::gql::ast::{ArithOp, CmpOp, Dir};
use crate::gql::error::{GqlError, Result};
use crate::gql::eval::{Ctx, and3, arith, cmp_op, or3, truth, tv, xor3};
use crate::gql::graph::Column;
use crate::gql::pattern::Hop;
use crate::gql::slot::SExpr;
use crate::gql::value::{NodeId, Value};

/// The current match: start node, end node, and the relationship's position in the
/// adjacency array it was read from (`incoming` says which).
#[derive(Clone, Copy, Default)]
struct Cursor {
    a: NodeId,
    b: NodeId,
    pos: usize,
    incoming: bool,
}

/// An expression compiled for the scan: property reads of the pattern's variables become
/// column reads; every other form mirrors [`SExpr`] (same helpers, same semantics).
enum HExpr {
    /// A constant.
    Lit(Value),
    /// A property of the start (`false`) or end (`true`) node.
    Node(bool, Rc<Column>),
    /// A property of the relationship, by adjacency position: the outgoing-order and
    /// incoming-order columns (only the directions the pattern walks are built).
    Rel(Option<Rc<Column>>, Option<Rc<Column>>),
    Not(Box<HExpr>),
    And(Box<HExpr>, Box<HExpr>),
    Or(Box<HExpr>, Box<HExpr>),
    Xor(Box<HExpr>, Box<HExpr>),
    Compare(Box<HExpr>, Vec<(CmpOp, HExpr)>),
    Arith(ArithOp, Box<HExpr>, Box<HExpr>),
    IsNull(Box<HExpr>, bool),
    /// Any other form, evaluated over the row.
    Row(SExpr),
}

/// A [`Hop`] compiled against the graph with the expressions a consumer needs per match.
pub struct Scan<'h, 'c> {
    hop: &'h Hop<'c>,
    names: &'h [String],
    at_start: Vec<HExpr>,
    at_end: Vec<HExpr>,
    split: bool,
    exprs: Vec<HExpr>,
}

impl<'h, 'c> Scan<'h, 'c> {
    /// Compiles the hop's WHERE conjuncts and `exprs` (compiled against `names`, the
    /// MATCH's extended row).
    pub fn new(ctx: &Ctx, hop: &'h Hop<'c>, names: &'h [String], exprs: &[&SExpr]) -> Self {
        let (start, end, split) = hop.filters();
        let c = |e: &SExpr| compile(ctx, hop, e);
        Scan { hop, names, at_start: start.iter().map(c).collect(), at_end: end.into_iter().map(c).collect(), split, exprs: exprs.iter().map(|e| c(e)).collect() }
    }

    /// Runs the scan from the input row `input`: `accept` gets, for every match in the
    /// matcher's order, the values of the expressions and the extended row. Whether any
    /// row matched.
    pub fn run(&self, ctx: &Ctx, input: &[Value], accept: &mut dyn FnMut(&[Value], &[Value]) -> Result<()>) -> Result<bool> {
        let g = ctx.graph;
        let [sa, sr, sb] = self.hop.slots;
        let mut row = input.to_vec();
        row.resize(self.names.len(), Value::Null);
        let adj = g.adjacency();
        let sides: &[bool] = match self.hop.dir {
            Dir::Right => &[false],
            Dir::Left => &[true],
            Dir::Both => &[false, true],
        };
        let mut vals: Vec<Value> = Vec::with_capacity(self.exprs.len());
        let mut any = false;
        for &a in self.hop.starts(g).iter() {
            GqlError::check_cancelled()?;
            if !self.hop.node_fits(g, false, a) {
                continue;
            }
            row[sa] = Value::Node(a);
            let mut cur = Cursor { a, ..Cursor::default() };
            if !self.pass(ctx, &self.at_start, &row, cur)? {
                continue;
            }
            for &incoming in sides {
                let (base, edges) = adj.steps(a, incoming);
                for (i, e) in edges.iter().enumerate() {
                    // An undirected pattern takes a self-loop once (from the outgoing side).
                    if incoming && self.hop.dir == Dir::Both && e.other == a {
                        continue;
                    }
                    if !self.hop.type_fits(e.typ) || !self.hop.node_fits(g, true, e.other) {
                        continue;
                    }
                    row[sr] = Value::Rel(e.rel);
                    row[sb] = Value::Node(e.other);
                    cur = Cursor { a, b: e.other, pos: base + i, incoming };
                    if !self.pass(ctx, &self.at_end, &row, cur)? {
                        continue;
                    }
                    vals.clear();
                    for x in &self.exprs {
                        vals.push(self.eval(ctx, x, &row, cur)?);
                    }
                    any = true;
                    accept(&vals, &row)?;
                }
            }
        }
        Ok(any)
    }

    /// Whether every conjunct in `fs` holds (as [`SExpr::holds`]).
    fn pass(&self, ctx: &Ctx, fs: &[HExpr], row: &[Value], cur: Cursor) -> Result<bool> {
        for f in fs {
            let v = self.eval(ctx, f, row, cur)?;
            let ok = if self.split { truth(&v, "AND")? == Some(true) } else { matches!(v, Value::Bool(true)) };
            if !ok {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn eval(&self, ctx: &Ctx, e: &HExpr, row: &[Value], cur: Cursor) -> Result<Value> {
        let ev = |x: &HExpr| self.eval(ctx, x, row, cur);
        Ok(match e {
            HExpr::Lit(v) => v.clone(),
            HExpr::Node(end, col) => col.get(if *end { cur.b } else { cur.a }),
            HExpr::Rel(out, inc) => match if cur.incoming { inc } else { out } {
                Some(col) => col.get(cur.pos),
                None => Value::Null,
            },
            HExpr::Not(x) => tv(truth(&ev(x)?, "NOT")?.map(|b| !b)),
            HExpr::And(a, b) => tv(and3(truth(&ev(a)?, "AND")?, truth(&ev(b)?, "AND")?)),
            HExpr::Or(a, b) => tv(or3(truth(&ev(a)?, "OR")?, truth(&ev(b)?, "OR")?)),
            HExpr::Xor(a, b) => tv(xor3(truth(&ev(a)?, "XOR")?, truth(&ev(b)?, "XOR")?)),
            HExpr::Compare(first, chain) => {
                let mut left = ev(first)?;
                let mut acc = Some(true);
                for (op, rhs) in chain {
                    let right = ev(rhs)?;
                    acc = and3(acc, cmp_op(*op, &left, &right));
                    left = right;
                }
                tv(acc)
            }
            HExpr::Arith(op, a, b) => arith(*op, &ev(a)?, &ev(b)?)?,
            HExpr::IsNull(x, want_null) => Value::Bool(ev(x)?.is_null() == *want_null),
            HExpr::Row(x) => x.eval(ctx, self.names, row, &[])?,
        })
    }
}

/// Compiles `e` for the scan of `hop`.
fn compile(ctx: &Ctx, hop: &Hop, e: &SExpr) -> HExpr {
    let c = |x: &SExpr| Box::new(compile(ctx, hop, x));
    let g = ctx.graph;
    let [sa, sr, sb] = hop.slots;
    match e {
        SExpr::Lit(v) => HExpr::Lit(v.clone()),
        SExpr::Prop(base, key, _, _) => match (&**base, key) {
            // The pattern's variables are always a node or a relationship here, and a key
            // the graph has never seen is null on both.
            (SExpr::Slot(i), None) if [sa, sr, sb].contains(i) => HExpr::Lit(Value::Null),
            (SExpr::Slot(i), Some(k)) if *i == sa || *i == sb => HExpr::Node(*i == sb, g.node_column(*k)),
            (SExpr::Slot(i), Some(k)) if *i == sr => {
                let walks = |incoming: bool| match hop.dir {
                    Dir::Right => !incoming,
                    Dir::Left => incoming,
                    Dir::Both => true,
                };
                let col = |incoming: bool| walks(incoming).then(|| g.adj_rel_column(*k, incoming));
                HExpr::Rel(col(false), col(true))
            }
            _ => HExpr::Row(e.clone()),
        },
        SExpr::Not(x) => HExpr::Not(c(x)),
        SExpr::And(a, b) => HExpr::And(c(a), c(b)),
        SExpr::Or(a, b) => HExpr::Or(c(a), c(b)),
        SExpr::Xor(a, b) => HExpr::Xor(c(a), c(b)),
        SExpr::Compare(a, chain) => HExpr::Compare(c(a), chain.iter().map(|(o, x)| (*o, compile(ctx, hop, x))).collect()),
        SExpr::Arith(o, a, b) => HExpr::Arith(*o, c(a), c(b)),
        SExpr::IsNull(x, n) => HExpr::IsNull(c(x), *n),
        other => HExpr::Row(other.clone()),
    }
}
