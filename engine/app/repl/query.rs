//! Datalog queries `?- body.`: the body becomes the rule `__query(Vars…) :- body.`,
//! compiled with the case's program and the session's clauses, evaluated in memory over
//! the store's facts (nothing is written), and its rows come back sorted by value.

use crate::reason::session::{Materialized, SessionError, Work};
use tg_datalog::driver::Compiled;
use tg_datalog::eval::Database;
use tg_datalog::logic::Kind as ColKind;
use tg_datalog::trace::split_args;
use tg_store::{Store, Value};

use super::ReplError;

/// The generated relation a query's answers land in.
pub const QUERY_REL: &str = "__query";

/// Words that are never variables (aggregates, constants, infix operators).
const KEYWORDS: &[&str] =
    &["count", "sum", "min", "max", "mean", "nil", "true", "false", "as", "band", "bor", "bxor", "bshl", "bshr", "bshru", "land", "lor", "lxor", "bnot", "lnot"];

/// A positive atom of a query body: relation name and argument texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    /// The relation.
    pub rel: String,
    /// Each argument as written.
    pub args: Vec<String>,
}

/// A query parsed far enough to generate its rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// The body as written (without `?-` and the final `.`).
    pub body: String,
    /// Named variables in order of first appearance: the answer's columns.
    pub vars: Vec<String>,
    /// The body's positive atoms.
    pub atoms: Vec<Atom>,
}

/// One answer: rendered cells, plus the citation of the stored fact it is (if one).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows of cells, sorted by value.
    pub rows: Vec<Vec<Cell>>,
    /// Whether the last column is a citation.
    pub cited: bool,
}

/// A cell of an answer: its text and whether it is a number (for JSON and alignment).
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// As printed.
    pub text: String,
    /// A number, printed without quotes in JSON.
    pub number: bool,
}

/// Splits `text` at top-level occurrences of `sep` (outside strings and brackets).
pub fn split_top(text: &str, sep: char) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut depth = 0i64;
    let mut in_str = false;
    let mut esc = false;
    for c in text.chars() {
        if in_str {
            cur.push(c);
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Named variables of a body in order of first appearance (not `_`, not `_x`, not inside
/// aggregate braces, not relation or functor names, not keywords).
pub fn variables(body: &str) -> Vec<String> {
    let chars: Vec<char> = body.chars().collect();
    let mut out: Vec<String> = vec![];
    let (mut i, mut braces) = (0, 0i64);
    while i < chars.len() {
        let c = chars[i];
        if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            continue;
        }
        if c == '{' {
            braces += 1;
        } else if c == '}' {
            braces -= 1;
        }
        if c.is_ascii_digit() {
            while i < chars.len() && (is_ident(chars[i]) || chars[i] == '.') {
                i += 1;
            }
            continue;
        }
        if is_ident_start(c) {
            let start = i;
            while i < chars.len() && is_ident(chars[i]) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let prev = chars[..start].iter().rev().find(|c| !c.is_whitespace()).copied();
            let next = chars[i..].iter().find(|c| !c.is_whitespace()).copied();
            let qualified = matches!(chars.get(i), Some('.')) && chars.get(i + 1).is_some_and(|c| is_ident_start(*c));
            let named = !word.starts_with('_') && !KEYWORDS.contains(&word.as_str());
            if braces == 0 && named && !qualified && next != Some('(') && !matches!(prev, Some('@') | Some('.')) && !out.contains(&word) {
                out.push(word);
            }
            continue;
        }
        i += 1;
    }
    out
}

/// A literal that is a positive atom `rel(args…)`.
fn as_atom(lit: &str) -> Option<Atom> {
    let lit = lit.trim();
    let open = lit.find('(')?;
    let name = lit[..open].trim();
    if name.is_empty() || !lit.ends_with(')') || !name.chars().all(|c| is_ident(c) || c == '.') || !name.starts_with(is_ident_start) {
        return None;
    }
    let inner = &lit[open + 1..lit.len() - 1];
    let args = if inner.trim().is_empty() { vec![] } else { split_args(inner).into_iter().map(|a| a.trim().to_string()).collect() };
    Some(Atom { rel: name.to_string(), args })
}

/// Parses `?- body.` (the `?-` and final `.` optional).
pub fn parse(text: &str) -> Result<Query, ReplError> {
    let t = text.trim();
    let t = t.strip_prefix("?-").unwrap_or(t).trim();
    let body = t.strip_suffix('.').unwrap_or(t).trim().to_string();
    if body.is_empty() {
        return Err(ReplError::Usage("a query needs a body: ?- relation(X, \"value\").".into()));
    }
    let atoms = split_top(&body, ',').iter().filter_map(|l| as_atom(l)).collect();
    Ok(Query { vars: variables(&body), body, atoms })
}

/// The declared type of each variable, from the first atom argument that is just it.
fn var_types(q: &Query, base: &Compiled, vars: &[String]) -> Vec<Option<String>> {
    vars.iter()
        .map(|v| {
            q.atoms.iter().find_map(|a| {
                let rel = base.prog.relations.iter().find(|r| r.name == a.rel)?;
                let i = a.args.iter().position(|x| x == v)?;
                rel.attr_types.get(i).cloned()
            })
        })
        .collect()
}

/// The single positive atom a citation can be given for, with `_` replaced by hidden variables.
fn cited_atom(q: &Query, store: &Store) -> Option<Atom> {
    let [atom] = q.atoms.as_slice() else { return None };
    store.schema(&atom.rel).ok().flatten()?;
    let args = atom.args.iter().enumerate().map(|(i, a)| if a == "_" { format!("__h{i}") } else { a.clone() }).collect();
    Some(Atom { rel: atom.rel.clone(), args })
}

/// Runs a query: `sources` is the program (stdlib, registered files, session clauses),
/// `base` that program compiled (for the columns' types);
/// strata evaluated by earlier queries are reused from `mat`. Also says how the strata
/// it needed were obtained.
pub fn run(store: &Store, mat: &mut Materialized, base: &Compiled, sources: &[(String, String)], given: &[(String, Vec<Value>)], text: &str) -> Result<(Answer, Work), ReplError> {
    let q = parse(text)?;
    let cited = cited_atom(&q, store);
    let mut head = q.vars.clone();
    let mut body = q.body.clone();
    if let Some(atom) = &cited {
        for a in &atom.args {
            if a.starts_with("__h") && !head.contains(a) {
                head.push(a.clone());
            }
        }
        body = split_top(&q.body, ',')
            .iter()
            .map(|p| if as_atom(p).is_some() { format!("{}({})", atom.rel, atom.args.join(", ")) } else { p.trim().to_string() })
            .collect::<Vec<_>>()
            .join(", ");
    }
    // Centrality and community relations the query reads are computed (issue 22).
    let reads: Vec<&str> = q.atoms.iter().map(|a| a.rel.as_str()).filter(|r| tg_analytics::facts::columns(r).is_some()).collect();
    let (extra_decls, given) = if reads.is_empty() {
        (String::new(), given.to_vec())
    } else {
        let mut g = given.to_vec();
        g.extend(tg_analytics::facts::given_for(store, &reads).map_err(|e| ReplError::Datalog(e.to_string()))?);
        (tg_analytics::facts::declarations(&reads, sources), g)
    };
    let given = given.as_slice();
    let with_decls;
    let base = if extra_decls.is_empty() {
        base
    } else {
        let mut srcs = sources.to_vec();
        srcs.push(("<analytics>".to_string(), extra_decls.clone()));
        with_decls = tg_rules::rulebook::compiler().sources(&srcs).map_err(|e| ReplError::Datalog(e.to_string()))?;
        &with_decls
    };
    let types = {
        let mut q2 = q.clone();
        if let Some(a) = &cited {
            q2.atoms = vec![a.clone()];
        }
        var_types(&q2, base, &head)
    };
    let mut last_err = String::new();
    for fallback in ["symbol", "number"] {
        let decl: Vec<String> = types.iter().enumerate().map(|(i, t)| format!("c{i}: {}", t.as_deref().unwrap_or(fallback))).collect();
        let rule = format!(".decl {QUERY_REL}({})\n{QUERY_REL}({}) :- {body}.\n", decl.join(", "), head.join(", "));
        let mut all = sources.to_vec();
        if !extra_decls.is_empty() {
            all.push(("<analytics>".to_string(), extra_decls.clone()));
        }
        all.push(("<query>".to_string(), rule));
        match mat.evaluate(store, &all, given, Some(QUERY_REL), |c, db| answer(store, c, db, &q, &head, cited.as_ref())) {
            Ok((answer, work)) => return answer.map(|a| (a, work)),
            Err(SessionError::Compile(e)) => {
                last_err = e.to_string();
                if types.iter().all(Option::is_some) {
                    break;
                }
            }
            Err(SessionError::Program(e)) => {
                last_err = e;
                if types.iter().all(Option::is_some) {
                    break;
                }
            }
            Err(SessionError::Cancelled) => return Err(ReplError::Interrupted),
            Err(SessionError::Reason(e)) => return Err(ReplError::Reason(e)),
        }
    }
    Err(ReplError::Datalog(last_err))
}

/// The declaration a session rule or fact needs when its head relation is not declared:
/// each column typed like the body argument it is bound to (a string constant is a
/// symbol, a number a number; else `fallback`). `None` when the head is declared, or the
/// clause is a directive or not a single-headed clause.
pub fn infer_decl(base: &Compiled, clause: &str, fallback: &str) -> Option<String> {
    let t = clause.trim();
    if t.starts_with('.') {
        return None;
    }
    let t = t.strip_suffix('.').unwrap_or(t);
    let parts = split_top(t, ':');
    let (head, body) = match parts.iter().position(|p| p.starts_with('-')) {
        Some(i) => (parts[..i].join(":"), parts[i..].join(":")[1..].to_string()),
        None => (t.to_string(), String::new()),
    };
    if split_top(&head, ',').len() != 1 {
        return None;
    }
    let head = as_atom(&head)?;
    if base.prog.relations.iter().any(|r| r.name == head.rel) {
        return None;
    }
    let q = Query { body: body.clone(), vars: vec![], atoms: split_top(&body, ',').iter().filter_map(|l| as_atom(l)).collect() };
    let types = var_types(&q, base, &head.args);
    let cols: Vec<String> = head
        .args
        .iter()
        .zip(types)
        .enumerate()
        .map(|(i, (a, t))| {
            let t = t.unwrap_or_else(|| {
                if a.starts_with('"') {
                    "symbol".into()
                } else if a.parse::<i64>().is_ok() {
                    "number".into()
                } else if a.parse::<f64>().is_ok() {
                    "float".into()
                } else {
                    fallback.into()
                }
            });
            format!("c{i}: {t}")
        })
        .collect();
    Some(format!(".decl {}({})\n", head.rel, cols.join(", ")))
}

/// A sort key: numbers by value, text by text.
#[derive(Clone, Debug, PartialEq, PartialOrd)]
enum Key {
    Num(f64),
    Text(String),
}

fn answer(store: &Store, c: &Compiled, db: &Database, q: &Query, head: &[String], cited: Option<&Atom>) -> Result<Answer, ReplError> {
    let Some(r) = c.prog.relations.iter().position(|x| x.name == QUERY_REL) else {
        return Err(ReplError::Datalog("the query relation was not compiled".into()));
    };
    let kinds = c.prog.relations[r].kinds.clone();
    let stride = db.rels[r].stride();
    let words = db.rels[r].rows();
    let mut rows: Vec<(Vec<Key>, Vec<Cell>, Vec<Value>)> = vec![];
    for row in words.chunks_exact(stride.max(1)) {
        let mut keys = vec![];
        let mut cells = vec![];
        let mut values = vec![];
        for (k, w) in kinds.iter().zip(row) {
            let mut s = String::new();
            db.values.render(*k, *w, &c.prog.records, &mut s);
            let number = matches!(k, ColKind::Number | ColKind::Unsigned | ColKind::Float);
            keys.push(match k {
                ColKind::Number => Key::Num(f64::from(*w as i32)),
                ColKind::Unsigned => Key::Num(f64::from(*w)),
                ColKind::Float => Key::Num(f64::from(f32::from_bits(*w))),
                _ => Key::Text(s.clone()),
            });
            values.push(match k {
                ColKind::Number => Value::Num(*w as i32),
                _ => Value::Sym(s.clone()),
            });
            cells.push(Cell { text: s, number });
        }
        rows.push((keys, cells, values));
    }
    rows.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    let visible = q.vars.len();
    let mut out = Answer { columns: q.vars.clone(), rows: vec![], cited: cited.is_some() };
    if out.cited {
        out.columns.push("citation".into());
    }
    for (_, mut cells, values) in rows {
        let citation = cited.map(|atom| citation(store, atom, head, &values));
        cells.truncate(visible);
        if let Some(cit) = citation {
            cells.push(Cell { text: cit, number: false });
        }
        out.rows.push(cells);
    }
    Ok(out)
}

/// The citation of the stored fact a row stands for: `[doc:start-end]` of its first
/// support (and `+N` more), `derived` for a fact of the derived layer, else empty.
fn citation(store: &Store, atom: &Atom, head: &[String], values: &[Value]) -> String {
    let Ok(Some(schema)) = store.schema(&atom.rel) else { return String::new() };
    let mut args = vec![];
    for (a, col) in atom.args.iter().zip(&schema.columns) {
        let v = if let Some(i) = head.iter().position(|h| h == a) {
            values.get(i).cloned()
        } else if let Some(s) = a.strip_prefix('"').and_then(|x| x.strip_suffix('"')) {
            Some(Value::Sym(s.replace("\\\"", "\"").replace("\\\\", "\\")))
        } else {
            a.parse::<i32>().ok().map(Value::Num)
        };
        let Some(v) = v else { return String::new() };
        args.push(match (col, v) {
            (tg_store::ColumnType::Number, Value::Sym(s)) => match s.parse() {
                Ok(n) => Value::Num(n),
                Err(_) => return String::new(),
            },
            (_, v) => v,
        });
    }
    if let Ok(cites) = store.supports(&atom.rel, &args)
        && let Some(first) = cites.first()
    {
        let more = if cites.len() > 1 { format!(" +{}", cites.len() - 1) } else { String::new() };
        return format!("[{}:{}-{}]{more}", first.doc, first.start, first.end);
    }
    if let Ok(Some(_)) = store.derivation(&atom.rel, &args) {
        return "derived".into();
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_variables() {
        assert_eq!(variables(r#"same_as(X, "Acme Corp")"#), vec!["X"]);
        assert_eq!(variables(r#"claim(C, _, S, "T", O, _x, P, A), C != "x y Z""#), vec!["C", "S", "O", "P", "A"]);
        assert_eq!(variables("n(X), Y = count : { m(X, Z) }, Y > 1.5"), vec!["X", "Y"]);
        assert_eq!(variables("n(X), Y = @tg_ln(X), Z = cat(X, \"a\")"), vec!["X", "Y", "Z"]);
    }

    #[test]
    fn parses_atoms() {
        let q = parse(r#"?- t(A, "a,b"), A > 3, !u(A)."#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(q.atoms, vec![Atom { rel: "t".into(), args: vec!["A".into(), "\"a,b\"".into()] }]);
        assert_eq!(q.body, r#"t(A, "a,b"), A > 3, !u(A)"#);
    }
}
