//! The search index in the store (keyspace `search`), written in the same atomic batch
//! as a document's facts, so it always describes the facts stored (docs/SEARCH.md).
//!
//! | key | value |
//! |---|---|
//! | `n` | units u64 ‖ terms u64: totals over the store (BM25's N and average length) |
//! | `f` ‖ doc u32 ‖ unit key | JSON [`Unit`]: the unit's fact, terms, length, entities |
//! | `i` ‖ term ‖ 0x00 ‖ doc u32 ‖ unit key | tf u32 ‖ unit length u32 (a posting) |
//! | `e` ‖ entity ‖ 0x00 ‖ doc u32 ‖ unit key | — (the units naming an entity) |
//!
//! Terms hold no 0x00 (they are alphanumeric), so a prefix scan of `i` ‖ `laund` finds the
//! postings of every term starting so: stem-prefix matching is one range scan.

use std::collections::BTreeMap;

use crate::search_units::{UNIT_KEY, Unit};

use super::{Store, StoreError};

/// One posting: which unit holds a term, how often, and the unit's length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Posting {
    /// The indexed term (equal to, or extending, the term asked for).
    pub term: std::rc::Rc<str>,
    /// Document number.
    pub doc: u32,
    /// Unit key within the document.
    pub unit: [u8; UNIT_KEY],
    /// Occurrences of the term in the unit.
    pub tf: u32,
    /// The unit's length in terms.
    pub len: u32,
}

pub(crate) fn unit_entries(num: u32, u: &Unit) -> Result<crate::KeyValues, serde_json::Error> {
    let key = u.key();
    let mut out = vec![];
    let mut f = vec![b'f'];
    f.extend_from_slice(&num.to_be_bytes());
    f.extend_from_slice(&key);
    out.push((f, serde_json::to_vec(u)?));
    for (t, tf) in &u.terms {
        let mut k = vec![b'i'];
        k.extend_from_slice(t.as_bytes());
        k.push(0);
        k.extend_from_slice(&num.to_be_bytes());
        k.extend_from_slice(&key);
        let mut v = tf.to_be_bytes().to_vec();
        v.extend_from_slice(&u.len.to_be_bytes());
        out.push((k, v));
    }
    for e in &u.entities {
        let mut k = vec![b'e'];
        k.extend_from_slice(e.as_bytes());
        k.push(0);
        k.extend_from_slice(&num.to_be_bytes());
        k.extend_from_slice(&key);
        out.push((k, vec![]));
    }
    Ok(out)
}

impl Store {
    /// The units stored for document `num`, by key.
    pub(super) fn indexed_units(&self, num: u32) -> Result<BTreeMap<[u8; UNIT_KEY], Unit>, StoreError> {
        let mut p = vec![b'f'];
        p.extend_from_slice(&num.to_be_bytes());
        let mut out = BTreeMap::new();
        for kv in self.search.prefix(&p) {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            let key: [u8; UNIT_KEY] = k.get(5..).and_then(|s| s.try_into().ok()).ok_or_else(|| self.corrupt("search unit key".into()))?;
            let u: Unit = serde_json::from_slice(&v).map_err(|e| self.corrupt(format!("search unit: {e}")))?;
            out.insert(key, u);
        }
        Ok(out)
    }

    /// Adds to `batch` what turns document `num`'s stored units into `new`: only keys that
    /// differ are written or removed, and the totals move by the difference.
    pub(super) fn index_units(
        &self,
        batch: &mut fjall::OwnedWriteBatch,
        num: u32,
        old: &BTreeMap<[u8; UNIT_KEY], Unit>,
        new: &BTreeMap<[u8; UNIT_KEY], Unit>,
    ) -> Result<(), StoreError> {
        let bad = |e: serde_json::Error| self.corrupt(format!("search unit: {e}"));
        let mut before: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
        for u in old.values() {
            before.extend(unit_entries(num, u).map_err(bad)?);
        }
        let mut after: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
        for u in new.values() {
            after.extend(unit_entries(num, u).map_err(bad)?);
        }
        for k in before.keys().filter(|k| !after.contains_key(*k)) {
            batch.remove(&self.search, k.clone());
        }
        for (k, v) in &after {
            if before.get(k) != Some(v) {
                batch.insert(&self.search, k.clone(), v.clone());
            }
        }
        let (mut units, mut terms) = self.search_totals()?;
        units = units + new.len() as u64 - old.len() as u64;
        terms = terms + new.values().map(|u| u.len as u64).sum::<u64>() - old.values().map(|u| u.len as u64).sum::<u64>();
        let mut v = units.to_be_bytes().to_vec();
        v.extend_from_slice(&terms.to_be_bytes());
        batch.insert(&self.search, b"n".to_vec(), v);
        Ok(())
    }

    /// Whether the store has a search index (every store written by a tg with search has
    /// one from its first document on).
    pub fn has_search_index(&self) -> Result<bool, StoreError> {
        Ok(self.search.get(b"n").map_err(|e| self.err(e))?.is_some() || self.docs.is_empty().map_err(|e| self.err(e))?)
    }

    /// Units indexed and their total length in terms.
    pub fn search_totals(&self) -> Result<(u64, u64), StoreError> {
        match self.search.get(b"n").map_err(|e| self.err(e))? {
            Some(v) if v.len() == 16 => {
                let a = u64::from_be_bytes(v[..8].try_into().unwrap_or_default());
                let b = u64::from_be_bytes(v[8..].try_into().unwrap_or_default());
                Ok((a, b))
            }
            Some(_) => Err(self.corrupt("search totals".into())),
            None => Ok((0, 0)),
        }
    }

    /// The postings of `term` (with `prefix`, of every term starting with it), in key order.
    pub fn postings(&self, term: &str, prefix: bool) -> Result<Vec<Posting>, StoreError> {
        let mut p = vec![b'i'];
        p.extend_from_slice(term.as_bytes());
        if !prefix {
            p.push(0);
        }
        let mut out: Vec<Posting> = vec![];
        for kv in self.search.prefix(&p) {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            let tail = k.len().checked_sub(4 + UNIT_KEY + 1).ok_or_else(|| self.corrupt("posting key".into()))?;
            if k.get(tail) != Some(&0) || v.len() != 8 {
                return Err(self.corrupt("posting key".into()));
            }
            // Postings of one term share its text (one allocation per term, not per posting).
            let t = match out.last() {
                Some(last) if last.term.as_bytes() == &k[1..tail] => last.term.clone(),
                _ => std::rc::Rc::from(String::from_utf8_lossy(&k[1..tail]).as_ref()),
            };
            let doc = u32::from_be_bytes(k[tail + 1..tail + 5].try_into().unwrap_or_default());
            let unit: [u8; UNIT_KEY] = k[tail + 5..].try_into().unwrap_or([0; UNIT_KEY]);
            let tf = u32::from_be_bytes(v[..4].try_into().unwrap_or_default());
            let len = u32::from_be_bytes(v[4..].try_into().unwrap_or_default());
            out.push(Posting { term: t, doc, unit, tf, len });
        }
        Ok(out)
    }

    /// The units naming an entity key: (document number, unit key), in key order.
    pub fn entity_units(&self, entity: &str) -> Result<Vec<(u32, [u8; UNIT_KEY])>, StoreError> {
        let mut p = vec![b'e'];
        p.extend_from_slice(entity.as_bytes());
        p.push(0);
        let mut out = vec![];
        for kv in self.search.prefix(&p) {
            let k = kv.key().map_err(|e| self.err(e))?;
            let tail = &k[p.len()..];
            if tail.len() != 4 + UNIT_KEY {
                return Err(self.corrupt("entity unit key".into()));
            }
            out.push((u32::from_be_bytes(tail[..4].try_into().unwrap_or_default()), tail[4..].try_into().unwrap_or([0; UNIT_KEY])));
        }
        Ok(out)
    }

    /// One indexed unit.
    pub fn indexed_unit(&self, doc: u32, unit: &[u8; UNIT_KEY]) -> Result<Option<Unit>, StoreError> {
        let mut k = vec![b'f'];
        k.extend_from_slice(&doc.to_be_bytes());
        k.extend_from_slice(unit);
        match self.search.get(&k).map_err(|e| self.err(e))? {
            Some(v) => serde_json::from_slice(&v).map(Some).map_err(|e| self.corrupt(format!("search unit: {e}"))),
            None => Ok(None),
        }
    }

    /// Every indexed unit of the store, by document number and key (for in-memory use: topics, the GQL view).
    pub fn all_units(&self) -> Result<Vec<(u32, Unit)>, StoreError> {
        let mut out = vec![];
        for kv in self.search.prefix(b"f") {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            let doc = k.get(1..5).and_then(|s| s.try_into().ok()).map(u32::from_be_bytes).ok_or_else(|| self.corrupt("search unit key".into()))?;
            let u: Unit = serde_json::from_slice(&v).map_err(|e| self.corrupt(format!("search unit: {e}")))?;
            out.push((doc, u));
        }
        Ok(out)
    }

    /// The id of a document number.
    pub fn doc_id(&self, num: u32) -> Result<Option<String>, StoreError> {
        Ok(self.doc_num.get(num.to_be_bytes()).map_err(|e| self.err(e))?.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    /// The canonical text of a document number.
    pub fn text_of(&self, num: u32) -> Result<Option<String>, StoreError> {
        Ok(self.text.get(num.to_be_bytes()).map_err(|e| self.err(e))?.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }
}
