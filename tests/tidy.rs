//! Tidy checks run as tests: module docs present, docs/ARCHITECTURE.md naming real modules,
//! and the crate graph being the layer DAG the document draws.

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
    let missing: Vec<String> = files.iter().filter(|f| !std::fs::read_to_string(f).unwrap_or_default().starts_with("//!")).map(|f| f.display().to_string()).collect();
    assert!(missing.is_empty(), "files without a leading //! doc: {missing:?}");
}

#[test]
fn architecture_names_every_datalog_module_and_only_real_ones() {
    let arch = std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap_or_default();
    let mut files = vec![];
    rust_files(&root().join("engine/datalog"), &mut files);
    // The crate's examples are programs, not modules.
    files.retain(|f| !f.components().any(|c| c.as_os_str() == "examples"));
    for f in &files {
        let stem = f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if stem == "mod" || stem == "lib" {
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

/// The layer DAG: each crate of the workspace (`engine/NAME`, package `tg-NAME`) with the
/// crates it may depend on. docs/ARCHITECTURE.md draws the same graph (checked below).
const LAYERS: &[(&str, &[&str])] = &[
    ("text", &[]),
    ("limits", &[]),
    ("store", &["text"]),
    ("datalog", &["limits", "text"]),
    ("ingest", &["store", "text"]),
    ("extract", &["store", "text"]),
    ("analytics", &["store", "text"]),
    ("rules", &["datalog", "extract", "ingest", "limits", "store", "text"]),
    ("llm", &["extract", "rules", "store", "text"]),
    ("gql", &["analytics", "datalog", "limits", "rules", "store", "text"]),
    ("app", &["analytics", "datalog", "extract", "gql", "ingest", "limits", "llm", "rules", "store", "text"]),
];

fn allowed(name: &str) -> &'static [&'static str] {
    LAYERS.iter().find(|(n, _)| *n == name).map(|(_, d)| *d).unwrap_or_else(|| panic!("engine/{name} is not a layer of the DAG in tests/tidy.rs"))
}

/// The `tg-*` packages a manifest depends on (any dependency table).
fn tg_dependencies(manifest: &str) -> Vec<String> {
    let mut out: Vec<String> =
        manifest.lines().filter_map(|l| l.trim().strip_prefix("tg-")).filter_map(|rest| rest.split(['.', ' ', '=']).next()).filter(|n| !n.is_empty()).map(str::to_string).collect();
    out.sort();
    out.dedup();
    out
}

fn crates() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join("engine"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("Cargo.toml").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

#[test]
fn the_layer_dag_is_acyclic_and_every_crate_is_in_it() {
    let names: Vec<&str> = LAYERS.iter().map(|(n, _)| *n).collect();
    // Listed bottom-up: every dependency comes earlier, so the graph has no cycle.
    for (i, (name, deps)) in LAYERS.iter().enumerate() {
        for d in *deps {
            let j = names.iter().position(|n| n == d).unwrap_or_else(|| panic!("{name} depends on unknown layer {d}"));
            assert!(j < i, "{name} depends on {d}, which is not below it");
        }
    }
    let mut listed: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    listed.sort();
    assert_eq!(crates(), listed, "engine/*/Cargo.toml and the DAG disagree");
}

#[test]
fn no_crate_depends_against_the_dag() {
    for name in crates() {
        let manifest = std::fs::read_to_string(root().join("engine").join(&name).join("Cargo.toml")).unwrap_or_default();
        for dep in tg_dependencies(&manifest) {
            if dep == name {
                continue;
            }
            assert!(allowed(&name).contains(&dep.as_str()), "engine/{name}/Cargo.toml depends on tg-{dep}, which the layer DAG does not allow");
        }
    }
}

#[test]
fn no_module_imports_against_the_dag() {
    for name in crates() {
        let mut files = vec![];
        rust_files(&root().join("engine").join(&name), &mut files);
        for f in files {
            // Comments may name other layers (what calls this); imports may not.
            let text: String = std::fs::read_to_string(&f).unwrap_or_default().lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
            // The facade re-exports every layer for the CLI, benches and tests only.
            assert!(!text.contains("textgraph::"), "{} reaches a layer through the facade `textgraph::`", f.display());
            for (i, _) in text.match_indices("tg_") {
                let before = text[..i].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let word: String = text[i + 3..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if !text[i + 3 + word.len()..].starts_with("::") || word == name {
                    continue;
                }
                assert!(allowed(&name).contains(&word.as_str()), "{} uses tg_{word}, which the layer DAG does not allow for tg-{name}", f.display());
            }
        }
    }
}

#[test]
fn architecture_draws_the_crate_dag() {
    let arch = std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap_or_default();
    for (name, deps) in LAYERS {
        let shown = if deps.is_empty() { "—".to_string() } else { deps.iter().map(|d| format!("`tg-{d}`")).collect::<Vec<_>>().join(", ") };
        let row = format!("| `tg-{name}` | {shown} |");
        assert!(arch.contains(&row), "docs/ARCHITECTURE.md lacks the crate row {row}");
    }
}

#[test]
fn no_unwrap_idioms_outside_tests() {
    // Clippy denies `unwrap()`/`expect()` (workspace lints); the same panic spelled
    // `unwrap_or_else(|e| panic!(…))` is denied here. tg's own regexes compile through
    // `tg_text::pattern::constant`, the one justified panic.
    let mut files = vec![];
    rust_files(&root().join("engine"), &mut files);
    let mut found = vec![];
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        if f.ends_with("cancel_tests.rs") {
            continue;
        }
        for (n, line) in outside_test_modules(&text) {
            let l = line.replace(' ', "");
            if l.contains("unwrap_or_else(|e|panic!") || l.contains("unwrap_or_else(|_|panic!") || l.contains("unwrap_or_else(||panic!") {
                found.push(format!("{}:{n}", f.display()));
            }
        }
    }
    assert!(found.is_empty(), "unwrap spelled as a panic outside tests: {found:?}");
}

/// The numbered lines (from 1) of a Rust file outside its `#[cfg(test)]` items (a module
/// or function, to its closing brace at the same indentation).
fn outside_test_modules(text: &str) -> Vec<(usize, &str)> {
    let mut out = vec![];
    let mut skip_until: Option<String> = None;
    let mut after_cfg = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(end) = &skip_until {
            if line == end {
                skip_until = None;
            }
            continue;
        }
        if after_cfg && !line.trim_start().starts_with("#[") {
            after_cfg = false;
            let indent: String = line.chars().take_while(|c| *c == ' ').collect();
            if !line.trim_end().ends_with('}') && !line.trim_end().ends_with(';') {
                skip_until = Some(format!("{indent}}}"));
            }
            continue;
        }
        if line.trim() == "#[cfg(test)]" {
            after_cfg = true;
            continue;
        }
        out.push((i + 1, line));
    }
    out
}
