//! The evaluated relations of an interactive session, kept from one query to the next.
//!
//! A REPL session evaluates many programs over one store: the case's program plus the
//! session's clauses plus one query rule each time. Re-running every stratum per query
//! would redo the whole rule library for each `?-`. Instead every stratum gets a
//! *signature* — its relations' declarations, the hashes of its rules, whether the store
//! holds facts of its relations, the given facts, and the signatures of the strata it
//! reads — and a stratum whose signature was evaluated before is reused as it is. A new
//! session rule therefore costs only its own stratum and those downstream of it; a query
//! costs its own rule.
//!
//! The store's derived layer seeds the cache: when it holds the results of exactly the
//! case's program (same program id, same analyst judgements, no fact changed since the
//! derivation), a stratum with the case program's signature is read from the store
//! (stored and derived facts) instead of evaluated. The store is opened by the session
//! for its whole length, so nothing under the cache changes.
//!
//! All programs share one symbol table ([`tg_datalog::driver::Compiler::sources_into`]), which is what lets a
//! relation evaluated under one program be reused by the next.

use std::collections::{BTreeMap, HashMap};

use tg_datalog::driver::Compiled;
use tg_datalog::eval::{Database, EvalConfig, evaluate_stratum};
use tg_datalog::logic::LogicProgram;
use tg_datalog::relation::Relation;
use tg_datalog::stratify::Stratum;
use tg_datalog::value::Values;
use tg_store::{Store, Value};

use super::{ReasonError, SymbolMap, load_inputs, program_id, to_words};

/// A stratum's identity: equal signatures compute equal relations over this store.
type Signature = [u8; 16];

/// How the strata a query needed were obtained (what `:timing` reports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Strata evaluated.
    pub evaluated: usize,
    /// Strata reused from earlier queries of the session.
    pub reused: usize,
    /// Strata read from the store's derived layer.
    pub stored: usize,
}

/// Why a session evaluation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// The program does not compile or a stratum fails (rendered diagnostics).
    #[error("{0}")]
    Program(String),
    /// The program does not compile.
    #[error("{0}")]
    Compile(#[from] tg_datalog::driver::CompileError),
    /// The evaluation was cancelled through its [`tg_limits::cancel::Token`].
    #[error("evaluation cancelled")]
    Cancelled,
    /// Reading the store failed.
    #[error(transparent)]
    Reason(#[from] ReasonError),
}

struct Entry {
    signature: Signature,
    rel: Relation,
}

/// The session's evaluated relations and the symbol table they are written in.
pub struct Materialized {
    values: Values,
    syms: SymbolMap,
    cache: HashMap<String, Entry>,
    /// Signatures whose results the store's derived layer holds, by relation name.
    stored: BTreeMap<String, Signature>,
    /// Names never cached (a query's answer relation: a new one per query).
    transient: String,
}

impl Materialized {
    /// An empty cache over `store` for a session whose case program is `base` with the
    /// analyst's judgements `given`; `transient` names the relation queries answer in.
    pub fn new(store: &Store, base: &[(String, String)], given: &[(String, Vec<Value>)], transient: &str) -> Result<Materialized, SessionError> {
        let mut m = Materialized { values: Values::new(), syms: SymbolMap::default(), cache: HashMap::new(), stored: BTreeMap::new(), transient: transient.to_string() };
        let c = tg_rules::rulebook::compiler().sources_into(base, &mut m.values)?;
        if store.derived_by().map_err(ReasonError::from)?.as_deref() == Some(program_id(&c.prog, given).as_str()) && !store.has_changes().map_err(ReasonError::from)? {
            let sigs = signatures(store, &c.prog, &c.strata, given)?;
            m.stored = c.prog.relations.iter().zip(sigs).map(|(r, s)| (r.name.clone(), s)).collect();
        }
        Ok(m)
    }

    /// Compiles `sources`, makes sure every stratum `goal` depends on is evaluated (all of
    /// them without a goal), and hands the program and the database to `read`.
    pub fn evaluate<R>(
        &mut self,
        store: &Store,
        sources: &[(String, String)],
        given: &[(String, Vec<Value>)],
        goal: Option<&str>,
        read: impl FnOnce(&Compiled, &Database) -> R,
    ) -> Result<(R, Work), SessionError> {
        let c = tg_rules::rulebook::compiler().sources_into(sources, &mut self.values)?;
        let prog = &c.prog;
        let sigs = signatures(store, prog, &c.strata, given)?;
        let needed = needed_relations(prog, goal);
        let mut db = Database::new(prog, std::mem::take(&mut self.values), &EvalConfig { provenance: false });
        let mut done: Vec<usize> = vec![];
        let mut work = Work::default();
        let mut failure = None;
        for stratum in c.strata.iter().filter(|s| s.relations.iter().any(|&r| needed[r])) {
            if tg_limits::cancel::cancelled() {
                failure = Some(SessionError::Cancelled);
                break;
            }
            let rels = &stratum.relations;
            let cached = rels.iter().all(|&r| self.cache.get(&prog.relations[r].name).is_some_and(|e| e.signature == sigs[r]));
            let from_store = rels.iter().all(|&r| self.stored.get(&prog.relations[r].name) == Some(&sigs[r]));
            let result = if cached {
                for &r in rels {
                    if let Some(e) = self.cache.remove(&prog.relations[r].name) {
                        db.rels[r] = e.rel;
                    }
                }
                work.reused += 1;
                Ok(())
            } else if from_store {
                work.stored += 1;
                rels.iter().try_for_each(|&r| self.load_stored(store, prog, &mut db, r, given, true))
            } else {
                work.evaluated += 1;
                self.evaluate_one(store, &c, &mut db, stratum, given)
            };
            match result {
                Ok(()) => done.extend(rels.iter().copied()),
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        let answer = failure.is_none().then(|| read(&c, &db));
        // Keep what was completed (also when a later stratum failed), give the table back.
        for r in done {
            let name = &prog.relations[r].name;
            if *name != self.transient {
                let rel = std::mem::replace(&mut db.rels[r], Relation::new(0));
                self.cache.insert(name.clone(), Entry { signature: sigs[r], rel });
            }
        }
        self.values = std::mem::take(&mut db.values);
        match (answer, failure) {
            (Some(a), None) => Ok((a, work)),
            (_, Some(e)) => Err(e),
            (None, None) => Err(SessionError::Program("no answer".into())),
        }
    }

    /// Loads relation `r`'s inputs: its stored facts, its `given` facts, and its derived
    /// facts when `derived` (the derived layer holds this program's results).
    fn load_stored(&mut self, store: &Store, prog: &LogicProgram, db: &mut Database, r: usize, given: &[(String, Vec<Value>)], derived: bool) -> Result<(), SessionError> {
        let rel = &prog.relations[r];
        for (_, args) in given.iter().filter(|(name, _)| *name == rel.name) {
            let row = to_words(db, args);
            db.load_rows(r, row, false);
        }
        let cols: Option<Vec<_>> = rel.kinds.iter().map(|k| tg_rules::schema::column_type(*k)).collect();
        let (Some(cols), Some(schema)) = (cols, store.schema(&rel.name).map_err(ReasonError::from)?) else { return Ok(()) };
        if schema.columns != cols {
            return Err(ReasonError::Mismatch { rel: rel.name.clone(), detail: format!("the store has columns {:?}, the rules declare {:?}", schema.columns, cols) }.into());
        }
        load_inputs(store, prog, db, r, &mut self.syms)?;
        if derived {
            let stride = db.rels[r].stride();
            let mut rows = vec![];
            for (mut row, _) in store.derived_words(&rel.name).map_err(ReasonError::from)? {
                for (w, k) in row.iter_mut().zip(&rel.kinds) {
                    if *k == tg_datalog::logic::Kind::Symbol {
                        *w = self.syms.get(store, db, *w)?;
                    }
                }
                row.resize(stride, 0);
                rows.extend_from_slice(&row);
            }
            db.load_rows(r, rows, false);
        }
        Ok(())
    }

    /// Evaluates one stratum over its inputs: stored facts of its relations, the given
    /// facts, and the relations of earlier strata already in `db`.
    fn evaluate_one(&mut self, store: &Store, c: &Compiled, db: &mut Database, stratum: &Stratum, given: &[(String, Vec<Value>)]) -> Result<(), SessionError> {
        for &r in &stratum.relations {
            self.load_stored(store, &c.prog, db, r, given, false)?;
        }
        evaluate_stratum(&c.prog, stratum, db)
            .map(|_| ())
            .map_err(|d| if d.code == tg_datalog::eval::CANCELLED { SessionError::Cancelled } else { SessionError::Program(d.render(&c.sources)) })
    }
}

/// The relations `goal` depends on (every relation without a goal).
fn needed_relations(prog: &LogicProgram, goal: Option<&str>) -> Vec<bool> {
    let mut needed = vec![goal.is_none(); prog.relations.len()];
    if let Some(g) = goal.and_then(|g| prog.relation(g)) {
        let mut stack = vec![g];
        needed[g] = true;
        while let Some(r) = stack.pop() {
            for rule in prog.rules.iter().filter(|x| x.head.0 == r) {
                let mut deps = vec![];
                rule.body.iter().for_each(|l| l.deps(&mut deps));
                for (d, _) in deps {
                    if !needed[d] {
                        needed[d] = true;
                        stack.push(d);
                    }
                }
            }
        }
    }
    needed
}

/// Each relation's stratum signature (see the module docs), in relation id order.
fn signatures(store: &Store, prog: &LogicProgram, strata: &[Stratum], given: &[(String, Vec<Value>)]) -> Result<Vec<Signature>, ReasonError> {
    let mut sigs = vec![[0u8; 16]; prog.relations.len()];
    for stratum in strata {
        let mut h = blake3::Hasher::new();
        let mut names: Vec<(&str, usize)> = stratum.relations.iter().map(|&r| (prog.relations[r].name.as_str(), r)).collect();
        names.sort_unstable();
        for &(name, r) in &names {
            let rel = &prog.relations[r];
            let in_store = store.schema(name)?.is_some();
            h.update(format!("rel {name} {:?} eqrel={} limit={:?} choice={:?} store={in_store}\n", rel.kinds, rel.eqrel, rel.limitsize, rel.choice).as_bytes());
            let mut rows: Vec<String> = given.iter().filter(|(g, _)| g == name).map(|(_, args)| format!("{args:?}")).collect();
            rows.sort_unstable();
            for row in rows {
                h.update(format!("given {row}\n").as_bytes());
            }
        }
        let mut rules: Vec<[u8; 16]> = stratum.rules.iter().map(|&i| prog.rules[i].hash).collect();
        rules.sort_unstable();
        for rule in rules {
            h.update(&rule);
        }
        let mut reads = std::collections::BTreeMap::new();
        for &i in &stratum.rules {
            let mut deps = vec![];
            prog.rules[i].body.iter().for_each(|l| l.deps(&mut deps));
            for (d, negative) in deps {
                if !stratum.relations.contains(&d) {
                    reads.insert((prog.relations[d].name.as_str(), negative), sigs[d]);
                }
            }
        }
        for ((name, negative), sig) in reads {
            h.update(format!("reads {name} {negative}\n").as_bytes());
            h.update(&sig);
        }
        let mut sig = [0u8; 16];
        sig.copy_from_slice(&h.finalize().as_bytes()[..16]);
        for &r in &stratum.relations {
            sigs[r] = sig;
        }
    }
    Ok(sigs)
}
