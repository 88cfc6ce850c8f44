//! The persistent fact base: one fjall database per case.
//!
//! It holds each document's canonical text and hashes, the symbol dictionary,
//! relation schemas, and facts with their *supports* — the document spans
//! `(doc, start, end)` that assert them, each with a tag and the blake3 of the
//! cited bytes. Writes go through one fjall batch per document, so a document's
//! facts are all present or all absent whatever happens to the process.
//!
//! Key layout (all integers big-endian, so byte order is numeric order; see
//! docs/ARCHITECTURE.md "Store layout"):
//!
//! | keyspace | key | value |
//! |---|---|---|
//! | `meta` | `format`, `manifest`, `derived_by`, `derivation`, `setting:NAME` | format string ([`FORMAT`]); last build's manifest; derivation epoch and manifest (below); settings |
//! | `docs` | doc id (UTF-8) | JSON [`DocRecord`] |
//! | `doc_num` | doc number u32 | doc id |
//! | `text` | doc number u32 | canonical text |
//! | `dict` / `dict_rev` | symbol text (the empty symbol: byte 0xFF) / id u32 | id u32 / symbol text |
//! | `rels` | relation name | JSON [`RelSchema`] |
//! | `facts` | rel u16 ‖ words | tag u8 ‖ support count u32 |
//! | `support` | rel u16 ‖ words ‖ doc u32 ‖ start u64 ‖ end u64 | tag u8 ‖ blake3 of the span |
//! | `doc_idx` | doc u32 ‖ rel u16 ‖ words ‖ start u64 ‖ end u64 | — |
//! | `derived` | rel u16 ‖ words | JSON [`Derivation`] (round, rule hash, body facts) |
//! | `rules` | rule hash (hex) | rule text |
//! | `changes` | rel u16 ‖ words | u8: 1 if the fact existed at the last derivation epoch |
//! | `ledger` | record key (UTF-8, see `ledger.rs`) | record (JSON): claims and verdicts from outside extractors, kept across rebuilds |
//!
//! `meta/derived_by` names the program (a hash of its rules and relations) whose
//! results the `derived` keyspace holds. While it is set, every fact that appears or
//! disappears records its state as of that epoch in `changes`, so the next derivation
//! with the same program maintains its results from the changes alone.

#![forbid(unsafe_code)]

mod analytics_layer;
mod check;
mod error;
mod export;
mod keys;
mod ledger;
pub mod output;
pub mod packed;
mod search_index;
pub mod search_units;
mod stream;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use fjall::{Database, Keyspace, KeyspaceCreateOptions};
use serde::{Deserialize, Serialize};

pub use error::StoreError;
pub use export::fact_id;
use keys::{doc_index_key, fact_key, split_fact_key, support_key};
pub use ledger::LedgerWrite;
pub use packed::{Arg, PackedFacts};
pub use search_index::Posting;
pub use stream::{FactSource, Piece};

/// Raw key/value pairs of a keyspace, in key order.
type KeyValues = Vec<(Vec<u8>, Vec<u8>)>;

/// Support key → (fact key length, lowest tag, blake3 of the cited bytes).
type Supports = BTreeMap<Vec<u8>, (usize, Tag, [u8; 32])>;

/// The on-disk format this build reads and writes.
pub const FORMAT: &str = "textgraph-store/1";

/// The format of documents that are not corpus files but graph scripts stored by
/// `tg load`: a build keeps them and `tg verify` re-hashes no source file for them.
pub const SCRIPT_FORMAT: &str = "cypher-script";

/// How a fact came to be: the four trust tags of the project.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Tag {
    /// Read off the document's structure (sections, links, records).
    Structural,
    /// Extracted from the text by deterministic rules.
    Extracted,
    /// Derived by rules from other facts.
    Inferred,
    /// Written by an external model: never ground truth.
    Generated,
}

impl Tag {
    fn byte(self) -> u8 {
        match self {
            Tag::Structural => 1,
            Tag::Extracted => 2,
            Tag::Inferred => 3,
            Tag::Generated => 4,
        }
    }

    fn from_byte(b: u8) -> Option<Tag> {
        Some(match b {
            1 => Tag::Structural,
            2 => Tag::Extracted,
            3 => Tag::Inferred,
            4 => Tag::Generated,
            _ => return None,
        })
    }

    /// Upper-case name, as printed in dumps.
    pub fn name(self) -> &'static str {
        match self {
            Tag::Structural => "STRUCTURAL",
            Tag::Extracted => "EXTRACTED",
            Tag::Inferred => "INFERRED",
            Tag::Generated => "GENERATED",
        }
    }
}

/// The type of one column of a stored relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ColumnType {
    /// Text, interned in the store's dictionary.
    Symbol,
    /// Signed 32-bit integer.
    Number,
}

/// A relation's schema as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelSchema {
    /// Relation id used in keys.
    pub id: u16,
    /// Column types.
    pub columns: Vec<ColumnType>,
}

/// One value of a fact.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Value {
    /// A symbol.
    Sym(String),
    /// A number.
    Num(i32),
}

/// A fact to store, with the spans of its document that assert it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CitedFact {
    /// Relation name (must have been declared with [`Store::declare`]).
    pub rel: String,
    /// Arguments.
    pub args: Vec<Value>,
    /// Trust tag.
    pub tag: Tag,
    /// Byte spans `[start, end)` of the document's canonical text.
    pub spans: Vec<(u64, u64)>,
}

/// What the store records about a document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocRecord {
    /// Number used in keys.
    pub num: u32,
    /// Path of the source file, relative to the corpus root.
    pub source: String,
    /// Format name (`txt`, `md`, …).
    pub format: String,
    /// Size of the source file in bytes.
    pub size: u64,
    /// blake3 of the source bytes (hex).
    pub source_blake3: String,
    /// blake3 of the canonical text (hex).
    pub text_blake3: String,
}

/// A source file's size and blake3 hash: all the store keeps of it (`tg verify` re-hashes
/// the file against them). Taken as soon as the file is read, so a document waiting to be
/// written holds its canonical text, not its source bytes too (issue 19, bounded memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceDigest {
    /// The file's size in bytes.
    pub size: u64,
    /// blake3 of its bytes.
    pub blake3: blake3::Hash,
}

impl SourceDigest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> SourceDigest {
        SourceDigest { size: bytes.len() as u64, blake3: blake3::hash(bytes) }
    }
}

/// A document to store: its id, record fields and canonical text.
#[derive(Clone, Debug)]
pub struct NewDocument<'a> {
    /// Document id: its path relative to the corpus root.
    pub id: &'a str,
    /// Format name.
    pub format: &'a str,
    /// What is kept of the source file: its size and hash (its bytes are not stored).
    pub source: SourceDigest,
    /// The canonical text every citation points into.
    pub text: &'a str,
}

/// An open store. Only one process may have it open (see [`Store::open`]).
pub struct Store {
    db: Database,
    path: PathBuf,
    meta: Keyspace,
    docs: Keyspace,
    doc_num: Keyspace,
    text: Keyspace,
    dict: Keyspace,
    dict_rev: Keyspace,
    rels: Keyspace,
    facts: Keyspace,
    support: Keyspace,
    doc_idx: Keyspace,
    derived: Keyspace,
    rules: Keyspace,
    changes: Keyspace,
    ledger: Keyspace,
    /// The search index (see `search_index.rs`), kept in each document's batch.
    search: Keyspace,
    /// The most supports one batch of a document's write holds ([`STAGED_SUPPORTS`]).
    batch_supports: usize,
}

/// Why a derived fact holds: its canonical witness.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Derivation {
    /// Round of its stratum in which it was first derived.
    pub round: u32,
    /// Content hash of the rule (hex, 32 digits).
    pub rule: String,
    /// The rule's positive body facts: relation and arguments.
    pub body: Vec<(String, Vec<Value>)>,
}

/// A derived fact to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivedFact {
    /// Relation name (declared).
    pub rel: String,
    /// Arguments.
    pub args: Vec<Value>,
    /// Its witness.
    pub why: Derivation,
}

/// What a derivation epoch records besides the derived facts.
#[derive(Clone, Copy, Debug)]
pub struct Epoch<'a> {
    /// The program's id (see `reason`): a later derivation with the same id is incremental.
    pub program: &'a str,
    /// The rules that ran: (hash in hex, text).
    pub rules: &'a [(String, String)],
    /// The derivation's manifest, JSON.
    pub manifest: &'a str,
}

const HOLDER_FILE: &str = "holder";

/// The most supports one batch writes: a document with more is written in several
/// (`Store::put_document`), so memory for the write stays bounded (~300 bytes a support
/// in the batch and the memtable: ~1.5 MB a batch; 20,000 a batch held ~16 MB more at the
/// peak of a 10,000-row table, docs/BENCHMARKS.md, "Smaller write buffers").
pub const STAGED_SUPPORTS: usize = 5_000;

/// [`STAGED_SUPPORTS`], or the environment variable `TG_STAGED_SUPPORTS` when it is set
/// to a positive number: tests set it low to write small documents in stages through `tg`.
fn staged_supports() -> usize {
    std::env::var("TG_STAGED_SUPPORTS").ok().and_then(|v| v.trim().parse().ok()).filter(|n: &usize| *n > 0).unwrap_or(STAGED_SUPPORTS)
}

/// Settings naming documents whose staged write has not finished (`setting:pending:ID`).
const PENDING_PREFIX: &str = "pending:";

/// Largest memtable of a keyspace (bytes of keys and values) before fjall flushes it to a
/// table: a fixed bound on what a build holds in memtables, whatever the document size.
/// A memtable costs ~3× its bytes in skiplist nodes, and fjall keeps up to four sealed
/// ones a keyspace while they flush: at 8 MiB the memtables were ~70 MB of a 10,000-row
/// table's peak (docs/BENCHMARKS.md, "Smaller write buffers").
const MEMTABLE_BYTES: u64 = 2 * 1024 * 1024;

/// The size compaction cuts a keyspace's tables to. Writing a table holds a hash of each
/// of its keys for its filter: fjall's default, 64 MiB, held ~17 MB of them while a large
/// document was written (docs/BENCHMARKS.md, "The source as a digest, chunk units per block …").
const TABLE_BYTES: u64 = 16 * 1024 * 1024;

/// fjall's block cache size (data blocks and the partitions of filters and indexes, see
/// [`Store::open`]). At 256 MiB the cache filled with the blocks a build's point lookups
/// read, ~60 MB of a 10 MB document's peak; at 32 MiB ~20 MB of a 50,000-row table's.
/// 8 MiB gave the same write, query and derivation times at 1 M and 4 M facts
/// (docs/BENCHMARKS.md, "Blocks of cells, a smaller cache, cells one at a time").
const CACHE_BYTES: u64 = 8 * 1024 * 1024;

impl Store {
    /// Opens the store at `path`, which must exist: [`StoreError::Missing`] when nothing is
    /// there, [`StoreError::NotAStore`] when the folder holds no database. Every command
    /// but `tg build` opens this way, so a mistyped `--db` is an error, not an empty store.
    pub fn open_existing(path: &Path) -> Result<Store, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing { path: path.to_path_buf() });
        }
        if !path.join("version").is_file() || !path.join("keyspaces").is_dir() {
            return Err(StoreError::NotAStore { path: path.to_path_buf() });
        }
        Store::open(path)
    }

    /// Opens (or creates) the store at `path`.
    ///
    /// fjall lets one process open a database; a second process gets
    /// [`StoreError::Locked`], naming the holder recorded when the first opened it.
    /// A store written in another format is refused with [`StoreError::Format`].
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(path).map_err(|e| StoreError::Io { path: path.to_path_buf(), source: e })?;
        // Every point lookup reads a table's filter and index: below level 0 they are
        // partitioned (a small top-level block held with the table, partitions of 4 KiB
        // through the block cache), so their memory does not grow with the store; whole
        // filter blocks read through a small cache were a cliff (4 M facts).
        // Journals past 64 MiB force flushes, so an open replays little.
        let db = match Database::builder(path).cache_size(CACHE_BYTES).max_journaling_size(128 * 1024 * 1024).open() {
            Ok(db) => db,
            Err(fjall::Error::Locked) => {
                let holder = std::fs::read_to_string(path.join(HOLDER_FILE)).ok().map(|s| s.trim().to_string());
                return Err(StoreError::Locked { path: path.to_path_buf(), holder });
            }
            Err(e) => return Err(StoreError::backend(path, e)),
        };
        // Small memtables bound the memory a large write holds (fjall's default, 64 MiB a
        // keyspace, costs several times that in skiplist nodes); level 0's filter and index
        // blocks pinned, deeper levels' partitioned (fjall's default: partitioned from level
        // 3, whole and pinned above, which held ~50 MB for a 200 000-row table's store).
        // These settings are kept in the store when a keyspace is created: an older store
        // keeps its own.
        let ks = |name: &str| {
            db.keyspace(name, || {
                KeyspaceCreateOptions::default()
                    .max_memtable_size(MEMTABLE_BYTES)
                    .filter_block_pinning_policy(fjall::config::PinningPolicy::all(true))
                    .index_block_pinning_policy(fjall::config::PinningPolicy::all(true))
                    .filter_block_partitioning_policy(fjall::config::PinningPolicy::new([false, true]))
                    .index_block_partitioning_policy(fjall::config::PinningPolicy::new([false, true]))
                    .compaction_strategy(std::sync::Arc::new(fjall::compaction::Leveled::default().with_table_target_size(TABLE_BYTES)))
            })
            .map_err(|e| StoreError::backend(path, e))
        };
        let store = Store {
            meta: ks("meta")?,
            docs: ks("docs")?,
            doc_num: ks("doc_num")?,
            text: ks("text")?,
            dict: ks("dict")?,
            dict_rev: ks("dict_rev")?,
            rels: ks("rels")?,
            facts: ks("facts")?,
            support: ks("support")?,
            doc_idx: ks("doc_idx")?,
            derived: ks("derived")?,
            rules: ks("rules")?,
            changes: ks("changes")?,
            ledger: ks("ledger")?,
            search: ks("search")?,
            db,
            path: path.to_path_buf(),
            batch_supports: staged_supports(),
        };
        match store.meta.get("format").map_err(|e| store.err(e))? {
            Some(v) if v.as_ref() == FORMAT.as_bytes() => {}
            Some(v) => {
                return Err(StoreError::Format { path: path.to_path_buf(), found: String::from_utf8_lossy(&v).into_owned(), expected: FORMAT });
            }
            None => {
                if !store.docs.is_empty().map_err(|e| store.err(e))? {
                    return Err(StoreError::Format { path: path.to_path_buf(), found: "(none)".into(), expected: FORMAT });
                }
                store.meta.insert("format", FORMAT).map_err(|e| store.err(e))?;
            }
        }
        let holder = format!("pid {} ({})", std::process::id(), std::env::args().collect::<Vec<_>>().join(" "));
        let _ = std::fs::write(path.join(HOLDER_FILE), holder);
        Ok(store)
    }

    fn err(&self, e: fjall::Error) -> StoreError {
        StoreError::backend(&self.path, e)
    }

    /// Where the store lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Declares a relation (idempotent; a different schema for an existing name is an error).
    pub fn declare(&self, name: &str, columns: &[ColumnType]) -> Result<RelSchema, StoreError> {
        if let Some(s) = self.schema(name)? {
            if s.columns != columns {
                return Err(StoreError::Schema { rel: name.into(), detail: format!("stored with {:?}, declared with {:?}", s.columns, columns) });
            }
            return Ok(s);
        }
        let id = self.schemas()?.values().map(|s| s.id).max().unwrap_or(0) + 1;
        let schema = RelSchema { id, columns: columns.to_vec() };
        let json = serde_json::to_vec(&schema).map_err(|e| StoreError::Corruption { path: self.path.clone(), detail: e.to_string() })?;
        self.rels.insert(name, json).map_err(|e| self.err(e))?;
        Ok(schema)
    }

    /// A relation's schema, if declared.
    pub fn schema(&self, name: &str) -> Result<Option<RelSchema>, StoreError> {
        match self.rels.get(name).map_err(|e| self.err(e))? {
            None => Ok(None),
            Some(v) => serde_json::from_slice(&v).map(Some).map_err(|e| self.corrupt(format!("schema of {name}: {e}"))),
        }
    }

    fn corrupt(&self, detail: String) -> StoreError {
        StoreError::Corruption { path: self.path.clone(), detail }
    }

    fn schemas(&self) -> Result<BTreeMap<String, RelSchema>, StoreError> {
        let mut out = BTreeMap::new();
        for kv in self.rels.iter() {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            let name = String::from_utf8_lossy(&k).into_owned();
            let s: RelSchema = serde_json::from_slice(&v).map_err(|e| self.corrupt(format!("schema of {name}: {e}")))?;
            out.insert(name, s);
        }
        Ok(out)
    }

    /// The record of a document, if stored.
    pub fn document(&self, id: &str) -> Result<Option<DocRecord>, StoreError> {
        match self.docs.get(id).map_err(|e| self.err(e))? {
            None => Ok(None),
            Some(v) => serde_json::from_slice(&v).map(Some).map_err(|e| self.corrupt(format!("record of {id}: {e}"))),
        }
    }

    /// Every stored document id, sorted.
    pub fn document_ids(&self) -> Result<Vec<String>, StoreError> {
        let mut ids = vec![];
        for kv in self.docs.iter() {
            let k = kv.key().map_err(|e| self.err(e))?;
            ids.push(String::from_utf8_lossy(&k).into_owned());
        }
        Ok(ids)
    }

    /// The canonical text of a document.
    pub fn text(&self, id: &str) -> Result<Option<String>, StoreError> {
        let Some(rec) = self.document(id)? else { return Ok(None) };
        Ok(self.text.get(rec.num.to_be_bytes()).map_err(|e| self.err(e))?.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    /// Stores a document and its facts, replacing an earlier version of the same document
    /// (its facts are retracted). A document of at most [`STAGED_SUPPORTS`] supports is
    /// written in one atomic batch; a larger one in batches of that size under a pending
    /// mark ([`Store::pending_documents`]), so that writing it takes bounded memory.
    ///
    /// Every span must lie within the text on character boundaries; every relation
    /// must be declared with matching arity and types.
    pub fn put_document(&self, doc: &NewDocument, facts: &[CitedFact]) -> Result<(), StoreError> {
        // Validate before writing anything.
        let schemas = self.schemas()?;
        check_facts(&schemas, doc.id, doc.text, facts)?;
        // The document's supports before and after: only the difference is written, so a
        // re-stored document never removes and inserts the same key in one batch.
        let old = self.document(doc.id)?;
        let num = match &old {
            Some(r) => r.num,
            None => self.next_doc_num()?,
        };
        if facts.iter().map(|f| f.spans.len()).sum::<usize>() > self.batch_supports {
            return self.put_document_staged(doc, &facts, &schemas, old.is_some(), num, true).map(|_| ());
        }
        self.put_document_whole(doc, facts, &schemas, old.map(|r| r.num), num)
    }

    /// Writes a checked document of at most a batch's supports in one atomic batch
    /// (`old`: the number of the version it replaces).
    fn put_document_whole(&self, doc: &NewDocument, facts: &[CitedFact], schemas: &BTreeMap<String, RelSchema>, old: Option<u32>, num: u32) -> Result<(), StoreError> {
        let before: BTreeSet<Vec<u8>> = match old {
            Some(n) => self.supports_of(n)?,
            None => BTreeSet::new(),
        };
        let mut batch = self.db.batch();
        self.write_record(&mut batch, doc, num)?;
        let mut symbols = NewSymbols::start(self)?;
        let after = self.supports_for(&mut symbols, schemas, doc.text, num, facts)?;
        // Support counts of the facts touched, as they will be after this batch.
        let mut counts: HashMap<Vec<u8>, (Option<Tag>, i64)> = HashMap::new();
        for sk in before.iter().filter(|k| !after.contains_key(*k)) {
            let fk = sk[..sk.len() - 20].to_vec();
            let (a, b) = span_of(sk);
            batch.remove(&self.support, sk.clone());
            batch.remove(&self.doc_idx, doc_index_key(&fk, num, a, b));
            counts.entry(fk).or_insert((None, 0)).1 -= 1;
        }
        for (sk, (flen, tag, hash)) in &after {
            let fk = sk[..*flen].to_vec();
            let (a, b) = span_of(sk);
            let mut val = vec![tag.byte()];
            val.extend_from_slice(hash);
            batch.insert(&self.support, sk.clone(), val);
            let e = counts.entry(fk.clone()).or_insert((None, 0));
            e.0 = Some(e.0.map_or(*tag, |t| t.min(*tag)));
            if !before.contains(sk) {
                batch.insert(&self.doc_idx, doc_index_key(&fk, num, a, b), []);
                e.1 += 1;
            }
        }
        symbols.write(self, &mut batch);
        self.write_counts(&mut batch, counts)?;
        self.index_document(&mut batch, doc, facts, num, old.is_some())?;
        // (A document an interrupted staged write left pending is whole again.)
        batch.remove(&self.meta, format!("setting:{PENDING_PREFIX}{}", doc.id));
        batch.commit().map_err(|e| self.err(e))
    }

    /// Adds a document's record and text to a batch.
    fn write_record(&self, batch: &mut fjall::OwnedWriteBatch, doc: &NewDocument, num: u32) -> Result<(), StoreError> {
        let rec = DocRecord {
            num,
            source: doc.id.to_string(),
            format: doc.format.to_string(),
            size: doc.source.size,
            source_blake3: doc.source.blake3.to_hex().to_string(),
            text_blake3: blake3::hash(doc.text.as_bytes()).to_hex().to_string(),
        };
        let json = serde_json::to_vec(&rec).map_err(|e| self.corrupt(e.to_string()))?;
        batch.insert(&self.docs, doc.id, json);
        batch.insert(&self.doc_num, num.to_be_bytes(), doc.id);
        batch.insert(&self.text, num.to_be_bytes(), doc.text);
        Ok(())
    }

    /// The supports `facts` give document `num`: support key → (fact key length, lowest
    /// tag, blake3 of the cited bytes), new symbols allocated in `symbols`.
    fn supports_for(&self, symbols: &mut NewSymbols, schemas: &BTreeMap<String, RelSchema>, text: &str, num: u32, facts: &[CitedFact]) -> Result<Supports, StoreError> {
        let mut after: Supports = BTreeMap::new();
        for f in facts {
            let fk = fact_key(schemas[&f.rel].id, &symbols.words(self, &f.args)?);
            for &(a, b) in &f.spans {
                let hash = *blake3::hash(&text.as_bytes()[a as usize..b as usize]).as_bytes();
                let entry = after.entry(support_key(&fk, num, a, b)).or_insert((fk.len(), f.tag, hash));
                entry.1 = entry.1.min(f.tag);
            }
        }
        Ok(after)
    }

    /// Writes the search index of a document, from the same facts (issue 22), replacing
    /// what an earlier version of it indexed.
    fn index_document(&self, batch: &mut fjall::OwnedWriteBatch, doc: &NewDocument, facts: &[CitedFact], num: u32, existed: bool) -> Result<(), StoreError> {
        let spans: Vec<crate::search_units::FactSpan> = facts
            .iter()
            .filter(|f| crate::search_units::is_unit(&f.rel) || f.rel == "mention")
            .flat_map(|f| f.spans.iter().map(move |&(a, b)| crate::search_units::FactSpan { rel: &f.rel, args: &f.args, start: a, end: b }))
            .collect();
        let old_units = if existed { self.indexed_units(num)? } else { BTreeMap::new() };
        self.index_units(batch, num, &old_units, &crate::search_units::units(doc.text, &spans))
    }

    /// Sets the most supports one batch of a document's write holds (default
    /// [`STAGED_SUPPORTS`]; at least 1): smaller batches use less memory, and tests use
    /// it to write small documents in stages.
    pub fn set_batch_supports(&mut self, n: usize) {
        self.batch_supports = n.max(1);
    }

    /// Documents whose write was interrupted (see [`Store::put_document`]): their facts
    /// are incomplete until they are written again. Sorted.
    pub fn pending_documents(&self) -> Result<Vec<String>, StoreError> {
        Ok(self.settings_with_prefix(PENDING_PREFIX)?.into_iter().map(|(id, _)| id).collect())
    }

    /// The support keys a document gave.
    fn supports_of(&self, num: u32) -> Result<BTreeSet<Vec<u8>>, StoreError> {
        let mut out = BTreeSet::new();
        for kv in self.doc_idx.prefix(num.to_be_bytes()) {
            let ik = kv.key().map_err(|e| self.err(e))?;
            if ik.len() < 4 + 2 + 16 {
                return Err(self.corrupt("document index key too short".into()));
            }
            let fk = &ik[4..ik.len() - 16];
            let (a, b) = span_of(&ik);
            out.insert(support_key(fk, num, a, b));
        }
        Ok(out)
    }

    /// The next free symbol id: one past the largest in the dictionary.
    fn next_symbol_id(&self) -> Result<u32, StoreError> {
        self.next_u32_key(&self.dict_rev, "symbol id")
    }

    /// The next free document number.
    fn next_doc_num(&self) -> Result<u32, StoreError> {
        self.next_u32_key(&self.doc_num, "document number")
    }

    /// One past the largest big-endian u32 key of a keyspace (its last key; `len()` would
    /// scan the whole keyspace).
    fn next_u32_key(&self, ks: &Keyspace, what: &str) -> Result<u32, StoreError> {
        match ks.last_key_value() {
            Some(kv) => {
                let k = kv.key().map_err(|e| self.err(e))?;
                let n: [u8; 4] = k.as_ref().try_into().map_err(|_| self.corrupt(format!("{what} key")))?;
                Ok(u32::from_be_bytes(n) + 1)
            }
            None => Ok(0),
        }
    }

    /// Applies support-count changes: a fact whose count reaches zero is removed. The tag
    /// of a fact is the strongest (earliest in [`Tag`] order) of its supports' tags.
    fn write_counts(&self, batch: &mut fjall::OwnedWriteBatch, counts: HashMap<Vec<u8>, (Option<Tag>, i64)>) -> Result<(), StoreError> {
        let logging = self.derived_by()?.is_some();
        for (fk, (tag, delta)) in counts {
            let (old_tag, old) = match self.facts.get(&fk).map_err(|e| self.err(e))? {
                Some(v) if v.len() == 5 => (Tag::from_byte(v[0]), u32::from_be_bytes([v[1], v[2], v[3], v[4]]) as i64),
                _ => (None, 0),
            };
            let n = old + delta;
            if logging && (old > 0) != (n > 0) {
                // The first change since the epoch records the epoch's state; changing back
                // to it forgets the entry.
                match self.changes.get(&fk).map_err(|e| self.err(e))? {
                    None => batch.insert(&self.changes, fk.clone(), [u8::from(old > 0)]),
                    Some(v) if v.first() == Some(&u8::from(n > 0)) => batch.remove(&self.changes, fk.clone()),
                    Some(_) => {}
                }
            }
            if n <= 0 {
                batch.remove(&self.facts, fk);
                continue;
            }
            let tag = match (old_tag, tag) {
                (Some(a), Some(b)) if old > 0 => a.min(b),
                (_, Some(b)) => b,
                (Some(a), None) => a,
                (None, None) => Tag::Extracted,
            };
            let mut v = vec![tag.byte()];
            v.extend_from_slice(&(n as u32).to_be_bytes());
            batch.insert(&self.facts, fk, v);
        }
        Ok(())
    }

    /// Removes a document and every support it gave, in one atomic batch. Facts no other
    /// document supports disappear. Returns false if the document was not stored.
    pub fn retract_document(&self, id: &str) -> Result<bool, StoreError> {
        let Some(rec) = self.document(id)? else { return Ok(false) };
        let mut batch = self.db.batch();
        let mut counts: HashMap<Vec<u8>, (Option<Tag>, i64)> = HashMap::new();
        for sk in self.supports_of(rec.num)? {
            let fk = sk[..sk.len() - 20].to_vec();
            let (a, b) = span_of(&sk);
            batch.remove(&self.support, sk.clone());
            batch.remove(&self.doc_idx, doc_index_key(&fk, rec.num, a, b));
            counts.entry(fk).or_insert((None, 0)).1 -= 1;
        }
        self.write_counts(&mut batch, counts)?;
        self.index_units(&mut batch, rec.num, &self.indexed_units(rec.num)?, &BTreeMap::new())?;
        batch.remove(&self.docs, id);
        batch.remove(&self.doc_num, rec.num.to_be_bytes());
        batch.remove(&self.text, rec.num.to_be_bytes());
        batch.remove(&self.meta, format!("setting:{PENDING_PREFIX}{id}"));
        batch.commit().map_err(|e| self.err(e))?;
        Ok(true)
    }

    fn symbol(&self, id: u32) -> Result<String, StoreError> {
        match self.dict_rev.get(id.to_be_bytes()).map_err(|e| self.err(e))? {
            Some(v) => Ok(String::from_utf8_lossy(&v).into_owned()),
            None => Err(self.corrupt(format!("symbol {id} missing from the dictionary"))),
        }
    }

    /// The values of a stored fact's words.
    fn decode(&self, schema: &RelSchema, words: &[u32]) -> Result<Vec<Value>, StoreError> {
        words
            .iter()
            .zip(&schema.columns)
            .map(|(w, c)| match c {
                ColumnType::Number => Ok(Value::Num(*w as i32)),
                ColumnType::Symbol => self.symbol(*w).map(Value::Sym),
            })
            .collect()
    }

    /// Every fact with its tag and supports, as sorted lines of text.
    fn fact_lines(&self) -> Result<Vec<String>, StoreError> {
        let schemas = self.schemas()?;
        let by_id: HashMap<u16, (&String, &RelSchema)> = schemas.iter().map(|(n, s)| (s.id, (n, s))).collect();
        let mut doc_names: HashMap<u32, String> = HashMap::new();
        for kv in self.doc_num.iter() {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            let n: [u8; 4] = k.as_ref().try_into().map_err(|_| self.corrupt("document number key".into()))?;
            doc_names.insert(u32::from_be_bytes(n), String::from_utf8_lossy(&v).into_owned());
        }
        let mut lines = vec![];
        for kv in self.facts.iter() {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            let (rel, words) = split_fact_key(&k).ok_or_else(|| self.corrupt("fact key".into()))?;
            let (name, schema) = by_id.get(&rel).ok_or_else(|| self.corrupt(format!("fact of unknown relation id {rel}")))?;
            let tag = v.first().and_then(|b| Tag::from_byte(*b)).ok_or_else(|| self.corrupt("fact tag".into()))?;
            let mut supports = vec![];
            for skv in self.support.prefix(&k) {
                let (sk, sv) = skv.into_inner().map_err(|e| self.err(e))?;
                let tail = &sk[k.len()..];
                if tail.len() != 20 {
                    continue;
                }
                let doc = u32::from_be_bytes(tail[..4].try_into().unwrap_or_default());
                let a = u64::from_be_bytes(tail[4..12].try_into().unwrap_or_default());
                let b = u64::from_be_bytes(tail[12..20].try_into().unwrap_or_default());
                let stag = sv.first().and_then(|x| Tag::from_byte(*x)).map(Tag::name).unwrap_or("?");
                let hash: String = sv.get(1..).map(|h| h.iter().take(8).map(|x| format!("{x:02x}")).collect()).unwrap_or_default();
                supports.push(format!("  [{}:{a}-{b}] {stag} blake3={hash}", doc_names.get(&doc).map(String::as_str).unwrap_or("?")));
            }
            supports.sort();
            let head = format!("fact {} {} supports={}", render_fact(name, &self.decode(schema, &words)?), tag.name(), supports.len());
            lines.push(std::iter::once(head).chain(supports).collect::<Vec<_>>().join("\n"));
        }
        lines.sort();
        Ok(lines)
    }

    /// The whole store as canonical sorted text: equal stores give byte-identical dumps.
    pub fn dump(&self) -> Result<String, StoreError> {
        let mut out = format!("format {FORMAT}\n");
        for (name, s) in self.schemas()? {
            let cols: Vec<&str> = s.columns.iter().map(|c| if *c == ColumnType::Symbol { "symbol" } else { "number" }).collect();
            out.push_str(&format!("relation {name}({})\n", cols.join(", ")));
        }
        for id in self.document_ids()? {
            if let Some(r) = self.document(&id)? {
                out.push_str(&format!("document {id} format={} size={} source_blake3={} text_blake3={}\n", r.format, r.size, r.source_blake3, r.text_blake3));
            }
        }
        for l in self.fact_lines()? {
            out.push_str(&l);
            out.push('\n');
        }
        let mut derived = vec![];
        for rel in self.relation_names()? {
            for (args, why) in self.derived_facts(&rel)? {
                let mut l = format!("derived {} INFERRED round={} rule={}", render_fact(&rel, &args), why.round, &why.rule);
                for (br, bargs) in &why.body {
                    l.push_str(&format!("\n  from {}", render_fact(br, bargs)));
                }
                derived.push(l);
            }
        }
        derived.sort();
        for l in derived {
            out.push_str(&l);
            out.push('\n');
        }
        let mut rules = vec![];
        for kv in self.rules.iter() {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            rules.push(format!("rule {} {}", String::from_utf8_lossy(&k), String::from_utf8_lossy(&v)));
        }
        for l in rules {
            out.push_str(&l);
            out.push('\n');
        }
        for (k, v) in self.ledger_records("")? {
            out.push_str(&format!("ledger {k:?} {v}\n"));
        }
        Ok(out)
    }

    /// Re-hashes every citation against the stored canonical text.
    pub fn verify(&self) -> Result<Verification, StoreError> {
        let mut texts: HashMap<u32, Option<String>> = HashMap::new();
        let mut v = Verification::default();
        for kv in self.docs.iter() {
            let (k, val) = kv.into_inner().map_err(|e| self.err(e))?;
            let id = String::from_utf8_lossy(&k).into_owned();
            let rec: DocRecord = serde_json::from_slice(&val).map_err(|e| self.corrupt(format!("record of {id}: {e}")))?;
            let text = self.text.get(rec.num.to_be_bytes()).map_err(|e| self.err(e))?.map(|t| String::from_utf8_lossy(&t).into_owned());
            match &text {
                Some(t) if blake3::hash(t.as_bytes()).to_hex().as_str() == rec.text_blake3 => {}
                _ => v.failures.push(format!("{id}: canonical text missing or does not match its blake3")),
            }
            texts.insert(rec.num, text);
        }
        for kv in self.support.iter() {
            let (k, val) = kv.into_inner().map_err(|e| self.err(e))?;
            v.checked += 1;
            if k.len() < 22 {
                v.failures.push("malformed support key".into());
                continue;
            }
            let tail = &k[k.len() - 20..];
            let doc = u32::from_be_bytes(tail[..4].try_into().unwrap_or_default());
            let a = u64::from_be_bytes(tail[4..12].try_into().unwrap_or_default()) as usize;
            let b = u64::from_be_bytes(tail[12..20].try_into().unwrap_or_default()) as usize;
            let ok =
                texts.get(&doc).and_then(|t| t.as_ref()).and_then(|t| t.as_bytes().get(a..b)).is_some_and(|bytes| val.get(1..) == Some(blake3::hash(bytes).as_bytes().as_slice()));
            if ok {
                v.verified += 1;
            } else {
                v.failures.push(format!("support in document #{doc} at {a}-{b} does not re-hash"));
            }
        }
        Ok(v)
    }

    /// Counts of documents, facts per relation and facts per tag.
    pub fn stats(&self) -> Result<Stats, StoreError> {
        let schemas = self.schemas()?;
        let by_id: HashMap<u16, &String> = schemas.iter().map(|(n, s)| (s.id, n)).collect();
        let mut st = Stats { documents: self.docs.len().map_err(|e| self.err(e))?, ..Stats::default() };
        for name in schemas.keys() {
            st.relations.insert(name.clone(), 0);
        }
        for kv in self.facts.iter() {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            let (rel, _) = split_fact_key(&k).ok_or_else(|| self.corrupt("fact key".into()))?;
            if let Some(n) = by_id.get(&rel) {
                *st.relations.entry((*n).clone()).or_default() += 1;
            }
            if let Some(t) = v.first().and_then(|b| Tag::from_byte(*b)) {
                *st.tags.entry(t.name().to_string()).or_default() += 1;
            }
        }
        for kv in self.derived.iter() {
            let k = kv.key().map_err(|e| self.err(e))?;
            let (rel, _) = split_fact_key(&k).ok_or_else(|| self.corrupt("derived key".into()))?;
            if let Some(n) = by_id.get(&rel) {
                *st.relations.entry((*n).clone()).or_default() += 1;
            }
            *st.tags.entry(Tag::Inferred.name().to_string()).or_default() += 1;
        }
        st.last_derivation = self.derivation_manifest()?.and_then(|m| serde_json::from_str(&m).ok());
        Ok(st)
    }

    /// Replaces the derived layer — all of it, or only the relations in `scope` — in one
    /// atomic batch: facts no longer derived are removed, new or changed ones written; the
    /// rules that ran are recorded by hash. The batch also starts a new derivation epoch
    /// for `program` (the change log is emptied). Returns (written, removed).
    pub fn replace_derived(&self, epoch: &Epoch, facts: &[DerivedFact], scope: Option<&[String]>) -> Result<(usize, usize), StoreError> {
        let schemas = self.schemas()?;
        let prefixes: Vec<Vec<u8>> = match scope {
            None => vec![vec![]],
            Some(rels) => rels.iter().filter_map(|r| schemas.get(r)).map(|s| s.id.to_be_bytes().to_vec()).collect(),
        };
        let mut batch = self.db.batch();
        let counts = self.diff_derived(&mut batch, &schemas, facts, &prefixes)?;
        self.close_epoch(batch, epoch)?;
        Ok(counts)
    }

    /// Puts into `batch` the derived `facts` in place of those stored under the fact-key
    /// `prefixes` (everything, or some relations' ids): only keys whose witness differs are
    /// written, keys no longer derived removed, new symbols allocated. Returns (written,
    /// removed). Shared by [`Store::replace_derived`] and `replace_analytics`.
    fn diff_derived(
        &self,
        batch: &mut fjall::OwnedWriteBatch,
        schemas: &BTreeMap<String, RelSchema>,
        facts: &[DerivedFact],
        prefixes: &[Vec<u8>],
    ) -> Result<(usize, usize), StoreError> {
        let mut symbols = NewSymbols::start(self)?;
        let mut wanted: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
        for f in facts {
            let s = schemas.get(&f.rel).ok_or_else(|| StoreError::Schema { rel: f.rel.clone(), detail: "relation not declared".into() })?;
            let words = symbols.words(self, &f.args)?;
            let json = serde_json::to_vec(&f.why).map_err(|e| self.corrupt(e.to_string()))?;
            wanted.insert(fact_key(s.id, &words), json);
        }
        let mut removed = 0;
        for prefix in prefixes {
            for kv in self.derived.prefix(prefix) {
                let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
                match wanted.get(k.as_ref()) {
                    Some(new) if new.as_slice() == v.as_ref() => {
                        wanted.remove(k.as_ref());
                    }
                    Some(_) => {}
                    None => {
                        batch.remove(&self.derived, k.to_vec());
                        removed += 1;
                    }
                }
            }
        }
        let written = wanted.len();
        for (k, v) in wanted {
            batch.insert(&self.derived, k, v);
        }
        symbols.write(self, batch);
        Ok((written, removed))
    }

    /// Writes derived facts that are new or have a new witness and removes ones no longer
    /// derived, in one atomic batch that starts a new derivation epoch for `program` (as
    /// [`Store::replace_derived`], for a caller that knows exactly what changed).
    pub fn patch_derived(&self, epoch: &Epoch, upserts: &[DerivedFact], removals: &[(String, Vec<Value>)]) -> Result<(), StoreError> {
        let schemas = self.schemas()?;
        let schema = |rel: &str| schemas.get(rel).ok_or_else(|| StoreError::Schema { rel: rel.into(), detail: "relation not declared".into() });
        let mut batch = self.db.batch();
        let mut symbols = NewSymbols::start(self)?;
        for (rel, args) in removals {
            let s = schema(rel)?;
            if let Some(words) = self.encode(args)? {
                batch.remove(&self.derived, fact_key(s.id, &words));
            }
        }
        for f in upserts {
            let s = schema(&f.rel)?;
            let words = symbols.words(self, &f.args)?;
            let json = serde_json::to_vec(&f.why).map_err(|e| self.corrupt(e.to_string()))?;
            batch.insert(&self.derived, fact_key(s.id, &words), json);
        }
        symbols.write(self, &mut batch);
        self.close_epoch(batch, epoch)
    }

    /// Records the rules that ran and the derivation's manifest, empties the change log
    /// and names the program the derived layer now reflects, then commits the batch.
    fn close_epoch(&self, mut batch: fjall::OwnedWriteBatch, epoch: &Epoch) -> Result<(), StoreError> {
        for (hash, text) in epoch.rules {
            batch.insert(&self.rules, hash.as_str(), text.as_str());
        }
        for kv in self.changes.iter() {
            let k = kv.key().map_err(|e| self.err(e))?;
            batch.remove(&self.changes, k.to_vec());
        }
        batch.insert(&self.meta, "derived_by", epoch.program);
        batch.insert(&self.meta, "derivation", epoch.manifest);
        batch.commit().map_err(|e| self.err(e))
    }

    /// The manifest of the last derivation (JSON: program, rule files, mode, counts, time).
    pub fn derivation_manifest(&self) -> Result<Option<String>, StoreError> {
        Ok(self.meta.get("derivation").map_err(|e| self.err(e))?.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    /// The program whose results the derived layer holds (see the module docs).
    pub fn derived_by(&self) -> Result<Option<String>, StoreError> {
        Ok(self.meta.get("derived_by").map_err(|e| self.err(e))?.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    /// Whether any fact appeared or disappeared since the last derivation epoch (the
    /// derived layer may then be out of date).
    pub fn has_changes(&self) -> Result<bool, StoreError> {
        Ok(!self.changes.is_empty().map_err(|e| self.err(e))?)
    }

    /// Facts that appeared or disappeared since the last derivation epoch: relation,
    /// arguments, and whether the fact existed at the epoch (so it is gone now).
    pub fn changes(&self) -> Result<Vec<(String, Vec<Value>, bool)>, StoreError> {
        let schemas = self.schemas()?;
        let by_id: HashMap<u16, (&String, &RelSchema)> = schemas.iter().map(|(n, s)| (s.id, (n, s))).collect();
        let mut out = vec![];
        for kv in self.changes.iter() {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            let (rel, words) = split_fact_key(&k).ok_or_else(|| self.corrupt("change key".into()))?;
            let (name, schema) = by_id.get(&rel).ok_or_else(|| self.corrupt(format!("change of unknown relation id {rel}")))?;
            out.push(((*name).clone(), self.decode(schema, &words)?, v.first() == Some(&1)));
        }
        Ok(out)
    }

    /// The witness of a derived fact, if it is one.
    pub fn derivation(&self, rel: &str, args: &[Value]) -> Result<Option<Derivation>, StoreError> {
        let Some(schema) = self.schema(rel)? else { return Ok(None) };
        let Some(words) = self.encode(args)? else { return Ok(None) };
        match self.derived.get(fact_key(schema.id, &words)).map_err(|e| self.err(e))? {
            None => Ok(None),
            Some(v) => serde_json::from_slice(&v).map(Some).map_err(|e| self.corrupt(format!("derivation of {rel}: {e}"))),
        }
    }

    /// The supports of a stored (extracted) fact: document id, span, tag, and whether the
    /// cited bytes still re-hash to the blake3 recorded when it was stored.
    pub fn supports(&self, rel: &str, args: &[Value]) -> Result<Vec<Citation>, StoreError> {
        let Some(schema) = self.schema(rel)? else { return Ok(vec![]) };
        let Some(words) = self.encode(args)? else { return Ok(vec![]) };
        let fk = fact_key(schema.id, &words);
        let mut out = vec![];
        for kv in self.support.prefix(&fk) {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            if k.len() != fk.len() + 20 {
                continue;
            }
            let num = u32::from_be_bytes(k[fk.len()..fk.len() + 4].try_into().unwrap_or_default());
            let (a, b) = span_of(&k);
            let doc = self.doc_num.get(num.to_be_bytes()).map_err(|e| self.err(e))?.map(|d| String::from_utf8_lossy(&d).into_owned()).unwrap_or_default();
            let text = self.text.get(num.to_be_bytes()).map_err(|e| self.err(e))?;
            let quote = text.as_ref().and_then(|t| t.get(a as usize..b as usize)).map(|q| String::from_utf8_lossy(q).into_owned());
            let verified = quote.as_ref().is_some_and(|q| v.get(1..) == Some(blake3::hash(q.as_bytes()).as_bytes().as_slice()));
            out.push(Citation { doc, start: a, end: b, tag: v.first().and_then(|t| Tag::from_byte(*t)).unwrap_or(Tag::Extracted), quote: quote.unwrap_or_default(), verified });
        }
        out.sort_by(|x, y| (&x.doc, x.start, x.end).cmp(&(&y.doc, y.start, y.end)));
        Ok(out)
    }

    /// The text of a rule that ran, by hash.
    pub fn rule_text(&self, hash: &str) -> Result<Option<String>, StoreError> {
        Ok(self.rules.get(hash).map_err(|e| self.err(e))?.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    /// Words of values already in the dictionary (`None` if some symbol is unknown).
    fn encode(&self, args: &[Value]) -> Result<Option<Vec<u32>>, StoreError> {
        let mut words = vec![];
        for v in args {
            match v {
                Value::Num(n) => words.push(*n as u32),
                Value::Sym(s) => match self.dict.get(dict_key(s)).map_err(|e| self.err(e))? {
                    Some(id) => words.push(u32::from_be_bytes(id.as_ref().try_into().map_err(|_| self.corrupt("symbol id".into()))?)),
                    None => return Ok(None),
                },
            }
        }
        Ok(Some(words))
    }

    /// Derived facts of a relation, with their witnesses.
    pub fn derived_facts(&self, rel: &str) -> Result<Vec<(Vec<Value>, Derivation)>, StoreError> {
        let Some(schema) = self.schema(rel)? else { return Ok(vec![]) };
        self.derived_words(rel)?.into_iter().map(|(ws, why)| Ok((self.decode(&schema, &ws)?, why))).collect()
    }

    /// Derived facts of a relation as words in the store's encoding (symbols are dictionary
    /// ids, see [`Store::symbol_text`]), with their witnesses: for bulk loading.
    pub fn derived_words(&self, rel: &str) -> Result<Vec<(Vec<u32>, Derivation)>, StoreError> {
        let Some(schema) = self.schema(rel)? else { return Ok(vec![]) };
        let mut out = vec![];
        for kv in self.derived.prefix(schema.id.to_be_bytes()) {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            let (_, ws) = split_fact_key(&k).ok_or_else(|| self.corrupt("derived key".into()))?;
            let why: Derivation = serde_json::from_slice(&v).map_err(|e| self.corrupt(format!("derivation of {rel}: {e}")))?;
            out.push((ws, why));
        }
        Ok(out)
    }

    /// Names of every declared relation, sorted.
    pub fn relation_names(&self) -> Result<Vec<String>, StoreError> {
        Ok(self.schemas()?.into_keys().collect())
    }

    /// Every stored fact of a relation as words in the store's encoding (symbols are the
    /// store's dictionary ids: see [`Store::symbol_text`]), flat, in key order. Bulk
    /// loading reads this rather than [`Store::lookup`], which decodes every symbol.
    pub fn fact_words(&self, rel: &str) -> Result<Vec<u32>, StoreError> {
        let Some(schema) = self.schema(rel)? else { return Ok(vec![]) };
        let mut out = vec![];
        for kv in self.facts.prefix(schema.id.to_be_bytes()) {
            let k = kv.key().map_err(|e| self.err(e))?;
            if k.len() != 2 + 4 * schema.columns.len() {
                return Err(self.corrupt(format!("fact key of {rel}")));
            }
            out.extend(k[2..].chunks_exact(4).map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]])));
        }
        Ok(out)
    }

    /// The text of a symbol id of the store's dictionary.
    pub fn symbol_text(&self, id: u32) -> Result<String, StoreError> {
        self.symbol(id)
    }

    /// Facts of a relation whose leading columns equal `prefix`, read with one prefix scan
    /// (nothing else of the store is loaded).
    pub fn lookup(&self, rel: &str, prefix: &[Value]) -> Result<Vec<Vec<Value>>, StoreError> {
        let Some(schema) = self.schema(rel)? else { return Ok(vec![]) };
        let Some(words) = self.encode(prefix)? else { return Ok(vec![]) };
        let mut out = vec![];
        for kv in self.facts.prefix(fact_key(schema.id, &words)) {
            let k = kv.key().map_err(|e| self.err(e))?;
            let (_, ws) = split_fact_key(&k).ok_or_else(|| self.corrupt("fact key".into()))?;
            let row = self.decode(&schema, &ws)?;
            out.push(row);
        }
        Ok(out)
    }

    /// Stores the last build's manifest (JSON: each corpus file with its status and
    /// reason) under the `manifest` key of the `meta` keyspace, replacing the previous one.
    pub fn put_manifest(&self, json: &str) -> Result<(), StoreError> {
        self.meta.insert("manifest", json).map_err(|e| self.err(e))
    }

    /// A named setting of the store (kept under `setting:NAME` in `meta`), e.g. the
    /// identity of the extractor that built its documents.
    pub fn setting(&self, name: &str) -> Result<Option<String>, StoreError> {
        Ok(self.meta.get(format!("setting:{name}")).map_err(|e| self.err(e))?.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    /// Records and removes settings (`None` removes) in one atomic batch.
    pub fn put_settings(&self, settings: &[(String, Option<String>)]) -> Result<(), StoreError> {
        let mut batch = self.db.batch();
        for (name, value) in settings {
            match value {
                Some(v) => batch.insert(&self.meta, format!("setting:{name}"), v.as_str()),
                None => batch.remove(&self.meta, format!("setting:{name}")),
            }
        }
        batch.commit().map_err(|e| self.err(e))
    }

    /// Records a named setting (see [`Store::setting`]).
    pub fn put_setting(&self, name: &str, value: &str) -> Result<(), StoreError> {
        self.meta.insert(format!("setting:{name}"), value).map_err(|e| self.err(e))
    }

    /// Every setting whose name starts with `prefix`: (name without the prefix, value), by name.
    pub fn settings_with_prefix(&self, prefix: &str) -> Result<Vec<(String, String)>, StoreError> {
        let full = format!("setting:{prefix}");
        let mut out = vec![];
        for kv in self.meta.prefix(full.as_bytes()) {
            let (k, v) = kv.into_inner().map_err(|e| self.err(e))?;
            let name = String::from_utf8_lossy(&k[full.len()..]).into_owned();
            out.push((name, String::from_utf8_lossy(&v).into_owned()));
        }
        Ok(out)
    }

    /// Removes a named setting (see [`Store::setting`]).
    pub fn delete_setting(&self, name: &str) -> Result<(), StoreError> {
        self.meta.remove(format!("setting:{name}")).map_err(|e| self.err(e))
    }

    /// The last build's manifest JSON, if a build stored one.
    pub fn manifest(&self) -> Result<Option<String>, StoreError> {
        Ok(self.meta.get("manifest").map_err(|e| self.err(e))?.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }
}

/// Symbols first seen by one batch: ids are allocated past the dictionary's largest and
/// written with the batch, so a symbol exists exactly when a fact using it does.
struct NewSymbols {
    next: u32,
    fresh: BTreeMap<String, u32>,
}

impl NewSymbols {
    fn start(store: &Store) -> Result<NewSymbols, StoreError> {
        Ok(NewSymbols { next: store.next_symbol_id()?, fresh: BTreeMap::new() })
    }

    /// The words of a fact's arguments, allocating ids for new symbols.
    fn words(&mut self, store: &Store, args: &[Value]) -> Result<Vec<u32>, StoreError> {
        let mut words = Vec::with_capacity(args.len());
        for a in args {
            words.push(match a {
                Value::Num(n) => *n as u32,
                Value::Sym(t) => match store.dict.get(dict_key(t)).map_err(|e| store.err(e))? {
                    Some(id) => u32::from_be_bytes(id.as_ref().try_into().map_err(|_| store.corrupt(format!("symbol id of {t:?}")))?),
                    None => match self.fresh.get(t) {
                        Some(id) => *id,
                        None => {
                            self.fresh.insert(t.clone(), self.next);
                            self.next += 1;
                            self.next - 1
                        }
                    },
                },
            });
        }
        Ok(words)
    }

    fn write(self, store: &Store, batch: &mut fjall::OwnedWriteBatch) {
        for (t, id) in &self.fresh {
            batch.insert(&store.dict, dict_key(t), id.to_be_bytes());
            batch.insert(&store.dict_rev, id.to_be_bytes(), t.as_str());
        }
    }
}

impl Drop for Store {
    /// Flushes what this process wrote to disk tables, so the next open does not have to
    /// replay a long journal (fjall replays it on every open).
    fn drop(&mut self) {
        for ks in [
            &self.meta,
            &self.docs,
            &self.doc_num,
            &self.text,
            &self.dict,
            &self.dict_rev,
            &self.rels,
            &self.facts,
            &self.support,
            &self.doc_idx,
            &self.derived,
            &self.rules,
            &self.changes,
            &self.ledger,
            &self.search,
        ] {
            let _ = ks.rotate_memtable_and_wait();
        }
    }
}

/// Checks facts before a batch writes them: every relation declared with matching arity
/// and types, every fact cited, every span within `text` on character boundaries.
fn check_facts(schemas: &BTreeMap<String, RelSchema>, doc: &str, text: &str, facts: &[CitedFact]) -> Result<(), StoreError> {
    for f in facts {
        let s = schemas.get(&f.rel).ok_or_else(|| StoreError::Schema { rel: f.rel.clone(), detail: "relation not declared".into() })?;
        let types_ok = f.args.len() == s.columns.len()
            && f.args.iter().zip(&s.columns).all(|(a, c)| matches!((a, c), (Value::Sym(_), ColumnType::Symbol) | (Value::Num(_), ColumnType::Number)));
        if !types_ok {
            return Err(StoreError::Schema { rel: f.rel.clone(), detail: format!("arguments {:?} do not match columns {:?}", f.args, s.columns) });
        }
        for &(a, b) in &f.spans {
            let ok = a <= b && (b as usize) <= text.len() && text.is_char_boundary(a as usize) && text.is_char_boundary(b as usize);
            if !ok {
                return Err(StoreError::Span { doc: doc.into(), start: a, end: b, len: text.len() as u64 });
            }
        }
        if f.spans.is_empty() {
            return Err(StoreError::Uncited { doc: doc.into(), rel: f.rel.clone() });
        }
    }
    Ok(())
}

/// The dictionary key of a symbol: its text, except the empty symbol, whose key is the
/// single byte 0xFF (fjall refuses empty keys; no UTF-8 text is that byte).
fn dict_key(symbol: &str) -> Vec<u8> {
    if symbol.is_empty() { vec![0xFF] } else { symbol.as_bytes().to_vec() }
}

/// The `(start, end)` at the tail of a support or document-index key.
fn span_of(k: &[u8]) -> (u64, u64) {
    let n = k.len();
    let word = |r: std::ops::Range<usize>| k.get(r).and_then(|b| b.try_into().ok()).map(u64::from_be_bytes).unwrap_or(0);
    (word(n.saturating_sub(16)..n.saturating_sub(8)), word(n.saturating_sub(8)..n))
}

/// A fact's canonical text, `rel("a", 2)`: what dumps print and fact ids hash.
pub fn render_fact(rel: &str, args: &[Value]) -> String {
    let vals: Vec<String> = args
        .iter()
        .map(|v| match v {
            Value::Num(n) => n.to_string(),
            Value::Sym(s) => format!("{s:?}"),
        })
        .collect();
    format!("{rel}({})", vals.join(", "))
}

/// Lower-case hex of bytes (rule hashes, fact ids).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One span of a document that asserts a fact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Citation {
    /// Document id.
    pub doc: String,
    /// Start byte.
    pub start: u64,
    /// End byte (exclusive).
    pub end: u64,
    /// The support's tag.
    pub tag: Tag,
    /// The cited text.
    pub quote: String,
    /// True if the cited bytes re-hash to the recorded blake3.
    pub verified: bool,
}

/// The result of [`Store::verify`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verification {
    /// Citations checked.
    pub checked: usize,
    /// Citations whose bytes re-hash to the stored blake3.
    pub verified: usize,
    /// What failed, one line each.
    pub failures: Vec<String>,
}

/// The result of [`Store::stats`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Number of documents.
    pub documents: usize,
    /// Facts per relation.
    pub relations: BTreeMap<String, usize>,
    /// Facts per tag.
    pub tags: BTreeMap<String, usize>,
    /// The manifest of the last derivation, if any (see [`Store::derivation_manifest`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_derivation: Option<serde_json::Value>,
}
