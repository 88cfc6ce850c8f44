//! Incremental maintenance of one non-recursive stratum, witness-guided.
//!
//! Given the rows its inputs gained and lost since the stratum was last evaluated (and
//! the stratum's rows with their canonical witnesses from then), this brings the stratum
//! to exactly the state — rows and witnesses — a fresh evaluation would give, while
//! joining only around the changes:
//!
//! 1. **Suspects** are rows whose witness used a lost row, or whose rule must be re-run
//!    whole (below), or whose rule negates a relation that gained rows. They are removed.
//!    Every other row keeps its witness: it is still a valid derivation, and it was the
//!    least one before, so only new derivations can beat it.
//! 2. **New derivations** are found by delta rules: one per positive body atom over a
//!    relation that gained rows, that atom reading only the gained rows.
//! 3. **Suspects are re-proved** head-bound: each rule runs once more with an extra atom
//!    over the suspects binding its head, so the join starts from them.
//! 4. A rule is re-run whole when a change can enable it in a way no delta atom shows:
//!    it negates a relation that lost rows, an aggregate of it reads a changed relation,
//!    or its head is not plain variables and constants (so it cannot be head-bound).
//!
//! Every derivation found offers a candidate witness; a row's witness is the least of
//! its surviving one and its candidates, in the evaluator's order. Non-recursive strata
//! derive everything in round 0, so rounds need no maintenance. Recursive strata and
//! strata with choice, subsumption, `eqrel` or `limitsize` are not handled here: the
//! caller re-evaluates them ([`maintainable`]).

use std::collections::HashSet;

use super::diag::Diagnostic;
use super::eval::{Cand, Database, Pending, Slot, prepare, run_plan, witness_cmp};
use super::logic::{Atom, Expr, Lit, LogicProgram, LogicRelation, RelId};
use super::plan::plan_rule;
use super::relation::{Relation, sort_dedup};
use super::stratify::Stratum;

/// Rows a relation gained and lost since the last evaluation.
#[derive(Debug)]
pub struct Change {
    /// Rows added.
    pub plus: Relation,
    /// Rows removed.
    pub minus: Relation,
}

impl Change {
    /// The change from `old` to `new`, both sorted and deduplicated with the given stride.
    pub fn between(old: &[u32], new: &[u32], stride: usize) -> Change {
        let (mut plus, mut minus) = (vec![], vec![]);
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < new.len() {
            let a = old.get(i..i + stride);
            let b = new.get(j..j + stride);
            match (a, b) {
                (Some(a), Some(b)) if a == b => {
                    i += stride;
                    j += stride;
                }
                (Some(a), Some(b)) if a < b => {
                    minus.extend_from_slice(a);
                    i += stride;
                }
                (Some(a), None) => {
                    minus.extend_from_slice(a);
                    i += stride;
                }
                (_, Some(b)) => {
                    plus.extend_from_slice(b);
                    j += stride;
                }
                (None, None) => break,
            }
        }
        Change::from_rows(stride, plus, minus)
    }

    /// A change from unsorted added and removed rows.
    pub fn from_rows(stride: usize, mut plus: Vec<u32>, mut minus: Vec<u32>) -> Change {
        sort_dedup(&mut plus, stride);
        sort_dedup(&mut minus, stride);
        let mut p = Relation::new(stride);
        p.insert_new(&plus);
        let mut m = Relation::new(stride);
        m.insert_new(&minus);
        Change { plus: p, minus: m }
    }

    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        self.plus.is_empty() && self.minus.is_empty()
    }
}

/// Whether [`maintain_stratum`] can bring this stratum up to date.
pub fn maintainable(prog: &LogicProgram, stratum: &Stratum) -> bool {
    let plain = |r: &LogicRelation| !r.eqrel && r.choice.is_empty() && r.limitsize.is_none();
    !stratum.recursive && stratum.relations.iter().all(|&r| plain(&prog.relations[r])) && stratum.rules.iter().all(|&ri| prog.rules[ri].subsumed.is_none())
}

/// The relations a stratum's rules read (positively, negatively or inside aggregates).
pub fn stratum_reads(prog: &LogicProgram, stratum: &Stratum) -> Vec<RelId> {
    let mut all = vec![];
    for &ri in &stratum.rules {
        for l in &prog.rules[ri].body {
            l.deps(&mut all);
        }
    }
    let mut rels: Vec<RelId> = all.into_iter().map(|(r, _)| r).collect();
    rels.sort_unstable();
    rels.dedup();
    rels
}

/// Brings a [`maintainable`] stratum up to date with its changed inputs. `db` holds the
/// inputs' new state, and the stratum's rows and witnesses as of the last evaluation
/// (a database without witnesses is refused: they are what says which rows to re-prove).
pub fn maintain_stratum(prog: &LogicProgram, stratum: &Stratum, db: &mut Database, changes: &[Option<Change>]) -> Result<(), Diagnostic> {
    let gained = |r: RelId| changes.get(r).and_then(|c| c.as_ref()).is_some_and(|c| !c.plus.is_empty());
    let lost = |r: RelId| changes.get(r).and_then(|c| c.as_ref()).is_some_and(|c| !c.minus.is_empty());
    let nrel = prog.relations.len();
    let nrules = prog.rules.len();

    // Which rules run whole, and which rules' rows are suspect because of negation.
    let mut whole: HashSet<usize> = HashSet::new();
    let mut neg_gained: HashSet<usize> = HashSet::new();
    for &ri in &stratum.rules {
        let rule = &prog.rules[ri];
        let head_plain = rule.head.1.iter().all(|e| matches!(e, Expr::Var(_) | Expr::Const(_)));
        let agg_changed = rule.body.iter().any(|l| {
            let mut inner = vec![];
            if matches!(l, Lit::Agg(_)) {
                l.deps(&mut inner);
            }
            inner.iter().any(|(r, _)| gained(*r) || lost(*r))
        });
        let neg_lost = rule.body.iter().any(|l| matches!(l, Lit::Neg(r, _, _) if lost(*r)));
        if !rule.body.is_empty() && (agg_changed || neg_lost || !head_plain) {
            whole.insert(ri);
        }
        if rule.body.iter().any(|l| matches!(l, Lit::Neg(r, _, _) if gained(*r))) {
            neg_gained.insert(ri);
        }
    }

    // 1. Suspects: rows whose witness no longer stands (or may not).
    let Some(wits) = db.witnesses.as_mut() else {
        return Err(Diagnostic::global("TG0601", "incremental maintenance needs the stratum's witnesses (evaluate with provenance)"));
    };
    let mut suspects: Vec<Vec<u32>> = (0..nrel).map(|_| vec![]).collect();
    for &h in &stratum.relations {
        let stride = db.rels[h].stride();
        let mut doomed: Vec<Vec<u32>> = vec![];
        for (mut row, w) in wits.iter(h) {
            let Some(ri) = w.rule else { continue };
            let broken =
                whole.contains(&ri) || neg_gained.contains(&ri) || w.body.iter().any(|(br, bw)| changes.get(*br).and_then(|c| c.as_ref()).is_some_and(|c| c.minus.contains(bw)));
            if broken {
                row.resize(stride, 0); // a nullary relation's row is one zero word
                doomed.push(row);
            }
        }
        doomed.sort_unstable();
        let set: HashSet<&[u32]> = doomed.iter().map(|r| &r[..]).collect();
        db.rels[h].remove_where(|row| set.contains(row));
        for row in &doomed {
            wits.remove(h, row);
            suspects[h].extend_from_slice(row);
        }
    }

    // A program with one temporary relation per stratum relation (its suspects) and the
    // head-bound version of each rule appended; witnesses leave the temporaries out.
    let mut p2 = prog.clone();
    let mut temp_of = vec![usize::MAX; nrel];
    for &h in &stratum.relations {
        temp_of[h] = p2.relations.len();
        let mut rel = prog.relations[h].clone();
        rel.name = format!("@suspect_{}", rel.name);
        p2.relations.push(rel);
    }
    let mut origin: Vec<usize> = (0..nrules).collect();
    let mut bound_rules = vec![];
    for &ri in &stratum.rules {
        let rule = &prog.rules[ri];
        let h = rule.head.0;
        if whole.contains(&ri) || rule.body.is_empty() || suspects[h].is_empty() {
            continue;
        }
        let mut r2 = rule.clone();
        r2.plan.clear();
        r2.body.push(Lit::Atom(Atom { rel: temp_of[h], args: rule.head.1.clone(), span: rule.span }));
        bound_rules.push((p2.rules.len(), r2.body.len() - 1));
        origin.push(ri);
        p2.rules.push(r2);
    }
    for &h in &stratum.relations {
        let mut r = Relation::new(prog.relations[h].arity());
        let mut rows = std::mem::take(&mut suspects[h]);
        sort_dedup(&mut rows, r.stride());
        r.insert_new(&rows);
        db.rels.push(r);
    }
    let n2 = p2.relations.len();
    let arity = |r: RelId| p2.relations[r].arity();

    let mut pending = Pending::new(n2, true);
    pending.compacting = false;
    pending.rewitness = true;
    pending.hidden_from = nrel;
    let mut regexes = Default::default();
    let mut run = |db: &mut Database, rule: usize, delta: Option<(usize, RelId, &Relation)>| -> Result<(), Diagnostic> {
        let mut r = p2.rules[rule].clone();
        r.plan.clear();
        let mut ops = plan_rule(&r, delta.map(|d| d.0), 0, &arity)?;
        let mut deltas: Vec<Option<Relation>> = (0..n2).map(|_| None).collect();
        if let Some((_, rel, rows)) = delta {
            let mut d = Relation::new(p2.relations[rel].arity());
            d.insert_new(&rows.rows());
            deltas[rel] = Some(d);
        }
        prepare(&mut ops, &mut db.rels, &mut deltas);
        run_plan(&p2, rule, &ops, db, &deltas, &mut regexes, &mut pending);
        Ok(())
    };

    for &ri in &stratum.rules {
        let rule = &prog.rules[ri];
        if rule.body.is_empty() {
            continue;
        }
        if whole.contains(&ri) {
            run(db, ri, None)?;
            continue;
        }
        // 2. Delta rules over the rows each positive atom's relation gained.
        for (pos, l) in rule.body.iter().enumerate() {
            if let Lit::Atom(a) = l
                && let Some(Some(c)) = changes.get(a.rel)
                && !c.plus.is_empty()
            {
                run(db, ri, Some((pos, a.rel, &c.plus)))?;
            }
        }
    }
    // 3. Head-bound re-proofs of the suspects.
    for &(r2, pos) in &bound_rules {
        let h = p2.rules[r2].head.0;
        let temp = temp_of[h];
        let rows = std::mem::replace(&mut db.rels[temp], Relation::new(0));
        let res = run(db, r2, Some((pos, temp, &rows)));
        db.rels[temp] = rows;
        res?;
    }
    db.rels.truncate(nrel);

    // 4. Merge: each derived row gets the least of its surviving witness and its candidates.
    let Some(wits_all) = pending.wits.take() else { return Ok(()) };
    for (h, cands) in wits_all.into_iter().enumerate().take(nrel) {
        if cands.is_empty() {
            continue;
        }
        let mut cands: Vec<(Vec<u32>, Cand)> = cands
            .into_iter()
            .filter_map(|(row, slot)| match slot {
                Slot::Cand(mut c, _) => {
                    c.rule = origin[c.rule];
                    Some((row, c))
                }
                Slot::Known => None,
            })
            .collect();
        cands.sort_by(|a, b| a.0.cmp(&b.0));
        let stride = db.rels[h].stride();
        let mut fresh = vec![];
        let Some(wits) = db.witnesses.as_mut() else { return Ok(()) };
        for (row, cand) in cands {
            if db.rels[h].contains(&row) {
                let Some(old) = wits.get(h, &row) else { continue };
                let Some(orule) = old.rule else { continue }; // an input row keeps no witness
                let mut body = vec![];
                for (br, bw) in &old.body {
                    body.push(*br as u32);
                    body.extend_from_slice(bw);
                }
                let old = Cand { rule: orule, body };
                if witness_cmp(prog, &db.values, &cand, &old).is_lt() {
                    wits.remove(h, &row);
                    wits.insert(h, &row, 0, Some(cand.rule), &cand.body);
                }
            } else {
                wits.insert(h, &row, 0, Some(cand.rule), &cand.body);
                fresh.extend_from_slice(&row);
            }
        }
        sort_dedup(&mut fresh, stride);
        db.rels[h].insert_new(&fresh);
    }
    Ok(())
}
