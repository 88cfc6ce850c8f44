//! The adjacency scan (`engine/gql/scan.rs`) against the backtracking matcher: each query
//! runs as `MATCH (a)-[r]-(b)` (scanned) and as `MATCH p = (a)-[r]-(b)` (a named path
//! keeps it on the matcher); rows, their order and errors must be the same.

use std::collections::BTreeMap;
use textgraph::gql::{Access, Graph, query, run_script};

const SETUP: &str = "CREATE (a:A:B {k: 1, name: 'a', f: 1.5}), (b:B {k: 2, name: 'b'}), (c:A {k: 3, f: 2.25}), (d:C {k: 'x'}), (e:A:B {k: 9223372036854775807}),
  (a)-[:T {w: 1}]->(b), (a)-[:T {w: 2.5}]->(c), (b)-[:U {w: 3}]->(a), (c)-[:T]->(c), (a)-[:T {w: 4}]->(a),
  (d)-[:U {w: 'str'}]->(a), (c)-[:U {w: 5}]->(d), (e)-[:T {w: 9223372036854775807}]->(a), (e)-[:T {w: 1}]->(b), (b)-[:T {w: -7}]->(e)";

fn graph() -> Graph {
    let mut g = Graph::default();
    run_script(&mut g, SETUP, &BTreeMap::new()).unwrap_or_else(|e| panic!("{e}"));
    g
}

fn run(g: &mut Graph, q: &str) -> String {
    match query(g, q, &BTreeMap::new(), Access::ReadOnly) {
        Ok(t) => format!("{:?} {:?}", t.cols, t.rows),
        Err(e) => format!("error: {e}"),
    }
}

/// `m` is a MATCH pattern without `p =`; `rest` what follows it.
fn same(m: &str, rest: &str) {
    let mut g = graph();
    let scanned = run(&mut g, &format!("MATCH {m} {rest}"));
    let matched = run(&mut g, &format!("MATCH p = {m} {rest}"));
    assert_eq!(scanned, matched, "MATCH {m} {rest}");
}

#[test]
fn rows_and_their_order_are_the_matchers() {
    for m in ["(a)-[r]->(b)", "(a)<-[r]-(b)", "(a)-[r]-(b)", "(a:A)-[r:T]->(b:B)", "(a:B)-[r:T|U]-(b:A)", "(a)-[r:V]->(b)", "(a:Z)-[r]->(b)", "(a)-[r]->(b:A:B)"] {
        same(m, "RETURN id(a) AS a, id(r) AS r, id(b) AS b, r.w AS w, b.name AS n");
        same(m, "WHERE a.k < 3 AND b.k >= 1 RETURN id(a), id(r), id(b)");
        same(m, "WITH a, r, b WHERE r.w > 1 RETURN count(*) AS c");
    }
}

#[test]
fn aggregates_are_the_matchers() {
    for m in ["(a)-[r]->(b)", "(a)-[r]-(b)", "(a:A)<-[r]-(b)", "(a:B)-[r:T]->(b)"] {
        same(m, "RETURN count(*) AS n");
        same(m, "RETURN a.k % 2 AS g, count(*) AS n, count(r.w) AS c, min(b.k) AS lo, max(r.w) AS hi, collect(b.name) AS names ORDER BY g");
        same(m, "RETURN a.name AS g, avg(b.k) AS av, collect(DISTINCT id(b)) AS bs ORDER BY g");
        same(m, "RETURN b.k AS g, count(*) AS n, sum(a.f) AS s ORDER BY g");
        same(m, "WHERE a.k < 3 RETURN a.k AS g, count(*) AS n, sum(b.k) AS s ORDER BY g");
        same(m, "WHERE r.w IS NOT NULL RETURN a.k AS g, sum(r.w) AS s, a AS node ORDER BY g");
        same(m, "RETURN id(a) AS g, sum(r.w) AS s ORDER BY g");
        same(m, "RETURN a AS g, count(DISTINCT b) AS n, collect(r) AS rs, collect(b) AS bs");
        same(m, "RETURN b AS g, count(*) AS n, collect(a) AS s");
        same(m, "RETURN a.k AS g, sum(r.w) AS s, sum(a.k) AS t ORDER BY g");
        same(m, "WHERE a.k AND b.k > 1 RETURN count(*) AS c");
        same(m, "RETURN a.k / (b.k - 2) AS x, count(*) AS c");
        same(m, "WHERE toInteger(r.w) IS NOT NULL RETURN a.k AS g, sum(r.w) AS s ORDER BY g");
        same(m, "WHERE toInteger(r.w) IS NOT NULL AND a.k < 5 RETURN a.k AS g, sum(r.w) AS s, sum(b.k) AS t ORDER BY g");
        same(m, "WHERE toInteger(r.w) < 100 RETURN a.k AS g, sum(r.w) AS s, sum(b.f) AS t ORDER BY g");
    }
}

#[test]
fn optional_match_without_rows_is_the_matchers() {
    let mut g = graph();
    let scanned = run(&mut g, "OPTIONAL MATCH (a:Z)-[r]->(b) RETURN count(*) AS n, count(a) AS c");
    let matched = run(&mut g, "OPTIONAL MATCH p = (a:Z)-[r]->(b) RETURN count(*) AS n, count(a) AS c");
    assert_eq!(scanned, matched);
}

#[test]
fn a_start_node_with_more_matches_than_one_run_is_the_matchers() {
    let setup = "CREATE (h:H {k: 1}) WITH h UNWIND range(1, 9000) AS i CREATE (h)-[:T {w: i * 500000000000}]->(:X {k: i})";
    for rest in [
        "RETURN a.k AS g, count(*) AS n, sum(b.k) AS s, collect(b.k)[4094..4098] AS c",
        "RETURN a.k AS g, count(*) AS n, sum(r.w) AS s",
        "WHERE b.k < 6000 RETURN a.k AS g, count(*) AS n, sum(r.w) AS s, max(r.w) AS m",
    ] {
        let mut out = vec![];
        for m in ["(a:H)-[r]->(b)", "p = (a:H)-[r]->(b)"] {
            let mut g = Graph::default();
            run_script(&mut g, setup, &BTreeMap::new()).unwrap_or_else(|e| panic!("{e}"));
            out.push(run(&mut g, &format!("MATCH {m} {rest}")));
        }
        assert_eq!(out[0], out[1], "{rest}");
    }
}

/// A scan steps through each node's relationship list until a query reading a
/// relationship property builds the adjacency of that direction: the rows and their order
/// on a fresh graph are those on a graph whose adjacency was built first, in every
/// direction, with self-loops and parallel relationships (the matcher always walks the
/// lists).
#[test]
fn relationship_lists_and_the_adjacency_give_the_same_rows() {
    let setup = "UNWIND range(0, 1499) AS i CREATE (:N {i: i})";
    let wire = "MATCH (a:N), (b:N) WHERE b.i = (a.i * 7 + 3) % 1500 OR b.i = (a.i * 13) % 1500 OR b.i = a.i CREATE (a)-[:R {w: a.i - b.i}]->(b)";
    let build = |g: &mut Graph| {
        run_script(g, setup, &BTreeMap::new()).unwrap_or_else(|e| panic!("{e}"));
        run_script(g, wire, &BTreeMap::new()).unwrap_or_else(|e| panic!("{e}"));
    };
    for q in [
        "MATCH (a:N)-[r:R]-(b) RETURN a.i, id(r), b.i",
        "MATCH (a)<-[r]-(b:N) WHERE a.i < 700 RETURN a.i, id(r), b.i",
        "MATCH (a:N)-[r]->(b) RETURN a.i % 7 AS k, count(*), collect(id(r))[0..3], sum(b.i)",
        "MATCH (a:N)-[r:R]-(b) RETURN a.i, r.w, b.i",
        "MATCH p = (a:N)-[r:R]->(b)-[s:R]->(c) RETURN a.i, id(r), b.i, id(s), c.i",
        "MATCH (a:N)-[r:R]-(b) WITH a, count(*) AS n MATCH p = (a)-[x]->(y) RETURN a.i, n, id(x), y.i",
    ] {
        let (mut fresh, mut built) = (Graph::default(), Graph::default());
        build(&mut fresh);
        build(&mut built);
        // Reading a relationship property in the matcher's order builds the adjacency of
        // the direction walked.
        assert_eq!(run(&mut built, "MATCH (a)-[r]->(b) WITH r.w AS w RETURN count(*) AS n, sum(w * w) AS w"), "[\"n\", \"w\"] [[Int(4488), Int(1001371500)]]");
        assert_eq!(run(&mut built, "MATCH (a)<-[r]-(b) WITH r.w AS w RETURN count(*) AS n, sum(w * w) AS w"), "[\"n\", \"w\"] [[Int(4488), Int(1001371500)]]");
        assert!(built.built_adjacency(false).is_some() && built.built_adjacency(true).is_some() && fresh.built_adjacency(false).is_none());
        let (lists, adjacency) = (run(&mut fresh, q), run(&mut built, q));
        assert!(lists.len() > 300 && !lists.starts_with("error"), "{q}: {}", &lists[..lists.len().min(300)]);
        assert_eq!(lists, adjacency, "{q}");
    }
}

/// A graph big enough (70,001 relationships) that the first query reading a relationship
/// property in the matcher's order copies the adjacency on a second thread while it lays
/// out the column; aggregates whose totals do not depend on the order read the
/// relationships in id order instead and build no adjacency. The rows and their order are
/// the matcher's, for both directions, on a fresh graph each time.
#[test]
fn a_large_graph_gives_the_matchers_rows_in_order_or_by_totals() {
    let setup = "UNWIND range(0, 299) AS i CREATE (:N {i: i})";
    // 70,001 of the 90,000 pairs; ids run by end node, so each start node's relationships
    // are spread over the whole id range.
    let wire = "MATCH (b:N), (a:N) WHERE (a.i * 31 + b.i) % 9 < 7 CREATE (a)-[:R {w: (a.i * 7 + b.i * 13) % 1000 - 500}]->(b)";
    let fresh = || {
        let mut g = Graph::default();
        run_script(&mut g, setup, &BTreeMap::new()).unwrap_or_else(|e| panic!("{e}"));
        run_script(&mut g, wire, &BTreeMap::new()).unwrap_or_else(|e| panic!("{e}"));
        g
    };
    assert_eq!(run(&mut fresh(), "MATCH ()-[r]->() RETURN count(r) AS n"), "[\"n\"] [[Int(70001)]]");
    // (pattern, rest, whether the totals are taken in relationship id order)
    for (m, rest, by_totals) in [
        ("(a:N)-[r:R]->(b)", "RETURN a.i % 7 AS k, count(*) AS n, sum(r.w) AS s, min(r.w) AS lo, collect(id(r))[0..5] AS first ORDER BY k", false),
        ("(a:N)<-[r:R]-(b)", "WHERE r.w > 100 RETURN a.i AS k, sum(r.w * b.i) AS s, avg(r.w) AS av", false),
        ("(a)-[r]->(b)", "RETURN id(a) AS a, id(r) AS r, r.w AS w SKIP 69990", false),
        ("(a:N)-[r:R]->(b)", "WHERE b.i > 10 RETURN a.i % 5 AS k, count(*) AS n, sum(r.w) AS s, min(b.i) AS lo, max(r.w) AS hi", true),
        ("(a:N)<-[r:R]-(b:N)", "WHERE a.i > 3 AND r.w < 200 RETURN (a.i * 3) % 11 AS k, a.i % 2 AS j, count(r.w) AS n, sum(r.w - b.i) AS s", true),
        ("(a)-[r]->(b)", "WHERE a.i < 150 RETURN count(*) AS n, sum(r.w) AS s", true),
    ] {
        let mut g = fresh();
        let scanned = run(&mut g, &format!("MATCH {m} {rest}"));
        assert_eq!(g.built_adjacency(m.contains("<-")).is_some(), !by_totals, "{m} {rest}: the adjacency is built only for a scan in the matcher's order");
        // Run again: a relationship property the totals read from the property array the
        // first time is read from its column from the second time on.
        assert_eq!(run(&mut g, &format!("MATCH {m} {rest}")), scanned, "MATCH {m} {rest}, second run");
        let matched = run(&mut fresh(), &format!("MATCH p = {m} {rest}"));
        assert!(scanned.contains("Int(") && !scanned.starts_with("error"), "{m}: {}", &scanned[..scanned.len().min(300)]);
        assert_eq!(scanned, matched, "MATCH {m} {rest}");
    }
}

/// A node pattern's property map is first answered by scanning the label's nodes, later
/// from an index built on the second lookup: both give the same nodes in the same order.
#[test]
fn property_lookups_by_scan_and_by_index_agree() {
    let setup = "UNWIND range(0, 99) AS i CREATE (:N {k: i % 7, f: toFloat(i % 3), s: toString(i % 5)}), (:M {k: i})";
    for q in [
        "MATCH (n:N {k: 3}) RETURN id(n) AS n",
        "MATCH (n:N {f: 1}) RETURN id(n) AS n",
        "MATCH (n:N {k: 1.0}) RETURN id(n) AS n",
        "MATCH (n:N {s: '4'}) RETURN id(n) AS n",
        "MATCH (n:N {k: 'x'}) RETURN id(n) AS n",
        "MATCH (n:M {k: 99}), (m:N {k: 6}) RETURN id(n) AS n, id(m) AS m",
        "UNWIND [0, 3, 3, 9] AS v MATCH (n:N {k: v}) RETURN v, count(n) AS c",
    ] {
        let mut g = Graph::default();
        run_script(&mut g, setup, &BTreeMap::new()).unwrap_or_else(|e| panic!("{e}"));
        let runs: Vec<String> = (0..3).map(|_| run(&mut g, q)).collect();
        assert!(runs[0].contains("Int(") && !runs[0].starts_with("error") || q.contains("'x'"), "{q}: {}", runs[0]);
        assert_eq!(runs[0], runs[1], "{q}");
        assert_eq!(runs[1], runs[2], "{q}");
    }
}
