//! Aggregation over a whole-graph scan of one relationship, free of the matcher's order.
//!
//! When every aggregate is `count(*)`, `count`, `sum`, `min` or `max` (not DISTINCT), the
//! grouping keys read only the start node, and every key, aggregate argument and WHERE
//! conjunct is integer arithmetic or comparison over property columns, the totals do not
//! depend on the order of the matches. Each start node's group is then found once (its
//! WHERE conjuncts on the start node tested, its keys evaluated), the relationships are
//! read in id order (memory order: nothing to build but the property columns by id, where
//! the ordered scan needs the adjacency and columns laid out like it) and totalled into
//! their start node's group, and the groups are handed to the consumer in the order the
//! matcher would first have met them: by start node, then by relationship id (the order
//! of each node's list).
//!
//! A null, a value that is not an integer, an integer operation that would overflow or
//! fail, or a sum that some order of additions could overflow gives up before the
//! consumer has seen anything: the ordered scan then runs and gives the result, or the
//! error, the matcher would.

use std::collections::BTreeMap;

use crate::ast::Dir;
use crate::error::{GqlError, Result};
use crate::eval::Ctx;
use crate::graph::Sym;
use crate::scan::{Cursor, HExpr, Layout, Scan, Sink, int, prepare, truth_fast};
use crate::value::{NodeId, RelId, Value};

/// What an aggregate totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Total {
    /// `count(*)`: the matches.
    Rows,
    /// `count(e)`.
    Count,
    /// `sum(e)`.
    Sum,
    /// `min(e)`.
    Min,
    /// `max(e)`.
    Max,
}

/// One aggregate's argument totalled over one group's matches.
#[derive(Clone, Copy, Debug)]
pub struct Tot {
    /// How many values.
    pub count: i64,
    /// Their sum.
    pub sum: i128,
    /// The sum of the positive values and of the negative ones: every order of adding the
    /// values keeps each partial sum between them.
    pos: i128,
    neg: i128,
    /// The least value.
    pub min: i64,
    /// The greatest value.
    pub max: i64,
}

impl Default for Tot {
    fn default() -> Self {
        Tot { count: 0, sum: 0, pos: 0, neg: 0, min: i64::MAX, max: i64::MIN }
    }
}

impl Tot {
    #[inline]
    fn add(&mut self, v: i64) {
        self.count += 1;
        self.sum += i128::from(v);
        if v > 0 {
            self.pos += i128::from(v)
        } else {
            self.neg += i128::from(v)
        }
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    /// Whether adding the values in any order keeps every partial sum an i64.
    fn fits(&self) -> bool {
        self.pos <= i128::from(i64::MAX) && self.neg >= i128::from(i64::MIN)
    }
}

/// One group's totals so far.
struct Group {
    key: Vec<i64>,
    /// The group's first match in the matcher's order so far: start node, relationship,
    /// end node.
    first: (NodeId, RelId, NodeId),
    n: i64,
    tots: Vec<Tot>,
}

/// Up to this many groups, a match's group is found by comparing keys one by one.
const FEW: usize = 16;

/// Whether `e` is integer arithmetic over integer literals and property columns.
fn int_shaped(e: &HExpr) -> bool {
    match e {
        HExpr::Lit(Value::Int(_)) | HExpr::Node(..) | HExpr::Rel(..) => true,
        HExpr::Arith(_, a, b) => int_shaped(a) && int_shaped(b),
        _ => false,
    }
}

/// Whether `e` is comparisons of [`int_shaped`] expressions under NOT, AND and OR.
fn bool_shaped(e: &HExpr) -> bool {
    match e {
        HExpr::Compare(a, chain) => int_shaped(a) && chain.iter().all(|(_, x)| int_shaped(x)),
        HExpr::Not(x) => bool_shaped(x),
        HExpr::And(a, b) | HExpr::Or(a, b) => bool_shaped(a) && bool_shaped(b),
        _ => false,
    }
}

impl Scan<'_, '_> {
    /// Whether the scan has the shape [`Scan::run_totals`] takes: a directed pattern whose
    /// conjuncts, keys and arguments are integer-shaped (the keys read only the start node:
    /// the caller checks).
    pub(crate) fn totals_shape(&self) -> bool {
        self.hop.dir != Dir::Both && self.at_start.iter().chain(&self.at_end).all(bool_shaped) && self.exprs.iter().all(int_shaped)
    }

    /// Totals the matches of the scan from the input row `input` in relationship id order
    /// and hands each group to `sink`, in the matcher's order of first meeting them.
    /// `nk`: how many leading expressions are grouping keys (reading only the start node);
    /// `aggs`: what each aggregate totals, the ones with an argument reading the
    /// expressions after the keys in turn. `None` (with nothing handed over) when a value
    /// is not an integer or a sum could overflow: the caller then runs the ordered scan.
    /// Otherwise whether any row matched.
    pub(crate) fn run_totals(&self, ctx: &Ctx, input: &[Value], nk: usize, aggs: &[Total], sink: &mut impl Sink) -> Result<Option<bool>> {
        let g = ctx.graph;
        // Which expression each aggregate reads (count(*) none).
        let mut next = nk;
        let arg_of: Vec<Option<usize>> = aggs
            .iter()
            .map(|t| match t {
                Total::Rows => None,
                _ => {
                    next += 1;
                    Some(next - 1)
                }
            })
            .collect();
        if next != self.exprs.len() {
            return Ok(None);
        }
        // An argument that is one relationship property is read, the first time, from the
        // relationships' property array as the loop passes (in id order, memory order),
        // without building a column.
        let bare: Vec<Option<Sym>> = self
            .exprs
            .iter()
            .enumerate()
            .map(|(i, x)| match x {
                HExpr::Rel(k, _) if i >= nk && g.rel_column_when_reread(*k).is_none() => Some(*k),
                _ => None,
            })
            .collect();
        for (x, b) in self.at_start.iter().chain(&self.at_end).map(|x| (x, &None)).chain(self.exprs.iter().zip(&bare)) {
            if b.is_none() {
                prepare(g, x, Layout::ById);
            }
        }
        // Each start node's group (`NONE`: not a start node, or its conjuncts fail).
        const NONE: u32 = u32::MAX;
        let mut group_of = vec![NONE; g.nodes.len()];
        let mut groups: Vec<Group> = vec![];
        let mut index: BTreeMap<Vec<i64>, u32> = BTreeMap::new();
        let mut key: Vec<i64> = Vec::with_capacity(nk);
        let mut last: Option<u32> = None;
        for (i, &a) in self.hop.starts(g).iter().enumerate() {
            if i % 65_536 == 0 {
                GqlError::check_cancelled()?;
            }
            if !self.hop.node_fits(g, false, a) {
                continue;
            }
            let cur = Cursor { a, ..Cursor::default() };
            match self.at_start.iter().try_fold(true, |ok, f| Some(ok && truth_fast(f, cur)?)) {
                Some(true) => {}
                Some(false) => continue,
                None => return Ok(None),
            }
            key.clear();
            for x in self.exprs.iter().take(nk) {
                let Some(v) = int(x, cur) else { return Ok(None) };
                key.push(v);
            }
            // Compared in line: a call to memcmp per node costs more than the keys.
            let same = |m: &Group| m.key.len() == key.len() && m.key.iter().zip(&key).all(|(x, y)| x == y);
            let gi = match last.filter(|&l| groups.get(l as usize).is_some_and(same)) {
                Some(l) => l,
                None => {
                    let found = if groups.len() <= FEW { groups.iter().position(same).map(|p| p as u32) } else { index.get(&key).copied() };
                    match found {
                        Some(f) => f,
                        None => {
                            let Ok(gi) = u32::try_from(groups.len()) else { return Ok(None) };
                            groups.push(Group { key: key.clone(), first: (NodeId::MAX, RelId::MAX, 0), n: 0, tots: vec![Tot::default(); aggs.len()] });
                            index.insert(key.clone(), gi);
                            gi
                        }
                    }
                }
            };
            last = Some(gi);
            if let Some(slot) = group_of.get_mut(a) {
                *slot = gi;
            }
        }
        // With few groups, each node's group fits a byte: the array read at random once
        // per relationship then stays in cache.
        let done = if groups.len() < usize::from(u8::MAX) {
            let small: Vec<u8> = group_of.iter().map(|&x| u8::try_from(x).unwrap_or(u8::MAX)).collect();
            self.tally(ctx, &small, u8::MAX, &mut groups, &arg_of, &bare)?
        } else {
            self.tally(ctx, &group_of, NONE, &mut groups, &arg_of, &bare)?
        };
        if !done {
            return Ok(None);
        }
        let sums_fit = groups.iter().all(|m| m.tots.iter().zip(aggs).all(|(t, k)| *k != Total::Sum || t.fits()));
        if !sums_fit {
            return Ok(None);
        }
        // Groups without a match are dropped; the rest come in the order of their first.
        groups.retain(|m| m.n > 0);
        groups.sort_by_key(|m| (m.first.0, m.first.1));
        let [sa, sr, sb] = self.hop.slots;
        let mut row = input.to_vec();
        row.resize(self.names.len(), Value::Null);
        let mut keyv: Vec<Value> = Vec::with_capacity(nk);
        for m in &groups {
            row[sa] = Value::Node(m.first.0);
            row[sr] = Value::Rel(m.first.1);
            row[sb] = Value::Node(m.first.2);
            keyv.clear();
            keyv.extend(m.key.iter().map(|&k| Value::Int(k)));
            sink.add_totals(&keyv, m.n, &m.tots, &row)?;
        }
        Ok(Some(!groups.is_empty()))
    }

    /// Adds every match to its start node's group (`group_of[node]`, `none`: no group);
    /// an expression whose `bare` is a key is that property of the relationship. Whether
    /// every value was an integer.
    fn tally<G: Copy + PartialEq + Into<u32>>(&self, ctx: &Ctx, group_of: &[G], none: G, groups: &mut [Group], arg_of: &[Option<usize>], bare: &[Option<Sym>]) -> Result<bool> {
        let g = ctx.graph;
        let types = self.hop.types();
        let any_end = self.hop.fits_every_node(g, true);
        let incoming = self.hop.dir == Dir::Left;
        for (id, r) in g.rels.iter().enumerate() {
            if id % 65_536 == 0 {
                GqlError::check_cancelled()?;
            }
            let (a, b) = if incoming { (r.dst, r.src) } else { (r.src, r.dst) };
            let gi = group_of.get(a).copied().unwrap_or(none);
            if gi == none || !types.fits(r.typ) || !(any_end || self.hop.node_fits(g, true, b)) {
                continue;
            }
            let cur = Cursor { a, rel: id, b, pos: id, layout: Layout::ById };
            match self.at_end.iter().try_fold(true, |ok, f| Some(ok && truth_fast(f, cur)?)) {
                Some(true) => {}
                Some(false) => continue,
                None => return Ok(false),
            }
            let Some(grp) = groups.get_mut(gi.into() as usize) else { return Ok(false) };
            grp.n += 1;
            if (a, id) < (grp.first.0, grp.first.1) {
                grp.first = (a, id, b);
            }
            for (tot, arg) in grp.tots.iter_mut().zip(arg_of) {
                let Some(i) = *arg else { continue };
                let v = match (bare.get(i).copied().flatten(), self.exprs.get(i)) {
                    (Some(k), _) => match g.rel_props(id).get(k) {
                        Some(Value::Int(v)) => Some(*v),
                        _ => None,
                    },
                    (None, Some(x)) => int(x, cur),
                    (None, None) => None,
                };
                let Some(v) = v else { return Ok(false) };
                tot.add(v);
            }
        }
        Ok(true)
    }
}
