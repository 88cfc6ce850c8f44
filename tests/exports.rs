//! `tg export --format cypher|csv|graphml|jsonld|turtle` as a user runs it on the case
//! files (issue 23): each export loaded into its real consumer (Kuzu from the Cypher
//! script and from the CSV files, networkx from GraphML, rdflib from Turtle and JSON-LD)
//! with counts and one cited edge checked against tg's own JSON export; byte-identical
//! output across runs and stores; the refusals.

mod common;
mod consumers;

use std::path::{Path, PathBuf};

use common::{copy_dir, root, scratch, stderr, stdout, tg};

const FORMATS: &[(&str, &str)] = &[("cypher", "g.cypher"), ("graphml", "g.graphml"), ("turtle", "g.turtle"), ("jsonld", "g.jsonld"), ("csv", "csv")];

/// A scratch folder with the case files built and derived into `db`.
fn built(name: &str) -> PathBuf {
    let d = scratch("exports", name);
    copy_dir(&root().join("fixtures/case-files"), &d.join("corpus"));
    for args in [&["build", "corpus", "--db", "db"][..], &["derive", "--db", "db"][..]] {
        let o = tg(&d, args);
        assert_eq!(o.status.code(), Some(0), "tg {args:?}: {}", stderr(&o));
    }
    d
}

/// Exports every format (and graph.json) into `d/out`; returns the folder.
fn export_all(d: &Path, out: &str) -> PathBuf {
    std::fs::create_dir_all(d.join(out)).unwrap_or_else(|e| panic!("{e}"));
    for (format, file) in FORMATS.iter().chain(&[("json", "graph.json")]) {
        let target = format!("{out}/{file}");
        let o = tg(d, &["export", "--db", "db", "--format", format, "-o", &target]);
        assert_eq!(o.status.code(), Some(0), "{format}: {}", stderr(&o));
        assert!(stdout(&o).starts_with(&format!("wrote {target}")), "{format}: {}", stdout(&o));
    }
    d.join(out)
}

/// Every file under a folder, by relative path, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(p) = stack.pop() {
        for e in std::fs::read_dir(&p).unwrap_or_else(|e| panic!("{e}")).flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else {
                let rel = e.path().strip_prefix(dir).map(|r| r.display().to_string()).unwrap_or_default();
                out.push((rel, std::fs::read(e.path()).unwrap_or_else(|e| panic!("{e}"))));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_export_loads_into_its_real_consumer() {
    let d = built("consumers");
    let out = export_all(&d, "out");
    // The summary line names the counts the consumers must see.
    let o = tg(&d, &["export", "--db", "db", "--format", "turtle", "-o", "out/again.ttl"]);
    assert!(stdout(&o).contains("13 documents, 57 entities, 21 claims, 2 same_as pairs"), "{}", stdout(&o));
    let Some(py) = consumers::python(root(), "kuzu, networkx, rdflib") else { return };
    let script = root().join("tests/consumers/exports.py");
    let o = std::process::Command::new(py).arg(&script).arg(&out).output().unwrap_or_else(|e| panic!("{e}"));
    let text = stdout(&o);
    assert!(o.status.success(), "{text}\n{}", stderr(&o));
    for line in [
        "ok kuzu (Cypher script): counts and the cited edge be2a89c55ee1eda5 [wire-log.csv:284-352]",
        "ok kuzu (CSV COPY): counts and the cited edge be2a89c55ee1eda5 [wire-log.csv:284-352]",
        "ok networkx:",
        "ok rdflib turtle:",
        "ok rdflib json-ld:",
        "ok turtle and json-ld hold the same triples",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    assert!(text.contains("expected {\"claims\": 21, \"derived\": "), "{text}");
}

#[test]
fn exports_are_byte_identical_across_runs_and_stores() {
    let d = built("determinism");
    let a = files(&export_all(&d, "a"));
    let b = files(&export_all(&d, "b"));
    assert_eq!(a.len(), 5 + 14, "{:?}", a.iter().map(|f| &f.0).collect::<Vec<_>>());
    assert!(a == b, "two exports of one store differ");
    // A second store built from the same corpus in another folder: the same bytes.
    let e = built("determinism2");
    let c = files(&export_all(&e, "a"));
    for ((n1, x), (n2, y)) in a.iter().zip(&c) {
        assert_eq!(n1, n2);
        assert!(x == y, "{n1} differs between two stores of the same corpus");
    }
}

#[test]
fn refusals_are_clear() {
    let d = built("refusals");
    let o = tg(&d, &["export", "--db", "db", "--format", "csv"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "tg: --format csv writes one file per table: give a folder with -o DIR (standard output cannot hold several files)\n");
    let o = tg(&d, &["export", "--db", "db", "--format", "csv", "-o", "db/tables"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "tg: refusing to write db/tables: it is inside the store db\n");
    assert!(!d.join("db/tables").exists());
    assert_eq!(tg(&d, &["export", "--db", "db", "--format", "csv", "-o", "t"]).status.code(), Some(0));
    let o = tg(&d, &["export", "--db", "db", "--format", "csv", "-o", "t"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "tg: t/document.csv exists; pass --force to overwrite it\n");
    assert_eq!(tg(&d, &["export", "--db", "db", "--format", "csv", "-o", "t", "--force"]).status.code(), Some(0));
    let o = tg(&d, &["export", "--db", "db", "--format", "xml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid value 'xml'"), "{}", stderr(&o));
    // Standard output gets the text itself.
    let o = tg(&d, &["export", "--db", "db", "--format", "turtle"]);
    assert!(stdout(&o).starts_with("# TextGraph export (textgraph-turtle/1)\n@prefix rdf:"), "{}", stdout(&o));
}
