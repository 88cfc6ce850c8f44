//! Writing a large document from facts produced in pieces (issue 19, bounded memory).
//!
//! A [`FactSource`] gives a document's facts piece by piece, the same facts in the same
//! order each time it is asked, so the store never needs them in memory at once: it reads
//! the source once to check every fact and count the supports, and, for a document of
//! more than the batch size, once more to write the supports and the search units in
//! batches (`Store::put_document_staged`). A source whose facts are made as they are given
//! ([`FactSource::once`]: a large document's extraction) is read only once, each piece
//! checked before it is written; a piece that fails takes the document out again. A
//! document that fits one batch is collected and written as before (`Store::put_document`).
//!
//! Staged writes keep the all-or-nothing promise with the pending mark: the record, text
//! and mark go first, then the old version's supports and search units out, then the new
//! supports with the claims' units, then the chunks' units (they name the entities
//! mentioned in them; written as soon as a [`Piece::Settled`] mark settles them, else
//! last), and the last batch removes the mark. Every batch keeps the support
//! counts, the dictionary, the change log and the search totals consistent.
//! Because the supports are written in the order the source gives them (the batch rule is
//! the same greedy one over the whole sequence), symbol ids, and so the whole store, come
//! out as a single-batch write of the concatenated facts leaves them.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use tg_text::terms::Analyzer;

use super::{CitedFact, NewDocument, NewSymbols, RelSchema, Store, StoreError, Supports, Tag, Value, check_facts, doc_index_key, fact_key, span_of, support_key};
use crate::search_units::{self, FactSpan, UNIT_KEY, Unit};

/// A document's facts, produced in pieces. [`FactSource::each`] must give the same facts
/// in the same order every time it is called: the store calls it up to three times.
pub trait FactSource {
    /// Calls `emit` with every fact, a piece at a time; stops at the first error `emit`
    /// (or producing the facts) returns.
    fn each(&self, emit: &mut dyn FnMut(&[CitedFact]) -> Result<(), StoreError>) -> Result<(), StoreError>;

    /// Whether the facts are made as they are given (a large document's extraction, block
    /// by block): the store then asks for them once, checking and writing each piece as
    /// it comes ([`Store::put_document_from`]), so they are never all in memory.
    fn once(&self) -> bool {
        false
    }

    /// The facts of [`FactSource::each`], with [`Piece::Settled`] marks between them where
    /// the source knows one (none by default): a staged write then writes the search
    /// units of the chunks the mark settles and forgets the mentions they needed.
    fn each_piece(&self, emit: &mut dyn FnMut(Piece) -> Result<(), StoreError>) -> Result<(), StoreError> {
        self.each(&mut |facts| emit(Piece::Facts(facts)))
    }
}

/// What [`FactSource::each_piece`] gives.
pub enum Piece<'a> {
    /// Facts, in the source's order.
    Facts(&'a [CitedFact]),
    /// Every chunk has been given and no mention still to come begins before this byte:
    /// the chunks that end at or before it have all their mentions (a large document's
    /// extraction gives one after each block but the last, at the next block's start).
    Settled(u64),
}

impl FactSource for &[CitedFact] {
    fn each(&self, emit: &mut dyn FnMut(&[CitedFact]) -> Result<(), StoreError>) -> Result<(), StoreError> {
        emit(self)
    }
}

impl FactSource for Vec<CitedFact> {
    fn each(&self, emit: &mut dyn FnMut(&[CitedFact]) -> Result<(), StoreError>) -> Result<(), StoreError> {
        emit(self)
    }
}

/// Supports gathered for one batch of a staged write.
struct Pending {
    symbols: NewSymbols,
    after: Supports,
    spans: usize,
}

/// The mention spans of a document and their entity keys (interned), for the entities
/// of its chunk units: those a chunk still to be written may hold (see [`Piece::Settled`]).
#[derive(Default)]
struct Mentions {
    keys: BTreeMap<String, u32>,
    /// (start, end, key): offsets fit 32 bits (files are at most 256 MiB).
    spans: Vec<(u32, u32, u32)>,
}

impl Mentions {
    fn add(&mut self, start: u64, end: u64, key: &str) {
        let k = match self.keys.get(key) {
            Some(&k) => k,
            None => {
                let next = self.keys.len() as u32;
                self.keys.insert(key.to_string(), next);
                next
            }
        };
        self.spans.push((start as u32, end as u32, k));
    }

    /// The keys by number.
    fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = vec![""; self.keys.len()];
        for (k, &i) in &self.keys {
            names[i as usize] = k.as_str();
        }
        names
    }

    /// The mentions inside `[start, end]` as `search_units::unit` reads them (the spans
    /// sorted).
    fn inside(&self, names: &[&str], start: u64, end: u64) -> Vec<(u64, u64, String)> {
        let from = self.spans.partition_point(|m| u64::from(m.0) < start);
        self.spans[from..]
            .iter()
            .take_while(|m| u64::from(m.0) <= end)
            .filter(|m| u64::from(m.1) <= end)
            .map(|m| (u64::from(m.0), u64::from(m.1), names[m.2 as usize].to_string()))
            .collect()
    }

    /// Forgets the mentions that begin before `start`, and the keys only they had (the
    /// spans sorted).
    fn forget_before(&mut self, start: u64) {
        let from = self.spans.partition_point(|m| u64::from(m.0) < start);
        self.spans.drain(..from);
        let mut old: Vec<String> = vec![String::new(); self.keys.len()];
        for (k, i) in std::mem::take(&mut self.keys) {
            old[i as usize] = k;
        }
        let mut new_id = vec![u32::MAX; old.len()];
        for m in &mut self.spans {
            let i = m.2 as usize;
            if new_id[i] == u32::MAX {
                new_id[i] = self.keys.len() as u32;
                self.keys.insert(std::mem::take(&mut old[i]), new_id[i]);
            }
            m.2 = new_id[i];
        }
        self.spans.shrink_to(self.spans.len() * 2);
    }
}

/// The chunks of a staged write whose units are not written yet, with the mentions they
/// may hold.
#[derive(Default)]
struct PendingChunks {
    chunks: Vec<CitedFact>,
    mentions: Mentions,
    /// The last [`Piece::Settled`] mark: no chunk nor earlier mention may come after it.
    settled: Option<u64>,
}

impl PendingChunks {
    /// Takes a chunk or a mention of the source; one the last mark says cannot come is an
    /// error (a source breaking [`Piece::Settled`]'s promise would lose units' entities).
    fn take(&mut self, f: &CitedFact) -> Result<(), StoreError> {
        let broken = |what: &str| StoreError::Schema { rel: f.rel.clone(), detail: format!("{what} given after the source said it was settled") };
        if f.rel == "chunk" {
            if self.settled.is_some() {
                return Err(broken("a chunk"));
            }
            self.chunks.push(f.clone());
        } else if f.rel == "mention" {
            let key = match f.args.get(1) {
                Some(Value::Sym(s)) => s.clone(),
                Some(Value::Num(n)) => n.to_string(),
                None => String::new(),
            };
            for &(a, b) in &f.spans {
                if self.settled.is_some_and(|x| a < x) {
                    return Err(broken("a mention"));
                }
                self.mentions.add(a, b, &key);
            }
        }
        Ok(())
    }

    /// Writes the units of the chunks that end at or before `upto` (every chunk for
    /// `None`) and forgets what no chunk left needs.
    fn write(&mut self, store: &Store, units: &mut UnitWriter, text: &str, num: u32, upto: Option<u64>) -> Result<(), StoreError> {
        self.mentions.spans.sort_unstable();
        let names = self.mentions.names();
        let ends = |f: &CitedFact| f.spans.iter().map(|s| s.1).max().unwrap_or(0);
        let (now, later): (Vec<CitedFact>, Vec<CitedFact>) = std::mem::take(&mut self.chunks).into_iter().partition(|f| upto.is_none_or(|x| ends(f) <= x));
        for f in &now {
            units.add(store, text, num, f, &self.mentions, &names)?;
        }
        drop(names);
        self.chunks = later;
        // After the last chunks (no mark) nothing is read again.
        if let Some(x) = upto {
            let first = self.chunks.iter().flat_map(|f| f.spans.iter().map(|s| s.0)).min().unwrap_or(u64::MAX);
            self.mentions.forget_before(first);
            self.settled = Some(x);
        }
        Ok(())
    }
}

impl Store {
    /// Stores a document whose facts come from `facts` in pieces: as
    /// [`Store::put_document`] (the same checks, the same store afterwards), but a document
    /// of more than a batch's supports is never held as one vector of facts. Returns the
    /// number of facts the source gave.
    pub fn put_document_from(&self, doc: &NewDocument, facts: &dyn FactSource) -> Result<usize, StoreError> {
        let schemas = self.schemas()?;
        if facts.once() {
            // Read once: checked as written; a piece that fails its checks takes the
            // document out again, so nothing of it stays.
            let old = self.document(doc.id)?;
            let num = match &old {
                Some(r) => r.num,
                None => self.next_doc_num()?,
            };
            return match self.put_document_staged(doc, facts, &schemas, old.is_some(), num, false) {
                Ok(n) => Ok(n),
                Err(e) => {
                    self.retract_document(doc.id)?;
                    Err(e)
                }
            };
        }
        let (mut count, mut supports) = (0usize, 0usize);
        facts.each(&mut |piece| {
            check_facts(&schemas, doc.id, doc.text, piece)?;
            count += piece.len();
            supports += piece.iter().map(|f| f.spans.len()).sum::<usize>();
            Ok(())
        })?;
        let old = self.document(doc.id)?;
        let num = match &old {
            Some(r) => r.num,
            None => self.next_doc_num()?,
        };
        if supports > self.batch_supports {
            self.put_document_staged(doc, facts, &schemas, old.is_some(), num, true)?;
        } else {
            let mut all = Vec::with_capacity(count);
            facts.each(&mut |piece| {
                all.extend_from_slice(piece);
                Ok(())
            })?;
            self.put_document_whole(doc, &all, &schemas, old.as_ref().map(|r| r.num), num)?;
        }
        Ok(count)
    }

    /// Writes a large document in batches of at most the batch size's supports (see the
    /// module doc), reading `facts` once (`checked`: their checks already passed, else
    /// each piece is checked before it is written). Returns the number of facts. A write
    /// that was interrupted leaves the pending mark: `tg build` writes the document again
    /// and `tg verify` reports it.
    pub(super) fn put_document_staged(
        &self,
        doc: &NewDocument,
        facts: &dyn FactSource,
        schemas: &BTreeMap<String, RelSchema>,
        existed: bool,
        num: u32,
        checked: bool,
    ) -> Result<usize, StoreError> {
        let mark = format!("setting:{}{}", super::PENDING_PREFIX, doc.id);
        let mut batch = self.db.batch();
        batch.insert(&self.meta, mark.as_str(), []);
        self.write_record(&mut batch, doc, num)?;
        batch.commit().map_err(|e| self.err(e))?;
        if existed {
            self.remove_old_supports(num)?;
            self.remove_old_units(num)?;
        }
        // The new supports, a batch at a time, in the source's order, and the search units
        // of its claims; the chunks and mentions kept for the chunks' units, which name the
        // entities mentioned in them (written when a mark settles them, else last).
        let mut pending = PendingChunks::default();
        let mut units = UnitWriter::start(self)?;
        let mut count = 0usize;
        let mut cur = Pending { symbols: NewSymbols::start(self)?, after: BTreeMap::new(), spans: 0 };
        facts.each_piece(&mut |piece| {
            let piece = match piece {
                Piece::Facts(p) => p,
                Piece::Settled(x) => return pending.write(self, &mut units, doc.text, num, Some(x)),
            };
            if !checked {
                check_facts(schemas, doc.id, doc.text, piece)?;
            }
            count += piece.len();
            for f in piece {
                if search_units::is_unit(&f.rel) && f.rel != "chunk" {
                    units.add(self, doc.text, num, f, &Mentions::default(), &[])?;
                }
                pending.take(f)?;
                if cur.spans > 0 && cur.spans + f.spans.len() > self.batch_supports {
                    let full = std::mem::replace(&mut cur, Pending { symbols: NewSymbols { next: 0, fresh: BTreeMap::new() }, after: BTreeMap::new(), spans: 0 });
                    self.write_supports(num, full)?;
                    cur.symbols = NewSymbols::start(self)?;
                }
                let schema = schemas.get(&f.rel).ok_or_else(|| StoreError::Schema { rel: f.rel.clone(), detail: "relation not declared".into() })?;
                let fk = fact_key(schema.id, &cur.symbols.words(self, &f.args)?);
                for &(a, b) in &f.spans {
                    let hash = *blake3::hash(&doc.text.as_bytes()[a as usize..b as usize]).as_bytes();
                    let entry = cur.after.entry(support_key(&fk, num, a, b)).or_insert((fk.len(), f.tag, hash));
                    entry.1 = entry.1.min(f.tag);
                }
                cur.spans += f.spans.len();
            }
            Ok(())
        })?;
        if cur.spans > 0 {
            self.write_supports(num, cur)?;
        }
        pending.write(self, &mut units, doc.text, num, None)?;
        let mut batch = units.finish(self);
        batch.remove(&self.meta, mark);
        batch.commit().map_err(|e| self.err(e))?;
        Ok(count)
    }

    /// The old version's supports out, a batch at a time.
    fn remove_old_supports(&self, num: u32) -> Result<(), StoreError> {
        loop {
            let mut keys = vec![];
            for kv in self.doc_idx.prefix(num.to_be_bytes()).take(self.batch_supports) {
                keys.push(kv.key().map_err(|e| self.err(e))?.to_vec());
            }
            if keys.is_empty() {
                return Ok(());
            }
            let mut batch = self.db.batch();
            let mut counts: HashMap<Vec<u8>, (Option<Tag>, i64)> = HashMap::new();
            for ik in keys {
                if ik.len() < 4 + 2 + 16 {
                    return Err(self.corrupt("document index key too short".into()));
                }
                let fk = ik[4..ik.len() - 16].to_vec();
                let (a, b) = span_of(&ik);
                batch.remove(&self.support, support_key(&fk, num, a, b));
                batch.remove(&self.doc_idx, ik);
                counts.entry(fk).or_insert((None, 0)).1 -= 1;
            }
            self.write_counts(&mut batch, counts)?;
            batch.commit().map_err(|e| self.err(e))?;
        }
    }

    /// One batch of new supports; a support an earlier batch wrote is counted once.
    fn write_supports(&self, num: u32, p: Pending) -> Result<(), StoreError> {
        let mut batch = self.db.batch();
        let mut counts: HashMap<Vec<u8>, (Option<Tag>, i64)> = HashMap::new();
        for (sk, (flen, tag, hash)) in p.after {
            let fk = sk[..flen].to_vec();
            let (a, b) = span_of(&sk);
            let written = self.support.get(&sk).map_err(|e| self.err(e))?;
            let tag = match written.as_ref().and_then(|v| v.first()).and_then(|b| Tag::from_byte(*b)) {
                Some(t) => t.min(tag),
                None => tag,
            };
            let mut val = vec![tag.byte()];
            val.extend_from_slice(&hash);
            let e = counts.entry(fk.clone()).or_insert((None, 0));
            e.0 = Some(e.0.map_or(tag, |t| t.min(tag)));
            if written.is_none() {
                batch.insert(&self.doc_idx, doc_index_key(&fk, num, a, b), []);
                e.1 += 1;
            }
            batch.insert(&self.support, sk, val);
        }
        p.symbols.write(self, &mut batch);
        self.write_counts(&mut batch, counts)?;
        batch.commit().map_err(|e| self.err(e))
    }

    /// The old version's search units out, a batch at a time, the totals following.
    fn remove_old_units(&self, num: u32) -> Result<(), StoreError> {
        let mut p = vec![b'f'];
        p.extend_from_slice(&num.to_be_bytes());
        loop {
            let mut old: Vec<Unit> = vec![];
            for kv in self.search.prefix(&p).take(self.batch_supports.div_ceil(8)) {
                let (_, v) = kv.into_inner().map_err(|e| self.err(e))?;
                old.push(serde_json::from_slice(&v).map_err(|e| self.corrupt(format!("search unit: {e}")))?);
            }
            if old.is_empty() {
                return Ok(());
            }
            let mut batch = self.db.batch();
            let (units, terms) = self.search_totals()?;
            for u in &old {
                for (k, _) in crate::search_index::unit_entries(num, u).map_err(|e| self.corrupt(format!("search unit: {e}")))? {
                    batch.remove(&self.search, k);
                }
            }
            let gone_terms: u64 = old.iter().map(|u| u.len as u64).sum();
            self.put_totals(&mut batch, units.saturating_sub(old.len() as u64), terms.saturating_sub(gone_terms));
            batch.commit().map_err(|e| self.err(e))?;
        }
    }

    /// Sets the search totals (units, terms) in a batch.
    fn put_totals(&self, batch: &mut fjall::OwnedWriteBatch, units: u64, terms: u64) {
        let mut v = units.to_be_bytes().to_vec();
        v.extend_from_slice(&terms.to_be_bytes());
        batch.insert(&self.search, b"n".to_vec(), v);
    }
}

/// The search units of a staged write (its chunk and claim spans), written a batch at a
/// time as their facts come; a unit an earlier batch wrote is written and counted once.
struct UnitWriter {
    an: Analyzer,
    batch: fjall::OwnedWriteBatch,
    in_batch: BTreeSet<[u8; UNIT_KEY]>,
    entries: usize,
    units: u64,
    terms: u64,
    base_units: u64,
    base_terms: u64,
}

impl UnitWriter {
    fn start(store: &Store) -> Result<UnitWriter, StoreError> {
        let (base_units, base_terms) = store.search_totals()?;
        Ok(UnitWriter { an: Analyzer::default(), batch: store.db.batch(), in_batch: BTreeSet::new(), entries: 0, units: 0, terms: 0, base_units, base_terms })
    }

    /// The units of fact `f` (a chunk's naming the entities of `mentions` inside it).
    fn add(&mut self, store: &Store, text: &str, num: u32, f: &CitedFact, mentions: &Mentions, names: &[&str]) -> Result<(), StoreError> {
        for &(a, b) in &f.spans {
            let inside = if f.rel == "chunk" { mentions.inside(names, a, b) } else { vec![] };
            let Some(u) = search_units::unit(&self.an, text, &FactSpan { rel: &f.rel, args: &f.args, start: a, end: b }, &inside) else { continue };
            let key = u.key();
            let mut fk = vec![b'f'];
            fk.extend_from_slice(&num.to_be_bytes());
            fk.extend_from_slice(&key);
            if self.in_batch.contains(&key) || store.search.get(&fk).map_err(|e| store.err(e))?.is_some() {
                continue;
            }
            let kvs = crate::search_index::unit_entries(num, &u).map_err(|e| store.corrupt(format!("search unit: {e}")))?;
            self.entries += kvs.len();
            for (k, v) in kvs {
                self.batch.insert(&store.search, k, v);
            }
            self.in_batch.insert(key);
            self.units += 1;
            self.terms += u.len as u64;
            if self.entries >= store.batch_supports.max(1) {
                store.put_totals(&mut self.batch, self.base_units + self.units, self.base_terms + self.terms);
                std::mem::replace(&mut self.batch, store.db.batch()).commit().map_err(|e| store.err(e))?;
                self.in_batch.clear();
                self.entries = 0;
            }
        }
        Ok(())
    }

    /// The last batch, with the totals (the caller commits it).
    fn finish(mut self, store: &Store) -> fjall::OwnedWriteBatch {
        store.put_totals(&mut self.batch, self.base_units + self.units, self.base_terms + self.terms);
        self.batch
    }
}
