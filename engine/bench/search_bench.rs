//! `tg-search-bench`: retrieval quality and speed of `tg search` (docs/BENCHMARKS.md, "Search").
//!
//! - `tg-search-bench questions DB QUESTIONS.tsv`: recall@1/5/10 and MRR (first relevant
//!   hit within 100) of BM25, PPR and hybrid on a question set (`query \t doc \t passage`).
//!   A hit is relevant when it is in the gold document and its text contains the gold
//!   passage or lies inside it (whitespace collapsed).
//! - `tg-search-bench fincen DATA DB`: the same on FinCEN advisories (`DATA` is
//!   `../shared/data/fincrime_fincen_advisories`): one question per supersession pair
//!   ("advisory on SUBJECT withdrawn or replaced"), gold = the evidence sentence in the
//!   superseding advisory. Builds `DATA/text` into `DB` first.
//! - `tg-search-bench timing DIR CHUNKS`: writes a synthetic corpus of about CHUNKS chunks
//!   under `DIR/corpus` (fixed seed), builds it into `DIR/db`, and times queries.

use std::path::{Path, PathBuf};
use std::time::Instant;

use textgraph::analytics::search::{Hit, Mode, search};
use textgraph::store::Store;

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn relevant(h: &Hit, doc: &str, passage: &str) -> bool {
    let (t, p) = (norm(&h.text), norm(passage));
    h.doc == doc && !t.is_empty() && (t.contains(&p) || p.contains(&t))
}

struct Question {
    query: String,
    doc: String,
    passage: String,
}

fn read_questions(path: &Path) -> Vec<Question> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", path.display())));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut it = l.split('\t');
            Some(Question { query: it.next()?.to_string(), doc: it.next()?.to_string(), passage: it.next()?.to_string() })
        })
        .collect()
}

fn fail(msg: &str) -> ! {
    eprintln!("tg-search-bench: {msg}");
    std::process::exit(2)
}

/// Scores every mode on the questions; prints one line per mode.
fn evaluate(store: &Store, qs: &[Question], label: &str) {
    println!("{label}: {} questions", qs.len());
    println!("mode\trecall@1\trecall@5\trecall@10\tMRR\tms/query");
    for mode in [Mode::Bm25, Mode::Ppr, Mode::Hybrid] {
        let (mut r1, mut r5, mut r10, mut mrr) = (0.0, 0.0, 0.0, 0.0);
        let started = Instant::now();
        for q in qs {
            let hits = match search(store, &q.query, mode, 100) {
                Ok(r) => r.hits,
                Err(_) => vec![],
            };
            if let Some(i) = hits.iter().position(|h| relevant(h, &q.doc, &q.passage)) {
                let rank = i + 1;
                r1 += f64::from(u8::from(rank <= 1));
                r5 += f64::from(u8::from(rank <= 5));
                r10 += f64::from(u8::from(rank <= 10));
                mrr += 1.0 / rank as f64;
            }
        }
        let n = qs.len().max(1) as f64;
        let ms = started.elapsed().as_secs_f64() * 1000.0 / n;
        println!("{:?}\t{:.3}\t{:.3}\t{:.3}\t{:.3}\t{ms:.1}", mode, r1 / n, r5 / n, r10 / n, mrr / n);
    }
}

fn open(db: &Path) -> Store {
    Store::open_existing(db).unwrap_or_else(|e| fail(&e.to_string()))
}

fn build(corpus: &Path, db: &Path) {
    let store = Store::open(db).unwrap_or_else(|e| fail(&e.to_string()));
    let started = Instant::now();
    let r = textgraph::app::build::build_with(&store, corpus, &textgraph::app::build::BuildOptions::default()).unwrap_or_else(|e| fail(&e.to_string()));
    eprintln!("built {} documents ({} facts) in {:.1} s", r.added.len() + r.changed.len() + r.unchanged, r.facts_written, started.elapsed().as_secs_f64());
}

/// One question per supersession pair of the FinCEN data.
fn fincen(data: &Path, db: &Path) {
    if !db.exists() {
        build(&data.join("text"), db);
    }
    let csv = std::fs::read_to_string(data.join("supersession_pairs.csv")).unwrap_or_else(|e| fail(&format!("cannot read supersession_pairs.csv: {e}")));
    let mut qs = vec![];
    for line in csv.lines().skip(1) {
        // superseding_file,superseded_file,relation,subject_of_superseded,"evidence"
        let Some((head, evidence)) = line.split_once(",\"") else { continue };
        let f: Vec<&str> = head.split(',').collect();
        if f.len() < 4 {
            continue;
        }
        let doc = f[0].replace(".pdf", ".txt");
        qs.push(Question { query: format!("advisory on {} withdrawn or replaced", f[3]), doc, passage: evidence.trim_end_matches('"').replace("\"\"", "\"") });
    }
    evaluate(&open(db), &qs, "FinCEN supersession");
}

/// splitmix64, for the synthetic corpus.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A synthetic corpus: Markdown files of 100 sections (one chunk each) of Zipf-distributed
/// pseudo-words, some sentences naming companies that pay each other.
fn synthesize(dir: &Path, chunks: usize) -> PathBuf {
    let corpus = dir.join("corpus");
    std::fs::create_dir_all(&corpus).unwrap_or_else(|e| fail(&e.to_string()));
    let mut st = 22u64;
    let syll = ["ka", "lo", "mi", "ner", "tu", "sa", "vo", "rin", "dex", "pa", "qu", "ilo", "mar", "ten", "gro", "fi"];
    let words: Vec<String> = (0..5000)
        .map(|i| {
            let mut w = String::new();
            let mut x = i as u64 * 7919 + 13;
            for _ in 0..(2 + i % 3) {
                w.push_str(syll[(x % syll.len() as u64) as usize]);
                x /= syll.len() as u64;
                x += 3;
            }
            w
        })
        .collect();
    let companies: Vec<String> = (0..300).map(|i| format!("{} {} Ltd", capital(&words[i * 7 % 5000]), capital(&words[(i * 13 + 5) % 5000]))).collect();
    let files = chunks.div_ceil(100);
    for f in 0..files {
        let mut text = format!("# Report {f}\n\n");
        for s in 0..100 {
            text.push_str(&format!("## Section {s}\n\n"));
            for _ in 0..6 {
                let n = 6 + (next(&mut st) % 8) as usize;
                let mut sentence: Vec<String> = (0..n)
                    .map(|_| {
                        // Zipf-like: the square of a uniform picks low ranks more often.
                        let u = (next(&mut st) % 10_000) as f64 / 10_000.0;
                        words[((u * u) * 4999.0) as usize].clone()
                    })
                    .collect();
                if next(&mut st).is_multiple_of(4) {
                    let a = &companies[(next(&mut st) % 300) as usize];
                    let b = &companies[(next(&mut st) % 300) as usize];
                    sentence = vec![format!("{a} paid {b} USD {},000 on 3 March 2024", 1 + next(&mut st) % 900)];
                }
                let mut s = sentence.join(" ");
                s.push_str(". ");
                text.push_str(&capital(&s));
            }
            text.push_str("\n\n");
        }
        std::fs::write(corpus.join(format!("report-{f:05}.md")), text).unwrap_or_else(|e| fail(&e.to_string()));
    }
    corpus
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn timing(dir: &Path, chunks: usize) {
    let db = dir.join("db");
    if !db.exists() {
        let corpus = synthesize(dir, chunks);
        build(&corpus, &db);
    }
    let store = open(&db);
    let (units, terms) = store.search_totals().unwrap_or_default();
    println!("synthetic corpus: {units} units indexed ({terms} terms)");
    let queries = ["kalo minerta", "sapa quilo", "paid USD", "kaka", "rin", "dexpa tenfi growo", "ilomar", "Kalo Mika Ltd payment"];
    let t = Instant::now();
    let g = textgraph::analytics::graph::EntityGraph::from_store(&store).unwrap_or_else(|e| fail(&e.to_string()));
    println!(
        "entity graph: {} nodes, {} edges, built in {:.0} ms (once per tg search --mode ppr|hybrid, once per GQL view)",
        g.len(),
        g.edges(),
        t.elapsed().as_secs_f64() * 1000.0
    );
    println!("mode\tqueries\tms/query (k=10, graph prebuilt, median of 3 runs)");
    for mode in [Mode::Bm25, Mode::Ppr, Mode::Hybrid] {
        let mut runs = vec![];
        for _ in 0..3 {
            let t = Instant::now();
            for q in queries {
                let _ = textgraph::analytics::search::search_in(&store, &g, q, mode, 10);
            }
            runs.push(t.elapsed().as_secs_f64() * 1000.0 / queries.len() as f64);
        }
        runs.sort_by(f64::total_cmp);
        println!("{mode:?}\t{}\t{:.1}", queries.len(), runs[1]);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["questions", db, file] => evaluate(&open(Path::new(db)), &read_questions(Path::new(file)), file),
        ["fincen", data, db] => fincen(Path::new(data), Path::new(db)),
        ["timing", dir, n] => timing(Path::new(dir), n.parse().unwrap_or_else(|_| fail("CHUNKS must be a number"))),
        _ => fail("usage: tg-search-bench questions DB QUESTIONS.tsv | fincen DATA DB | timing DIR CHUNKS"),
    }
}
