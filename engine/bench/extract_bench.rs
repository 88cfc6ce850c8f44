//! `tg-extract-bench`: extraction throughput (`extract::extract`), single-threaded, in memory.
//!
//! `tg-extract-bench [--repeat N] PATH…` reads every file under the paths as documents:
//! a `.jsonl` file gives one document per line (its `body`, else `text`, else `content`
//! string field), any other file is one document of its text. Sentences are split as
//! `tg build` splits plain text, then each document is extracted N times (default 3);
//! the best run's MB/s is printed per path and overall, with mention and claim counts —
//! by the wall clock and by the thread's own CPU time (Linux: `/proc/thread-self/schedstat`),
//! which other processes sharing the cores do not inflate.
//! `--dump FILE` writes every mention and claim (of the first run) to FILE, one a line, to
//! compare two builds; then, for review, each claim with its quote (`review` lines) and each
//! sentence's template with its mentions (`template` lines).

use std::path::Path;
use std::time::{Duration, Instant};

use textgraph::extract::vocab::Vocabulary;
use textgraph::extract::{Input, extract};
use textgraph::text::chunk::sentences;

fn documents(p: &Path) -> Vec<String> {
    let text = String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    if p.extension().is_some_and(|e| e == "jsonl") {
        text.lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| ["body", "text", "content"].iter().find_map(|k| v[*k].as_str().map(str::to_string)))
            .filter(|s| !s.trim().is_empty())
            .collect()
    } else if p.extension().is_some_and(|e| e == "md" || e == "json") {
        vec![] // dataset descriptions and metadata, not case text
    } else {
        vec![text]
    }
}

/// This thread's CPU time so far (Linux), if the system says.
fn cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok().map(Duration::from_nanos)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 3usize;
    if let Some(i) = args.iter().position(|a| a == "--repeat") {
        repeat = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(3).max(1);
        args.drain(i..(i + 2).min(args.len()));
    }
    // `--dump FILE`: every mention and claim of the first run, one line each, to compare
    // two builds' outputs.
    let mut dump: Option<std::io::BufWriter<std::fs::File>> = None;
    if let Some(i) = args.iter().position(|a| a == "--dump") {
        let f = args.get(i + 1).and_then(|p| std::fs::File::create(p).ok());
        if f.is_none() {
            eprintln!("--dump needs a file it can create");
            std::process::exit(2);
        }
        dump = f.map(std::io::BufWriter::new);
        args.drain(i..(i + 2).min(args.len()));
    }
    if args.is_empty() {
        eprintln!("usage: tg-extract-bench [--repeat N] PATH…");
        std::process::exit(2);
    }
    let vocab = Vocabulary::builtin();
    let (mut all_bytes, mut all_time, mut all_cpu) = (0usize, Duration::ZERO, Duration::ZERO);
    for root in &args {
        let mut fs = vec![];
        fs.extend(textgraph::ingest::walk::files_under(Path::new(root)));
        let docs: Vec<String> = fs.iter().flat_map(|f| documents(f)).collect();
        let bytes: usize = docs.iter().map(String::len).sum();
        let mut best = Duration::MAX;
        let mut best_cpu = Duration::MAX;
        let (mut mentions, mut claims) = (0, 0);
        for run in 0..repeat {
            let t = Instant::now();
            let c0 = cpu_time();
            let (mut m, mut c) = (0, 0);
            for (i, d) in docs.iter().enumerate() {
                let sents = sentences(d, 0, d.len());
                let id = i.to_string();
                let x = extract(&Input { id: &id, text: d, sentences: &sents, fields: &[], people: &[], date: None }, vocab);
                if run == 0
                    && let Some(w) = dump.as_mut()
                {
                    use std::io::Write;
                    for (mention, ante) in &x.mentions {
                        let _ = writeln!(w, "{root}\t{i}\tmention\t{mention:?}\t{ante:?}");
                    }
                    for c in &x.claims {
                        let _ = writeln!(w, "{root}\t{i}\tclaim\t{c:?}");
                    }
                    // For review: each claim with its quote, and each sentence's template.
                    for c in &x.claims {
                        let q = d.get(c.quote.0..c.quote.1).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
                        let _ = writeln!(
                            w,
                            "{root}\t{i}\treview\t{}({}, {}) {} {:?} [{}] | {q}",
                            c.rel,
                            c.subject.0,
                            c.object.0,
                            c.modality.name(),
                            c.attrs.iter().map(|a| format!("{}={}", a.0, a.1)).collect::<Vec<_>>(),
                            c.asserter
                        );
                    }
                    for s in &sents {
                        let mut ms: Vec<_> = x.mentions.iter().filter(|(m, _)| m.span.0 >= s.0 && m.span.1 <= s.1).map(|(m, _)| m.clone()).collect();
                        // (In text order, as the extractor's own templates are: the alias
                        // statements' mentions come after the sentence's others.)
                        ms.sort_by_key(|m| m.span);
                        if ms.len() >= 2 {
                            let t = textgraph::extract::relations::template(&d[s.0..s.1], s.0, &ms);
                            let names: Vec<String> = ms.iter().enumerate().map(|(k, m)| format!("{k}={}", m.surface)).collect();
                            let _ = writeln!(w, "{root}\t{i}\ttemplate\t{}\t{}", t.split_whitespace().collect::<Vec<_>>().join(" "), names.join(" ; "));
                        }
                    }
                }
                m += x.mentions.len();
                c += x.claims.len();
            }
            best = best.min(t.elapsed());
            if let (Some(a), Some(b)) = (c0, cpu_time()) {
                best_cpu = best_cpu.min(b.saturating_sub(a));
            }
            (mentions, claims) = (m, c);
        }
        let secs = best.as_secs_f64();
        let cpu = if best_cpu == Duration::MAX { best } else { best_cpu };
        println!(
            "{root}: {} documents, {:.2} MB, {mentions} mentions, {claims} claims, {:.3} s, {:.1} MB/s; {:.1} MB per CPU-second",
            docs.len(),
            bytes as f64 / 1e6,
            secs,
            bytes as f64 / 1e6 / secs.max(1e-9),
            bytes as f64 / 1e6 / cpu.as_secs_f64().max(1e-9)
        );
        all_bytes += bytes;
        all_time += best;
        all_cpu += cpu;
    }
    let secs = all_time.as_secs_f64();
    println!(
        "total: {:.2} MB in {:.3} s, {:.1} MB/s (one thread); {:.1} MB per CPU-second",
        all_bytes as f64 / 1e6,
        secs,
        all_bytes as f64 / 1e6 / secs.max(1e-9),
        all_bytes as f64 / 1e6 / all_cpu.as_secs_f64().max(1e-9)
    );
}
