//! The fact base as users meet it: `tg build`/`dump`/`verify`/`stats` on real folders,
//! supports and retraction through the library API, locking, format checks, and
//! documents that are wholly present or wholly absent after a process is killed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use textgraph::store::{CitedFact, ColumnType, NewDocument, SourceDigest, Store, StoreError, Tag, Value};

mod common;

use common::{stdout, tg, write};

fn scratch(name: &str) -> PathBuf {
    common::scratch("store", name)
}

fn corpus(root: &Path) {
    write(root, "memo.txt", "Acme Corp wired $2,000,000 to Beta Ltd.\n\nBeta Ltd is a subsidiary of Gamma Holdings.\n");
    write(root, "emails/2024-03-01.txt", "From: John Doe\n\nPlease approve the transfer.\n\n\nThanks.\n");
    write(root, "notes.md", "# Notes\n\nUnicode: Société Générale, 東京.\n");
}

#[test]
fn build_dump_verify_stats() {
    let d = scratch("basic");
    corpus(&d.join("case"));
    std::fs::write(d.join("case/blob.bin"), [0xffu8, 0xfe, 0, 1]).unwrap_or_default();
    let o = tg(&d, &["build", "case", "--db", "store"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).starts_with("3 added, 0 changed, 0 unchanged, 0 removed, 1 skipped; store store\n"), "{}", stdout(&o));
    assert!(stdout(&o).contains("skipped blob.bin: binary file (not text, format not recognised)\n"), "{}", stdout(&o));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "warning: blob.bin: binary file (not text, format not recognised)\n");
    let v = tg(&d, &["verify", "--db", "store"]);
    // 21 structural citations and 20 from extraction (entities, mentions, claims; the
    // name recogniser adds "John Doe", the organisation rules "Société Générale", a legal
    // form opening the name).
    assert_eq!(stdout(&v), "41/41 citations verified\n3/3 source files unchanged\n");
    let s = tg(&d, &["stats", "--db", "store", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&s)).unwrap_or_default();
    assert_eq!(json["documents"], 3);
    assert_eq!(json["relations"]["paragraph"], 7);
    assert_eq!(json["tags"]["STRUCTURAL"], 21);
    let dump = stdout(&tg(&d, &["dump", "--db", "store"]));
    assert!(dump.contains("fact paragraph(\"notes.md\", 1) STRUCTURAL supports=1\n  [notes.md:9-47] STRUCTURAL"), "{dump}");
    // Unchanged corpus: nothing is re-read.
    let again = tg(&d, &["build", "case", "--db", "store"]);
    assert!(stdout(&again).starts_with("0 added, 0 changed, 3 unchanged, 0 removed, 1 skipped; store store\n"), "{}", stdout(&again));
}

#[test]
fn incremental_build_equals_fresh_build() {
    let d = scratch("incr");
    corpus(&d.join("case"));
    assert_eq!(tg(&d, &["build", "case", "--db", "incr"]).status.code(), Some(0));
    // Change one file, remove one, add one; rebuild incrementally.
    write(&d.join("case"), "memo.txt", "Acme Corp wired $2,500,000 to Beta Ltd.\n\nCorrected on 3 March.\n\nSee Exhibit A.\n");
    std::fs::remove_file(d.join("case/notes.md")).unwrap_or_default();
    write(&d.join("case"), "later.txt", "A later memo.\n");
    let o = tg(&d, &["build", "case", "--db", "incr"]);
    assert!(stdout(&o).starts_with("1 added, 1 changed, 1 unchanged, 1 removed, 0 skipped; store incr\n"), "{}", stdout(&o));
    assert_eq!(tg(&d, &["build", "case", "--db", "fresh"]).status.code(), Some(0));
    let a = stdout(&tg(&d, &["dump", "--db", "incr"]));
    let b = stdout(&tg(&d, &["dump", "--db", "fresh"]));
    assert_eq!(a, b, "incremental and fresh stores differ");
    // Retract and re-add: identical again.
    let memo = std::fs::read_to_string(d.join("case/memo.txt")).unwrap_or_default();
    std::fs::remove_file(d.join("case/memo.txt")).unwrap_or_default();
    assert_eq!(tg(&d, &["build", "case", "--db", "incr"]).status.code(), Some(0));
    write(&d.join("case"), "memo.txt", &memo);
    assert_eq!(tg(&d, &["build", "case", "--db", "incr"]).status.code(), Some(0));
    assert_eq!(stdout(&tg(&d, &["dump", "--db", "incr"])), b);
}

fn doc<'a>(id: &'a str, text: &'a str) -> NewDocument<'a> {
    NewDocument { id, format: "txt", source: SourceDigest::of(text.as_bytes()), text }
}

fn mention(name: &str, span: (u64, u64)) -> CitedFact {
    CitedFact { rel: "mention".into(), args: vec![Value::Sym(name.into())], tag: Tag::Extracted, spans: vec![span] }
}

#[test]
fn a_fact_lives_while_some_document_supports_it() {
    let d = scratch("support");
    let store = Store::open(&d.join("db")).unwrap_or_else(|e| panic!("{e}"));
    store.declare("mention", &[ColumnType::Symbol]).unwrap_or_else(|e| panic!("{e}"));
    store.put_document(&doc("a.txt", "Acme paid Beta."), &[mention("Acme", (0, 4)), mention("Beta", (10, 14))]).unwrap_or_else(|e| panic!("{e}"));
    store.put_document(&doc("b.txt", "Beta replied to Acme."), &[mention("Acme", (16, 20)), mention("Beta", (0, 4))]).unwrap_or_else(|e| panic!("{e}"));
    let dump = store.dump().unwrap_or_default();
    assert!(dump.contains("fact mention(\"Acme\") EXTRACTED supports=2\n  [a.txt:0-4] EXTRACTED"), "{dump}");
    assert!(store.retract_document("a.txt").unwrap_or(false));
    assert_eq!(store.lookup("mention", &[Value::Sym("Acme".into())]).unwrap_or_default(), vec![vec![Value::Sym("Acme".into())]]);
    // Re-storing b.txt without the Acme mention drops the last support of that fact.
    store.put_document(&doc("b.txt", "Beta replied."), &[mention("Beta", (0, 4))]).unwrap_or_else(|e| panic!("{e}"));
    assert!(store.lookup("mention", &[Value::Sym("Acme".into())]).unwrap_or_default().is_empty());
    let v = store.verify().unwrap_or_default();
    assert_eq!((v.verified, v.checked, v.failures.len()), (1, 1, 0));
}

#[test]
fn bad_citations_are_refused_and_nothing_is_written() {
    let d = scratch("refuse");
    let store = Store::open(&d.join("db")).unwrap_or_else(|e| panic!("{e}"));
    store.declare("mention", &[ColumnType::Symbol]).unwrap_or_else(|e| panic!("{e}"));
    let e = store.put_document(&doc("a.txt", "Acme"), &[mention("Acme", (0, 4)), mention("Beta", (2, 9))]).err();
    assert_eq!(e.map(|e| e.to_string()).unwrap_or_default(), "document a.txt: span 2-9 is not within its text of 4 bytes on character boundaries");
    let e = store.put_document(&doc("b.txt", "é"), &[mention("x", (0, 1))]).err();
    assert!(matches!(e, Some(StoreError::Span { .. })));
    let uncited = CitedFact { rel: "mention".into(), args: vec![Value::Sym("Acme".into())], tag: Tag::Extracted, spans: vec![] };
    let e = store.put_document(&doc("c.txt", "Acme"), &[uncited]).err();
    assert_eq!(e.map(|e| e.to_string()).unwrap_or_default(), "document c.txt: a mention fact has no citation; every stored fact needs a byte span");
    let e = store.put_document(&doc("d.txt", "Acme"), &[CitedFact { rel: "owns".into(), args: vec![], tag: Tag::Extracted, spans: vec![(0, 1)] }]).err();
    assert_eq!(e.map(|e| e.to_string()).unwrap_or_default(), "relation owns: relation not declared");
    assert!(store.document_ids().unwrap_or_default().is_empty());
}

#[test]
fn a_second_process_gets_a_clear_error_naming_the_holder() {
    let d = scratch("lock");
    let store = Store::open(&d.join("db")).unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["dump", "--db", "db"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("tg: store db is in use by another process (pid "), "{err}");
    assert!(err.ends_with("; wait for it to finish or use another --db\n"), "{err}");
    drop(store);
    assert_eq!(tg(&d, &["dump", "--db", "db"]).status.code(), Some(0));
}

#[test]
fn another_format_is_refused_not_misread() {
    let d = scratch("format");
    drop(Store::open(&d.join("db")).unwrap_or_else(|e| panic!("{e}")));
    {
        let db = fjall::Database::builder(d.join("db")).open().unwrap_or_else(|e| panic!("{e:?}"));
        let meta = db.keyspace("meta", fjall::KeyspaceCreateOptions::default).unwrap_or_else(|e| panic!("{e:?}"));
        meta.insert("format", "textgraph-store/0").unwrap_or_else(|e| panic!("{e:?}"));
    }
    let e = Store::open(&d.join("db")).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.ends_with("has format textgraph-store/0, this tg reads textgraph-store/1; rebuild it into a new --db"), "{e}");
}

/// Kills `tg build` at random moments — into empty stores, and into stores whose documents
/// are being replaced by new versions. Every reopened store verifies, and every document in
/// it is whole (all paragraphs of one version of it), every other one wholly absent.
#[test]
fn killed_builds_leave_whole_documents() {
    let d = scratch("crash");
    let root = d.join("case");
    let docs = 1200usize;
    let paras = |i: usize, variant: usize| 1 + (i + variant) % 7;
    let write_corpus = |variant: usize| {
        for i in 0..docs {
            let text: String = (0..paras(i, variant)).map(|p| format!("Document {i}, version {variant}, paragraph {p}: Acme wired funds to Beta.\n\n")).collect();
            write(&root, &format!("doc{i:04}.txt"), &text);
        }
    };
    // Calibrate: how long does a whole build take on this machine?
    write_corpus(0);
    let started = std::time::Instant::now();
    assert_eq!(tg(&d, &["build", "case", "--db", "calibration"]).status.code(), Some(0));
    let full = started.elapsed();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut partial_rounds = 0;
    let db = d.join("db");
    for round in 0..24usize {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        // Even rounds start from an empty store; odd rounds replace every document of the
        // previous round's store with a new version.
        let (old, new) = if round % 2 == 0 {
            let _ = std::fs::remove_dir_all(&db);
            (round, round)
        } else {
            (round - 1, round)
        };
        write_corpus(new);
        let mut child = Command::new(env!("CARGO_BIN_EXE_tg"))
            .current_dir(&d)
            .args(["build", "case", "--db"])
            .arg(&db)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        // Kill somewhere between 10 % and 95 % of a whole build's time.
        std::thread::sleep(full.mul_f64(0.10 + (seed % 1000) as f64 / 1000.0 * 0.85));
        let _ = child.kill();
        let _ = child.wait();
        let store = Store::open(&db).unwrap_or_else(|e| panic!("round {round}: store does not reopen: {e}"));
        let v = store.verify().unwrap_or_else(|e| panic!("{e}"));
        assert!(v.failures.is_empty(), "round {round}: {:?}", v.failures);
        let ids = store.document_ids().unwrap_or_default();
        let mut stored_paragraphs = 0;
        let mut new_versions = 0;
        for id in &ids {
            let i: usize = id.trim_start_matches("doc").trim_end_matches(".txt").parse().unwrap_or(usize::MAX);
            let n = store.lookup("paragraph", &[Value::Sym(id.clone())]).unwrap_or_default().len();
            let text = store.text(id).unwrap_or_default().unwrap_or_default();
            let version = if text.contains(&format!("version {new},")) { new } else { old };
            assert!(text.contains(&format!("version {version},")), "round {round}: {id} has text of neither version");
            assert_eq!(n, paras(i, version), "round {round}: {id} (version {version}) is partial");
            assert_eq!(store.lookup("document", &[Value::Sym(id.clone())]).unwrap_or_default().len(), 1);
            stored_paragraphs += n;
            new_versions += usize::from(version == new);
        }
        let stats = store.stats().unwrap_or_default();
        assert_eq!(stats.relations.get("paragraph").copied().unwrap_or(0), stored_paragraphs, "round {round}: stray paragraphs");
        let interrupted = if round % 2 == 0 { !ids.is_empty() && ids.len() < docs } else { new_versions > 0 && new_versions < docs };
        partial_rounds += usize::from(interrupted);
    }
    // The kills must have landed mid-build, or this test proved nothing.
    assert!(partial_rounds >= 1, "only {partial_rounds} of 24 builds were interrupted midway (a whole build takes {full:?})");
}

const RULES: &str = r#"
.decl paragraph(doc:symbol, index:number)
.decl document(doc:symbol, format:symbol)
// A document with more than one paragraph.
.decl long_doc(doc:symbol)
long_doc(d) :- paragraph(d, 1).
.decl long_text(doc:symbol)
long_text(d) :- document(d, "txt"), long_doc(d).
"#;

#[test]
fn derive_then_explain_down_to_the_cited_bytes() {
    let d = scratch("derive");
    corpus(&d.join("case"));
    std::fs::write(d.join("rules.dl"), RULES).unwrap_or_default();
    assert_eq!(tg(&d, &["build", "case", "--db", "db"]).status.code(), Some(0));
    // The file runs with the case's rule library (tg derive never replaces it).
    let o = tg(&d, &["derive", "rules.dl", "--db", "db"]);
    assert!(stdout(&o).starts_with("29 input facts, 246 derived (246 written, 0 removed)\n"), "{}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("  +3 long_doc (3 now)\n  +2 long_text (2 now)\n"), "{}", stdout(&o));
    let e = tg(&d, &["explain", "long_text(\"memo.txt\")", "--db", "db", "--verify"]);
    assert_eq!(e.status.code(), Some(0));
    assert_eq!(
        stdout(&e),
        "evidence:\n  \
           [memo.txt:0-85] \"Acme Corp wired $2,000,000 to Beta Ltd.\\n\\nBeta Ltd is a subsidiary of Gamma Holdings.\\n\"\n      \
               → document(\"memo.txt\", \"txt\")\n  \
           [memo.txt:41-84] \"Beta Ltd is a subsidiary of Gamma Holdings.\"\n      \
               → paragraph(\"memo.txt\", 1)\n\
         proof:\n\
         long_text(\"memo.txt\")  [rules.dl:8: long_text(d) :- document(d, \"txt\"), long_doc(d).]\n\
         ├─ document(\"memo.txt\", \"txt\")  [STRUCTURAL] [memo.txt:0-85]\n\
         └─ long_doc(\"memo.txt\")  [rules.dl:6: long_doc(d) :- paragraph(d, 1).]\n   \
            └─ paragraph(\"memo.txt\", 1)  [STRUCTURAL] [memo.txt:41-84]\n\
         4/4 checks passed\n"
    );
    // Deriving again evaluates nothing; after an edit only what it reaches is maintained.
    let again = "incremental: 0 input changes; strata 81 skipped, 0 maintained, 0 recomputed; 0 written, 0 removed\n";
    let second = stdout(&tg(&d, &["derive", "rules.dl", "--db", "db"]));
    assert!(second.starts_with(again), "{second}");
    write(&d.join("case"), "memo.txt", "A single paragraph now.\n");
    assert_eq!(tg(&d, &["build", "case", "--db", "db"]).status.code(), Some(0));
    let edited = stdout(&tg(&d, &["derive", "rules.dl", "--db", "db"]));
    assert!(edited.starts_with("incremental: 19 input changes; strata 14 skipped, 62 maintained, 5 recomputed; 7 written, 165 removed\n"), "{edited}");
    assert!(edited.contains("  -1 long_doc (2 now)\n  -1 long_text (1 now)\n"), "{edited}");
    // A forced full evaluation agrees: nothing to write.
    let full = stdout(&tg(&d, &["derive", "rules.dl", "--db", "db", "--full"]));
    assert!(full.starts_with("13 input facts, 86 derived (0 written, 0 removed)\n"), "{full}");
    // The store keeps the derivation's manifest: program, where each rule is written, mode, counts.
    let stats = stdout(&tg(&d, &["stats", "--db", "db"]));
    assert!(stats.contains("last derivation\tfull of stdlib + rules.dl in "), "{stats}");
    let json: serde_json::Value = serde_json::from_str(&stdout(&tg(&d, &["stats", "--db", "db", "--format", "json"]))).unwrap_or_default();
    let m = &json["last_derivation"];
    let ours: Vec<u64> = m["rules"].as_array().into_iter().flatten().filter(|r| r["file"] == "rules.dl").filter_map(|r| r["line"].as_u64()).collect();
    assert_eq!((m["mode"].as_str(), m["derived"].as_u64(), ours), (Some("full"), Some(86), vec![6, 8]));
    let gone = tg(&d, &["explain", "long_text(\"memo.txt\")", "--db", "db"]);
    assert_eq!(gone.status.code(), Some(1));
    assert_eq!(stdout(&gone), "long_text(\"memo.txt\"): neither stored nor derived (run `tg derive`, or check the arguments with `tg dump`)\n");
}

#[test]
fn tampered_text_fails_verification() {
    let d = scratch("tamper");
    corpus(&d.join("case"));
    assert_eq!(tg(&d, &["build", "case", "--db", "db"]).status.code(), Some(0));
    {
        let db = fjall::Database::builder(d.join("db")).open().unwrap_or_else(|e| panic!("{e:?}"));
        let docs = db.keyspace("docs", fjall::KeyspaceCreateOptions::default).unwrap_or_else(|e| panic!("{e:?}"));
        let text = db.keyspace("text", fjall::KeyspaceCreateOptions::default).unwrap_or_else(|e| panic!("{e:?}"));
        let rec: serde_json::Value = serde_json::from_slice(&docs.get("memo.txt").ok().flatten().unwrap_or_default()).unwrap_or_default();
        let num = rec["num"].as_u64().unwrap_or(0) as u32;
        text.insert(num.to_be_bytes(), "Acme Corp wired $9,000,000 to Beta Ltd.\n\nBeta Ltd is a subsidiary of Gamma Holdings.\n").unwrap_or_else(|e| panic!("{e:?}"));
    }
    let v = tg(&d, &["verify", "--db", "db"]);
    assert_eq!(v.status.code(), Some(1));
    let out = stdout(&v);
    assert!(out.starts_with("FAILED memo.txt: canonical text missing or does not match its blake3\n"), "{out}");
    assert!(out.ends_with("30/41 citations verified\n3/3 source files unchanged\n"), "{out}");
    let e = tg(&d, &["explain", "paragraph(\"memo.txt\", 0)", "--db", "db", "--verify"]);
    assert_eq!(e.status.code(), Some(1));
    assert!(stdout(&e).contains("✗ does not re-hash"), "{}", stdout(&e));
    assert!(stdout(&e).contains("FAILED [memo.txt:"), "{}", stdout(&e));
}

/// Same corpus, built in a different order into fresh stores: byte-identical dump and graph.json.
#[test]
fn equal_corpora_export_identical_graphs() {
    let d = scratch("determinism");
    std::fs::write(d.join("rules.dl"), RULES).unwrap_or_default();
    corpus(&d.join("a"));
    // The second corpus is written in another order, with an extra file first added and removed.
    write(&d.join("b"), "notes.md", "# Notes\n\nUnicode: Société Générale, 東京.\n");
    write(&d.join("b"), "zzz.txt", "temporary\n");
    write(&d.join("b"), "memo.txt", "Acme Corp wired $2,000,000 to Beta Ltd.\n\nBeta Ltd is a subsidiary of Gamma Holdings.\n");
    assert_eq!(tg(&d, &["build", "b", "--db", "db_b"]).status.code(), Some(0));
    std::fs::remove_file(d.join("b/zzz.txt")).unwrap_or_default();
    write(&d.join("b"), "emails/2024-03-01.txt", "From: John Doe\n\nPlease approve the transfer.\n\n\nThanks.\n");
    for (corpus_dir, db) in [("a", "db_a"), ("b", "db_b")] {
        assert_eq!(tg(&d, &["build", corpus_dir, "--db", db]).status.code(), Some(0));
        assert_eq!(tg(&d, &["derive", "rules.dl", "--db", db]).status.code(), Some(0));
        let o = tg(&d, &["export", "--db", db, "--format", "json", "-o", &format!("{db}.json")]);
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let a = std::fs::read(d.join("db_a.json")).unwrap_or_default();
    let b = std::fs::read(d.join("db_b.json")).unwrap_or_default();
    assert!(a.len() > 1000);
    assert_eq!(a, b, "graph.json differs");
    assert_eq!(stdout(&tg(&d, &["dump", "--db", "db_a"])), stdout(&tg(&d, &["dump", "--db", "db_b"])));
}

#[test]
fn the_empty_symbol_is_stored_like_any_other() {
    let d = scratch("empty-symbol");
    let store = Store::open(&d.join("db")).unwrap_or_else(|e| panic!("{e}"));
    store.declare("mention", &[ColumnType::Symbol]).unwrap_or_else(|e| panic!("{e}"));
    store.put_document(&doc("a.txt", "Acme"), &[mention("", (0, 0)), mention("Acme", (0, 4))]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(store.lookup("mention", &[Value::Sym(String::new())]).unwrap_or_default(), vec![vec![Value::Sym(String::new())]]);
    assert!(store.dump().unwrap_or_default().contains("fact mention(\"\") EXTRACTED supports=1\n  [a.txt:0-0]"));
    assert_eq!(store.verify().map(|v| (v.verified, v.checked)).unwrap_or_default(), (2, 2));
}

/// A wire-transfer table of `rows` rows (one TRANSFERRED claim a row); `salt` changes
/// every seventh row's amount.
fn wires(rows: usize, salt: usize) -> String {
    let names = ["Alpha Ltd", "Beta Corp", "Gamma LLC", "Delta Holdings Inc.", "John Smith", "Mary Jones"];
    let mut t = String::from("date\treference\toriginator\tbeneficiary\tamount\tcurrency\tmemo\n");
    for i in 0..rows {
        let (a, b) = (names[i % 6], names[(i / 6 + 1 + i) % 6]);
        let b = if a == b { names[(i + 1) % 6] } else { b };
        let amount = 1000 + (i * 7919) % 900_000 + if i % 7 == 0 { salt } else { 0 };
        t.push_str(&format!("2024-{:02}-{:02}\tW{i:07}\t{a}\t{b}\t{amount}.00\tUSD\tinvoice {} for services\n", i % 12 + 1, i % 28 + 1, 10000 + i));
    }
    t
}

/// `tg dump` of a store.
fn dump_of(d: &Path, db: &str) -> String {
    let o = tg(d, &["dump", "--db", db]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    stdout(&o)
}

/// Builds `case` into `db` through the library with at most `batch` supports a batch.
fn build_with_batches(d: &Path, db: &str, batch: usize) {
    let mut store = Store::open(&d.join(db)).unwrap_or_else(|e| panic!("{e}"));
    store.set_batch_supports(batch);
    textgraph::app::build::build(&store, &d.join("case")).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_large_document_written_in_stages_equals_one_batch() {
    // 4,000 rows give ~75,000 supports: more than one batch holds, so `tg build` writes the
    // table in stages. The store must come out exactly as one batch would have left it.
    let d = scratch("staged");
    write(&d.join("case"), "wires.tsv", &wires(4000, 0));
    write(&d.join("case"), "memo.txt", "Acme Corp wired $2,000,000 to Beta Ltd.\n");
    let o = tg(&d, &["build", "case", "--db", "staged"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    build_with_batches(&d, "whole", usize::MAX);
    build_with_batches(&d, "small", 997);
    let whole = dump_of(&d, "whole");
    assert!(whole.matches("\"TRANSFERRED\"").count() >= 4000, "every row is a claim");
    assert_eq!(dump_of(&d, "staged"), whole);
    assert_eq!(dump_of(&d, "small"), whole);
    // A changed table re-stored in stages (the old version's supports out first) equals a
    // fresh build of the new one.
    write(&d.join("case"), "wires.tsv", &wires(4000, 3));
    let o = tg(&d, &["build", "case", "--db", "staged"]);
    assert!(stdout(&o).starts_with("0 added, 1 changed, 1 unchanged, 0 removed, 0 skipped"), "{}", stdout(&o));
    build_with_batches(&d, "small", 997);
    build_with_batches(&d, "fresh", usize::MAX);
    let fresh = dump_of(&d, "fresh");
    assert_ne!(fresh, whole);
    assert_eq!(dump_of(&d, "staged"), fresh);
    assert_eq!(dump_of(&d, "small"), fresh);
    let v = tg(&d, &["verify", "--db", "staged"]);
    assert_eq!(v.status.code(), Some(0), "{}", stdout(&v));
}

#[test]
fn an_interrupted_staged_write_is_reported_and_redone() {
    let d = scratch("pending");
    write(&d.join("case"), "wires.tsv", &wires(300, 0));
    write(&d.join("case"), "memo.txt", "Acme Corp wired $2,000,000 to Beta Ltd.\n");
    assert_eq!(tg(&d, &["build", "case", "--db", "db"]).status.code(), Some(0));
    let before = dump_of(&d, "db");
    // What a write killed after its first batches leaves: the new record (the file's own
    // hash, so the file looks unchanged), the old supports out, the document marked pending.
    {
        let store = Store::open(&d.join("db")).unwrap_or_else(|e| panic!("{e}"));
        let text = store.text("wires.tsv").ok().flatten().unwrap_or_default();
        let source = std::fs::read(d.join("case/wires.tsv")).unwrap_or_default();
        let format = store.document("wires.tsv").ok().flatten().map(|r| r.format).unwrap_or_default();
        store.put_document(&NewDocument { id: "wires.tsv", format: &format, source: SourceDigest::of(&source), text: &text }, &[]).unwrap_or_else(|e| panic!("{e}"));
        store.put_setting("pending:wires.tsv", "").unwrap_or_else(|e| panic!("{e}"));
    }
    assert_ne!(dump_of(&d, "db"), before);
    let v = tg(&d, &["verify", "--db", "db"]);
    assert_eq!(v.status.code(), Some(1), "{}", stdout(&v));
    assert!(stdout(&v).contains("INCOMPLETE wires.tsv: an interrupted build was writing it; run tg build\n"), "{}", stdout(&v));
    // The next build writes it again although the file did not change.
    let o = tg(&d, &["build", "case", "--db", "db"]);
    assert!(stdout(&o).starts_with("0 added, 1 changed, 1 unchanged, 0 removed, 0 skipped"), "{}", stdout(&o));
    assert_eq!(dump_of(&d, "db"), before);
    let v = tg(&d, &["verify", "--db", "db"]);
    assert_eq!(v.status.code(), Some(0), "{}", stdout(&v));
}
