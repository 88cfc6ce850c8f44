//! Extraction on our fixture corpora, as a user runs it: `tg build`, then the claims in
//! `tg dump` must be exactly the hand-reviewed gold (fixtures/extraction/gold/*.tsv).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tg(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tg")).current_dir(dir).args(args).output().unwrap_or_else(|e| panic!("cannot run tg: {e}"))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tg-extract-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
    d
}

/// Builds a corpus into a fresh store and returns its dump.
fn dump_of(corpus: &str, name: &str) -> String {
    let d = scratch(name);
    let db = d.join("db");
    let o = tg(&root(), &["build", corpus, "--db", db.to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let o = tg(&root(), &["dump", "--db", db.to_str().unwrap_or_default()]);
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The dump's claims as gold lines (the id dropped), sorted.
fn claims(dump: &str) -> Vec<String> {
    let mut out = vec![];
    for l in dump.lines().filter(|l| l.starts_with("fact claim(")) {
        let (args, rest) = l["fact claim(".len()..].split_once(") ").unwrap_or_default();
        let tag = rest.split_whitespace().next().unwrap_or_default();
        let vals: Vec<String> = serde_json::from_str(&format!("[{args}]")).unwrap_or_default();
        let mut fields: Vec<String> = vals.into_iter().skip(1).collect();
        fields.push(tag.to_string());
        out.push(fields.join("\t"));
    }
    out.sort();
    out
}

fn gold(file: &str) -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(root().join(file)).unwrap_or_default();
    let (mut found, mut missed) = (vec![], vec![]);
    for l in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        match l.strip_prefix("?\t") {
            Some(m) => missed.push(m.to_string()),
            None => found.push(l.to_string()),
        }
    }
    found.sort();
    (found, missed)
}

fn check(corpus: &str, gold_file: &str, name: &str) -> String {
    let dump = dump_of(corpus, name);
    let got = claims(&dump);
    let (want, missed) = gold(gold_file);
    assert!(!want.is_empty());
    assert_eq!(got, want, "claims of {corpus} differ from {gold_file}");
    for m in &missed {
        assert!(!got.contains(m), "{m} is found now: move it into {gold_file} as a gold line");
    }
    eprintln!("{corpus}: {} gold claims found, {} known misses (recall {:.2})", want.len(), missed.len(), want.len() as f64 / (want.len() + missed.len()) as f64);
    dump
}

#[test]
fn statements_give_exactly_the_gold_claims() {
    let dump = check("fixtures/extraction/corpus", "fixtures/extraction/gold/statements.tsv", "statements");
    // Values and validity carried with the claims, each cited.
    assert!(dump.contains("\", \"amount\", \"250000\") EXTRACTED supports=1\n  [statements.txt:"), "{dump}");
    assert!(dump.contains("\", \"2024-04-02\") EXTRACTED supports=1"), "claim_valid of the first wire");
    assert!(dump.contains("\", \"should read\") EXTRACTED supports=1"), "the correction cue");
    assert!(dump.contains("fact coref(\"statements.txt\", \"Fund\", \"Organization:tern capital corp\") INFERRED"), "{dump}");
    assert!(dump.contains("fact claim_antecedent("), "the inferred claim names its antecedent");
    // Every citation re-hashes.
    assert!(dump.contains("fact entity(\"Money:EUR 90000\", \"Money\") EXTRACTED"), "EUR 90.000,00 normalised");
}

#[test]
fn the_case_files_give_exactly_the_gold_claims() {
    let dump = check("fixtures/case-files", "fixtures/extraction/gold/case-files.tsv", "case");
    assert!(dump.contains("fact entity(\"Organization:delta freight inc\", \"Organization\") EXTRACTED"));
    assert!(!dump.contains("fact entity(\"Email:2024"), "message ids are not e-mail addresses");
}

#[test]
fn the_prompt_for_outside_extractors_comes_from_the_vocabulary() {
    let o = tg(&root(), &["vocab", "prompt"]);
    assert_eq!(o.status.code(), Some(0));
    let prompt = String::from_utf8_lossy(&o.stdout).into_owned();
    let vocab = std::fs::read_to_string(root().join("stdlib/vocab/finance.toml")).unwrap_or_default();
    let relations: Vec<&str> = vocab.lines().filter_map(|l| l.strip_prefix("[relations.")).map(|l| l.trim_end_matches(']')).collect();
    assert!(relations.len() >= 14);
    for r in relations {
        assert!(prompt.contains(&format!("\n- {r} (")), "{r} missing from the prompt");
    }
    assert!(prompt.contains("must be copied verbatim"));
    // A case vocabulary drives the prompt the same way; a broken one is refused by name.
    let d = scratch("vocab");
    std::fs::write(d.join("case.toml"), "[types.Person]\ndescription = \"a person\"\n[relations.MET]\nsubject = [\"Person\"]\nobject = [\"Person\"]\ndescription = \"met\"\n").unwrap_or_default();
    let o = tg(&d, &["vocab", "show", "--vocab", "case.toml"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "MET\tPerson -> Person\n");
    std::fs::write(d.join("bad.toml"), "[types.Person]\ndescription = \"a person\"\n[relations.MET]\nsubject = [\"Person\"]\nobject = [\"Ghost\"]\ndescription = \"met\"\n").unwrap_or_default();
    let o = tg(&d, &["vocab", "prompt", "--vocab", "bad.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "tg: vocabulary bad.toml: relation MET names type Ghost, which [types] does not declare\n");
}
