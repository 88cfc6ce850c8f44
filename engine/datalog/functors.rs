//! Evaluation of typed expressions and conditions over one variable binding.
//!
//! Arithmetic follows Soufflé's 32-bit semantics: `number` wraps as `i32`,
//! `unsigned` as `u32`, `float` is `f32`. An expression with no value (division
//! by zero, an unparsable `to_number`) yields `None`, and the binding is dropped.

use std::collections::HashMap;

use regex::Regex;

use super::ast::{BinOp, CmpOp, UnOp};
use super::logic::{Expr, Functor, Kind, RecordType};
use super::value::Values;

/// Caches compiled regular expressions by pattern text.
#[derive(Default)]
pub struct RegexCache(HashMap<String, Option<Regex>>);

impl RegexCache {
    /// True if `text` matches `pattern` as a whole (Soufflé's `match`). Invalid patterns never match.
    pub fn full_match(&mut self, pattern: &str, text: &str) -> bool {
        let re = self.0.entry(pattern.to_string()).or_insert_with(|| Regex::new(&format!("^(?:{pattern})$")).ok());
        re.as_ref().is_some_and(|r| r.is_match(text))
    }
}

/// Evaluates an expression under `env`.
pub fn eval(e: &Expr, env: &[u32], values: &mut Values) -> Option<u32> {
    Some(match e {
        Expr::Var(v) => env[*v],
        Expr::Const(c) => *c,
        Expr::Unary(op, k, a) => {
            let x = eval(a, env, values)?;
            unary(*op, *k, x)
        }
        Expr::Binary(op, k, a, b) => {
            let x = eval(a, env, values)?;
            let y = eval(b, env, values)?;
            binary(*op, *k, x, y)?
        }
        Expr::Record(fields) => {
            let mut ws = Vec::with_capacity(fields.len());
            for f in fields {
                ws.push(eval(f, env, values)?);
            }
            values.pack(&ws)
        }
        Expr::Call(f, kinds, args) => {
            let mut ws = Vec::with_capacity(args.len());
            for a in args {
                ws.push(eval(a, env, values)?);
            }
            call(*f, kinds, &ws, values)?
        }
    })
}

fn unary(op: UnOp, k: Kind, x: u32) -> u32 {
    match (op, k) {
        (UnOp::Neg, Kind::Float) => (-f32::from_bits(x)).to_bits(),
        (UnOp::Neg, _) => (x as i32).wrapping_neg() as u32,
        (UnOp::BNot, _) => !x,
        (UnOp::LNot, Kind::Float) => u32::from(f32::from_bits(x) == 0.0),
        (UnOp::LNot, _) => u32::from(x == 0),
    }
}

fn truthy(k: Kind, x: u32) -> bool {
    if k == Kind::Float { f32::from_bits(x) != 0.0 } else { x != 0 }
}

fn binary(op: BinOp, k: Kind, x: u32, y: u32) -> Option<u32> {
    use BinOp::*;
    if matches!(op, LAnd | LOr | LXor) {
        let (a, b) = (truthy(k, x), truthy(k, y));
        let r = match op {
            LAnd => a && b,
            LOr => a || b,
            _ => a != b,
        };
        return Some(if k == Kind::Float { (r as u32 as f32).to_bits() } else { r as u32 });
    }
    Some(match k {
        Kind::Float => {
            let (a, b) = (f32::from_bits(x), f32::from_bits(y));
            let r = match op {
                Add => a + b,
                Sub => a - b,
                Mul => a * b,
                Div => a / b,
                Mod => a % b,
                Pow => a.powf(b),
                _ => return Some(bitwise(op, x, y, true)),
            };
            r.to_bits()
        }
        Kind::Unsigned => match op {
            Add => x.wrapping_add(y),
            Sub => x.wrapping_sub(y),
            Mul => x.wrapping_mul(y),
            Div => x.checked_div(y)?,
            Mod => x.checked_rem(y)?,
            Pow => x.wrapping_pow(y),
            _ => bitwise(op, x, y, false),
        },
        _ => {
            let (a, b) = (x as i32, y as i32);
            (match op {
                Add => a.wrapping_add(b),
                Sub => a.wrapping_sub(b),
                Mul => a.wrapping_mul(b),
                Div => {
                    if b == 0 {
                        return None;
                    }
                    a.wrapping_div(b)
                }
                Mod => {
                    if b == 0 {
                        return None;
                    }
                    a.wrapping_rem(b)
                }
                Pow => {
                    if b >= 0 {
                        a.wrapping_pow(b as u32)
                    } else {
                        (a as f64).powi(b) as i32
                    }
                }
                _ => return Some(bitwise(op, x, y, true)),
            }) as u32
        }
    })
}

fn bitwise(op: BinOp, x: u32, y: u32, signed: bool) -> u32 {
    match op {
        BinOp::BAnd => x & y,
        BinOp::BOr => x | y,
        BinOp::BXor => x ^ y,
        BinOp::BShl => x.wrapping_shl(y),
        BinOp::BShr if signed => ((x as i32).wrapping_shr(y)) as u32,
        BinOp::BShr | BinOp::BShrU => x.wrapping_shr(y),
        _ => 0,
    }
}

fn to_text(k: Kind, w: u32, values: &Values) -> String {
    match k {
        Kind::Number => (w as i32).to_string(),
        Kind::Unsigned => w.to_string(),
        // std::to_string(float) in Soufflé: fixed notation, six decimals.
        Kind::Float => format!("{:.6}", f32::from_bits(w)),
        Kind::Symbol => values.symbol(w).to_string(),
        Kind::Record(_) => w.to_string(),
    }
}

fn call(f: Functor, kinds: &[Kind], a: &[u32], values: &mut Values) -> Option<u32> {
    let k0 = kinds.first().copied().unwrap_or(Kind::Number);
    Some(match f {
        Functor::Cat => {
            let s: String = a.iter().map(|w| values.symbol(*w)).collect();
            values.intern(&s)
        }
        Functor::Strlen => values.symbol(a[0]).len() as u32,
        Functor::Substr => {
            let s = values.symbol(a[0]);
            let (i, n) = (a[1] as i32, a[2] as i32);
            let out = if i < 0 || n < 0 || i as usize > s.len() {
                String::new()
            } else {
                let end = (i as usize).saturating_add(n as usize).min(s.len());
                String::from_utf8_lossy(&s.as_bytes()[i as usize..end]).into_owned()
            };
            values.intern(&out)
        }
        Functor::Ord => a[0],
        Functor::ToNumber => match k0 {
            Kind::Symbol => parse_int(values.symbol(a[0]))? as u32,
            Kind::Float => f32::from_bits(a[0]) as i32 as u32,
            _ => a[0],
        },
        Functor::ToUnsigned => match k0 {
            Kind::Symbol => parse_int(values.symbol(a[0]))? as u32,
            Kind::Float => f32::from_bits(a[0]) as u32,
            _ => a[0],
        },
        Functor::ToFloat => match k0 {
            Kind::Symbol => values.symbol(a[0]).trim().parse::<f32>().ok()?.to_bits(),
            Kind::Number => (a[0] as i32 as f32).to_bits(),
            Kind::Unsigned => (a[0] as f32).to_bits(),
            _ => a[0],
        },
        Functor::ToString => {
            let s = to_text(k0, a[0], values);
            values.intern(&s)
        }
        Functor::Min | Functor::Max => {
            let mut best = a[0];
            for &w in &a[1..] {
                let o = cmp_kind(k0, w, best, values);
                if (f == Functor::Min && o.is_lt()) || (f == Functor::Max && o.is_gt()) {
                    best = w;
                }
            }
            best
        }
        Functor::As => a[0],
        Functor::Host(h) => h.call(a, values),
    })
}

fn parse_int(s: &str) -> Option<i64> {
    let t = s.trim();
    if let Some(h) = t.strip_prefix("0x") {
        return i64::from_str_radix(h, 16).ok();
    }
    if let Some(b) = t.strip_prefix("0b") {
        return i64::from_str_radix(b, 2).ok();
    }
    t.parse::<i64>().ok()
}

/// Orders two words of a kind (symbols by text).
pub fn cmp_kind(k: Kind, x: u32, y: u32, values: &Values) -> std::cmp::Ordering {
    match k {
        Kind::Number => (x as i32).cmp(&(y as i32)),
        Kind::Float => f32::from_bits(x).partial_cmp(&f32::from_bits(y)).unwrap_or(std::cmp::Ordering::Equal),
        Kind::Symbol => {
            if x == y {
                std::cmp::Ordering::Equal
            } else {
                values.symbol(x).cmp(values.symbol(y))
            }
        }
        _ => x.cmp(&y),
    }
}

/// Evaluates a comparison at a kind.
pub fn compare(op: CmpOp, k: Kind, x: u32, y: u32, values: &Values) -> bool {
    if k == Kind::Float {
        let (a, b) = (f32::from_bits(x), f32::from_bits(y));
        return match op {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        };
    }
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        _ => {
            let o = cmp_kind(k, x, y, values);
            match op {
                CmpOp::Lt => o.is_lt(),
                CmpOp::Le => o.is_le(),
                CmpOp::Gt => o.is_gt(),
                _ => o.is_ge(),
            }
        }
    }
}

/// Field kinds of a record type (empty if unknown).
pub fn record_fields(recs: &[RecordType], k: Kind) -> Vec<Kind> {
    match k {
        Kind::Record(t) => recs.get(t).map(|r| r.fields.iter().map(|f| f.1).collect()).unwrap_or_default(),
        _ => vec![],
    }
}
