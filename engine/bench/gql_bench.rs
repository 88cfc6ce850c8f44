//! `tg-gql-bench`: times GQL queries over a generated property graph (issue 7's speed
//! check). Reads `nodes.csv` (`id,age`) and `rels.csv` (`src,dst,weight`) written by
//! `scripts/bench_gql.py`, which runs the same queries on Kuzu from the same files. Prints
//! one tab-separated line per query: name, cold ms (first run), warm ms (median of the
//! next runs), and the result's first cell.
//!
//!     tg-gql-bench DIR [RUNS] [QUERY]     # TG_GQL_PARTS=1: time each structure first

use std::collections::BTreeMap;
use std::time::Instant;

use textgraph::gql::graph::Sym;
use textgraph::gql::{Access, Graph, Value, query};

/// The benchmark queries: the Python driver sends the same texts to Kuzu.
const QUERIES: &[(&str, &str)] = &[
    ("1-hop", "MATCH (a:Person {id: 42})-[:KNOWS]->(b) RETURN count(b) AS c"),
    ("2-hop", "MATCH (a:Person {id: 42})-[:KNOWS]->()-[:KNOWS]->(c) RETURN count(c) AS c"),
    ("var-1..3", "MATCH (a:Person {id: 42})-[:KNOWS*1..3]->(c) RETURN count(c) AS c"),
    ("filter-all", "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.age < 20 AND b.age > 60 RETURN count(*) AS c"),
    ("aggregate", "MATCH (a:Person)-[k:KNOWS]->(b:Person) RETURN a.age % 10 AS bucket, count(*) AS n, sum(k.weight) AS w ORDER BY bucket"),
];

/// The integer cells of a CSV file's data lines (the header skipped; a bad cell is 0).
fn read_csv(path: &str) -> Result<Vec<[i64; 3]>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut rows = Vec::with_capacity(text.len() / 12);
    for line in text.lines().skip(1).filter(|l| !l.is_empty()) {
        let mut row = [0i64; 3];
        for (cell, c) in row.iter_mut().zip(line.split(',')) {
            *cell = c.trim().parse().unwrap_or(0);
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Times building each structure the queries use, on stderr (set `TG_GQL_PARTS=1`): where
/// a cold query's time goes. The queries after it then run on built structures.
fn parts(g: &Graph, age: Sym, weight: Sym) {
    let time = |what: &str, f: &dyn Fn()| {
        let t = Instant::now();
        f();
        eprintln!("{what}\t{:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    };
    time("outgoing adjacency", &|| drop(g.adjacency(false)));
    time("node column age", &|| drop(g.node_column(age)));
    time("weight in adjacency order", &|| drop(g.list_rel_column(weight, false)));
    time("weight by relationship id", &|| drop(g.rel_column(weight)));
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let dir = args.get(1).cloned().unwrap_or_else(|| "target/bench-gql".into());
    let runs: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(5);
    let only: Option<String> = args.get(3).cloned();
    // Loaded as a bulk loader would: symbols interned once, no map per element.
    let t0 = Instant::now();
    let mut g = Graph::default();
    let (person, knows) = (g.intern("Person"), g.intern("KNOWS"));
    let (id, age, weight) = (g.intern("id"), g.intern("age"), g.intern("weight"));
    let nodes = read_csv(&format!("{dir}/nodes.csv"))?;
    let mut ids = std::collections::HashMap::with_capacity(nodes.len());
    for [n, a, _] in nodes {
        ids.insert(n, g.add_node_interned(&[person], [(id, Value::Int(n)), (age, Value::Int(a))]));
    }
    for [a, b, w] in read_csv(&format!("{dir}/rels.csv"))? {
        if let (Some(&a), Some(&b)) = (ids.get(&a), ids.get(&b)) {
            g.add_rel_interned(a, b, knows, [(weight, Value::Int(w))]);
        }
    }
    println!("load\t{:.1}\t-\t{} nodes, {} relationships", t0.elapsed().as_secs_f64() * 1e3, g.nodes.len(), g.rels.len());
    let params = BTreeMap::new();
    if std::env::var_os("TG_GQL_PARTS").is_some() {
        parts(&g, age, weight);
    }
    for (name, q) in QUERIES {
        if only.as_ref().is_some_and(|o| o != name) {
            continue;
        }
        let mut times = vec![];
        let mut first = String::new();
        for i in 0..runs.max(2) {
            let t = Instant::now();
            let res = query(&mut g, q, &params, Access::ReadOnly).map_err(|e| format!("{name}: {e}"))?;
            times.push(t.elapsed().as_secs_f64() * 1e3);
            if i == 0 {
                first = res.rows.first().and_then(|r| r.first()).map(|v| format!("{v:?}")).unwrap_or_default();
                first.push_str(&format!(" ({} rows)", res.rows.len()));
            }
        }
        let cold = times[0];
        let mut warm = times[1..].to_vec();
        warm.sort_by(|a, b| a.total_cmp(b));
        println!("{name}\t{cold:.1}\t{:.1}\t{first}", warm[warm.len() / 2]);
    }
    Ok(())
}
