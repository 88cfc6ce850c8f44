//! Source files against the store: `tg verify` re-hashes every stored document's source
//! file in the corpus it was built from, so a file edited or deleted since the build is
//! reported rather than passing as verified.

use std::collections::BTreeSet;
use std::path::PathBuf;

use tg_store::{Store, StoreError};

/// What became of one document's source file since the build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceState {
    /// Same bytes as when it was stored.
    Same,
    /// The file is there with other bytes.
    Changed(PathBuf),
    /// The file is gone (or cannot be read: the reason).
    Missing(PathBuf, String),
}

/// The result of [`check_sources`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceReport {
    /// The corpus root the store records (`None`: it records none, nothing was checked).
    pub corpus: Option<PathBuf>,
    /// Source files checked (attachments and `tg load` scripts are not files of the corpus).
    pub checked: usize,
    /// Corpus documents that could not be checked because the store records no corpus root.
    pub unrooted: usize,
    /// Documents whose source changed or is missing, by id.
    pub problems: Vec<(String, SourceState)>,
}

/// Re-hashes the source file of every corpus document of the store. Attachments are
/// covered by their parent file; scripts stored by `tg load` are not corpus files.
pub fn check_sources(store: &Store) -> Result<SourceReport, StoreError> {
    let root = store.setting(super::CORPUS_SETTING)?.map(PathBuf::from);
    let ids: BTreeSet<String> = store.document_ids()?.into_iter().collect();
    let mut report = SourceReport { corpus: root.clone(), ..Default::default() };
    for id in &ids {
        let Some(rec) = store.document(id)? else { continue };
        if rec.format == tg_store::SCRIPT_FORMAT || is_attachment(id, &ids) {
            continue;
        }
        let Some(root) = &root else {
            report.unrooted += 1;
            continue;
        };
        report.checked += 1;
        let Some(path) = super::walk::path_of(root, id) else {
            report.problems.push((id.clone(), SourceState::Missing(root.join(id), "the id names no path".into())));
            continue;
        };
        match super::hash_file(&path) {
            Ok(h) if h == rec.source_blake3 => {}
            Ok(_) => report.problems.push((id.clone(), SourceState::Changed(path))),
            Err(e) => report.problems.push((id.clone(), SourceState::Missing(path, super::walk::io_reason(&e)))),
        }
    }
    Ok(report)
}

/// Whether `id` is an attachment (`PARENT#attachments/…` or `PARENT#messages/…`) of a stored document.
fn is_attachment(id: &str, ids: &BTreeSet<String>) -> bool {
    id.match_indices('#').any(|(i, _)| {
        let rest = &id[i + 1..];
        (rest.starts_with("attachments/") || rest.starts_with("messages/")) && ids.contains(&id[..i])
    })
}
