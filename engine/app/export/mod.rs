//! `tg export --format cypher|csv|graphml|jsonld|turtle` (issue 23, docs/EXPORT.md): the
//! case graph in the formats other tools load — Kuzu (Cypher script, or CSV files with
//! their `COPY` statements), networkx and other GraphML readers, RDF stores (Turtle,
//! JSON-LD). Claims are reified (a claim node / `rdf:Statement` with subject, relation,
//! object, modality, asserter, quote, citation and tag); entities carry their `same_as`
//! class; derived facts name their rule. `--format json` stays in `store::export`.
//!
//! Every writer works from one [`model::Graph`] read in sorted order, and formats numbers
//! and text the same way each time, so equal stores give byte-identical files.

pub mod csv;
pub mod cypher;
pub mod graphml;
pub mod model;
pub mod rdf;
pub mod tables;

use std::path::{Path, PathBuf};

use tg_store::output::{OutputError, write_output};
use tg_store::{Store, StoreError};

/// The formats of this module (json is the store's own).
pub const FORMATS: &[&str] = &["cypher", "csv", "graphml", "jsonld", "turtle", "html"];

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Reading the store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Writing an output file failed (or was refused).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The format is not one of [`FORMATS`].
    #[error("unknown export format {0:?} (expected one of json, cypher, csv, graphml, jsonld, turtle, html)")]
    Format(String),
    /// `--format csv` writes a folder of files: it needs `-o DIR`.
    #[error("--format csv writes one file per table: give a folder with -o DIR (standard output cannot hold several files)")]
    NeedsFolder,
}

/// What an export produced: one text, or a folder's files (name, contents).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rendered {
    /// One file's text.
    Text(String),
    /// Several files, by name, in a fixed order.
    Files(Vec<(String, String)>),
}

/// Renders the store's graph in one of [`FORMATS`].
pub fn render(store: &Store, format: &str) -> Result<(Rendered, model::Graph), ExportError> {
    let g = model::Graph::from_store(store)?;
    let out = match format {
        "cypher" => Rendered::Text(cypher::write(&tables::tables(&g))),
        "csv" => Rendered::Files(csv::write(&tables::tables(&g))),
        "graphml" => Rendered::Text(graphml::write(&tables::tables(&g))),
        "turtle" => Rendered::Text(rdf::turtle(&g)),
        "jsonld" => Rendered::Text(rdf::jsonld(&g)),
        "html" => Rendered::Text(crate::console::html(store)?),
        other => return Err(ExportError::Format(other.to_string())),
    };
    Ok((out, g))
}

fn resolved(path: &Path) -> PathBuf {
    let abs = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir().map(|d| d.join(path)).unwrap_or_else(|_| path.to_path_buf()) };
    // The nearest existing ancestor with its links resolved, then the rest as given.
    let mut existing = abs.clone();
    let mut rest = vec![];
    while !existing.exists() {
        match (existing.file_name().map(|n| n.to_os_string()), existing.parent().map(Path::to_path_buf)) {
            (Some(n), Some(p)) => {
                rest.push(n);
                existing = p;
            }
            _ => break,
        }
    }
    let mut out = existing.canonicalize().unwrap_or(existing);
    for n in rest.into_iter().rev() {
        out.push(n);
    }
    out
}

/// Writes a folder's files under the rules of `store::output` (never inside the store,
/// never over an existing file without `force`, never through a link): every name is
/// checked before the first file is written.
pub fn write_folder(store: &Path, dir: &Path, files: &[(String, String)], force: bool) -> Result<(), ExportError> {
    let store_dir = store.canonicalize().unwrap_or_else(|_| store.to_path_buf());
    if resolved(dir).starts_with(&store_dir) {
        return Err(OutputError::InsideStore { path: dir.to_path_buf(), store: store.to_path_buf() }.into());
    }
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(OutputError::Link { path: dir.to_path_buf() }.into());
    }
    if !force {
        for (name, _) in files {
            let p = dir.join(name);
            if std::fs::symlink_metadata(&p).is_ok() {
                return Err(OutputError::Exists { path: p }.into());
            }
        }
    }
    std::fs::create_dir_all(dir).map_err(|source| OutputError::Io { path: dir.to_path_buf(), source })?;
    for (name, text) in files {
        write_output(store, &dir.join(name), text.as_bytes(), force)?;
    }
    Ok(())
}

/// `tg export` for the formats of this module: renders, then writes to `output` (`-` is
/// standard output). Returns what to print: the text itself for `-`, else one line
/// naming the file or folder and the counts.
pub fn run(store: &Store, format: &str, output: &Path, force: bool) -> Result<String, ExportError> {
    let (rendered, g) = render(store, format)?;
    let to_stdout = output.as_os_str() == "-";
    match rendered {
        Rendered::Text(text) if to_stdout => Ok(text),
        Rendered::Text(text) => {
            write_output(store.path(), output, text.as_bytes(), force)?;
            Ok(format!("wrote {} ({format}, {} bytes): {}\n", output.display(), text.len(), g.summary()))
        }
        Rendered::Files(_) if to_stdout => Err(ExportError::NeedsFolder),
        Rendered::Files(files) => {
            write_folder(store.path(), output, &files, force)?;
            let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
            Ok(format!("wrote {} ({format}, {} files, {bytes} bytes): {}\n", output.display(), files.len(), g.summary()))
        }
    }
}
