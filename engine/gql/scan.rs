//! Whole-graph scans of one relationship, `MATCH (a)-[r]->(b)` ([`Hop`]): instead of the
//! backtracking matcher building a row per step, a loop walks each start node's
//! relationship list (or its slice of the adjacency) and evaluates the WHERE conjuncts and
//! the projection's expressions straight from property columns: `a.k` and `b.k` by node
//! id, `r.k` by the relationship's position in the adjacency (memory order, not
//! relationship id). Any other expression form is evaluated by [`SExpr::eval`] over the
//! row, which the scan keeps filled in, so the results and their order are the matcher's.
//! Aggregates whose totals cannot depend on the order take [`crate::totals`] instead.

use std::cell::OnceCell;
use std::rc::Rc;

use crate::ast::{ArithOp, CmpOp, Dir};
use crate::error::{GqlError, Result};
use crate::eval::{Ctx, and3, arith, cmp_op, or3, truth, tv, xor3};
use crate::graph::{Column, Graph, Sym};
use crate::pattern::Hop;
use crate::slot::SExpr;
use crate::totals::{Tot, Total};
use crate::value::{NodeId, RelId, Value};

/// The current match: start node, relationship, end node, and where the relationship's
/// properties are read: at `pos` of the columns laid out as `layout` says.
#[derive(Clone, Copy, Default)]
pub(crate) struct Cursor {
    pub(crate) a: NodeId,
    pub(crate) rel: RelId,
    pub(crate) b: NodeId,
    pub(crate) pos: usize,
    pub(crate) layout: Layout,
}

/// How a relationship property column is laid out: in the order of the outgoing or the
/// incoming adjacency, or by relationship id.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Layout {
    #[default]
    Out = 0,
    In = 1,
    ById = 2,
}

/// An expression compiled for the scan: property reads of the pattern's variables become
/// column reads; every other form mirrors [`SExpr`] (same helpers, same semantics).
pub(crate) enum HExpr {
    /// A constant.
    Lit(Value),
    /// The start node (0), the relationship (1) or the end node (2).
    Var(u8),
    /// A property of the start (`false`) or end (`true`) node.
    Node(bool, Rc<Column>),
    /// A property of the relationship: its key and its columns by [`Layout`], each set
    /// before a run first reads that layout ([`Scan::prepare`]).
    Rel(Sym, [OnceCell<Rc<Column>>; 3]),
    /// `NOT e`.
    Not(Box<HExpr>),
    /// `a AND b`.
    And(Box<HExpr>, Box<HExpr>),
    /// `a OR b`.
    Or(Box<HExpr>, Box<HExpr>),
    /// `a XOR b`.
    Xor(Box<HExpr>, Box<HExpr>),
    /// A comparison chain.
    Compare(Box<HExpr>, Vec<(CmpOp, HExpr)>),
    /// Arithmetic.
    Arith(ArithOp, Box<HExpr>, Box<HExpr>),
    /// `e IS [NOT] NULL`.
    IsNull(Box<HExpr>, bool),
    /// Any other form, evaluated over the row.
    Row(SExpr),
}

/// A [`Hop`] compiled against the graph with the expressions a consumer needs per match.
pub struct Scan<'h, 'c> {
    pub(crate) hop: &'h Hop<'c>,
    pub(crate) names: &'h [String],
    pub(crate) at_start: Vec<HExpr>,
    pub(crate) at_end: Vec<HExpr>,
    split: bool,
    pub(crate) exprs: Vec<HExpr>,
    /// Per expression: whether it reads only the start node ([`start_only`]).
    once: Vec<bool>,
    /// How many leading expressions are grouping keys, when matches go to the sink in
    /// runs (one per start node).
    runs: Option<usize>,
    /// Whether each match's relationship and end node must be written to the row (for
    /// expressions evaluated over it, or for a sink that takes every row).
    needs_row: bool,
    /// Whether a relationship property is read from a column in adjacency order.
    reads_rel: bool,
}

/// The most matches handed to [`Sink::run`] at once (bounds the memory a run holds).
const RUN_MAX: usize = 4096;

/// One expression's values over a run of matches, packed as integers while every value
/// is one.
#[derive(Default)]
pub struct Run {
    ints: Vec<i64>,
    vals: Vec<Value>,
    /// Whether a value was not an integer: then all of them are in `vals`.
    mixed: bool,
}

impl Run {
    #[inline]
    fn push_int(&mut self, i: i64) {
        if self.mixed { self.vals.push(Value::Int(i)) } else { self.ints.push(i) }
    }

    fn push(&mut self, v: Value) {
        if let Value::Int(i) = v {
            return self.push_int(i);
        }
        if !self.mixed {
            self.vals.extend(self.ints.drain(..).map(Value::Int));
            self.mixed = true;
        }
        self.vals.push(v);
    }

    fn clear(&mut self) {
        self.ints.clear();
        self.vals.clear();
        self.mixed = false;
    }

    /// The values, when every one is an integer.
    pub fn ints(&self) -> Option<&[i64]> {
        (!self.mixed).then_some(self.ints.as_slice())
    }

    /// How many values there are.
    pub fn len(&self) -> usize {
        if self.mixed { self.vals.len() } else { self.ints.len() }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th value (null past the end).
    pub fn get(&self, i: usize) -> Value {
        if self.mixed { self.vals.get(i).cloned().unwrap_or(Value::Null) } else { self.ints.get(i).map_or(Value::Null, |&x| Value::Int(x)) }
    }
}

/// Where a scan's matches go.
pub trait Sink {
    /// One match: the values of the scan's expressions over it, and the extended row.
    fn row(&mut self, vals: &[Value], row: &[Value]) -> Result<()>;

    /// Whether the sink needs no more rows (a LIMIT has its rows): the scan stops.
    fn full(&self) -> bool;

    /// `n` matches, in order, whose leading expressions (the grouping keys) all have the
    /// values `key`: `args[j]` holds, per match, the value of the `j`-th expression after
    /// the keys; `row` is the first match's extended row. Must come out as [`Sink::row`]
    /// on each match in turn would.
    fn run(&mut self, key: &[Value], args: &[Run], n: usize, row: &[Value]) -> Result<()>;

    /// What each aggregate totals, when the sink aggregates with nothing added yet and
    /// every aggregate is one whose result does not depend on the order of the rows.
    fn totals(&self) -> Option<Vec<Total>>;

    /// One group's totals ([`Sink::totals`]): its key, its `n` rows, one [`Tot`] per
    /// aggregate, and the extended row of its first match. Groups come in the order the
    /// rows would first have met them.
    fn add_totals(&mut self, key: &[Value], n: i64, tots: &[Tot], row: &[Value]) -> Result<()>;
}

impl<'h, 'c> Scan<'h, 'c> {
    /// Compiles the hop's WHERE conjuncts and `exprs` (compiled against `names`, the
    /// MATCH's extended row). `grouped`: how many leading expressions are grouping keys,
    /// when the consumer aggregates; if they read only the start node, each start node's
    /// matches go to [`Sink::run`] at once.
    pub fn new(ctx: &Ctx, hop: &'h Hop<'c>, names: &'h [String], exprs: &[&SExpr], grouped: Option<usize>) -> Self {
        let (start, end, split) = hop.filters();
        let c = |e: &SExpr| compile(ctx, hop, e);
        let exprs: Vec<HExpr> = exprs.iter().map(|e| c(e)).collect();
        let once: Vec<bool> = exprs.iter().map(start_only).collect();
        let runs = grouped.filter(|&k| once.iter().take(k).all(|&o| o) && k <= once.len());
        let at_end: Vec<HExpr> = end.into_iter().map(c).collect();
        let needs_row = runs.is_none() || at_end.iter().chain(&exprs).any(reads_row);
        let at_start: Vec<HExpr> = start.iter().map(c).collect();
        let reads_rel = at_start.iter().chain(&at_end).chain(&exprs).any(reads_rel);
        Scan { hop, names, at_start, at_end, split, exprs, once, runs, needs_row, reads_rel }
    }

    /// Runs the scan from the input row `input`, handing every match, in the matcher's
    /// order, to `sink` (or, when the sink aggregates and the totals cannot depend on the
    /// order, each group's totals: [`crate::totals`]). Whether any row matched.
    pub fn run(&self, ctx: &Ctx, input: &[Value], sink: &mut impl Sink) -> Result<bool> {
        if let Some(nk) = self.runs
            && self.totals_shape()
            && let Some(aggs) = sink.totals()
            && let Some(any) = self.run_totals(ctx, input, nk, &aggs, sink)?
        {
            return Ok(any);
        }
        let g = ctx.graph;
        let [sa, sr, sb] = self.hop.slots;
        let mut row = input.to_vec();
        row.resize(self.names.len(), Value::Null);
        let sides: &[bool] = match self.hop.dir {
            Dir::Right => &[false],
            Dir::Left => &[true],
            Dir::Both => &[false, true],
        };
        // The adjacency when a relationship property is read in its order (or it exists
        // already); else each node's own list, which gives the same steps in the same
        // order without building anything (but reads them from across the heap).
        let adj_of = |incoming: bool| match sides.contains(&incoming) && self.reads_rel {
            true => Some(g.adjacency(incoming)),
            false => g.built_adjacency(incoming),
        };
        let (adj_out, adj_in) = (adj_of(false), adj_of(true));
        for &incoming in sides {
            self.prepare(g, if incoming { Layout::In } else { Layout::Out });
        }
        // The values handed to the sink; those of start-only expressions are taken at the
        // start node's first match and kept for its other matches (`stale` until then).
        let mut vals: Vec<Value> = vec![Value::Null; self.exprs.len()];
        let mut stale = vec![true; self.exprs.len()];
        // With runs: the values of the expressions after the keys, per match of the
        // current run, and the run's first match (relationship, end node).
        let nk = self.runs.unwrap_or(0);
        let mut cols: Vec<Run> = (nk..self.exprs.len()).map(|_| Run::default()).collect();
        let mut first: Option<(usize, NodeId)> = None;
        let mut n = 0;
        let mut any = false;
        // Every node fits the end node pattern: no need to look at its labels.
        let any_end = self.hop.fits_every_node(g, true);
        let types = self.hop.types();
        for &a in self.hop.starts(g).iter() {
            GqlError::check_cancelled()?;
            if self.runs.is_none() && sink.full() {
                break;
            }
            if !self.hop.node_fits(g, false, a) {
                continue;
            }
            set_small(&mut row[sa], Value::Node(a));
            stale.iter_mut().for_each(|s| *s = true);
            let mut cur = Cursor { a, ..Cursor::default() };
            if !self.pass(ctx, &self.at_start, &row, cur)? {
                continue;
            }
            for &incoming in sides {
                let (base, edges) = match if incoming { &adj_in } else { &adj_out } {
                    Some(adj) => adj.steps(a),
                    None => (0, if incoming { &g.inc } else { &g.out }.get(a).map_or(&[][..], Vec::as_slice)),
                };
                for (i, e) in edges.iter().enumerate() {
                    // An undirected pattern takes a self-loop once (from the outgoing side).
                    if incoming && self.hop.dir == Dir::Both && e.other() == a {
                        continue;
                    }
                    if !types.fits(e.typ) || !(any_end || self.hop.node_fits(g, true, e.other())) {
                        continue;
                    }
                    if self.needs_row {
                        set_small(&mut row[sr], Value::Rel(e.rel()));
                        set_small(&mut row[sb], Value::Node(e.other()));
                    }
                    let layout = if incoming { Layout::In } else { Layout::Out };
                    cur = Cursor { a, rel: e.rel(), b: e.other(), pos: base + i, layout };
                    let step = self.step(ctx, &row, cur, &mut vals, &mut stale, &mut cols);
                    let passed = match step {
                        Ok(p) => p,
                        Err(err) => {
                            // The matches before this one are handed over first: an
                            // error they raise comes before this one.
                            self.flush(sink, &mut row, &vals, &mut cols, first, n)?;
                            return Err(err);
                        }
                    };
                    if !passed {
                        continue;
                    }
                    any = true;
                    if self.runs.is_some() {
                        first.get_or_insert((e.rel(), e.other()));
                        n += 1;
                        // A start node with very many matches is handed over in pieces.
                        if n == RUN_MAX {
                            self.flush(sink, &mut row, &vals, &mut cols, first.take(), n)?;
                            n = 0;
                        }
                    } else {
                        sink.row(&vals, &row)?;
                        if sink.full() {
                            return Ok(any);
                        }
                    }
                }
            }
            self.flush(sink, &mut row, &vals, &mut cols, first.take(), n)?;
            n = 0;
        }
        Ok(any)
    }

    /// Sets the relationship property columns of `layout` in every expression.
    pub(crate) fn prepare(&self, g: &Graph, layout: Layout) {
        self.at_start.iter().chain(&self.at_end).chain(&self.exprs).for_each(|e| prepare(g, e, layout));
    }

    /// One candidate match: whether it passes the WHERE conjuncts tested at its end and,
    /// if so, its expression values (into `vals`, or with runs appended to `cols`).
    #[inline]
    fn step(&self, ctx: &Ctx, row: &[Value], cur: Cursor, vals: &mut [Value], stale: &mut [bool], cols: &mut [Run]) -> Result<bool> {
        if !self.at_end.is_empty() && !self.pass(ctx, &self.at_end, row, cur)? {
            return Ok(false);
        }
        if let Some(nk) = self.runs {
            // The keys read only the start node: taken at its first match.
            if stale.first().copied().unwrap_or(false) {
                for (x, v) in self.exprs.iter().zip(vals.iter_mut()).take(nk) {
                    *v = self.eval(ctx, x, row, cur)?;
                }
                stale.iter_mut().for_each(|s| *s = false);
            }
            for (x, col) in self.exprs.iter().skip(nk).zip(cols.iter_mut()) {
                match int(x, cur) {
                    Some(i) => col.push_int(i),
                    None => col.push(self.eval(ctx, x, row, cur)?),
                }
            }
            return Ok(true);
        }
        for (((x, once), v), st) in self.exprs.iter().zip(&self.once).zip(vals.iter_mut()).zip(stale.iter_mut()) {
            if *st {
                match int(x, cur) {
                    Some(i) => set_small(v, Value::Int(i)),
                    None => *v = self.eval(ctx, x, row, cur)?,
                }
                *st = !*once;
            }
        }
        Ok(true)
    }

    /// With runs: hands the `n` collected matches of the current start node to the sink
    /// (`first` is the first of them) and clears them.
    fn flush(&self, sink: &mut impl Sink, row: &mut [Value], vals: &[Value], cols: &mut [Run], first: Option<(usize, NodeId)>, n: usize) -> Result<()> {
        let (Some(nk), Some((r, b))) = (self.runs, first) else { return Ok(()) };
        let [_, sr, sb] = self.hop.slots;
        row[sr] = Value::Rel(r);
        row[sb] = Value::Node(b);
        let done = sink.run(vals.get(..nk).unwrap_or(&[]), cols, n, row);
        cols.iter_mut().for_each(Run::clear);
        done
    }

    /// Whether every conjunct in `fs` holds (as [`SExpr::holds`]).
    fn pass(&self, ctx: &Ctx, fs: &[HExpr], row: &[Value], cur: Cursor) -> Result<bool> {
        for f in fs {
            if let Some(b) = truth_fast(f, cur) {
                if !b {
                    return Ok(false);
                }
                continue;
            }
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
        if matches!(e, HExpr::Arith(..) | HExpr::Compare(..))
            && let Some(v) = fast(e, cur)
        {
            return Ok(v);
        }
        Ok(match e {
            HExpr::Lit(v) => v.clone(),
            HExpr::Var(0) => Value::Node(cur.a),
            HExpr::Var(1) => Value::Rel(cur.rel),
            HExpr::Var(_) => Value::Node(cur.b),
            HExpr::Node(end, col) => col.get(if *end { cur.b } else { cur.a }),
            HExpr::Rel(_, cols) => match cols[cur.layout as usize].get() {
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

/// Sets the relationship property columns of `layout` in `e`.
pub(crate) fn prepare(g: &Graph, e: &HExpr, layout: Layout) {
    match e {
        HExpr::Rel(k, cols) => {
            cols[layout as usize].get_or_init(|| match layout {
                Layout::Out => g.list_rel_column(*k, false),
                Layout::In => g.list_rel_column(*k, true),
                Layout::ById => g.rel_column(*k),
            });
        }
        HExpr::Lit(_) | HExpr::Var(_) | HExpr::Node(..) | HExpr::Row(_) => {}
        HExpr::Not(x) | HExpr::IsNull(x, _) => prepare(g, x, layout),
        HExpr::And(a, b) | HExpr::Or(a, b) | HExpr::Xor(a, b) | HExpr::Arith(_, a, b) => {
            prepare(g, a, layout);
            prepare(g, b, layout);
        }
        HExpr::Compare(a, chain) => {
            prepare(g, a, layout);
            chain.iter().for_each(|(_, x)| prepare(g, x, layout));
        }
    }
}

/// Stores a node, relationship or integer in a slot, in place when the slot already holds
/// one of that kind (the common case inside a scan: no drop of the old value).
#[inline]
fn set_small(slot: &mut Value, v: Value) {
    match (&mut *slot, v) {
        (Value::Rel(x), Value::Rel(y)) | (Value::Node(x), Value::Node(y)) => *x = y,
        (Value::Int(x), Value::Int(y)) => *x = y,
        (s, v) => *s = v,
    }
}

/// The integer value of `e`, when every operand is a non-null integer and no operation
/// overflows or divides by zero: then it is exactly what [`arith`] would give, without
/// building values. `None` sends the caller to the general evaluation (which also raises
/// the errors).
#[inline(always)]
pub(crate) fn int(e: &HExpr, cur: Cursor) -> Option<i64> {
    let col = |c: &Column, i: usize| match c {
        Column::Ints(v) => v.get(i).copied().filter(|&x| x != i64::MIN),
        Column::Values(_) => None,
    };
    match e {
        HExpr::Lit(Value::Int(i)) => Some(*i),
        HExpr::Node(end, c) => col(c, if *end { cur.b } else { cur.a }),
        HExpr::Rel(_, cols) => col(cols[cur.layout as usize].get()?, cur.pos),
        HExpr::Arith(op, a, b) => int_arith(*op, a, b, cur),
        _ => None,
    }
}

/// [`int`] of `a op b` (out of line: the leaves above are the hot case).
#[inline(never)]
fn int_arith(op: ArithOp, a: &HExpr, b: &HExpr, cur: Cursor) -> Option<i64> {
    let (x, y) = (int(a, cur)?, int(b, cur)?);
    match op {
        ArithOp::Add => x.checked_add(y),
        ArithOp::Sub => x.checked_sub(y),
        ArithOp::Mul => x.checked_mul(y),
        ArithOp::Div if y != 0 => x.checked_div(y),
        ArithOp::Mod if y != 0 => Some(x.checked_rem(y).unwrap_or(0)),
        _ => None,
    }
}

/// The boolean value of `e` when it is a comparison (or NOT/AND/OR of comparisons) of
/// integers as [`int`] reads them: what the general evaluation would give, without values.
pub(crate) fn truth_fast(e: &HExpr, cur: Cursor) -> Option<bool> {
    match e {
        HExpr::Compare(first, chain) => {
            let mut left = int(first, cur)?;
            let mut acc = true;
            for (op, rhs) in chain {
                let right = int(rhs, cur)?;
                acc &= op.holds(left.cmp(&right));
                left = right;
            }
            Some(acc)
        }
        HExpr::Not(x) => truth_fast(x, cur).map(|b| !b),
        HExpr::And(a, b) => Some(truth_fast(a, cur)? & truth_fast(b, cur)?),
        HExpr::Or(a, b) => Some(truth_fast(a, cur)? | truth_fast(b, cur)?),
        _ => None,
    }
}

/// [`int`] or [`truth_fast`] as a value.
fn fast(e: &HExpr, cur: Cursor) -> Option<Value> {
    match e {
        HExpr::Compare(..) => truth_fast(e, cur).map(Value::Bool),
        _ => int(e, cur).map(Value::Int),
    }
}

/// Whether `e` reads nothing but the start node (and constants): its value is then the
/// same for every relationship of one start node.
fn start_only(e: &HExpr) -> bool {
    match e {
        HExpr::Lit(_) | HExpr::Node(false, _) | HExpr::Var(0) => true,
        HExpr::Node(true, _) | HExpr::Var(_) | HExpr::Rel(..) | HExpr::Row(_) => false,
        HExpr::Not(x) | HExpr::IsNull(x, _) => start_only(x),
        HExpr::And(a, b) | HExpr::Or(a, b) | HExpr::Xor(a, b) | HExpr::Arith(_, a, b) => start_only(a) && start_only(b),
        HExpr::Compare(a, chain) => start_only(a) && chain.iter().all(|(_, x)| start_only(x)),
    }
}

/// Whether `e` reads a relationship property column (laid out in adjacency order).
fn reads_rel(e: &HExpr) -> bool {
    match e {
        HExpr::Rel(..) => true,
        HExpr::Lit(_) | HExpr::Var(_) | HExpr::Node(..) | HExpr::Row(_) => false,
        HExpr::Not(x) | HExpr::IsNull(x, _) => reads_rel(x),
        HExpr::And(a, b) | HExpr::Or(a, b) | HExpr::Xor(a, b) | HExpr::Arith(_, a, b) => reads_rel(a) || reads_rel(b),
        HExpr::Compare(a, chain) => reads_rel(a) || chain.iter().any(|(_, x)| reads_rel(x)),
    }
}

/// Whether `e` evaluates anything over the row.
fn reads_row(e: &HExpr) -> bool {
    match e {
        HExpr::Row(_) => true,
        HExpr::Lit(_) | HExpr::Var(_) | HExpr::Node(..) | HExpr::Rel(..) => false,
        HExpr::Not(x) | HExpr::IsNull(x, _) => reads_row(x),
        HExpr::And(a, b) | HExpr::Or(a, b) | HExpr::Xor(a, b) | HExpr::Arith(_, a, b) => reads_row(a) || reads_row(b),
        HExpr::Compare(a, chain) => reads_row(a) || chain.iter().any(|(_, x)| reads_row(x)),
    }
}

/// Compiles `e` for the scan of `hop`.
fn compile(ctx: &Ctx, hop: &Hop, e: &SExpr) -> HExpr {
    let c = |x: &SExpr| Box::new(compile(ctx, hop, x));
    let g = ctx.graph;
    let [sa, sr, sb] = hop.slots;
    match e {
        SExpr::Lit(v) => HExpr::Lit(v.clone()),
        SExpr::Slot(i) if *i == sa => HExpr::Var(0),
        SExpr::Slot(i) if *i == sr => HExpr::Var(1),
        SExpr::Slot(i) if *i == sb => HExpr::Var(2),
        SExpr::Prop(base, key, _, _) => match (&**base, key) {
            // The pattern's variables are always a node or a relationship here, and a key
            // the graph has never seen is null on both.
            (SExpr::Slot(i), None) if [sa, sr, sb].contains(i) => HExpr::Lit(Value::Null),
            (SExpr::Slot(i), Some(k)) if *i == sa || *i == sb => HExpr::Node(*i == sb, g.node_column(*k)),
            (SExpr::Slot(i), Some(k)) if *i == sr => HExpr::Rel(*k, Default::default()),
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
