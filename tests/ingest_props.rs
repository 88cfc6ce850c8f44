//! Properties of ingest on arbitrary input: no extractor panics on any bytes under any
//! extension, and every fact it yields cites a span on character boundaries inside the
//! canonical text (what the store demands).

use proptest::prelude::*;
use textgraph::ingest::{facts, formats};

const NAMES: [&str; 20] = [
    "a.txt", "a.md", "a.log", "a.html", "a.csv", "a.tsv", "a.json", "a.yaml", "a.toml", "a.pdf", "a.docx", "a.odt", "a.epub", "a.rtf", "a.eml", "a.mbox",
    "a.xyz", "a", "chat.txt", "slack.json",
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
            Just("<p>".to_string()), Just("</div>".to_string()), Just("<a href=\"x\">".to_string()), Just("\n\n".to_string()), Just("\n".to_string()),
            Just("# ".to_string()), Just("\"Term\" means ".to_string()), Just("(the \"Co\")".to_string()), Just("Section 4.2".to_string()),
            Just(". ".to_string()), Just("\u{a0}".to_string()), Just("é".to_string()), Just("東京".to_string()), Just("[2024-03-01 10:00] Ann: hi".to_string()),
            Just(",".to_string()), Just("\"".to_string()), Just("{\\rtf1 ".to_string()), Just("\\par ".to_string()), Just("{\"a\": [1, \"b\"]}".to_string()),
            Just("From: a@b.c\n".to_string()), Just("MUST ".to_string()), Just("Because ".to_string()), Just("- item".to_string()), Just("| a | b |".to_string()),
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
