//! `tg-store-bench`: loads N cited facts into a fresh store, then reopens it and times a
//! cold point query; then derives with rules over them in full, changes one document,
//! and times the incremental derivation against a full one (docs/BENCHMARKS.md).
//! Usage: `tg-store-bench [N_FACTS] [DIR]`.

use std::path::PathBuf;
use std::time::Instant;

use textgraph::app::reason::derive;
use textgraph::store::{CitedFact, ColumnType, NewDocument, SourceDigest, Store, Tag, Value};

fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map(|a| a.parse()).transpose()?.unwrap_or(10_000_000);
    let dir = args.next().map(PathBuf::from).unwrap_or_else(|| std::env::temp_dir().join("tg-store-bench"));
    let _ = std::fs::remove_dir_all(&dir);
    let per_doc = 1000usize;
    let docs = n.div_ceil(per_doc);
    let t0 = Instant::now();
    {
        let store = Store::open(&dir)?;
        store.declare("transfer", &[ColumnType::Symbol, ColumnType::Symbol, ColumnType::Number])?;
        for d in 0..docs {
            // One line per fact: "acct<a> -> acct<b>: <amount>"
            let mut text = String::new();
            let mut facts = Vec::with_capacity(per_doc);
            for i in 0..per_doc.min(n - d * per_doc) {
                let k = d * per_doc + i;
                let (a, b, amount) = (format!("acct{}", k % 100_003), format!("acct{}", (k * 7919) % 100_003), (k % 50_000) as i32);
                let start = text.len() as u64;
                text.push_str(&format!("{a} -> {b}: {amount}\n"));
                facts.push(CitedFact {
                    rel: "transfer".into(),
                    args: vec![Value::Sym(a), Value::Sym(b), Value::Num(amount)],
                    tag: Tag::Extracted,
                    spans: vec![(start, text.len() as u64 - 1)],
                });
            }
            if d > 0 && d % 500 == 0 {
                let t = t0.elapsed().as_secs_f64();
                eprintln!("{} facts in {t:.1} s ({:.0} facts/s so far)", d * per_doc, (d * per_doc) as f64 / t);
            }
            let id = format!("wires/{d:06}.txt");
            store.put_document(&NewDocument { id: &id, format: "txt", source: SourceDigest::of(text.as_bytes()), text: &text }, &facts)?;
        }
    }
    let write = t0.elapsed();
    let rss = peak_rss_kib();
    let t1 = Instant::now();
    let store = Store::open(&dir)?;
    let open = t1.elapsed();
    let t2 = Instant::now();
    let hits = store.lookup("transfer", &[Value::Sym("acct4242".into())])?;
    let query = t2.elapsed();
    println!("facts\t{n}");
    println!("documents\t{docs}");
    println!("bulk write\t{:.1} s\t({:.0} facts/s)", write.as_secs_f64(), n as f64 / write.as_secs_f64());
    println!("peak RSS during write\t{} MiB", rss / 1024);
    println!("reopen\t{:.1} ms", open.as_secs_f64() * 1000.0);
    println!("cold point query\t{:.2} ms\t({} rows)", query.as_secs_f64() * 1000.0, hits.len());

    // Derivation: full, then incremental after one changed document, then full again.
    let rules = dir.with_extension("dl");
    std::fs::write(&rules, RULES)?;
    let t = Instant::now();
    let r = derive(&store, &rules, true)?;
    println!("derive full\t{:.2} s\t({} derived)", t.elapsed().as_secs_f64(), r.derived);
    let text = "acct1 -> acct2: 49999\nacct2 -> acct4242: 48000\n";
    let cite = |a: &str, b: &str, n: i32, s: u64, e: u64| CitedFact {
        rel: "transfer".into(),
        args: vec![Value::Sym(a.into()), Value::Sym(b.into()), Value::Num(n)],
        tag: Tag::Extracted,
        spans: vec![(s, e)],
    };
    let facts = [cite("acct1", "acct2", 49999, 0, 21), cite("acct2", "acct4242", 48000, 22, 46)];
    store.put_document(&NewDocument { id: "wires/000000.txt", format: "txt", source: SourceDigest::of(text.as_bytes()), text }, &facts)?;
    let t = Instant::now();
    let r = derive(&store, &rules, false)?;
    println!("derive incremental (1 document changed)\t{:.2} s\t({} changes; {} written, {} removed)", t.elapsed().as_secs_f64(), r.changes, r.written, r.removed);
    let t = Instant::now();
    let r = derive(&store, &rules, true)?;
    println!("derive full after the change\t{:.2} s\t({} written, {} removed)", t.elapsed().as_secs_f64(), r.written, r.removed);
    Ok(())
}

/// Non-recursive joins over the transfers: what incremental maintenance handles.
const RULES: &str = r#"
.decl transfer(a:symbol, b:symbol, n:number)
.decl big(a:symbol, b:symbol)
big(a, b) :- transfer(a, b, n), n > 40000.
.decl two_hop(a:symbol, c:symbol)
two_hop(a, c) :- big(a, b), big(b, c).
.decl round_trip(a:symbol)
round_trip(a) :- two_hop(a, b), big(b, a).
"#;
