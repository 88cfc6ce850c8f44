//! Extraction never panics and every fact it emits cites spans on character boundaries
//! of the text, whatever the text: generated from pieces that trigger every finder,
//! mixed with multi-byte characters at arbitrary places.

use proptest::prelude::*;
use textgraph::extract::vocab::Vocabulary;
use textgraph::extract::{Input, extract, facts};

const PIECES: &[&str] = &[
    "Acme Trading Ltd",
    " (\"Acme\")",
    "(the \"Fund\")",
    " wired ",
    " USD 1,940,000",
    " €2.5m",
    " to ",
    "Beta Holdings SA",
    ", a subsidiary of ",
    "Gamma Holdings's director, ",
    "Mr. John Doe",
    " said ",
    "According to ",
    " may have ",
    " did not ",
    "It is unclear whether ",
    "?",
    ". ",
    "\n\n",
    "\n",
    "\t",
    "•",
    "’",
    "東京",
    "é",
    "Date: 4 March 2024\n",
    "yesterday",
    " 3 days later",
    "GB82 WEST 1234 5698 7654 32",
    "SWIFT: WESTGB2L",
    "account no. 12345678",
    "0x52908400098527886E0F7030069857D2E4169EE7",
    "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    "WT-1004",
    "Case No. 1:23-cv-00456",
    "dana@example.com",
    "+44 20 7946 0958",
    " It wired ",
    " the company ",
    " he ",
    " registered in Nauru",
    " restated ",
    " should read ",
    "Bank of ",
    "Cyprus",
    " holds account ",
    " for ",
    " is wholly owned by ",
    " Inc.",
    " Corp",
    "\"",
    "(",
    ")",
    ",",
    "31 February 2024",
    "March 2024",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop_oneof![prop::sample::select(PIECES).prop_map(str::to_string), "\\PC{0,6}"], 0..150).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn extraction_never_panics_and_cites_char_boundaries(t in text()) {
        let sentences = textgraph::text::chunk::sentences(&t, 0, t.len());
        let input = Input { id: "doc.txt", text: &t, sentences: &sentences, fields: &[], people: &[], date: Some("2024-03-04".into()) };
        let x = extract(&input, Vocabulary::builtin());
        for f in facts("doc.txt", &x, &[], "") {
            prop_assert!(!f.spans.is_empty(), "{} has no citation", f.rel);
            for (a, b) in f.spans {
                prop_assert!(a <= b && (b as usize) <= t.len() && t.is_char_boundary(a as usize) && t.is_char_boundary(b as usize), "{} cites {}-{} in {:?}", f.rel, a, b, t);
            }
        }
    }
}
