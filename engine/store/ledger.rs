//! The ledger: records from outside the corpus (claims of outside extractors, audit
//! verdicts) that must outlive every rebuild, and the one write that adds their facts to
//! a stored document.
//!
//! Facts are owned by documents: `put_document` replaces a document's supports and
//! `retract_document` removes them. Outside records cannot live only as supports, or a
//! changed file would erase them. So they are kept twice: as a *ledger record* (key →
//! JSON, untouched by `put_document` and `retract_document`), which is the source of
//! truth, and as GENERATED supports of the document they cite, which are what rules,
//! dumps and exports see. Whoever writes a document (ingest) asks the ledger's owner
//! (`claims`) for the facts of its records against the new text and writes them in the
//! same batch; [`Store::amend_document`] writes a new record and its facts into an
//! already stored document, also in one batch.
//!
//! Keys are chosen by the caller; `claims` uses `doc ‖ 0x00 ‖ kind ‖ 0x00 ‖ id`, so
//! [`Store::ledger_records`] with the prefix `doc ‖ 0x00` lists one document's records.

use std::collections::{BTreeMap, HashMap};

use super::keys::{doc_index_key, fact_key, support_key};
use super::{CitedFact, NewSymbols, Store, StoreError, Tag, check_facts};

/// One change to the ledger, written in the same batch as the facts it goes with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LedgerWrite<'a> {
    /// Stores (or replaces) a record: key, JSON value.
    Put(&'a str, &'a str),
    /// Removes a record.
    Remove(&'a str),
}

/// A support to add: the length of its fact key (a prefix of the support key), its tag
/// and the blake3 of the cited bytes.
type NewSupport = (usize, Tag, [u8; 32]);

impl Store {
    /// Ledger records whose keys start with `prefix`, in key order: (key, value).
    pub fn ledger_records(&self, prefix: &str) -> Result<Vec<(String, String)>, StoreError> {
        let mut out = vec![];
        for kv in self.ledger.prefix(prefix) {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            out.push((String::from_utf8_lossy(&k).into_owned(), String::from_utf8_lossy(&v).into_owned()));
        }
        Ok(out)
    }

    /// Writes ledger records without touching any fact (a record whose document is gone).
    pub fn write_ledger(&self, writes: &[LedgerWrite]) -> Result<(), StoreError> {
        let mut batch = self.db.batch();
        self.ledger_ops(&mut batch, writes);
        batch.commit().map_err(|e| self.err(e))
    }

    fn ledger_ops(&self, batch: &mut fjall::OwnedWriteBatch, writes: &[LedgerWrite]) {
        for w in writes {
            match *w {
                LedgerWrite::Put(k, v) => batch.insert(&self.ledger, k, v),
                LedgerWrite::Remove(k) => batch.remove(&self.ledger, k),
            }
        }
    }

    /// Adds supports to (and removes GENERATED supports from) a stored document, and
    /// writes ledger records, in one atomic batch.
    ///
    /// An added support that already exists is left as it is (its tag is never
    /// weakened, its count not doubled); only GENERATED supports can be removed, so
    /// nothing an outside record does can take away what the document's extraction
    /// found. Spans are checked against the stored canonical text as in
    /// [`Store::put_document`]; a document that is not stored is [`StoreError::NoDocument`].
    pub fn amend_document(&self, doc: &str, add: &[CitedFact], remove: &[CitedFact], ledger: &[LedgerWrite]) -> Result<(), StoreError> {
        let rec = self.document(doc)?.ok_or_else(|| StoreError::NoDocument { doc: doc.into() })?;
        let text = self.text(doc)?.ok_or_else(|| StoreError::NoDocument { doc: doc.into() })?;
        let schemas = self.schemas()?;
        check_facts(&schemas, doc, &text, add)?;
        check_facts(&schemas, doc, &text, remove)?;
        let mut batch = self.db.batch();
        let mut symbols = NewSymbols::start(self)?;
        // support key → Some((fact key length, tag, hash)) to add, None to remove.
        let mut wanted: BTreeMap<Vec<u8>, Option<NewSupport>> = BTreeMap::new();
        // Claim supports → their fact, for the search index (issue 22).
        let mut claim_of: BTreeMap<Vec<u8>, &CitedFact> = BTreeMap::new();
        for f in remove {
            let Some(words) = self.encode(&f.args)? else { continue };
            let fk = fact_key(schemas[&f.rel].id, &words);
            for &(a, b) in &f.spans {
                wanted.insert(support_key(&fk, rec.num, a, b), None);
                if crate::search_units::is_unit(&f.rel) {
                    claim_of.insert(support_key(&fk, rec.num, a, b), f);
                }
            }
        }
        for f in add {
            let fk = fact_key(schemas[&f.rel].id, &symbols.words(self, &f.args)?);
            for &(a, b) in &f.spans {
                let hash = *blake3::hash(&text.as_bytes()[a as usize..b as usize]).as_bytes();
                let sk = support_key(&fk, rec.num, a, b);
                if crate::search_units::is_unit(&f.rel) {
                    claim_of.insert(sk.clone(), f);
                }
                match wanted.get(&sk) {
                    // Removed and added again: nothing changes.
                    Some(None) => {
                        wanted.remove(&sk);
                    }
                    Some(Some(_)) => {}
                    None => {
                        wanted.insert(sk, Some((fk.len(), f.tag, hash)));
                    }
                }
            }
        }
        let mut counts: HashMap<Vec<u8>, (Option<Tag>, i64)> = HashMap::new();
        let old_units = self.indexed_units(rec.num)?;
        let mut new_units = old_units.clone();
        let analyzer = tg_text::terms::Analyzer::default();
        for (sk, what) in wanted {
            let existing = self.support.get(&sk).map_err(|e| self.err(e))?;
            let (a, b) = super::span_of(&sk);
            let unit = claim_of.get(&sk).and_then(|f| {
                let span = crate::search_units::FactSpan { rel: &f.rel, args: &f.args, start: a, end: b };
                crate::search_units::unit(&analyzer, &text, &span, &[])
            });
            match (&what, &existing) {
                (Some(_), None) => {
                    if let Some(u) = unit {
                        new_units.insert(u.key(), u);
                    }
                }
                (None, Some(v)) if v.first() == Some(&Tag::Generated.byte()) => {
                    if let Some(u) = unit {
                        new_units.remove(&u.key());
                    }
                }
                _ => {}
            }
            match (what, existing) {
                (Some((flen, tag, hash)), None) => {
                    let fk = sk[..flen].to_vec();
                    let mut val = vec![tag.byte()];
                    val.extend_from_slice(&hash);
                    batch.insert(&self.support, sk.clone(), val);
                    batch.insert(&self.doc_idx, doc_index_key(&fk, rec.num, a, b), []);
                    let e = counts.entry(fk).or_insert((None, 0));
                    e.0 = Some(e.0.map_or(tag, |t| t.min(tag)));
                    e.1 += 1;
                }
                (None, Some(v)) if v.first() == Some(&Tag::Generated.byte()) => {
                    let fk = sk[..sk.len() - 20].to_vec();
                    batch.remove(&self.support, sk.clone());
                    batch.remove(&self.doc_idx, doc_index_key(&fk, rec.num, a, b));
                    counts.entry(fk).or_insert((None, 0)).1 -= 1;
                }
                _ => {}
            }
        }
        symbols.write(self, &mut batch);
        self.write_counts(&mut batch, counts)?;
        self.index_units(&mut batch, rec.num, &old_units, &new_units)?;
        self.ledger_ops(&mut batch, ledger);
        batch.commit().map_err(|e| self.err(e))
    }
}
