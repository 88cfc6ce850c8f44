//! Compile-time checks openCypher requires before a query runs (the TCK's
//! "compile time" errors): variables are defined before use and keep one kind, pattern
//! variables are not rebound, aggregates appear only in projections and are unambiguous,
//! ORDER BY after DISTINCT or aggregation sees only projected values, functions exist,
//! and literal operands have the types their operators need. Each failure is a
//! SemanticError with the TCK's detail code.

use std::collections::BTreeMap;

use crate::ast::{ClauseKind, Expr, PatternPart, Projection, Query, SingleQuery};
use crate::error::{GqlError, Result};
use crate::value::Value;

/// What a variable is known to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Node,
    Rel,
    /// The list a variable-length relationship pattern binds.
    RelList,
    Path,
    /// A value known not to be a node, relationship or path, with its type when known.
    Value(Option<&'static str>),
    Any,
}

type Scope = BTreeMap<String, Kind>;

/// Checks a parsed statement.
pub fn check(q: &Query) -> Result<()> {
    for sq in &q.parts {
        check_single(sq)?;
    }
    Ok(())
}

fn err(detail: &'static str, msg: impl Into<String>) -> GqlError {
    GqlError::semantic(detail, msg)
}

fn check_single(q: &SingleQuery) -> Result<()> {
    check_clauses(q, BTreeMap::new())
}

/// Checks the clauses of a (sub)query starting from the variables in `scope`.
fn check_clauses(q: &SingleQuery, mut scope: Scope) -> Result<()> {
    let n = q.clauses.len();
    for (i, c) in q.clauses.iter().enumerate() {
        check_clause(c, i, n, &mut scope).map_err(|mut e| {
            e.offset.get_or_insert(c.pos);
            e
        })?;
    }
    Ok(())
}

/// Checks clause `i` of `n`, updating the scope.
fn check_clause(c: &crate::ast::Clause, i: usize, n: usize, scope: &mut Scope) -> Result<()> {
    {
        match &c.kind {
            ClauseKind::Match { pattern, filter, .. } => {
                bind_pattern(scope, pattern, false)?;
                if let Some(f) = filter {
                    predicate(scope, f)?;
                    expr(scope, f, false)?;
                }
            }
            ClauseKind::Unwind { expr: e, var } => {
                expr(scope, e, false)?;
                if scope.contains_key(var) {
                    return Err(err("VariableAlreadyBound", format!("variable `{var}` already declared")));
                }
                scope.insert(var.clone(), Kind::Any);
            }
            ClauseKind::With { proj, filter } => {
                for it in &proj.items {
                    if it.alias.is_none() && !matches!(it.expr, Expr::Var(..)) {
                        return Err(err("NoExpressionAlias", format!("expression in WITH must be aliased (use AS): {}", it.text)));
                    }
                }
                let new = projection(scope, proj)?;
                if let Some(f) = filter {
                    let mut both = scope.clone();
                    both.extend(new.clone());
                    predicate(&both, f)?;
                    expr(&both, f, false)?;
                }
                *scope = new;
            }
            ClauseKind::Return(proj) => {
                projection(scope, proj)?;
                if i + 1 < n {
                    return Err(GqlError::new(crate::error::ErrorClass::SyntaxError, "RETURN must be the last clause"));
                }
            }
            ClauseKind::Create(pattern) => bind_pattern(scope, pattern, true)?,
            ClauseKind::Call { name, args, yields } if crate::procs::is_search(name) => {
                for a in args {
                    expr(scope, a, false)?;
                }
                let fields = crate::procs::FIELDS;
                let binds: Vec<(String, String)> = if yields.is_empty() { fields.iter().map(|f| (f.to_string(), f.to_string())).collect() } else { yields.clone() };
                for (f, v) in &binds {
                    if !fields.contains(&f.as_str()) {
                        return Err(err("UndefinedVariable", format!("procedure `{name}` yields {}, not `{f}`", fields.join(", "))));
                    }
                    if scope.contains_key(v) {
                        return Err(err("VariableAlreadyBound", format!("variable `{v}` already declared")));
                    }
                    scope.insert(v.clone(), Kind::Any);
                }
            }
            ClauseKind::Call { name, args, yields } => {
                if !args.is_empty() {
                    return Err(err("InvalidNumberOfArguments", format!("procedure `{name}` takes no arguments")));
                }
                let field = crate::exec::procedure_field(name)
                    .ok_or_else(|| err("ProcedureNotFound", format!("there is no procedure `{name}` (db.labels, db.relationshipTypes, db.propertyKeys, tg.search)")))?;
                if yields.len() > 1 {
                    return Err(err("VariableAlreadyBound", format!("procedure `{name}` yields one field, `{field}`")));
                }
                for (f, v) in yields {
                    if f != field {
                        return Err(err("UndefinedVariable", format!("procedure `{name}` yields `{field}`, not `{f}`")));
                    }
                    if scope.contains_key(v) {
                        return Err(err("VariableAlreadyBound", format!("variable `{v}` already declared")));
                    }
                    scope.insert(v.clone(), Kind::Any);
                }
            }
            ClauseKind::Write(_) => {}
        }
    }
    Ok(())
}

fn conflict(v: &str, had: Kind, want: Kind) -> Result<()> {
    if had == want || had == Kind::Any || want == Kind::Any || (had == Kind::Value(Some("List")) && want == Kind::RelList) {
        Ok(())
    } else {
        Err(err("VariableTypeConflict", format!("variable `{v}` is a {had:?}, used as a {want:?}")))
    }
}

/// Binds the variables of MATCH (or CREATE) patterns, refusing kind conflicts and rebinding.
fn bind_pattern(scope: &mut Scope, parts: &[PatternPart], create: bool) -> Result<()> {
    let before = scope.clone();
    let mut rels_here: Vec<&str> = vec![];
    for p in parts {
        if let Some(v) = &p.var
            && scope.contains_key(v)
        {
            return Err(err("VariableAlreadyBound", format!("variable `{v}` already declared")));
        }
        for np in &p.element.nodes {
            if let Some(props) = &np.props {
                props_expr(scope, props, create)?;
            }
            if let Some(v) = &np.var {
                if p.var.as_ref() == Some(v) {
                    return Err(err("VariableAlreadyBound", format!("variable `{v}` already declared as the path")));
                }
                match scope.get(v) {
                    Some(k) => {
                        conflict(v, *k, Kind::Node)?;
                        if create && before.contains_key(v) && (!np.labels.is_empty() || np.props.is_some()) {
                            return Err(err("VariableAlreadyBound", format!("variable `{v}` already declared")));
                        }
                    }
                    None => {
                        scope.insert(v.clone(), Kind::Node);
                    }
                }
            }
        }
        for rp in &p.element.rels {
            if let Some(props) = &rp.props {
                props_expr(scope, props, create)?;
            }
            if create && rp.types.len() != 1 {
                return Err(err("NoSingleRelationshipType", "a created relationship needs exactly one type"));
            }
            if create && rp.dir == crate::ast::Dir::Both {
                return Err(err("RequiresDirectedRelationship", "a created relationship needs a direction"));
            }
            if create && rp.range.is_some() {
                return Err(err("CreatingVarLength", "cannot create a variable-length relationship"));
            }
            if let Some(v) = &rp.var {
                if p.var.as_ref() == Some(v) {
                    return Err(err("VariableAlreadyBound", format!("variable `{v}` already declared as the path")));
                }
                let want = if rp.range.is_some() { Kind::RelList } else { Kind::Rel };
                if rels_here.contains(&v.as_str()) {
                    return Err(err("RelationshipUniquenessViolation", format!("relationship variable `{v}` used twice in one pattern")));
                }
                rels_here.push(v);
                match scope.get(v) {
                    Some(k) => {
                        if create {
                            return Err(err("VariableAlreadyBound", format!("variable `{v}` already declared")));
                        }
                        if rp.range.is_some() && *k == Kind::Rel {
                            return Err(err("VariableTypeConflict", format!("variable `{v}` is a relationship, used as a list")));
                        }
                        conflict(v, *k, want)?;
                    }
                    None => {
                        scope.insert(v.clone(), want);
                    }
                }
            }
        }
        if let Some(v) = &p.var {
            scope.insert(v.clone(), Kind::Path);
        }
    }
    Ok(())
}

fn props_expr(scope: &Scope, e: &Expr, create: bool) -> Result<()> {
    if matches!(e, Expr::Param(_)) && !create {
        return Err(err("InvalidParameterUse", "a parameter cannot be a property map in MATCH"));
    }
    expr(scope, e, false)
}

fn kind_of(scope: &Scope, e: &Expr) -> Kind {
    match e {
        Expr::Var(v, _) => scope.get(v).copied().unwrap_or(Kind::Any),
        Expr::Lit(Value::Null) => Kind::Any,
        _ => match literal_type(e) {
            Some(t) => Kind::Value(Some(t)),
            None => Kind::Any,
        },
    }
}

/// A WHERE condition that is a node, relationship or path cannot be a predicate.
fn predicate(scope: &Scope, e: &Expr) -> Result<()> {
    if matches!(kind_of(scope, e), Kind::Node | Kind::Rel | Kind::Path | Kind::RelList) {
        return Err(err("InvalidArgumentType", "a node, relationship or path is not a predicate"));
    }
    Ok(())
}

/// The element type of a literal list whose elements all share one literal type.
fn element_kind(e: &Expr) -> Kind {
    if let Expr::List(items) = e {
        let ts: Vec<Option<&'static str>> = items.iter().map(literal_type).collect();
        if let Some(Some(t)) = ts.first()
            && ts.iter().all(|x| *x == Some(*t))
        {
            return Kind::Value(Some(t));
        }
    }
    Kind::Any
}

/// Checks a WITH/RETURN projection; returns the scope it produces.
fn projection(scope: &Scope, p: &Projection) -> Result<Scope> {
    let mut out: Scope = BTreeMap::new();
    if p.star {
        if scope.is_empty() && p.items.is_empty() {
            return Err(err("NoVariablesInScope", "RETURN * is not allowed when there are no variables in scope"));
        }
        out.extend(scope.iter().map(|(k, v)| (k.clone(), *v)));
    }
    let mut names = std::collections::BTreeSet::new();
    for it in &p.items {
        if matches!(it.expr, Expr::PatternPred(_)) {
            return Err(err("UnexpectedSyntax", "a pattern cannot be projected; use a pattern comprehension"));
        }
        expr(scope, &it.expr, true)?;
        if !names.insert(it.name().to_string()) {
            return Err(err("ColumnNameConflict", format!("multiple result columns with the same name `{}`", it.name())));
        }
        out.insert(it.name().to_string(), kind_of(scope, &it.expr));
    }
    let aggregating = p.items.iter().any(|it| it.expr.has_aggregate());
    let keys: Vec<String> = p.items.iter().filter(|it| !it.expr.has_aggregate()).map(|it| it.expr.canon()).collect();
    if aggregating {
        for it in p.items.iter().filter(|it| it.expr.has_aggregate()) {
            ambiguous(&it.expr, &keys, scope)?;
        }
    }
    let projected: Vec<String> = p.items.iter().map(|it| it.expr.canon()).collect();
    for (e, _) in &p.order {
        if aggregating || p.distinct {
            // Only projected columns, or expressions equal to projected items.
            order_after_projection(e, &out, &projected, scope)?;
            if e.has_aggregate() && !aggregating {
                return Err(err("InvalidAggregation", "aggregation in ORDER BY after a non-aggregating projection"));
            }
        } else {
            if e.has_aggregate() {
                return Err(err("InvalidAggregation", "aggregation in ORDER BY after a non-aggregating projection"));
            }
            let mut both = scope.clone();
            both.extend(out.clone());
            expr(&both, e, false)?;
        }
    }
    for (what, e) in [("SKIP", &p.skip), ("LIMIT", &p.limit)] {
        if let Some(e) = e {
            let mut vars = false;
            e.walk(&mut |x| {
                if matches!(x, Expr::Var(..)) {
                    vars = true;
                }
            });
            if vars {
                return Err(err("NonConstantExpression", format!("{what} must not depend on variables")));
            }
            if let Expr::Lit(v) = e {
                match v {
                    Value::Int(i) if *i < 0 => return Err(err("NegativeIntegerArgument", format!("{what} must not be negative"))),
                    Value::Int(_) => {}
                    _ => return Err(err("InvalidArgumentType", format!("{what} must be an integer"))),
                }
            }
        }
    }
    Ok(out)
}

/// An aggregating item may use, outside its aggregate calls, only grouping keys.
fn ambiguous(e: &Expr, keys: &[String], scope: &Scope) -> Result<()> {
    let simple = matches!(e, Expr::Var(..)) || matches!(e, Expr::Prop(b, _) if matches!(**b, Expr::Var(..)));
    if e.is_aggregate() || (simple && keys.contains(&e.canon())) {
        return Ok(());
    }
    if let Expr::Var(v, _) = e {
        if scope.contains_key(v) {
            return Err(err("AmbiguousAggregationExpression", format!("`{v}` is neither aggregated nor a grouping key")));
        }
        return Ok(());
    }
    let mut res = Ok(());
    direct_children(e, &mut |c| {
        if res.is_ok() {
            res = ambiguous(c, keys, scope);
        }
    });
    res
}

fn order_after_projection(e: &Expr, out: &Scope, projected: &[String], scope: &Scope) -> Result<()> {
    if projected.contains(&e.canon()) {
        return Ok(());
    }
    if let Expr::Var(v, _) = e {
        if out.contains_key(v) {
            return Ok(());
        }
        return Err(err("UndefinedVariable", format!("variable `{v}` is not projected, so ORDER BY cannot use it")));
    }
    let _ = scope;
    let mut res = Ok(());
    direct_children(e, &mut |c| {
        if res.is_ok() {
            res = order_after_projection(c, out, projected, scope);
        }
    });
    res
}

/// Calls `f` on the direct sub-expressions of `e` that live in the same scope.
fn direct_children(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    match e {
        Expr::Prop(x, _) | Expr::HasLabels(x, _) | Expr::Not(x) | Expr::Neg(x) | Expr::IsNull(x, _) => f(x),
        Expr::Index(a, b) | Expr::And(a, b) | Expr::Or(a, b) | Expr::Xor(a, b) | Expr::Arith(_, a, b) | Expr::StrPred(_, a, b) | Expr::In(a, b) | Expr::Regex(a, b) => {
            f(a);
            f(b);
        }
        Expr::Slice(a, b, c) => {
            f(a);
            if let Some(b) = b {
                f(b);
            }
            if let Some(c) = c {
                f(c);
            }
        }
        Expr::List(v) | Expr::Func(_, _, v, _) => v.iter().for_each(f),
        Expr::Map(v) => v.iter().for_each(|(_, x)| f(x)),
        Expr::MapProj(b, _, v) => {
            f(b);
            v.iter().for_each(|(_, x)| f(x));
        }
        Expr::Compare(a, v) => {
            f(a);
            v.iter().for_each(|(_, x)| f(x));
        }
        Expr::Case(s, alts, el) => {
            if let Some(s) = s {
                f(s);
            }
            for (a, b) in alts {
                f(a);
                f(b);
            }
            if let Some(x) = el {
                f(x);
            }
        }
        Expr::ListComp(_, l, ..) | Expr::Quant(_, _, l, _) => f(l),
        _ => {}
    }
}

fn literal_type(e: &Expr) -> Option<&'static str> {
    match e {
        Expr::Lit(Value::Null) => None,
        Expr::Lit(v) => Some(v.type_name()),
        Expr::List(_) | Expr::ListComp(..) => Some("List"),
        Expr::Map(_) => Some("Map"),
        _ => None,
    }
}

fn want_bool(e: &Expr, op: &str) -> Result<()> {
    match literal_type(e) {
        Some("Boolean") | None => Ok(()),
        Some(t) => Err(err("InvalidArgumentType", format!("{op} expects booleans, got a {t}"))),
    }
}

/// Whether a function name is known (scalar, aggregate or temporal).
pub fn known_function(name: &str) -> bool {
    crate::functions::SCALAR.iter().any(|(n, ..)| *n == name) || crate::ast::AGGREGATES.contains(&name) || crate::functions::is_extra(name)
}

/// Checks an expression: defined variables, known functions, aggregates where allowed,
/// operand types that are wrong already as literals. An error inside a function call is
/// placed at the innermost call.
fn expr(scope: &Scope, e: &Expr, agg_ok: bool) -> Result<()> {
    expr_here(scope, e, agg_ok).map_err(|mut err| {
        if let Expr::Func(_, _, _, p) = e {
            err.offset.get_or_insert(*p);
        }
        err
    })
}

fn expr_here(scope: &Scope, e: &Expr, agg_ok: bool) -> Result<()> {
    match e {
        Expr::Var(v, _) => {
            if !scope.contains_key(v) {
                return Err(err("UndefinedVariable", format!("variable `{v}` not defined")));
            }
        }
        Expr::CountStar => {
            if !agg_ok {
                return Err(err("InvalidAggregation", "count(*) is not allowed here"));
            }
        }
        Expr::Func(name, _, args, _) => {
            if crate::ast::AGGREGATES.contains(&name.as_str()) {
                if !agg_ok {
                    return Err(err("InvalidAggregation", format!("aggregate {name}() is not allowed here")));
                }
                for a in args {
                    if a.has_aggregate() {
                        return Err(err("NestedAggregation", "aggregate calls cannot be nested"));
                    }
                    let mut random = false;
                    a.walk(&mut |x| {
                        if matches!(x, Expr::Func(n, ..) if n == "rand") {
                            random = true;
                        }
                    });
                    if random {
                        return Err(err("NonConstantExpression", "rand() inside an aggregate"));
                    }
                    expr(scope, a, false)?;
                }
                return Ok(());
            }
            if !known_function(name) {
                return Err(err("UnknownFunction", format!("unknown function {name}()")));
            }
            if let Some((_, lo, hi)) = crate::functions::SCALAR.iter().find(|(n, ..)| n == name)
                && (args.len() < *lo || args.len() > *hi)
            {
                return Err(err("InvalidNumberOfArguments", format!("{name}() takes {lo}..{hi} arguments, got {}", args.len())));
            }
            if name == "size" && matches!(args.first(), Some(Expr::PatternPred(_))) {
                return Err(err("UnexpectedSyntax", "size() of a pattern predicate; use a pattern comprehension"));
            }
            if let Some(a) = args.first() {
                let k = kind_of(scope, a);
                let lt = literal_type(a);
                let bad = match name.as_str() {
                    "type" | "startnode" | "endnode" => k == Kind::Node || k == Kind::Path || lt.is_some(),
                    "labels" => k == Kind::Rel || k == Kind::Path || lt.is_some(),
                    "properties" => k == Kind::Path || lt.is_some_and(|t| t != "Map"),
                    "length" | "nodes" | "relationships" => k == Kind::Node || k == Kind::Rel || lt.is_some(),
                    "size" => k == Kind::Path || k == Kind::Node || k == Kind::Rel,
                    _ => false,
                };
                if bad {
                    return Err(err("InvalidArgumentType", format!("{name}() cannot take that argument")));
                }
            }
            for a in args {
                expr(scope, a, agg_ok)?;
            }
        }
        Expr::And(a, b) | Expr::Or(a, b) | Expr::Xor(a, b) => {
            let op = match e {
                Expr::And(..) => "AND",
                Expr::Or(..) => "OR",
                _ => "XOR",
            };
            want_bool(a, op)?;
            want_bool(b, op)?;
            expr(scope, a, agg_ok)?;
            expr(scope, b, agg_ok)?;
        }
        Expr::Not(a) => {
            want_bool(a, "NOT")?;
            expr(scope, a, agg_ok)?;
        }
        Expr::In(a, b) => {
            if let Some(t) = literal_type(b)
                && t != "List"
            {
                return Err(err("InvalidArgumentType", format!("IN expects a list, got a {t}")));
            }
            expr(scope, a, agg_ok)?;
            expr(scope, b, agg_ok)?;
        }
        Expr::ListComp(v, l, p, m) => {
            expr(scope, l, agg_ok)?;
            let mut inner = scope.clone();
            inner.insert(v.clone(), element_kind(l));
            if let Some(p) = p {
                expr(&inner, p, false)?;
            }
            if let Some(m) = m {
                expr(&inner, m, false)?;
            }
        }
        Expr::Arith(op, a, b) => {
            let t = |x: &Expr| match kind_of(scope, x) {
                Kind::Value(Some(t)) => Some(t),
                _ => None,
            };
            let (ta, tb) = (t(a), t(b));
            let bad = if *op == crate::ast::ArithOp::Add {
                // Addition is also concatenation: only two known, non-list, mismatched types fail.
                match (ta, tb) {
                    (Some(x), Some(y)) => x != "List" && y != "List" && (matches!(x, "Boolean" | "Map") || matches!(y, "Boolean" | "Map")),
                    _ => false,
                }
            } else {
                [ta, tb].iter().any(|x| matches!(x, Some("Boolean" | "Map" | "String" | "List")))
            };
            if bad {
                return Err(err("InvalidArgumentType", format!("cannot apply {op:?} to these operand types")));
            }
            expr(scope, a, agg_ok)?;
            expr(scope, b, agg_ok)?;
        }
        Expr::Quant(_, v, l, p) => {
            expr(scope, l, agg_ok)?;
            let mut inner = scope.clone();
            inner.insert(v.clone(), element_kind(l));
            if let Some(p) = p {
                expr(&inner, p, false)?;
            }
        }
        Expr::PatternComp(pv, el, p, m) => {
            let mut inner = scope.clone();
            let part = PatternPart { var: pv.clone(), shortest: None, element: el.clone() };
            bind_pattern(&mut inner, std::slice::from_ref(&part), false)?;
            if let Some(p) = p {
                expr(&inner, p, false)?;
            }
            expr(&inner, m, false)?;
        }
        Expr::PatternPred(el) => {
            for v in el.nodes.iter().filter_map(|n| n.var.as_ref()).chain(el.rels.iter().filter_map(|r| r.var.as_ref())) {
                if !scope.contains_key(v) {
                    return Err(err("UndefinedVariable", format!("variable `{v}` not defined (a pattern predicate cannot introduce variables)")));
                }
            }
            let mut inner = scope.clone();
            let part = PatternPart { var: None, shortest: None, element: el.clone() };
            bind_pattern(&mut inner, std::slice::from_ref(&part), false)?;
        }
        Expr::ExistsQuery(q) => check_clauses(q, scope.clone())?,
        Expr::Exists(parts, f) => {
            let mut inner = scope.clone();
            bind_pattern(&mut inner, parts, false)?;
            if let Some(f) = f {
                expr(&inner, f, false)?;
            }
        }
        other => {
            let mut res = Ok(());
            direct_children(other, &mut |c| {
                if res.is_ok() {
                    res = expr(scope, c, agg_ok);
                }
            });
            res?;
        }
    }
    Ok(())
}
