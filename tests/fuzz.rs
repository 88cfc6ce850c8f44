//! Bounded fuzzing (issue 19), run by `cargo test --release --test fuzz`: the Datalog
//! parser and lowering, and the GQL parser, checker and planner, fed token soups and raw
//! bytes built to reach deep nesting and odd corners. Each case must end in a result or
//! an error, never a panic or a stack overflow (a crash fails the whole test binary).
//! The format extractors' fuzz target is `tests/ingest_props.rs` (arbitrary bytes under
//! every extension). `PROPTEST_CASES` raises the case counts for a longer run.

use std::collections::BTreeMap;

use proptest::prelude::*;

const DL_TOKENS: &[&str] = &[
    ".decl",
    ".input",
    ".output",
    ".type",
    ".comp",
    ".init",
    ".functor",
    ".plan",
    ".printsize",
    "#include",
    "p",
    "q",
    "r",
    "x",
    "y",
    "_",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ".",
    ":-",
    ":",
    ";",
    "!",
    "=",
    "!=",
    "<",
    "<=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "^",
    "1",
    "0",
    "-7",
    "2.5",
    "\"s\"",
    "\"\\\"\"",
    "number",
    "symbol",
    "float",
    "unsigned",
    "count",
    "sum",
    "min",
    "max",
    ":",
    "range",
    "cat",
    "strlen",
    "match",
    "ord",
    "$",
    "nil",
    "as",
    "inline",
    "brie",
    "eqrel",
    "|",
    "&",
    "band",
    "bor",
    "\n",
    " ",
    "//c\n",
    "/*",
    "*/",
];

const GQL_TOKENS: &[&str] = &[
    "MATCH", "OPTIONAL", "WHERE", "RETURN", "WITH", "UNWIND", "AS", "ORDER", "BY", "SKIP", "LIMIT", "DISTINCT", "CREATE", "MERGE", "DELETE", "SET", "UNION", "ALL", "CASE", "WHEN",
    "THEN", "ELSE", "END", "NOT", "AND", "OR", "XOR", "IN", "IS", "NULL", "true", "false", "count", "collect", "range", "size", "exists", "(", ")", "[", "]", "{", "}", "-", "->",
    "<-", "-[", "]->", "*", "..", ":", ",", ".", "|", "=", "<>", "<", "+", "/", "%", "^", "a", "b", "n", "r", "p", "x", "L", "T", "name", "1", "0", "2.5", "'s'", "$p", " ", "\n",
];

fn soup(tokens: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(tokens), 0..max).prop_map(|v| v.join(" "))
}

/// A program or query nested `depth` deep by one of a few constructs.
fn nested(open: &'static [(&'static str, &'static str)]) -> impl Strategy<Value = (String, String)> {
    (prop::sample::select(open), 1usize..600).prop_map(|((o, c), n)| (o.repeat(n), c.repeat(n)))
}

/// Runs `f` on a thread with the stack `tg` gives its commands' callers at least (64 MiB;
/// the depth limits of `textgraph::limits::depth` are sized for that, `tg` itself uses 1 GiB).
fn on_stack(f: impl FnOnce() + Send) {
    std::thread::scope(|s| {
        let h = std::thread::Builder::new().stack_size(64 << 20).spawn_scoped(s, f).unwrap_or_else(|e| panic!("{e}"));
        if let Err(p) = h.join() {
            std::panic::resume_unwind(p);
        }
    });
}

fn compile_never_panics(text: &str) {
    on_stack(|| {
        let _ = textgraph::datalog::driver::compile_str("fuzz.dl", text);
    });
}

fn gql_never_panics(text: &str) {
    on_stack(|| {
        if let Ok(q) = textgraph::gql::parse::parse_query(text) {
            let _ = textgraph::gql::check::check(&q);
        }
        // Planning and running over an empty graph: the planner sees every parsed shape.
        let mut g = textgraph::gql::graph::Graph::default();
        let _ = textgraph::gql::query(&mut g, text, &BTreeMap::new(), textgraph::gql::exec::Access::ReadOnly);
    });
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn datalog_token_soup(text in soup(DL_TOKENS, 60)) {
        compile_never_panics(&text);
    }

    #[test]
    fn datalog_clauses_with_random_bodies(head in soup(DL_TOKENS, 8), body in soup(DL_TOKENS, 20)) {
        compile_never_panics(&format!(".decl p(x: number)\n.decl q(x: number)\np({head}) :- {body}.\n"));
    }

    #[test]
    fn datalog_deep_nesting((open, close) in nested(&[("(", ")"), ("!", ""), ("-", ""), (".comp C { ", "} "), ("[", "]"), ("cat(", ", \"a\")")])) {
        compile_never_panics(&format!(".decl p(x: number)\np({open}1{close}).\n"));
        compile_never_panics(&format!(".decl p(x: number)\n.decl q(x: number)\np(x) :- q(x), {open}q(x){close}.\n"));
    }

    #[test]
    fn datalog_raw_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        compile_never_panics(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn gql_token_soup(text in soup(GQL_TOKENS, 40)) {
        gql_never_panics(&text);
    }

    #[test]
    fn gql_clauses_with_random_expressions(e in soup(GQL_TOKENS, 16)) {
        gql_never_panics(&format!("MATCH (a)-[r]->(b) WHERE {e} RETURN a LIMIT 3"));
        gql_never_panics(&format!("UNWIND [1, 2] AS x RETURN {e}"));
    }

    #[test]
    fn gql_deep_nesting((open, close) in nested(&[("(", ")"), ("[", "]"), ("NOT ", ""), ("-", ""), ("[x IN ", " | x]"), ("{a: ", "}")])) {
        gql_never_panics(&format!("RETURN {open}1{close}"));
    }
}
