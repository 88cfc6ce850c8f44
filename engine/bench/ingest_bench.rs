//! `tg-ingest-bench`: ingest throughput per format, single-threaded, in memory.
//!
//! `tg-ingest-bench [--generated MB] [PATH…]` extracts every file under the paths (and,
//! with `--generated`, synthetic text and Markdown of that many MB), then derives its
//! STRUCTURAL facts, and prints MB/s per format for extraction alone and for extraction
//! plus facts (block tree, chunks, structure detectors). The store is not involved:
//! `tg build` adds the writes (see docs/BENCHMARKS.md).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use textgraph::ingest::{facts, formats};

#[derive(Default)]
struct Row {
    files: usize,
    skipped: usize,
    bytes: u64,
    extract: Duration,
    total: Duration,
    facts: usize,
}

/// Deterministic synthetic prose: numbered sections, paragraphs, sentences with amounts.
fn generated(mb: usize, markdown: bool) -> String {
    let words =
        ["Acme", "wired", "funds", "to", "Beta", "Holdings", "through", "a", "correspondent", "account", "in", "Nauru", "after", "the", "board", "approved", "consulting", "fee"];
    let mut s = String::with_capacity(mb * 1_000_000 + 1000);
    let mut n = 0usize;
    let mut sec = 0;
    while s.len() < mb * 1_000_000 {
        if n.is_multiple_of(40) {
            sec += 1;
            if markdown { s.push_str(&format!("## {sec}. Section {sec}\n\n")) } else { s.push_str(&format!("{sec}. Section {sec}\n\n")) }
        }
        for k in 0..5 {
            for w in 0..14 {
                s.push_str(words[(n * 7 + k * 3 + w) % words.len()]);
                s.push(' ');
            }
            s.push_str(&format!("USD {}.{:02} (see Exhibit {}). ", (n * 131) % 1_000_000, n % 100, (b'A' + (n % 26) as u8) as char));
        }
        s.push_str("\n\n");
        n += 1;
    }
    s
}

/// Deterministic gateway-style log lines.
fn generated_log(mb: usize) -> String {
    let mut s = String::with_capacity(mb * 1_000_000 + 200);
    let mut n = 0usize;
    while s.len() < mb * 1_000_000 {
        let (h, m, sec) = (n / 3600 % 24, n / 60 % 60, n % 60);
        match n % 3 {
            0 => s.push_str(&format!(
                "2024-03-01T{h:02}:{m:02}:{sec:02}Z INFO wire WT-{n} submitted amount={} currency=USD beneficiary=\"Beta Holdings SA\" ip=10.0.{}.{}\n",
                n * 37 % 500_000,
                n % 256,
                n * 7 % 256
            )),
            1 => s.push_str(&format!("2024-03-01T{h:02}:{m:02}:{sec:02}Z INFO wire WT-{n} accepted by SWIFT in {} ms\n", 2000 + n % 1500)),
            _ => s.push_str(&format!("2024-03-01T{h:02}:{m:02}:{sec:02}Z WARN review threshold check skipped for wire WT-{n} (amount={} below 500000)\n", n * 31 % 500_000)),
        }
        n += 1;
    }
    s
}

/// A deterministic wire-log table.
fn generated_csv(mb: usize) -> String {
    let mut s = String::from("date,reference,originator,beneficiary,country,amount_usd,channel\n");
    let mut n = 0usize;
    while s.len() < mb * 1_000_000 {
        s.push_str(&format!("2024-03-{:02},WT-{n},Acme Trading Ltd,\"Beta Holdings, SA\",NR,{},SWIFT\n", n % 28 + 1, n * 37 % 500_000));
        n += 1;
    }
    s
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut gen_mb = 0usize;
    if let Some(i) = args.iter().position(|a| a == "--generated") {
        gen_mb = args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(20);
        args.drain(i..(i + 2).min(args.len()));
    }
    let mut inputs: Vec<(String, Vec<u8>)> = vec![];
    if gen_mb > 0 {
        inputs.push(("generated.txt".into(), generated(gen_mb, false).into_bytes()));
        inputs.push(("generated.md".into(), generated(gen_mb, true).into_bytes()));
        inputs.push(("generated.log".into(), generated_log(gen_mb).into_bytes()));
        inputs.push(("generated.csv".into(), generated_csv(gen_mb).into_bytes()));
    }
    let mut paths = vec![];
    for a in &args {
        paths.extend(textgraph::ingest::walk::files_under(Path::new(a)));
    }
    for p in paths {
        if let Ok(b) = std::fs::read(&p) {
            inputs.push((p.to_string_lossy().into_owned(), b));
        }
    }
    if std::env::var_os("TG_BENCH_STAGES").is_some() {
        stages(&inputs);
    }
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    for (name, bytes) in &inputs {
        let t0 = Instant::now();
        let r = textgraph::ingest::catch_quietly(|| formats::extract(name, bytes));
        let t1 = Instant::now();
        let (fmt, nfacts, ok) = match r {
            Ok(Ok(x)) => {
                let f = facts::facts(name, &x, &[]);
                let label = if name.starts_with("generated.") { format!("{} (generated)", x.format) } else { x.format.to_string() };
                (label, f.len(), true)
            }
            _ => (format!("{} (skipped)", formats::extension(name)), 0, false),
        };
        let t2 = Instant::now();
        let row = rows.entry(fmt).or_default();
        row.files += 1;
        row.skipped += usize::from(!ok);
        row.bytes += bytes.len() as u64;
        row.extract += t1 - t0;
        row.total += t2 - t0;
        row.facts += nfacts;
    }
    println!("| format | files | MB | extract MB/s | extract + facts MB/s | facts |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (fmt, r) in &rows {
        let mb = r.bytes as f64 / 1e6;
        let rate = |d: Duration| if d.as_secs_f64() > 0.0 { mb / d.as_secs_f64() } else { f64::INFINITY };
        println!("| {fmt} | {} | {mb:.2} | {:.1} | {:.1} | {} |", r.files, rate(r.extract), rate(r.total), r.facts);
    }
}

/// With `TG_BENCH_STAGES` set: seconds spent per stage of fact derivation over all inputs.
fn stages(inputs: &[(String, Vec<u8>)]) {
    use textgraph::ingest::structure;
    use textgraph::text::chunk;
    let (mut sent, mut chunks, mut detect, mut all) = (Duration::ZERO, Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for (name, bytes) in inputs {
        let Ok(x) = formats::extract(name, bytes) else { continue };
        let t0 = Instant::now();
        let s = chunk::region_sentences(&x.text, &x.blocks);
        let t1 = Instant::now();
        let c = chunk::chunks(&x.blocks, &s);
        let t2 = Instant::now();
        let d = structure::detect(&x.text, &x.blocks, &s);
        let t3 = Instant::now();
        let f = facts::facts(name, &x, &[]);
        let t4 = Instant::now();
        sent += t1 - t0;
        chunks += t2 - t1;
        detect += t3 - t2;
        all += t4 - t3;
        std::hint::black_box((c.len(), d.len(), f.len()));
    }
    eprintln!("stages: sentences {sent:?}, chunks {chunks:?}, detectors {detect:?}, all facts {all:?}");
}
