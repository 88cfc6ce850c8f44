//! Arbitrary query text never panics `tg gql`'s library: it runs or yields a `GqlError`
//! (over a small graph, so that patterns, temporals and functions are all reached).

use proptest::prelude::*;
use std::collections::BTreeMap;
use textgraph::gql::{Access, Graph, query, run_script};

const PIECES: &[&str] = &[
    "MATCH ", "OPTIONAL MATCH ", "RETURN ", "WITH ", "WHERE ", "UNWIND ", " AS ", "ORDER BY ", " SKIP ", " LIMIT ", "DISTINCT ", "CREATE ",
    "(", ")", "[", "]", "{", "}", "-", "->", "<-", "*", "..", ":", ",", ".", "|", "n", "m", "r", "p", "x", "A", "T", "=", "<>", "<", "+", "/", "%",
    "^", " AND ", " OR ", " NOT ", " IN ", " IS NULL", "1", "0", "-9223372036854775808", "2.5", "'s'", "'2015-W30-2'", "'P1Y-2DT3.5S'", "null",
    "true", "count(*)", "collect(", "sum(", "date(", "datetime(", "duration(", "localtime(", "date.truncate('week', ", "size(", "range(",
    "[x IN ", "all(x IN ", "CASE ", " WHEN ", " THEN ", " ELSE ", " END", "EXISTS {", "$p", "shortestPath(", "toInteger(", "substring(",
    "labels(", "nodes(", " STARTS WITH ", " =~ ", "'[a'", "{year: 1984, week: 53}", "{k: 1}", "`x`", " ", "\n",
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
