//! The scalar functions of openCypher 9 ("Functions": predicate, scalar, list,
//! mathematical, string) over evaluated arguments. Aggregates live in `exec`.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::error::{ErrorClass, GqlError, Result};
use crate::eval::Ctx;
use crate::value::Value;

/// The scalar functions `call` knows, with their argument counts (min, max).
pub const SCALAR: &[(&str, usize, usize)] = &[
    ("id", 1, 1),
    ("labels", 1, 1),
    ("type", 1, 1),
    ("properties", 1, 1),
    ("keys", 1, 1),
    ("startnode", 1, 1),
    ("endnode", 1, 1),
    ("length", 1, 1),
    ("nodes", 1, 1),
    ("relationships", 1, 1),
    ("size", 1, 1),
    ("head", 1, 1),
    ("last", 1, 1),
    ("tail", 1, 1),
    ("range", 2, 3),
    ("reverse", 1, 1),
    ("coalesce", 1, usize::MAX),
    ("tointeger", 1, 1),
    ("tofloat", 1, 1),
    ("tostring", 1, 1),
    ("toboolean", 1, 1),
    ("tointegerornull", 1, 1),
    ("tofloatornull", 1, 1),
    ("tostringornull", 1, 1),
    ("tobooleanornull", 1, 1),
    ("toupper", 1, 1),
    ("tolower", 1, 1),
    ("trim", 1, 1),
    ("ltrim", 1, 1),
    ("rtrim", 1, 1),
    ("substring", 2, 3),
    ("left", 2, 2),
    ("right", 2, 2),
    ("replace", 3, 3),
    ("split", 2, 2),
    ("abs", 1, 1),
    ("ceil", 1, 1),
    ("floor", 1, 1),
    ("round", 1, 1),
    ("sign", 1, 1),
    ("sqrt", 1, 1),
    ("exp", 1, 1),
    ("log", 1, 1),
    ("log10", 1, 1),
    ("e", 0, 0),
    ("pi", 0, 0),
    ("sin", 1, 1),
    ("cos", 1, 1),
    ("tan", 1, 1),
    ("asin", 1, 1),
    ("acos", 1, 1),
    ("atan", 1, 1),
    ("atan2", 2, 2),
    ("degrees", 1, 1),
    ("radians", 1, 1),
    ("exists", 1, 1),
    ("isempty", 1, 1),
    ("char_length", 1, 1),
    ("character_length", 1, 1),
    ("tobooleanlist", 1, 1),
    ("tointegerlist", 1, 1),
    ("tofloatlist", 1, 1),
    ("tostringlist", 1, 1),
    ("haslabels", 2, 2),
    ("rand", 0, 0),
];

fn targ(name: &str, v: &Value) -> GqlError {
    GqlError::type_error(format!("{name}() cannot take a {}", v.type_name()))
}

/// Formats a number or boolean the way `toString` does.
pub fn to_string_plain(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => fmt_float(*f),
        Value::Bool(b) => b.to_string(),
        Value::Str(s) => s.to_string(),
        Value::Temporal(t) => t.to_string(),
        Value::Duration(d) => d.to_string(),
        _ => String::new(),
    }
}

/// A float in openCypher's output form: always with a fraction or exponent.
pub fn fmt_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    let s = format!("{f:?}");
    if s.contains('e') && !s.contains('.') {
        // 1e20 → 1.0E20 in Cypher; keep a form both Python and Cypher parse.
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        return format!("{m}.0e{e}");
    }
    s
}

fn parse_int_str(s: &str) -> Option<i64> {
    let t = s.trim();
    if let Ok(i) = t.parse::<i64>() {
        return Some(i);
    }
    let f: f64 = t.parse().ok()?;
    if f.is_finite() && f.abs() < 9.2e18 { Some(f.trunc() as i64) } else { None }
}

fn list_arg<'a>(name: &str, v: &'a Value) -> Result<Option<&'a Rc<Vec<Value>>>> {
    match v {
        Value::Null => Ok(None),
        Value::List(l) => Ok(Some(l)),
        other => Err(targ(name, other)),
    }
}

fn int_arg(name: &str, v: &Value) -> Result<Option<i64>> {
    match v {
        Value::Null => Ok(None),
        Value::Int(i) => Ok(Some(*i)),
        other => Err(targ(name, other)),
    }
}

fn math1(name: &str, v: &Value, f: fn(f64) -> f64) -> Result<Value> {
    match v {
        Value::Null => Ok(Value::Null),
        Value::Int(i) => Ok(Value::Float(f(*i as f64))),
        Value::Float(x) => Ok(Value::Float(f(*x))),
        other => Err(targ(name, other)),
    }
}

fn conv(name: &str, v: &Value) -> Result<Value> {
    Ok(match name {
        "tointeger" | "tointegerornull" => match v {
            Value::Int(i) => Value::Int(*i),
            Value::Float(f) => {
                if f.is_finite() && f.abs() < 9.2e18 {
                    Value::Int(f.trunc() as i64)
                } else {
                    Value::Null
                }
            }
            Value::Str(s) => parse_int_str(s).map_or(Value::Null, Value::Int),
            Value::Bool(b) if name == "tointeger" => Value::Int(*b as i64),
            Value::Null => Value::Null,
            other if name == "tointeger" => return Err(targ(name, other)),
            _ => Value::Null,
        },
        "tofloat" | "tofloatornull" => match v {
            Value::Int(i) => Value::Float(*i as f64),
            Value::Float(f) => Value::Float(*f),
            Value::Str(s) => s.trim().parse::<f64>().map_or(Value::Null, Value::Float),
            Value::Null => Value::Null,
            other if name == "tofloat" => return Err(targ(name, other)),
            _ => Value::Null,
        },
        "toboolean" | "tobooleanornull" => match v {
            Value::Bool(b) => Value::Bool(*b),
            Value::Str(s) => match s.trim().to_lowercase().as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => Value::Null,
            },
            Value::Int(i) if name == "toboolean" => Value::Bool(*i != 0),
            Value::Null => Value::Null,
            other if name == "toboolean" => return Err(targ(name, other)),
            _ => Value::Null,
        },
        _ => match v {
            Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Str(_) | Value::Temporal(_) | Value::Duration(_) => Value::str(&to_string_plain(v)),
            Value::Null => Value::Null,
            other if name == "tostring" => return Err(targ(name, other)),
            _ => Value::Null,
        },
    })
}

/// Calls scalar function `name` (lower-case) on evaluated arguments.
pub fn call(ctx: &Ctx, name: &str, a: &[Value]) -> Result<Value> {
    if is_extra(name) {
        return call_temporal(name, a);
    }
    let Some(&(_, lo, hi)) = SCALAR.iter().find(|(n, ..)| *n == name) else {
        return Err(GqlError::semantic("UnknownFunction", format!("unknown function {name}()")));
    };
    if a.len() < lo || a.len() > hi {
        return Err(GqlError::semantic("InvalidNumberOfArguments", format!("{name}() takes {lo}..{hi} arguments, got {}", a.len())));
    }
    let g = ctx.graph;
    let x = a.first().cloned().unwrap_or(Value::Null);
    let s = |v: &Value| -> Result<Option<Rc<str>>> {
        match v {
            Value::Null => Ok(None),
            Value::Str(s) => Ok(Some(s.clone())),
            other => Err(targ(name, other)),
        }
    };
    Ok(match name {
        "id" => match x {
            Value::Node(n) => Value::Int(n as i64),
            Value::Rel(r) => Value::Int(r as i64),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "labels" => match x {
            Value::Node(n) => Value::list(g.labels(n).into_iter().map(Value::str).collect()),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "type" => match x {
            Value::Rel(r) => g.rel_type(r).map_or(Value::Null, Value::str),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "properties" => match x {
            Value::Node(n) => Value::Map(Rc::new(g.props_map(g.node_props(n)))),
            Value::Rel(r) => Value::Map(Rc::new(g.props_map(g.rel_props(r)))),
            Value::Map(m) => Value::Map(m),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "keys" => {
            let keys: Vec<String> = match &x {
                Value::Node(n) => g.props_map(g.node_props(*n)).into_keys().collect(),
                Value::Rel(r) => g.props_map(g.rel_props(*r)).into_keys().collect(),
                Value::Map(m) => m.keys().cloned().collect(),
                Value::Null => return Ok(Value::Null),
                other => return Err(targ(name, other)),
            };
            Value::list(keys.iter().map(|k| Value::str(k)).collect())
        }
        "startnode" | "endnode" => match x {
            Value::Rel(r) => g.rels.get(r).map_or(Value::Null, |r| Value::Node(if name == "startnode" { r.src } else { r.dst })),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "length" => match x {
            Value::Path(p) => Value::Int(p.rels.len() as i64),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "nodes" => match x {
            Value::Path(p) => Value::list(p.nodes.iter().map(|&n| Value::Node(n)).collect()),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "relationships" => match x {
            Value::Path(p) => Value::list(p.rels.iter().map(|&r| Value::Rel(r)).collect()),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "size" | "char_length" | "character_length" => match x {
            Value::List(l) if name == "size" => Value::Int(l.len() as i64),
            Value::Str(s) => Value::Int(s.chars().count() as i64),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "isempty" => match x {
            Value::List(l) => Value::Bool(l.is_empty()),
            Value::Str(s) => Value::Bool(s.is_empty()),
            Value::Map(m) => Value::Bool(m.is_empty()),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "head" => list_arg(name, &x)?.and_then(|l| l.first().cloned()).unwrap_or(Value::Null),
        "last" => list_arg(name, &x)?.and_then(|l| l.last().cloned()).unwrap_or(Value::Null),
        "tail" => match list_arg(name, &x)? {
            Some(l) => Value::list(l.iter().skip(1).cloned().collect()),
            None => Value::Null,
        },
        "reverse" => match x {
            Value::List(l) => Value::list(l.iter().rev().cloned().collect()),
            Value::Str(s) => Value::str(&s.chars().rev().collect::<String>()),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "range" => {
            let int_arg = |n: &str, v: &Value| int_arg(n, v).map_err(|e| GqlError::argument(e.message));
            let (Some(from), Some(to)) = (int_arg(name, &a[0])?, int_arg(name, &a[1])?) else { return Err(GqlError::argument("range() bounds cannot be null")) };
            let step = match a.get(2) {
                Some(v) => int_arg(name, v)?.ok_or_else(|| GqlError::argument("range() step cannot be null"))?,
                None => 1,
            };
            if step == 0 {
                return Err(GqlError::argument("range() step cannot be zero"));
            }
            let mut out = vec![];
            let mut i = from;
            while (step > 0 && i <= to) || (step < 0 && i >= to) {
                out.push(Value::Int(i));
                if out.len() > 50_000_000 {
                    return Err(GqlError::argument("range() too long"));
                }
                match i.checked_add(step) {
                    Some(n) => i = n,
                    None => break,
                }
            }
            Value::list(out)
        }
        "coalesce" => a.iter().find(|v| !v.is_null()).cloned().unwrap_or(Value::Null),
        "tointeger" | "tofloat" | "tostring" | "toboolean" | "tointegerornull" | "tofloatornull" | "tostringornull" | "tobooleanornull" => conv(name, &x)?,
        "tobooleanlist" | "tointegerlist" | "tofloatlist" | "tostringlist" => match list_arg(name, &x)? {
            Some(l) => {
                let base = format!("{}ornull", name.trim_end_matches("list"));
                Value::list(l.iter().map(|v| conv(&base, v)).collect::<Result<_>>()?)
            }
            None => Value::Null,
        },
        "toupper" => s(&x)?.map_or(Value::Null, |t| Value::str(&t.to_uppercase())),
        "tolower" => s(&x)?.map_or(Value::Null, |t| Value::str(&t.to_lowercase())),
        "trim" => s(&x)?.map_or(Value::Null, |t| Value::str(t.trim())),
        "ltrim" => s(&x)?.map_or(Value::Null, |t| Value::str(t.trim_start())),
        "rtrim" => s(&x)?.map_or(Value::Null, |t| Value::str(t.trim_end())),
        "substring" => {
            let Some(t) = s(&x)? else { return Ok(Value::Null) };
            let start = int_arg(name, &a[1])?.ok_or_else(|| GqlError::argument("substring() start cannot be null"))?;
            let len = match a.get(2) {
                Some(v) => int_arg(name, v)?,
                None => None,
            };
            if start < 0 || len.is_some_and(|l| l < 0) {
                return Err(GqlError::argument("substring() start and length must not be negative"));
            }
            let it = t.chars().skip(start as usize);
            Value::str(&match len {
                Some(l) => it.take(l as usize).collect::<String>(),
                None => it.collect::<String>(),
            })
        }
        "left" | "right" => {
            let Some(t) = s(&x)? else { return Ok(Value::Null) };
            let n = int_arg(name, &a[1])?.ok_or_else(|| GqlError::argument(format!("{name}() length cannot be null")))?;
            if n < 0 {
                return Err(GqlError::argument(format!("{name}() length must not be negative")));
            }
            let chars: Vec<char> = t.chars().collect();
            let n = (n as usize).min(chars.len());
            Value::str(&if name == "left" { chars[..n].iter().collect::<String>() } else { chars[chars.len() - n..].iter().collect::<String>() })
        }
        "replace" => match (s(&x)?, s(&a[1])?, s(&a[2])?) {
            (Some(t), Some(f), Some(r)) => Value::str(&t.replace(&*f, &r)),
            _ => Value::Null,
        },
        "split" => match (s(&x)?, s(&a[1])?) {
            (Some(t), Some(d)) => Value::list(t.split(&*d).map(Value::str).collect()),
            _ => Value::Null,
        },
        "abs" => match x {
            Value::Int(i) => Value::Int(i.checked_abs().ok_or_else(|| GqlError::argument("integer overflow"))?),
            Value::Float(f) => Value::Float(f.abs()),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "sign" => match x {
            Value::Int(i) => Value::Int(i.signum()),
            Value::Float(f) => Value::Int(if f > 0.0 {
                1
            } else if f < 0.0 {
                -1
            } else {
                0
            }),
            Value::Null => Value::Null,
            other => return Err(targ(name, &other)),
        },
        "ceil" => math1(name, &x, f64::ceil)?,
        "floor" => math1(name, &x, f64::floor)?,
        "round" => math1(name, &x, |f| if f < 0.0 && f.fract() == -0.5 { f.trunc() } else { f.round() })?,
        "sqrt" => math1(name, &x, f64::sqrt)?,
        "exp" => math1(name, &x, f64::exp)?,
        "log" => math1(name, &x, f64::ln)?,
        "log10" => math1(name, &x, f64::log10)?,
        "sin" => math1(name, &x, f64::sin)?,
        "cos" => math1(name, &x, f64::cos)?,
        "tan" => math1(name, &x, f64::tan)?,
        "asin" => math1(name, &x, f64::asin)?,
        "acos" => math1(name, &x, f64::acos)?,
        "atan" => math1(name, &x, f64::atan)?,
        "degrees" => math1(name, &x, f64::to_degrees)?,
        "radians" => math1(name, &x, f64::to_radians)?,
        "atan2" => match (&a[0], &a[1]) {
            (Value::Null, _) | (_, Value::Null) => Value::Null,
            (p, q) => match (num(p), num(q)) {
                (Some(y), Some(x)) => Value::Float(y.atan2(x)),
                _ => return Err(targ(name, p)),
            },
        },
        "rand" => Value::Float(next_rand()),
        "e" => Value::Float(std::f64::consts::E),
        "pi" => Value::Float(std::f64::consts::PI),
        "exists" => Value::Bool(!x.is_null()),
        "haslabels" => match (&a[0], &a[1]) {
            (Value::Node(n), Value::List(ls)) => {
                let ls: Vec<String> = ls.iter().map(to_string_plain).collect();
                Value::Bool(g.has_labels(*n, &ls))
            }
            _ => Value::Null,
        },
        _ => return Err(GqlError::new(ErrorClass::SemanticError, format!("unknown function {name}()"))),
    })
}

fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

/// Builds a map value.
pub fn map(m: BTreeMap<String, Value>) -> Value {
    Value::Map(Rc::new(m))
}

thread_local! {
    static RAND: std::cell::Cell<u64> = const { std::cell::Cell::new(0x9E37_79B9_7F4A_7C15) };
}

/// `rand()`: a float in [0, 1) from a fixed-seed xorshift generator, so that a query's
/// output is the same on every run (openCypher leaves the sequence unspecified).
fn next_rand() -> f64 {
    RAND.with(|c| {
        let mut x = c.get();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        c.set(x);
        (x >> 11) as f64 / (1u64 << 53) as f64
    })
}

const TEMPORAL_KINDS: &[&str] = &["date", "localtime", "time", "localdatetime", "datetime"];

/// Function names handled outside [`SCALAR`]: the temporal constructors, their
/// `.truncate`, `duration` and `duration.between` / `inMonths` / `inDays` / `inSeconds`.
pub fn is_extra(name: &str) -> bool {
    if TEMPORAL_KINDS.contains(&name) || name == "duration" {
        return true;
    }
    match name.split_once('.') {
        Some((k, "truncate")) => TEMPORAL_KINDS.contains(&k),
        Some(("duration", f)) => matches!(f, "between" | "inmonths" | "indays" | "inseconds"),
        Some(("datetime", "fromepoch" | "fromepochmillis")) => true,
        Some((k, "transaction" | "statement" | "realtime")) => TEMPORAL_KINDS.contains(&k),
        _ => false,
    }
}

/// Calls a temporal function (see [`is_extra`]).
fn call_temporal(name: &str, a: &[Value]) -> Result<Value> {
    use crate::temporal as t;
    if TEMPORAL_KINDS.contains(&name) {
        return t::construct(name, a.first());
    }
    if name == "duration" {
        return t::duration(a.first());
    }
    match name.split_once('.') {
        Some((k, "truncate")) => {
            let unit = match a.first() {
                Some(Value::Str(u)) => u.to_string(),
                _ => return Err(GqlError::argument("truncate() needs a unit string")),
            };
            let tv = match a.get(1) {
                Some(Value::Temporal(x)) => x.clone(),
                Some(Value::Null) | None => return Ok(Value::Null),
                Some(other) => return Err(GqlError::argument(format!("truncate() of a {}", other.type_name()))),
            };
            let over = match a.get(2) {
                Some(Value::Map(m)) => Some((**m).clone()),
                _ => None,
            };
            t::truncate(k, &unit, &tv, over.as_ref())
        }
        Some((_, "transaction" | "statement" | "realtime")) => match a.first() {
            Some(Value::Null) => Ok(Value::Null),
            _ => Err(GqlError::argument(format!("{name}() reads the clock; tg gql output is deterministic, so clocks are not available"))),
        },
        Some(("duration", f)) => match (a.first(), a.get(1)) {
            (Some(Value::Temporal(x)), Some(Value::Temporal(y))) => t::between(f, x, y),
            (Some(Value::Null), _) | (_, Some(Value::Null)) => Ok(Value::Null),
            _ => Err(GqlError::argument(format!("duration.{f}() needs two temporals"))),
        },
        Some(("datetime", f)) => {
            let mut m = BTreeMap::new();
            match (f, a.first(), a.get(1)) {
                ("fromepoch", Some(Value::Int(s)), n) => {
                    m.insert("epochSeconds".to_string(), Value::Int(*s));
                    if let Some(n) = n {
                        m.insert("nanosecond".to_string(), n.clone());
                    }
                }
                ("fromepochmillis", Some(Value::Int(ms)), _) => {
                    m.insert("epochMillis".to_string(), Value::Int(*ms));
                }
                _ => return Ok(Value::Null),
            }
            Ok(Value::Temporal(t::from_map("datetime", &m)?))
        }
        _ => Err(GqlError::semantic("UnknownFunction", format!("unknown function {name}()"))),
    }
}
