//! `tg gql`: option handling, loading the graph (a CREATE script or a store), running
//! one query and printing it; exit 0 on success, 1 on a query error (openCypher error
//! class first on stderr), 2 when the setup fails.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use crate::error::{ErrorClass, GqlError};
use crate::exec::Access;
use crate::format::{Format, render};
use crate::graph::Graph;
use crate::value::Value;

/// What `tg gql` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// The query text.
    pub query: String,
    /// A setup script: the query then runs over its in-memory graph (not a store).
    pub script: Option<PathBuf>,
    /// The store, used when there is no script.
    pub db: PathBuf,
    /// `k=v` pairs, `v` a Cypher literal.
    pub params: Vec<String>,
    /// A JSON object of parameters.
    pub params_file: Option<PathBuf>,
    /// Output format; `None` picks table on a terminal, tsv otherwise.
    pub format: Option<String>,
    /// Whether a store's `same_as` classes are one node.
    pub identity: crate::view::Identity,
}

/// A JSON value as a GQL value (integral numbers stay integers).
pub fn from_json(j: &serde_json::Value) -> Value {
    use serde_json::Value as J;
    match j {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => n.as_i64().map_or_else(|| Value::Float(n.as_f64().unwrap_or(f64::NAN)), Value::Int),
        J::String(s) => Value::str(s),
        J::Array(a) => Value::list(a.iter().map(from_json).collect()),
        J::Object(o) => Value::Map(std::rc::Rc::new(o.iter().map(|(k, v)| (k.clone(), from_json(v))).collect())),
    }
}

/// Parses a parameter value written as a Cypher literal (`1`, `'x'`, `[1, 2]`, `{a: 1}`).
pub fn literal_value(text: &str) -> Result<Value, GqlError> {
    let mut g = Graph::default();
    let t = crate::query(&mut g, &format!("RETURN {text} AS v"), &BTreeMap::new(), Access::ReadOnly)?;
    Ok(t.rows.into_iter().next().and_then(|r| r.into_iter().next()).unwrap_or(Value::Null))
}

fn params(opts: &Options) -> Result<BTreeMap<String, Value>, String> {
    let mut m = BTreeMap::new();
    if let Some(f) = &opts.params_file {
        let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        let j: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", f.display()))?;
        let serde_json::Value::Object(o) = j else { return Err(format!("{}: parameters must be a JSON object", f.display())) };
        for (k, v) in &o {
            m.insert(k.clone(), from_json(v));
        }
    }
    for p in &opts.params {
        let Some((k, v)) = p.split_once('=') else { return Err(format!("--param {p}: expected k=v")) };
        let v = literal_value(v).map_err(|e| format!("--param {k}: {e}"))?;
        m.insert(k.trim().trim_start_matches('$').to_string(), v);
    }
    Ok(m)
}

/// Runs `tg gql` on a thread with a large stack (deeply nested literals recurse in the
/// parser and evaluator), writing results to `out` and errors to `err`; returns the exit
/// status.
pub fn run(opts: &Options, is_terminal: bool, out: &mut (dyn Write + Send), err: &mut (dyn Write + Send)) -> u8 {
    let r = std::thread::scope(|s| std::thread::Builder::new().stack_size(512 << 20).spawn_scoped(s, || run_here(opts, is_terminal, out, err)).map(|h| h.join()));
    match r {
        Ok(Ok(code)) => code,
        _ => tg_limits::exit::ERROR,
    }
}

fn run_here(opts: &Options, is_terminal: bool, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let format = match &opts.format {
        Some(f) => match Format::parse(f) {
            Some(f) => f,
            None => {
                let _ = writeln!(err, "tg: unknown format {f} (table, tsv, csv, json, tck)");
                return tg_limits::exit::ERROR;
            }
        },
        None if is_terminal => Format::Table,
        None => Format::Tsv,
    };
    let params = match params(opts) {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(err, "tg: {e}");
            return tg_limits::exit::ERROR;
        }
    };
    let (mut graph, access) = match &opts.script {
        Some(path) => {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => {
                    let _ = writeln!(err, "tg: cannot read {}: {e}", path.display());
                    return tg_limits::exit::ERROR;
                }
            };
            if !tg_text::sniff::looks_like_cypher(&text) {
                let _ = writeln!(err, "tg: {} is not a CREATE script: it does not begin with a Cypher clause (its contents are not shown)", path.display());
                return tg_limits::exit::ERROR;
            }
            let mut g = Graph::default();
            if let Err(e) = crate::run_script(&mut g, &text, &params) {
                let _ = writeln!(err, "setup script {} failed: {e}", path.display());
                return tg_limits::exit::ERROR;
            }
            (g, Access::ReadWrite)
        }
        None => match crate::view::from_store_with(&opts.db, opts.identity) {
            Ok(g) => (g, Access::ReadOnly),
            Err(e) => {
                let _ = writeln!(err, "tg: {e}");
                return tg_limits::exit::ERROR;
            }
        },
    };
    match crate::query(&mut graph, &opts.query, &params, access) {
        Ok(t) => {
            let _ = out.write_all(render(&graph, &t, format).as_bytes());
            tg_limits::exit::OK
        }
        Err(e) => {
            let _ = writeln!(err, "{e}");
            if e.class == ErrorClass::SyntaxError
                && let Some((l, c)) = e.pos
                && let Some(line) = opts.query.lines().nth(l - 1)
            {
                let _ = writeln!(err, "  {line}\n  {}^", " ".repeat(c.saturating_sub(1)));
            }
            tg_limits::exit::NO
        }
    }
}
