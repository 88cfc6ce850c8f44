//! Names whose extent a defined acronym settles: in "Union Transfer and Cargo Corporation
//! ("UTC")" or "Baxter, Banks, & Smith ("BBS")" the recognisers may find only the last words
//! ("Cargo Corporation", "Smith"), but the acronym spells the initials of the whole name.
//! A name right before a parenthesised acronym is widened back over capitalised words and
//! the joints of a firm's name ("and", "&", "of", commas) until their initials spell it —
//! legal-form words at the end may be left out of it ("Burton Financial Management
//! Associates, Inc. ("BFMA")") — and is left as it was when no widening spells it.

use super::entities::{Mention, collapse, is_legal_abbreviation, name_key};
use tg_text::document::Span;

/// The most words a widening may add before the name.
const MAX_ADDED: usize = 6;

/// The mentions of one sentence with names widened to what their defined acronyms spell;
/// mentions the widened name covers are dropped.
pub fn widen(text: &str, sentence: Span, mut ms: Vec<Mention>) -> Vec<Mention> {
    if !text[sentence.0..sentence.1].contains('(') {
        return ms;
    }
    let mut i = 0;
    while i < ms.len() {
        let m = &ms[i];
        if matches!(m.kind, "Organization" | "Person")
            && let Some(acronym) = acronym_after(text, m.span.1, sentence.1)
            && let Some(start) = widened_start(text, sentence.0, m, &acronym)
        {
            let joined = text[start..m.span.0].split_whitespace().any(|w| matches!(w.trim_end_matches(','), "and" | "&" | "&amp;" | "of"));
            let kind = if joined { "Organization" } else { m.kind };
            let surface = collapse(&text[start..m.span.1]);
            let wide = Mention { span: (start, m.span.1), kind, key: format!("{kind}:{}", name_key(&surface)), surface, attrs: vec![] };
            // The mentions inside the widened name are part of it.
            let before = ms[..i].iter().filter(|x| x.span.1 <= start).count();
            ms.retain(|x| x.span.1 <= start || x.span.0 >= wide.span.1);
            ms.insert(before, wide);
            i = before + 1;
            continue;
        }
        i += 1;
    }
    ms
}

/// The acronym in brackets right after `end`: `("UTC")`, `(“UTC”)` or `(UTC)`, two to six
/// capital letters.
fn acronym_after(text: &str, end: usize, limit: usize) -> Option<String> {
    let rest = text.get(end..limit)?;
    let rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    let inner = rest.strip_prefix('(')?;
    let close = inner.find(')')?;
    let a = inner[..close].trim_matches(|c: char| matches!(c, '"' | '“' | '”' | ' '));
    ((2..=6).contains(&a.len()) && a.bytes().all(|b| b.is_ascii_uppercase())).then(|| a.to_string())
}

/// Where the name before `m` starts when widened until its capitalised words' initials spell
/// `acronym`; `None` when the name already spells it, or no widening does.
fn widened_start(text: &str, floor: usize, m: &Mention, acronym: &str) -> Option<usize> {
    let own = capital_words(&text[m.span.0..m.span.1]);
    if spells(&own, acronym) {
        return None;
    }
    // The words before the name, nearest first, each with where it starts.
    let mut words: Vec<(usize, &str)> = vec![];
    let mut at = m.span.0;
    let before = &text[floor..m.span.0];
    for w in before.split_whitespace().rev() {
        let s = floor + before[..at - floor].rfind(w)?;
        at = s;
        words.push((s, w));
        if words.len() > MAX_ADDED * 2 {
            break;
        }
    }
    let mut names: Vec<&str> = own.clone();
    let mut added = 0;
    for (s, w) in words {
        let bare = w.trim_end_matches(',');
        if matches!(bare, "and" | "&" | "&amp;" | "of") {
            continue;
        }
        if !bare.starts_with(|c: char| c.is_uppercase()) || bare.contains(['(', ')', '"', '“', '”']) || added == MAX_ADDED {
            return None;
        }
        names.insert(0, bare);
        added += 1;
        if spells(&names, acronym) {
            return Some(s);
        }
    }
    None
}

/// Whether the initials of `name`'s capitalised words spell `acronym` (legal forms at the
/// end may be left out): "First National Bank of Lindsay" spells "FNBL".
pub(crate) fn spells_capitals(name: &str, acronym: &str) -> bool {
    spells(&capital_words(name), acronym)
}

/// The capitalised words of a name.
fn capital_words(name: &str) -> Vec<&str> {
    name.split_whitespace().map(|w| w.trim_end_matches(',')).filter(|w| w.starts_with(|c: char| c.is_uppercase())).collect()
}

/// Whether the initials of `words` spell `acronym`, legal-form words at the end allowed to
/// be left out of it.
fn spells(words: &[&str], acronym: &str) -> bool {
    let initials: String = words.iter().filter_map(|w| w.chars().next()).collect();
    let mut n = words.len();
    loop {
        if initials.chars().take(n).eq(acronym.chars()) && acronym.chars().count() == n {
            return true;
        }
        if n == 0 || !is_legal_form(words[n - 1]) {
            return false;
        }
        n -= 1;
    }
}

/// A legal form: an abbreviated one ([`LEGAL_ABBREVIATIONS`]) or one written out.
fn is_legal_form(w: &str) -> bool {
    let w = w.trim_end_matches('.');
    is_legal_abbreviation(w) || matches!(w, "Incorporated" | "Corporation" | "Company" | "Limited")
}

/// Acronyms of the anti-money-laundering trade that name kinds of report, duty, business
/// or scheme, never a party ("SAR", "CTR", "BSA", "KYC", "MSB", "PEP", "TBML", "BEC",
/// "CVC", "CMLN", "E.O." for an executive order), the codes a citation names ("31 CFR
/// 1010.100", "31 U.S.C. 5318"), forms ("FBAR", "CMIR"), sanctions lists and designations
/// ("SDN", "SDGT"), laws ("IEEPA", "NDAA") and agreements ("DPA", "NPA"), and such terms joined by a slash
/// ("BSA/AML"), whether or not the document defines them:
/// advisories use them undefined, and the tagger took "SARs" and "CMLNs" for places and
/// "CFR" for an organisation.
pub fn is_trade_term(word: &str) -> bool {
    // Terms joined by a slash are one ("BSA/AML", "AML/CFT").
    if let Some((a, b)) = word.split_once('/') {
        return is_trade_term(a) && is_trade_term(b);
    }
    const TERMS: &[&str] = &[
        "AEC", "AML", "ATM", "BEC", "BSA", "C.F.R.", "CDD", "CFR", "CFT", "CMIR", "CMLN", "CTR", "CVC", "DDoS", "DPA", "E.O.", "EDD", "EO", "FBAR", "GTO", "IEEPA", "KYC", "ML",
        "MSB", "NDAA", "NPA", "NPRM", "PEP", "SAR", "SDGT", "SDN", "STR", "TBML", "TF", "U.S.C.", "UBO",
    ];
    let bare = word.strip_suffix('s').filter(|b| b.len() >= 2 && b.chars().all(|c| c.is_ascii_uppercase())).unwrap_or(word);
    TERMS.binary_search(&bare).is_ok()
}

/// Acronyms a document defines for things that are not names: "suspicious activity report
/// (SAR)", "convertible virtual currency (CVC)", "distributed denial-of-service (DDoS)",
/// "Bank Secrecy Act (BSA)". An acronym in brackets whose letters are the initials of the
/// words (or of the words but "of", "and", "the", "for") right before it is such a term
/// when those words are no name found in `mentions` (sorted by span) and they begin with a
/// word in lower case or end in a law's or a paper's word (see [`super::ner`]). Returned
/// as written, without a plural `s` ("SARs" → "SAR").
pub fn common_terms(text: &str, scope: Span, mentions: &[&Mention]) -> std::collections::BTreeSet<String> {
    const SMALL: &[&str] = &["of", "and", "the", "for", "&", "on", "to", "in"];
    let mut out = std::collections::BTreeSet::new();
    let body = &text[scope.0..scope.1];
    for (k, _) in body.match_indices('(') {
        let open = scope.0 + k;
        // (Its bracket closes within a few bytes: an acronym is short, and an unclosed one
        // costs no scan of the rest of the document.)
        let Some(close) = text.as_bytes()[open..scope.1.min(open + 12)].iter().position(|&b| b == b')').map(|c| open + c) else { continue };
        let inner = &text[open + 1..close];
        let acronym = inner.strip_suffix('s').filter(|a| a.ends_with(|c: char| c.is_ascii_uppercase())).unwrap_or(inner);
        let uppers = acronym.bytes().filter(u8::is_ascii_uppercase).count();
        if !(2..=8).contains(&acronym.len()) || uppers < 2 || !acronym.starts_with(|c: char| c.is_ascii_uppercase()) || !acronym.bytes().all(|b| b.is_ascii_alphabetic()) {
            continue;
        }
        let letters: Vec<char> = acronym.chars().map(|c| c.to_ascii_lowercase()).collect();
        // The words before the bracket, nearest first, split at hyphens, with where each starts.
        let head = text[scope.0..open].trim_end();
        let mut parts: Vec<(usize, &str)> = vec![];
        for w in head.rsplit(' ').take(12) {
            let start = w.as_ptr() as usize - text.as_ptr() as usize;
            for (j, p) in w.split('-').enumerate().collect::<Vec<_>>().into_iter().rev() {
                let off = w.split('-').take(j).map(|x| x.len() + 1).sum::<usize>();
                parts.push((start + off, p));
            }
        }
        let initial = |p: &str| p.chars().next().map(|c| c.to_ascii_lowercase());
        let spelled = |skip_small: bool| -> Option<usize> {
            let mut taken: Vec<(usize, &str)> = vec![];
            for &(s, p) in &parts {
                if p.is_empty() || !p.chars().all(|c| c.is_alphabetic() || c == '’' || c == '\'') {
                    return None;
                }
                if skip_small && SMALL.contains(&p) {
                    continue;
                }
                taken.push((s, p));
                if taken.len() == letters.len() {
                    break;
                }
            }
            let ok = taken.len() == letters.len() && taken.iter().rev().map(|(_, p)| initial(p)).eq(letters.iter().map(|c| Some(*c)));
            ok.then(|| taken.last().map_or(open, |t| t.0))
        };
        let Some(start) = spelled(false).or_else(|| spelled(true)) else { continue };
        let phrase = &text[start..open];
        let named = mentions.iter().any(|m| matches!(m.kind, "Organization" | "Person" | "Location") && m.span.0 < open && m.span.1 > start);
        let first_lower = phrase.split_whitespace().find(|w| !SMALL.contains(w)).is_some_and(|w| w.starts_with(|c: char| c.is_lowercase()));
        let last = phrase.split_whitespace().last().unwrap_or("");
        if !named && (first_lower || super::ner::is_law_or_paper(last)) {
            out.insert(acronym.to_string());
        } else if is_trade_term(acronym) {
            // A trade's acronym spelled out in capitals ("Distributed Denial-of-Service
            // (DDoS)", "Suspicious Activity Report (SAR)") is the term too, whatever name a
            // finder made of its words.
            out.insert(acronym.to_string());
            out.insert(super::entities::collapse(phrase));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trades_acronyms_are_no_names() {
        assert!(is_trade_term("SAR") && is_trade_term("SARs") && is_trade_term("CMLNs") && is_trade_term("E.O."));
        assert!(!is_trade_term("SEC") && !is_trade_term("OFAC") && !is_trade_term("FATF") && !is_trade_term("Sars"));
        // Codes of a citation, forms, lists and laws; the list stays sorted (binary search).
        assert!(["CFR", "C.F.R.", "U.S.C.", "FBAR", "CMIR", "SDN", "SDGTs", "IEEPA", "DDoS", "BSA/AML", "AML/CFT"].iter().all(|t| is_trade_term(t)));
        assert!(!is_trade_term("BSA/OFAC") && !is_trade_term("/"));
    }

    fn org(text: &str, a: &str) -> Mention {
        let s = text.find(a).unwrap_or_default();
        Mention { span: (s, s + a.len()), kind: "Organization", key: format!("Organization:{}", name_key(a)), surface: a.to_string(), attrs: vec![] }
    }

    fn widened(text: &str, found: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
        let ms = found.iter().map(|(a, k)| Mention { kind: k, ..org(text, a) }).collect();
        widen(text, (0, text.len()), ms).into_iter().map(|m| (m.surface, m.kind)).collect()
    }

    #[test]
    fn an_acronym_settles_where_the_name_starts() {
        let t = "its subsidiary, Union Transfer and Cargo Corporation (\"UTC\"), sold.";
        assert_eq!(widened(t, &[("Cargo Corporation", "Organization")]), [("Union Transfer and Cargo Corporation".to_string(), "Organization")]);
        let t = "brokers with Marsh, Doyle, &amp; Lyle (\"MDL\"), a firm";
        assert_eq!(widened(t, &[("Doyle", "Person"), ("Lyle", "Person")]), [("Marsh, Doyle, &amp; Lyle".to_string(), "Organization")]);
        // Legal forms may be left out; a name that already spells its acronym stays.
        let t = "Ortiz Freight Management Associates, Inc. (OFMA) and Delta Ltd (DL)";
        assert_eq!(
            widened(t, &[("Management Associates, Inc.", "Organization"), ("Delta Ltd", "Organization")]),
            [("Ortiz Freight Management Associates, Inc.".to_string(), "Organization"), ("Delta Ltd".to_string(), "Organization")]
        );
    }

    #[test]
    fn acronyms_of_common_words_and_laws_are_terms() {
        let t = "Banks file suspicious activity reports (SARs) on convertible virtual currency (CVC) and distributed denial-of-service (DDoS) attacks under the Bank Secrecy Act (BSA). The Office of Foreign Assets Control (OFAC) and the Federal Bureau (FB) act.";
        let ofac = org(t, "Office of Foreign Assets Control");
        let terms = common_terms(t, (0, t.len()), &[&ofac]);
        // "Federal Bureau" is capitalised and no law: a name the recognisers missed, left alone.
        assert_eq!(terms.into_iter().collect::<Vec<_>>(), ["BSA", "CVC", "DDoS", "SAR"]);
        // A trade's acronym spelled out in capitals, a name found over its words or not.
        let t = "Recent Distributed Denial-of-Service (DDoS) attacks on the Office of Foreign Assets Control (OFAC).";
        let ddos = org(t, "Distributed Denial-of-Service");
        let ofac = org(t, "Office of Foreign Assets Control");
        let terms = common_terms(t, (0, t.len()), &[&ddos, &ofac]);
        assert_eq!(terms.into_iter().collect::<Vec<_>>(), ["DDoS", "Distributed Denial-of-Service"]);
    }

    #[test]
    fn no_widening_without_a_spelling() {
        // Lowercase words stop it; an acronym no widening spells leaves the name alone.
        let t = "the freight arm of Cargo Corporation (\"UTC\")";
        assert_eq!(widened(t, &[("Cargo Corporation", "Organization")]), [("Cargo Corporation".to_string(), "Organization")]);
        let t = "Amalgamated Explorations Inc. (\"AXPL\")";
        assert_eq!(widened(t, &[("Amalgamated Explorations Inc.", "Organization")]), [("Amalgamated Explorations Inc.".to_string(), "Organization")]);
    }
}
