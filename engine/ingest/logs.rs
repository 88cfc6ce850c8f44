//! Log templates: a log line with its variable parts masked, deterministically.
//!
//! Masks, applied in this order: timestamps → `<TS>`, UUIDs → `<UUID>`, IPv4
//! addresses (with port) → `<IP>`, e-mail addresses → `<EMAIL>`, quoted strings →
//! `<STR>`, hex numbers (`0x…` or 8+ hex digits) → `<HEX>`, remaining numbers
//! (also inside identifiers such as `user42`) → `<NUM>`. Lines longer than
//! [`MAX_LOG_LINE_BYTES`](super::limits::MAX_LOG_LINE_BYTES) are cut first, so mining
//! stays linear. Lines with the same template are cited together by one fact.

use std::sync::LazyLock;

use regex::Regex;

use super::limits::MAX_LOG_LINE_BYTES;

static MASKS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        (r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?", "<TS>"),
        (r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}", "<TS>"),
        (r"\b\d{1,2}/\d{1,2}/\d{2,4}(?:[ ,]+\d{1,2}:\d{2}(?::\d{2})?)?", "<TS>"),
        (r"\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b", "<TS>"),
        (r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b", "<UUID>"),
        (r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b", "<IP>"),
        (r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b", "<EMAIL>"),
        (r#""[^"]*"|'[^']*'"#, "<STR>"),
        (r"\b0x[0-9a-fA-F]+\b|\b[0-9a-fA-F]*\d[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*\b|\b[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*\d[0-9a-fA-F]*\b", "<HEX>"),
        (r"[-+]?\d+(?:[.,]\d+)*", "<NUM>"),
    ]
    .into_iter()
    .map(|(p, m)| (tg_text::pattern::constant(p), m))
    .collect()
});

/// The template of one log line.
pub fn template(line: &str) -> String {
    let mut end = line.len().min(MAX_LOG_LINE_BYTES);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let mut t = line[..end].trim().to_string();
    for (re, mask) in MASKS.iter() {
        // The <HEX> pattern must not eat masks already placed; masks hold no digits, so it cannot.
        if let std::borrow::Cow::Owned(s) = re.replace_all(&t, *mask) {
            t = s;
        }
    }
    // Runs of masks separated only by spaces or punctuation stay as written: deterministic either way.
    t
}
