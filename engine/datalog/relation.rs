//! In-memory relations: sets of fixed-width rows of 32-bit words, with sorted indexes.
//!
//! An [`Index`] keeps the relation's rows in one column permutation as a few
//! sorted, deduplicated flat runs (merged geometrically, as datafrog's
//! `Variable` does), so a prefix lookup is a binary search per run and an
//! insert of a new batch costs amortised O(n log n). Index 0 is the identity
//! permutation and answers membership.

use std::cmp::Ordering;

/// One column permutation of a relation's rows.
#[derive(Clone, Debug)]
pub struct Index {
    /// `perm[i]` is the relation column stored at position `i` of an index row.
    pub perm: Vec<usize>,
    runs: Vec<Vec<u32>>,
    stride: usize,
}

impl Index {
    fn new(perm: Vec<usize>, stride: usize) -> Self {
        Index { perm, runs: vec![], stride }
    }

    /// Adds rows given in relation column order (not necessarily sorted).
    fn add(&mut self, rows: &[u32]) {
        if rows.is_empty() {
            return;
        }
        let identity = self.perm.iter().enumerate().all(|(i, &c)| i == c);
        let mut run = if identity {
            rows.to_vec()
        } else {
            let mut r = Vec::with_capacity(rows.len());
            for row in rows.chunks_exact(self.stride) {
                r.extend(self.perm.iter().map(|&c| row[c]));
            }
            r
        };
        if !(identity && is_strictly_sorted(&run, self.stride)) {
            sort_dedup(&mut run, self.stride);
        }
        let added = run.len();
        self.runs.push(run);
        // Geometric merging keeps inserts cheap when batches are small against the whole; a
        // batch of at least 1/16 of the whole collapses everything into one run, so lookups
        // (one binary search per run) stay cheap when rounds are few and large.
        let total: usize = self.runs.iter().map(Vec::len).sum();
        let collapse = self.runs.len() > 1 && added * 16 >= total;
        while self.runs.len() >= 2 {
            let n = self.runs.len();
            if !collapse && self.runs[n - 2].len() > 2 * self.runs[n - 1].len() {
                break;
            }
            let b = self.runs.pop().unwrap_or_default();
            let a = self.runs.pop().unwrap_or_default();
            self.runs.push(merge(&a, &b, self.stride));
        }
    }

    /// Calls `f` on every row whose first `prefix.len()` positions equal `prefix` (rows in index order).
    #[inline]
    pub fn for_prefix(&self, prefix: &[u32], mut f: impl FnMut(&[u32])) {
        let s = self.stride;
        for run in &self.runs {
            let (lo, hi) = prefix_range(run, s, prefix);
            for row in run[lo * s..hi * s].chunks_exact(s) {
                f(row);
            }
        }
    }

    /// True if some row starts with `prefix`.
    pub fn contains_prefix(&self, prefix: &[u32]) -> bool {
        let s = self.stride;
        self.runs.iter().any(|run| {
            let (lo, hi) = prefix_range(run, s, prefix);
            lo < hi
        })
    }

    fn retain(&mut self, mut keep: impl FnMut(&[u32]) -> bool) {
        let s = self.stride;
        for run in &mut self.runs {
            let mut out = Vec::with_capacity(run.len());
            for row in run.chunks_exact(s) {
                if keep(row) {
                    out.extend_from_slice(row);
                }
            }
            *run = out;
        }
        self.runs.retain(|r| !r.is_empty());
    }
}

/// Binary search for the rows of a sorted flat run that start with `prefix`.
#[inline]
fn prefix_range(run: &[u32], s: usize, prefix: &[u32]) -> (usize, usize) {
    if prefix.is_empty() {
        return (0, run.len() / s);
    }
    macro_rules! fixed {
        ($n:literal) => {{
            let (rows, _) = run.as_chunks::<$n>();
            range_in(rows, |r: &[u32; $n]| r[..prefix.len()].cmp(prefix))
        }};
    }
    match (s, prefix.len()) {
        (1, _) => {
            let lo = run.partition_point(|x| *x < prefix[0]);
            (lo, equal_run_end(&run[lo..], |x| *x == prefix[0]) + lo)
        }
        (2, 1) => {
            let (rows, _) = run.as_chunks::<2>();
            let k = prefix[0];
            let lo = rows.partition_point(|r| r[0] < k);
            (lo, lo + equal_run_end(&rows[lo..], |r| r[0] == k))
        }
        (2, _) => fixed!(2),
        (3, _) => fixed!(3),
        (4, _) => fixed!(4),
        _ => {
            // Wider rows: binary search over row numbers (collecting the rows first would
            // make every lookup linear in the run).
            let n = run.len() / s;
            let key = |i: usize| &run[i * s..i * s + prefix.len()];
            let (mut lo, mut hi) = (0, n);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if key(mid) < prefix { lo = mid + 1 } else { hi = mid }
            }
            let start = lo;
            hi = n;
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if key(mid) <= prefix { lo = mid + 1 } else { hi = mid }
            }
            (start, lo)
        }
    }
}

/// The range of `rows` (sorted) for which `cmp` says Equal.
#[inline]
fn range_in<T>(rows: &[T], cmp: impl Fn(&T) -> Ordering) -> (usize, usize) {
    let lo = rows.partition_point(|r| cmp(r) == Ordering::Less);
    let hi = lo + equal_run_end(&rows[lo..], |r| cmp(r) == Ordering::Equal);
    (lo, hi)
}

/// How many leading `rows` satisfy `eq` (which holds for a prefix of them), by galloping
/// from the start: a lookup's matches are usually a handful of rows next to where the
/// lower bound landed, so probing 1, 2, 4, … rows ahead stays in cache where a binary
/// search over the rest of the run would not.
#[inline]
fn equal_run_end<T>(rows: &[T], eq: impl Fn(&T) -> bool) -> usize {
    let n = rows.len();
    // Probe rows 0, 1, 3, 7, …: `known` rows are equal, the answer lies in [known, probe].
    let (mut known, mut step) = (0usize, 1usize);
    loop {
        let probe = known + step - 1;
        if probe >= n || !eq(&rows[probe]) {
            let end = probe.min(n);
            return known + rows[known..end].partition_point(&eq);
        }
        known = probe + 1;
        step *= 2;
    }
}

/// Marks the candidates (sorted) that occur in `run` (sorted), galloping from a cursor
/// that only moves forward.
fn mark_present<T: Ord>(run: &[T], cands: &[T], present: &mut [bool]) {
    let m = run.len();
    let mut p = 0usize;
    for (i, cand) in cands.iter().enumerate() {
        if present[i] {
            continue;
        }
        let mut step = 1usize;
        let mut hi = p;
        while hi < m && run[hi] < *cand {
            p = hi + 1;
            hi = p + step;
            step *= 2;
        }
        p += run[p..hi.min(m)].partition_point(|x| x < cand);
        if p >= m {
            return;
        }
        if run[p] == *cand {
            present[i] = true;
        }
    }
}

fn is_strictly_sorted(rows: &[u32], s: usize) -> bool {
    rows.chunks_exact(s).zip(rows.chunks_exact(s).skip(1)).all(|(a, b)| a < b)
}

/// Sorts a flat array of rows of width `stride` and removes duplicate rows.
pub fn sort_dedup(rows: &mut Vec<u32>, stride: usize) {
    macro_rules! fixed {
        ($n:literal) => {{
            let (chunks, _) = rows.as_chunks_mut::<$n>();
            chunks.sort_unstable();
            let mut w = 0;
            for r in 0..chunks.len() {
                if w == 0 || chunks[r] != chunks[w - 1] {
                    chunks[w] = chunks[r];
                    w += 1;
                }
            }
            rows.truncate(w * $n);
        }};
    }
    match stride {
        1 => {
            radsort::sort(rows);
            rows.dedup();
        }
        2 => {
            // Rows of two words sort fastest as one 64-bit radix key.
            let (chunks, _) = rows.as_chunks_mut::<2>();
            radsort::sort_by_key(chunks, |r| ((r[0] as u64) << 32) | r[1] as u64);
            let mut w = 0;
            for r in 0..chunks.len() {
                if w == 0 || chunks[r] != chunks[w - 1] {
                    chunks[w] = chunks[r];
                    w += 1;
                }
            }
            rows.truncate(w * 2);
        }
        3 => fixed!(3),
        4 => fixed!(4),
        5 => fixed!(5),
        6 => fixed!(6),
        7 => fixed!(7),
        8 => fixed!(8),
        _ => {
            let mut v: Vec<Vec<u32>> = rows.chunks_exact(stride).map(<[u32]>::to_vec).collect();
            v.sort_unstable();
            v.dedup();
            *rows = v.concat();
        }
    }
}

/// Merges two sorted, deduplicated flat runs of rows of width `s` into one.
pub fn merge_sorted(a: &[u32], b: &[u32], s: usize) -> Vec<u32> {
    merge(a, b, s)
}

/// Merges two sorted, deduplicated runs into one.
fn merge(a: &[u32], b: &[u32], s: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i..i + s].cmp(&b[j..j + s]) {
            Ordering::Less => {
                out.extend_from_slice(&a[i..i + s]);
                i += s;
            }
            Ordering::Greater => {
                out.extend_from_slice(&b[j..j + s]);
                j += s;
            }
            Ordering::Equal => {
                out.extend_from_slice(&a[i..i + s]);
                i += s;
                j += s;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// A relation: rows of `arity` words (nullary relations store one dummy word per row).
#[derive(Clone, Debug)]
pub struct Relation {
    stride: usize,
    len: usize,
    indexes: Vec<Index>,
}

impl Relation {
    /// An empty relation of the given arity, with its identity index.
    pub fn new(arity: usize) -> Self {
        let stride = arity.max(1);
        Relation { stride, len: 0, indexes: vec![Index::new((0..stride).collect(), stride)] }
    }

    /// Words per stored row (`max(arity, 1)`).
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Returns the id of the index with this permutation, creating (and filling) it if needed.
    pub fn index_for(&mut self, perm: &[usize]) -> usize {
        if let Some(i) = self.indexes.iter().position(|ix| ix.perm == perm) {
            return i;
        }
        let mut ix = Index::new(perm.to_vec(), self.stride);
        let all = self.rows();
        ix.add(&all);
        self.indexes.push(ix);
        self.indexes.len() - 1
    }

    /// An index by id.
    pub fn index_by_id(&self, i: usize) -> &Index {
        &self.indexes[i]
    }

    /// True if the row (relation column order) is present.
    pub fn contains(&self, row: &[u32]) -> bool {
        self.indexes[0].contains_prefix(row)
    }

    /// Keeps only the rows of `cands` (sorted, deduplicated, column order) not already present.
    ///
    /// Galloping search per run from a cursor that only moves forward: the candidates are
    /// sorted, so each run is walked once, in O(candidates · log(gap)).
    pub fn retain_new(&self, cands: &mut Vec<u32>) {
        let s = self.stride;
        let n = cands.len() / s;
        if n == 0 {
            return;
        }
        let mut present = vec![false; n];
        macro_rules! fixed {
            ($n:literal) => {{
                let (cs, _) = cands.as_chunks::<$n>();
                for run in &self.indexes[0].runs {
                    let (rs, _) = run.as_chunks::<$n>();
                    mark_present(rs, cs, &mut present);
                }
            }};
        }
        match s {
            1 => fixed!(1),
            2 => fixed!(2),
            3 => fixed!(3),
            4 => fixed!(4),
            _ => {
                let cs: Vec<&[u32]> = cands.chunks_exact(s).collect();
                for run in &self.indexes[0].runs {
                    let rs: Vec<&[u32]> = run.chunks_exact(s).collect();
                    mark_present(&rs, &cs, &mut present);
                }
            }
        }
        let mut w = 0;
        for (i, known) in present.iter().enumerate() {
            if !known {
                cands.copy_within(i * s..i * s + s, w * s);
                w += 1;
            }
        }
        cands.truncate(w * s);
    }

    /// Inserts rows that are known to be new, sorted and deduplicated (relation column order).
    pub fn insert_new(&mut self, rows: &[u32]) {
        self.len += rows.len() / self.stride;
        for ix in &mut self.indexes {
            ix.add(rows);
        }
    }

    /// Removes every row for which `drop` is true.
    pub fn remove_where(&mut self, mut drop: impl FnMut(&[u32]) -> bool) {
        let primary = &self.indexes[0];
        let mut doomed = vec![];
        primary.for_prefix(&[], |r| {
            if drop(r) {
                doomed.extend_from_slice(r);
            }
        });
        if doomed.is_empty() {
            return;
        }
        let s = self.stride;
        let doomed_rel = Relation::from_rows(s, &doomed);
        for ix in &mut self.indexes {
            let perm = ix.perm.clone();
            let mut row = vec![0u32; s];
            ix.retain(|r| {
                for (i, &c) in perm.iter().enumerate() {
                    row[c] = r[i];
                }
                !doomed_rel.contains(&row)
            });
        }
        self.len -= doomed.len() / s;
    }

    fn from_rows(stride: usize, rows: &[u32]) -> Relation {
        let mut r = Relation::new(stride);
        r.stride = stride;
        r.indexes = vec![Index::new((0..stride).collect(), stride)];
        r.insert_new(rows);
        r
    }

    /// All rows in identity order, sorted by word value (the primary index's runs, merged).
    pub fn rows(&self) -> Vec<u32> {
        let mut runs: Vec<Vec<u32>> = self.indexes[0].runs.clone();
        while runs.len() > 1 {
            let b = runs.pop().unwrap_or_default();
            let a = runs.pop().unwrap_or_default();
            runs.push(merge(&a, &b, self.stride));
        }
        runs.pop().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn equal_run_end_matches_a_binary_search() {
        for n in 0..70usize {
            for k in 0..=n {
                let rows: Vec<u32> = (0..n).map(|i| u32::from(i >= k)).collect();
                assert_eq!(equal_run_end(&rows, |x| *x == 0), k, "n={n} k={k}");
            }
        }
    }

    use super::*;

    #[test]
    fn prefix_lookup_spans_runs() {
        let mut r = Relation::new(2);
        r.insert_new(&[1, 2, 1, 3, 2, 1]);
        r.insert_new(&[1, 4]);
        let ix = r.index_for(&[1, 0]);
        let mut seen = vec![];
        r.index_by_id(ix).for_prefix(&[1], |row| seen.push(row.to_vec()));
        assert_eq!(seen, vec![vec![1, 2]]);
        let mut firsts = vec![];
        r.index_by_id(0).for_prefix(&[1], |row| firsts.push(row[1]));
        firsts.sort();
        assert_eq!(firsts, vec![2, 3, 4]);
        assert!(r.contains(&[1, 4]));
        assert!(!r.contains(&[4, 1]));
        let mut cands = vec![1, 0, 1, 2, 1, 4, 5, 5];
        r.retain_new(&mut cands);
        assert_eq!(cands, vec![1, 0, 5, 5]);
        r.remove_where(|row| row[0] == 1);
        assert_eq!(r.rows(), vec![2, 1]);
        assert_eq!(r.len(), 1);
    }

    #[test]
    fn wide_rows_sort_and_dedup() {
        let mut v = vec![3; 9];
        v.extend(vec![1; 9]);
        v.extend(vec![3; 9]);
        sort_dedup(&mut v, 9);
        assert_eq!(v.len(), 18);
        assert_eq!(v[0], 1);
    }
}
