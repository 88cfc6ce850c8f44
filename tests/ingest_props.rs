//! Properties of ingest on arbitrary input: no extractor panics on any bytes under any
//! extension, and every fact it yields cites a span on character boundaries inside the
//! canonical text (what the store demands).

use proptest::prelude::*;
use textgraph::ingest::{facts, formats};

const NAMES: [&str; 21] = [
    "a.jsonl",
    "a.txt",
    "a.md",
    "a.log",
    "a.html",
    "a.csv",
    "a.tsv",
    "a.json",
    "a.yaml",
    "a.toml",
    "a.pdf",
    "a.docx",
    "a.odt",
    "a.epub",
    "a.rtf",
    "a.eml",
    "a.mbox",
    "a.xyz",
    "a",
    "chat.txt",
    "slack.json",
];

fn check(name: &str, bytes: &[u8]) {
    if let Ok(x) = formats::extract(name, bytes) {
        for f in facts::facts(name, &x, &[]) {
            for &(a, b) in &f.spans {
                let ok = a <= b && (b as usize) <= x.text.len() && x.text.is_char_boundary(a as usize) && x.text.is_char_boundary(b as usize);
                assert!(ok, "{name}: {} cites {a}-{b} of {} bytes", f.rel, x.text.len());
            }
        }
    }
}

/// Text-like input: markup characters, multi-byte letters, punctuation that the
/// detectors look for, and line breaks.
fn texty() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("<p>".to_string()),
            Just("</div>".to_string()),
            Just("<a href=\"x\">".to_string()),
            Just("\n\n".to_string()),
            Just("\n".to_string()),
            Just("# ".to_string()),
            Just("\"Term\" means ".to_string()),
            Just("(the \"Co\")".to_string()),
            Just("Section 4.2".to_string()),
            Just(". ".to_string()),
            Just("\u{a0}".to_string()),
            Just("é".to_string()),
            Just("東京".to_string()),
            Just("[2024-03-01 10:00] Ann: hi".to_string()),
            Just(",".to_string()),
            Just("\"".to_string()),
            Just("{\\rtf1 ".to_string()),
            Just("\\par ".to_string()),
            Just("{\"a\": [1, \"b\"]}".to_string()),
            Just("From: a@b.c\n".to_string()),
            Just("MUST ".to_string()),
            Just("Because ".to_string()),
            Just("- item".to_string()),
            Just("| a | b |".to_string()),
            "[a-zA-Z0-9 ]{0,12}",
        ],
        0..60,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400), k in 0usize..NAMES.len()) {
        check(NAMES[k], &bytes);
    }

    #[test]
    fn text_like_input_yields_valid_spans(s in texty(), k in 0usize..NAMES.len()) {
        check(NAMES[k], s.as_bytes());
    }
}

/// Inputs built to hit quadratic paths (unclosed tag quotes, thousands of links and
/// headings, a long mbox, one 4 MB line, deep JSON) finish in linear-ish time.
#[test]
fn adversarial_inputs_stay_fast() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("unclosed.html", "<a href=\"x <b>text</b> ".repeat(40_000).into_bytes()),
        ("deep.html", format!("{}x{}", "<div>".repeat(200_000), "</div>".repeat(200_000)).into_bytes()),
        ("links.md", "[a](http://x.example/a) http://y.example/b\n".repeat(40_000).into_bytes()),
        ("headings.md", (0..40_000).map(|i| format!("{} H{i}\n\ntext\n\n", "#".repeat(6 - i % 6))).collect::<String>().into_bytes()),
        ("box.mbox", "From a@b Fri Mar  1 08:55:00 2024\nFrom: a@b.c\nSubject: s\n\nbody\n\n".repeat(5_000).into_bytes()),
        ("line.txt", "word ".repeat(800_000).into_bytes()),
        ("deep.json", format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000)).into_bytes()),
        ("lines.jsonl", (0..20_000).map(|i| format!("{{\"id\": {i}, \"name\": \"n{i}\"}}\n")).collect::<String>().into_bytes()),
        ("wide.yaml", (0..20_000).map(|i| format!("k{i}: v{i}\n")).collect::<String>().into_bytes()),
        ("quotes.txt", "\"abc ".repeat(300_000).into_bytes()),
        // Regression: an unterminated tag ending in a multi-byte character before the next '<'.
        ("multibyte.html", "<a é<b>x</b> <p ü<i>".repeat(1_000).into_bytes()),
    ];
    for (name, bytes) in cases {
        let started = std::time::Instant::now();
        check(name, &bytes);
        let t = started.elapsed();
        assert!(t.as_secs() < 10, "{name}: {t:?}");
    }
}

/// Every fixture (DOCX, PDF, ODT, EPUB, e-mail, …) with a few bytes overwritten.
fn fixtures() -> Vec<(String, Vec<u8>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out = vec![];
    for dir in ["case-files", "case-files/emails", "case-files/chat", "case-files/logs", "formats"] {
        for e in std::fs::read_dir(root.join(dir)).into_iter().flatten().flatten() {
            if e.path().is_file() {
                out.push((e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn mutated_fixtures_never_panic(k in 0usize..1000, flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8), cut in proptest::option::of(any::<usize>())) {
        let all = fixtures();
        let (name, mut bytes) = all[k % all.len()].clone();
        for (pos, b) in flips {
            if !bytes.is_empty() {
                let n = bytes.len();
                bytes[pos % n] = b;
            }
        }
        if let Some(c) = cut {
            let n = bytes.len().max(1);
            bytes.truncate(c % n);
        }
        check(&name, &bytes);
    }
}
