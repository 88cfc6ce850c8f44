//! Rule → nested-loop plan: which atom is scanned in which order, through which index.
//!
//! A plan is a flat list of [`Op`]s run left to right as nested loops. For a
//! semi-naive version the delta atom comes first; then atoms sharing bound
//! variables in source order (a `.plan` overrides), and every filter,
//! assignment, negation and aggregate as soon as its variables are bound.

use super::ast::CmpOp;
use super::diag::{Diagnostic, Span};
use super::logic::{Aggregate, Expr, Kind, Lit, RelId, Rule, VarId};
use std::fmt::Write as _;

/// Which copy of a relation an atom reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Everything derived so far.
    Full,
    /// Only what the previous round added.
    Delta,
}

/// What to do with one column of a scanned row (positions are in index order).
#[derive(Clone, Debug, PartialEq)]
pub enum ColAction {
    /// Bind the variable to this position's word.
    Bind(usize, VarId),
    /// Require the word to equal the (already bound) variable.
    Check(usize, VarId),
}

/// A record destructuring pattern.
#[derive(Clone, Debug, PartialEq)]
pub enum Pat {
    /// Bind the field to a variable.
    Bind(VarId),
    /// The field must equal this expression's value.
    Check(Expr),
    /// The field must itself be a record matching these patterns.
    Nested(Vec<Pat>),
}

/// One step of a plan.
#[derive(Clone, Debug)]
pub enum Op {
    /// Loop over the rows of `rel` matching `key` on the first positions of index `perm`.
    Scan {
        /// Position of the atom in the rule body (for witnesses).
        atom: usize,
        /// Relation read.
        rel: RelId,
        /// Full or delta.
        source: Source,
        /// Column permutation of the index used.
        perm: Vec<usize>,
        /// Index id in the relation, filled in by the evaluator.
        index: usize,
        /// Values of the leading positions.
        key: Vec<Expr>,
        /// What to do with the remaining positions.
        cols: Vec<ColAction>,
    },
    /// Keep the binding only if the condition holds.
    Filter(Cond),
    /// Bind a variable to an expression's value.
    Assign(VarId, Expr),
    /// Destructure a bound record value.
    Unpack(Expr, Vec<Pat>),
    /// Keep the binding only if no row of `rel` starts with `key` in index `perm`.
    Neg {
        /// Relation negated.
        rel: RelId,
        /// Column permutation putting the bound columns first.
        perm: Vec<usize>,
        /// Index id, filled in by the evaluator.
        index: usize,
        /// Bound column values.
        key: Vec<Expr>,
    },
    /// Evaluate an aggregate with a sub-plan; bind (or check) its result.
    Agg {
        /// The aggregate.
        agg: Box<Aggregate>,
        /// Plan of its body.
        sub: Vec<Op>,
        /// True if `out` was bound before: the result is compared instead of bound.
        check: bool,
    },
    /// Loop over `range(from, to[, step])`.
    Range {
        /// Variable receiving each value.
        out: VarId,
        /// Kind of the values.
        kind: Kind,
        /// from, to, step.
        args: Vec<Expr>,
        /// True if `out` was bound before.
        check: bool,
    },
}

/// A boolean test.
#[derive(Clone, Debug)]
pub enum Cond {
    /// Comparison at a kind.
    Cmp(CmpOp, Kind, Expr, Expr),
    /// Regex match (positive or negated).
    Match(Expr, Expr, bool),
    /// Substring test (positive or negated).
    Contains(Expr, Expr, bool),
    /// Never true.
    False,
}

/// Plans a rule. `delta` is the body position of the atom read as delta (semi-naive version),
/// `version` its number among the rule's recursive atoms (for `.plan`).
pub fn plan_rule(rule: &Rule, delta: Option<usize>, version: usize, rel_arity: &dyn Fn(RelId) -> usize) -> Result<Vec<Op>, Diagnostic> {
    let mut bound = vec![false; rule.num_vars];
    let order = atom_order(rule, delta, version)?;
    let mut atom_vars = vec![];
    for l in &rule.body {
        if let Lit::Atom(a) = l {
            a.args.iter().for_each(|e| e.vars(&mut atom_vars));
        }
    }
    let mut p = Planner { ops: vec![], atom_vars, rel_arity, delta };
    p.plan(&rule.body, &order, &mut bound, rule.span)?;
    Ok(p.ops)
}

fn atom_order(rule: &Rule, delta: Option<usize>, version: usize) -> Result<Option<Vec<usize>>, Diagnostic> {
    let atoms: Vec<usize> = rule.body.iter().enumerate().filter(|(_, l)| matches!(l, Lit::Atom(_))).map(|(i, _)| i).collect();
    let Some((_, order)) = rule.plan.iter().find(|(v, _)| *v as usize == version) else {
        return Ok(delta.map(|d| vec![d]));
    };
    let mut seen = vec![false; atoms.len()];
    let mut out = vec![];
    for &o in order {
        let i = o as usize;
        if i == 0 || i > atoms.len() || seen[i - 1] {
            return Err(Diagnostic::error("TG0505", rule.span, format!("invalid execution plan: atom {o} does not exist or is repeated")));
        }
        seen[i - 1] = true;
        out.push(atoms[i - 1]);
    }
    if out.len() != atoms.len() {
        return Err(Diagnostic::error("TG0505", rule.span, "invalid execution plan: it must order every atom of the rule"));
    }
    Ok(Some(out))
}

struct Planner<'a> {
    ops: Vec<Op>,
    atom_vars: Vec<VarId>,
    rel_arity: &'a dyn Fn(RelId) -> usize,
    delta: Option<usize>,
}

fn is_bound(e: &Expr, bound: &[bool]) -> bool {
    let mut v = vec![];
    e.vars(&mut v);
    v.iter().all(|v| bound[*v])
}

impl Planner<'_> {
    fn plan(&mut self, body: &[Lit], forced: &Option<Vec<usize>>, bound: &mut [bool], span: Span) -> Result<(), Diagnostic> {
        let mut done = vec![false; body.len()];
        self.schedule_ready(body, &mut done, bound);
        // Forced prefix (delta atom or .plan order).
        if let Some(order) = forced {
            for &i in order {
                if !done[i] {
                    self.scan(body, i, bound);
                    done[i] = true;
                    self.schedule_ready(body, &mut done, bound);
                }
            }
        }
        loop {
            let next = (0..body.len()).filter(|&i| !done[i] && matches!(body[i], Lit::Atom(_))).min_by_key(|&i| {
                let Lit::Atom(a) = &body[i] else { return (1, i) };
                let connected = a.args.iter().any(|e| is_bound(e, bound));
                (if connected { 0 } else { 1 }, i)
            });
            let Some(i) = next else { break };
            self.scan(body, i, bound);
            done[i] = true;
            self.schedule_ready(body, &mut done, bound);
        }
        if let Some(i) = (0..body.len()).find(|&i| !done[i]) {
            let _ = i;
            return Err(Diagnostic::error("TG0203", span, "cannot order this rule: some literal can never have its variables bound"));
        }
        Ok(())
    }

    fn scan(&mut self, body: &[Lit], i: usize, bound: &mut [bool]) {
        let Lit::Atom(a) = &body[i] else { return };
        let arity = (self.rel_arity)(a.rel);
        let mut key_cols = vec![];
        let mut rest = vec![];
        for c in 0..arity.max(1) {
            match a.args.get(c) {
                Some(e) if is_bound(e, bound) => key_cols.push(c),
                Some(_) => rest.push(c),
                None => key_cols.push(c), // nullary: the dummy column is always 0
            }
        }
        let key: Vec<Expr> = key_cols.iter().map(|&c| a.args.get(c).cloned().unwrap_or(Expr::Const(0))).collect();
        let mut perm = key_cols.clone();
        perm.extend(&rest);
        let mut cols = vec![];
        for (pos, &c) in perm.iter().enumerate().skip(key_cols.len()) {
            if let Some(Expr::Var(v)) = a.args.get(c) {
                if bound[*v] {
                    cols.push(ColAction::Check(pos, *v));
                } else {
                    bound[*v] = true;
                    cols.push(ColAction::Bind(pos, *v));
                }
            }
        }
        let source = if self.delta == Some(i) { Source::Delta } else { Source::Full };
        self.ops.push(Op::Scan { atom: i, rel: a.rel, source, perm, index: 0, key, cols });
    }

    /// Schedules every non-atom literal whose inputs are bound, repeatedly (assignments bind more).
    fn schedule_ready(&mut self, body: &[Lit], done: &mut [bool], bound: &mut [bool]) {
        loop {
            let mut progress = false;
            for i in 0..body.len() {
                if done[i] {
                    continue;
                }
                if let Some(op) = self.ready(&body[i], bound) {
                    self.ops.push(op);
                    done[i] = true;
                    progress = true;
                }
            }
            if !progress {
                break;
            }
        }
    }

    fn ready(&mut self, lit: &Lit, bound: &mut [bool]) -> Option<Op> {
        match lit {
            Lit::Atom(_) => None,
            Lit::False => Some(Op::Filter(Cond::False)),
            Lit::Neg(rel, args, _) => {
                if !args.iter().flatten().all(|e| is_bound(e, bound)) {
                    return None;
                }
                let arity = (self.rel_arity)(*rel);
                let mut perm: Vec<usize> = (0..arity).filter(|&c| args[c].is_some()).collect();
                let key: Vec<Expr> = perm.iter().filter_map(|&c| args[c].clone()).collect();
                perm.extend((0..arity).filter(|&c| args[c].is_none()));
                if arity == 0 {
                    return Some(Op::Neg { rel: *rel, perm: vec![0], index: 0, key: vec![Expr::Const(0)] });
                }
                Some(Op::Neg { rel: *rel, perm, index: 0, key })
            }
            Lit::Cmp(CmpOp::Eq, k, a, b, _) => {
                let (ab, bb) = (is_bound(a, bound), is_bound(b, bound));
                if ab && bb {
                    return Some(Op::Filter(Cond::Cmp(CmpOp::Eq, *k, a.clone(), b.clone())));
                }
                for (x, y, yb) in [(a, b, bb), (b, a, ab)] {
                    if !yb {
                        continue;
                    }
                    match x {
                        // A float bound by an atom is compared, not assigned: 0.0 = -0.0 but their bits differ.
                        Expr::Var(v) if *k == Kind::Float && self.atom_vars.contains(v) => {}
                        Expr::Var(v) => {
                            bound[*v] = true;
                            return Some(Op::Assign(*v, y.clone()));
                        }
                        Expr::Record(fields) => {
                            let pats = pattern(fields, bound);
                            return Some(Op::Unpack(y.clone(), pats));
                        }
                        _ => {}
                    }
                }
                None
            }
            Lit::Cmp(op, k, a, b, _) => (is_bound(a, bound) && is_bound(b, bound)).then(|| Op::Filter(Cond::Cmp(*op, *k, a.clone(), b.clone()))),
            Lit::Match(a, b, pos) => (is_bound(a, bound) && is_bound(b, bound)).then(|| Op::Filter(Cond::Match(a.clone(), b.clone(), *pos))),
            Lit::Contains(a, b, pos) => (is_bound(a, bound) && is_bound(b, bound)).then(|| Op::Filter(Cond::Contains(a.clone(), b.clone(), *pos))),
            Lit::Range(out, kind, args, _) => {
                if !args.iter().all(|e| is_bound(e, bound)) {
                    return None;
                }
                let check = bound[*out];
                bound[*out] = true;
                Some(Op::Range { out: *out, kind: *kind, args: args.clone(), check })
            }
            Lit::Agg(agg) => {
                // Ready when every non-local variable used inside is bound outside.
                let mut used = vec![];
                if let Some(t) = &agg.target {
                    t.vars(&mut used);
                }
                let mut inner_bound = bound.to_vec();
                for v in &agg.locals {
                    inner_bound[*v] = false;
                }
                let mut sub = Planner { ops: vec![], atom_vars: self.atom_vars.clone(), rel_arity: self.rel_arity, delta: None };
                if sub.plan(&agg.body, &None, &mut inner_bound, agg.span).is_err() {
                    return None;
                }
                if !used.iter().all(|v| inner_bound[*v]) {
                    return None;
                }
                // Every free (non-local) variable the body reads must be bound outside.
                let mut reads = vec![];
                for l in &agg.body {
                    lit_vars(l, &mut reads);
                }
                if reads.iter().any(|v| !agg.locals.contains(v) && !bound[*v]) {
                    return None;
                }
                let check = bound[agg.out];
                bound[agg.out] = true;
                Some(Op::Agg { agg: agg.clone(), sub: sub.ops, check })
            }
        }
    }
}

fn lit_vars(l: &Lit, out: &mut Vec<VarId>) {
    match l {
        Lit::Atom(a) => a.args.iter().for_each(|e| e.vars(out)),
        Lit::Neg(_, args, _) => args.iter().flatten().for_each(|e| e.vars(out)),
        Lit::Cmp(_, _, a, b, _) | Lit::Match(a, b, _) | Lit::Contains(a, b, _) => {
            a.vars(out);
            b.vars(out);
        }
        Lit::Range(o, _, args, _) => {
            out.push(*o);
            args.iter().for_each(|e| e.vars(out));
        }
        Lit::Agg(a) => {
            out.push(a.out);
            if let Some(t) = &a.target {
                t.vars(out);
            }
            a.body.iter().for_each(|l| lit_vars(l, out));
        }
        Lit::False => {}
    }
}

fn pattern(fields: &[Expr], bound: &mut [bool]) -> Vec<Pat> {
    fields
        .iter()
        .map(|f| match f {
            Expr::Var(v) if !bound[*v] => {
                bound[*v] = true;
                Pat::Bind(*v)
            }
            Expr::Record(inner) if !is_bound(f, bound) => Pat::Nested(pattern(inner, bound)),
            other => Pat::Check(other.clone()),
        })
        .collect()
}

/// A readable dump of a plan, for `--show=plan` and tests.
pub fn show(ops: &[Op], names: &dyn Fn(RelId) -> String, var: &dyn Fn(VarId) -> String) -> String {
    let mut s = String::new();
    for (depth, op) in ops.iter().enumerate() {
        let pad = "  ".repeat(depth);
        let _ = match op {
            Op::Scan { rel, source, perm, key, cols, .. } => writeln!(
                s,
                "{pad}for {}{} via {:?} key {} bind {:?}",
                names(*rel),
                if *source == Source::Delta { " (delta)" } else { "" },
                perm,
                key.len(),
                cols.iter()
                    .map(|c| match c {
                        ColAction::Bind(_, v) => var(*v),
                        ColAction::Check(_, v) => format!("={}", var(*v)),
                    })
                    .collect::<Vec<_>>()
            ),
            Op::Filter(_) => writeln!(s, "{pad}if …"),
            Op::Assign(v, _) => writeln!(s, "{pad}let {} = …", var(*v)),
            Op::Unpack(..) => writeln!(s, "{pad}unpack"),
            Op::Neg { rel, .. } => writeln!(s, "{pad}if not {}", names(*rel)),
            Op::Agg { agg, .. } => writeln!(s, "{pad}{} = {:?} …", var(agg.out), agg.op),
            Op::Range { out, .. } => writeln!(s, "{pad}for {} in range", var(*out)),
        };
    }
    s
}
