//! Arbitrary query text never panics `tg gql`'s library: it runs or yields a `GqlError`
//! (over a small graph, so that patterns, temporals and functions are all reached).

use proptest::prelude::*;
use std::collections::BTreeMap;
use textgraph::gql::{Access, Graph, query, run_script};

const PIECES: &[&str] = &[
    "MATCH ",
    "OPTIONAL MATCH ",
    "RETURN ",
    "WITH ",
    "WHERE ",
    "UNWIND ",
    " AS ",
    "ORDER BY ",
    " SKIP ",
    " LIMIT ",
    "DISTINCT ",
    "CREATE ",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "-",
    "->",
    "<-",
    "*",
    "..",
    ":",
    ",",
    ".",
    "|",
    "n",
    "m",
    "r",
    "p",
    "x",
    "A",
    "T",
    "=",
    "<>",
    "<",
    "+",
    "/",
    "%",
    "^",
    " AND ",
    " OR ",
    " NOT ",
    " IN ",
    " IS NULL",
    "1",
    "0",
    "-9223372036854775808",
    "2.5",
    "'s'",
    "'2015-W30-2'",
    "'P1Y-2DT3.5S'",
    "null",
    "true",
    "count(*)",
    "collect(",
    "sum(",
    "date(",
    "datetime(",
    "duration(",
    "localtime(",
    "date.truncate('week', ",
    "size(",
    "range(",
    "[x IN ",
    "all(x IN ",
    "CASE ",
    " WHEN ",
    " THEN ",
    " ELSE ",
    " END",
    "EXISTS {",
    "$p",
    "shortestPath(",
    "toInteger(",
    "substring(",
    "labels(",
    "nodes(",
    " STARTS WITH ",
    " =~ ",
    "'[a'",
    "{year: 1984, week: 53}",
    "{k: 1}",
    "`x`",
    " ",
    "\n",
];

fn graph() -> Graph {
    let mut g = Graph::default();
    let setup = "CREATE (a:A {p: 1, d: date('2024-03-01')})-[:T {w: 2}]->(b:B {name: 'b'}), (b)-[:T]->(a), (a)-[:U]->(a)";
    run_script(&mut g, setup, &BTreeMap::new()).unwrap_or_else(|e| panic!("{e}"));
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn token_soup_never_panics(parts in proptest::collection::vec(0usize..PIECES.len(), 0..30)) {
        let text: String = parts.iter().map(|i| PIECES[*i]).collect();
        let mut g = graph();
        let _ = query(&mut g, &text, &BTreeMap::new(), Access::ReadWrite);
    }

    #[test]
    fn returned_expressions_never_panic(parts in proptest::collection::vec(0usize..PIECES.len(), 1..14)) {
        let text: String = parts.iter().map(|i| PIECES[*i]).collect();
        let mut g = graph();
        let _ = query(&mut g, &format!("MATCH (n)-[r]->(m) RETURN {text} AS v"), &BTreeMap::new(), Access::ReadOnly);
    }

    #[test]
    fn raw_text_never_panics(text in ".{0,120}") {
        let mut g = graph();
        let _ = query(&mut g, &text, &BTreeMap::new(), Access::ReadOnly);
        let _ = query(&mut g, &format!("RETURN date('{text}'), duration('{text}'), datetime('{text}') AS v"), &BTreeMap::new(), Access::ReadOnly);
    }
}

/// A graph big enough that property reads switch to whole-key columns mid-query: results
/// must match a direct computation (integer columns with gaps, mixed-type columns, the
/// integer that packed columns cannot hold, relationship properties, pushed-down filters).
#[test]
fn property_columns_agree_with_direct_reads() {
    use textgraph::gql::Value;
    let mut g = Graph::default();
    let n = 10_000i64;
    for i in 0..n {
        let mut p = BTreeMap::new();
        if i % 7 != 0 {
            p.insert("v".to_string(), Value::Int(i % 100));
        }
        p.insert("m".to_string(), if i % 3 == 0 { Value::str("s") } else { Value::Int(i) });
        if i == 5 {
            p.insert("big".to_string(), Value::Int(i64::MIN));
        }
        g.add_node(vec![if i % 2 == 0 { "E".into() } else { "O".into() }], p);
    }
    for i in 0..n as usize {
        let mut p = BTreeMap::new();
        p.insert("w".to_string(), Value::Int((i % 13) as i64));
        g.add_rel(i, (i * 7 + 1) % n as usize, "R".into(), p);
    }
    let run = |g: &mut Graph, q: &str| -> Vec<Vec<Value>> { query(g, q, &BTreeMap::new(), Access::ReadOnly).unwrap_or_else(|e| panic!("{q}: {e}")).rows };
    let int = |v: &Value| if let Value::Int(i) = v { *i } else { panic!("not an integer: {v:?}") };
    let want_v: i64 = (0..n).filter(|i| i % 7 != 0).map(|i| i % 100).sum();
    let r = run(&mut g, "MATCH (x) RETURN sum(x.v) AS s, count(x.v) AS c");
    assert_eq!((int(&r[0][0]), int(&r[0][1])), (want_v, (0..n).filter(|i| i % 7 != 0).count() as i64));
    let r = run(&mut g, "MATCH (x) WHERE x.m = 's' RETURN count(*) AS c");
    assert_eq!(int(&r[0][0]), (0..n).filter(|i| i % 3 == 0).count() as i64);
    let r = run(&mut g, "MATCH (x) WHERE x.big IS NOT NULL RETURN x.big AS b");
    assert_eq!(int(&r[0][0]), i64::MIN);
    let want: i64 = (0..n as usize).filter(|i| i % 2 == 0 && ((i * 7 + 1) % n as usize) % 2 == 1).map(|i| (i % 13) as i64).sum();
    let r = run(&mut g, "MATCH (a:E)-[k:R]->(b) WHERE b:O AND k.w >= 0 RETURN sum(k.w) AS w");
    assert_eq!(int(&r[0][0]), want);
    let r = run(&mut g, "MATCH (a)-[k:R]->(b) RETURN a.v % 2 AS p, count(*) AS c ORDER BY p");
    let rows: Vec<(Value, i64)> = r.iter().map(|x| (x[0].clone(), int(&x[1]))).collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[2].1, (0..n).filter(|i| i % 7 == 0).count() as i64);
}

/// What `tg load` stores as a property literal reads back as the same value.
#[test]
fn stored_property_literals_round_trip() {
    use textgraph::gql::Value;
    use textgraph::gql::load::{decode, encode};
    let vals = [
        Value::Int(i64::MIN),
        Value::Int(42),
        Value::Float(2.5),
        Value::Float(1e20),
        Value::Float(f64::INFINITY),
        Value::str("it's a \\ \"test\"\nnext"),
        Value::str("plain"),
        Value::Bool(true),
        Value::list(vec![Value::Int(1), Value::str("x"), Value::list(vec![])]),
    ];
    let g = Graph::default();
    for v in vals {
        let lit = encode(&v).unwrap_or_else(|| panic!("{v:?} not encodable"));
        let back = decode(&lit).unwrap_or_else(|e| panic!("{lit}: {e}"));
        assert_eq!(textgraph::gql::format::literal(&g, &back), textgraph::gql::format::literal(&g, &v), "{lit}");
        assert_eq!(back.type_name(), v.type_name(), "{lit}");
    }
    let date = query(&mut Graph::default(), "RETURN date('1983-02-01') AS d, duration('P1Y2DT3S') AS u", &BTreeMap::new(), Access::ReadOnly).unwrap_or_else(|e| panic!("{e}"));
    for v in &date.rows[0] {
        let lit = encode(v).unwrap_or_default();
        let back = decode(&lit).unwrap_or_else(|e| panic!("{lit}: {e}"));
        assert_eq!(format!("{back:?}"), format!("{v:?}"), "{lit}");
    }
}
