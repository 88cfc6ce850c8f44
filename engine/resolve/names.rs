//! Name features for entity resolution: normalised cores, blocking keys, discriminators,
//! extensions and similarities of two names.
//!
//! These are the building blocks `stdlib/identity.dl` calls as host functors
//! (`@tg_er_core(N)`, `@tg_jaro_winkler(A, B)`, …); the rules decide, these only measure.
//! Every function is pure and deterministic, so a derivation replays byte for byte.

/// Words that say nothing about which organisation a name means: legal forms in many
/// jurisdictions. "Acme Ltd" and "Acme Limited" are the same name; "Acme Products" is not.
pub const EMPTY_SUFFIXES: &[&str] = &[
    "ab", "ag", "as", "asa", "bhd", "bv", "co", "company", "corp", "corporation", "cv", "gmbh", "inc", "incorporated", "kg", "kk",
    "limited", "llc", "llp", "lp", "ltd", "ltda", "nv", "oy", "oyj", "plc", "pte", "pty", "sa", "sab", "sarl", "sas", "sca", "se",
    "sl", "spa", "srl", "sro", "the",
];

fn is_empty_word(w: &str) -> bool {
    EMPTY_SUFFIXES.binary_search(&w).is_ok()
}

/// The name part of an entity key (`Organization:acme ltd` → `acme ltd`); other text as is.
pub fn name_of_key(key: &str) -> &str {
    match key.split_once(':') {
        Some((ty, rest)) if ty.starts_with(|c: char| c.is_ascii_uppercase()) && ty.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => rest,
        _ => key,
    }
}

/// Lower-cased words of a name: dots and apostrophes dropped inside words ("S.A." → "sa"),
/// `&` read as "and", every other non-alphanumeric character a separator. A parenthesised
/// part is left out (it is the discriminator, see [`discriminator`]).
pub fn words(name: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut depth = 0usize;
    for c in name.chars() {
        match c {
            '(' | '[' => {
                depth += 1;
                flush(&mut cur, &mut out);
            }
            ')' | ']' => {
                depth = depth.saturating_sub(1);
                flush(&mut cur, &mut out);
            }
            _ if depth > 0 => {}
            '.' | '\'' | '’' => {}
            '&' => {
                flush(&mut cur, &mut out);
                out.push("and".into());
            }
            c if c.is_alphanumeric() => cur.extend(c.to_lowercase()),
            _ => flush(&mut cur, &mut out),
        }
    }
    flush(&mut cur, &mut out);
    out
}

fn flush(cur: &mut String, out: &mut Vec<String>) {
    if !cur.is_empty() {
        out.push(std::mem::take(cur));
    }
}

/// The words that identify: [`words`] without the empty legal-form words (a name made only
/// of such words keeps them all, so "The Company" stays itself).
pub fn core_words(name: &str) -> Vec<String> {
    identifying(words(name))
}

/// The words that are not empty legal forms — or all of them when every one is.
fn identifying<S: AsRef<str> + Clone>(w: Vec<S>) -> Vec<S> {
    let kept: Vec<S> = w.iter().filter(|x| !is_empty_word(x.as_ref())).cloned().collect();
    if kept.is_empty() { w } else { kept }
}

/// The normalised core of a name: its identifying words joined by spaces.
/// "ACME Trading Ltd." and "Acme Trading Limited" both give "acme trading".
pub fn core(name: &str) -> String {
    core_words(name).join(" ")
}

/// The core's words sorted: "Doe, John" and "John Doe" share it. Empty for one word.
pub fn sorted_core(name: &str) -> String {
    let mut w = core_words(name);
    if w.len() < 2 {
        return String::new();
    }
    w.sort();
    w.join(" ")
}

/// The acronym of a name of three or more identifying words ("International Business
/// Machines Corp" → "ibm"), or a one-word name of 3–6 letters as itself; else empty.
pub fn acronym(name: &str) -> String {
    let w: Vec<String> = core_words(name).into_iter().filter(|x| x != "and" && x != "of" && x != "for").collect();
    match w.len() {
        1 if (3..=6).contains(&w[0].chars().count()) && w[0].chars().all(|c| c.is_alphabetic()) => w[0].clone(),
        n if n >= 3 => w.iter().filter_map(|x| x.chars().next()).collect(),
        _ => String::new(),
    }
}

/// A coarse key for names that differ by typos: the first three letters of the first and
/// of the last identifying word ("jonathan smyth" → "jon smy").
pub fn prefix_key(name: &str) -> String {
    let w = core_words(name);
    let (Some(first), Some(last)) = (w.first(), w.last()) else { return String::new() };
    let p = |s: &str| s.chars().take(3).collect::<String>();
    format!("{} {}", p(first), p(last))
}

/// The explicit discriminator of a name: what its parentheses hold ("Acme Ltd (UK)" → "uk"),
/// lower-cased, words joined by spaces; empty when there is none.
pub fn discriminator(name: &str) -> String {
    let mut parts = vec![];
    let mut depth = 0usize;
    let mut cur = String::new();
    for c in name.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    let w = words(&cur);
                    if !w.is_empty() {
                        parts.push(w.join(" "));
                    }
                    cur.clear();
                }
            }
            _ if depth > 0 => cur.push(c),
            _ => {}
        }
    }
    parts.join(" ")
}

/// When one name's identifying words are the other's plus more ("Acme" vs "Acme Products"),
/// the first extra word; else empty. Empty legal-form words never count.
pub fn extension(a: &str, b: &str) -> String {
    // Cores (what the rules pass) are lower-case ASCII words already: read them in place.
    let normalised = |s: &str| s.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b' ');
    if normalised(a) && normalised(b) {
        let kept = |s: &str| -> Vec<String> { identifying(split(s)).into_iter().map(str::to_string).collect() };
        if a.split_whitespace().count() == b.split_whitespace().count() && !a.split_whitespace().chain(b.split_whitespace()).any(is_empty_word) {
            return String::new();
        }
        return extension_of(kept(a), kept(b));
    }
    extension_of(core_words(a), core_words(b))
}

fn extension_of(wa: Vec<String>, wb: Vec<String>) -> String {
    let (short, long) = if wa.len() <= wb.len() { (wa, wb) } else { (wb, wa) };
    if short.len() == long.len() || short.is_empty() {
        return String::new();
    }
    if short.iter().all(|w| long.contains(w)) {
        return long.iter().find(|w| !short.contains(w)).cloned().unwrap_or_default();
    }
    String::new()
}

/// Jaro-Winkler similarity of two normalised names (cores, see [`core`]) as given, in
/// thousandths (0–1000).
pub fn jaro_winkler(a: &str, b: &str) -> i32 {
    (strsim::jaro_winkler(a, b) * 1000.0).round() as i32
}

/// How many single-character edits (insertions, deletions, substitutions, swaps of
/// neighbours) separate two attribute values once case and everything but letters and
/// digits are dropped: "1969-07-12" and "19690721" are 1 apart, "1969" and "1970" 2.
pub fn value_distance(a: &str, b: &str) -> i32 {
    strsim::osa_distance(&letters_and_digits(a), &letters_and_digits(b)).min(i32::MAX as usize) as i32
}

/// A value's letters and digits, lower-cased: what attribute comparisons compare.
fn letters_and_digits(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// Whether two values of one attribute could describe the same thing (the opposite of
/// "both records state it differently"). A value of one word or a number (a date, an id, a
/// year) must be equal up to case and punctuation, or one single-character slip when it is
/// at least 6 characters long. A value of several words (an address, an author list)
/// agrees when the numbers in one are all in the other and more than half the words of the
/// shorter are in the longer: word order, middle initials and abbreviations of a few words
/// do not make two author lists or addresses differ, another street number or other people do.
pub fn values_agree(a: &str, b: &str) -> bool {
    let (na, nb) = (letters_and_digits(a), letters_and_digits(b));
    if na == nb {
        return true;
    }
    let (wa, wb) = (value_words(a), value_words(b));
    if wa.words.len() < 2 || wb.words.len() < 2 {
        return na.chars().count().min(nb.chars().count()) >= 6 && strsim::osa_distance(&na, &nb) <= 1;
    }
    let subset = |x: &[String], y: &[String]| x.iter().all(|n| y.binary_search(n).is_ok());
    if !subset(&wa.numbers, &wb.numbers) && !subset(&wb.numbers, &wa.numbers) {
        return false;
    }
    let (short, long) = if wa.words.len() <= wb.words.len() { (&wa.words, &wb.words) } else { (&wb.words, &wa.words) };
    let shared = short.iter().filter(|w| long.binary_search(w).is_ok()).count();
    shared * 2 > short.len()
}

/// The distinct words (two letters or more) and numbers of an attribute value, each sorted.
struct ValueWords {
    words: Vec<String>,
    numbers: Vec<String>,
}

fn value_words(s: &str) -> ValueWords {
    let (mut words, mut numbers) = (Vec::new(), Vec::new());
    for t in s.split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()) {
        let t = t.to_lowercase();
        if t.chars().all(|c| c.is_numeric()) {
            numbers.push(t);
        } else if t.chars().count() >= 2 {
            words.push(t);
        }
    }
    for v in [&mut words, &mut numbers] {
        v.sort();
        v.dedup();
    }
    ValueWords { words, numbers }
}

fn split(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

/// Jaccard overlap of the word sets of two cores, in thousandths (0–1000).
pub fn token_overlap(a: &str, b: &str) -> i32 {
    let (mut wa, mut wb) = (split(a), split(b));
    wa.sort();
    wa.dedup();
    wb.sort();
    wb.dedup();
    let inter = wa.iter().filter(|w| wb.binary_search(w).is_ok()).count();
    let union = wa.len() + wb.len() - inter;
    if union == 0 { 0 } else { ((inter * 1000) as f64 / union as f64).round() as i32 }
}

/// How alike two cores are when they may differ by typos, in thousandths: the least
/// Jaro-Winkler similarity over aligned words (same word count required, words compared
/// in order or both sorted, whichever is better); 0 when counts differ.
pub fn word_similarity(a: &str, b: &str) -> i32 {
    let (wa, wb) = (split(a), split(b));
    if wa.len() != wb.len() || wa.is_empty() {
        return 0;
    }
    let least = |x: &[&str], y: &[&str]| {
        x.iter().zip(y).map(|(p, q)| (strsim::jaro_winkler(p, q) * 1000.0).round() as i32).min().unwrap_or(0)
    };
    let in_order = least(&wa, &wb);
    let (mut sa, mut sb) = (wa.clone(), wb.clone());
    sa.sort();
    sb.sort();
    in_order.max(least(&sa, &sb))
}

/// An ISO 8601 date (`2024-03-04`, `2024-03`, `2024`) as a number that orders like the date
/// (20240304, 20240300, 20240000); 0 when it is not such a date.
pub fn date_number(iso: &str) -> i32 {
    let parts: Vec<&str> = iso.split('-').collect();
    let num = |s: &str, len: usize| (s.len() == len && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<i32>().ok()).flatten();
    let (Some(y), m, d) = (parts.first().and_then(|s| num(s, 4)), parts.get(1).map(|s| num(s, 2)), parts.get(2).map(|s| num(s, 2)))
    else {
        return 0;
    };
    let m = match m {
        None => 0,
        Some(Some(m)) if (1..=12).contains(&m) => m,
        Some(_) => return 0,
    };
    let d = match d {
        None => 0,
        Some(Some(d)) if (1..=31).contains(&d) => d,
        Some(_) => return 0,
    };
    if parts.len() > 3 {
        return 0;
    }
    y * 10000 + m * 100 + d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_list_is_sorted() {
        assert!(EMPTY_SUFFIXES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn cores() {
        assert_eq!(core("ACME Trading Ltd."), "acme trading");
        assert_eq!(core("Acme Trading Limited"), "acme trading");
        assert_eq!(core("Beta Holdings S.A."), "beta holdings");
        assert_eq!(core("The Company"), "the company");
        assert_eq!(core("Acme Ltd (UK)"), "acme");
        assert_eq!(core("Smith & Sons"), "smith and sons");
        assert_eq!(name_of_key("Organization:acme ltd"), "acme ltd");
        assert_eq!(name_of_key("a: b"), "a: b");
    }

    #[test]
    fn keys() {
        assert_eq!(sorted_core("Doe, John"), "doe john");
        assert_eq!(sorted_core("John Doe"), "doe john");
        assert_eq!(acronym("International Business Machines Corp"), "ibm");
        assert_eq!(acronym("IBM"), "ibm");
        assert_eq!(acronym("Acme Trading"), "");
        assert_eq!(prefix_key("Jonathan Smyth"), "jon smy");
        assert_eq!(discriminator("Acme Ltd (UK)"), "uk");
        assert_eq!(discriminator("Acme Ltd"), "");
        assert_eq!(value_distance("1969-07-12", "19690721"), 1);
        assert_eq!(value_distance("1969", "1970"), 2);
        assert_eq!(value_distance("AB-12", "ab12"), 0);
    }

    #[test]
    fn attribute_values_agree_or_differ() {
        // One word or number: equal, or a single slip in a long value.
        assert!(values_agree("1969-07-12", "19690721"));
        assert!(!values_agree("2001", "2002"));
        assert!(!values_agree("1969-07-12", "1970-01-01"));
        assert!(values_agree("AB-12", "ab12"));
        // Several words: order, initials and spelled-out middle names do not matter...
        assert!(values_agree(
            "Christian S. Jensen, Richard T. Snodgrass, Giedrius Slivinskas",
            "Giedrius Slivinskas, Christian S. Jensen, Richard Thomas Snodgrass"
        ));
        assert!(values_agree("12 Main Street, London", "12 Main St, London"));
        // ...other people, or another number, do.
        assert!(!values_agree("Kenneth A. Ross, Serge Abiteboul", "Kenneth A. Ross, Moshe Vardi"));
        assert!(!values_agree("12 Main Street, London", "14 Main Street, London"));
        assert!(!values_agree("Richard T. Snodgrass", "Serge Abiteboul"));
    }

    #[test]
    fn extensions_and_similarity() {
        assert_eq!(extension("Acme", "Acme Products"), "products");
        assert_eq!(extension("Acme Ltd", "Acme Limited"), "");
        assert_eq!(extension("Acme Products Ltd", "Acme"), "products");
        assert_eq!(extension("Acme Products", "Beta Products Ltd"), "");
        assert_eq!(jaro_winkler(&core("Acme Ltd"), &core("ACME Limited")), 1000);
        assert_eq!(token_overlap(&core("Acme Trading Ltd"), &core("Acme Holdings")), 333);
        assert!(word_similarity("lachlan berry", "lachlan berrt") >= 900);
        assert_eq!(word_similarity("lachlan berry", "berry lachlan"), 1000);
        assert_eq!(word_similarity("a b", "a"), 0);
    }

    #[test]
    fn dates() {
        assert_eq!(date_number("2024-03-04"), 20240304);
        assert_eq!(date_number("2024-03"), 20240300);
        assert_eq!(date_number("2024"), 20240000);
        assert_eq!(date_number("2024-13-01"), 0);
        assert_eq!(date_number("soon"), 0);
        assert_eq!(date_number("2024-03-04-1"), 0);
    }
}
