//! Regular expressions written in tg's own source: patterns that are constants, or built
//! from constant lexicons, and never from input.

use regex::Regex;

/// Compiles a pattern written in tg's source. Input never reaches it: a pattern that
/// does not compile is a bug in tg, found by the tests that run every pattern, so this is
/// the one place such a bug may end the process (with the pattern in the message).
#[allow(clippy::panic)]
pub fn constant(pattern: &str) -> Regex {
    match Regex::new(pattern) {
        Ok(re) => re,
        Err(e) => panic!("tg's own pattern does not compile: {pattern}: {e}"),
    }
}

/// [`constant`] with a larger DFA budget, for the few big alternations of lexicons.
#[allow(clippy::panic)]
pub fn constant_large(pattern: &str) -> Regex {
    match regex::RegexBuilder::new(pattern).dfa_size_limit(32 << 20).build() {
        Ok(re) => re,
        Err(e) => panic!("tg's own pattern does not compile: {pattern}: {e}"),
    }
}
