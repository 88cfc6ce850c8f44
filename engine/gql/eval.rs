//! Expression evaluation under openCypher's semantics: three-valued logic, null
//! propagation, integer/float arithmetic with overflow errors, list and map access.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::ast::{ArithOp, CmpOp, Expr, Quant, StrOp};
use crate::error::{ErrorClass, GqlError, Result};
use crate::functions;
use crate::graph::Graph;
use crate::pattern;
use crate::value::{Value, compare, equals};

/// What every evaluation reads: the graph and the query parameters.
pub struct Ctx<'g> {
    /// The graph.
    pub graph: &'g Graph,
    /// `$name` values.
    pub params: &'g BTreeMap<String, Value>,
}

/// One row in scope: names, values, and the values of the enclosing projection's
/// aggregates (for [`Expr::AggRef`]).
#[derive(Clone, Copy)]
pub struct Env<'a> {
    /// Variable names, innermost last.
    pub names: &'a [String],
    /// Their values.
    pub row: &'a [Value],
    /// Aggregate results.
    pub aggs: &'a [Value],
}

pub(crate) fn truth(v: &Value, what: &str) -> Result<Option<bool>> {
    match v {
        Value::Bool(b) => Ok(Some(*b)),
        Value::Null => Ok(None),
        other => Err(GqlError::type_error(format!("{what} expects a boolean, got {}", other.type_name()))),
    }
}

pub(crate) fn tv(b: Option<bool>) -> Value {
    b.map_or(Value::Null, Value::Bool)
}

/// Three-valued AND (null is unknown): false wins, then unknown.
pub(crate) fn and3(l: Option<bool>, r: Option<bool>) -> Option<bool> {
    match (l, r) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

/// Three-valued OR: true wins, then unknown.
pub(crate) fn or3(l: Option<bool>, r: Option<bool>) -> Option<bool> {
    match (l, r) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

/// Three-valued XOR: unknown when either side is.
pub(crate) fn xor3(l: Option<bool>, r: Option<bool>) -> Option<bool> {
    Some(l? != r?)
}

/// Looks `name` up, innermost binding first.
pub fn lookup<'a>(env: &Env<'a>, name: &str) -> Option<&'a Value> {
    env.names.iter().rposition(|n| n == name).and_then(|i| env.row.get(i))
}

impl Ctx<'_> {
    /// Evaluates `e` in `env`.
    pub fn eval(&self, e: &Expr, env: &Env) -> Result<Value> {
        Ok(match e {
            Expr::Lit(v) => v.clone(),
            Expr::Param(p) => match self.params.get(p) {
                Some(v) => v.clone(),
                None => {
                    return Err(GqlError {
                        class: ErrorClass::ParameterMissing,
                        detail: Some("MissingParameter"),
                        message: format!("no value for parameter ${p}"),
                        pos: None,
                        offset: None,
                    });
                }
            },
            Expr::Var(n, _) => match lookup(env, n) {
                Some(v) => v.clone(),
                None => return Err(GqlError::semantic("UndefinedVariable", format!("variable `{n}` not defined"))),
            },
            Expr::Prop(b, k) => {
                let base = self.eval(b, env)?;
                self.property(&base, k)?
            }
            Expr::Index(b, i) => {
                let base = self.eval(b, env)?;
                let idx = self.eval(i, env)?;
                self.index(&base, &idx)?
            }
            Expr::Slice(b, from, to) => {
                let base = self.eval(b, env)?;
                let f = match from {
                    Some(x) => Some(self.eval(x, env)?),
                    None => None,
                };
                let t = match to {
                    Some(x) => Some(self.eval(x, env)?),
                    None => None,
                };
                slice(&base, f, t)?
            }
            Expr::HasLabels(b, ls) => match self.eval(b, env)? {
                Value::Node(n) => Value::Bool(self.graph.has_labels(n, ls)),
                Value::Null => Value::Null,
                other => return Err(GqlError::type_error(format!("label test on a {}", other.type_name()))),
            },
            Expr::List(v) => Value::list(v.iter().map(|x| self.eval(x, env)).collect::<Result<_>>()?),
            Expr::Map(v) => {
                let mut m = BTreeMap::new();
                for (k, x) in v {
                    m.insert(k.clone(), self.eval(x, env)?);
                }
                Value::Map(Rc::new(m))
            }
            Expr::Not(x) => tv(truth(&self.eval(x, env)?, "NOT")?.map(|b| !b)),
            Expr::And(a, b) => tv(and3(truth(&self.eval(a, env)?, "AND")?, truth(&self.eval(b, env)?, "AND")?)),
            Expr::Or(a, b) => tv(or3(truth(&self.eval(a, env)?, "OR")?, truth(&self.eval(b, env)?, "OR")?)),
            Expr::Xor(a, b) => tv(xor3(truth(&self.eval(a, env)?, "XOR")?, truth(&self.eval(b, env)?, "XOR")?)),
            Expr::Compare(first, chain) => {
                let mut left = self.eval(first, env)?;
                let mut acc = Some(true);
                for (op, rhs) in chain {
                    let right = self.eval(rhs, env)?;
                    acc = and3(acc, cmp_op(*op, &left, &right));
                    left = right;
                }
                tv(acc)
            }
            Expr::Arith(op, a, b) => {
                let l = self.eval(a, env)?;
                let r = self.eval(b, env)?;
                arith(*op, &l, &r)?
            }
            Expr::Neg(x) => match self.eval(x, env)? {
                Value::Int(i) => Value::Int(i.checked_neg().ok_or_else(|| GqlError::argument("integer overflow"))?),
                Value::Float(f) => Value::Float(-f),
                Value::Null => Value::Null,
                other => return Err(GqlError::type_error(format!("cannot negate a {}", other.type_name()))),
            },
            Expr::StrPred(op, a, b) => match (self.eval(a, env)?, self.eval(b, env)?) {
                (Value::Str(x), Value::Str(y)) => Value::Bool(match op {
                    StrOp::Starts => x.starts_with(&*y),
                    StrOp::Ends => x.ends_with(&*y),
                    StrOp::Contains => x.contains(&*y),
                }),
                _ => Value::Null,
            },
            Expr::In(a, b) => {
                let x = self.eval(a, env)?;
                match self.eval(b, env)? {
                    Value::Null => Value::Null,
                    Value::List(l) => {
                        let mut unknown = false;
                        for y in l.iter() {
                            match equals(&x, y) {
                                Some(true) => return Ok(Value::Bool(true)),
                                None => unknown = true,
                                Some(false) => {}
                            }
                        }
                        if unknown { Value::Null } else { Value::Bool(false) }
                    }
                    other => return Err(GqlError::type_error(format!("IN expects a list, got {}", other.type_name()))),
                }
            }
            Expr::Regex(a, b) => match (self.eval(a, env)?, self.eval(b, env)?) {
                (Value::Str(x), Value::Str(p)) => {
                    let re = regex::Regex::new(&format!("^(?:{p})$")).map_err(|e| GqlError::argument(format!("invalid regular expression: {e}")))?;
                    Value::Bool(re.is_match(&x))
                }
                _ => Value::Null,
            },
            Expr::IsNull(x, want_null) => Value::Bool(self.eval(x, env)?.is_null() == *want_null),
            Expr::Case(subject, alts, els) => {
                let s = match subject {
                    Some(s) => Some(self.eval(s, env)?),
                    None => None,
                };
                for (w, t) in alts {
                    let wv = self.eval(w, env)?;
                    let hit = match &s {
                        Some(sv) => equals(sv, &wv) == Some(true),
                        None => matches!(wv, Value::Bool(true)),
                    };
                    if hit {
                        return self.eval(t, env);
                    }
                }
                match els {
                    Some(x) => self.eval(x, env)?,
                    None => Value::Null,
                }
            }
            Expr::CountStar => return Err(GqlError::semantic("InvalidAggregation", "count(*) is not allowed here")),
            Expr::Func(name, _, args, _) => {
                if crate::ast::AGGREGATES.contains(&name.as_str()) {
                    return Err(GqlError::semantic("InvalidAggregation", format!("aggregate {name}() is not allowed here")));
                }
                let vals = args.iter().map(|a| self.eval(a, env)).collect::<Result<Vec<_>>>()?;
                functions::call(self, name, &vals)?
            }
            Expr::ListComp(var, list, pred, map) => {
                let items = match self.eval(list, env)? {
                    Value::Null => return Ok(Value::Null),
                    Value::List(l) => l,
                    other => return Err(GqlError::type_error(format!("list comprehension over a {}", other.type_name()))),
                };
                let mut names = env.names.to_vec();
                names.push(var.clone());
                let mut row = env.row.to_vec();
                row.push(Value::Null);
                let mut out = vec![];
                for it in items.iter() {
                    if let Some(last) = row.last_mut() {
                        *last = it.clone();
                    }
                    let inner = Env { names: &names, row: &row, aggs: env.aggs };
                    if let Some(p) = pred
                        && !matches!(self.eval(p, &inner)?, Value::Bool(true))
                    {
                        continue;
                    }
                    out.push(match map {
                        Some(m) => self.eval(m, &inner)?,
                        None => it.clone(),
                    });
                }
                Value::list(out)
            }
            Expr::Quant(q, var, list, pred) => {
                let items = match self.eval(list, env)? {
                    Value::Null => return Ok(Value::Null),
                    Value::List(l) => l,
                    other => return Err(GqlError::type_error(format!("quantifier over a {}", other.type_name()))),
                };
                let mut names = env.names.to_vec();
                names.push(var.clone());
                let mut row = env.row.to_vec();
                row.push(Value::Null);
                let (mut t, mut f, mut n) = (0usize, 0usize, 0usize);
                for it in items.iter() {
                    if let Some(last) = row.last_mut() {
                        *last = it.clone();
                    }
                    let inner = Env { names: &names, row: &row, aggs: env.aggs };
                    let r = match pred {
                        Some(p) => truth(&self.eval(p, &inner)?, "a quantifier")?,
                        None => truth(it, "a quantifier")?,
                    };
                    match r {
                        Some(true) => t += 1,
                        Some(false) => f += 1,
                        None => n += 1,
                    }
                }
                tv(match q {
                    Quant::All => {
                        if f > 0 {
                            Some(false)
                        } else if n > 0 {
                            None
                        } else {
                            Some(true)
                        }
                    }
                    Quant::Any => {
                        if t > 0 {
                            Some(true)
                        } else if n > 0 {
                            None
                        } else {
                            Some(false)
                        }
                    }
                    Quant::None => {
                        if t > 0 {
                            Some(false)
                        } else if n > 0 {
                            None
                        } else {
                            Some(true)
                        }
                    }
                    Quant::Single => {
                        if t > 1 {
                            Some(false)
                        } else if n > 0 {
                            None
                        } else {
                            Some(t == 1)
                        }
                    }
                })
            }
            Expr::PatternPred(el) => {
                let part = crate::ast::PatternPart { var: None, shortest: None, element: el.clone() };
                let parts = [part];
                Value::Bool(self.any_match(&parts, None, env)?)
            }
            Expr::Exists(parts, filter) => Value::Bool(self.any_match(parts, filter.as_deref(), env)?),
            Expr::ExistsQuery(q) => Value::Bool(crate::exec::exists_query(self, q, env)?),
            Expr::PatternComp(var, el, pred, map) => {
                let part = crate::ast::PatternPart { var: var.clone(), shortest: None, element: el.clone() };
                let parts = [part];
                let mut counter = 0;
                let c = pattern::compile(self, &parts, env.names, &mut counter);
                let mut out = vec![];
                pattern::matches(self, &c, env, &mut |row| {
                    let inner = Env { names: &c.names, row, aggs: env.aggs };
                    if let Some(p) = pred
                        && !matches!(self.eval(p, &inner)?, Value::Bool(true))
                    {
                        return Ok(true);
                    }
                    out.push(self.eval(map, &inner)?);
                    Ok(true)
                })?;
                Value::list(out)
            }
            Expr::AggRef(i) => env.aggs.get(*i).cloned().unwrap_or(Value::Null),
            Expr::MapProj(base, all, entries) => {
                let b = self.eval(base, env)?;
                let mut m: BTreeMap<String, Value> = match (&b, *all) {
                    (Value::Null, _) => return Ok(Value::Null),
                    (Value::Node(n), true) => self.graph.props_map(self.graph.node_props(*n)),
                    (Value::Rel(r), true) => self.graph.props_map(self.graph.rel_props(*r)),
                    (Value::Map(m), true) => (**m).clone(),
                    (Value::Node(_) | Value::Rel(_) | Value::Map(_), false) => BTreeMap::new(),
                    (other, _) => return Err(GqlError::type_error(format!("map projection of a {}", other.type_name()))),
                };
                for (k, x) in entries {
                    m.insert(k.clone(), self.eval(x, env)?);
                }
                Value::Map(Rc::new(m))
            }
        })
    }

    fn any_match(&self, parts: &[crate::ast::PatternPart], filter: Option<&Expr>, env: &Env) -> Result<bool> {
        let mut counter = 0;
        let c = pattern::compile(self, parts, env.names, &mut counter);
        let mut found = false;
        pattern::matches(self, &c, env, &mut |row| {
            if let Some(f) = filter {
                let inner = Env { names: &c.names, row, aggs: env.aggs };
                if !matches!(self.eval(f, &inner)?, Value::Bool(true)) {
                    return Ok(true);
                }
            }
            found = true;
            Ok(false)
        })?;
        Ok(found)
    }

    /// `base.key` for nodes, relationships and maps.
    pub fn property(&self, base: &Value, key: &str) -> Result<Value> {
        Ok(match base {
            Value::Null => Value::Null,
            Value::Node(n) => self.graph.prop(self.graph.node_props(*n), key).cloned().unwrap_or(Value::Null),
            Value::Rel(r) => self.graph.prop(self.graph.rel_props(*r), key).cloned().unwrap_or(Value::Null),
            Value::Map(m) => m.get(key).cloned().unwrap_or(Value::Null),
            Value::Temporal(t) => {
                crate::temporal::component(t, key).ok_or_else(|| GqlError::semantic("InvalidPropertyAccess", format!("a {} has no component `{key}`", t.type_name())))?
            }
            Value::Duration(d) => {
                crate::temporal::duration_component(d, key).ok_or_else(|| GqlError::semantic("InvalidPropertyAccess", format!("a duration has no component `{key}`")))?
            }
            other => return Err(GqlError::type_error(format!("cannot read property `{key}` of a {}", other.type_name()))),
        })
    }

    fn index(&self, base: &Value, idx: &Value) -> Result<Value> {
        Ok(match (base, idx) {
            (Value::Null, _) | (_, Value::Null) => Value::Null,
            (Value::List(l), Value::Int(i)) => {
                let n = l.len() as i64;
                let k = if *i < 0 { n + i } else { *i };
                if k < 0 || k >= n { Value::Null } else { l[k as usize].clone() }
            }
            (Value::Map(_) | Value::Node(_) | Value::Rel(_), Value::Str(k)) => self.property(base, k)?,
            (Value::List(_), other) => return Err(GqlError::type_error(format!("list index must be an integer, got {}", other.type_name()))),
            (Value::Map(_) | Value::Node(_) | Value::Rel(_), other) => return Err(GqlError::type_error(format!("map key must be a string, got {}", other.type_name()))),
            (other, _) => return Err(GqlError::type_error(format!("cannot index a {}", other.type_name()))),
        })
    }
}

fn slice(base: &Value, from: Option<Value>, to: Option<Value>) -> Result<Value> {
    let l = match base {
        Value::Null => return Ok(Value::Null),
        Value::List(l) => l,
        other => return Err(GqlError::type_error(format!("cannot slice a {}", other.type_name()))),
    };
    let n = l.len() as i64;
    let bound = |v: Option<Value>, default: i64| -> Result<Option<i64>> {
        match v {
            None => Ok(Some(default)),
            Some(Value::Null) => Ok(None),
            Some(Value::Int(i)) => Ok(Some(if i < 0 { (n + i).max(0) } else { i.min(n) })),
            Some(other) => Err(GqlError::type_error(format!("slice bound must be an integer, got {}", other.type_name()))),
        }
    };
    let (Some(a), Some(b)) = (bound(from, 0)?, bound(to, n)?) else { return Ok(Value::Null) };
    if a >= b {
        return Ok(Value::list(vec![]));
    }
    Ok(Value::list(l[a as usize..b as usize].to_vec()))
}

/// A comparison operator on two values (null when not comparable).
pub fn cmp_op(op: CmpOp, a: &Value, b: &Value) -> Option<bool> {
    match op {
        CmpOp::Eq => equals(a, b),
        CmpOp::Ne => equals(a, b).map(|x| !x),
        _ => {
            // NaN compares false with every number (not null).
            let nan = |v: &Value| matches!(v, Value::Float(f) if f.is_nan());
            if (nan(a) || nan(b)) && matches!(a, Value::Int(_) | Value::Float(_)) && matches!(b, Value::Int(_) | Value::Float(_)) {
                return Some(false);
            }
            Some(op.holds(compare(a, b)?))
        }
    }
}

/// Arithmetic with openCypher's typing: integer overflow is an error, any float makes
/// a float, `+` concatenates strings and lists.
pub fn arith(op: ArithOp, l: &Value, r: &Value) -> Result<Value> {
    use Value::*;
    let overflow = || GqlError::argument("integer overflow");
    Ok(match (op, l, r) {
        (_, Null, _) | (_, _, Null) => Null,
        (ArithOp::Add, List(a), List(b)) => Value::list(a.iter().chain(b.iter()).cloned().collect()),
        (ArithOp::Add, List(a), x) => Value::list(a.iter().cloned().chain(std::iter::once(x.clone())).collect()),
        (ArithOp::Add, x, List(b)) => Value::list(std::iter::once(x.clone()).chain(b.iter().cloned()).collect()),
        (ArithOp::Add, Str(a), Str(b)) => Value::str(&format!("{a}{b}")),
        (ArithOp::Add, Str(a), x @ (Int(_) | Float(_) | Bool(_))) => Value::str(&format!("{a}{}", functions::to_string_plain(x))),
        (ArithOp::Add, x @ (Int(_) | Float(_) | Bool(_)), Str(b)) => Value::str(&format!("{}{b}", functions::to_string_plain(x))),
        (ArithOp::Add, Temporal(t), Duration(d)) | (ArithOp::Add, Duration(d), Temporal(t)) => Temporal(crate::temporal::add(t, d, 1)?),
        (ArithOp::Sub, Temporal(t), Duration(d)) => Temporal(crate::temporal::add(t, d, -1)?),
        (ArithOp::Add, Duration(a), Duration(b)) => Duration(crate::temporal::add_durations(a, b, 1)),
        (ArithOp::Sub, Duration(a), Duration(b)) => Duration(crate::temporal::add_durations(a, b, -1)),
        (ArithOp::Mul, Duration(d), x @ (Int(_) | Float(_))) | (ArithOp::Mul, x @ (Int(_) | Float(_)), Duration(d)) => {
            Duration(crate::temporal::scale(d, num(x).unwrap_or(0.0), false)?)
        }
        (ArithOp::Div, Duration(d), x @ (Int(_) | Float(_))) => Duration(crate::temporal::scale(d, num(x).unwrap_or(0.0), true)?),
        (ArithOp::Pow, a, b) => match (num(a), num(b)) {
            (Some(x), Some(y)) => Float(x.powf(y)),
            _ => return Err(type_err(op, l, r)),
        },
        (op, Int(a), Int(b)) => Int(match op {
            ArithOp::Add => a.checked_add(*b).ok_or_else(overflow)?,
            ArithOp::Sub => a.checked_sub(*b).ok_or_else(overflow)?,
            ArithOp::Mul => a.checked_mul(*b).ok_or_else(overflow)?,
            ArithOp::Div => {
                if *b == 0 {
                    return Err(GqlError::argument("division by zero"));
                }
                a.checked_div(*b).ok_or_else(overflow)?
            }
            _ => {
                if *b == 0 {
                    return Err(GqlError::argument("modulo by zero"));
                }
                a.checked_rem(*b).unwrap_or(0)
            }
        }),
        (op, a, b) => match (num(a), num(b)) {
            (Some(x), Some(y)) => Float(match op {
                ArithOp::Add => x + y,
                ArithOp::Sub => x - y,
                ArithOp::Mul => x * y,
                ArithOp::Div => x / y,
                _ => x % y,
            }),
            _ => return Err(type_err(op, l, r)),
        },
    })
}

fn type_err(op: ArithOp, l: &Value, r: &Value) -> GqlError {
    GqlError::type_error(format!("cannot apply {op:?} to {} and {}", l.type_name(), r.type_name()))
}

fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}
