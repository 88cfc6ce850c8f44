//! Incremental maintenance of derived facts equals evaluation from scratch, witnesses
//! included: random sequences of document stores, retractions and derivations are run on
//! two stores, one deriving incrementally, one always in full, and their dumps compared.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use textgraph::app::reason::derive;
use textgraph::store::{CitedFact, ColumnType, NewDocument, SourceDigest, Store, Tag, Value};

/// Every kind of stratum: recursive, non-recursive joins with several rules, negation of
/// inputs and of derived relations, aggregates, a computed head, a relation that is both
/// stored and derived, and a stratum nothing changes.
const PROGRAM: &str = r#"
.decl edge(a:symbol, b:symbol)
.decl flag(a:symbol)
.decl weight(a:symbol, n:number)
.decl mixed(a:symbol, b:symbol)
.decl path(a:symbol, b:symbol)
path(x, y) :- edge(x, y).
path(x, z) :- path(x, y), edge(y, z).
.decl pair(a:symbol, b:symbol)
pair(x, z) :- edge(x, y), edge(y, z).
pair(x, y) :- flag(x), edge(x, y).
pair("a", "a").
.decl lonely(a:symbol)
lonely(x) :- flag(x), !edge(x, _).
.decl open_path(a:symbol, b:symbol)
open_path(x, y) :- path(x, y), !flag(y), !lonely(x).
.decl total(a:symbol, n:number)
total(x, s) :- flag(x), s = sum n : { weight(x, n) }.
.decl least(a:symbol, n:number)
least(x, m) :- weight(x, _), m = min n : { weight(x, n) }.
.decl heavy(a:symbol)
heavy(x) :- weight(x, n), n > 5.
heavy(x) :- least(x, m), m > 3.
.decl next(a:symbol, n:number)
next(x, n + 1) :- weight(x, n).
mixed(x, y) :- pair(x, y), flag(y).
.decl constant(n:number)
constant(7).
"#;

const NODES: [&str; 5] = ["a", "b", "c", "d", "e"];

#[derive(Clone, Debug)]
enum Fact {
    Edge(usize, usize),
    Flag(usize),
    Weight(usize, i32),
    Mixed(usize, usize),
}

#[derive(Clone, Debug)]
enum Op {
    Put(usize, Vec<Fact>),
    Retract(usize),
    Derive,
}

fn fact() -> impl Strategy<Value = Fact> {
    prop_oneof![
        4 => (0..3usize, 0..3usize).prop_map(|(a, b)| Fact::Edge(a, b)),
        2 => (0..3usize).prop_map(Fact::Flag),
        2 => (0..3usize, 0..9i32).prop_map(|(a, n)| Fact::Weight(a, n)),
        1 => (0..3usize, 0..3usize).prop_map(|(a, b)| Fact::Mixed(a, b)),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..4usize, prop::collection::vec(fact(), 0..6)).prop_map(|(d, f)| Op::Put(d, f)),
        1 => (0..4usize).prop_map(Op::Retract),
        2 => Just(Op::Derive),
    ]
}

fn cited(f: &Fact) -> CitedFact {
    let s = |i: usize| Value::Sym(NODES[i].to_string());
    let (rel, args) = match f {
        Fact::Edge(a, b) => ("edge", vec![s(*a), s(*b)]),
        Fact::Flag(a) => ("flag", vec![s(*a)]),
        Fact::Weight(a, n) => ("weight", vec![s(*a), Value::Num(*n)]),
        Fact::Mixed(a, b) => ("mixed", vec![s(*a), s(*b)]),
    };
    CitedFact { rel: rel.into(), args, tag: Tag::Extracted, spans: vec![(0, 4)] }
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tg-incr-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
    d
}

fn open(path: &Path) -> Store {
    let store = Store::open(path).unwrap_or_else(|e| panic!("{e}"));
    for (rel, cols) in [
        ("edge", vec![ColumnType::Symbol, ColumnType::Symbol]),
        ("flag", vec![ColumnType::Symbol]),
        ("weight", vec![ColumnType::Symbol, ColumnType::Number]),
        ("mixed", vec![ColumnType::Symbol, ColumnType::Symbol]),
    ] {
        store.declare(rel, &cols).unwrap_or_else(|e| panic!("{e}"));
    }
    store
}

fn apply(store: &Store, op: &Op, rules: &Path, full: bool) -> Option<&'static str> {
    match op {
        Op::Put(d, facts) => {
            let id = format!("doc{d}.txt");
            let text = format!("doc {d} text");
            let facts: Vec<CitedFact> = facts.iter().map(cited).collect();
            store.put_document(&NewDocument { id: &id, format: "txt", source: SourceDigest::of(text.as_bytes()), text: &text }, &facts).unwrap_or_else(|e| panic!("{e}"));
            None
        }
        Op::Retract(d) => {
            store.retract_document(&format!("doc{d}.txt")).unwrap_or_else(|e| panic!("{e}"));
            None
        }
        Op::Derive => Some(derive(store, rules, full).unwrap_or_else(|e| panic!("{e}")).mode),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn incremental_equals_full(ops in prop::collection::vec(op(), 1..14)) {
        let dir = scratch("prop");
        let rules = dir.join("rules.dl");
        std::fs::write(&rules, PROGRAM).unwrap_or_else(|e| panic!("{e}"));
        let inc = open(&dir.join("inc"));
        let full = open(&dir.join("full"));
        let mut ops = ops;
        ops.push(Op::Derive);
        for (step, op) in ops.iter().enumerate() {
            apply(&inc, op, &rules, false);
            apply(&full, op, &rules, true);
            if matches!(op, Op::Derive) {
                let (a, b) = (inc.dump().unwrap_or_default(), full.dump().unwrap_or_default());
                prop_assert_eq!(a, b, "after step {} of {:?}", step, ops);
            }
        }
        // A full evaluation of the incrementally maintained store changes nothing.
        let r = derive(&inc, &rules, true).unwrap_or_else(|e| panic!("{e}"));
        prop_assert_eq!((r.written, r.removed), (0, 0));
        drop(inc);
        drop(full);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The second derivation after one changed document is incremental, skips the strata the
/// change cannot reach, and maintains the non-recursive ones.
#[test]
fn one_changed_document_is_maintained_not_recomputed() {
    let dir = scratch("modes");
    let rules = dir.join("rules.dl");
    std::fs::write(&rules, PROGRAM).unwrap_or_else(|e| panic!("{e}"));
    let store = open(&dir.join("db"));
    apply(&store, &Op::Put(0, vec![Fact::Edge(0, 1), Fact::Edge(1, 2), Fact::Flag(0), Fact::Weight(0, 4)]), &rules, false);
    assert_eq!(apply(&store, &Op::Derive, &rules, false), Some("full"));
    apply(&store, &Op::Put(1, vec![Fact::Weight(0, 9)]), &rules, false);
    let r = derive(&store, &rules, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.mode, "incremental");
    assert_eq!(r.changes, 1);
    // weight feeds total, least, heavy and next; edge, flag, path, pair, lonely, open_path,
    // mixed and constant are untouched.
    assert!(r.strata_skipped >= 6, "{r:?}");
    assert!(r.strata_maintained >= 3, "{r:?}");
    assert_eq!(r.strata_recomputed, 0, "{r:?}");
    let dump = store.dump().unwrap_or_default();
    assert!(dump.contains("derived total(\"a\", 13) INFERRED"), "{dump}");
    assert!(dump.contains("derived heavy(\"a\") INFERRED"), "{dump}");
    // Nothing changed: nothing is evaluated.
    let r = derive(&store, &rules, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((r.mode, r.changes, r.written, r.removed), ("incremental", 0, 0, 0));
    // Other rules: a full evaluation.
    std::fs::write(&rules, format!("{PROGRAM}\n.decl extra(a:symbol)\nextra(x) :- flag(x).\n")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(apply(&store, &Op::Derive, &rules, false), Some("full"));
}
