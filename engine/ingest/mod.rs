//! Ingest: corpus files → canonical documents and STRUCTURAL facts in the store.
//!
//! This first cut reads UTF-8 text files (any extension) as plain text; richer
//! formats arrive with issue 4. A file that is not valid UTF-8 is skipped with a
//! warning. Rebuilding re-ingests only files whose bytes changed (by blake3) and
//! retracts documents whose files are gone, so one changed file never forces a
//! full rebuild.

use std::path::{Path, PathBuf};

use crate::store::{CitedFact, ColumnType, NewDocument, Store, StoreError, Tag, Value};

/// The schema every store carries, from `stdlib/schema.dl`.
pub const SCHEMA_DL: &str = include_str!("../../stdlib/schema.dl");

/// Declares the relations of `stdlib/schema.dl` in the store.
pub fn declare_schema(store: &Store) -> Result<(), StoreError> {
    let compiled = crate::datalog::driver::compile_str("stdlib/schema.dl", SCHEMA_DL)
        .map_err(|d| StoreError::Schema { rel: "stdlib/schema.dl".into(), detail: d })?;
    for rel in &compiled.prog.relations {
        let cols: Vec<ColumnType> = rel
            .kinds
            .iter()
            .map(|k| if *k == crate::datalog::logic::Kind::Symbol { ColumnType::Symbol } else { ColumnType::Number })
            .collect();
        store.declare(&rel.name, &cols)?;
    }
    Ok(())
}

/// What one build did.
#[derive(Debug, Default, PartialEq, Eq)]
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
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name.starts_with('.') || name == "textgraph-out" {
            continue;
        }
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.is_file() {
            out.push(p);
        }
    }
    Ok(())
}

/// The paragraphs of a text: maximal runs of non-blank lines, as byte spans.
pub fn paragraphs(text: &str) -> Vec<(u64, u64)> {
    let mut out = vec![];
    let mut start: Option<usize> = None;
    let mut end = 0;
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim().is_empty() {
            if let Some(s) = start.take() {
                out.push((s as u64, end as u64));
            }
        } else {
            if start.is_none() {
                start = Some(pos + (content.len() - content.trim_start().len()));
            }
            end = pos + content.trim_end().len();
        }
        pos += line.len();
    }
    if let Some(s) = start {
        out.push((s as u64, end as u64));
    }
    out
}

/// The facts of a plain-text document.
pub fn text_facts(id: &str, format: &str, text: &str) -> Vec<CitedFact> {
    let mut facts = vec![CitedFact {
        rel: "document".into(),
        args: vec![Value::Sym(id.into()), Value::Sym(format.into())],
        tag: Tag::Structural,
        spans: vec![(0, text.len() as u64)],
    }];
    for (i, span) in paragraphs(text).into_iter().enumerate() {
        facts.push(CitedFact { rel: "paragraph".into(), args: vec![Value::Sym(id.into()), Value::Num(i as i32)], tag: Tag::Structural, spans: vec![span] });
    }
    facts
}

/// Brings the store up to date with the corpus under `root`.
pub fn build(store: &Store, root: &Path) -> Result<BuildReport, StoreError> {
    declare_schema(store)?;
    let mut files = vec![];
    walk(root, &mut files).map_err(|e| StoreError::Io { path: root.to_path_buf(), source: e })?;
    let mut report = BuildReport::default();
    let mut seen = std::collections::BTreeSet::new();
    for path in files {
        let id = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                report.skipped.push((id, format!("cannot read: {e}")));
                continue;
            }
        };
        let Ok(text) = std::str::from_utf8(&bytes) else {
            report.skipped.push((id, "not UTF-8 text (format not supported yet)".into()));
            continue;
        };
        seen.insert(id.clone());
        let format = path.extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_else(|| "txt".into());
        let hash = blake3::hash(&bytes).to_hex().to_string();
        let old = store.document(&id)?;
        if old.as_ref().is_some_and(|r| r.source_blake3 == hash) {
            report.unchanged += 1;
            continue;
        }
        let facts = text_facts(&id, &format, text);
        store.put_document(&NewDocument { id: &id, format: &format, source: &bytes, text }, &facts)?;
        if old.is_some() { report.changed.push(id) } else { report.added.push(id) }
    }
    for id in store.document_ids()? {
        if !seen.contains(&id) {
            store.retract_document(&id)?;
            report.removed.push(id);
        }
    }
    Ok(report)
}
