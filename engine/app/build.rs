//! The build pipeline: brings a store up to date with a corpus.
//!
//! [`build`] walks the corpus (`tg_ingest::walk`), hashes every file (blake3) and skips
//! those whose bytes are unchanged since the last build, extracts the others in parallel
//! (`tg_ingest::extract_tree`, with claims from `tg_extract::document_facts`) and writes
//! documents one atomic batch each, in walk order, with the ledger's outside claims.
//! Documents whose files are gone are retracted. Every file ends in the manifest with its
//! status (added, changed, unchanged, skipped) and reason; the manifest is stored in the
//! store and printed by `tg build`. With a model (`--llm-extract`), the model pass runs
//! last over the chunks of every document written.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use tg_extract::vocab::Vocabulary;
use tg_ingest::{CORPUS_SETTING, Extractions, Ingested};
use tg_rules::schema::declare_schema;
use tg_store::{NewDocument, Store, StoreError};

/// What became of one corpus file (or attachment) in a build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Stored for the first time.
    Added,
    /// Its bytes changed; re-ingested.
    Changed,
    /// Same bytes as last build; not re-read.
    Unchanged,
    /// Not ingested; `reason` says why.
    Skipped,
}

/// One manifest line: a file's id, format, status, reason and warnings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileStatus {
    /// Document id (path relative to the corpus root; `#…` for attachments).
    pub id: String,
    /// Format ingested as (empty when skipped before extraction).
    pub format: String,
    /// What happened.
    pub status: Status,
    /// Why it was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Non-fatal problems.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Facts written for it (0 when unchanged or skipped).
    pub facts: usize,
    /// What the model pass did for it (`tg build --llm-extract` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm: Option<tg_llm::DocStats>,
}

/// What one build did.
#[derive(Debug, Default)]
pub struct BuildReport {
    /// Documents stored for the first time.
    pub added: Vec<String>,
    /// Documents whose source changed and were re-ingested.
    pub changed: Vec<String>,
    /// Documents whose source was unchanged (not touched).
    pub unchanged: usize,
    /// Documents whose file disappeared and were retracted.
    pub removed: Vec<String>,
    /// Files skipped, with the reason.
    pub skipped: Vec<(String, String)>,
    /// Every file and attachment with its status, in id order.
    pub manifest: Vec<FileStatus>,
    /// Facts written (counting each stored fact of each re-ingested document).
    pub facts_written: usize,
    /// Bytes of source read and extracted.
    pub bytes_extracted: u64,
    /// Wall time of the build.
    pub elapsed: Duration,
    /// Warnings about outside claims of removed documents: (document id, message).
    pub ledger_warnings: Vec<(String, String)>,
    /// What the model pass did (`tg build --llm-extract` only).
    pub llm: Option<tg_llm::Summary>,
}

impl BuildReport {
    /// Documents by format over the manifest (skipped files not counted).
    pub fn by_format(&self) -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        for f in self.manifest.iter().filter(|f| f.status != Status::Skipped) {
            *m.entry(f.format.clone()).or_insert(0) += 1;
        }
        m
    }

    /// Every warning as `(id, message)`, in manifest order.
    pub fn warnings(&self) -> Vec<(String, String)> {
        self.manifest.iter().flat_map(|f| f.warnings.iter().map(|w| (f.id.clone(), w.clone()))).collect()
    }
}

/// A progress callback: (files done, files total, current id).
pub type Progress<'a> = &'a (dyn Fn(usize, usize, &str) + Sync);

/// Options of a build.
#[derive(Default)]
pub struct BuildOptions<'a> {
    /// Called after each file is handled with (files done, files total, current id).
    pub progress: Option<Progress<'a>>,
    /// Extraction threads (0 = one per core).
    pub threads: usize,
    /// A `tg` binary to extract PDFs in (`tg __extract-pdf`): a child process turns
    /// crashes that `catch_unwind` cannot catch (aborts, stack overflows) and endless
    /// loops into skips. `None` extracts in-process.
    pub pdf_worker: Option<std::path::PathBuf>,
    /// The closed vocabulary claims are checked against (`None`: the built-in one).
    pub vocab: Option<&'a Vocabulary>,
    /// Read links to files outside the corpus (`tg build --follow-links`); by default they
    /// are skipped with a warning.
    pub follow_links: bool,
    /// Ask this model for claims in every chunk of every document written
    /// (`tg build --llm-extract`; docs/LLM.md). `None`: no model, nothing changes.
    pub llm: Option<&'a tg_llm::Llm>,
}

/// Settings `stale:ID` mark documents stored by another extractor that a build has not
/// re-extracted yet (so an interrupted build redoes them, and only them), and, with
/// `--llm-extract`, documents whose chunks the model has not all answered yet.
pub const STALE_PREFIX: &str = "stale:";

/// The identity of what turns bytes into facts: this version of tg and the vocabulary.
pub fn extractor_id(vocab: &Vocabulary) -> String {
    let h = blake3::hash(format!("{}\n{vocab:?}", env!("CARGO_PKG_VERSION")).as_bytes());
    h.to_hex()[..16].to_string()
}

/// Brings the store up to date with the corpus under `root`.
pub fn build(store: &Store, root: &Path) -> Result<BuildReport, StoreError> {
    build_with(store, root, &BuildOptions::default())
}

/// Files extracted together before their documents are written (bounds memory).
const BATCH_FILES: usize = 32;
/// Source bytes held at once by one batch (a single larger file is a batch of its own).
const BATCH_BYTES: u64 = 256 * 1024 * 1024;

/// A file to (re-)extract.
struct Todo {
    id: String,
    path: std::path::PathBuf,
    size: u64,
    existed: bool,
}

/// [`build`] with options (progress callback, threads).
pub fn build_with(store: &Store, root: &Path, opts: &BuildOptions) -> Result<BuildReport, StoreError> {
    let started = Instant::now();
    // A store that fails its checks is never written into (docs/ARCHITECTURE.md, "Limits").
    store.check()?;
    declare_schema(store)?;
    let vocab = opts.vocab.unwrap_or(Vocabulary::builtin());
    // The model and its prompt are part of the extractor (nothing changes without one).
    let extractor = match opts.llm {
        Some(l) => format!("{}+llm:{}", extractor_id(vocab), l.identity()),
        None => extractor_id(vocab),
    };
    let entries = tg_ingest::walk::walk_with(root, &[store.path().to_path_buf()], opts.follow_links);
    let total = entries.len();
    let mut report = BuildReport::default();
    let stored: BTreeSet<String> = store.document_ids()?.into_iter().collect();
    // Documents extracted by another version of tg or under another vocabulary are
    // extracted again, even when their bytes did not change. The new extractor is
    // recorded before the first document is written, with every document stored before
    // marked stale in the same batch: an interrupted build then redoes only what it
    // had not redone.
    if store.setting("extractor")?.as_deref() != Some(extractor.as_str()) {
        let mut settings: Vec<(String, Option<String>)> = stored.iter().map(|id| (format!("{STALE_PREFIX}{id}"), Some(String::new()))).collect();
        settings.push(("extractor".into(), Some(extractor.clone())));
        store.put_settings(&settings)?;
    }
    let mut stale: BTreeSet<String> = store.settings_with_prefix(STALE_PREFIX)?.into_iter().map(|(id, _)| id).collect();
    // A document whose write was interrupted is written again, with the file it came from
    // (an attachment's parent).
    let pending = store.pending_documents()?;
    stale.extend(pending.iter().map(|id| id.split('#').next().unwrap_or(id).to_string()));
    let corpus = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    if store.setting(CORPUS_SETTING)?.as_deref() != Some(&*corpus.to_string_lossy()) {
        store.put_setting(CORPUS_SETTING, &corpus.to_string_lossy())?;
    }
    // Two inputs with one id would replace each other: an error naming both.
    let mut origins: BTreeMap<String, String> = BTreeMap::new();
    for e in &entries {
        let (tg_ingest::walk::Entry::File(id, _) | tg_ingest::walk::Entry::Unreadable(id, _)) = e;
        let shown = match e {
            tg_ingest::walk::Entry::File(_, p) => p.display().to_string(),
            tg_ingest::walk::Entry::Unreadable(..) => id.clone(),
        };
        if let Some(first) = origins.insert(id.clone(), shown.clone()) {
            return Err(StoreError::IdCollision { id: id.clone(), first, second: shown });
        }
    }
    let mut seen: BTreeSet<String> = BTreeSet::new();
    // Files to (re-)extract; their bytes are read again by the extracting thread, so the
    // corpus is never held in memory at once.
    let mut todo: Vec<Todo> = vec![];
    let mut done = 0usize;
    // Documents written, with their chunks, for the model pass.
    let mut llm_docs: Vec<(String, Vec<(u64, u64)>)> = vec![];
    let tick = |done: usize, id: &str| {
        if let Some(p) = opts.progress {
            p(done, total, id);
        }
    };
    for entry in entries {
        let (id, path) = match entry {
            tg_ingest::walk::Entry::Unreadable(id, why) => {
                skip(&mut report, &id, "", why);
                done += 1;
                tick(done, &id);
                continue;
            }
            tg_ingest::walk::Entry::File(id, path) => (id, path),
        };
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        if size > tg_ingest::limits::MAX_FILE_BYTES {
            skip(&mut report, &id, "", format!("file too large ({size} bytes; limit {} bytes)", tg_ingest::limits::MAX_FILE_BYTES));
            done += 1;
            tick(done, &id);
            continue;
        }
        let hash = match tg_ingest::hash_file(&path) {
            Ok(h) => h,
            Err(e) => {
                skip(&mut report, &id, "", format!("cannot read: {}", tg_ingest::walk::io_reason(&e)));
                done += 1;
                tick(done, &id);
                continue;
            }
        };
        if let Some(old) = store.document(&id)?
            && old.source_blake3 == hash
            && !stale.contains(&id)
        {
            // Unchanged: the document and its attachments stay as they are.
            let prefix = format!("{id}#");
            let is_child = |c: &&String| c.strip_prefix(&prefix).is_some_and(|rest| rest.starts_with("attachments/") || rest.starts_with("messages/"));
            for child in stored.range(prefix.clone()..).take_while(|c| c.starts_with(&prefix)).filter(is_child) {
                seen.insert(child.clone());
                origins.insert(child.clone(), format!("an attachment of {}", path.display()));
                report.unchanged += 1;
                report.manifest.push(FileStatus {
                    id: child.clone(),
                    format: store.document(child)?.map(|r| r.format).unwrap_or_default(),
                    status: Status::Unchanged,
                    reason: None,
                    warnings: vec![],
                    facts: 0,
                    llm: None,
                });
            }
            seen.insert(id.clone());
            report.unchanged += 1;
            report.manifest.push(FileStatus { id: id.clone(), format: old.format, status: Status::Unchanged, reason: None, warnings: vec![], facts: 0, llm: None });
            done += 1;
            tick(done, &id);
            continue;
        }
        let existed = stored.contains(&id);
        todo.push(Todo { id, path, size, existed });
    }
    // Extract in parallel, write sequentially in id order (a large document's claims are
    // extracted as it is written: `tg_ingest::Streamed`).
    let enrich = |id: &str, doc: &tg_text::document::Extracted, emit: &mut dyn FnMut(tg_store::PackedFacts, Option<usize>) -> Result<(), StoreError>| {
        tg_extract::each_block_facts(id, doc, vocab, emit)
    };
    let threads = if opts.threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { opts.threads };
    let mut rest: &[Todo] = &todo;
    while !rest.is_empty() {
        // Up to BATCH_FILES files and BATCH_BYTES bytes, at least one file.
        let mut n = 0;
        let mut bytes = 0u64;
        while n < rest.len() && n < BATCH_FILES && (n == 0 || bytes + rest[n].size <= BATCH_BYTES) {
            bytes += rest[n].size;
            n += 1;
        }
        let (batch, tail) = rest.split_at(n);
        rest = tail;
        let results = extract_batch(batch, threads, opts.pdf_worker.as_deref(), &enrich);
        for (t, readies) in batch.iter().zip(results) {
            for r in readies {
                match r {
                    Err((rid, why)) => skip(&mut report, &rid, "", why),
                    Ok(ready) => {
                        let origin = if ready.id == t.id { t.path.display().to_string() } else { format!("an attachment of {}", t.path.display()) };
                        if ready.id != t.id
                            && let Some(first) = origins.get(&ready.id)
                        {
                            return Err(StoreError::IdCollision { id: ready.id.clone(), first: first.clone(), second: origin });
                        }
                        if seen.contains(&ready.id) {
                            return Err(StoreError::IdCollision { id: ready.id.clone(), first: origins.get(&ready.id).cloned().unwrap_or_default(), second: origin });
                        }
                        origins.insert(ready.id.clone(), origin);
                        let rid = ready.id.clone();
                        if opts.llm.is_some() {
                            // Marked until the model pass has added its claims (an
                            // interrupted pass is redone by the next build).
                            store.put_setting(&format!("{STALE_PREFIX}{rid}"), "")?;
                            llm_docs.push((rid.clone(), chunk_spans(&ready).unwrap_or_default()));
                        }
                        write_ready(store, &stored, ready, &enrich, t.existed, &mut report, &mut seen)?;
                        if stale.contains(&rid) && opts.llm.is_none() {
                            store.delete_setting(&format!("{STALE_PREFIX}{rid}"))?;
                        }
                    }
                }
            }
            report.bytes_extracted += t.size;
            done += 1;
            tick(done, &t.id);
        }
    }
    for id in &stored {
        // Scripts stored by `tg load` are not corpus files: a build keeps them.
        if !seen.contains(id) && store.document(id)?.is_none_or(|r| r.format != tg_store::SCRIPT_FORMAT) {
            store.retract_document(id)?;
            if stale.contains(id) {
                store.delete_setting(&format!("{STALE_PREFIX}{id}"))?;
            }
            report.removed.push(id.clone());
            let kept = tg_rules::claims::ledger::claims_of(store, id)?;
            if kept > 0 {
                report.ledger_warnings.push((id.clone(), format!("document removed; its {kept} outside claim(s) stay in the ledger without facts until it returns")));
            }
        }
    }
    if let Some(llm) = opts.llm {
        let (summary, results) = tg_llm::run(store, vocab, llm, &llm_docs, STALE_PREFIX, opts.progress)?;
        let index: BTreeMap<String, usize> = report.manifest.iter().enumerate().map(|(i, f)| (f.id.clone(), i)).collect();
        for r in results {
            report.facts_written += r.facts;
            if let Some(f) = index.get(&r.id).and_then(|&i| report.manifest.get_mut(i)) {
                f.facts += r.facts;
                f.warnings.extend(r.warnings);
                f.llm = Some(r.stats);
            }
        }
        report.llm = Some(summary);
    }
    report.manifest.sort_by(|a, b| a.id.cmp(&b.id));
    report.skipped = report.manifest.iter().filter(|f| f.status == Status::Skipped).map(|f| (f.id.clone(), f.reason.clone().unwrap_or_default())).collect();
    let json = serde_json::to_string(&report.manifest).map_err(|e| StoreError::Corruption { path: store.path().to_path_buf(), detail: e.to_string() })?;
    store.put_manifest(&json)?;
    report.elapsed = started.elapsed();
    Ok(report)
}

fn skip(report: &mut BuildReport, id: &str, format: &str, why: impl Into<String>) {
    report.manifest.push(FileStatus { id: id.to_string(), format: format.to_string(), status: Status::Skipped, reason: Some(why.into()), warnings: vec![], facts: 0, llm: None });
}

/// Reads and extracts a batch of files on `threads` threads; results in batch order.
fn extract_batch(batch: &[Todo], threads: usize, worker: Option<&Path>, enrich: tg_ingest::Enrich) -> Vec<Extractions> {
    let one = |t: &Todo| {
        let mut out = vec![];
        match std::fs::read(&t.path) {
            Ok(bytes) => tg_ingest::extract_tree(&t.id, &t.id, bytes, 0, worker, enrich, &mut out),
            Err(e) => out.push(Err((t.id.clone(), format!("cannot read: {}", tg_ingest::walk::io_reason(&e))))),
        }
        out
    };
    // A batch of one file (or one thread) is extracted on this thread: the memory its
    // extraction frees is then reused by the store's write of it, where a worker thread's
    // malloc arena would keep it (~100 MB of the peak of a corpus of one 50,000-row table).
    if threads <= 1 || batch.len() <= 1 {
        return batch.iter().map(one).collect();
    }
    let next = AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Extractions>> = batch.iter().map(|_| std::sync::Mutex::new(vec![])).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, batch.len().max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(t) = batch.get(i) else { break };
                    let out = one(t);
                    if let Ok(mut slot) = slots[i].lock() {
                        *slot = out;
                    }
                }
            });
        }
    });
    slots.into_iter().map(|m| m.into_inner().unwrap_or_default()).collect()
}

fn write_ready(
    store: &Store,
    stored: &BTreeSet<String>,
    mut ready: Ingested,
    enrich: tg_ingest::Enrich,
    parent_existed: bool,
    report: &mut BuildReport,
    seen: &mut BTreeSet<String>,
) -> Result<(), StoreError> {
    let existed = stored.contains(&ready.id) || (parent_existed && !ready.id.contains('#'));
    // Outside claims and verdicts the ledger keeps for this document, cited again in the
    // new text and written in the same batch (docs/CLAIMS.md, "Rebuilds").
    let (outside, stale) = tg_rules::claims::ledger::document_facts(store, &ready.id, &ready.doc.text)?;
    ready.facts.extend_from_slice(&outside);
    ready.doc.warnings.extend(stale);
    // A large document's facts go to the store in pieces (docs/ARCHITECTURE.md, "Large documents").
    // (A large document's claims are extracted here, a block at a time, as they are written.)
    let source = tg_ingest::Streamed::new(&ready, enrich);
    let written = store.put_document_from(&NewDocument { id: &ready.id, format: ready.doc.format, source: ready.source, text: &ready.doc.text }, &source);
    let refusals = source.warnings();
    let Ingested { id, mut doc, .. } = ready;
    doc.warnings.extend(refusals);
    match written {
        Ok(n) => {
            seen.insert(id.clone());
            report.facts_written += n;
            let status = if existed { Status::Changed } else { Status::Added };
            if existed {
                report.changed.push(id.clone())
            } else {
                report.added.push(id.clone())
            }
            report.manifest.push(FileStatus { id, format: doc.format.to_string(), status, reason: None, warnings: doc.warnings, facts: n, llm: None });
            Ok(())
        }
        // A span the store refuses is an extractor bug: skip the document, keep building.
        Err(e @ (StoreError::Span { .. } | StoreError::Uncited { .. } | StoreError::Schema { .. })) => {
            skip(report, &id, doc.format, format!("internal error, not stored: {e}"));
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// The spans of a document's chunks (for the model pass).
fn chunk_spans(ready: &Ingested) -> Result<Vec<(u64, u64)>, StoreError> {
    let mut out = vec![];
    tg_store::FactSource::each(ready, &mut |piece| {
        out.extend(piece.iter().filter(|f| f.rel == "chunk").flat_map(|f| f.spans.iter().copied()));
        Ok(())
    })?;
    Ok(out)
}
