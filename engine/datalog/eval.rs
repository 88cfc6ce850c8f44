//! Stratified semi-naive evaluation, with optional canonical witnesses.
//!
//! Each stratum runs every rule once over full relations (round 0), then
//! repeats only the semi-naive versions of its recursive rules — one per
//! recursive body atom, that atom reading the previous round's delta — until no
//! round adds a tuple. New tuples are buffered and merged at the end of a
//! round, so a round's result does not depend on the order rules run in.
//!
//! With provenance on, every tuple keeps the witness of its first round: the
//! least (rule hash, body tuples in value order) among that round's derivations.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use super::ast::AggOp;
use super::diag::Diagnostic;
use super::functors::{RegexCache, compare, eval};
use super::logic::{Expr, Kind, Lit, LogicProgram, RelId};
use super::plan::{ColAction, Cond, Op, Pat, Source, plan_rule};
use super::relation::{Relation, sort_dedup};
use super::stratify::Stratum;
use super::value::Values;

pub use super::witness::Witness;
use super::witness::WitnessStore;

/// Evaluation settings.
#[derive(Clone, Debug, Default)]
pub struct EvalConfig {
    /// Keep a canonical witness for every tuple.
    pub provenance: bool,
}

/// The result of evaluation: every relation's tuples, the value tables, witnesses.
#[derive(Debug)]
pub struct Database {
    /// Relations by id.
    pub rels: Vec<Relation>,
    /// Symbols and records.
    pub values: Values,
    /// Witnesses per relation (present with provenance on).
    pub witnesses: Option<WitnessStore>,
    /// Rounds run per stratum (for statistics).
    pub rounds: Vec<u32>,
}

impl Database {
    /// An empty database for a program.
    pub fn new(prog: &LogicProgram, values: Values, cfg: &EvalConfig) -> Self {
        Database {
            rels: prog.relations.iter().map(|r| Relation::new(r.arity())).collect(),
            values,
            witnesses: cfg.provenance.then(|| WitnessStore::new(prog.relations.iter().map(|r| r.arity()).collect())),
            rounds: vec![],
        }
    }

    /// Adds loaded input rows (relation column order, any order, duplicates allowed).
    pub fn load(&mut self, rel: RelId, rows: Vec<u32>) {
        self.load_rows(rel, rows, true);
    }

    /// Adds loaded input rows without recording input witnesses for them: a row the
    /// relation has without a witness counts as an input all the same, and bulk loads
    /// into the fact base's evaluation skip the cost.
    pub fn load_rows(&mut self, rel: RelId, mut rows: Vec<u32>, witnesses: bool) {
        let stride = self.rels[rel].stride();
        sort_dedup(&mut rows, stride);
        let fresh = if self.rels[rel].is_empty() {
            rows
        } else {
            let mut fresh = Vec::with_capacity(rows.len());
            for row in rows.chunks_exact(stride) {
                if !self.rels[rel].contains(row) {
                    fresh.extend_from_slice(row);
                }
            }
            fresh
        };
        if let Some(w) = self.witnesses.as_mut().filter(|_| witnesses) {
            for row in fresh.chunks_exact(stride) {
                w.insert(rel, row, 0, None, &[]);
            }
        }
        self.rels[rel].insert_new(&fresh);
    }
}

/// Plans for one stratum: (rule index, plan for round 0, semi-naive versions).
struct RulePlans {
    rule: usize,
    initial: Vec<Op>,
    versions: Vec<Vec<Op>>,
}

/// The diagnostic code of an evaluation stopped by a budget ([`tg_limits::budget`]).
pub const BUDGET: &str = "TG0901";

/// The diagnostic code of an evaluation stopped through its [`tg_limits::cancel::Token`].
pub const CANCELLED: &str = "TG0900";

/// Runs every stratum in order.
pub fn evaluate(prog: &LogicProgram, strata: &[Stratum], db: &mut Database) -> Result<(), Diagnostic> {
    for stratum in strata {
        evaluate_stratum(prog, stratum, db)?;
    }
    Ok(())
}

/// Runs one stratum to its fixpoint over the database's current relations (its own
/// relations may already hold input rows). Returns the rounds it took.
pub fn evaluate_stratum(prog: &LogicProgram, stratum: &Stratum, db: &mut Database) -> Result<u32, Diagnostic> {
    let arity = |r: RelId| prog.relations[r].arity();
    let mut regexes = RegexCache::default();
    let mut plans = vec![];
    let mut deletions = vec![];
    for &ri in &stratum.rules {
        let rule = &prog.rules[ri];
        let initial = plan_rule(rule, None, 0, &arity)?;
        let mut versions = vec![];
        let mut v = 0;
        for (pos, l) in rule.body.iter().enumerate() {
            if let Lit::Atom(a) = l
                && stratum.relations.contains(&a.rel)
            {
                versions.push(plan_rule(rule, Some(pos), v, &arity)?);
                v += 1;
            }
        }
        let allowed = versions.len().max(1);
        if let Some((bad, _)) = rule.plan.iter().find(|(v, _)| *v as usize >= allowed) {
            return Err(Diagnostic::error("TG0505", rule.span, format!("execution plan for version {bad}: only versions 0..{} permitted", allowed - 1)));
        }
        let p = RulePlans { rule: ri, initial, versions };
        if rule.subsumed.is_some() { deletions.push(p) } else { plans.push(p) }
    }
    let rounds = run_stratum(prog, stratum, &mut plans, &mut deletions, db, &mut regexes);
    if let Some(reason) = tg_limits::budget::tripped() {
        // Name the relation that grew: the largest of this stratum.
        let grew = stratum.relations.iter().max_by_key(|&&r| (db.rels[r].len(), std::cmp::Reverse(r)));
        let which = grew
            .filter(|&&r| !db.rels[r].is_empty())
            .map(|&r| format!("; relation {} had grown to {} tuples in {rounds} rounds", prog.relations[r].name, db.rels[r].len()))
            .unwrap_or_default();
        return Err(Diagnostic::global(BUDGET, format!("evaluation stopped: {reason}{which}")));
    }
    if tg_limits::cancel::cancelled() {
        return Err(Diagnostic::global(CANCELLED, "evaluation cancelled"));
    }
    db.rounds.push(rounds);
    Ok(rounds)
}

pub(super) fn prepare(ops: &mut [Op], rels: &mut [Relation], deltas: &mut [Option<Relation>]) {
    for op in ops {
        match op {
            Op::Scan { rel, source, perm, index, .. } => {
                *index = match source {
                    Source::Full => rels[*rel].index_for(perm),
                    Source::Delta => match &mut deltas[*rel] {
                        Some(d) => d.index_for(perm),
                        None => 0,
                    },
                };
            }
            Op::Neg { rel, perm, index, .. } => *index = rels[*rel].index_for(perm),
            Op::Agg { sub, .. } => prepare(sub, rels, deltas),
            _ => {}
        }
    }
}

fn run_stratum(prog: &LogicProgram, stratum: &Stratum, plans: &mut [RulePlans], deletions: &mut [RulePlans], db: &mut Database, regexes: &mut RegexCache) -> u32 {
    let nrel = prog.relations.len();
    let mut deltas: Vec<Option<Relation>> = (0..nrel).map(|_| None).collect();
    let mut tombstones: HashMap<RelId, HashSet<Vec<u32>>> = HashMap::new();
    let mut choice_keys: HashMap<RelId, Vec<HashSet<Vec<u32>>>> = HashMap::new();
    for &r in &stratum.relations {
        let rel = &prog.relations[r];
        if !rel.choice.is_empty() {
            let mut sets = vec![HashSet::new(); rel.choice.len()];
            for row in db.rels[r].rows().chunks_exact(db.rels[r].stride()) {
                for (k, cols) in rel.choice.iter().enumerate() {
                    sets[k].insert(cols.iter().map(|&c| row[c]).collect::<Vec<_>>());
                }
            }
            choice_keys.insert(r, sets);
        }
    }
    let mut round = 0u32;
    let mut pending = Pending::new(nrel, db.witnesses.is_some());
    loop {
        for p in plans.iter_mut() {
            if round == 0 {
                prepare(&mut p.initial, &mut db.rels, &mut deltas);
                run_plan(prog, p.rule, &p.initial, db, &deltas, regexes, &mut pending);
            } else {
                for v in &mut p.versions {
                    prepare(v, &mut db.rels, &mut deltas);
                    run_plan(prog, p.rule, v, db, &deltas, regexes, &mut pending);
                }
            }
        }
        // Merge: everything new becomes the next delta.
        let mut any = false;
        let mut next: Vec<Option<Relation>> = (0..nrel).map(|_| None).collect();
        for &r in &stratum.relations {
            let fresh = pending.take_new(r, prog, db, round, tombstones.get(&r), choice_keys.get_mut(&r));
            if fresh.is_empty() {
                continue;
            }
            any = true;
            db.rels[r].insert_new(&fresh);
            let mut d = Relation::new(prog.relations[r].arity());
            d.insert_new(&fresh);
            next[r] = Some(d);
        }
        deltas = next;
        if !deletions.is_empty() {
            apply_deletions(prog, deletions, db, &mut deltas, regexes, &mut tombstones);
        }
        round += 1;
        if let Some(max) = tg_limits::budget::max_tuples() {
            let total: u64 = db.rels.iter().map(|r| r.len() as u64).sum();
            if total > max {
                tg_limits::budget::trip(format!("the relations hold {total} tuples, past the budget of {max} (--max-tuples)"));
            }
        }
        if !any || !stratum.recursive || tg_limits::cancel::cancelled() || tg_limits::budget::is_tripped() {
            break;
        }
    }
    round
}

/// Subsumption: removes every tuple dominated by another, and keeps it from coming back.
fn apply_deletions(
    prog: &LogicProgram,
    deletions: &mut [RulePlans],
    db: &mut Database,
    deltas: &mut [Option<Relation>],
    regexes: &mut RegexCache,
    tombstones: &mut HashMap<RelId, HashSet<Vec<u32>>>,
) {
    loop {
        let mut pending = Pending::new(prog.relations.len(), false);
        let mut none: Vec<Option<Relation>> = (0..prog.relations.len()).map(|_| None).collect();
        for p in deletions.iter_mut() {
            // Deletion rules read full relations only.
            prepare(&mut p.initial, &mut db.rels, &mut none);
            let mut sink = Pending::new(prog.relations.len(), false);
            // Their heads are rows the relation has: never compact them away.
            sink.compacting = false;
            run_plan(prog, p.rule, &p.initial, db, &none, regexes, &mut sink);
            for (r, rows) in sink.rows.into_iter().enumerate() {
                pending.rows[r].extend(rows);
            }
        }
        let mut removed = false;
        for (r, mut rows) in pending.rows.into_iter().enumerate() {
            if rows.is_empty() {
                continue;
            }
            let stride = db.rels[r].stride();
            sort_dedup(&mut rows, stride);
            let doomed: HashSet<Vec<u32>> = rows.chunks_exact(stride).map(<[u32]>::to_vec).collect();
            let before = db.rels[r].len();
            db.rels[r].remove_where(|row| doomed.contains(row));
            if let Some(d) = &mut deltas[r] {
                d.remove_where(|row| doomed.contains(row));
            }
            if let Some(w) = &mut db.witnesses {
                for k in &doomed {
                    w.remove(r, k);
                }
            }
            removed |= db.rels[r].len() != before;
            tombstones.entry(r).or_default().extend(doomed);
        }
        if !removed {
            break;
        }
    }
}

/// Tuples derived during one round, per relation, with candidate witnesses.
///
/// Derivations are buffered, and a full buffer is sorted, stripped of rows the relation
/// already has, and merged into the round's sorted set of new rows: memory stays bounded
/// by the new tuples (not the derivations), and every pass is sequential.
pub(super) struct Pending {
    /// Whether full buffers are compacted against the relation (not for deletion rules,
    /// whose heads are rows the relation has).
    pub(super) compacting: bool,
    /// Keep the least candidate of every derived row, whether or not the relation has it
    /// (incremental maintenance compares it with the row's stored witness).
    pub(super) rewitness: bool,
    /// Relations from this id on are left out of witness candidates (maintenance's
    /// temporary head-binding relations).
    pub(super) hidden_from: RelId,
    /// Per relation, derivations not yet compacted.
    rows: Vec<Vec<u32>>,
    /// Per relation, this round's new rows so far: sorted, unique, not in the relation.
    fresh: Vec<Vec<u32>>,
    /// With provenance: for each relation, the least witness so far of each row not yet stored.
    pub(super) wits: Option<Vec<hashbrown::HashMap<Vec<u32>, Slot>>>,
}

impl Pending {
    pub(super) fn new(n: usize, prov: bool) -> Self {
        Pending {
            compacting: true,
            rewitness: false,
            hidden_from: RelId::MAX,
            rows: vec![vec![]; n],
            fresh: vec![vec![]; n],
            wits: prov.then(|| (0..n).map(|_| hashbrown::HashMap::new()).collect()),
        }
    }

    /// Words buffered per relation before a compaction (16 MiB).
    const BUFFER_WORDS: usize = 1 << 22;

    /// Sorts the buffer of `r`, drops rows the relation has, merges the rest into `fresh`.
    fn compact(&mut self, r: RelId, rel: &Relation) {
        let stride = rel.stride();
        let mut rows = std::mem::take(&mut self.rows[r]);
        if rows.is_empty() {
            self.rows[r] = rows;
            return;
        }
        sort_dedup(&mut rows, stride);
        rel.retain_new(&mut rows);
        let fresh = std::mem::take(&mut self.fresh[r]);
        self.fresh[r] = if fresh.is_empty() { rows.clone() } else { super::relation::merge_sorted(&fresh, &rows, stride) };
        rows.clear();
        self.rows[r] = rows;
    }

    /// The round's new tuples of `r` (sorted, not yet in the relation), recording witnesses.
    fn take_new(
        &mut self,
        r: RelId,
        prog: &LogicProgram,
        db: &mut Database,
        round: u32,
        tombs: Option<&HashSet<Vec<u32>>>,
        mut choice: Option<&mut Vec<HashSet<Vec<u32>>>>,
    ) -> Vec<u32> {
        let stride = db.rels[r].stride();
        self.compact(r, &db.rels[r]);
        let rows = std::mem::take(&mut self.fresh[r]);
        let mut best: hashbrown::HashMap<Vec<u32>, Slot> = match &mut self.wits {
            Some(w) => std::mem::take(&mut w[r]),
            None => hashbrown::HashMap::new(),
        };
        let mut fresh = Vec::with_capacity(rows.len());
        let limit = prog.relations[r].limitsize.map(|n| n.saturating_sub(db.rels[r].len()));
        for row in rows.chunks_exact(stride) {
            if tombs.is_some_and(|t| t.contains(row)) {
                continue;
            }
            if let Some(sets) = choice.as_deref_mut() {
                let keys: Vec<Vec<u32>> = prog.relations[r].choice.iter().map(|cols| cols.iter().map(|&c| row[c]).collect()).collect();
                if keys.iter().zip(sets.iter()).any(|(k, s)| s.contains(k)) {
                    continue;
                }
                for (k, s) in keys.into_iter().zip(sets.iter_mut()) {
                    s.insert(k);
                }
            }
            if limit.is_some_and(|l| fresh.len() / stride >= l) {
                break;
            }
            fresh.extend_from_slice(row);
        }
        if let Some(w) = &mut db.witnesses {
            for row in fresh.chunks_exact(stride) {
                if let Some(Slot::Cand(wit, _)) = best.remove(row) {
                    w.insert(r, row, round, Some(wit.rule), &wit.body);
                }
            }
        }
        fresh
    }
}

/// What a round knows about a derived row.
#[derive(Debug)]
pub(super) enum Slot {
    /// The relation already had the row before the round.
    Known,
    /// The least candidate witness found so far, and whether the relation was checked for the row.
    Cand(Cand, bool),
}

/// A candidate witness found during a round: the rule and its body tuples, flat
/// (relation id, then the tuple's words), in body order.
#[derive(Debug)]
pub(super) struct Cand {
    pub(super) rule: usize,
    pub(super) body: Vec<u32>,
}

/// Orders candidate witnesses: rule hash, then body tuples by value (symbols by text).
pub(super) fn witness_cmp(prog: &LogicProgram, values: &Values, a: &Cand, b: &Cand) -> Ordering {
    let o = prog.rules[a.rule].hash.cmp(&prog.rules[b.rule].hash);
    if o != Ordering::Equal {
        return o;
    }
    let (mut i, mut j) = (0, 0);
    while i < a.body.len() && j < b.body.len() {
        let (ra, rb) = (a.body[i] as usize, b.body[j] as usize);
        let o = ra.cmp(&rb);
        if o != Ordering::Equal {
            return o;
        }
        let kinds = &prog.relations[ra].kinds;
        for (c, k) in kinds.iter().enumerate() {
            let o = values.cmp(*k, a.body[i + 1 + c], b.body[j + 1 + c], &prog.records);
            if o != Ordering::Equal {
                return o;
            }
        }
        i += 1 + kinds.len();
        j += 1 + kinds.len();
    }
    a.body.len().cmp(&b.body.len())
}

/// Executes one plan and buffers what its head derives.
pub(super) fn run_plan(prog: &LogicProgram, rule: usize, ops: &[Op], db: &mut Database, deltas: &[Option<Relation>], regexes: &mut RegexCache, out: &mut Pending) {
    let r = &prog.rules[rule];
    let mut ex = Exec {
        rels: &db.rels,
        deltas,
        values: &mut db.values,
        regexes,
        env: vec![0; r.num_vars],
        trail: vec![],
        trail_words: vec![],
        prov: out.wits.is_some(),
        hidden_from: out.hidden_from,
        projection: None,
        cancel: tg_limits::cancel::current(),
    };
    // A head that only copies variables (the common case) lets the innermost scan write
    // rows straight into the buffer.
    if r.subsumed.is_none() && !ex.prov {
        let vars: Option<Vec<usize>> = r.head.1.iter().map(|e| if let Expr::Var(v) = e { Some(*v) } else { None }).collect();
        ex.projection = vars;
    }
    let mut sink = Sink::Head { rule, out };
    ex.exec(prog, ops, 0, &mut sink);
}

enum Sink<'a> {
    Head { rule: usize, out: &'a mut Pending },
    Agg(AggState),
}

/// Running state of one aggregate evaluation.
struct AggState {
    op: AggOp,
    kind: Kind,
    count: u64,
    acc: Option<u32>,
    fsum: f64,
    isum: i64,
    target: Option<Expr>,
    /// Trail length when the aggregate started: entries past it are the inner body's.
    base: usize,
    /// With provenance, for `min`/`max`: the inner body tuples of the first extreme binding.
    best: Vec<(usize, RelId, Vec<u32>)>,
}

/// Body positions of an aggregate's inner tuples in a witness come after the rule's own.
const INNER_POSITION: usize = 1 << 20;

struct Exec<'a> {
    rels: &'a [Relation],
    deltas: &'a [Option<Relation>],
    values: &'a mut Values,
    regexes: &'a mut RegexCache,
    env: Vec<u32>,
    /// Rows bound by the scans above: (body position of the atom, relation, start in `trail_words`).
    trail: Vec<(usize, RelId, usize)>,
    /// The words of the trail's rows, in relation column order.
    trail_words: Vec<u32>,
    prov: bool,
    /// Relations from this id on are not part of witnesses.
    hidden_from: RelId,
    /// Head variables, when the head is a plain projection and no witness is kept.
    projection: Option<Vec<usize>>,
    /// The thread's cancellation token: outer scans stop early once it is set (the
    /// stratum then reports the cancellation, so the partial result is never used).
    cancel: Option<tg_limits::cancel::Token>,
}

impl Exec<'_> {
    fn exec(&mut self, prog: &LogicProgram, ops: &[Op], i: usize, sink: &mut Sink) {
        let Some(op) = ops.get(i) else {
            self.emit(prog, sink);
            return;
        };
        match op {
            Op::Scan { rel, source, perm, index, key, cols, atom } => {
                let mut k = Vec::with_capacity(key.len());
                for e in key {
                    match eval(e, &self.env, self.values) {
                        Some(w) => k.push(w),
                        None => return,
                    }
                }
                let (rels, deltas) = (self.rels, self.deltas);
                let table = match source {
                    Source::Full => &rels[*rel],
                    Source::Delta => match &deltas[*rel] {
                        Some(d) => d,
                        None => return,
                    },
                };
                let ix = table.index_by_id(*index);
                if i + 1 == ops.len()
                    && let (Some(proj), Sink::Head { rule, out }) = (&self.projection, &mut *sink)
                {
                    // Innermost loop of a projection rule: bind, check, copy the head row.
                    let hrel = prog.rules[*rule].head.0;
                    let buf = &mut out.rows[hrel];
                    let env = &mut self.env;
                    ix.for_prefix(&k, |row| {
                        for c in cols {
                            match *c {
                                ColAction::Bind(p, v) => env[v] = row[p],
                                ColAction::Check(p, v) => {
                                    if env[v] != row[p] {
                                        return;
                                    }
                                }
                            }
                        }
                        buf.extend(proj.iter().map(|&v| env[v]));
                        if proj.is_empty() {
                            buf.push(0);
                        }
                    });
                    if out.compacting && out.rows[hrel].len() >= Pending::BUFFER_WORDS {
                        out.compact(hrel, &self.rels[hrel]);
                    }
                    return;
                }
                let prov = self.prov;
                ix.for_prefix(&k, |row| {
                    if self.cancel.as_ref().is_some_and(tg_limits::cancel::Token::is_cancelled) {
                        return;
                    }
                    for c in cols {
                        match *c {
                            ColAction::Bind(p, v) => self.env[v] = row[p],
                            ColAction::Check(p, v) => {
                                if self.env[v] != row[p] {
                                    return;
                                }
                            }
                        }
                    }
                    if prov {
                        let start = self.trail_words.len();
                        let arity = prog.relations[*rel].arity();
                        self.trail_words.resize(start + arity, 0);
                        for (p, &c) in perm.iter().enumerate() {
                            if c < arity {
                                self.trail_words[start + c] = row[p];
                            }
                        }
                        self.trail.push((*atom, *rel, start));
                        self.exec(prog, ops, i + 1, sink);
                        self.trail.pop();
                        self.trail_words.truncate(start);
                    } else {
                        self.exec(prog, ops, i + 1, sink);
                    }
                });
            }
            Op::Filter(c) => {
                if self.cond(c) {
                    self.exec(prog, ops, i + 1, sink);
                }
            }
            Op::Assign(v, e) => {
                if let Some(w) = eval(e, &self.env, self.values) {
                    self.env[*v] = w;
                    self.exec(prog, ops, i + 1, sink);
                }
            }
            Op::Unpack(e, pats) => {
                let Some(w) = eval(e, &self.env, self.values) else { return };
                if self.unpack(w, pats) {
                    self.exec(prog, ops, i + 1, sink);
                }
            }
            Op::Neg { rel, index, key, .. } => {
                let mut k = Vec::with_capacity(key.len());
                for e in key {
                    match eval(e, &self.env, self.values) {
                        Some(w) => k.push(w),
                        None => return,
                    }
                }
                if !self.rels[*rel].index_by_id(*index).contains_prefix(&k) {
                    self.exec(prog, ops, i + 1, sink);
                }
            }
            Op::Range { out, kind, args, check } => {
                let mut a = vec![];
                for e in args {
                    match eval(e, &self.env, self.values) {
                        Some(w) => a.push(w),
                        None => return,
                    }
                }
                let before = self.env[*out];
                for w in range_values(*kind, &a) {
                    if *check {
                        if w == before {
                            self.exec(prog, ops, i + 1, sink);
                        }
                    } else {
                        self.env[*out] = w;
                        self.exec(prog, ops, i + 1, sink);
                    }
                }
            }
            Op::Agg { agg, sub, check } => {
                let mut state =
                    Sink::Agg(AggState { op: agg.op, kind: agg.kind, count: 0, acc: None, fsum: 0.0, isum: 0, target: agg.target.clone(), base: self.trail.len(), best: vec![] });
                let saved_trail = self.trail.len();
                let saved_words = self.trail_words.len();
                let saved_env = self.env.clone();
                self.exec(prog, sub, 0, &mut state);
                self.trail.truncate(saved_trail);
                self.trail_words.truncate(saved_words);
                self.env = saved_env;
                let Sink::Agg(st) = state else { return };
                let Some(result) = finish_agg(&st) else { return };
                // The extreme binding's tuples join the witness of what this rule derives.
                for (pos, rel, words) in &st.best {
                    let start = self.trail_words.len();
                    self.trail_words.extend_from_slice(words);
                    self.trail.push((*pos, *rel, start));
                }
                if *check {
                    if self.env[agg.out] == result {
                        self.exec(prog, ops, i + 1, sink);
                    }
                } else {
                    self.env[agg.out] = result;
                    self.exec(prog, ops, i + 1, sink);
                }
                self.trail.truncate(saved_trail);
                self.trail_words.truncate(saved_words);
            }
        }
    }

    fn cond(&mut self, c: &Cond) -> bool {
        match c {
            Cond::False => false,
            Cond::Cmp(op, k, a, b) => {
                let (Some(x), Some(y)) = (eval(a, &self.env, self.values), eval(b, &self.env, self.values)) else { return false };
                compare(*op, *k, x, y, self.values)
            }
            Cond::Match(p, t, pos) => {
                let (Some(x), Some(y)) = (eval(p, &self.env, self.values), eval(t, &self.env, self.values)) else { return false };
                let m = self.regexes.full_match(self.values.symbol(x), self.values.symbol(y));
                m == *pos
            }
            Cond::Contains(n, h, pos) => {
                let (Some(x), Some(y)) = (eval(n, &self.env, self.values), eval(h, &self.env, self.values)) else { return false };
                self.values.symbol(y).contains(self.values.symbol(x)) == *pos
            }
        }
    }

    fn unpack(&mut self, w: u32, pats: &[Pat]) -> bool {
        let Some(fields) = self.values.unpack(w).map(<[u32]>::to_vec) else { return false };
        if fields.len() != pats.len() {
            return false;
        }
        for (f, p) in fields.iter().zip(pats) {
            match p {
                Pat::Bind(v) => self.env[*v] = *f,
                Pat::Check(e) => {
                    // A constant record field compares by identity of the packed value.
                    match eval(e, &self.env, self.values) {
                        Some(x) if x == *f => {}
                        _ => return false,
                    }
                }
                Pat::Nested(inner) => {
                    if !self.unpack(*f, inner) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The current derivation as a witness candidate: body tuples in body order, not scan
    /// order, so the witness does not depend on the plan.
    fn candidate(&self, prog: &LogicProgram, rule: usize) -> Cand {
        let mut order: Vec<(usize, RelId, usize)> = self.trail.clone();
        order.sort_by_key(|(pos, _, _)| *pos);
        let mut body = Vec::with_capacity(order.len() * 3);
        for (_, r, start) in order {
            if r >= self.hidden_from {
                continue;
            }
            body.push(r as u32);
            body.extend_from_slice(&self.trail_words[start..start + prog.relations[r].arity()]);
        }
        Cand { rule, body }
    }

    fn emit(&mut self, prog: &LogicProgram, sink: &mut Sink) {
        match sink {
            Sink::Head { rule, out } => {
                let r = &prog.rules[*rule];
                let (hrel, args) = &r.head;
                let start = out.rows[*hrel].len();
                for a in args {
                    match eval(a, &self.env, self.values) {
                        Some(w) => out.rows[*hrel].push(w),
                        None => {
                            out.rows[*hrel].truncate(start);
                            return;
                        }
                    }
                }
                if args.is_empty() {
                    out.rows[*hrel].push(0);
                }
                if let Some(dom) = &r.subsumed {
                    // A tuple never dominates itself.
                    let mut same = true;
                    for (i, a) in dom.iter().enumerate() {
                        if eval(a, &self.env, self.values) != Some(out.rows[*hrel][start + i]) {
                            same = false;
                        }
                    }
                    if same {
                        out.rows[*hrel].truncate(start);
                        return;
                    }
                }
                if let Some(w) = &mut out.wits {
                    // One candidate per row derived this round: the least one becomes the witness
                    // of rows that turn out to be new when the round ends. The second time a row
                    // is derived in a round, it is looked up once: a row the relation already has
                    // is marked known and skipped from then on (its witness is fixed).
                    let row = &out.rows[*hrel][start..];
                    match w[*hrel].get_mut(row) {
                        Some(Slot::Known) => {}
                        Some(slot @ Slot::Cand(..)) => {
                            if let Slot::Cand(_, checked @ false) = slot
                                && !out.rewitness
                            {
                                *checked = true;
                                if self.rels[*hrel].contains(row) {
                                    *slot = Slot::Known;
                                }
                            }
                            if let Slot::Cand(old, _) = slot {
                                // Compare rule hashes before building the body: most candidates lose there.
                                if prog.rules[*rule].hash <= prog.rules[old.rule].hash {
                                    let cand = self.candidate(prog, *rule);
                                    if witness_cmp(prog, self.values, &cand, old) == Ordering::Less {
                                        *old = cand;
                                    }
                                }
                            }
                        }
                        None => {
                            w[*hrel].insert(row.to_vec(), Slot::Cand(self.candidate(prog, *rule), false));
                        }
                    }
                }
                if out.compacting && out.rows[*hrel].len() >= Pending::BUFFER_WORDS {
                    out.compact(*hrel, &self.rels[*hrel]);
                }
            }
            Sink::Agg(st) => {
                st.count += 1;
                let Some(t) = &st.target else { return };
                let Some(v) = eval(t, &self.env, self.values) else { return };
                match st.op {
                    AggOp::Count => {}
                    AggOp::Sum | AggOp::Mean => match st.kind {
                        Kind::Float => st.fsum += f32::from_bits(v) as f64,
                        Kind::Unsigned => st.isum = st.isum.wrapping_add(v as i64),
                        _ => st.isum = st.isum.wrapping_add(v as i32 as i64),
                    },
                    AggOp::Min | AggOp::Max => {
                        let better = match st.acc {
                            None => true,
                            Some(a) => {
                                let o = super::functors::cmp_kind(st.kind, v, a, self.values);
                                (st.op == AggOp::Min && o.is_lt()) || (st.op == AggOp::Max && o.is_gt())
                            }
                        };
                        if better {
                            st.acc = Some(v);
                            if self.prov {
                                st.best = self.trail[st.base..]
                                    .iter()
                                    .map(|(pos, r, start)| (INNER_POSITION + pos, *r, self.trail_words[*start..*start + prog.relations[*r].arity()].to_vec()))
                                    .collect();
                            }
                        }
                    }
                }
            }
        }
    }
}

fn finish_agg(st: &AggState) -> Option<u32> {
    Some(match st.op {
        AggOp::Count => st.count as u32,
        AggOp::Sum => match st.kind {
            Kind::Float => (st.fsum as f32).to_bits(),
            _ => st.isum as u32,
        },
        AggOp::Mean => {
            if st.count == 0 {
                return None;
            }
            let total = match st.kind {
                Kind::Float => st.fsum,
                Kind::Unsigned => st.isum as f64,
                _ => st.isum as f64,
            };
            ((total / st.count as f64) as f32).to_bits()
        }
        AggOp::Min | AggOp::Max => st.acc?,
    })
}

/// Values of `range(from, to[, step])` at a kind: from inclusive, to exclusive; counts down when from > to.
fn range_values(kind: Kind, a: &[u32]) -> Vec<u32> {
    let mut out = vec![];
    match kind {
        Kind::Float => {
            let (f, t) = (f32::from_bits(a[0]), f32::from_bits(a[1]));
            let step = a.get(2).map(|s| f32::from_bits(*s)).unwrap_or(if f <= t { 1.0 } else { -1.0 });
            if step == 0.0 || !step.is_finite() {
                return out;
            }
            let mut x = f;
            while (step > 0.0 && x < t) || (step < 0.0 && x > t) {
                out.push(x.to_bits());
                x += step;
                if out.len() > 100_000_000 {
                    break;
                }
            }
        }
        Kind::Unsigned => {
            let (f, t) = (a[0] as i64, a[1] as i64);
            let step = a.get(2).map(|s| *s as i64).unwrap_or(if f <= t { 1 } else { -1 });
            push_ints(&mut out, f, t, step);
        }
        _ => {
            let (f, t) = (a[0] as i32 as i64, a[1] as i32 as i64);
            let step = a.get(2).map(|s| *s as i32 as i64).unwrap_or(if f <= t { 1 } else { -1 });
            push_ints(&mut out, f, t, step);
        }
    }
    out
}

fn push_ints(out: &mut Vec<u32>, f: i64, t: i64, step: i64) {
    if step == 0 {
        return;
    }
    let mut x = f;
    let max = tg_limits::budget::max_tuples();
    while (step > 0 && x < t) || (step < 0 && x > t) {
        out.push(x as i32 as u32);
        x += step;
        if out.len() & 0xFFFF == 0 {
            if max.is_some_and(|m| out.len() as u64 > m) {
                tg_limits::budget::trip(format!("range({f}, {t}) yields more values than the budget of {} tuples (--max-tuples)", max.unwrap_or(0)));
            }
            if tg_limits::budget::is_tripped() {
                break;
            }
        }
    }
    if tg_limits::budget::is_tripped() {
        // Nothing of a range cut short is used: the evaluation stops with the reason.
        *out = Vec::new();
    }
}
