//! The rule library: the stdlib rule files embedded in the binary, and the rule files a
//! case registers (`tg rules add`), composed into the one program `tg derive` runs.
//!
//! Registered files live in the store (`meta`, key `rulefile:NAME`, JSON with the path it
//! came from and its text), so a case carries its rules with it and a later `tg derive`
//! needs no paths. A file is registered only if it compiles together with the stdlib and
//! every file already registered; its errors point at the file's own line and column.

use std::path::Path;

use tg_datalog::driver::{Compiled, Compiler};
use tg_store::{Store, StoreError, Value};

pub mod oneoff;

/// The stdlib rule files, in the order they are composed: the schema first, then the rules.
pub const STDLIB: &[(&str, &str)] = &[
    ("stdlib/schema.dl", crate::schema::SCHEMA_DL),
    ("stdlib/identity.dl", include_str!("../../stdlib/identity.dl")),
    ("stdlib/temporal.dl", include_str!("../../stdlib/temporal.dl")),
    ("stdlib/conflict.dl", include_str!("../../stdlib/conflict.dl")),
    ("stdlib/inference.dl", include_str!("../../stdlib/inference.dl")),
    ("stdlib/links.dl", include_str!("../../stdlib/links.dl")),
];

/// A compiler for rule-library programs: the Datalog engine with tg's host functors
/// ([`crate::host::HOSTS`]). Every tg command that compiles rules uses it.
pub fn compiler() -> Compiler {
    Compiler::new().hosts(crate::host::HOSTS)
}

/// Relations of the stdlib that are scaffolding — the steps entity resolution, link
/// prediction and the temporal rules are built from, not conclusions an investigator
/// reads. `tg derive` folds their changes into one line and `tg explain` folds them in
/// traces (`--full` shows them).
pub fn scaffolding(rel: &str) -> bool {
    const HELPERS: &[&str] = &[
        "affirms",
        "candidate_link",
        "canonical",
        "claim_closed",
        "claim_dated",
        "claim_from",
        "claim_resolved",
        "claim_window",
        "common_neighbour",
        "current",
        "degree",
        "fact_edge",
        "graph_type",
        "link_score",
        "neighbour",
        "node",
        "resolved",
        "single_valued",
    ];
    // An analyst's judgement is evidence, not a step.
    (rel.starts_with("er_") && rel != "er_judgement") || HELPERS.contains(&rel)
}

/// Why a rule-library operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RulebookError {
    /// The rule file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The file's name does not make a rule-file name.
    #[error("{0}: a rule file's name must be letters, digits, '-' or '_' and end in .dl")]
    Name(String),
    /// The program does not compile (rendered diagnostics with file:line:col).
    #[error("{0}")]
    Program(#[from] tg_datalog::driver::CompileError),
    /// Evaluating the program failed (a rendered diagnostic: a budget, a cancellation).
    #[error("{0}")]
    Evaluation(String),
    /// No registered rule file has that name.
    #[error("no rule file named {name} is registered; registered: {registered}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// What is registered.
        registered: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A rule file registered with a case.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RuleFile {
    /// Its name (the file stem): what `tg rules remove` takes.
    pub name: String,
    /// The path it was added from (shown in diagnostics).
    pub path: String,
    /// Its text as added.
    pub text: String,
}

/// The rule files registered with the store, by name.
pub fn registered(store: &Store) -> Result<Vec<RuleFile>, RulebookError> {
    let mut out = vec![];
    for (_, json) in store.settings_with_prefix("rulefile:")? {
        if let Ok(f) = serde_json::from_str::<RuleFile>(&json) {
            out.push(f);
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Every source of the case's program: the stdlib, then the registered files (plus `extra`).
fn sources(files: &[RuleFile]) -> Vec<(String, String)> {
    STDLIB.iter().map(|(p, t)| (p.to_string(), t.to_string())).chain(files.iter().map(|f| (f.path.clone(), f.text.clone()))).collect()
}

/// Compiles the stdlib alone (what `tg resolve --names` runs).
pub fn stdlib() -> Result<Compiled, RulebookError> {
    compiler().sources(&sources(&[])).map_err(RulebookError::Program)
}

/// Compiles the case's program: the stdlib and every registered rule file.
pub fn program(store: &Store) -> Result<(Compiled, String), RulebookError> {
    let files = registered(store)?;
    let label = if files.is_empty() { "stdlib".to_string() } else { format!("stdlib + {}", files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>().join(" + ")) };
    Ok((compiler().sources(&sources(&files)).map_err(RulebookError::Program)?, label))
}

/// Registers a rule file (replacing one of the same name) after checking that it compiles
/// with the stdlib and the other registered files. Returns its name.
pub fn add(store: &Store, path: &Path) -> Result<String, RulebookError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| RulebookError::Read { path: shown.clone(), source })?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".dl"))
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .ok_or_else(|| RulebookError::Name(shown.clone()))?
        .to_string();
    let mut files: Vec<RuleFile> = registered(store)?.into_iter().filter(|f| f.name != name).collect();
    files.push(RuleFile { name: name.clone(), path: shown, text });
    compiler().sources(&sources(&files)).map_err(RulebookError::Program)?;
    let Some(f) = files.pop() else { return Ok(name) };
    store.put_setting(&format!("rulefile:{name}"), &serde_json::to_string(&f).unwrap_or_default())?;
    Ok(name)
}

/// Unregisters a rule file by name.
pub fn remove(store: &Store, name: &str) -> Result<(), RulebookError> {
    let files = registered(store)?;
    if !files.iter().any(|f| f.name == name) {
        let registered = if files.is_empty() { "none".to_string() } else { files.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ") };
        return Err(RulebookError::Unknown { name: name.to_string(), registered });
    }
    store.delete_setting(&format!("rulefile:{name}"))?;
    Ok(())
}

/// An analyst's judgements on entity pairs (`tg resolve --accept/--reject`), as the
/// `er_judgement(a, b, verdict)` facts the identity rules read.
pub fn judgements(store: &Store) -> Result<Vec<(String, Vec<Value>)>, RulebookError> {
    let mut out = vec![];
    for (key, verdict) in store.settings_with_prefix("judgement:")? {
        let Some((a, b)) = key.split_once('\u{1f}') else { continue };
        out.push(("er_judgement".to_string(), vec![Value::Sym(a.into()), Value::Sym(b.into()), Value::Sym(verdict)]));
    }
    Ok(out)
}

/// Records an analyst's judgement (`accept` or `reject`) on a pair, replacing any earlier one.
pub fn judge(store: &Store, a: &str, b: &str, verdict: &str) -> Result<(), RulebookError> {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    store.put_setting(&format!("judgement:{a}\u{1f}{b}"), verdict)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The stdlib compiles without a warning: every command that composes it would print one.
    #[test]
    fn stdlib_compiles_without_warnings() {
        let c = super::stdlib().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.warnings, "");
    }
}
