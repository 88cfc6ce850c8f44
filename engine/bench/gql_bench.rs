//! `tg-gql-bench`: times GQL queries over a generated property graph (issue 7's speed
//! check). Reads `nodes.csv` (`id,age`) and `rels.csv` (`src,dst,weight`) written by
//! `scripts/bench_gql.py`, which runs the same queries on Kuzu from the same files. Prints
//! one tab-separated line per query: name, cold ms (first run), warm ms (median of the
//! next runs), and the result's first cell.

use std::collections::BTreeMap;
use std::time::Instant;

use textgraph::gql::{Access, Graph, Value, query};

/// The benchmark queries: the Python driver sends the same texts to Kuzu.
const QUERIES: &[(&str, &str)] = &[
    ("1-hop", "MATCH (a:Person {id: 42})-[:KNOWS]->(b) RETURN count(b) AS c"),
    ("2-hop", "MATCH (a:Person {id: 42})-[:KNOWS]->()-[:KNOWS]->(c) RETURN count(c) AS c"),
    ("var-1..3", "MATCH (a:Person {id: 42})-[:KNOWS*1..3]->(c) RETURN count(c) AS c"),
    ("filter-all", "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.age < 20 AND b.age > 60 RETURN count(*) AS c"),
    ("aggregate", "MATCH (a:Person)-[k:KNOWS]->(b:Person) RETURN a.age % 10 AS bucket, count(*) AS n, sum(k.weight) AS w ORDER BY bucket"),
];

fn read_csv(path: &str) -> Vec<Vec<i64>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines().skip(1).filter(|l| !l.is_empty()).map(|l| l.split(',').map(|c| c.trim().parse::<i64>().unwrap_or(0)).collect()).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args.get(1).cloned().unwrap_or_else(|| "target/bench-gql".into());
    let runs: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(5);
    let only: Option<String> = args.get(3).cloned();
    let t0 = Instant::now();
    let mut g = Graph::default();
    let nodes = read_csv(&format!("{dir}/nodes.csv"));
    let mut ids = BTreeMap::new();
    for n in &nodes {
        let mut p = BTreeMap::new();
        p.insert("id".to_string(), Value::Int(n[0]));
        p.insert("age".to_string(), Value::Int(n[1]));
        ids.insert(n[0], g.add_node(vec!["Person".into()], p));
    }
    let rels = read_csv(&format!("{dir}/rels.csv"));
    for r in &rels {
        let mut p = BTreeMap::new();
        p.insert("weight".to_string(), Value::Int(r[2]));
        if let (Some(&a), Some(&b)) = (ids.get(&r[0]), ids.get(&r[1])) {
            g.add_rel(a, b, "KNOWS".into(), p);
        }
    }
    println!("load\t{:.1}\t-\t{} nodes, {} relationships", t0.elapsed().as_secs_f64() * 1e3, g.nodes.len(), g.rels.len());
    let params = BTreeMap::new();
    for (name, q) in QUERIES {
        if only.as_ref().is_some_and(|o| o != name) {
            continue;
        }
        let mut times = vec![];
        let mut first = String::new();
        for i in 0..runs.max(2) {
            let t = Instant::now();
            let res = query(&mut g, q, &params, Access::ReadOnly).unwrap_or_else(|e| panic!("{name}: {e}"));
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
}
