//! A one-off rule file (`tg derive FILE.dl`) run *with* the case's rule library, never
//! instead of it: the file is composed after the stdlib and the registered files, so the
//! library's derived layer (merges, contradictions, control chains) stays and the file's
//! conclusions are added to it.
//!
//! A file written to run on its own declares the stored relations it reads
//! (`.decl message_id(doc:symbol, id:number, msgid:symbol)`), which the stdlib already
//! declares. Such a restatement — same name, same attribute types — is accepted and
//! dropped; a declaration that differs is reported by the compiler at the file's own
//! line and column, as any redefinition.

use std::collections::BTreeMap;
use std::path::Path;

use super::{RuleFile, RulebookError, registered, sources};
use tg_datalog::ast::AstItem;
use tg_datalog::diag::Diagnostics;
use tg_datalog::diag::SourceMap;
use tg_datalog::driver::Compiled;
use tg_datalog::parse::{ParseOptions, parse_str};
use tg_store::Store;

/// The case's program with a one-off rule file: the compiled program, its label
/// (`stdlib + … + FILE`), and whether the file was already registered (then its
/// registered copy is replaced by the file's current text).
pub struct OneOff {
    /// The composed program.
    pub compiled: Compiled,
    /// What ran, for the manifest and the report.
    pub label: String,
    /// The file's name matches a registered rule file (`tg rules list`).
    pub registered: bool,
}

/// Declarations of `files`, by relation name: the attribute types as written.
fn declared(files: &[(String, String)]) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for (name, text) in files {
        let mut sm = SourceMap::default();
        let mut diags = Diagnostics::default();
        for item in parse_str(name, text, &ParseOptions { hosts: crate::host::HOSTS, ..ParseOptions::default() }, &mut sm, &mut diags).items {
            if let AstItem::Decl(d) = item {
                let types: Vec<String> = d.attrs.iter().map(|a| a.ty.clone()).collect();
                for (n, _) in &d.names {
                    out.entry(n.clone()).or_insert_with(|| types.clone());
                }
            }
        }
    }
    out
}

/// `text` with every declaration that restates one of `known` exactly blanked out
/// (replaced by spaces, newlines kept, so diagnostics keep their line and column).
pub fn drop_restatements(name: &str, text: &str, known: &BTreeMap<String, Vec<String>>) -> String {
    let mut sm = SourceMap::default();
    let mut diags = Diagnostics::default();
    let ast = parse_str(name, text, &ParseOptions { hosts: crate::host::HOSTS, ..ParseOptions::default() }, &mut sm, &mut diags);
    if diags.has_errors() {
        return text.to_string(); // the compiler reports the syntax error
    }
    let mut bytes = text.as_bytes().to_vec();
    for item in ast.items {
        let AstItem::Decl(d) = item else { continue };
        let types: Vec<String> = d.attrs.iter().map(|a| a.ty.clone()).collect();
        let same = !d.names.is_empty() && d.qualifiers.is_empty() && d.names.iter().all(|(n, _)| known.get(n) == Some(&types));
        if !same {
            continue;
        }
        let (a, b) = (d.span.start as usize, (d.span.end as usize).min(bytes.len()));
        for c in bytes.get_mut(a..b).into_iter().flatten() {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces, except inside multi-byte characters of
    // a declaration (names and types are ASCII; a comment inside one is blanked whole).
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Composes the case's program (stdlib + registered files) with the rule file at `path`.
pub fn program_with(store: &Store, path: &Path) -> Result<OneOff, RulebookError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| RulebookError::Read { path: shown.clone(), source })?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
    let all = registered(store)?;
    let registered = all.iter().any(|f| f.name == stem);
    let files: Vec<RuleFile> = all.into_iter().filter(|f| f.name != stem).collect();
    let base = sources(&files);
    let text = drop_restatements(&shown, &text, &declared(&base));
    let mut composed = base;
    composed.push((shown.clone(), text));
    let compiled = super::compiler().sources(&composed).map_err(RulebookError::Program)?;
    let mut label = String::from("stdlib");
    for f in &files {
        label.push_str(" + ");
        label.push_str(&f.path);
    }
    label.push_str(" + ");
    label.push_str(&shown);
    Ok(OneOff { compiled, label, registered })
}

/// The conclusions of the case's own rule files (registered or one-off), sorted: relations
/// their rules derive that no rule of the program reads (`structuring`, `thread_attachment`;
/// not the helpers `wire` or `same_thread` they are built from). What a derivation reports.
pub fn case_heads(c: &Compiled) -> Vec<String> {
    let mut read = vec![];
    for r in &c.prog.rules {
        r.body.iter().for_each(|l| l.deps(&mut read));
    }
    let read: std::collections::BTreeSet<usize> = read.into_iter().map(|(rel, _)| rel).collect();
    let mut out: Vec<String> =
        c.prog.rules.iter().filter(|r| !c.sources.path(r.span.file).starts_with("stdlib") && !read.contains(&r.head.0)).map(|r| c.prog.relations[r.head.0].name.clone()).collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A restated declaration is blanked (lines kept); a differing one stays.
    #[test]
    fn restatements_are_dropped_and_differences_kept() {
        let known: BTreeMap<String, Vec<String>> = [("a".to_string(), vec!["symbol".to_string()])].into_iter().collect();
        let text = ".decl a(x:symbol)\n.decl b(x:symbol)\n";
        assert_eq!(drop_restatements("t.dl", text, &known), "                 \n.decl b(x:symbol)\n");
        let text = ".decl a(x:number)\n";
        assert_eq!(drop_restatements("t.dl", text, &known), text);
    }
}
