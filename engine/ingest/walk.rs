//! Walking a corpus folder: deterministic (sorted by name) order, dot-files,
//! `textgraph-out/`, the store's own folder and any other TextGraph store skipped, `.gitignore`, `.ignore` and `.tgignore` files respected
//! (via the `ignore` crate, also outside git repositories). Symbolic links are not
//! followed into folders (no loops); a link to a file inside the corpus is read through, a
//! link to a file outside it is skipped with the reason unless `follow_links` is set, and a
//! link that cannot be resolved becomes a skipped entry with the reason.
//!
//! Document ids are paths relative to the root with `/` between components, each
//! component escaped injectively ([`escape_component`]): `%`, `\\`, control characters
//! and bytes that are not UTF-8 become `%XX`, so two files never share an id and an id
//! never breaks a line; [`path_of`] turns an id back into its path.

use std::path::{Path, PathBuf};

/// One entry of the walk: a file to read, or a path that cannot be read and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A regular file (or a link to one): document id and path.
    File(String, PathBuf),
    /// Something that cannot be ingested: document id and reason.
    Unreadable(String, String),
}

/// The document id of `p` under `root`: its components, each escaped, joined by `/`.
pub fn id_of(root: &Path, p: &Path) -> String {
    let rel = p.strip_prefix(root).unwrap_or(p);
    let parts: Vec<String> = rel.components().map(|c| escape_component(c.as_os_str())).collect();
    parts.join("/")
}

/// One path component as id text: UTF-8 characters as they are, except `%`, `\\` and
/// control characters (newlines included), which become `%XX` per UTF-8 byte, and bytes
/// that are not UTF-8, which become `%XX` each. Injective: `%` itself is escaped.
pub fn escape_component(c: &std::ffi::OsStr) -> String {
    #[cfg(unix)]
    let bytes: std::borrow::Cow<[u8]> = std::borrow::Cow::Borrowed(std::os::unix::ffi::OsStrExt::as_bytes(c));
    #[cfg(not(unix))]
    let bytes: std::borrow::Cow<[u8]> = std::borrow::Cow::Owned(c.to_string_lossy().into_owned().into_bytes());
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for ch in chunk.valid().chars() {
            if ch == '%' || ch == '\\' || ch.is_control() {
                let mut buf = [0u8; 4];
                for b in ch.encode_utf8(&mut buf).as_bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            } else {
                out.push(ch);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Text (an attachment's name) escaped as [`escape_component`] escapes valid UTF-8: `%`,
/// `\\` and control characters become `%XX`, so no id breaks a line.
pub fn escape_text(t: &str) -> String {
    escape_component(std::ffi::OsStr::new(t))
}

/// The path of a document id under `root` (the inverse of [`id_of`]); `None` when the id
/// is not one [`id_of`] makes (a bad `%` escape, or bytes this platform cannot name).
pub fn path_of(root: &Path, id: &str) -> Option<PathBuf> {
    let mut p = root.to_path_buf();
    for part in id.split('/') {
        let mut bytes = Vec::with_capacity(part.len());
        let raw = part.as_bytes();
        let mut i = 0;
        while i < raw.len() {
            if raw[i] == b'%' {
                let hex = std::str::from_utf8(raw.get(i + 1..i + 3)?).ok()?;
                bytes.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            } else {
                bytes.push(raw[i]);
                i += 1;
            }
        }
        #[cfg(unix)]
        p.push(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(&bytes));
        #[cfg(not(unix))]
        p.push(String::from_utf8(bytes).ok()?);
    }
    Some(p)
}

/// The corpus under `root`, in sorted order, without the folders in `exclude` (the store
/// itself, when it lives inside the corpus); links to files outside the corpus are skipped.
pub fn walk(root: &Path, exclude: &[PathBuf]) -> Vec<Entry> {
    walk_with(root, exclude, false)
}

/// [`walk`], reading links to files outside the corpus too when `follow_links` is set.
pub fn walk_with(root: &Path, exclude: &[PathBuf], follow_links: bool) -> Vec<Entry> {
    let mut out = vec![];
    let canonical_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
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
                        Ok(m) if m.is_file() => {
                            let target = p.canonicalize().unwrap_or_else(|_| p.clone());
                            if follow_links || target.starts_with(&canonical_root) {
                                out.push(Entry::File(id, p));
                            } else {
                                out.push(Entry::Unreadable(id, format!("symbolic link to {} outside the corpus (not followed; --follow-links reads it)", target.display())));
                            }
                        }
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
