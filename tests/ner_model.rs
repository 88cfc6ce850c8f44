//! The learned name recogniser as a user meets it: names in enforcement prose that no rule
//! finds, judges and staff typed by role, the shipped model file sound and reproducible.

mod common;

use common::{scratch, stdout, tg};
use textgraph::extract::ner::{self, Model};
use textgraph::extract::ner_train::{self, Doc, Sample, Settings};

/// `tg build` on fixtures/ner: every name below is a mention of its type, whole.
#[test]
fn enforcement_prose_names_are_found_whole_and_typed() {
    let dir = scratch("ner", "prose");
    let corpus = common::root().join("fixtures/ner");
    let o = tg(&dir, &["build", corpus.to_str().unwrap_or_default(), "--db", "store"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let dump = stdout(&tg(&dir, &["dump", "--db", "store"]));
    let has = |kind: &str, key: &str| dump.lines().any(|l| l.starts_with(&format!("fact entity(\"{kind}:{key}\", \"{kind}\")")));
    let entities = || dump.lines().filter(|l| l.starts_with("fact entity(")).collect::<Vec<_>>().join("\n");
    for (kind, key) in [
        ("Person", "spera"),
        ("Person", "william r. schantz iii"),
        ("Person", "terrence legall"),
        ("Person", "lisa p. mcalister"),
        ("Person", "maria elena delgado"),
        ("Person", "jonathan price"),
        ("Person", "hirsch"),
        ("Organization", "boston trading and research llc"),
        // Two organisations joined by "for" are two names (a known miss until the model
        // of the 2026-12-02 evening session read "Newport Federal for Microsoft" as one).
        ("Organization", "newport federal"),
        ("Organization", "microsoft"),
        ("Location", "denver"),
    ] {
        assert!(has(kind, key), "missing {kind}:{key} in:\n{}", entities());
    }
    assert!(!has("Organization", "newport federal for microsoft"), "{}", entities());
    for (key, role) in [("maria elena delgado", "judge"), ("jonathan price", "staff"), ("amelia ward", "staff")] {
        let want = format!("fact entity_attr(\"Person:{key}\", \"role\", \"{role}\")");
        assert!(dump.lines().any(|l| l.starts_with(&want)), "missing {want}");
    }
    // The judge and the staff are parties to no claim.
    let claims: Vec<&str> = dump.lines().filter(|l| l.starts_with("fact claim(")).collect();
    assert!(!claims.iter().any(|l| l.contains("delgado") || l.contains("jonathan price") || l.contains("amelia ward")), "{claims:?}");
}

/// The shipped model loads, says what it was trained on, and scores every class.
#[test]
fn the_shipped_model_is_sound() {
    let m = &*ner::BUILTIN;
    assert!(m.about.starts_with("TextGraph NER v1"), "{}", m.about);
    assert!(m.about.contains("re_redocred/dev_revised.json blake3 ") && m.about.contains("fire_dev.json blake3 "));
    let t = "Yesterday Jonathan Hirsch of Acme Widgets met investors in Chicago.";
    let names: Vec<(&str, &str)> = m.names(t, (0, t.len())).into_iter().map(|(s, k)| (&t[s.0..s.1], k)).collect();
    assert!(names.contains(&("Jonathan Hirsch", "Person")), "{names:?}");
    assert!(names.contains(&("Chicago", "Location")), "{names:?}");
    // A damaged file is an error, not a panic.
    let bytes = std::fs::read(common::root().join("stdlib/models/ner.tgw")).unwrap_or_default();
    assert!(Model::read(&bytes).is_ok());
    assert!(Model::read(&bytes[..bytes.len() / 2]).is_err());
}

fn sample_docs() -> Vec<Doc> {
    let s = |t: &str, names: &[(&str, usize)]| Sample { text: t.to_string(), gold: names.iter().filter_map(|(n, g)| t.find(n).map(|i| ((i, i + n.len()), *g))).collect() };
    vec![
        Doc {
            id: "a".into(),
            sentences: vec![s("Spera paid Hirsch in Boston.", &[("Spera", 1), ("Hirsch", 1), ("Boston", 3)]), s("Acme Widgets hired Jones.", &[("Acme Widgets", 2), ("Jones", 1)])],
        },
        Doc { id: "b".into(), sentences: vec![s("The court in Denver fined Globex Corp.", &[("Denver", 3), ("Globex Corp.", 2)])] },
    ]
}

/// Training is a function of its data and settings: two runs give the same model bytes.
#[test]
fn training_is_reproducible_byte_for_byte() {
    let docs = sample_docs();
    let refs: Vec<&Doc> = docs.iter().collect();
    let settings = Settings::default();
    let a = Model::write(&ner_train::train(&refs, settings), "x", ner_train::margin(settings));
    let b = Model::write(&ner_train::train(&refs, settings), "x", ner_train::margin(settings));
    assert_eq!(a, b);
    assert!(a.len() > 100);
}

/// With the shared data present, retraining with the documented command reproduces the
/// shipped file exactly (stdlib/models/README.md).
#[test]
fn the_shipped_model_is_what_the_trainer_makes() {
    let shared = common::root().join("../shared");
    if !shared.join("data/re_redocred/dev_revised.json").exists() {
        eprintln!("skipped: ../shared/data not present");
        return;
    }
    let dir = scratch("ner", "retrain");
    std::fs::create_dir_all(dir.join("gazetteer")).unwrap_or_default();
    let out = dir.join("ner.tgw");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tg-train-ner"))
        .args(["--shared", shared.to_str().unwrap_or_default(), "--margin", "300", "--out", out.to_str().unwrap_or_default()])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let shipped = std::fs::read(common::root().join("stdlib/models/ner.tgw")).unwrap_or_default();
    assert!(std::fs::read(&out).unwrap_or_default() == shipped, "retrained model differs from stdlib/models/ner.tgw");
    let words = std::fs::read(dir.join("gazetteer/common-words.txt")).unwrap_or_default();
    assert!(words == std::fs::read(common::root().join("stdlib/models/gazetteer/common-words.txt")).unwrap_or_default(), "common-words.txt differs");
}
