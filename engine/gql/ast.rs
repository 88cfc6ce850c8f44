//! The GQL syntax tree: what `parse` produces and `check` and `eval` consume. Expressions
//! keep their source text where openCypher needs it (unaliased column names) and clauses
//! their byte offset (error positions).

use crate::value::Value;

/// A whole statement: single queries joined by UNION (`all[i]` says whether the i-th
/// UNION is `UNION ALL`).
#[derive(Clone, Debug)]
pub struct Query {
    /// The single queries, at least one.
    pub parts: Vec<SingleQuery>,
    /// One flag per UNION between parts.
    pub union_all: Vec<bool>,
}

/// A sequence of clauses.
#[derive(Clone, Debug)]
pub struct SingleQuery {
    /// The clauses in order.
    pub clauses: Vec<Clause>,
}

/// One clause, with the byte offset where it starts.
#[derive(Clone, Debug)]
pub struct Clause {
    /// Byte offset in the query text.
    pub pos: usize,
    /// What the clause does.
    pub kind: ClauseKind,
}

/// The clauses of the language (openCypher 9 "Clauses").
#[derive(Clone, Debug)]
pub enum ClauseKind {
    /// `[OPTIONAL] MATCH pattern [WHERE e]`.
    Match {
        /// OPTIONAL MATCH: a row without a match survives with nulls.
        optional: bool,
        /// The comma-separated pattern parts.
        pattern: Vec<PatternPart>,
        /// The WHERE filter.
        filter: Option<Expr>,
    },
    /// `UNWIND e AS v`.
    Unwind {
        /// The list.
        expr: Expr,
        /// The variable.
        var: String,
    },
    /// `WITH … [WHERE e]`.
    With {
        /// The projection.
        proj: Projection,
        /// The WHERE filter after the projection.
        filter: Option<Expr>,
    },
    /// `RETURN …`.
    Return(Projection),
    /// `CREATE pattern` (scripts only).
    Create(Vec<PatternPart>),
    /// `CALL proc() [YIELD field [AS var], …]`: a catalogue procedure.
    Call {
        /// The procedure name as written (`db.labels`).
        name: String,
        /// Arguments (`tg.search('query', 5)`).
        args: Vec<Expr>,
        /// `(field, variable)` pairs; empty when there is no YIELD.
        yields: Vec<(String, String)>,
    },
    /// SET, DELETE, MERGE, REMOVE: parsed only to be refused.
    Write(String),
}

/// The body shared by WITH and RETURN.
#[derive(Clone, Debug)]
pub struct Projection {
    /// DISTINCT.
    pub distinct: bool,
    /// `*`: every variable in scope.
    pub star: bool,
    /// The items.
    pub items: Vec<ProjItem>,
    /// ORDER BY keys; `true` means descending.
    pub order: Vec<(Expr, bool)>,
    /// SKIP.
    pub skip: Option<Expr>,
    /// LIMIT.
    pub limit: Option<Expr>,
}

/// `expr [AS alias]`.
#[derive(Clone, Debug)]
pub struct ProjItem {
    /// The expression.
    pub expr: Expr,
    /// The alias, if given.
    pub alias: Option<String>,
    /// The expression's source text (the column name when there is no alias).
    pub text: String,
}

impl ProjItem {
    /// The column name.
    pub fn name(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.text)
    }
}

/// `[p =] element` or `p = shortestPath(element)`.
#[derive(Clone, Debug)]
pub struct PatternPart {
    /// The path variable.
    pub var: Option<String>,
    /// `Some(false)` for shortestPath, `Some(true)` for allShortestPaths.
    pub shortest: Option<bool>,
    /// The chain.
    pub element: PatternElement,
}

/// `(a)-[r]->(b)…`: `nodes.len() == rels.len() + 1`.
#[derive(Clone, Debug)]
pub struct PatternElement {
    /// Node patterns.
    pub nodes: Vec<NodePat>,
    /// Relationship patterns between them.
    pub rels: Vec<RelPat>,
}

/// Where a pattern was written: byte offsets `[start, end)` in the query or script text.
/// Its `Debug` form is empty, so [`Expr::canon`] stays independent of positions.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct SrcSpan(pub usize, pub usize);

impl std::fmt::Debug for SrcSpan {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Ok(())
    }
}

/// `(v:L1:L2 {k: e})`.
#[derive(Clone, Debug)]
pub struct NodePat {
    /// The variable (anonymous ones get a generated name starting with a space).
    pub var: Option<String>,
    /// Required labels.
    pub labels: Vec<String>,
    /// Required property values (a map literal or a parameter).
    pub props: Option<Expr>,
    /// Where it was written.
    pub span: SrcSpan,
}

/// Direction of a relationship pattern as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// `-->`.
    Right,
    /// `<--`.
    Left,
    /// `--` or `<-->`.
    Both,
}

/// `-[v:T|U*m..n {k: e}]->`.
#[derive(Clone, Debug)]
pub struct RelPat {
    /// The variable.
    pub var: Option<String>,
    /// Allowed types (empty: any).
    pub types: Vec<String>,
    /// Direction.
    pub dir: Dir,
    /// Variable length: `(min, max)`; `None` is a single hop.
    pub range: Option<(Option<u64>, Option<u64>)>,
    /// Required property values.
    pub props: Option<Expr>,
    /// Where it was written.
    pub span: SrcSpan,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `=`.
    Eq,
    /// `<>`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

impl CmpOp {
    /// Whether the operator holds between two values that compare as `o` (for values with
    /// a total order; openCypher's nulls, NaN and equality rules are the caller's).
    pub fn holds(self, o: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            CmpOp::Eq => o == Equal,
            CmpOp::Ne => o != Equal,
            CmpOp::Lt => o == Less,
            CmpOp::Le => o != Greater,
            CmpOp::Gt => o == Greater,
            CmpOp::Ge => o != Less,
        }
    }
}

/// Arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    /// `+` (also string and list concatenation).
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Mod,
    /// `^` (always a float).
    Pow,
}

/// String predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrOp {
    /// `STARTS WITH`.
    Starts,
    /// `ENDS WITH`.
    Ends,
    /// `CONTAINS`.
    Contains,
}

/// List quantifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quant {
    /// `all(…)`.
    All,
    /// `any(…)`.
    Any,
    /// `none(…)`.
    None,
    /// `single(…)`.
    Single,
}

/// An expression.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A constant.
    Lit(Value),
    /// `$name`.
    Param(String),
    /// A variable, with its byte offset.
    Var(String, usize),
    /// `e.key`.
    Prop(Box<Expr>, String),
    /// `e[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// `e[a..b]`.
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    /// `e:L1:L2`.
    HasLabels(Box<Expr>, Vec<String>),
    /// `[a, b]`.
    List(Vec<Expr>),
    /// `{k: e}`.
    Map(Vec<(String, Expr)>),
    /// `NOT e`.
    Not(Box<Expr>),
    /// `a AND b`.
    And(Box<Expr>, Box<Expr>),
    /// `a OR b`.
    Or(Box<Expr>, Box<Expr>),
    /// `a XOR b`.
    Xor(Box<Expr>, Box<Expr>),
    /// `a < b <= c`: a chain, each link joined by AND.
    Compare(Box<Expr>, Vec<(CmpOp, Expr)>),
    /// Arithmetic.
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    /// Unary minus.
    Neg(Box<Expr>),
    /// STARTS WITH, ENDS WITH, CONTAINS.
    StrPred(StrOp, Box<Expr>, Box<Expr>),
    /// `a IN list`.
    In(Box<Expr>, Box<Expr>),
    /// `a =~ regex`.
    Regex(Box<Expr>, Box<Expr>),
    /// `e IS NULL` (`true`) or `e IS NOT NULL` (`false`).
    IsNull(Box<Expr>, bool),
    /// `CASE [subject] WHEN … THEN … [ELSE …] END`.
    Case(Option<Box<Expr>>, Vec<(Expr, Expr)>, Option<Box<Expr>>),
    /// `count(*)`.
    CountStar,
    /// A function call (name lower-cased), with DISTINCT for aggregates.
    Func(String, bool, Vec<Expr>, usize),
    /// `[v IN list WHERE p | m]`.
    ListComp(String, Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    /// `[p = (a)-->(b) WHERE pred | m]`.
    PatternComp(Option<String>, PatternElement, Option<Box<Expr>>, Box<Expr>),
    /// `all/any/none/single(v IN list WHERE p)`.
    Quant(Quant, String, Box<Expr>, Option<Box<Expr>>),
    /// A relationship pattern used as a predicate.
    PatternPred(PatternElement),
    /// `EXISTS { [MATCH] pattern [WHERE e] }`.
    Exists(Vec<PatternPart>, Option<Box<Expr>>),
    /// `EXISTS { MATCH … [WITH …] [RETURN …] }`: a full subquery.
    ExistsQuery(Box<SingleQuery>),
    /// The i-th aggregate of the enclosing projection (made by the evaluator).
    AggRef(usize),
    /// `n {.a, .*, k: e, v}`: the base, whether `.*` was given, and the entries in order
    /// (`.a` is `a: n.a`, `v` is `v: v`).
    MapProj(Box<Expr>, bool, Vec<(String, Expr)>),
}

/// The aggregate functions (lower-case names).
pub const AGGREGATES: &[&str] = &["count", "sum", "avg", "min", "max", "collect", "stdev", "stdevp", "percentilecont", "percentiledisc"];

impl Expr {
    /// Whether the expression contains an aggregate outside nested scopes.
    pub fn has_aggregate(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| {
            if matches!(e, Expr::CountStar) || matches!(e, Expr::Func(n, ..) if AGGREGATES.contains(&n.as_str())) {
                found = true;
            }
        });
        found
    }

    /// Calls `f` on this expression and every sub-expression (pre-order).
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Lit(_) | Expr::Param(_) | Expr::Var(..) | Expr::CountStar | Expr::AggRef(_) | Expr::PatternPred(_) | Expr::Exists(..) | Expr::ExistsQuery(_) => {}
            Expr::Prop(e, _) | Expr::HasLabels(e, _) | Expr::Not(e) | Expr::Neg(e) | Expr::IsNull(e, _) => e.walk(f),
            Expr::Index(a, b) | Expr::And(a, b) | Expr::Or(a, b) | Expr::Xor(a, b) | Expr::Arith(_, a, b) | Expr::StrPred(_, a, b) | Expr::In(a, b) | Expr::Regex(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            Expr::Slice(a, b, c) => {
                a.walk(f);
                if let Some(b) = b {
                    b.walk(f);
                }
                if let Some(c) = c {
                    c.walk(f);
                }
            }
            Expr::List(v) | Expr::Func(_, _, v, _) => v.iter().for_each(|e| e.walk(f)),
            Expr::Map(v) => v.iter().for_each(|(_, e)| e.walk(f)),
            Expr::MapProj(b, _, v) => {
                b.walk(f);
                v.iter().for_each(|(_, e)| e.walk(f));
            }
            Expr::Compare(a, v) => {
                a.walk(f);
                v.iter().for_each(|(_, e)| e.walk(f));
            }
            Expr::Case(s, alts, e) => {
                if let Some(s) = s {
                    s.walk(f);
                }
                for (a, b) in alts {
                    a.walk(f);
                    b.walk(f);
                }
                if let Some(e) = e {
                    e.walk(f);
                }
            }
            Expr::ListComp(_, l, p, m) => {
                l.walk(f);
                if let Some(p) = p {
                    p.walk(f);
                }
                if let Some(m) = m {
                    m.walk(f);
                }
            }
            Expr::Quant(_, _, l, p) => {
                l.walk(f);
                if let Some(p) = p {
                    p.walk(f);
                }
            }
            Expr::PatternComp(_, _, p, m) => {
                if let Some(p) = p {
                    p.walk(f);
                }
                m.walk(f);
            }
        }
    }
}

impl Expr {
    /// Calls `f` on this expression and every sub-expression, mutably (pre-order).
    pub fn walk_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        f(self);
        match self {
            Expr::Lit(_) | Expr::Param(_) | Expr::Var(..) | Expr::CountStar | Expr::AggRef(_) | Expr::PatternPred(_) | Expr::Exists(..) | Expr::ExistsQuery(_) => {}
            Expr::Prop(e, _) | Expr::HasLabels(e, _) | Expr::Not(e) | Expr::Neg(e) | Expr::IsNull(e, _) => e.walk_mut(f),
            Expr::Index(a, b) | Expr::And(a, b) | Expr::Or(a, b) | Expr::Xor(a, b) | Expr::Arith(_, a, b) | Expr::StrPred(_, a, b) | Expr::In(a, b) | Expr::Regex(a, b) => {
                a.walk_mut(f);
                b.walk_mut(f);
            }
            Expr::Slice(a, b, c) => {
                a.walk_mut(f);
                if let Some(b) = b {
                    b.walk_mut(f);
                }
                if let Some(c) = c {
                    c.walk_mut(f);
                }
            }
            Expr::List(v) | Expr::Func(_, _, v, _) => v.iter_mut().for_each(|e| e.walk_mut(f)),
            Expr::Map(v) => v.iter_mut().for_each(|(_, e)| e.walk_mut(f)),
            Expr::MapProj(b, _, v) => {
                b.walk_mut(f);
                v.iter_mut().for_each(|(_, e)| e.walk_mut(f));
            }
            Expr::Compare(a, v) => {
                a.walk_mut(f);
                v.iter_mut().for_each(|(_, e)| e.walk_mut(f));
            }
            Expr::Case(s, alts, e) => {
                if let Some(s) = s {
                    s.walk_mut(f);
                }
                for (a, b) in alts {
                    a.walk_mut(f);
                    b.walk_mut(f);
                }
                if let Some(e) = e {
                    e.walk_mut(f);
                }
            }
            Expr::ListComp(_, l, p, m) => {
                l.walk_mut(f);
                if let Some(p) = p {
                    p.walk_mut(f);
                }
                if let Some(m) = m {
                    m.walk_mut(f);
                }
            }
            Expr::Quant(_, _, l, p) => {
                l.walk_mut(f);
                if let Some(p) = p {
                    p.walk_mut(f);
                }
            }
            Expr::PatternComp(_, _, p, m) => {
                if let Some(p) = p {
                    p.walk_mut(f);
                }
                m.walk_mut(f);
            }
        }
    }

    /// A canonical text of the expression without source positions: two expressions
    /// with the same canon are the same expression (used to match ORDER BY and grouping
    /// keys against projection items).
    pub fn canon(&self) -> String {
        let mut c = self.clone();
        c.walk_mut(&mut |e| match e {
            Expr::Var(_, p) | Expr::Func(_, _, _, p) => *p = 0,
            _ => {}
        });
        format!("{c:?}")
    }

    /// Whether the expression is an aggregate call.
    pub fn is_aggregate(&self) -> bool {
        matches!(self, Expr::CountStar) || matches!(self, Expr::Func(n, ..) if AGGREGATES.contains(&n.as_str()))
    }
}
