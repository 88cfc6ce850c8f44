//! Proof trees: why a derived tuple exists, replayed from canonical witnesses.
//!
//! Each node names the tuple, the rule that derived it (its text and hash) and
//! the round; children are the rule's positive body tuples. Input tuples are
//! leaves. Depth is limited; a tuple already shown higher up is not expanded again.

use std::fmt::Write as _;

use super::eval::Database;
use super::io::parse_value;
use super::logic::{LogicProgram, RelId};

/// A parsed fact such as `path(1, 5)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactRef {
    /// Relation.
    pub rel: RelId,
    /// Row in relation column order.
    pub row: Vec<u32>,
}

/// Why a fact could not be explained.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExplainError {
    /// The text is not `name(arg, …)`.
    #[error("cannot read fact '{0}': expected name(arg, ...)")]
    Syntax(String),
    /// No such relation.
    #[error("no relation named {0}")]
    UnknownRelation(String),
    /// Wrong number of arguments.
    #[error("relation {rel} has {expected} column(s), '{text}' gives {given}")]
    Arity {
        /// Relation name.
        rel: String,
        /// Its arity.
        expected: usize,
        /// Arguments given.
        given: usize,
        /// The fact text.
        text: String,
    },
    /// An argument does not parse as its column's type.
    #[error("argument '{arg}' of '{text}' is not a {ty}")]
    BadValue {
        /// The argument.
        arg: String,
        /// Expected type name.
        ty: String,
        /// The fact text.
        text: String,
    },
    /// The tuple was not derived.
    #[error("{0} does not hold")]
    NotDerived(String),
    /// Evaluation ran without witnesses.
    #[error("no witnesses were kept: run with --provenance")]
    NoProvenance,
}

/// Parses `rel(a, "b", 3)` against the program's relations.
pub fn parse_fact(prog: &LogicProgram, db: &mut Database, text: &str) -> Result<FactRef, ExplainError> {
    let t = text.trim().trim_end_matches('.');
    let (name, rest) = t.split_once('(').ok_or_else(|| ExplainError::Syntax(text.into()))?;
    let inner = rest.trim_end().strip_suffix(')').ok_or_else(|| ExplainError::Syntax(text.into()))?;
    let name = name.trim();
    let rel = prog.relation(name).ok_or_else(|| ExplainError::UnknownRelation(name.into()))?;
    let args = split_args(inner);
    let r = &prog.relations[rel];
    if args.len() != r.arity() {
        return Err(ExplainError::Arity { rel: name.into(), expected: r.arity(), given: args.len(), text: text.into() });
    }
    let mut row = vec![];
    for (c, a) in args.iter().enumerate() {
        let raw = a.trim();
        let unq = raw.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(raw);
        let w = match r.kinds[c] {
            super::logic::Kind::Symbol => db.values.lookup(unq),
            k => parse_value(prog, k, unq, &mut db.values),
        };
        match w {
            Some(w) => row.push(w),
            None if r.kinds[c] == super::logic::Kind::Symbol => return Err(ExplainError::NotDerived(text.trim().into())),
            None => return Err(ExplainError::BadValue { arg: raw.into(), ty: r.attr_types[c].clone(), text: text.into() }),
        }
    }
    if r.arity() == 0 {
        row.push(0);
    }
    Ok(FactRef { rel, row })
}

/// Splits the arguments of a fact at top-level commas (not inside quotes, `[…]` or `(…)`).
pub fn split_args(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let (mut depth, mut quoted) = (0i32, false);
    for c in s.chars() {
        match c {
            '"' => quoted = !quoted,
            '[' | '(' if !quoted => depth += 1,
            ']' | ')' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() || !out.is_empty() {
        out.push(cur);
    }
    out
}

/// Renders a tuple as `rel(v1, v2)`, symbols quoted.
pub fn show_tuple(prog: &LogicProgram, db: &Database, rel: RelId, row: &[u32]) -> String {
    let r = &prog.relations[rel];
    let mut s = format!("{}(", r.name);
    for (c, k) in r.kinds.iter().enumerate() {
        if c > 0 {
            s.push_str(", ");
        }
        if *k == super::logic::Kind::Symbol {
            let _ = write!(s, "{:?}", db.values.symbol(row[c]));
        } else {
            db.values.render(*k, row[c], &prog.records, &mut s);
        }
    }
    s.push(')');
    s
}

fn hex(h: &[u8]) -> String {
    h.iter().take(6).map(|b| format!("{b:02x}")).collect()
}

/// The proof tree of a fact, `depth` levels deep.
pub fn explain(prog: &LogicProgram, db: &Database, fact: &FactRef, depth: usize) -> Result<String, ExplainError> {
    let wits = db.witnesses.as_ref().ok_or(ExplainError::NoProvenance)?;
    if !db.rels[fact.rel].contains(&fact.row) {
        return Err(ExplainError::NotDerived(show_tuple(prog, db, fact.rel, &fact.row)));
    }
    let mut out = String::new();
    let mut path = vec![];
    node(prog, db, wits, fact.rel, &fact.row, depth, "", "", &mut path, &mut out);
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn node(
    prog: &LogicProgram,
    db: &Database,
    wits: &super::witness::WitnessStore,
    rel: RelId,
    row: &[u32],
    depth: usize,
    lead: &str,
    child_lead: &str,
    path: &mut Vec<(RelId, Vec<u32>)>,
    out: &mut String,
) {
    let t = show_tuple(prog, db, rel, row);
    let key = row.to_vec();
    match wits.get(rel, row) {
        None => {
            let _ = writeln!(out, "{lead}{t}  [no witness]");
        }
        Some(w) => match w.rule {
            None => {
                let _ = writeln!(out, "{lead}{t}  [input]");
            }
            Some(ri) => {
                let rule = &prog.rules[ri];
                let kind = if rule.body.is_empty() { "fact" } else { "rule" };
                let _ = writeln!(out, "{lead}{t}  [{kind} {} round {}: {}]", hex(&rule.hash), w.round, rule.text);
                if path.iter().any(|(r, x)| *r == rel && x == row) {
                    return;
                }
                if depth == 0 {
                    if !w.body.is_empty() {
                        let _ = writeln!(out, "{child_lead}└─ … ({} premise(s) below the depth limit)", w.body.len());
                    }
                    return;
                }
                path.push((rel, key.clone()));
                let n = w.body.len();
                for (i, (br, brow)) in w.body.iter().enumerate() {
                    let last = i + 1 == n;
                    let l = format!("{child_lead}{}", if last { "└─ " } else { "├─ " });
                    let cl = format!("{child_lead}{}", if last { "   " } else { "│  " });
                    let mut padded = brow.clone();
                    if padded.is_empty() {
                        padded.push(0);
                    }
                    node(prog, db, wits, *br, &padded, depth - 1, &l, &cl, path, out);
                }
                path.pop();
            }
        },
    }
}
