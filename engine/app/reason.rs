//! Reasoning over the fact base: run Datalog rules on stored facts, store what they
//! derive with witnesses, and explain any fact down to the document bytes it rests on.
//!
//! The evaluator works in memory (`datalog`); the store keeps its inputs and its
//! results. `derive` loads the relations a rule file reads, evaluates with
//! provenance, and replaces the store's derived layer in one atomic batch (only
//! changed facts are written). Run again with the same rules, it maintains the derived
//! layer from the store's change log instead of evaluating everything. `explain` walks stored witnesses and citations.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::Path;

use tg_datalog::eval::{Database, EvalConfig, Witness, evaluate, evaluate_stratum};
use tg_datalog::logic::{Kind, LogicProgram};
use tg_datalog::maintain::{Change, maintain_stratum, maintainable, stratum_reads};
use tg_datalog::relation::sort_dedup;
use tg_datalog::trace::split_args;
use tg_store::{ColumnType, Derivation, DerivedFact, Epoch, Store, StoreError, Value, hex, render_fact as render};

pub use tg_rules::layer;
pub mod session;
pub mod view;

/// Why reasoning failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReasonError {
    /// The rule file has errors (rendered diagnostics).
    #[error("{0}")]
    Program(#[from] tg_datalog::driver::CompileError),
    /// Evaluating the program failed (a rendered diagnostic: a budget, a cancellation).
    #[error("{0}")]
    Evaluation(String),
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
    /// The fact to explain names a relation the store does not have (with the nearest ones).
    #[error("{0}")]
    UnknownRelation(String),
    /// The fact to explain could not be read.
    #[error("cannot read fact '{0}': expected name(arg, ...) with arguments of the relation's types")]
    FactSyntax(String),
}

/// What `derive` did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct DeriveReport {
    /// `full` (everything evaluated) or `incremental` (maintained from the change log).
    pub mode: &'static str,
    /// Stored facts loaded as inputs.
    pub inputs: usize,
    /// Input facts that appeared or disappeared since the last derivation (incremental).
    pub changes: usize,
    /// Strata whose inputs did not change (not evaluated).
    pub strata_skipped: usize,
    /// Strata maintained around their changes.
    pub strata_maintained: usize,
    /// Strata evaluated again from their inputs.
    pub strata_recomputed: usize,
    /// Derived facts of the relations evaluated.
    pub derived: usize,
    /// Derived facts written (new or with a new witness).
    pub written: usize,
    /// Derived facts removed (no longer derived).
    pub removed: usize,
    /// The analytics stored after the rules (`None` for a dry run).
    pub analytics: Option<tg_analytics::stored::Refreshed>,
}

/// The store column types of a declaration (`None` if one cannot be stored).
fn column_types(kinds: &[Kind]) -> Option<Vec<ColumnType>> {
    kinds.iter().map(|k| tg_rules::schema::column_type(*k)).collect()
}

fn to_value(prog: &LogicProgram, db: &Database, rel: usize, row: &[u32]) -> Vec<Value> {
    prog.relations[rel].kinds.iter().zip(row).map(|(k, w)| if *k == Kind::Symbol { Value::Sym(db.values.symbol(*w).to_string()) } else { Value::Num(*w as i32) }).collect()
}

fn to_words(db: &mut Database, args: &[Value]) -> Vec<u32> {
    args.iter()
        .map(|v| match v {
            Value::Num(n) => *n as u32,
            Value::Sym(s) => db.values.intern(s),
        })
        .collect()
}

/// The identity of a program for the store's derivation epochs: its relations and rules,
/// and the facts tg gave it (an analyst's judgements), so a layer derived before a new
/// judgement is known not to hold this program's results.
fn program_id(prog: &LogicProgram, given: &[(String, Vec<Value>)]) -> String {
    let mut h = blake3::Hasher::new();
    let mut rows: Vec<String> = given.iter().map(|(rel, args)| render(rel, args)).collect();
    rows.sort_unstable();
    for row in rows {
        h.update(row.as_bytes());
        h.update(b"\n");
    }
    for r in &prog.relations {
        h.update(r.name.as_bytes());
        h.update(format!("{:?}\n", r.kinds).as_bytes());
    }
    for r in &prog.rules {
        h.update(&r.hash);
    }
    hex(&h.finalize().as_bytes()[..16])
}

/// The manifest a derivation leaves in the store: the program, where each rule was
/// written, the mode, the counts and the time taken.
fn manifest(c: &tg_datalog::driver::Compiled, program: &Path, id: &str, report: &DeriveReport, started: std::time::Instant) -> String {
    let rules: Vec<serde_json::Value> = c
        .prog
        .rules
        .iter()
        .map(|r| {
            let (line, _) = c.sources.line_col(r.span.file, r.span.start);
            serde_json::json!({ "hash": hex(&r.hash), "file": c.sources.path(r.span.file).display().to_string(), "line": line })
        })
        .collect();
    serde_json::json!({
        "program": id,
        "rules_file": program.display().to_string(),
        "rules": rules,
        "mode": report.mode,
        "inputs": report.inputs,
        "changes": report.changes,
        "strata": { "skipped": report.strata_skipped, "maintained": report.strata_maintained, "recomputed": report.strata_recomputed },
        "derived": report.derived,
        "elapsed_ms": started.elapsed().as_millis() as u64,
    })
    .to_string()
}

/// Checks the rule file's relations against the store, declaring the relations it derives.
fn check_schemas(store: &Store, prog: &LogicProgram, heads: &BTreeSet<usize>) -> Result<Vec<bool>, ReasonError> {
    let mut stored = vec![false; prog.relations.len()];
    for (r, rel) in prog.relations.iter().enumerate() {
        let cols: Option<Vec<ColumnType>> = rel.kinds.iter().map(|k| tg_rules::schema::column_type(*k)).collect();
        let Some(cols) = cols else {
            return Err(ReasonError::Mismatch { rel: rel.name.clone(), detail: "only symbol and number columns can live in the store".into() });
        };
        match store.schema(&rel.name)? {
            Some(s) if s.columns != cols => {
                return Err(ReasonError::Mismatch { rel: rel.name.clone(), detail: format!("the store has columns {:?}, the rules declare {:?}", s.columns, cols) });
            }
            Some(_) => stored[r] = true,
            None if heads.contains(&r) => {
                store.declare(&rel.name, &cols)?;
                stored[r] = true;
            }
            None => {}
        }
    }
    Ok(stored)
}

/// Store symbol ids → the evaluator's, each store symbol read once.
#[derive(Default)]
struct SymbolMap(HashMap<u32, u32>);

impl SymbolMap {
    fn get(&mut self, store: &Store, db: &mut Database, id: u32) -> Result<u32, ReasonError> {
        if let Some(&w) = self.0.get(&id) {
            return Ok(w);
        }
        let w = db.values.intern(&store.symbol_text(id)?);
        self.0.insert(id, w);
        Ok(w)
    }
}

/// Loads a relation's stored input facts (as inputs) into the database. Returns how many.
fn load_inputs(store: &Store, prog: &LogicProgram, db: &mut Database, r: usize, syms: &mut SymbolMap) -> Result<usize, ReasonError> {
    let kinds = prog.relations[r].kinds.clone();
    let mut words = store.fact_words(&prog.relations[r].name)?;
    if kinds.is_empty() {
        let n = usize::from(!store.lookup(&prog.relations[r].name, &[])?.is_empty());
        db.load_rows(r, vec![0; n], false);
        return Ok(n);
    }
    for row in words.chunks_exact_mut(kinds.len()) {
        for (w, k) in row.iter_mut().zip(&kinds) {
            if *k == Kind::Symbol {
                *w = syms.get(store, db, *w)?;
            }
        }
    }
    let n = words.len() / kinds.len();
    db.load_rows(r, words, false);
    Ok(n)
}

/// Loads a relation's stored derived facts with their witnesses, returning them (for the
/// final diff). `None` if a witness names a rule or relation this program does not have
/// (the caller then evaluates afresh).
#[allow(clippy::too_many_arguments)]
fn load_derived(
    store: &Store,
    prog: &LogicProgram,
    db: &mut Database,
    r: usize,
    rule_of: &BTreeMap<String, usize>,
    rel_of: &BTreeMap<&str, usize>,
    syms: &mut SymbolMap,
) -> Result<Option<HashMap<Vec<u32>, Witness>>, ReasonError> {
    let stride = db.rels[r].stride();
    let kinds = prog.relations[r].kinds.clone();
    let mut rows = vec![];
    let mut old = HashMap::new();
    for (mut row, why) in store.derived_words(&prog.relations[r].name)? {
        let Some(&rule) = rule_of.get(&why.rule) else { return Ok(None) };
        for (w, k) in row.iter_mut().zip(&kinds) {
            if *k == Kind::Symbol {
                *w = syms.get(store, db, *w)?;
            }
        }
        let mut body = vec![];
        let mut flat = vec![];
        for (bname, bargs) in &why.body {
            let Some(&br) = rel_of.get(bname.as_str()) else { return Ok(None) };
            let words = to_words(db, bargs);
            flat.push(br as u32);
            flat.extend_from_slice(&words);
            body.push((br, words));
        }
        let key = row.clone();
        if row.len() < stride {
            row.push(0);
        }
        old.insert(key, Witness { round: why.round, rule: Some(rule), body });
        if db.rels[r].contains(&row) {
            continue; // also a stored input now: an input it stays (and its entry goes)
        }
        if let Some(w) = &mut db.witnesses {
            w.insert(r, &row, why.round, Some(rule), &flat);
        }
        rows.extend_from_slice(&row);
    }
    sort_dedup(&mut rows, stride);
    db.rels[r].insert_new(&rows);
    Ok(Some(old))
}

fn derived_fact(prog: &LogicProgram, db: &Database, r: usize, row: &[u32], wit: &Witness, rule: usize) -> DerivedFact {
    let body = wit.body.iter().map(|(br, brow)| (prog.relations[*br].name.clone(), to_value(prog, db, *br, brow))).collect();
    let why = Derivation { round: wit.round, rule: hex(&prog.rules[rule].hash), body };
    DerivedFact { rel: prog.relations[r].name.clone(), args: to_value(prog, db, r, row), why }
}

/// The derived facts (rows with a rule witness) of the given relations, with witnesses.
fn derived_of(prog: &LogicProgram, db: &Database, rels: &[usize]) -> Vec<DerivedFact> {
    let mut facts = vec![];
    let Some(w) = &db.witnesses else { return facts };
    for &r in rels {
        let stride = db.rels[r].stride();
        for row in db.rels[r].rows().chunks_exact(stride) {
            let Some(wit) = w.get(r, row) else { continue };
            let Some(rule) = wit.rule else { continue }; // a stored fact, not a derived one
            facts.push(derived_fact(prog, db, r, row, &wit, rule));
        }
    }
    facts
}

/// Runs the rules of `program` over the store's facts and stores what they derive.
///
/// When the store's derived layer came from the same program, only what changed since
/// is evaluated (see [`tg_datalog::maintain`]): strata whose inputs did not change are
/// skipped, non-recursive strata are maintained around the changes, the others are
/// evaluated again from their (maintained) inputs. The result — facts and witnesses — is
/// the one a full evaluation gives; `full` forces one.
pub fn derive(store: &Store, program: &Path, full: bool) -> Result<DeriveReport, ReasonError> {
    let started = std::time::Instant::now();
    let c = tg_rules::rulebook::compiler().file(program).map_err(ReasonError::Program)?;
    derive_compiled(store, &c, &program.display().to_string(), &[], full, started)
}

/// Runs a compiled program over the store's facts (see [`derive`]); `label` names the
/// program in the manifest. `given` are facts tg supplies that no document states (an
/// analyst's judgements): they are loaded as inputs, and a derivation with any always
/// runs in full, since the change log does not record them.
pub fn derive_compiled(
    store: &Store,
    c: &tg_datalog::driver::Compiled,
    label: &str,
    given: &[(String, Vec<Value>)],
    full: bool,
    started: std::time::Instant,
) -> Result<DeriveReport, ReasonError> {
    derive_tracked(store, c, label, given, full, started, None)
}

/// [`derive_compiled`], also updating `layer` — the derived layer as it was before, see
/// [`layer::snapshot`] — to the layer written, before the write (so reporting what changed
/// costs no second read of the store).
#[allow(clippy::too_many_arguments)]
pub fn derive_tracked(
    store: &Store,
    c: &tg_datalog::driver::Compiled,
    label: &str,
    given: &[(String, Vec<Value>)],
    full: bool,
    started: std::time::Instant,
    mut layer: Option<&mut layer::Snapshot>,
) -> Result<DeriveReport, ReasonError> {
    let mut report = derive_rules(store, c, label, given, full, started, layer.as_deref_mut())?;
    // Then the analytics over the graph the rules' same_as classes make, stored as facts
    // of their own relations (tg_analytics::stored).
    let a = tg_analytics::stored::refresh(store)?;
    if let Some(l) = layer {
        l.retain(|rel, _| !tg_analytics::stored::is_stored(rel));
        for (rel, args) in &a.facts {
            l.entry(rel.clone()).or_default().insert(render(rel, args));
        }
    }
    report.analytics = Some(a);
    Ok(report)
}

/// The rules' part of [`derive_tracked`]: evaluates and writes the derived layer but the
/// analytics relations.
#[allow(clippy::too_many_arguments)]
fn derive_rules(
    store: &Store,
    c: &tg_datalog::driver::Compiled,
    label: &str,
    given: &[(String, Vec<Value>)],
    full: bool,
    started: std::time::Instant,
    mut layer: Option<&mut layer::Snapshot>,
) -> Result<DeriveReport, ReasonError> {
    let program = Path::new(label);
    // Centrality and community relations the program declares are given, computed from
    // the store's graph (tg_analytics::facts); none are for a program declaring none.
    let declared: Vec<&str> = c.prog.relations.iter().map(|r| r.name.as_str()).collect();
    // Rows of another width would be misread: a declaration must have tg's columns.
    for (rel, cols) in tg_analytics::facts::RELATIONS {
        if let Some(r) = c.prog.relations.iter().find(|x| x.name == *rel)
            && column_types(&r.kinds).as_deref() != Some(*cols)
        {
            return Err(ReasonError::Mismatch { rel: rel.to_string(), detail: format!("tg computes it with columns {cols:?} (docs/SEARCH.md), the rules declare {:?}", r.kinds) });
        }
    }
    let mut given = given.to_vec();
    given.extend(tg_analytics::facts::given_for(store, &declared)?);
    let given = given.as_slice();
    let full = full || !given.is_empty();
    let prog = &c.prog;
    let heads: BTreeSet<usize> = prog.rules.iter().map(|r| r.head.0).collect();
    let stored = check_schemas(store, prog, &heads)?;
    let id = program_id(prog, given);
    let rules: Vec<(String, String)> = prog.rules.iter().map(|r| (hex(&r.hash), r.text.clone())).collect();
    if !full && store.derived_by()?.as_deref() == Some(id.as_str()) {
        let rule_of: BTreeMap<String, usize> = prog.rules.iter().enumerate().map(|(i, r)| (hex(&r.hash), i)).collect();
        let rel_of: BTreeMap<&str, usize> = prog.relations.iter().enumerate().map(|(i, r)| (r.name.as_str(), i)).collect();
        if let Some(report) = derive_incremental(store, c, &stored, &rules, program, &id, &rule_of, &rel_of, started, layer.as_deref_mut())? {
            return Ok(report);
        }
    }
    let (mut report, facts) = evaluate_full(store, c, &stored, given)?;
    if let Some(l) = layer {
        *l = layer::snapshot_of(&facts);
    }
    let manifest = manifest(c, program, &id, &report, started);
    let scope = tg_analytics::stored::rules_scope(store)?;
    (report.written, report.removed) = store.replace_derived(&Epoch { program: &id, rules: &rules, manifest: &manifest }, &facts, scope.as_deref())?;
    Ok(report)
}

/// Evaluates a compiled program over the store's facts like [`derive_compiled`] in full,
/// but stores nothing (not even the declarations of relations the store lacks): what
/// `tg derive --dry-run` shows. Returns the report and every derived fact.
pub fn preview_compiled(store: &Store, c: &tg_datalog::driver::Compiled, given: &[(String, Vec<Value>)]) -> Result<(DeriveReport, Vec<DerivedFact>), ReasonError> {
    let prog = &c.prog;
    let mut stored = vec![false; prog.relations.len()];
    for (r, rel) in prog.relations.iter().enumerate() {
        let cols: Option<Vec<ColumnType>> = rel.kinds.iter().map(|k| tg_rules::schema::column_type(*k)).collect();
        match (store.schema(&rel.name)?, cols) {
            (Some(s), Some(cols)) if s.columns != cols => {
                return Err(ReasonError::Mismatch { rel: rel.name.clone(), detail: format!("the store has columns {:?}, the rules declare {:?}", s.columns, cols) });
            }
            (Some(_), _) => stored[r] = true,
            _ => {}
        }
    }
    evaluate_full(store, c, &stored, given)
}

/// Loads the stored inputs of the relations `prog` reads or derives and the given facts,
/// evaluates every stratum, and returns the derived facts of the derived relations.
fn evaluate_full(store: &Store, c: &tg_datalog::driver::Compiled, stored: &[bool], given: &[(String, Vec<Value>)]) -> Result<(DeriveReport, Vec<DerivedFact>), ReasonError> {
    let prog = &c.prog;
    let heads: BTreeSet<usize> = prog.rules.iter().map(|r| r.head.0).collect();
    let mut db = Database::new(prog, c.values.clone(), &EvalConfig { provenance: true });
    let mut report = DeriveReport { mode: "full", ..DeriveReport::default() };
    let mut syms = SymbolMap::default();
    // Only relations some rule reads or derives are loaded (a stored relation no rule
    // touches is not needed: the stdlib declares every relation of the schema).
    let mut deps = vec![];
    for r in &prog.rules {
        r.body.iter().for_each(|l| l.deps(&mut deps));
    }
    let read: BTreeSet<usize> = deps.into_iter().map(|(rel, _)| rel).chain(heads.iter().copied()).collect();
    for r in (0..prog.relations.len()).filter(|&r| stored[r] && read.contains(&r)) {
        report.inputs += load_inputs(store, prog, &mut db, r, &mut syms)?;
    }
    for (rel, args) in given {
        let Some(r) = prog.relations.iter().position(|x| &x.name == rel) else { continue };
        let row = to_words(&mut db, args);
        db.load_rows(r, row, false);
        report.inputs += 1;
    }
    evaluate(prog, &c.strata, &mut db).map_err(|d| ReasonError::Evaluation(d.render(&c.sources)))?;
    report.strata_recomputed = c.strata.len();
    let heads: Vec<usize> = heads.into_iter().collect();
    let facts = derived_of(prog, &db, &heads);
    report.derived = facts.len();
    Ok((report, facts))
}

#[allow(clippy::too_many_arguments)]
fn derive_incremental(
    store: &Store,
    c: &tg_datalog::driver::Compiled,
    stored: &[bool],
    rules: &[(String, String)],
    program: &Path,
    id: &str,
    rule_of: &BTreeMap<String, usize>,
    rel_of: &BTreeMap<&str, usize>,
    started: std::time::Instant,
    layer: Option<&mut layer::Snapshot>,
) -> Result<Option<DeriveReport>, ReasonError> {
    let prog = &c.prog;
    let nrel = prog.relations.len();
    let mut db = Database::new(prog, c.values.clone(), &EvalConfig { provenance: true });
    let mut report = DeriveReport { mode: "incremental", ..DeriveReport::default() };
    // The change log, as rows gained and lost per relation.
    let mut plus: Vec<Vec<u32>> = vec![vec![]; nrel];
    let mut minus: Vec<Vec<u32>> = vec![vec![]; nrel];
    for (rel, args, existed) in store.changes()? {
        let Some(&r) = rel_of.get(rel.as_str()) else { continue };
        report.changes += 1;
        let mut row = to_words(&mut db, &args);
        if row.is_empty() {
            row.push(0);
        }
        if existed { minus[r].extend(row) } else { plus[r].extend(row) }
    }
    let mut delta: Vec<Option<Change>> = (0..nrel).map(|_| None).collect();
    let mut input_changed = vec![false; nrel];
    for r in 0..nrel {
        if !plus[r].is_empty() || !minus[r].is_empty() {
            let stride = db.rels[r].stride();
            delta[r] = Some(Change::from_rows(stride, std::mem::take(&mut plus[r]), std::mem::take(&mut minus[r])));
            input_changed[r] = true;
        }
    }
    let mut loaded = vec![false; nrel];
    let mut syms = SymbolMap::default();
    let mut old_derived: Vec<HashMap<Vec<u32>, Witness>> = (0..nrel).map(|_| HashMap::new()).collect();
    let mut evaluated: Vec<usize> = vec![];
    for stratum in &c.strata {
        if stratum.rules.is_empty() {
            continue; // inputs only: their change is the logged one
        }
        let reads = stratum_reads(prog, stratum);
        if !reads.iter().chain(&stratum.relations).any(|&r| delta[r].is_some()) {
            report.strata_skipped += 1;
            continue;
        }
        for &r in reads.iter().chain(&stratum.relations) {
            if !loaded[r] {
                loaded[r] = true;
                if stored[r] {
                    report.inputs += load_inputs(store, prog, &mut db, r, &mut syms)?;
                    match load_derived(store, prog, &mut db, r, rule_of, rel_of, &mut syms)? {
                        Some(o) => old_derived[r] = o,
                        None => return Ok(None),
                    }
                }
            }
        }
        // Each relation's state at the last epoch, to tell higher strata what changed.
        let mut before: Vec<(usize, Vec<u32>)> = vec![];
        for &h in &stratum.relations {
            let stride = db.rels[h].stride();
            let mut rows = db.rels[h].rows();
            if let Some(d) = delta[h].take() {
                // Undo the input change: rows it added that no rule derived were not there.
                let derived: BTreeSet<Vec<u32>> = match &db.witnesses {
                    Some(w) => rows.chunks_exact(stride).filter(|row| w.get(h, row).is_some_and(|x| x.rule.is_some())).map(<[u32]>::to_vec).collect(),
                    None => BTreeSet::new(),
                };
                let added: BTreeSet<Vec<u32>> = d.plus.rows().chunks_exact(stride).map(<[u32]>::to_vec).collect();
                let mut set: BTreeSet<Vec<u32>> = rows.chunks_exact(stride).map(<[u32]>::to_vec).filter(|r| !added.contains(r) || derived.contains(r)).collect();
                set.extend(d.minus.rows().chunks_exact(stride).map(<[u32]>::to_vec));
                rows = set.into_iter().flatten().collect();
                delta[h] = Some(d);
            }
            before.push((h, rows));
        }
        if maintainable(prog, stratum) && !stratum.relations.iter().any(|&h| input_changed[h]) {
            maintain_stratum(prog, stratum, &mut db, &delta).map_err(|d| ReasonError::Evaluation(d.render(&c.sources)))?;
            report.strata_maintained += 1;
        } else {
            for &h in &stratum.relations {
                let stride = db.rels[h].stride();
                let Some(w) = &mut db.witnesses else { continue };
                let mut doomed: Vec<Vec<u32>> = w.iter(h).filter(|(_, x)| x.rule.is_some()).map(|(r, _)| r).collect();
                for row in &mut doomed {
                    w.remove(h, row);
                    row.resize(stride, 0);
                }
                let doomed: BTreeSet<Vec<u32>> = doomed.into_iter().collect();
                db.rels[h].remove_where(|row| doomed.contains(row));
            }
            evaluate_stratum(prog, stratum, &mut db).map_err(|d| ReasonError::Evaluation(d.render(&c.sources)))?;
            report.strata_recomputed += 1;
        }
        for (h, old) in before {
            let stride = db.rels[h].stride();
            let change = Change::between(&old, &db.rels[h].rows(), stride);
            delta[h] = (!change.is_empty()).then_some(change);
            evaluated.push(h);
        }
    }
    // Write what differs from the stored derived layer: new rows, rows with a new
    // witness, and rows no longer derived.
    let (mut upserts, mut removals) = (vec![], vec![]);
    for h in evaluated.into_iter().filter(|&r| stored[r]) {
        let stride = db.rels[h].stride();
        let Some(w) = &db.witnesses else { break };
        let mut old = std::mem::take(&mut old_derived[h]);
        for row in db.rels[h].rows().chunks_exact(stride) {
            let Some(wit) = w.get(h, row) else { continue };
            let Some(rule) = wit.rule else { continue };
            report.derived += 1;
            let key = &row[..prog.relations[h].arity()];
            if old.remove(key).as_ref() != Some(&wit) {
                upserts.push(derived_fact(prog, &db, h, row, &wit, rule));
            }
        }
        let mut gone: Vec<Vec<u32>> = old.into_keys().collect();
        gone.sort_unstable();
        removals.extend(gone.iter().map(|row| (prog.relations[h].name.clone(), to_value(prog, &db, h, row))));
    }
    (report.written, report.removed) = (upserts.len(), removals.len());
    if let Some(l) = layer {
        for (rel, args) in &removals {
            if let Some(set) = l.get_mut(rel) {
                set.remove(&render(rel, args));
            }
        }
        for f in &upserts {
            l.entry(f.rel.clone()).or_default().insert(render(&f.rel, &f.args));
        }
        l.retain(|_, set| !set.is_empty());
    }
    let manifest = manifest(c, program, id, &report, started);
    store.patch_derived(&Epoch { program: id, rules, manifest: &manifest }, &upserts, &removals)?;
    Ok(Some(report))
}

/// Parses `rel(a, "b", 3)` against the store's schema of `rel`.
fn parse_fact(store: &Store, text: &str) -> Result<(String, Vec<Value>), ReasonError> {
    let bad = || ReasonError::FactSyntax(text.to_string());
    let t = text.trim().trim_end_matches('.');
    let (name, rest) = t.split_once('(').ok_or_else(bad)?;
    let inner = rest.trim_end().strip_suffix(')').ok_or_else(bad)?;
    let name = name.trim().to_string();
    // Centrality and community relations are computed, not stored (tg_analytics::facts).
    let columns = match store.schema(&name)? {
        Some(s) => s.columns,
        None => tg_analytics::facts::columns(&name).ok_or_else(bad)?,
    };
    let mut args = vec![];
    let parts = split_args(inner);
    if parts.len() != columns.len() {
        return Err(bad());
    }
    for (p, c) in parts.iter().zip(&columns) {
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
    let mut ex = explain_with(store, &rel, &args, depth, verify, &BTreeMap::new())?;
    if verify {
        let _ = writeln!(ex.text, "{}/{} checks passed", ex.checked - ex.failures.len(), ex.checked);
    }
    Ok(ex)
}

/// The whole witness tree of a fact (see [`explain`]); `locs` maps rule hashes to where
/// they were written (`file:line`), shown beside the hash.
pub(crate) fn explain_with(store: &Store, rel: &str, args: &[Value], depth: usize, verify: bool, locs: &BTreeMap<String, String>) -> Result<Explanation, ReasonError> {
    let mut ex = Explanation::default();
    node(store, rel, args, depth, "", "", verify, locs, &mut ex)?;
    Ok(ex)
}

#[allow(clippy::too_many_arguments)]
fn node(
    store: &Store,
    rel: &str,
    args: &[Value],
    depth: usize,
    lead: &str,
    child: &str,
    verify: bool,
    locs: &BTreeMap<String, String>,
    ex: &mut Explanation,
) -> Result<(), ReasonError> {
    let shown = render(rel, args);
    // Analytics facts are explained by their method, recomputed (below), not by the
    // stored witness (which names only their first claims).
    if !tg_analytics::facts::is_relation(rel)
        && let Some(why) = store.derivation(rel, args)?
    {
        let text = store.rule_text(&why.rule)?;
        let at = locs.get(&why.rule).map(|l| format!("{l} ")).unwrap_or_default();
        let _ = writeln!(ex.text, "{lead}{shown}  [INFERRED by {at}rule {} round {}: {}]", &why.rule[..12.min(why.rule.len())], why.round, text.as_deref().unwrap_or("?"));
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
            node(store, br, bargs, depth - 1, &l, &c, verify, locs, ex)?;
        }
        return Ok(());
    }
    let cites = store.supports(rel, args)?;
    if cites.is_empty() && rel == "er_judgement" {
        let _ = writeln!(ex.text, "{lead}{shown}  [analyst judgement, recorded with tg resolve --accept/--reject]");
        return Ok(());
    }
    if cites.is_empty()
        && let Some((method, premises)) = tg_analytics::facts::explain(store, rel, args, 20)?
    {
        let _ = writeln!(ex.text, "{lead}{shown}  [DERIVED by tg analytics: {method}]");
        let n = premises.len();
        for (i, (br, bargs)) in premises.iter().enumerate() {
            let last = i + 1 == n;
            let l = format!("{child}{}", if last { "└─ " } else { "├─ " });
            let c = format!("{child}{}", if last { "   " } else { "│  " });
            if depth > 0 {
                node(store, br, bargs, depth - 1, &l, &c, verify, locs, ex)?;
            }
        }
        return Ok(());
    }
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
