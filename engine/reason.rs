//! Reasoning over the fact base: run Datalog rules on stored facts, store what they
//! derive with witnesses, and explain any fact down to the document bytes it rests on.
//!
//! The evaluator works in memory (`datalog`); the store keeps its inputs and its
//! results. `derive` loads the relations a rule file reads, evaluates with
//! provenance, and replaces the store's derived layer in one atomic batch (only
//! changed facts are written). `explain` walks stored witnesses and citations.

use std::fmt::Write as _;
use std::path::Path;

use crate::datalog::driver::compile;
use crate::datalog::eval::{Database, EvalConfig, evaluate};
use crate::datalog::logic::{Kind, LogicProgram};
use crate::datalog::trace::split_args;
use crate::store::{ColumnType, Derivation, DerivedFact, Store, StoreError, Value, hex, render_fact as render};

/// Why reasoning failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReasonError {
    /// The rule file has errors (rendered diagnostics).
    #[error("{0}")]
    Program(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A relation's columns in the rule file do not match the store's.
    #[error("relation {rel}: {detail}")]
    Mismatch {
        /// The relation.
        rel: String,
        /// What differs.
        detail: String,
    },
    /// The fact to explain could not be read.
    #[error("cannot read fact '{0}': expected name(arg, ...) with arguments of the relation's types")]
    FactSyntax(String),
}

/// What `derive` did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct DeriveReport {
    /// Stored facts loaded as inputs.
    pub inputs: usize,
    /// Facts derived in all.
    pub derived: usize,
    /// Derived facts written (new or with a new witness).
    pub written: usize,
    /// Derived facts removed (no longer derived).
    pub removed: usize,
}

fn column(kind: Kind) -> Option<ColumnType> {
    match kind {
        Kind::Symbol => Some(ColumnType::Symbol),
        Kind::Number => Some(ColumnType::Number),
        _ => None,
    }
}

fn to_value(prog: &LogicProgram, db: &Database, rel: usize, row: &[u32]) -> Vec<Value> {
    prog.relations[rel]
        .kinds
        .iter()
        .zip(row)
        .map(|(k, w)| if *k == Kind::Symbol { Value::Sym(db.values.symbol(*w).to_string()) } else { Value::Num(*w as i32) })
        .collect()
}

/// Runs the rules of `program` over the store's facts and stores what they derive.
pub fn derive(store: &Store, program: &Path) -> Result<DeriveReport, ReasonError> {
    let c = compile(program, &[]).map_err(ReasonError::Program)?;
    let prog = &c.prog;
    let heads: std::collections::BTreeSet<usize> = prog.rules.iter().map(|r| r.head.0).collect();
    let mut db = Database::new(prog, c.values.clone(), &EvalConfig { provenance: true });
    let mut report = DeriveReport::default();
    for (r, rel) in prog.relations.iter().enumerate() {
        let cols: Option<Vec<ColumnType>> = rel.kinds.iter().map(|k| column(*k)).collect();
        let Some(cols) = cols else {
            return Err(ReasonError::Mismatch { rel: rel.name.clone(), detail: "only symbol and number columns can live in the store".into() });
        };
        match store.schema(&rel.name)? {
            Some(s) if s.columns != cols => {
                return Err(ReasonError::Mismatch { rel: rel.name.clone(), detail: format!("the store has columns {:?}, the rules declare {:?}", s.columns, cols) });
            }
            Some(_) => {}
            None if heads.contains(&r) => {
                store.declare(&rel.name, &cols)?;
            }
            None => continue,
        }
        let rows = store.lookup(&rel.name, &[])?;
        report.inputs += rows.len();
        let mut words = vec![];
        for row in rows {
            for v in row {
                words.push(match v {
                    Value::Num(n) => n as u32,
                    Value::Sym(s) => db.values.intern(&s),
                });
            }
            if rel.arity() == 0 {
                words.push(0);
            }
        }
        db.load(r, words);
    }
    evaluate(prog, &c.strata, &mut db).map_err(|d| ReasonError::Program(d.render(&c.sources)))?;
    let mut facts = vec![];
    if let Some(w) = &db.witnesses {
        for &r in &heads {
            let stride = db.rels[r].stride();
            for row in db.rels[r].rows().chunks_exact(stride) {
                let Some(wit) = w.get(r, row) else { continue };
                let Some(rule) = wit.rule else { continue }; // a stored fact, not a derived one
                let body = wit.body.iter().map(|(br, brow)| (prog.relations[*br].name.clone(), to_value(prog, &db, *br, brow))).collect();
                let why = Derivation { round: wit.round, rule: hex(&prog.rules[rule].hash), body };
                facts.push(DerivedFact { rel: prog.relations[r].name.clone(), args: to_value(prog, &db, r, row), why });
            }
        }
    }
    report.derived = facts.len();
    let rules: Vec<(String, String)> = prog.rules.iter().map(|r| (hex(&r.hash), r.text.clone())).collect();
    let (written, removed) = store.replace_derived(&rules, &facts)?;
    report.written = written;
    report.removed = removed;
    Ok(report)
}

/// Parses `rel(a, "b", 3)` against the store's schema of `rel`.
fn parse_fact(store: &Store, text: &str) -> Result<(String, Vec<Value>), ReasonError> {
    let bad = || ReasonError::FactSyntax(text.to_string());
    let t = text.trim().trim_end_matches('.');
    let (name, rest) = t.split_once('(').ok_or_else(bad)?;
    let inner = rest.trim_end().strip_suffix(')').ok_or_else(bad)?;
    let name = name.trim().to_string();
    let schema = store.schema(&name)?.ok_or_else(bad)?;
    let mut args = vec![];
    let parts = split_args(inner);
    if parts.len() != schema.columns.len() {
        return Err(bad());
    }
    for (p, c) in parts.iter().zip(&schema.columns) {
        let p = p.trim();
        args.push(match c {
            ColumnType::Number => Value::Num(p.parse().map_err(|_| bad())?),
            ColumnType::Symbol => Value::Sym(p.strip_prefix('"').and_then(|x| x.strip_suffix('"')).unwrap_or(p).to_string()),
        });
    }
    Ok((name, args))
}

/// An explanation and, with `verify`, how many checks passed.
#[derive(Debug, Default)]
pub struct Explanation {
    /// The proof tree, as text.
    pub text: String,
    /// Checks made (citations re-hashed, rule steps checked).
    pub checked: usize,
    /// Checks that failed, one line each.
    pub failures: Vec<String>,
}

/// The proof tree of a stored fact, down to the cited source bytes.
///
/// With `verify`, every citation is re-hashed against the stored canonical text and every
/// step is checked: its rule is recorded with a matching hash and each premise is itself
/// stored or derived.
pub fn explain(store: &Store, fact: &str, depth: usize, verify: bool) -> Result<Explanation, ReasonError> {
    let (rel, args) = parse_fact(store, fact)?;
    let mut ex = Explanation::default();
    node(store, &rel, &args, depth, "", "", verify, &mut ex)?;
    if verify {
        let _ = writeln!(ex.text, "{}/{} checks passed", ex.checked - ex.failures.len(), ex.checked);
    }
    Ok(ex)
}

#[allow(clippy::too_many_arguments)]
fn node(store: &Store, rel: &str, args: &[Value], depth: usize, lead: &str, child: &str, verify: bool, ex: &mut Explanation) -> Result<(), ReasonError> {
    let shown = render(rel, args);
    if let Some(why) = store.derivation(rel, args)? {
        let text = store.rule_text(&why.rule)?;
        let _ = writeln!(ex.text, "{lead}{shown}  [INFERRED by rule {} round {}: {}]", &why.rule[..12.min(why.rule.len())], why.round, text.as_deref().unwrap_or("?"));
        if verify {
            ex.checked += 1;
            let ok = text.as_ref().is_some_and(|t| {
                let h = blake3::hash(t.as_bytes());
                hex(&h.as_bytes()[..16]) == why.rule
            });
            if !ok {
                ex.failures.push(format!("{shown}: rule {} is not recorded with a matching hash", why.rule));
            }
        }
        if depth == 0 {
            if !why.body.is_empty() {
                let _ = writeln!(ex.text, "{child}└─ … ({} premise(s) below the depth limit)", why.body.len());
            }
            return Ok(());
        }
        let n = why.body.len();
        for (i, (br, bargs)) in why.body.iter().enumerate() {
            let last = i + 1 == n;
            let l = format!("{child}{}", if last { "└─ " } else { "├─ " });
            let c = format!("{child}{}", if last { "   " } else { "│  " });
            node(store, br, bargs, depth - 1, &l, &c, verify, ex)?;
        }
        return Ok(());
    }
    let cites = store.supports(rel, args)?;
    if cites.is_empty() {
        let _ = writeln!(ex.text, "{lead}{shown}  [not in the store]");
        if verify {
            ex.checked += 1;
            ex.failures.push(format!("{shown}: premise is neither stored nor derived"));
        }
        return Ok(());
    }
    let tag = cites.iter().map(|c| c.tag).min().map(|t| t.name()).unwrap_or("?");
    let _ = writeln!(ex.text, "{lead}{shown}  [{tag}]");
    let n = cites.len();
    for (i, c) in cites.iter().enumerate() {
        let mark = if verify { if c.verified { "  ✓ re-hashed" } else { "  ✗ does not re-hash" } } else { "" };
        let _ = writeln!(ex.text, "{child}{}[{}:{}-{}] {:?}{mark}", if i + 1 == n { "└─ " } else { "├─ " }, c.doc, c.start, c.end, c.quote);
        if verify {
            ex.checked += 1;
            if !c.verified {
                ex.failures.push(format!("[{}:{}-{}] does not re-hash", c.doc, c.start, c.end));
            }
        }
    }
    Ok(())
}
