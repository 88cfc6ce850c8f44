//! Clause execution (openCypher 9 "Clauses"): a query is a pipeline of row tables;
//! MATCH extends rows, WITH/RETURN project, group and aggregate, order and page them,
//! UNWIND multiplies them, CREATE writes (scripts only), UNION joins single queries.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::ast::{AGGREGATES, ClauseKind, Expr, PatternPart, Projection, Query, SingleQuery};
use crate::error::{ErrorClass, GqlError, Result};
use crate::eval::{Ctx, Env};
use crate::graph::Graph;
use crate::pattern::{self, is_hidden};
use crate::scan::{Run, Scan, Sink};
use crate::slot::{self, SExpr};
use crate::totals::{Tot, Total};
use crate::value::{Key, Value, order};

/// A result: column names and rows.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Column names.
    pub cols: Vec<String>,
    /// Rows, each as long as `cols`.
    pub rows: Vec<Vec<Value>>,
}

/// Whether write clauses may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Reads only: CREATE is refused (queries against a store).
    ReadOnly,
    /// CREATE allowed (setup scripts, the in-memory graph).
    ReadWrite,
}

/// Runs a statement over `graph`.
pub fn run(graph: &mut Graph, q: &Query, params: &BTreeMap<String, Value>, access: Access) -> Result<Table> {
    let mut out: Option<Table> = None;
    for (i, part) in q.parts.iter().enumerate() {
        let t = run_single(graph, part, params, access)?;
        out = Some(match out {
            None => t,
            Some(mut acc) => {
                if acc.cols != t.cols {
                    return Err(GqlError::semantic("DifferentColumnsInUnion", "all sub queries in a UNION must return the same column names"));
                }
                acc.rows.extend(t.rows);
                if !q.union_all.get(i - 1).copied().unwrap_or(false) {
                    dedupe(&mut acc.rows);
                }
                check_rows(acc.rows.len())?;
                acc
            }
        });
    }
    Ok(out.unwrap_or_default())
}

/// The row budget of one clause's table ([`tg_limits::budget::max_rows`]; `usize::MAX`: none).
fn max_rows() -> usize {
    tg_limits::budget::max_rows().map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// Fails when a table of `n` rows is past the row budget.
#[inline]
fn check_rows(n: usize) -> Result<()> {
    let max = max_rows();
    if n > max { Err(GqlError::too_many_rows(max)) } else { Ok(()) }
}

fn dedupe(rows: &mut Vec<Vec<Value>>) {
    let mut seen = std::collections::BTreeSet::new();
    rows.retain(|r| seen.insert(Key(r.clone())));
}

fn run_single(graph: &mut Graph, q: &SingleQuery, params: &BTreeMap<String, Value>, access: Access) -> Result<Table> {
    let mut names: Vec<String> = vec![];
    let mut rows: Vec<Vec<Value>> = vec![vec![]];
    let mut counter = 0usize;
    let mut result = Table::default();
    let mut ci = 0;
    while let Some(clause) = q.clauses.get(ci) {
        ci += 1;
        match &clause.kind {
            ClauseKind::Match { .. } | ClauseKind::Unwind { .. } | ClauseKind::With { .. } | ClauseKind::Return(_) | ClauseKind::Call { .. } => {
                let ctx = Ctx { graph, params };
                let next = q.clauses.get(ci).map(|c| &c.kind);
                if read_clause(&ctx, &clause.kind, next, &mut names, &mut rows, &mut counter, &mut result)? {
                    ci += 1;
                }
            }
            ClauseKind::Create(parts) => {
                if access == Access::ReadOnly {
                    return Err(GqlError::new(
                        ErrorClass::SemanticError,
                        "CREATE is refused: queries against a store are read-only (use `tg gql --script` for an in-memory graph)",
                    ));
                }
                let (n2, r2) = create(graph, params, parts, names, rows)?;
                names = n2;
                rows = r2;
            }
            ClauseKind::Write(kw) => {
                return Err(GqlError::new(ErrorClass::SemanticError, format!("{kw} is not supported: tg gql reads graphs (CREATE only in setup scripts)")));
            }
        }
    }
    Ok(result)
}

/// Runs one read clause (MATCH, UNWIND, WITH, RETURN) on the pipeline's rows. A MATCH
/// followed by WITH or RETURN streams its rows straight into the projection (no row table
/// in between); the result says whether `next` was consumed that way.
#[allow(clippy::too_many_arguments)]
fn read_clause(
    ctx: &Ctx,
    kind: &ClauseKind,
    next: Option<&ClauseKind>,
    names: &mut Vec<String>,
    rows: &mut Vec<Vec<Value>>,
    counter: &mut usize,
    result: &mut Table,
) -> Result<bool> {
    match kind {
        ClauseKind::Match { optional, pattern: parts, filter } => {
            let mut c = pattern::compile(ctx, parts, names, counter);
            if let Some(f) = filter {
                c.add_filter(ctx, f);
            }
            let keep: Vec<usize> = (0..c.names.len()).filter(|&i| !is_hidden(&c.names[i]) || i < names.len()).collect();
            let kept_names: Vec<String> = keep.iter().map(|&i| c.names[i].clone()).collect();
            let proj = match next {
                Some(ClauseKind::With { proj, .. }) | Some(ClauseKind::Return(proj)) => Some(proj),
                _ => None,
            };
            if let (Some(proj), Some(next)) = (proj, next) {
                let mut p = Projector::new(ctx, proj, &c.names, &kept_names, Some(&keep))?;
                // A single-relationship pattern runs as a scan of the relationship lists.
                let hop = c.hop();
                let grouped = p.rewritten.is_some().then_some(p.keys.len());
                let scan = hop.as_ref().map(|h| Scan::new(ctx, h, &c.names, &p.row_exprs(), grouped));
                for row in rows.iter() {
                    // A LIMIT without ORDER BY or aggregation has its rows: stop matching.
                    if p.full() {
                        break;
                    }
                    let env = Env { names, row, aggs: &[] };
                    let mut any = false;
                    match &scan {
                        Some(s) => any = s.run(ctx, row, &mut p)?,
                        None => pattern::matches(ctx, &c, &env, &mut |ext| {
                            any = true;
                            p.push(ext)?;
                            Ok(!p.full())
                        })?,
                    }
                    if *optional && !any {
                        let mut r: Vec<Value> = row.clone();
                        r.resize(c.names.len(), Value::Null);
                        p.push(&r)?;
                    }
                }
                let (t, reps) = p.finish()?;
                *names = kept_names;
                after_projection(ctx, next, names, rows, result, t, reps)?;
                return Ok(true);
            }
            let mut next_rows: Vec<Vec<Value>> = vec![];
            let max = max_rows();
            for row in rows.iter() {
                let env = Env { names, row, aggs: &[] };
                let mut any = false;
                pattern::matches(ctx, &c, &env, &mut |ext| {
                    any = true;
                    if next_rows.len() >= max {
                        return Err(GqlError::too_many_rows(max));
                    }
                    next_rows.push(keep.iter().map(|&i| ext[i].clone()).collect());
                    Ok(true)
                })?;
                if *optional && !any {
                    let mut r: Vec<Value> = row.clone();
                    r.resize(keep.len(), Value::Null);
                    next_rows.push(r);
                    check_rows(next_rows.len())?;
                }
            }
            *names = kept_names;
            *rows = next_rows;
        }
        ClauseKind::Unwind { expr, var } => {
            let mut next = vec![];
            let max = max_rows();
            for row in rows.iter() {
                let env = Env { names, row, aggs: &[] };
                match ctx.eval(expr, &env)? {
                    Value::Null => {}
                    Value::List(l) => {
                        if next.len().saturating_add(l.len()) > max {
                            return Err(GqlError::too_many_rows(max));
                        }
                        for v in l.iter() {
                            GqlError::check_cancelled()?;
                            let mut r = row.clone();
                            r.push(v.clone());
                            next.push(r);
                        }
                    }
                    v => {
                        let mut r = row.clone();
                        r.push(v);
                        next.push(r);
                        check_rows(next.len())?;
                    }
                }
            }
            names.push(var.clone());
            *rows = next;
        }
        ClauseKind::With { proj, .. } | ClauseKind::Return(proj) => {
            let (t, reps) = project(ctx, proj, names, rows)?;
            after_projection(ctx, kind, names, rows, result, t, reps)?;
        }
        ClauseKind::Call { name, args, yields } if crate::procs::is_search(name) => {
            let fields = crate::procs::FIELDS;
            let picks: Vec<(usize, String)> = if yields.is_empty() {
                fields.iter().enumerate().map(|(i, f)| (i, f.to_string())).collect()
            } else {
                yields.iter().filter_map(|(f, v)| fields.iter().position(|x| x == f).map(|i| (i, v.clone()))).collect()
            };
            let mut next_rows = vec![];
            let mut last: Vec<Vec<Value>> = vec![];
            for row in rows.iter() {
                let env = Env { names, row, aggs: &[] };
                let vals: Vec<Value> = args.iter().map(|a| ctx.eval(a, &env)).collect::<Result<_>>()?;
                let hits = crate::procs::search(ctx.graph, &vals)?;
                check_rows(next_rows.len().saturating_add(hits.len()))?;
                for h in hits {
                    let mut r = row.clone();
                    let out: Vec<Value> = picks.iter().map(|(i, _)| h[*i].clone()).collect();
                    r.extend(out.iter().cloned());
                    last.push(out);
                    next_rows.push(r);
                }
            }
            // Without YIELD, a CALL that ends the query returns its fields.
            *result = Table { cols: picks.iter().map(|(i, _)| fields[*i].to_string()).collect(), rows: last };
            names.extend(picks.into_iter().map(|(_, v)| v));
            *rows = next_rows;
        }
        ClauseKind::Call { name, yields, .. } => {
            let field = procedure_field(name).ok_or_else(|| GqlError::semantic("ProcedureNotFound", format!("there is no procedure `{name}`")))?;
            let vals = procedure(ctx.graph, field);
            let var = yields.first().map_or(field, |(_, v)| v.as_str());
            let mut next_rows = vec![];
            check_rows(rows.len().saturating_mul(vals.len()))?;
            for row in rows.iter() {
                for v in &vals {
                    let mut r = row.clone();
                    r.push(Value::str(v));
                    next_rows.push(r);
                }
            }
            // Without YIELD, a CALL that ends the query returns its field.
            *result = Table { cols: vec![field.to_string()], rows: next_rows.iter().map(|r| r.last().cloned().into_iter().collect()).collect() };
            names.push(var.to_string());
            *rows = next_rows;
        }
        ClauseKind::Create(_) | ClauseKind::Write(_) => {
            return Err(GqlError::new(ErrorClass::SemanticError, "write clauses are not allowed inside EXISTS"));
        }
    }
    Ok(false)
}

/// The field a catalogue procedure yields (`None`: no such procedure; names are
/// matched without regard to case).
pub fn procedure_field(name: &str) -> Option<&'static str> {
    match name.to_lowercase().as_str() {
        "db.labels" => Some("label"),
        "db.relationshiptypes" => Some("relationshipType"),
        "db.propertykeys" => Some("propertyKey"),
        _ => None,
    }
}

/// The values of a catalogue procedure over `g`, sorted: the labels carried by some node,
/// the types of some relationship, or the keys of some node's or relationship's property.
fn procedure(g: &Graph, field: &str) -> Vec<String> {
    let mut out: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    match field {
        "label" => out.extend(g.by_label.iter().filter(|(_, v)| !v.is_empty()).map(|(&l, _)| g.name(l))),
        "relationshipType" => out.extend(g.rels.iter().map(|r| g.name(r.typ))),
        _ => {
            out.extend((0..g.nodes.len()).flat_map(|n| g.node_props(n).iter().map(|(k, _)| g.name(*k))));
            out.extend((0..g.rels.len()).flat_map(|r| g.rel_props(r).iter().map(|(k, _)| g.name(*k))));
        }
    }
    out.into_iter().map(str::to_string).collect()
}

/// What WITH (its WHERE, then the new scope) or RETURN (the result) does with a projected
/// table `t` whose rows came from the representative input rows `reps` (laid out as `names`).
fn after_projection(ctx: &Ctx, kind: &ClauseKind, names: &mut Vec<String>, rows: &mut Vec<Vec<Value>>, result: &mut Table, t: Table, reps: Vec<Vec<Value>>) -> Result<()> {
    match kind {
        ClauseKind::With { filter: None, .. } => {
            *names = t.cols;
            *rows = t.rows;
        }
        ClauseKind::With { filter: Some(f), .. } => {
            // WITH … WHERE sees the projected columns, then the variables before.
            let mut wnames = names.clone();
            wnames.extend(t.cols.iter().cloned());
            let mut kept = vec![];
            for (row, rep) in t.rows.into_iter().zip(reps) {
                let mut wrow = rep;
                wrow.resize(names.len(), Value::Null);
                wrow.extend(row.iter().cloned());
                let env = Env { names: &wnames, row: &wrow, aggs: &[] };
                if matches!(ctx.eval(f, &env)?, Value::Bool(true)) {
                    kept.push(row);
                }
            }
            *names = t.cols;
            *rows = kept;
        }
        _ => *result = t,
    }
    Ok(())
}

/// `EXISTS { query }`: whether the subquery, started from the outer row, yields a row.
pub fn exists_query(ctx: &Ctx, q: &SingleQuery, env: &Env) -> Result<bool> {
    let mut names = env.names.to_vec();
    let mut rows = vec![env.row.to_vec()];
    let mut counter = 0usize;
    let mut result = Table::default();
    let mut returned = false;
    let mut ci = 0;
    while let Some(clause) = q.clauses.get(ci) {
        ci += 1;
        let next = q.clauses.get(ci).map(|c| &c.kind);
        returned |= matches!(clause.kind, ClauseKind::Return(_));
        if read_clause(ctx, &clause.kind, next, &mut names, &mut rows, &mut counter, &mut result)? {
            returned |= matches!(next, Some(ClauseKind::Return(_)));
            ci += 1;
        }
    }
    Ok(if returned { !result.rows.is_empty() } else { !rows.is_empty() })
}

fn create(graph: &mut Graph, params: &BTreeMap<String, Value>, parts: &[PatternPart], mut names: Vec<String>, rows: Vec<Vec<Value>>) -> Result<(Vec<String>, Vec<Vec<Value>>)> {
    let before = names.len();
    let mut new_names: Vec<String> = vec![];
    for p in parts {
        for n in &p.element.nodes {
            if let Some(v) = &n.var
                && !names.contains(v)
                && !new_names.contains(v)
            {
                new_names.push(v.clone());
            }
        }
        for r in &p.element.rels {
            if let Some(v) = &r.var
                && !names.contains(v)
                && !new_names.contains(v)
            {
                new_names.push(v.clone());
            }
        }
        if let Some(v) = &p.var
            && !new_names.contains(v)
        {
            new_names.push(v.clone());
        }
    }
    names.extend(new_names);
    let mut out = vec![];
    for mut row in rows {
        row.resize(names.len(), Value::Null);
        let mut bound: Vec<bool> = (0..names.len()).map(|i| i < before).collect();
        for p in parts {
            let mut node_ids = vec![];
            let mut rel_ids = vec![];
            for (i, np) in p.element.nodes.iter().enumerate() {
                let slot = np.var.as_ref().and_then(|v| names.iter().position(|n| n == v));
                let id = match slot {
                    Some(s) if bound[s] => match &row[s] {
                        Value::Node(id) => {
                            if !np.labels.is_empty() || np.props.is_some() {
                                return Err(GqlError::semantic("VariableAlreadyBound", format!("variable `{}` already declared", names[s])));
                            }
                            *id
                        }
                        _ => return Err(GqlError::semantic("VariableAlreadyBound", format!("variable `{}` is not a node", names[s]))),
                    },
                    _ => {
                        let props = eval_props(graph, params, &np.props, &names, &row)?;
                        let id = graph.add_node(np.labels.clone(), props);
                        if let Some(s) = graph.node_src.get_mut(id) {
                            *s = Some((np.span.0, np.span.1));
                        }
                        if let Some(s) = slot {
                            row[s] = Value::Node(id);
                            bound[s] = true;
                        }
                        id
                    }
                };
                node_ids.push(id);
                if i > 0 {
                    let rp = &p.element.rels[i - 1];
                    if rp.types.len() != 1 {
                        return Err(GqlError::semantic("NoSingleRelationshipType", "a created relationship needs exactly one type"));
                    }
                    let (a, b) = (node_ids[i - 1], id);
                    let (src, dst) = match rp.dir {
                        crate::ast::Dir::Left => (b, a),
                        crate::ast::Dir::Right => (a, b),
                        crate::ast::Dir::Both => return Err(GqlError::semantic("RequiresDirectedRelationship", "a created relationship needs a direction")),
                    };
                    let props = eval_props(graph, params, &rp.props, &names, &row)?;
                    let rid = graph.add_rel(src, dst, rp.types[0].clone(), props);
                    if let Some(s) = graph.rel_src.get_mut(rid) {
                        *s = Some((p.element.nodes[i - 1].span.0, np.span.1));
                    }
                    rel_ids.push(rid);
                    if let Some(s) = rp.var.as_ref().and_then(|v| names.iter().position(|n| n == v)) {
                        row[s] = Value::Rel(rid);
                        bound[s] = true;
                    }
                }
            }
            if let Some(s) = p.var.as_ref().and_then(|v| names.iter().position(|n| n == v)) {
                row[s] = Value::Path(Rc::new(crate::value::Path { nodes: node_ids, rels: rel_ids }));
                bound[s] = true;
            }
        }
        out.push(row);
    }
    Ok((names, out))
}

fn eval_props(graph: &Graph, params: &BTreeMap<String, Value>, props: &Option<Expr>, names: &[String], row: &[Value]) -> Result<BTreeMap<String, Value>> {
    let Some(p) = props else { return Ok(BTreeMap::new()) };
    let ctx = Ctx { graph, params };
    match ctx.eval(p, &Env { names, row, aggs: &[] })? {
        Value::Map(m) => Ok((*m).clone()),
        Value::Null => Ok(BTreeMap::new()),
        other => Err(GqlError::type_error(format!("properties must be a map, got {}", other.type_name()))),
    }
}

/// Replaces each aggregate call in `e` by an [`Expr::AggRef`], collecting the calls.
fn extract_aggs(e: &Expr, aggs: &mut Vec<Expr>) -> Expr {
    let is_agg = matches!(e, Expr::CountStar) || matches!(e, Expr::Func(n, ..) if AGGREGATES.contains(&n.as_str()));
    if is_agg {
        aggs.push(e.clone());
        return Expr::AggRef(aggs.len() - 1);
    }
    let b = |x: &Expr, aggs: &mut Vec<Expr>| Box::new(extract_aggs(x, aggs));
    let ob = |x: &Option<Box<Expr>>, aggs: &mut Vec<Expr>| x.as_ref().map(|y| Box::new(extract_aggs(y, aggs)));
    match e {
        Expr::Prop(x, k) => Expr::Prop(b(x, aggs), k.clone()),
        Expr::Index(x, y) => Expr::Index(b(x, aggs), b(y, aggs)),
        Expr::Slice(x, f, t) => Expr::Slice(b(x, aggs), ob(f, aggs), ob(t, aggs)),
        Expr::HasLabels(x, l) => Expr::HasLabels(b(x, aggs), l.clone()),
        Expr::List(v) => Expr::List(v.iter().map(|x| extract_aggs(x, aggs)).collect()),
        Expr::Map(v) => Expr::Map(v.iter().map(|(k, x)| (k.clone(), extract_aggs(x, aggs))).collect()),
        Expr::MapProj(x, all, v) => Expr::MapProj(b(x, aggs), *all, v.iter().map(|(k, y)| (k.clone(), extract_aggs(y, aggs))).collect()),
        Expr::Not(x) => Expr::Not(b(x, aggs)),
        Expr::Neg(x) => Expr::Neg(b(x, aggs)),
        Expr::IsNull(x, n) => Expr::IsNull(b(x, aggs), *n),
        Expr::And(x, y) => Expr::And(b(x, aggs), b(y, aggs)),
        Expr::Or(x, y) => Expr::Or(b(x, aggs), b(y, aggs)),
        Expr::Xor(x, y) => Expr::Xor(b(x, aggs), b(y, aggs)),
        Expr::Arith(o, x, y) => Expr::Arith(*o, b(x, aggs), b(y, aggs)),
        Expr::StrPred(o, x, y) => Expr::StrPred(*o, b(x, aggs), b(y, aggs)),
        Expr::In(x, y) => Expr::In(b(x, aggs), b(y, aggs)),
        Expr::Regex(x, y) => Expr::Regex(b(x, aggs), b(y, aggs)),
        Expr::Compare(x, v) => Expr::Compare(b(x, aggs), v.iter().map(|(o, y)| (*o, extract_aggs(y, aggs))).collect()),
        Expr::Case(s, alts, el) => Expr::Case(ob(s, aggs), alts.iter().map(|(w, t)| (extract_aggs(w, aggs), extract_aggs(t, aggs))).collect(), ob(el, aggs)),
        Expr::Func(n, d, args, p) => Expr::Func(n.clone(), *d, args.iter().map(|x| extract_aggs(x, aggs)).collect(), *p),
        Expr::ListComp(v, l, p, m) => Expr::ListComp(v.clone(), b(l, aggs), ob(p, aggs), ob(m, aggs)),
        Expr::Quant(q, v, l, p) => Expr::Quant(*q, v.clone(), b(l, aggs), ob(p, aggs)),
        other => other.clone(),
    }
}

fn nonneg_int(ctx: &Ctx, e: &Option<Expr>, what: &str) -> Result<Option<usize>> {
    let Some(e) = e else { return Ok(None) };
    let v = ctx
        .eval(e, &Env { names: &[], row: &[], aggs: &[] })
        .map_err(|err| if err.detail == Some("UndefinedVariable") { GqlError::semantic("NonConstantExpression", format!("{what} must be a constant")) } else { err })?;
    match v {
        Value::Int(i) if i >= 0 => Ok(Some(i as usize)),
        Value::Int(_) => Err(GqlError::semantic("NegativeIntegerArgument", format!("{what} must not be negative"))),
        other => Err(GqlError::semantic("InvalidArgumentType", format!("{what} must be an integer, got {}", other.type_name()))),
    }
}

/// WITH / RETURN over a table of rows laid out as `names`.
fn project(ctx: &Ctx, proj: &Projection, names: &[String], rows: &[Vec<Value>]) -> Result<(Table, Vec<Vec<Value>>)> {
    let mut p = Projector::new(ctx, proj, names, names, None)?;
    for row in rows {
        if p.full() {
            break;
        }
        p.push(row)?;
    }
    p.finish()
}

impl Sink for Projector<'_, '_> {
    fn row(&mut self, vals: &[Value], row: &[Value]) -> Result<()> {
        self.accept(vals, row)
    }

    fn full(&self) -> bool {
        Projector::full(self)
    }

    fn run(&mut self, key: &[Value], args: &[Run], n: usize, row: &[Value]) -> Result<()> {
        self.accept_run(key, args, n, row)
    }

    fn totals(&self) -> Option<Vec<Total>> {
        if self.rewritten.is_none() || !self.members.is_empty() {
            return None;
        }
        self.aggs
            .iter()
            .zip(&self.args)
            .map(|(a, arg)| match (a, arg) {
                (Expr::CountStar, _) => Some(Total::Rows),
                (Expr::Func(n, false, args, _), Some(_)) if args.len() == 1 => match n.as_str() {
                    "count" => Some(Total::Count),
                    "sum" => Some(Total::Sum),
                    "min" => Some(Total::Min),
                    "max" => Some(Total::Max),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }

    fn add_totals(&mut self, key: &[Value], n: i64, tots: &[Tot], row: &[Value]) -> Result<()> {
        let g = self.group_of(key, row)?;
        let Some(grp) = self.members.get_mut(g) else { return Ok(()) };
        for ((a, acc), t) in self.aggs.iter().zip(grp.accs.iter_mut()).zip(tots) {
            match acc {
                Acc::Rows(c) => *c += n,
                Acc::Count(c) => *c += t.count,
                // The scan checked that no order of additions overflows.
                Acc::Sum(_) if t.count > 0 => add(a, acc, &Value::Int(i64::try_from(t.sum).map_err(|_| GqlError::argument("integer overflow"))?))?,
                Acc::Best(_) if t.count > 0 => {
                    let min = matches!(a, Expr::Func(f, ..) if f == "min");
                    add(a, acc, &Value::Int(if min { t.min } else { t.max }))?;
                }
                Acc::Sum(_) | Acc::Best(_) | Acc::Vals(_) => {}
            }
        }
        Ok(())
    }
}

/// The running state of one aggregate in one group.
enum Acc {
    /// `count(*)`: every row.
    Rows(i64),
    /// `count(e)`: the non-null values.
    Count(i64),
    /// `sum(e)`.
    Sum(Value),
    /// `min(e)` / `max(e)`.
    Best(Option<Value>),
    /// Every other aggregate (and DISTINCT ones): the non-null argument values.
    Vals(Vec<Value>),
}

/// A group: its key values, its first input row, and one accumulator per aggregate.
struct Group {
    key: Vec<Value>,
    rep: Vec<Value>,
    accs: Vec<Acc>,
}

/// WITH / RETURN as a stream: rows are pushed one at a time (laid out as `in_names`, or
/// as the MATCH's extended row that `keep` maps back to the clause's input row), grouped
/// into accumulators when the projection aggregates, then finished into projection,
/// grouping, DISTINCT, ORDER BY, SKIP and LIMIT.
struct Projector<'c, 'g> {
    ctx: &'c Ctx<'g>,
    proj: &'c Projection,
    cols: Vec<String>,
    in_names: Vec<String>,
    keep: Option<Vec<usize>>,
    /// Names of the clause's input rows (what `reps` and ORDER BY see).
    names: Vec<String>,
    /// Compiled items: every item, or the grouping keys when aggregating.
    keys: Vec<SExpr>,
    /// When aggregating: each item with its aggregates replaced by references.
    rewritten: Option<Vec<Option<Expr>>>,
    aggs: Vec<Expr>,
    /// Each aggregate's compiled first argument (absent or nested: checked at the end).
    args: Vec<Option<SExpr>>,
    sort_exprs: Vec<(Expr, bool)>,
    skip: Option<usize>,
    limit: Option<usize>,
    groups: BTreeMap<Key, usize>,
    members: Vec<Group>,
    keybuf: Vec<Value>,
    /// Reused for the values of each pushed row.
    valbuf: Vec<Value>,
    /// The group of the last row.
    last: Option<usize>,
    /// Non-aggregating output: (projected values, input row).
    out: Vec<(Vec<Value>, Vec<Value>)>,
    /// Without aggregation or ORDER BY: the rows SKIP and LIMIT keep come first, so
    /// after `skip + limit` (distinct) rows the rest are not needed ([`Projector::full`]).
    cap: Option<usize>,
    /// With `cap` and DISTINCT: the distinct rows so far (duplicates are not kept).
    seen: Option<std::collections::BTreeSet<Key>>,
    /// The row budget of `out` and of the groups.
    max_rows: usize,
}

impl<'c, 'g> Projector<'c, 'g> {
    fn new(ctx: &'c Ctx<'g>, proj: &'c Projection, in_names: &[String], names: &[String], keep: Option<&[usize]>) -> Result<Self> {
        // Items: `*` expands to the visible variables, sorted by name.
        let mut items: Vec<(String, Expr)> = vec![];
        if proj.star {
            let mut vis: Vec<&String> = names.iter().filter(|n| !is_hidden(n)).collect();
            vis.sort();
            vis.dedup();
            if vis.is_empty() && proj.items.is_empty() {
                return Err(GqlError::semantic("NoVariablesInScope", "RETURN * is not allowed when there are no variables in scope"));
            }
            for n in vis {
                items.push((n.clone(), Expr::Var(n.clone(), 0)));
            }
        }
        for it in &proj.items {
            items.push((it.name().to_string(), it.expr.clone()));
        }
        let mut seen = std::collections::BTreeSet::new();
        for (n, _) in &items {
            if !seen.insert(n.clone()) {
                return Err(GqlError::semantic("ColumnNameConflict", format!("multiple result columns with the same name `{n}`")));
            }
        }
        let cols: Vec<String> = items.iter().map(|(n, _)| n.clone()).collect();
        let aggregating = items.iter().any(|(_, e)| e.has_aggregate());
        let skip = nonneg_int(ctx, &proj.skip, "SKIP")?;
        let limit = nonneg_int(ctx, &proj.limit, "LIMIT")?;
        let mut aggs = vec![];
        let mut sort_exprs = vec![];
        let (keys, rewritten) = if aggregating {
            let rewritten: Vec<Option<Expr>> = items.iter().map(|(_, e)| if e.has_aggregate() { Some(extract_aggs(e, &mut aggs)) } else { None }).collect();
            for (e, d) in &proj.order {
                sort_exprs.push((extract_aggs(e, &mut aggs), *d));
            }
            let keys = items.iter().zip(&rewritten).filter(|(_, r)| r.is_none()).map(|((_, e), _)| slot::compile(ctx, e, in_names)).collect();
            (keys, Some(rewritten))
        } else {
            sort_exprs = proj.order.clone();
            (items.iter().map(|(_, e)| slot::compile(ctx, e, in_names)).collect(), None)
        };
        let cap = if aggregating || !proj.order.is_empty() { None } else { limit.map(|l| l.saturating_add(skip.unwrap_or(0))) };
        let seen = (cap.is_some() && proj.distinct).then(std::collections::BTreeSet::new);
        let args = aggs
            .iter()
            .map(|a| match a {
                Expr::Func(_, _, args, _) => args.first().filter(|x| !x.has_aggregate()).map(|x| slot::compile(ctx, x, in_names)),
                _ => None,
            })
            .collect();
        Ok(Projector {
            ctx,
            proj,
            cols,
            in_names: in_names.to_vec(),
            keep: keep.map(<[usize]>::to_vec),
            names: names.to_vec(),
            keys,
            rewritten,
            aggs,
            args,
            sort_exprs,
            skip,
            limit,
            groups: BTreeMap::new(),
            members: vec![],
            keybuf: vec![],
            valbuf: vec![],
            last: None,
            out: vec![],
            cap,
            seen,
            max_rows: max_rows(),
        })
    }

    /// The clause's input row for a pushed row.
    fn input_row(&self, row: &[Value]) -> Vec<Value> {
        match &self.keep {
            Some(k) => k.iter().map(|&i| row.get(i).cloned().unwrap_or(Value::Null)).collect(),
            None => row.to_vec(),
        }
    }

    fn fresh_accs(&self) -> Vec<Acc> {
        self.aggs
            .iter()
            .map(|a| match a {
                Expr::CountStar => Acc::Rows(0),
                Expr::Func(n, false, _, _) if n == "count" => Acc::Count(0),
                Expr::Func(n, false, _, _) if n == "sum" => Acc::Sum(Value::Int(0)),
                Expr::Func(n, false, _, _) if n == "min" || n == "max" => Acc::Best(None),
                _ => Acc::Vals(vec![]),
            })
            .collect()
    }

    /// The expressions evaluated for every pushed row, in order: the items (the grouping
    /// keys when aggregating), then each aggregate's argument. [`Projector::accept`] takes
    /// their values.
    fn row_exprs(&self) -> Vec<&SExpr> {
        self.keys.iter().chain(self.args.iter().flatten()).collect()
    }

    /// Whether the rows a LIMIT keeps are all in, so no further row can change the
    /// result (then pushed rows are ignored and callers stop producing them).
    #[inline]
    fn full(&self) -> bool {
        self.cap.is_some_and(|c| self.out.len() >= c)
    }

    /// Adds one row.
    fn push(&mut self, row: &[Value]) -> Result<()> {
        if self.full() {
            return Ok(());
        }
        let mut vals = std::mem::take(&mut self.valbuf);
        vals.clear();
        for e in self.keys.iter().chain(self.args.iter().flatten()) {
            vals.push(e.eval(self.ctx, &self.in_names, row, &[])?);
        }
        let done = self.accept(&vals, row);
        self.valbuf = vals;
        done
    }

    /// Adds one row given the values of [`Projector::row_exprs`] over it; `row` itself is
    /// read only for the clause's input row (kept per output row or per new group).
    fn accept(&mut self, vals: &[Value], row: &[Value]) -> Result<()> {
        let nk = self.keys.len();
        if self.rewritten.is_none() {
            if self.full() {
                return Ok(());
            }
            if let Some(seen) = &mut self.seen
                && !seen.insert(Key(vals.to_vec()))
            {
                return Ok(());
            }
            if self.out.len() >= self.max_rows {
                return Err(GqlError::too_many_rows(self.max_rows));
            }
            let rep = self.input_row(row);
            self.out.push((vals.to_vec(), rep));
            return Ok(());
        }
        let (key, mut argv) = (vals.get(..nk).unwrap_or(&[]), vals.get(nk..).unwrap_or(&[]).iter());
        let g = self.group_of(key, row)?;
        let Some(grp) = self.members.get_mut(g) else { return Ok(()) };
        for ((a, arg), acc) in self.aggs.iter().zip(&self.args).zip(grp.accs.iter_mut()) {
            if let Acc::Rows(n) = acc {
                *n += 1;
                continue;
            }
            if arg.is_none() {
                continue;
            }
            if let Some(v) = argv.next() {
                add(a, acc, v)?;
            }
        }
        Ok(())
    }

    /// Adds `n` rows of one group when aggregating: `key` is the group's key, `args[j]`
    /// the `n` values of the `j`-th aggregate argument ([`Projector::row_exprs`] after the
    /// keys), `row` the first row. The result, error included, is that of
    /// [`Projector::accept`] on each row in turn: each aggregate runs over its values and
    /// stops at its first error, and the error of the earliest row (then the earliest
    /// aggregate) is the one returned.
    fn accept_run(&mut self, key: &[Value], args: &[Run], n: usize, row: &[Value]) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let g = self.group_of(key, row)?;
        let Some(grp) = self.members.get_mut(g) else { return Ok(()) };
        let mut first: Option<(usize, GqlError)> = None;
        let mut argv = args.iter();
        for ((a, arg), acc) in self.aggs.iter().zip(&self.args).zip(grp.accs.iter_mut()) {
            if let Acc::Rows(c) = acc {
                *c += n as i64;
                continue;
            }
            if arg.is_none() {
                continue;
            }
            let Some(vs) = argv.next() else { continue };
            let limit = first.as_ref().map_or(n, |(r, _)| *r);
            let limit = limit.min(vs.len());
            // The common cases in line: counts and sums of integers.
            let mut r0 = 0;
            if let Some(ints) = vs.ints() {
                let ints = ints.get(..limit).unwrap_or(ints);
                match acc {
                    Acc::Count(c) => {
                        *c += ints.len() as i64;
                        continue;
                    }
                    Acc::Sum(Value::Int(x)) => {
                        for &y in ints {
                            let Some(z) = x.checked_add(y) else { break };
                            *x = z;
                            r0 += 1;
                        }
                    }
                    _ => {}
                }
            }
            for r in r0..limit {
                if let Err(e) = add(a, acc, &vs.get(r)) {
                    first = Some((r, e));
                    break;
                }
            }
        }
        first.map_or(Ok(()), |(_, e)| Err(e))
    }

    /// The group of `key` (made, with `row`'s input row as its first row, when new; a
    /// new group past the row budget is an error).
    fn group_of(&mut self, key: &[Value], row: &[Value]) -> Result<usize> {
        // Rows of one group often come in runs (the key depends on an outer variable).
        let last = self.last.filter(|&g| self.members.get(g).is_some_and(|m| same_key(&m.key, key)));
        let g = match last {
            Some(g) => g,
            // A few groups are searched in place, without building a key.
            None if self.members.len() <= FEW_GROUPS
                && let Some(g) = self.members.iter().position(|m| same_key(&m.key, key)) =>
            {
                g
            }
            None => {
                let mut buf = std::mem::take(&mut self.keybuf);
                buf.clear();
                buf.extend_from_slice(key);
                let k = Key(buf);
                match self.groups.get(&k) {
                    Some(&g) => {
                        self.keybuf = k.0;
                        g
                    }
                    None => {
                        let g = self.members.len();
                        if g >= self.max_rows {
                            self.keybuf = k.0;
                            return Err(GqlError::too_many_rows(self.max_rows));
                        }
                        let rep = self.input_row(row);
                        let accs = self.fresh_accs();
                        self.members.push(Group { key: k.0.clone(), rep, accs });
                        self.groups.insert(k, g);
                        g
                    }
                }
            }
        };
        self.last = Some(g);
        Ok(g)
    }

    /// The projected table and, per row, the input row it came from.
    fn finish(mut self) -> Result<(Table, Vec<Vec<Value>>)> {
        let ctx = self.ctx;
        let names = &self.names;
        // (projected values, representative input row, aggregate values)
        let mut out: Vec<(Vec<Value>, Vec<Value>, Vec<Value>)> = vec![];
        if let Some(rewritten) = &self.rewritten {
            if self.members.is_empty() && rewritten.iter().all(Option::is_some) {
                let accs = self.fresh_accs();
                self.members.push(Group { key: vec![], rep: vec![Value::Null; names.len()], accs });
            }
            for grp in std::mem::take(&mut self.members) {
                let mut agg_vals = vec![];
                for (a, acc) in self.aggs.iter().zip(grp.accs) {
                    agg_vals.push(finish_agg(ctx, a, acc, names, &grp.rep)?);
                }
                let mut vals = vec![];
                let mut ki = grp.key.into_iter();
                for rw in rewritten {
                    match rw {
                        None => vals.push(ki.next().unwrap_or(Value::Null)),
                        Some(e) => vals.push(ctx.eval(e, &Env { names, row: &grp.rep, aggs: &agg_vals })?),
                    }
                }
                out.push((vals, grp.rep, agg_vals));
            }
        } else {
            out = std::mem::take(&mut self.out).into_iter().map(|(v, r)| (v, r, vec![])).collect();
        }
        if self.proj.distinct {
            let mut seen = std::collections::BTreeSet::new();
            out.retain(|(v, _, _)| seen.insert(Key(v.clone())));
        }
        let sort_exprs = &self.sort_exprs;
        if !sort_exprs.is_empty() {
            // Sort keys see the projected columns first, then the variables before projection.
            let mut snames: Vec<String> = names.to_vec();
            snames.extend(self.cols.iter().cloned());
            let mut keyed = vec![];
            for (vals, rep, aggv) in out {
                let mut srow = rep.clone();
                srow.resize(names.len(), Value::Null);
                srow.extend(vals.iter().cloned());
                let env = Env { names: &snames, row: &srow, aggs: &aggv };
                let keys = sort_exprs.iter().map(|(e, _)| ctx.eval(e, &env)).collect::<Result<Vec<_>>>()?;
                keyed.push((keys, (vals, rep, aggv)));
            }
            keyed.sort_by(|a, b| {
                for (i, (_, desc)) in sort_exprs.iter().enumerate() {
                    let o = order(&a.0[i], &b.0[i]);
                    let o = if *desc { o.reverse() } else { o };
                    if o != std::cmp::Ordering::Equal {
                        return o;
                    }
                }
                std::cmp::Ordering::Equal
            });
            out = keyed.into_iter().map(|(_, r)| r).collect();
        }
        let (rows, reps): (Vec<Vec<Value>>, Vec<Vec<Value>>) =
            out.into_iter().map(|(v, rep, _)| (v, rep)).skip(self.skip.unwrap_or(0)).take(self.limit.unwrap_or(usize::MAX)).unzip();
        Ok((Table { cols: self.cols, rows }, reps))
    }
}

/// Adds one argument value `v` of aggregate `a` to its accumulator (not `count(*)`).
fn add(a: &Expr, acc: &mut Acc, v: &Value) -> Result<()> {
    if v.is_null() {
        return Ok(());
    }
    match acc {
        Acc::Rows(_) => {}
        Acc::Count(n) => *n += 1,
        Acc::Sum(s) => {
            // Integers add in place; everything else (floats, overflow, errors) as `+`.
            if let (Value::Int(x), Value::Int(y)) = (&mut *s, v)
                && let Some(z) = x.checked_add(*y)
            {
                *x = z;
                return Ok(());
            }
            if !matches!(v, Value::Int(_) | Value::Float(_)) {
                return Err(GqlError::type_error(format!("sum() of a {}", v.type_name())));
            }
            *s = crate::eval::arith(crate::ast::ArithOp::Add, s, v)?;
        }
        Acc::Best(b) => {
            let min = matches!(a, Expr::Func(n, ..) if n == "min");
            let take = match b {
                None => true,
                Some(cur) => {
                    let o = order(v, cur);
                    if min { o == std::cmp::Ordering::Less } else { o == std::cmp::Ordering::Greater }
                }
            };
            if take {
                *b = Some(v.clone());
            }
        }
        Acc::Vals(vs) => vs.push(v.clone()),
    }
    Ok(())
}

/// Up to this many groups, a row's group is found by comparing keys one by one.
const FEW_GROUPS: usize = 16;

/// Whether two grouping keys are one group ([`Key`]'s equality, integers compared directly).
fn same_key(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Value::Int(x), Value::Int(y)) => x == y,
            _ => order(x, y) == std::cmp::Ordering::Equal,
        })
}

/// Finishes one aggregate of a group from its accumulator; `rep` is the group's first
/// input row (laid out as `names`), where a percentile's second argument is evaluated.
fn finish_agg(ctx: &Ctx, a: &Expr, acc: Acc, names: &[String], rep: &[Value]) -> Result<Value> {
    let (name, distinct, args) = match a {
        Expr::CountStar => {
            return Ok(match acc {
                Acc::Rows(n) | Acc::Count(n) => Value::Int(n),
                _ => Value::Null,
            });
        }
        Expr::Func(n, d, args, _) => (n.as_str(), *d, args),
        _ => return Ok(Value::Null),
    };
    let Some(arg) = args.first() else {
        return Err(GqlError::semantic("InvalidNumberOfArguments", format!("{name}() needs an argument")));
    };
    if arg.has_aggregate() {
        return Err(GqlError::semantic("NestedAggregation", "aggregate calls cannot be nested"));
    }
    let mut vals = match acc {
        Acc::Rows(n) | Acc::Count(n) => return Ok(Value::Int(n)),
        Acc::Sum(v) => return Ok(v),
        Acc::Best(b) => return Ok(b.unwrap_or(Value::Null)),
        Acc::Vals(v) => v,
    };
    if distinct {
        let mut seen = std::collections::BTreeSet::new();
        vals.retain(|v| seen.insert(Key(vec![v.clone()])));
    }
    Ok(match name {
        "count" => Value::Int(vals.len() as i64),
        "collect" => Value::list(vals),
        "sum" => {
            let mut acc = Value::Int(0);
            for v in &vals {
                if !matches!(v, Value::Int(_) | Value::Float(_)) {
                    return Err(GqlError::type_error(format!("sum() of a {}", v.type_name())));
                }
                acc = crate::eval::arith(crate::ast::ArithOp::Add, &acc, v)?;
            }
            acc
        }
        "avg" => {
            if vals.is_empty() {
                return Ok(Value::Null);
            }
            let mut s = 0.0;
            for v in &vals {
                s += match v {
                    Value::Int(i) => *i as f64,
                    Value::Float(f) => *f,
                    other => return Err(GqlError::type_error(format!("avg() of a {}", other.type_name()))),
                };
            }
            Value::Float(s / vals.len() as f64)
        }
        "min" | "max" => {
            let mut best: Option<Value> = None;
            for v in vals {
                best = Some(match best {
                    None => v,
                    Some(b) => {
                        let o = order(&v, &b);
                        let take = if name == "min" { o == std::cmp::Ordering::Less } else { o == std::cmp::Ordering::Greater };
                        if take { v } else { b }
                    }
                });
            }
            best.unwrap_or(Value::Null)
        }
        "stdev" | "stdevp" => {
            let xs: Vec<f64> = vals
                .iter()
                .filter_map(|v| match v {
                    Value::Int(i) => Some(*i as f64),
                    Value::Float(f) => Some(*f),
                    _ => None,
                })
                .collect();
            let n = xs.len() as f64;
            let denom = if name == "stdev" { n - 1.0 } else { n };
            if denom <= 0.0 {
                return Ok(Value::Float(0.0));
            }
            let mean = xs.iter().sum::<f64>() / n;
            Value::Float((xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / denom).sqrt())
        }
        "percentilecont" | "percentiledisc" => {
            let p = match args.get(1) {
                Some(pe) => ctx.eval(pe, &Env { names, row: rep, aggs: &[] })?,
                None => return Err(GqlError::semantic("InvalidNumberOfArguments", format!("{name}() needs a percentile"))),
            };
            let p = match p {
                Value::Int(i) => i as f64,
                Value::Float(f) => f,
                Value::Null => return Ok(Value::Null),
                other => return Err(GqlError::type_error(format!("percentile must be a number, got {}", other.type_name()))),
            };
            if !(0.0..=1.0).contains(&p) {
                return Err(GqlError::argument("percentile must be between 0.0 and 1.0"));
            }
            let mut xs: Vec<Value> = vals;
            xs.sort_by(order);
            if xs.is_empty() {
                return Ok(Value::Null);
            }
            let f = |v: &Value| match v {
                Value::Int(i) => *i as f64,
                Value::Float(f) => *f,
                _ => f64::NAN,
            };
            if name == "percentiledisc" {
                let n = xs.len() as f64;
                let i = if p == 0.0 { 0 } else { ((p * n).ceil() as usize).saturating_sub(1) };
                xs[i.min(xs.len() - 1)].clone()
            } else {
                let pos = p * (xs.len() - 1) as f64;
                let lo = pos.floor() as usize;
                let hi = pos.ceil() as usize;
                let frac = pos - lo as f64;
                Value::Float(f(&xs[lo]) + (f(&xs[hi]) - f(&xs[lo])) * frac)
            }
        }
        _ => Value::Null,
    })
}
