//! Tidy checks run as tests: module docs present, docs/ARCHITECTURE.md naming real modules.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_source_file_opens_with_a_module_doc() {
    let mut files = vec![];
    rust_files(&root().join("engine"), &mut files);
    rust_files(&root().join("tests"), &mut files);
    assert!(files.len() > 10);
    let missing: Vec<String> = files
        .iter()
        .filter(|f| !std::fs::read_to_string(f).unwrap_or_default().starts_with("//!"))
        .map(|f| f.display().to_string())
        .collect();
    assert!(missing.is_empty(), "files without a leading //! doc: {missing:?}");
}

#[test]
fn architecture_names_every_datalog_module_and_only_real_ones() {
    let arch = std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap_or_default();
    let mut files = vec![];
    rust_files(&root().join("engine/datalog"), &mut files);
    for f in &files {
        let stem = f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if stem == "mod" {
            continue;
        }
        assert!(arch.contains(&format!("| `{stem}`")) || arch.contains(&format!("| `{stem}` +")), "docs/ARCHITECTURE.md does not describe engine/datalog/{stem}.rs");
    }
    // Every `engine/…` or `grammar/…` path the document names exists.
    for word in arch.split(|c: char| c == '`' || c.is_whitespace()) {
        let w = word.trim_matches(|c: char| c == ',' || c == '.' || c == ')' || c == '(');
        if (w.starts_with("engine/") || w.starts_with("grammar/")) && !w.contains('*') {
            assert!(root().join(w).exists(), "docs/ARCHITECTURE.md names {w}, which does not exist");
        }
    }
}
