//! Compact storage of one canonical witness per tuple.
//!
//! Witnesses live in flat per-relation arenas — the row, its round and rule, and
//! its body tuples as `(relation, words…)` — indexed by a hash table of arena
//! positions, so a witness costs a few dozen bytes and no allocation of its own.
//! Lookups decode into [`Witness`] values on demand.

use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};

use super::logic::RelId;

/// Why a tuple exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// Round of the tuple's stratum in which it was first derived (0 for inputs).
    pub round: u32,
    /// The rule (index into `LogicProgram::rules`), or `None` for a loaded input tuple.
    pub rule: Option<usize>,
    /// Positive body tuples of that derivation, in body order (relation column order).
    pub body: Vec<(RelId, Vec<u32>)>,
}

const INPUT: u32 = u32::MAX;

/// Witnesses of one relation.
#[derive(Clone, Debug, Default)]
struct RelWitnesses {
    table: HashTable<u32>,
    rows: Vec<u32>,
    round: Vec<u32>,
    rule: Vec<u32>,
    body_end: Vec<u32>,
    body: Vec<u32>,
    live: usize,
}

/// One witness per tuple, for every relation of a program.
#[derive(Clone, Debug)]
pub struct WitnessStore {
    arity: Vec<usize>,
    rels: Vec<RelWitnesses>,
    hasher: DefaultHashBuilder,
}

impl WitnessStore {
    /// An empty store for relations of the given arities.
    pub fn new(arity: Vec<usize>) -> Self {
        let rels = arity.iter().map(|_| RelWitnesses::default()).collect();
        WitnessStore { arity, rels, hasher: DefaultHashBuilder::default() }
    }

    fn row_of<'a>(&self, rel: &'a RelWitnesses, r: RelId, i: u32) -> &'a [u32] {
        let a = self.arity[r];
        &rel.rows[i as usize * a..i as usize * a + a]
    }

    fn find(&self, r: RelId, row: &[u32]) -> Option<u32> {
        let rel = &self.rels[r];
        let h = self.hasher.hash_one(row);
        rel.table.find(h, |&i| self.row_of(rel, r, i) == row).copied()
    }

    /// Records the witness of a tuple unless it already has one. `body` is flat: for each
    /// body tuple, its relation id followed by its words.
    pub fn insert(&mut self, r: RelId, row: &[u32], round: u32, rule: Option<usize>, body: &[u32]) {
        let row = &row[..self.arity[r]];
        if self.find(r, row).is_some() {
            return;
        }
        let h = self.hasher.hash_one(row);
        let arity = self.arity.clone();
        let rel = &mut self.rels[r];
        let i = rel.round.len() as u32;
        rel.rows.extend_from_slice(row);
        rel.round.push(round);
        rel.rule.push(rule.map(|x| x as u32).unwrap_or(INPUT));
        rel.body.extend_from_slice(body);
        rel.body_end.push(rel.body.len() as u32);
        rel.live += 1;
        let a = arity[r];
        let rows = &rel.rows;
        rel.table.insert_unique(h, i, |&j| self.hasher.hash_one(&rows[j as usize * a..j as usize * a + a]));
    }

    /// Forgets a tuple's witness (the tuple was deleted by subsumption).
    pub fn remove(&mut self, r: RelId, row: &[u32]) {
        let row = &row[..self.arity[r]];
        let h = self.hasher.hash_one(row);
        let a = self.arity[r];
        let rel = &mut self.rels[r];
        let rows = &rel.rows;
        if let Ok(entry) = rel.table.find_entry(h, |&i| &rows[i as usize * a..i as usize * a + a] == row) {
            entry.remove();
            rel.live -= 1;
        }
    }

    /// The witness of a tuple, if it has one.
    pub fn get(&self, r: RelId, row: &[u32]) -> Option<Witness> {
        let row = &row[..self.arity[r].min(row.len())];
        let i = self.find(r, row)?;
        Some(self.decode(r, i))
    }

    fn decode(&self, r: RelId, i: u32) -> Witness {
        let rel = &self.rels[r];
        let i = i as usize;
        let start = if i == 0 { 0 } else { rel.body_end[i - 1] as usize };
        let end = rel.body_end[i] as usize;
        let mut body = vec![];
        let mut k = start;
        while k < end {
            let br = rel.body[k] as usize;
            let a = self.arity.get(br).copied().unwrap_or(0);
            body.push((br, rel.body[k + 1..k + 1 + a].to_vec()));
            k += 1 + a;
        }
        let rule = rel.rule[i];
        Witness { round: rel.round[i], rule: (rule != INPUT).then_some(rule as usize), body }
    }

    /// Every (row, witness) of a relation, in no particular order.
    pub fn iter(&self, r: RelId) -> impl Iterator<Item = (Vec<u32>, Witness)> + '_ {
        self.rels[r].table.iter().map(move |&i| (self.row_of(&self.rels[r], r, i).to_vec(), self.decode(r, i)))
    }

    /// Number of tuples with a witness in a relation.
    pub fn len(&self, r: RelId) -> usize {
        self.rels[r].live
    }

    /// True when no relation has a witness.
    pub fn is_empty(&self) -> bool {
        self.rels.iter().all(|r| r.live == 0)
    }
}
