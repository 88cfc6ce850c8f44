//! `tg eval` as a user runs it: exact scores on our hand-made FIRE- and CoNLL-format
//! fixtures (`fixtures/eval/`, expected counts worked out by hand, see below), and the
//! output shape and sane ranges on the real shared datasets when they are present.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tg(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tg")).current_dir(root()).args(args).output().unwrap_or_else(|e| panic!("cannot run tg: {e}"))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn stdout_of(args: &[&str]) -> String {
    let o = tg(args);
    assert_eq!(o.status.code(), Some(0), "tg {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// fixtures/eval/fire_tiny.json, by hand:
/// 1. "Acme Corp acquired Beta Ltd in March 2012 ." two organisations and a month date
///    found exactly; ACQUIRED(Acme Corp, Beta Ltd) = gold ActionBuy(0 → 1): tp.
/// 2. "Gamma Holdings is a subsidiary of Delta Group ." both organisations and
///    SUBSIDIARY_OF in the gold's direction: tp.
/// 3. "Mr. John Smith is the chief executive officer of Acme Corp ." our person span is
///    "John Smith", the gold's "Mr. John Smith": person fp + fn, and OFFICER_OF (scored as
///    EMPLOYED_BY = Employeeof) fp + fn; both overlap, so the lenient scores count them.
///    The Designation entity and relation are not scored.
/// 4. "Omega Partners paid $ 5 million to Sigma Trust in London ." two organisations and
///    the money found; London (GeopoliticalEntity → Location) found by the learned name
///    recogniser: tp. PAID has no FIRE counterpart: one unscored claim.
/// 5. "Kappa Ltd bought Lambda Inc. ." organisations found; ACQUIRED is not in the gold: fp.
/// 6. "Theta Corp was acquired by Iota Holdings ." passive: ACQUIRED(Iota, Theta) = gold
///    ActionBuy(1 → 0): tp (direction-aware).
///
/// Entities: 15 gold, 15 predicted, 14 tp → P 14/15 = 0.93, R 14/15 = 0.93, F1 0.93.
/// Relations: 4 gold, 5 predicted, 3 tp → P 0.60, R 0.75, F1 6/9 = 0.67; hallucinated 0.40.
/// Alias-aware (FIRE keeps the title in "Mr. John Smith"): item 3's person and
/// EMPLOYED_BY become tp → entities 15/15 → 1.00 1.00 1.00; relations 4/5, 4/4 →
/// 0.80 1.00 0.89, hallucinated 0.20.
const FIRE_EXPECTED: &str = "score precision recall f1 (tp fp fn)
entities 0.93 0.93 0.93
relations 0.60 0.75 0.67
entity Date 1.00 1.00 1.00 (1 0 0)
entity Location 1.00 1.00 1.00 (1 0 0)
entity Money 1.00 1.00 1.00 (1 0 0)
entity Organization 1.00 1.00 1.00 (11 0 0)
entity Person 0.00 0.00 0.00 (0 1 1)
relation ACQUIRED 0.67 1.00 0.80 (2 1 0)
relation EMPLOYED_BY 0.00 0.00 0.00 (0 1 1)
relation SUBSIDIARY_OF 1.00 1.00 1.00 (1 0 0)
hallucinated-edge-rate 0.40
hallucinated-edge-rate-alias 0.20
entities-alias 1.00 1.00 1.00
relations-alias 0.80 1.00 0.89
entities-lenient 1.00 1.00 1.00
relations-lenient 0.80 1.00 0.89
unscored-claims PAID 1
";

#[test]
fn fire_fixture_scores_exactly() {
    let out = stdout_of(&["eval", "fire", "fixtures/eval/fire_tiny.json"]);
    let (body, last) = out.rsplit_once("sentences ").unwrap_or_default();
    assert_eq!(body, FIRE_EXPECTED, "{out}");
    assert!(last.starts_with("6 bytes "), "{out}");
}

/// fixtures/eval/conll_tiny.txt, by hand: gold ORG Silicon Valley Bank, ORG Evergreen
/// Solar Inc, PER John Smith, LOC Santa Clara, LOC California, ORG Comerica (MISC Growth
/// Fund ignored). Found: the two banks/companies by legal form, John Smith after
/// "approved by", Santa Clara after "located in" and California (the learned name
/// recogniser, a GeoNames place), and "Growth Fund" (gold MISC: a false organisation);
/// Comerica alone after "Lender:" is not found (a missed organisation; the model before
/// the word clusters of 2026-12-06 typed it a place). "The Loan" is an English word after
/// a determiner, a defined term, not a person. 6 gold, 6 predicted, 5 tp → P 0.83 R 0.83.
const CONLL_EXPECTED: &str = "score precision recall f1 (tp fp fn)
entities 0.83 0.83 0.83
entity Location 1.00 1.00 1.00 (2 0 0)
entity Organization 0.67 0.67 0.67 (2 1 1)
entity Person 1.00 1.00 1.00 (1 0 0)
entities-alias 0.83 0.83 0.83
entities-lenient 0.83 0.83 0.83
";

#[test]
fn conll_fixture_scores_exactly() {
    let out = stdout_of(&["eval", "conll", "fixtures/eval/conll_tiny.txt"]);
    let (body, last) = out.rsplit_once("sentences ").unwrap_or_default();
    assert_eq!(body, CONLL_EXPECTED, "{out}");
    assert!(last.starts_with("5 bytes "), "{out}");
}

#[test]
fn json_output_carries_the_same_counts() {
    let out = stdout_of(&["eval", "fire", "fixtures/eval/fire_tiny.json", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["entities"]["overall"], serde_json::json!({"tp": 14, "fp": 1, "fn": 1}));
    assert_eq!(v["relations"]["overall"], serde_json::json!({"tp": 3, "fp": 2, "fn": 1}));
    assert!((v["hallucinated_edge_rate"].as_f64().unwrap_or(-1.0) - 0.4).abs() < 1e-9);
}

#[test]
fn bad_input_fails_cleanly() {
    let d = std::env::temp_dir().join(format!("tg-eval-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
    let bad = d.join("bad.json");
    std::fs::write(&bad, "{\"tokens\": 3}").unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&["eval", "fire", bad.to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a FIRE file"));
    let o = tg(&["eval", "conll", d.join("missing.txt").to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(2));
}

fn shared() -> PathBuf {
    std::env::var_os("TG_SHARED").map(PathBuf::from).unwrap_or_else(|| root().join("../shared"))
}

/// Parses `NAME P R F1` (the first three numbers after the name), checking each is a
/// two-decimal ratio in [0, 1].
fn prf(out: &str, name: &str) -> [f64; 3] {
    let line = out.lines().find(|l| l.starts_with(&format!("{name} "))).unwrap_or_else(|| panic!("no `{name}` line in {out}"));
    let nums: Vec<&str> = line[name.len()..].split_whitespace().take(3).collect();
    let v: Vec<f64> = nums.iter().map(|n| n.parse().unwrap_or(-1.0)).collect();
    for (n, x) in nums.iter().zip(&v) {
        assert!(n.len() == 4 && (0.0..=1.0).contains(x), "`{line}`: {n} is not a two-decimal ratio");
    }
    [v[0], v[1], v[2]]
}

fn real(rel: &str) -> Option<PathBuf> {
    let p = shared().join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("note: {} is absent; skipping (set TG_SHARED to the shared folder)", p.display());
        None
    }
}

#[test]
fn real_fire_dev_set() {
    let Some(p) = real("data/re_fire_financial/fire_dev.json") else { return };
    let out = stdout_of(&["eval", "fire", p.to_str().unwrap_or_default()]);
    eprint!("{out}");
    let lines: Vec<&str> = out.lines().collect();
    // The column names, then the overall scores.
    assert_eq!(lines[0], "score precision recall f1 (tp fp fn)", "{out}");
    assert!(lines[1].starts_with("entities ") && lines[2].starts_with("relations "), "{out}");
    let e = prf(&out, "entities");
    let r = prf(&out, "relations");
    // Floors a little under the published numbers (docs/BENCHMARKS.md): entities are found
    // and mostly right; edges are few but, up to the gold's span conventions (titles and
    // aliases inside its spans), right.
    assert!(e[0] >= 0.7 && e[1] > 0.3, "{out}");
    assert!(r[0] > 0.0 && r[1] > 0.0, "{out}");
    let rl = prf(&out, "relations-lenient");
    assert!(rl[0] >= 0.85, "relation precision (overlap) fell: {out}");
    for t in ["Organization", "Person", "Money", "Date", "Location"] {
        prf(&out, &format!("entity {t}"));
    }
    for t in ["ACQUIRED", "EMPLOYED_BY", "SUBSIDIARY_OF"] {
        prf(&out, &format!("relation {t}"));
    }
    assert!(out.contains("\nsentences 454 "), "{out}");
    let h: f64 = out.lines().find_map(|l| l.strip_prefix("hallucinated-edge-rate ")).and_then(|v| v.parse().ok()).unwrap_or(-1.0);
    assert!(((1.0 - r[0]) - h).abs() < 0.006, "{out}");
}

#[test]
fn real_conll_loan_agreements() {
    let Some(p) = real("data/ner_sec_filings_loan_agreements/CONLL-format/data/train/FIN5.txt") else { return };
    let out = stdout_of(&["eval", "conll", p.to_str().unwrap_or_default()]);
    eprint!("{out}");
    assert!(out.starts_with("score precision recall f1 (tp fp fn)\nentities "), "{out}");
    // Floors under the published numbers (docs/BENCHMARKS.md): this gold tags defined terms
    // ("Bank", "Borrower") as entities, which we deliberately do not, and the learned name
    // recogniser — trained on Wikipedia and 10-K prose, never on contracts — still takes
    // capitalised contract terms ("Issuer", "Credit Extensions") for organisations: an
    // unseen domain, measured and recorded, not a precision we claim.
    let e = prf(&out, "entities");
    assert!(e[0] >= 0.15 && e[1] > 0.05, "{out}");
    assert!(prf(&out, "entities-lenient")[0] >= 0.15, "{out}");
    for t in ["Organization", "Person", "Location"] {
        prf(&out, &format!("entity {t}"));
    }
    assert!(!out.contains("relations "), "NER data has no relations: {out}");
    let _ = Path::new(".");
}

/// KPI-EDGAR's shape in memory, counted by hand: sentence 1 "Revenue was $ 5 million ,
/// up from $ 4 million ." with `cy_1` on 5 and `py_1` on 4 — two gold values, both inside
/// our Money mentions: 2 tp. Sentence 2 "Costs were 3 million in 2020 , and $ 9 billion
/// is forecast ." with `cy_1` on 3 (no currency before it: not gold) and `false_positive_0`
/// on 9: our "$ 9 billion" covers an annotated token that is not gold (not scored); no
/// Money mention for "3 million". Sentence 3 "We paid $ 7 million in fees ." with no
/// annotation: an amount the gold leaves out, 1 fp. P 2/3, R 2/2.
#[test]
fn kpi_rows_score_exactly() {
    let row = |cells: &[&str]| cells.iter().map(|c| c.to_string()).collect::<Vec<String>>();
    let mut rows = vec![row(&["GOOGL_10-K.txt", "valid"])];
    let sentence = |toks: &str, tags: &[(usize, &str)]| {
        let toks: Vec<&str> = toks.split(' ').collect();
        let mut t = vec![String::new(); toks.len()];
        for (i, tag) in tags {
            t[*i] = tag.to_string();
        }
        let mut s = vec!["Sentence".to_string()];
        s.extend(toks.iter().map(|x| x.to_string()));
        let mut a = vec!["Manual Annotations".to_string()];
        a.extend(t);
        vec![row(&["Sentence ID", "0"]), s, row(&["Secondary Annotation"]), a, row(&["Comment"])]
    };
    rows.extend(sentence("Revenue was $ 5 million , up from $ 4 million .", &[(0, "kpi_1"), (3, "cy_1"), (9, "py_1")]));
    rows.extend(sentence("Costs were 3 million in 2020 , and $ 9 billion is forecast .", &[(2, "cy_1"), (9, "false_positive_0")]));
    rows.extend(sentence("We paid $ 7 million in fees .", &[]));
    let sheets = vec![("legend".to_string(), vec![row(&["Sentence", "ignored"])]), ("0".to_string(), rows)];
    let rep = textgraph::extract::eval::kpi(&sheets).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rep.sentences, 3);
    assert_eq!(rep.to_text().lines().take(2).collect::<Vec<_>>(), ["entities 0.67 1.00 0.80", "entity Money 0.67 1.00 0.80 (2 1 0)"]);
}

#[test]
fn real_kpi_edgar_money() {
    let Some(p) = real("data/re_kpi_edgar/kpi_edgar.xlsx") else { return };
    let out = stdout_of(&["eval", "kpi", p.to_str().unwrap_or_default()]);
    eprint!("{out}");
    // Every annotated value after a currency sign is found; the gold leaves non-KPI amounts
    // unannotated, so precision is a lower bound (docs/BENCHMARKS.md).
    let e = prf(&out, "entities");
    assert!(e[1] >= 0.95 && e[0] >= 0.55, "{out}");
    assert!(out.contains("\nsentences 1393 "), "{out}");
}

/// fixtures/eval/conll_defined.txt: a loan agreement's two sentences, one document. The
/// defined term `("Bank")` is read as its party where the next sentence uses it ("The
/// Bank will lend"): an organisation found, which scoring each sentence alone missed;
/// inside its own definition (quoted) it is no mention (the one miss). 5 gold, 4 found.
#[test]
fn conll_documents_are_extracted_whole() {
    let out = stdout_of(&["eval", "conll", "--errors", "fixtures/eval/conll_defined.txt"]);
    assert!(out.contains("entity Organization 1.00 0.75 0.86 (3 0 1)\n"), "{out}");
    assert!(out.contains("fn entity Organization \"Bank\" (sentence 0)\n"), "{out}");
    assert!(!out.contains("(sentence 1)"), "{out}");
}
