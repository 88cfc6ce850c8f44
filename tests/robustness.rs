//! Arbitrary program text never panics the compiler: it compiles or yields diagnostics.

use proptest::prelude::*;
use textgraph::datalog::driver::compile_str;

const PIECES: &[&str] = &[
    ".decl ", "a", "b", "(", ")", "x", "y", ":", "number", "symbol", ",", ".", ":-", "!", "_", "1", "\"s\"", "[", "]", "count", "sum", "min", "{", "}", "=", "<", "+", "*",
    ".output ", ".input ", ".type ", "<:", "|", ";", "nil", "as", ".comp ", ".init ", "<", ">", "range", "cat", "match", "\n", " ", "/*", "*/", "//", "@f", "$", "0x1f", "1.5",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn compiling_never_panics(parts in proptest::collection::vec(0usize..PIECES.len(), 0..40)) {
        let text: String = parts.iter().map(|i| PIECES[*i]).collect();
        let _ = compile_str("fuzz.dl", &text);
    }

    #[test]
    fn raw_text_never_panics(text in ".{0,200}") {
        let _ = compile_str("fuzz.dl", &text);
    }
}
