//! Errors of the fact base, each naming the store (and document) concerned.

use std::path::PathBuf;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// Another process has the store open.
    #[error("store {} is in use by another process{}; wait for it to finish or use another --db", path.display(), holder.as_ref().map(|h| format!(" ({h})")).unwrap_or_default())]
    Locked {
        /// The store.
        path: PathBuf,
        /// What the holder recorded when it opened the store.
        holder: Option<String>,
    },
    /// The store was written in another format.
    #[error("store {} has format {found}, this tg reads {expected}; rebuild it into a new --db", path.display())]
    Format {
        /// The store.
        path: PathBuf,
        /// The format found.
        found: String,
        /// The format expected.
        expected: &'static str,
    },
    /// The store's contents are inconsistent.
    #[error("store {} is corrupt: {detail}", path.display())]
    Corruption {
        /// The store.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// A filesystem error.
    #[error("store {}: {source}", path.display())]
    Io {
        /// The store.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// An error of the storage engine.
    #[error("store {}: {detail}", path.display())]
    Backend {
        /// The store.
        path: PathBuf,
        /// fjall's error, described.
        detail: String,
    },
    /// A fact does not fit its relation's schema.
    #[error("relation {rel}: {detail}")]
    Schema {
        /// The relation.
        rel: String,
        /// What does not fit.
        detail: String,
    },
    /// A citation does not lie within its document's text.
    #[error("document {doc}: span {start}-{end} is not within its text of {len} bytes on character boundaries")]
    Span {
        /// The document.
        doc: String,
        /// Span start.
        start: u64,
        /// Span end.
        end: u64,
        /// Text length.
        len: u64,
    },
    /// A document the operation needs is not stored.
    #[error("document {doc} is not in the store")]
    NoDocument {
        /// The document id.
        doc: String,
    },
    /// A fact without any citation.
    #[error("document {doc}: a {rel} fact has no citation; every stored fact needs a byte span")]
    Uncited {
        /// The document.
        doc: String,
        /// The relation.
        rel: String,
    },
}

impl StoreError {
    pub(super) fn backend(path: &std::path::Path, e: fjall::Error) -> StoreError {
        let detail = match e {
            fjall::Error::Io(io) => format!("i/o error: {io}"),
            fjall::Error::JournalRecovery(r) => format!("journal cannot be recovered: {r:?}"),
            fjall::Error::Poisoned => "a failed write poisoned the store; reopen it".into(),
            other => format!("{other:?}"),
        };
        StoreError::Backend { path: path.to_path_buf(), detail }
    }
}
