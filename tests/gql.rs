//! `tg gql` as a user runs it: queries over the bundled case after `tg build` (with an
//! ownership chart added for CONTROLS chains), exact rows; openCypher semantics over
//! CREATE scripts; error classes, positions and exit codes.

mod common;

use common::copy_dir;

use common::{scratch, stderr, stdout, tg, write};
use std::path::PathBuf;
use std::sync::OnceLock;

const CHART: &str = "Ownership chart, prepared by the compliance team on 4 March 2024.

Acme Trading Ltd controls Beta Holdings SA.

Beta Holdings SA controls Delta Freight Inc.

According to the registry, Delta Freight Inc controls Gamma Logistics GmbH.
";

/// A folder with a built store of fixtures/case-files plus the ownership chart (built once).
fn case() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = scratch("gql", "case");
        copy_dir(&common::root().join("fixtures/case-files"), &d.join("corpus"));
        write(&d, "corpus/ownership-chart.txt", CHART);
        let o = tg(&d, &["build", "corpus"]);
        assert!(o.status.success(), "build failed: {}", stderr(&o));
        d
    })
}

/// Runs a query against the case store; returns (exit code, stdout, stderr). One process
/// at a time may open a store, so the tests take turns.
fn q(query: &str) -> (i32, String, String) {
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let dir = case();
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let o = tg(dir, &["gql", query]);
    (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
}

/// Runs a query over the graph a setup script builds, output in TCK literal form.
fn script(setup: &str, query: &str, extra: &[&str]) -> (i32, String, String) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let d = scratch("gql", &format!("s{}", N.fetch_add(1, std::sync::atomic::Ordering::SeqCst)));
    write(&d, "setup.cypher", setup);
    let mut args = vec!["gql", "--script", "setup.cypher", query, "--format", "tck"];
    args.extend_from_slice(extra);
    let o = tg(&d, &args);
    (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
}

fn ok(r: (i32, String, String)) -> String {
    assert_eq!(r.0, 0, "query failed: {}", r.2);
    r.1
}

#[test]
fn controls_chain_of_variable_length_from_the_case() {
    let out = ok(q("MATCH p = (a:Organization {name: 'Acme Trading Ltd'})-[:CONTROLS*1..3]->(b) RETURN b.name AS owned, length(p) AS hops ORDER BY hops"));
    assert_eq!(out, "owned\thops\nBeta Holdings SA\t1\nDelta Freight, Inc.\t2\nGamma Logistics GmbH\t3\n");
    let out = ok(q("MATCH (a)-[:CONTROLS*2]->(b) RETURN a.name, b.name ORDER BY a.name"));
    assert_eq!(
        out,
        "a.name\tb.name\nAcme Trading Ltd\tDelta Freight, Inc.\nBeta Holdings SA\tGamma Logistics GmbH\nMarek Novak\tBeta Holdings SA\nOrion Nominees Ltd\tDelta Freight, Inc.\n"
    );
}

#[test]
fn modality_filter_on_relationships() {
    let out = ok(q("MATCH (a)-[c:CONTROLS]->(b) WHERE c.modality <> 'assertion' RETURN a.name, b.name, c.modality"));
    assert_eq!(
        out,
        "a.name\tb.name\tc.modality\nDelta Freight, Inc.\tGamma Logistics GmbH\treported\nMarek Novak\tGamma Consulting LLC\treported\nMarek Novak\tGamma Consulting LLC\tdenied\n"
    );
    let out = ok(q("MATCH ()-[c:TRANSFERRED]->() RETURN c.modality AS m, count(*) AS n ORDER BY m"));
    assert_eq!(out, "m\tn\nassertion\t6\nreported\t1\n");
}

#[test]
fn citations_and_attributes_of_claims() {
    // The memo states a total of four wires: `total_amount` and `transfers`, not `amount`.
    let out =
        ok(q("MATCH (a)-[c:TRANSFERRED]->(b) WHERE c.doc = 'wire-transfer-memo.txt' RETURN a.name, b.name, c.amount, c.total_amount, c.transfers, c.currency, c.citation, c.tag"));
    assert_eq!(
        out,
        "a.name\tb.name\tc.amount\tc.total_amount\tc.transfers\tc.currency\tc.citation\tc.tag\nAcme Trading Ltd\tBeta Holdings SA\t\t1940000\t4\tUSD\t[wire-transfer-memo.txt:178-331]\tEXTRACTED\n"
    );
    // So summing amounts over every document counts each wire once (issue 20).
    let out = ok(q(
        "MATCH (:Organization {name: 'Acme Trading Ltd'})-[c:TRANSFERRED]->(:Organization {name: 'Beta Holdings SA'}) RETURN sum(c.amount) AS wired, count(c.total_amount) AS totals",
    ));
    assert_eq!(out, "wired\ttotals\n1940000\t2\n");
    let out = ok(q("MATCH ()-[c:TRANSFERRED]->(b) WHERE c.doc = 'wire-log.csv' RETURN b.name, sum(c.amount) AS total, collect(c.reference) AS refs ORDER BY total DESC"));
    assert_eq!(out, "b.name\ttotal\trefs\nBeta Holdings SA\t1940000\t['WT-1001', 'WT-1002', 'WT-1003', 'WT-1004']\nDelta Freight, Inc.\t12500\t['WT-1005']\n");
}

#[test]
fn documents_chunks_and_mentions_are_nodes() {
    let out = ok(q("MATCH (e:Organization {name: 'Beta Holdings SA'})-[:MENTIONED_IN]->(d:Document) RETURN count(DISTINCT d) >= 3 AS many"));
    assert_eq!(out, "many\ntrue\n");
    let out = ok(q("MATCH (d:Document {id: 'wire-transfer-memo.txt'})-[:HAS_CHUNK]->(c:Chunk) RETURN c.index, c.citation ORDER BY c.index LIMIT 1"));
    assert!(out.starts_with("c.index\tc.citation\n0\t[wire-transfer-memo.txt:0-"), "{out}");
}

#[test]
fn writes_against_a_store_are_refused() {
    let (code, out, err) = q("CREATE (n:Person {name: 'x'}) RETURN n");
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.starts_with("SemanticError: CREATE is refused"), "{err}");
}

#[test]
fn syntax_errors_name_the_position_and_what_was_expected() {
    let (code, _, err) = script("", "MATCH (n)\nRETURN n ORDER n.x", &[]);
    assert_eq!(code, 1);
    assert!(err.starts_with("SyntaxError: expected "), "{err}");
    assert!(err.lines().next().unwrap_or("").ends_with("at 2:16"), "{err}");
    assert!(err.contains("BY"), "{err}");
}

#[test]
fn error_classes_come_first_on_stderr() {
    for (query, class) in [
        ("MATCH (a) RETURN b", "SemanticError"),
        ("MATCH (a) WHERE count(a) > 1 RETURN a", "SemanticError"),
        ("MATCH ()-[r]->() MATCH (r) RETURN r", "SemanticError"),
        ("RETURN $missing AS x", "ParameterMissing"),
        ("WITH 'a' AS s RETURN s - 1 AS x", "SemanticError"),
        ("UNWIND [1, 'a'] AS s RETURN s - 1 AS x", "TypeError"),
        ("RETURN range(1, 5, 0) AS r", "ArgumentError"),
        ("RETURN 9223372036854775807 + 1 AS x", "ArgumentError"),
    ] {
        let (code, _, err) = script("CREATE (:A)-[:T]->(:B)", query, &[]);
        assert_eq!(code, 1, "{query}");
        assert!(err.starts_with(&format!("{class}: ")), "{query}: {err}");
    }
}

#[test]
fn undefined_variables_are_located() {
    let (code, _, err) = script("", "MATCH (a)\nWITH a\nRETURN a.x + b.y AS z", &[]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().next().unwrap_or(""), "SemanticError: variable `b` not defined (openCypher SyntaxError.UndefinedVariable) at 3:14");
}

#[test]
fn a_failing_setup_script_exits_2() {
    let (code, _, err) = script("CREATE (a:A\n", "RETURN 1 AS x", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("SyntaxError"), "{err}");
}

#[test]
fn three_valued_logic_and_nulls() {
    let out = ok(script("", "UNWIND [true, false, null] AS a RETURN a, a AND null AS x, a OR null AS y, NOT a AS n, a IS NULL AS z", &[]));
    assert_eq!(out, "a\tx\ty\tn\tz\ntrue\tnull\ttrue\tfalse\tfalse\nfalse\tfalse\tnull\ttrue\tfalse\nnull\tnull\tnull\tnull\ttrue\n");
    let out = ok(script("", "RETURN null = null AS a, 1 IN [2, null] AS b, [1, null] = [1, null] AS c, 1 < 'a' AS d", &[]));
    assert_eq!(out, "a\tb\tc\td\nnull\tnull\tnull\tnull\n");
}

#[test]
fn integers_and_floats_stay_distinct() {
    let out = ok(script("", "RETURN 7 / 2 AS a, 7 / 2.0 AS b, 1 = 1.0 AS c, 2 ^ 2 AS d, toInteger('42') AS e, $x AS f", &["--param", "x=1.5"])).replace('\n', "|");
    assert_eq!(out, "a\tb\tc\td\te\tf|3\t3.5\ttrue\t4.0\t42\t1.5|");
}

#[test]
fn order_by_sorts_mixed_types_and_nulls_as_opencypher_does() {
    let out = ok(script("", "UNWIND [2, null, 'b', 1.5, true, [1], {k: 1}] AS v RETURN v ORDER BY v", &[]));
    assert_eq!(out, "v\n{k: 1}\n[1]\n'b'\ntrue\n1.5\n2\nnull\n");
    let out = ok(script("", "UNWIND [2, null, 1] AS v RETURN v ORDER BY v DESC", &[]));
    assert_eq!(out, "v\nnull\n2\n1\n");
}

#[test]
fn relationships_are_unique_within_one_match() {
    let setup = "CREATE (a:N {n: 1})-[:R]->(b:N {n: 2})";
    let out = ok(script(setup, "MATCH (x)-[r1]-(y)-[r2]-(z) RETURN count(*) AS c", &[]));
    assert_eq!(out, "c\n0\n");
    let out = ok(script(setup, "MATCH (x)-[r1]-(y) MATCH (y)-[r2]-(z) RETURN count(*) AS c", &[]));
    assert_eq!(out, "c\n2\n");
}

#[test]
fn optional_match_keeps_rows_with_nulls() {
    let out = ok(script("CREATE (:P {name: 'a'})-[:K]->(:P {name: 'b'})", "MATCH (p:P) OPTIONAL MATCH (p)-[:K]->(q) RETURN p.name, q.name ORDER BY p.name", &[]));
    assert_eq!(out, "p.name\tq.name\n'a'\t'b'\n'b'\tnull\n");
}

#[test]
fn nodes_relationships_and_paths_print_as_literals() {
    let out = ok(script("CREATE (:A {p: 1})-[:T {w: 'x'}]->(:B)", "MATCH p = (a)-[r]->(b) RETURN a, r, p", &[]));
    assert_eq!(out, "a\tr\tp\n(:A {p: 1})\t[:T {w: 'x'}]\t<(:A {p: 1})-[:T {w: 'x'}]->(:B)>\n");
}

#[test]
fn parameters_are_cypher_literals_and_formats_differ() {
    let d = scratch("gql", "formats");
    write(&d, "s.cypher", "CREATE (:A {name: 'x, \"y\"'})");
    let o = tg(&d, &["gql", "--script", "s.cypher", "--param", "l=[1, 'two']", "MATCH (a:A) RETURN a.name AS name, $l AS l", "--format", "csv"]);
    assert_eq!(stdout(&o), "name,l\n\"x, \"\"y\"\"\",\"[1, 'two']\"\n");
    let o = tg(&d, &["gql", "--script", "s.cypher", "MATCH (a:A) RETURN a", "--format", "json"]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap_or_default();
    assert_eq!(j["columns"][0], "a");
    assert_eq!(j["rows"][0][0]["labels"][0], "A");
    assert_eq!(j["rows"][0][0]["properties"]["name"], "x, \"y\"");
    // `text`, every other command's readable format, is the table.
    let table = tg(&d, &["gql", "--script", "s.cypher", "MATCH (a:A) RETURN a.name AS name", "--format", "table"]);
    let text = tg(&d, &["gql", "--script", "s.cypher", "MATCH (a:A) RETURN a.name AS name", "--format", "text"]);
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    assert_eq!(stdout(&text), stdout(&table));
}

#[test]
fn same_as_classes_are_one_node_unless_raw_identity() {
    let d = scratch("gql", "same-as");
    copy_dir(&common::root().join("fixtures/case-files"), &d.join("corpus"));
    let o = tg(&d, &["build", "corpus"]);
    assert!(o.status.success(), "{}", stderr(&o));
    write(
        &d,
        "same.dl",
        ".decl entity(entity:symbol, type:symbol)\n.decl same_as(a:symbol, b:symbol)\nsame_as(a, b) :- entity(a, \"Organization\"), entity(b, \"Organization\"), a = \"Organization:beta holdings\", b = \"Organization:beta holdings sa\".\n",
    );
    let o = tg(&d, &["derive", "same.dl"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let query = "MATCH (e:Organization) WHERE e.key STARTS WITH 'Organization:beta' RETURN e.key, e.members ORDER BY e.key";
    let o = tg(&d, &["gql", query]);
    assert_eq!(stdout(&o), "e.key\te.members\nOrganization:beta holdings\t['Organization:beta holdings', 'Organization:beta holdings sa']\n");
    let o = tg(&d, &["gql", "--raw-identity", query]);
    assert_eq!(stdout(&o), "e.key\te.members\nOrganization:beta holdings\t\nOrganization:beta holdings sa\t\n");
}

#[test]
fn property_lookups_compare_numbers_by_value_and_see_new_nodes() {
    let setup = "CREATE (:P {v: 1}), (:P {v: 1.0}), (:P {v: 'a'}), (:Q {v: 1});\nMATCH (n:P {v: 1}) CREATE (:P {v: 1});";
    // Two nodes match `v: 1` (1 and 1.0), so the second statement adds two more.
    let out = ok(script(setup, "MATCH (n:P {v: 1}) RETURN count(*) AS c", &[]));
    assert_eq!(out, "c\n4\n");
    let out = ok(script(setup, "MATCH (n:P {v: $x}) RETURN n.v AS v", &["--param", "x='a'"]));
    assert_eq!(out, "v\n'a'\n");
}

/// `tg load`: a CREATE script stored as a document whose facts cite the patterns that
/// created them (GENERATED), seen by `tg gql --db`, verified, idempotent, replaced when
/// changed, and refused whole (exit 2, store untouched) when it fails.
#[test]
fn load_stores_a_script_as_cited_facts_that_the_view_sees() {
    let d = scratch("gql", "load");
    let script =
        "CREATE (a:Person {name: 'Ann', age: 41})-[:KNOWS {since: 2019}]->(b:Person {name: 'Bob'});\nMATCH (b {name: 'Bob'}) CREATE (b)-[:OWNS]->(:Company {name: 'Acme'})\n";
    write(&d, "g.cypher", script);
    let run = |args: &[&str]| {
        let o = tg(&d, args);
        (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
    };
    assert_eq!(run(&["load", "g.cypher", "--db", "st"]), (0, "g.cypher: 3 nodes, 2 relationships (14 facts cited to the script)\n".into(), String::new()));
    let query = ["gql", "--db", "st", "MATCH (a)-[r]->(b) RETURN a.name, a.age, type(r), r.since, b.name, labels(b) ORDER BY a.name"];
    let want = "a.name\ta.age\ttype(r)\tr.since\tb.name\tlabels(b)\nAnn\t41\tKNOWS\t2019\tBob\t['Person']\nBob\t\tOWNS\t\tAcme\t['Company']\n";
    assert_eq!(run(&query), (0, want.into(), String::new()));
    assert_eq!(run(&["load", "g.cypher", "--db", "st"]), (0, "g.cypher: unchanged\n".into(), String::new()));
    assert_eq!(run(&["verify", "--db", "st"]).1, "14/14 citations verified\n");
    // The loaded graph's relations are in the schema: rules join them.
    let rule = r#"knows(A, B) :- graph_rel(_, X, "KNOWS", Y), graph_prop(X, "name", A), graph_prop(Y, "name", B)."#;
    assert_eq!(run(&["repl", "--db", "st", "-e", rule, "-e", "?- knows(A, B)."]), (0, "A      B\n-----  -----\n'Ann'  'Bob'\n(1 row)\n".into(), String::new()));
    // The relationship cites the pattern from its start node to its end node.
    let (a, b) = (script.find("(a:Person").unwrap_or(0), script.find(";").unwrap_or(0));
    let dump = run(&["dump", "--db", "st"]).1;
    let rel = format!("fact graph_rel(\"g.cypher#r0\", \"g.cypher#n0\", \"KNOWS\", \"g.cypher#n1\") GENERATED supports=1\n  [g.cypher:{a}-{b}] GENERATED");
    assert!(dump.contains(&rel), "{dump}");
    // A failing script: exit 2 with the error, the stored graph unchanged.
    write(&d, "g.cypher", "CREATE (:Person {name: 'Cy'}), (x {v: 1 +})");
    let (code, out, err) = run(&["load", "g.cypher", "--db", "st"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("tg: script g.cypher failed: SyntaxError"), "{err}");
    assert_eq!(run(&query).1, want);
    // A changed script replaces the document's facts.
    write(&d, "g.cypher", "CREATE (:Person {name: 'Cy', born: date('1990-05-01')})\n");
    assert_eq!(run(&["load", "g.cypher", "--db", "st"]).1, "g.cypher: 1 nodes, 0 relationships (5 facts cited to the script)\n");
    assert_eq!(run(&["gql", "--db", "st", "MATCH (p:Person) RETURN p.name, p.born"]).1, "p.name\tp.born\nCy\t1990-05-01\n");
    assert_eq!(run(&["verify", "--db", "st"]).1, "5/5 citations verified\n");
}

/// Map projections (`n {.a, .*, k: e, v}`) and the catalogue procedures with YIELD.
#[test]
fn map_projections_and_catalogue_procedures() {
    let setup = "CREATE (a:Person {name: 'Ann', age: 41})-[:KNOWS {since: 2019}]->(b:Person:Director {name: 'Bob'}), (b)-[:OWNS]->(:Company {name: 'Acme'})";
    assert_eq!(
        ok(script(setup, "MATCH (p:Person) RETURN p {.name, .age, kind: 'person'} AS m ORDER BY p.name", &[])),
        "m\n{age: 41, kind: 'person', name: 'Ann'}\n{age: null, kind: 'person', name: 'Bob'}\n"
    );
    assert_eq!(ok(script(setup, "MATCH (p)-[k:KNOWS]->(x) RETURN k {.*, who: p.name, x} AS m", &[])), "m\n{since: 2019, who: 'Ann', x: (:Person:Director {name: 'Bob'})}\n");
    assert_eq!(ok(script(setup, "OPTIONAL MATCH (q:Nobody) WITH q, {a: 1} AS mm RETURN q {.name} AS n, mm {.*, b: 2} AS m", &[])), "n\tm\nnull\t{a: 1, b: 2}\n");
    assert_eq!(ok(script(setup, "CALL db.labels()", &[])), "label\n'Company'\n'Director'\n'Person'\n");
    assert_eq!(ok(script(setup, "CALL db.relationshipTypes() YIELD relationshipType AS t RETURN t ORDER BY t DESC", &[])), "t\n'OWNS'\n'KNOWS'\n");
    assert_eq!(ok(script(setup, "CALL db.propertyKeys() YIELD propertyKey RETURN collect(propertyKey) AS keys", &[])), "keys\n['age', 'name', 'since']\n");
    let (code, _, err) = script(setup, "CALL db.indexes()", &[]);
    assert_eq!(code, 1);
    assert!(err.starts_with("SemanticError: there is no procedure `db.indexes`"), "{err}");
}

/// Compile-time errors other than undefined variables carry a `line:col` too: the
/// innermost function call they concern, else the start of their clause.
#[test]
fn other_semantic_errors_are_located() {
    for (query, want) in [
        ("MATCH (a)\nWHERE count(a) > 1 RETURN a", "SemanticError: aggregate count() is not allowed here (openCypher SyntaxError.InvalidAggregation) at 2:7"),
        ("MATCH (a)\nWITH a\nRETURN a AS x, 1 AS x", "SemanticError: multiple result columns with the same name `x` (openCypher SyntaxError.ColumnNameConflict) at 3:1"),
        ("RETURN nosuch(1) AS x", "SemanticError: unknown function nosuch() (openCypher SyntaxError.UnknownFunction) at 1:8"),
    ] {
        let (code, _, err) = script("", query, &[]);
        assert_eq!((code, err.lines().next().unwrap_or("")), (1, want), "{query}");
    }
}
