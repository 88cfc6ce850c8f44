//! Walking a corpus folder: deterministic (sorted by name) order, dot-files,
//! `textgraph-out/`, the store's own folder and any other TextGraph store skipped, `.gitignore`, `.ignore` and `.tgignore` files respected
//! (via the `ignore` crate, also outside git repositories). Symbolic links are not
//! followed into folders (no loops); a link to a file is read through, and a link that
//! cannot be resolved becomes a skipped entry with the reason.

use std::path::{Path, PathBuf};

/// One entry of the walk: a file to read, or a path that cannot be read and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A regular file (or a link to one): document id and path.
    File(String, PathBuf),
    /// Something that cannot be ingested: document id and reason.
    Unreadable(String, String),
}

fn id_of(root: &Path, p: &Path) -> String {
    p.strip_prefix(root).unwrap_or(p).to_string_lossy().replace('\\', "/")
}

/// The corpus under `root`, in sorted order, without the folders in `exclude` (the store
/// itself, when it lives inside the corpus).
pub fn walk(root: &Path, exclude: &[PathBuf]) -> Vec<Entry> {
    let mut out = vec![];
    let exclude: Vec<PathBuf> = exclude.iter().filter_map(|p| p.canonicalize().ok()).collect();
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .parents(false)
        .git_ignore(true)
        .git_global(false)
        .git_exclude(false)
        .require_git(false)
        .ignore(true)
        .add_custom_ignore_filename(".tgignore")
        .follow_links(false)
        .filter_entry(move |e| {
            if e.file_name() == "textgraph-out" {
                return false;
            }
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            if !is_dir {
                return true;
            }
            // Any TextGraph store (a fjall database with tg's holder file) is not case material.
            let store = e.path().join("holder").is_file() && e.path().join("keyspaces").is_dir();
            !(store || !exclude.is_empty() && e.path().canonicalize().is_ok_and(|c| exclude.contains(&c)))
        })
        .sort_by_file_name(|a, b| a.cmp(b))
        .build();
    for item in walker {
        match item {
            Err(e) => {
                let (path, msg) = error_path(&e);
                let id = path.map(|p| id_of(root, &p)).unwrap_or_else(|| "(walk)".into());
                out.push(Entry::Unreadable(id, format!("cannot read: {msg}")));
            }
            Ok(e) => {
                if e.depth() == 0 {
                    continue;
                }
                let p = e.path().to_path_buf();
                let id = id_of(root, &p);
                let Some(ft) = e.file_type() else { continue };
                if ft.is_dir() {
                    continue;
                }
                if ft.is_symlink() {
                    match std::fs::metadata(&p) {
                        Ok(m) if m.is_file() => out.push(Entry::File(id, p)),
                        Ok(m) if m.is_dir() => out.push(Entry::Unreadable(id, "symbolic link to a folder (not followed)".into())),
                        Ok(_) => out.push(Entry::Unreadable(id, "not a regular file".into())),
                        Err(err) => out.push(Entry::Unreadable(id, format!("cannot read: {}", io_reason(&err)))),
                    }
                } else if ft.is_file() {
                    out.push(Entry::File(id, p));
                } else {
                    out.push(Entry::Unreadable(id, "not a regular file".into()));
                }
            }
        }
    }
    out
}

/// A short, stable description of an IO error (no "(os error N)" suffix).
pub fn io_reason(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(40) => "symbolic link loop".into(),
        Some(13) => "permission denied".into(),
        Some(2) => "no such file (dangling link?)".into(),
        _ => {
            let s = e.to_string();
            s.split(" (os error").next().unwrap_or(&s).to_string()
        }
    }
}

fn error_path(e: &ignore::Error) -> (Option<PathBuf>, String) {
    match e {
        ignore::Error::WithPath { path, err } => (Some(path.clone()), error_path(err).1),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => error_path(err),
        ignore::Error::Io(io) => (None, io_reason(io)),
        ignore::Error::Loop { child, .. } => (Some(child.clone()), "symbolic link loop".into()),
        other => (None, other.to_string()),
    }
}

/// Every file under `p` (or `p` itself), recursively, in sorted order — without the
/// corpus walk's ignore rules and checks: for benchmarks and tools that read folders.
pub fn files_under(p: &Path) -> Vec<PathBuf> {
    fn go(p: &Path, out: &mut Vec<PathBuf>) {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p).into_iter().flatten().flatten().map(|e| e.path()).collect();
            v.sort();
            for c in v {
                go(&c, out);
            }
        } else if p.is_file() {
            out.push(p.to_path_buf());
        }
    }
    let mut out = vec![];
    go(p, &mut out);
    out
}
