//! Expressions resolved against a row layout before a clause runs: variables become slot
//! indexes, property keys graph symbols, parameters constants. The hot forms (variables,
//! properties, comparisons, boolean logic, arithmetic, function calls) evaluate without
//! looking anything up by name; every other form keeps its syntax tree and is evaluated by
//! [`Ctx::eval`] over the same row, so the semantics are the evaluator's in both cases.

use std::cell::{Cell, OnceCell};
use std::rc::Rc;

use crate::ast::{AGGREGATES, ArithOp, CmpOp, Expr};
use crate::error::Result;
use crate::eval::{Ctx, Env, and3, arith, cmp_op, or3, truth, tv, xor3};
use crate::functions;
use crate::graph::{Column, Sym};
use crate::value::Value;

/// An expression compiled against a list of names (see the module comment).
#[derive(Clone, Debug)]
pub enum SExpr {
    /// A constant (a literal or a parameter's value).
    Lit(Value),
    /// The value in a slot of the row.
    Slot(usize),
    /// `base.key`: the key's symbol when the graph knows it, its text, and the key's
    /// columns once the expression has been read often enough to pay for them.
    Prop(Box<SExpr>, Option<Sym>, String, Box<Columns>),
    /// `NOT e`.
    Not(Box<SExpr>),
    /// `a AND b` (both sides evaluated, as the evaluator does).
    And(Box<SExpr>, Box<SExpr>),
    /// `a OR b`.
    Or(Box<SExpr>, Box<SExpr>),
    /// `a XOR b`.
    Xor(Box<SExpr>, Box<SExpr>),
    /// A comparison chain.
    Compare(Box<SExpr>, Vec<(CmpOp, SExpr)>),
    /// Arithmetic.
    Arith(ArithOp, Box<SExpr>, Box<SExpr>),
    /// `e IS [NOT] NULL`.
    IsNull(Box<SExpr>, bool),
    /// A non-aggregate function call.
    Func(String, Vec<SExpr>),
    /// Anything else, evaluated by name lookup.
    Other(Expr),
}

/// How many reads of one property expression go through the per-element property
/// vectors before the key's whole column is built ([`crate::graph::Graph::node_column`]).
const COLUMN_AFTER: u32 = 4096;

/// The columns of one property key, built lazily for one [`SExpr::Prop`].
#[derive(Clone, Debug, Default)]
pub struct Columns {
    reads: Cell<u32>,
    nodes: OnceCell<Rc<Column>>,
    rels: OnceCell<Rc<Column>>,
}

impl Columns {
    /// Counts a read; whether the column should now be built.
    fn hot(&self) -> bool {
        let r = self.reads.get().saturating_add(1);
        self.reads.set(r);
        r >= COLUMN_AFTER
    }
}

/// Compiles `e` against `names` (innermost binding last, as [`crate::eval::lookup`]).
pub fn compile(ctx: &Ctx, e: &Expr, names: &[String]) -> SExpr {
    let c = |x: &Expr| Box::new(compile(ctx, x, names));
    match e {
        Expr::Lit(v) => SExpr::Lit(v.clone()),
        Expr::Param(p) => match ctx.params.get(p) {
            Some(v) => SExpr::Lit(v.clone()),
            None => SExpr::Other(e.clone()),
        },
        Expr::Var(n, _) => match names.iter().rposition(|x| x == n) {
            Some(i) => SExpr::Slot(i),
            None => SExpr::Other(e.clone()),
        },
        Expr::Prop(b, k) => SExpr::Prop(c(b), ctx.graph.sym(k), k.clone(), Box::default()),
        Expr::Not(x) => SExpr::Not(c(x)),
        Expr::And(a, b) => SExpr::And(c(a), c(b)),
        Expr::Or(a, b) => SExpr::Or(c(a), c(b)),
        Expr::Xor(a, b) => SExpr::Xor(c(a), c(b)),
        Expr::Compare(a, chain) => SExpr::Compare(c(a), chain.iter().map(|(o, x)| (*o, compile(ctx, x, names))).collect()),
        Expr::Arith(o, a, b) => SExpr::Arith(*o, c(a), c(b)),
        Expr::IsNull(x, n) => SExpr::IsNull(c(x), *n),
        Expr::Func(n, _, args, _) if !AGGREGATES.contains(&n.as_str()) => SExpr::Func(n.clone(), args.iter().map(|x| compile(ctx, x, names)).collect()),
        other => SExpr::Other(other.clone()),
    }
}

impl SExpr {
    /// Evaluates the expression over `row` (laid out as the `names` it was compiled with).
    pub fn eval(&self, ctx: &Ctx, names: &[String], row: &[Value], aggs: &[Value]) -> Result<Value> {
        let ev = |x: &SExpr| x.eval(ctx, names, row, aggs);
        Ok(match self {
            SExpr::Lit(v) => v.clone(),
            SExpr::Slot(i) => row.get(*i).cloned().unwrap_or(Value::Null),
            SExpr::Prop(b, k, key, cols) => {
                if let SExpr::Slot(i) = **b {
                    let g = ctx.graph;
                    match (row.get(i), k) {
                        (Some(Value::Node(_) | Value::Rel(_)), None) => return Ok(Value::Null),
                        (Some(Value::Node(n)), Some(k)) => {
                            if let Some(col) = cols.nodes.get() {
                                return Ok(col.get(*n));
                            }
                            if cols.hot() {
                                let _ = cols.nodes.set(g.node_column(*k));
                            }
                            return Ok(g.node_props(*n).get(*k).cloned().unwrap_or(Value::Null));
                        }
                        (Some(Value::Rel(r)), Some(k)) => {
                            if let Some(col) = cols.rels.get() {
                                return Ok(col.get(*r));
                            }
                            if cols.hot() {
                                let _ = cols.rels.set(g.rel_column(*k));
                            }
                            return Ok(g.rel_props(*r).get(*k).cloned().unwrap_or(Value::Null));
                        }
                        (Some(other), _) => return ctx.property(other, key),
                        (None, _) => return Ok(Value::Null),
                    }
                }
                ctx.property(&ev(b)?, key)?
            }
            SExpr::Not(x) => tv(truth(&ev(x)?, "NOT")?.map(|b| !b)),
            SExpr::And(a, b) => tv(and3(truth(&ev(a)?, "AND")?, truth(&ev(b)?, "AND")?)),
            SExpr::Or(a, b) => tv(or3(truth(&ev(a)?, "OR")?, truth(&ev(b)?, "OR")?)),
            SExpr::Xor(a, b) => tv(xor3(truth(&ev(a)?, "XOR")?, truth(&ev(b)?, "XOR")?)),
            SExpr::Compare(first, chain) => {
                let mut left = ev(first)?;
                let mut acc = Some(true);
                for (op, rhs) in chain {
                    let right = ev(rhs)?;
                    acc = and3(acc, cmp_op(*op, &left, &right));
                    left = right;
                }
                tv(acc)
            }
            SExpr::Arith(op, a, b) => arith(*op, &ev(a)?, &ev(b)?)?,
            SExpr::IsNull(x, want_null) => Value::Bool(ev(x)?.is_null() == *want_null),
            SExpr::Func(name, args) => {
                let vals = args.iter().map(ev).collect::<Result<Vec<_>>>()?;
                functions::call(ctx, name, &vals)?
            }
            SExpr::Other(e) => ctx.eval(e, &Env { names, row, aggs })?,
        })
    }

    /// Whether the expression is `true` over `row` (a WHERE test: null and false fail).
    /// A conjunct split out of `a AND b` must still be a boolean, as AND demands.
    pub fn holds(&self, ctx: &Ctx, names: &[String], row: &[Value], conjunct: bool) -> Result<bool> {
        let v = self.eval(ctx, names, row, &[])?;
        if conjunct {
            return Ok(truth(&v, "AND")? == Some(true));
        }
        Ok(matches!(v, Value::Bool(true)))
    }
}

/// Splits a WHERE condition into its top-level conjuncts.
pub fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::And(a, b) => {
            let mut v = conjuncts(a);
            v.extend(conjuncts(b));
            v
        }
        other => vec![other],
    }
}

/// The variables `e` reads, or `None` when it opens a scope of its own (comprehensions,
/// quantifiers, pattern predicates, subqueries), whose variables a walk cannot see.
pub fn free_vars(e: &Expr) -> Option<Vec<String>> {
    let mut vars = vec![];
    let mut scoped = false;
    e.walk(&mut |x| match x {
        Expr::Var(n, _) => vars.push(n.clone()),
        Expr::ListComp(..) | Expr::Quant(..) | Expr::PatternComp(..) | Expr::PatternPred(_) | Expr::Exists(..) | Expr::ExistsQuery(_) => scoped = true,
        _ => {}
    });
    if scoped { None } else { Some(vars) }
}
