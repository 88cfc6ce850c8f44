//! Ingest: corpus files → canonical documents and STRUCTURAL facts.
//!
//! [`walk`] lists a corpus (ids, ignore files, links), [`formats`] turn each file's
//! bytes into a [`tg_text::document::Extracted`] (each extractor under `catch_unwind`,
//! PDFs optionally in a child process, [`pdf_worker`]), and [`facts`] turns a document
//! into its structural facts (document, sections, chunks, fields, messages). E-mail
//! attachments become documents of their own, with ids `PARENT#attachments/N/NAME`
//! ([`extract_tree`]). The build pipeline that stores them, extracts claims and keeps
//! the manifest is the application layer's (`engine/app/build.rs`); this crate never writes
//! to the store.

pub mod facts;
pub mod formats;
pub mod limits;
pub mod logs;
pub mod pdf_worker;
pub mod sources;
pub mod structure;
pub mod walk;

use std::path::Path;

use tg_store::{CitedFact, FactSource, PackedFacts, Piece, SourceDigest, StoreError};
use tg_text::document::{Extracted, Skip};

pub use facts::paragraphs;

/// One extracted document ready to store (a file or an attachment): its id, source
/// bytes, canonical document and facts.
pub struct Ingested {
    /// Document id.
    pub id: String,
    /// The size and hash of the bytes it was extracted from (the bytes themselves are
    /// dropped once extracted).
    pub source: SourceDigest,
    /// The canonical document.
    pub doc: Extracted,
    /// Its structural facts and whatever the enrichment added, packed; for a large
    /// document ([`Ingested::deferred`]) neither: only what the writer adds.
    pub facts: PackedFacts,
    /// For a document of at least [`limits::stream_bytes`] bytes of text: its attachments'
    /// ids, its structural facts being made from `doc` in pieces as the store writes them
    /// ([`FactSource`]) instead of held in `facts`, and its enrichment made then too
    /// ([`Streamed`]).
    pub deferred: Option<Vec<String>>,
}

impl Ingested {
    /// A deferred document's structural facts, made now, in pieces (none for another). A
    /// panic while making them is an error.
    fn each_structural(&self, emit: &mut dyn FnMut(&[CitedFact]) -> Result<(), StoreError>) -> Result<(), StoreError> {
        let Some(children) = &self.deferred else { return Ok(()) };
        match catch_quietly(|| facts::each_fact(&self.id, &self.doc, children, &mut *emit)) {
            Ok(r) => r,
            Err(msg) => Err(StoreError::Schema { rel: "(structure)".into(), detail: format!("structure detection failed: {}", first_line(&msg)) }),
        }
    }
}

/// Every fact of the document in order: its structural facts (made now, in pieces, when
/// deferred), then `facts`, a piece at a time; a deferred document's enrichment is not
/// among them ([`Streamed`] adds it). A panic while making them is an error.
impl FactSource for Ingested {
    fn each(&self, emit: &mut dyn FnMut(&[CitedFact]) -> Result<(), StoreError>) -> Result<(), StoreError> {
        self.each_structural(emit)?;
        self.facts.each(emit)
    }
}

/// A document's facts as the store takes them, a deferred document's enrichment made as
/// they are written (block by block, read once: [`FactSource::once`]) so that its facts
/// are never all in memory; another document's as [`Ingested`] gives them. The order is
/// that of a document not deferred: structural facts, the enrichment's, then `facts`
/// (what the writer added after the enrichment).
pub struct Streamed<'a> {
    ready: &'a Ingested,
    enrich: Enrich<'a>,
    warnings: std::cell::RefCell<Vec<String>>,
}

impl<'a> Streamed<'a> {
    /// The facts of `ready`, enriched by `enrich` (the one [`extract_tree`] was given).
    pub fn new(ready: &'a Ingested, enrich: Enrich<'a>) -> Streamed<'a> {
        Streamed { ready, enrich, warnings: std::cell::RefCell::new(vec![]) }
    }

    /// The enrichment's warnings (a deferred document's, once its facts were given).
    pub fn warnings(self) -> Vec<String> {
        self.warnings.into_inner()
    }
}

impl FactSource for Streamed<'_> {
    fn each(&self, emit: &mut dyn FnMut(&[CitedFact]) -> Result<(), StoreError>) -> Result<(), StoreError> {
        self.each_piece(&mut |piece| match piece {
            Piece::Facts(facts) => emit(facts),
            Piece::Settled(_) => Ok(()),
        })
    }

    /// A deferred document's facts with a [`Piece::Settled`] mark after each block of its
    /// enrichment but the last: its chunks (structural) all came first, and no later
    /// block's mention begins before the next block does.
    fn each_piece(&self, emit: &mut dyn FnMut(Piece) -> Result<(), StoreError>) -> Result<(), StoreError> {
        let r = self.ready;
        let mut facts = |f: &[CitedFact]| emit(Piece::Facts(f));
        if r.deferred.is_none() {
            return r.each(&mut facts);
        }
        r.each_structural(&mut facts)?;
        let mut blocks = |block: PackedFacts, next: Option<usize>| {
            block.each(&mut |f| emit(Piece::Facts(f)))?;
            match next {
                Some(x) => emit(Piece::Settled(x as u64)),
                None => Ok(()),
            }
        };
        let warnings = match catch_quietly(|| (self.enrich)(&r.id, &r.doc, &mut blocks)) {
            Ok(w) => w?,
            Err(msg) => return Err(StoreError::Schema { rel: "(claims)".into(), detail: format!("extraction failed: {}", first_line(&msg)) }),
        };
        *self.warnings.borrow_mut() = warnings;
        r.facts.each(&mut |f| emit(Piece::Facts(f)))
    }

    fn once(&self) -> bool {
        self.ready.deferred.is_some()
    }
}

/// One file's extraction results: its document and its attachments, or (id, reason) skips.
pub type Extractions = Vec<Result<Ingested, (String, String)>>;

/// Facts a later layer adds to a document (claims), given to the callback a block at a
/// time with the byte the next block begins at (`None` after the last; no later block's
/// mention begins before it), returning warnings. Runs under the same panic guard as the
/// extractors: a panic skips the document. A deferred document's is run as the store writes it ([`Streamed`]).
pub type Enrich<'a> = &'a (dyn Fn(&str, &Extracted, &mut dyn FnMut(PackedFacts, Option<usize>) -> Result<(), StoreError>) -> Result<Vec<String>, StoreError> + Sync);

thread_local! {
    static QUIET_PANICS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Installs (once) a panic hook that stays silent for panics caught inside extraction
/// (they become skips with a reason) and defers to the previous hook otherwise.
fn install_quiet_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET_PANICS.with(|q| q.get()) {
                previous(info);
            }
        }));
    });
}

/// Runs `f`, turning a panic into `Err(message)` without printing it.
pub fn catch_quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_quiet_hook();
    let was = QUIET_PANICS.with(|q| q.replace(true));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET_PANICS.with(|q| q.set(was));
    r.map_err(|p| {
        if let Some(s) = p.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = p.downcast_ref::<String>() {
            s.clone()
        } else {
            "unknown panic".into()
        }
    })
}

/// Extracts a file and, recursively, its attachments, into `out` (the file first); each
/// document's facts are its structural facts plus what `enrich` adds. `worker` is a `tg`
/// binary to extract PDFs in (see [`pdf_worker`]). Never panics.
pub fn extract_tree(id: &str, name: &str, bytes: Vec<u8>, depth: u32, worker: Option<&Path>, enrich: Enrich, out: &mut Extractions) {
    let is_pdf = formats::extension(name) == "pdf" || bytes.starts_with(b"%PDF-");
    let result = match worker {
        Some(exe) if is_pdf => pdf_worker::extract_in_child(exe, &bytes),
        _ => match catch_quietly(|| formats::extract(name, &bytes)) {
            Ok(r) => r,
            Err(msg) => Err(Skip::new(format!("extractor failed: {}", first_line(&msg)))),
        },
    };
    match result {
        Err(s) => out.push(Err((id.to_string(), s.0))),
        Ok(mut doc) => {
            let attachments = std::mem::take(&mut doc.attachments);
            let mut kept = vec![];
            let mut children = vec![];
            let mut nested = vec![];
            for mut a in attachments {
                let child = format!("{id}#{}", walk::escape_text(&a.suffix));
                if depth >= limits::MAX_ATTACHMENT_DEPTH {
                    doc.warnings.push(format!("attachment {} not ingested: nesting deeper than {}", a.name, limits::MAX_ATTACHMENT_DEPTH));
                    continue;
                }
                children.push(child.clone());
                nested.push((child, a.name.clone(), std::mem::take(&mut a.bytes)));
                kept.push(a);
            }
            doc.attachments = kept;
            // A large document's structural facts are made as they are written.
            let deferred = doc.text.len() >= limits::stream_bytes();
            let facts = match catch_quietly(|| {
                let mut f = PackedFacts::new();
                if !deferred {
                    // Packed a piece at a time: the structural facts are never one vector.
                    facts::each_fact(id, &doc, &children, &mut |piece| {
                        f.extend_from_slice(piece);
                        Ok(())
                    })?;
                }
                if deferred {
                    // Enriched as it is written (`Streamed`).
                    return Ok::<_, StoreError>((f, vec![]));
                }
                let refusals = enrich(id, &doc, &mut |claims, _| {
                    if f.is_empty() {
                        f = claims;
                        Ok(())
                    } else {
                        f.append(&claims)
                    }
                })?;
                f.seal();
                Ok::<_, StoreError>((f, refusals))
            }) {
                Ok(Ok((f, refusals))) => {
                    doc.warnings.extend(refusals);
                    f
                }
                Ok(Err(e)) => {
                    out.push(Err((id.to_string(), format!("structure detection failed: {e}"))));
                    return;
                }
                Err(msg) => {
                    out.push(Err((id.to_string(), format!("structure detection failed: {}", first_line(&msg)))));
                    return;
                }
            };
            out.push(Ok(Ingested { id: id.to_string(), source: SourceDigest::of(&bytes), doc, facts, deferred: deferred.then_some(children) }));
            for (child, name, b) in nested {
                extract_tree(&child, &name, b, depth + 1, worker, enrich, out);
            }
        }
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// The setting naming the corpus root (absolute) the documents were read from: `tg verify`
/// re-hashes the source files there.
pub const CORPUS_SETTING: &str = "corpus";

/// blake3 of a file, streamed (constant memory).
pub fn hash_file(path: &Path) -> std::io::Result<String> {
    let mut h = blake3::Hasher::new();
    let mut f = std::fs::File::open(path)?;
    std::io::copy(&mut f, &mut h)?;
    Ok(h.finalize().to_hex().to_string())
}
