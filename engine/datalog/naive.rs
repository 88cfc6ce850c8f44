//! A deliberately simple reference evaluator, for differential tests.
//!
//! Naive (not semi-naive) fixpoint per stratum over `BTreeSet` relations, with
//! nested-loop joins in a dynamic literal order: no plans, no indexes, no
//! deltas. It shares only expression evaluation ([`super::functors`]) with the
//! real evaluator, so a bug in planning, indexing or delta handling shows up as
//! a difference. Slow by design; not used by `tg run`.

use std::collections::BTreeSet;

use super::ast::{AggOp, CmpOp};
use super::functors::{RegexCache, cmp_kind, compare, eval};
use super::logic::{Expr, Kind, Lit, LogicProgram};
use super::stratify::Stratum;
use super::value::Values;

/// All relations as sets of rows (nullary relations hold the row `[]`).
pub type NaiveDb = Vec<BTreeSet<Vec<u32>>>;

/// Evaluates `prog` from `inputs` (relation id → rows) and returns every relation.
pub fn evaluate(prog: &LogicProgram, strata: &[Stratum], values: &mut Values, inputs: &[(usize, Vec<Vec<u32>>)]) -> NaiveDb {
    let mut db: NaiveDb = vec![BTreeSet::new(); prog.relations.len()];
    for (r, rows) in inputs {
        db[*r].extend(rows.iter().cloned());
    }
    let mut re = RegexCache::default();
    for s in strata {
        loop {
            let mut new = vec![];
            for &ri in &s.rules {
                let rule = &prog.rules[ri];
                if rule.subsumed.is_some() {
                    continue;
                }
                let mut env = vec![None; rule.num_vars];
                let mut done = vec![false; rule.body.len()];
                solve(&db, values, &mut re, &rule.body, &mut done, &mut env, &mut |env, values| {
                    let mut row = vec![];
                    for e in &rule.head.1 {
                        match eval_opt(e, env, values) {
                            Some(w) => row.push(w),
                            None => return,
                        }
                    }
                    new.push((rule.head.0, row));
                });
            }
            let mut changed = false;
            for (r, row) in new {
                changed |= db[r].insert(row);
            }
            if !changed {
                break;
            }
        }
    }
    db
}

fn eval_opt(e: &Expr, env: &[Option<u32>], values: &mut Values) -> Option<u32> {
    let mut vars = vec![];
    e.vars(&mut vars);
    if vars.iter().any(|v| env[*v].is_none()) {
        return None;
    }
    let flat: Vec<u32> = env.iter().map(|w| w.unwrap_or(0)).collect();
    eval(e, &flat, values)
}

fn bound(e: &Expr, env: &[Option<u32>]) -> bool {
    let mut v = vec![];
    e.vars(&mut v);
    v.iter().all(|v| env[*v].is_some())
}

type Emit<'a> = dyn FnMut(&[Option<u32>], &mut Values) + 'a;

/// Picks the first literal that can run now (atoms always can), runs it, recurses.
#[allow(clippy::too_many_arguments)]
fn solve(db: &NaiveDb, values: &mut Values, re: &mut RegexCache, body: &[Lit], done: &mut [bool], env: &mut Vec<Option<u32>>, emit: &mut Emit) {
    let ready = (0..body.len()).find(|&i| !done[i] && is_ready(&body[i], env)).or_else(|| (0..body.len()).find(|&i| !done[i] && matches!(body[i], Lit::Atom(_))));
    let Some(i) = ready else {
        if done.iter().all(|d| *d) {
            emit(env, values);
        }
        return;
    };
    done[i] = true;
    match &body[i] {
        Lit::Atom(a) => {
            for row in &db[a.rel] {
                let saved = env.clone();
                let mut ok = true;
                for (c, e) in a.args.iter().enumerate() {
                    match e {
                        Expr::Var(v) => match env[*v] {
                            Some(w) if w != row[c] => ok = false,
                            Some(_) => {}
                            None => env[*v] = Some(row[c]),
                        },
                        other => ok &= eval_opt(other, env, values) == Some(row[c]),
                    }
                    if !ok {
                        break;
                    }
                }
                if ok {
                    solve(db, values, re, body, done, env, emit);
                }
                *env = saved;
            }
        }
        Lit::Neg(r, args, _) => {
            let key: Vec<Option<u32>> = args.iter().map(|a| a.as_ref().and_then(|e| eval_opt(e, env, values))).collect();
            let hit = db[*r].iter().any(|row| key.iter().zip(row).all(|(k, w)| k.is_none_or(|k| k == *w)));
            if !hit {
                solve(db, values, re, body, done, env, emit);
            }
        }
        Lit::Cmp(op, k, a, b, _) => {
            let assign = *op == CmpOp::Eq && (!bound(a, env) || !bound(b, env));
            if assign {
                let (target, src) = if bound(a, env) { (b, a) } else { (a, b) };
                if let (Some(w), Expr::Var(v)) = (eval_opt(src, env, values), target) {
                    env[*v] = Some(w);
                    solve(db, values, re, body, done, env, emit);
                    env[*v] = None;
                } else if let (Some(w), Expr::Record(fields)) = (eval_opt(src, env, values), target) {
                    let saved = env.clone();
                    if unify_record(w, fields, env, values) {
                        solve(db, values, re, body, done, env, emit);
                    }
                    *env = saved;
                }
            } else if let (Some(x), Some(y)) = (eval_opt(a, env, values), eval_opt(b, env, values))
                && compare(*op, *k, x, y, values)
            {
                solve(db, values, re, body, done, env, emit);
            }
        }
        Lit::Match(p, t, pos) => {
            if let (Some(x), Some(y)) = (eval_opt(p, env, values), eval_opt(t, env, values))
                && re.full_match(values.symbol(x), values.symbol(y)) == *pos
            {
                solve(db, values, re, body, done, env, emit);
            }
        }
        Lit::Contains(n, h, pos) => {
            if let (Some(x), Some(y)) = (eval_opt(n, env, values), eval_opt(h, env, values))
                && values.symbol(y).contains(values.symbol(x)) == *pos
            {
                solve(db, values, re, body, done, env, emit);
            }
        }
        Lit::Range(out, kind, args, _) => {
            let a: Option<Vec<u32>> = args.iter().map(|e| eval_opt(e, env, values)).collect();
            if let Some(a) = a
                && *kind != Kind::Float
            {
                let signed = |w: u32| if *kind == Kind::Unsigned { w as i64 } else { w as i32 as i64 };
                let (f, t) = (signed(a[0]), signed(a[1]));
                let step = a.get(2).map(|s| signed(*s)).unwrap_or(if f <= t { 1 } else { -1 });
                let mut x = f;
                while step != 0 && ((step > 0 && x < t) || (step < 0 && x > t)) {
                    let before = env[*out];
                    if before.is_none_or(|b| b == x as u32) {
                        env[*out] = Some(x as u32);
                        solve(db, values, re, body, done, env, emit);
                        env[*out] = before;
                    }
                    x += step;
                }
            }
        }
        Lit::Agg(agg) => {
            let mut inner_env = env.clone();
            for v in &agg.locals {
                inner_env[*v] = None;
            }
            let mut results: Vec<u32> = vec![];
            let mut count = 0u64;
            let mut inner_done = vec![false; agg.body.len()];
            solve(db, values, re, &agg.body, &mut inner_done, &mut inner_env, &mut |e, vals| {
                count += 1;
                if let Some(t) = &agg.target
                    && let Some(w) = eval_opt(t, e, vals)
                {
                    results.push(w);
                }
            });
            let value = match agg.op {
                AggOp::Count => Some(count as u32),
                AggOp::Sum => Some(match agg.kind {
                    Kind::Float => (results.iter().map(|w| f32::from_bits(*w) as f64).sum::<f64>() as f32).to_bits(),
                    Kind::Unsigned => results.iter().fold(0u32, |a, w| a.wrapping_add(*w)),
                    _ => results.iter().fold(0i64, |a, w| a.wrapping_add(*w as i32 as i64)) as u32,
                }),
                AggOp::Mean => (!results.is_empty()).then(|| {
                    let total: f64 = match agg.kind {
                        Kind::Float => results.iter().map(|w| f32::from_bits(*w) as f64).sum(),
                        Kind::Unsigned => results.iter().map(|w| *w as f64).sum(),
                        _ => results.iter().map(|w| *w as i32 as f64).sum(),
                    };
                    ((total / results.len() as f64) as f32).to_bits()
                }),
                AggOp::Min => results.iter().copied().min_by(|a, b| cmp_kind(agg.kind, *a, *b, values)),
                AggOp::Max => results.iter().copied().max_by(|a, b| cmp_kind(agg.kind, *a, *b, values)),
            };
            if let Some(v) = value
                && env[agg.out].is_none_or(|b| b == v)
            {
                let before = env[agg.out];
                env[agg.out] = Some(v);
                solve(db, values, re, body, done, env, emit);
                env[agg.out] = before;
            }
        }
        Lit::False => {}
    }
    done[i] = false;
}

fn is_ready(l: &Lit, env: &[Option<u32>]) -> bool {
    match l {
        Lit::Atom(_) | Lit::False => false,
        Lit::Neg(_, args, _) => args.iter().flatten().all(|e| bound(e, env)),
        Lit::Cmp(CmpOp::Eq, _, a, b, _) => {
            let (x, y) = (bound(a, env), bound(b, env));
            (x && (y || matches!(b, Expr::Var(_) | Expr::Record(_)))) || (y && matches!(a, Expr::Var(_) | Expr::Record(_)))
        }
        Lit::Cmp(_, _, a, b, _) | Lit::Match(a, b, _) | Lit::Contains(a, b, _) => bound(a, env) && bound(b, env),
        Lit::Range(_, _, args, _) => args.iter().all(|e| bound(e, env)),
        Lit::Agg(agg) => {
            let mut reads = vec![];
            for l in &agg.body {
                if let Lit::Atom(a) = l {
                    a.args.iter().for_each(|e| e.vars(&mut reads));
                }
            }
            reads.iter().all(|v| agg.locals.contains(v) || env[*v].is_some())
        }
    }
}

fn unify_record(w: u32, fields: &[Expr], env: &mut [Option<u32>], values: &mut Values) -> bool {
    let Some(ws) = values.unpack(w).map(<[u32]>::to_vec) else { return false };
    if ws.len() != fields.len() {
        return false;
    }
    for (x, f) in ws.iter().zip(fields) {
        match f {
            Expr::Var(v) if env[*v].is_none() => env[*v] = Some(*x),
            Expr::Record(inner) if !bound(f, env) => {
                if !unify_record(*x, inner, env, values) {
                    return false;
                }
            }
            other => {
                if eval_opt(other, env, values) != Some(*x) {
                    return false;
                }
            }
        }
    }
    true
}
