//! The auditor's and newcomer's path (issue 20): a one-off `tg derive FILE.dl` adds to the
//! case's rule library and never wipes it, `--dry-run` stores nothing, every derivation
//! says what changed and what it found, and traces are readable.

use std::path::{Path, PathBuf};

mod common;

use common::{root, stderr, stdout, tg};

/// Builds the case files into a fresh store and derives the stdlib; returns the folder.
fn case(name: &str) -> PathBuf {
    let d = common::scratch("auditor", name);
    let corpus = root().join("fixtures/case-files");
    let o = tg(&d, &["build", corpus.to_str().unwrap_or_default(), "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = tg(&d, &["derive", "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    d
}

fn run(d: &Path, args: &[&str]) -> (i32, String, String) {
    let mut all = args.to_vec();
    all.extend(["--db", "db"]);
    let o = tg(d, &all);
    (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
}

fn rules(file: &str) -> String {
    root().join("rules").join(file).display().to_string()
}

/// The README's `tg derive rules/threads.dl` keeps the library's contradictions, merges and
/// control chains, adds the threads, and says so; the next plain derive drops only them.
#[test]
fn a_one_off_rule_file_adds_to_the_library_and_never_wipes_it() {
    let d = case("one-off");
    let (_, before, _) = run(&d, &["contradictions"]);
    assert!(before.ends_with("1 contradiction\n"), "{before}");
    let threads = rules("threads.dl");
    let (code, out, err) = run(&d, &["derive", &threads]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(4 written, 0 removed)\n"), "{out}");
    assert!(out.contains("changed:\n  +1 answers (1 now)\n  +2 same_thread (2 now)\n  +1 thread_attachment (1 now)\n"), "{out}");
    assert!(out.contains("is added for this run only: the next `tg derive` drops its conclusions"), "{out}");
    // The library's results are all still there.
    let (_, after, _) = run(&d, &["contradictions"]);
    assert_eq!(after, before);
    let (code, out, _) = run(&d, &["explain", "controls_transitively(\"Person:marek novak\", \"Organization:beta holdings sa\")"]);
    assert_eq!(code, 0);
    assert!(!out.contains("not in the store"), "{out}");
    let (_, resolve, _) = run(&d, &["resolve"]);
    assert!(resolve.contains("Organization:beta holdings sa  ←  Organization:beta holdings"), "{resolve}");
    let (code, out, _) = run(&d, &["explain", "thread_attachment(\"emails/2024-03-01-reply.eml\", \"emails/2024-03-01-approval.eml#attachments/1/invoice-BH-2024-017.txt\")"]);
    assert_eq!(code, 0, "{out}");
    // The library alone again: exactly the file's conclusions go, and the report says so.
    let (code, out, err) = run(&d, &["derive"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("changed:\n  -1 answers (0 now)\n  -2 same_thread (0 now)\n  -1 thread_attachment (0 now)\n"), "{out}");
    assert_eq!(run(&d, &["contradictions"]).1, before);
}

/// `--dry-run` evaluates and reports what would change, and stores nothing.
#[test]
fn dry_run_reports_and_stores_nothing() {
    let d = case("dry-run");
    let (_, dump, _) = run(&d, &["dump"]);
    let (code, out, err) = run(&d, &["derive", &rules("documents.dl"), "--dry-run"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("dry run of stdlib + "), "{out}");
    assert!(out.contains("; nothing stored\n"), "{out}");
    assert!(out.contains("would change:\n  +10 multi_paragraph (10 now)\n  +13 paragraph_count (13 now)\n"), "{out}");
    assert_eq!(run(&d, &["dump"]).1, dump, "a dry run wrote to the store");
    // JSON carries every relation's change.
    let (code, out, _) = run(&d, &["derive", &rules("documents.dl"), "--dry-run", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
    assert_eq!(v["dry_run"], serde_json::json!(true));
    assert_eq!(v["changed"][0], serde_json::json!({"relation": "multi_paragraph", "added": 10, "removed": 0, "total": 10}));
}

/// A rule file whose declaration differs from the stdlib's is refused at its own line;
/// the store is untouched.
#[test]
fn a_clashing_declaration_is_an_error_at_its_line() {
    let d = case("clash");
    common::write(&d, "bad.dl", "// one\n.decl document(doc:number)\n.decl x(d:number)\nx(d) :- document(d).\n");
    let (_, dump, _) = run(&d, &["dump"]);
    let (code, out, err) = run(&d, &["derive", "bad.dl"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("error[TG0201]: redefinition of relation document\n  --> bad.dl:2:7\n"), "{err}");
    assert_eq!(run(&d, &["dump"]).1, dump);
}

/// After a derive: what was found, and the commands that show it.
#[test]
fn derive_says_what_it_found_and_where_to_look() {
    let d = case("found");
    let (code, _, err) = run(&d, &["rules", "add", &rules("aml.dl")]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&d, &["derive"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("found: 1 contradiction, 2 merges, 4 refused merges, 4 control links, 1 indirect beneficial owner, 0 payments by a common owner, 0 round trips, 1 structuring pattern, 9 predicted links\n"), "{out}");
    assert!(out.contains("look:\n  tg contradictions\n  tg resolve\n"), "{out}");
    let look = out.lines().find(|l| l.starts_with("  tg explain 'structuring(")).unwrap_or_default();
    // The suggested command works as printed.
    let fact = look.trim().trim_start_matches("tg explain '").trim_end_matches('\'');
    let (code, trace, _) = run(&d, &["explain", fact]);
    assert_eq!(code, 0, "{look}");
    assert!(trace.starts_with("structuring("), "{trace}");
}
