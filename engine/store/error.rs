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
    /// The store named by `--db` does not exist (only `tg build` creates one).
    #[error("no store at {}; `tg build CORPUS --db {}` creates one", path.display(), path.display())]
    Missing {
        /// The path given.
        path: PathBuf,
    },
    /// The path exists but holds no TextGraph store.
    #[error("{} is not a TextGraph store (no fjall database in it)", path.display())]
    NotAStore {
        /// The path given.
        path: PathBuf,
    },
    /// Two inputs would be stored under one document id (one would replace the other).
    #[error("two inputs have the document id {id:?}: {first} and {second}; rename one of them")]
    IdCollision {
        /// The shared id.
        id: String,
        /// The first input.
        first: String,
        /// The second input.
        second: String,
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
    /// A fjall error as a store error: damaged data (checksums, headers, journal) is
    /// [`StoreError::Corruption`] with a plain description, never fjall's debug text.
    pub(super) fn backend(path: &std::path::Path, e: fjall::Error) -> StoreError {
        if is_damage(&e) {
            return StoreError::Corruption { path: path.to_path_buf(), detail: describe(e) };
        }
        StoreError::Backend { path: path.to_path_buf(), detail: describe(e) }
    }
}

/// Whether a fjall error means the data on disk is damaged.
fn is_damage(e: &fjall::Error) -> bool {
    use fjall::Error as F;
    match e {
        F::Storage(fjall::LsmError::Io(_)) | F::Io(_) | F::Poisoned | F::Locked | F::KeyspaceDeleted => false,
        F::Storage(_) | F::JournalRecovery(_) | F::InvalidVersion(_) | F::Decompress(_) | F::InvalidTrailer | F::InvalidTag(_) | F::Unrecoverable => true,
        _ => false,
    }
}

/// What a fjall error means, in words (no debug dumps).
pub(super) fn describe(e: fjall::Error) -> String {
    use fjall::Error as F;
    const RESTORE: &str = "restore the store from a backup or rebuild it into a new --db";
    match e {
        F::Io(io) | F::Storage(fjall::LsmError::Io(io)) => format!("i/o error: {io}"),
        F::Storage(fjall::LsmError::ChecksumMismatch { .. }) => format!("data fails its checksum; {RESTORE}"),
        F::Storage(fjall::LsmError::Decompress(_)) | F::Decompress(_) => format!("data cannot be decompressed; {RESTORE}"),
        F::Storage(fjall::LsmError::Utf8(_)) => format!("a name in a table file is not UTF-8; {RESTORE}"),
        F::Storage(_) | F::InvalidTrailer | F::InvalidTag(_) => format!("a table file is damaged; {RESTORE}"),
        F::JournalRecovery(_) => format!("the journal cannot be recovered; {RESTORE}"),
        F::InvalidVersion(_) => "written by an incompatible version of the storage engine".into(),
        F::Unrecoverable => format!("files the database needs are missing or damaged; {RESTORE}"),
        F::Poisoned => "a failed write poisoned the store; reopen it".into(),
        F::Locked => "locked by another process".into(),
        F::KeyspaceDeleted => "a table was deleted while in use".into(),
        _ => "unknown storage error".into(),
    }
}
