//! The parties of a court caption written in capitals ("SECURITIES AND EXCHANGE COMMISSION
//! V. PINNFUND USA, INC., ALLIED CAPITAL PARTNERS, MICHAEL J. FANGHELLA, and KELLY COOK A/K/A
//! KELLY JAYE, Civil Action No. …"), as complaints, indictments and older litigation
//! releases open. The name recogniser learned names from mixed-case prose and does not read
//! a name in capitals; the names found elsewhere in mixed case are found again in a caption
//! (`extract_with`), the others only here. A caption lists each party between commas (a
//! legal form after a comma is its name's), "AND" or an alias's cue, up to the words that
//! end it (the case's number, "Defendants", "ET AL.").

use crate::entities::{Mention, collapse, name_key};
use tg_text::document::Span;

/// Words that open a heading, not a caption, before a roman "V." ("PART V. REMEDIES").
const HEADINGS: [&str; 12] = ["PART", "ARTICLE", "SECTION", "CHAPTER", "TITLE", "ITEM", "SCHEDULE", "EXHIBIT", "VOLUME", "BOOK", "APPENDIX", "ANNEX"];

/// Words of a caption that end its list of parties.
const ENDS: [&str; 8] = ["CIVIL", "CASE", "NO.", "ET", "DEFENDANT", "DEFENDANTS", "RELIEF", "CRIMINAL"];

/// Last words of a business's name in a caption besides legal forms: "ALLIED CAPITAL
/// PARTNERS", "GRAFTON PARTNERS".
const BUSINESS_WORDS: [&str; 10] = ["PARTNERS", "GROUP", "ASSOCIATES", "CAPITAL", "FUNDING", "FUND", "FUNDS", "COMPANY", "SECURITIES", "VENTURES"];

/// Where the first " V. ", " VS. ", " v. " or " vs. " of `s` starts, and its length.
fn versus(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    s.match_indices('.').find_map(|(i, _)| {
        if !b.get(i + 1).is_some_and(u8::is_ascii_whitespace) {
            return None;
        }
        let word = |w: &[u8]| i > w.len() && b[i - w.len()..i] == *w && b[i - w.len() - 1].is_ascii_whitespace();
        [&b"V"[..], b"v", b"VS", b"vs"].into_iter().find(|w| word(w)).map(|w| (i - w.len() - 1, w.len() + 3))
    })
}

/// Whether sentence `sentence` of `text` reads as a case's caption: a " v. " between two
/// sides ("Securities and Exchange Commission v. Curtis L. Hammond, …").
pub fn is_caption(text: &str, sentence: Span) -> bool {
    text.get(sentence.0..sentence.1).is_some_and(|s| versus(s).is_some())
}

/// A word in capitals: letters all upper case (at least one), with digits and `.'&-/`.
fn in_capitals(w: &str) -> bool {
    w.chars().any(char::is_alphabetic) && !w.chars().any(char::is_lowercase)
}

/// The caption's parties in sentence `sentence` of `text`, as Organization and Person
/// mentions (a name neither a legal form, a business's word nor a person's shape types is
/// left out), and the United States as a Location where it is the plaintiff.
pub fn parties(text: &str, sentence: Span) -> Vec<Mention> {
    let Some(s) = text.get(sentence.0..sentence.1) else { return vec![] };
    // (Most sentences are no caption: one pass over their periods says so.)
    let Some(v) = versus(s) else { return vec![] };
    // The plaintiff: the words in capitals from the line's start to the "V."; in a caption
    // that stacks its sides, the line above the "v." line, without its side ("SECURITIES
    // AND EXCHANGE COMMISSION, Plaintiff,").
    let head = s[..v.0].trim_end();
    let head = ["Plaintiffs,", "Plaintiff,", "PLAINTIFFS,", "PLAINTIFF,", "Plaintiffs", "Plaintiff", "PLAINTIFFS", "PLAINTIFF"]
        .iter()
        .find_map(|side| head.strip_suffix(side))
        .map_or(head, |h| h.trim_end().trim_end_matches(','));
    let own_line = &head[head.rfind('\n').map_or(0, |i| i + 1)..];
    let plaintiff: Vec<&str> = own_line.split_whitespace().collect();
    if plaintiff.is_empty() || !plaintiff.iter().all(|w| in_capitals(w)) || HEADINGS.contains(&plaintiff[0].trim_end_matches([',', '.'])) {
        return vec![];
    }
    // The words after it, with their offsets, up to a paragraph's break.
    let rest_at = v.0 + v.1;
    let rest = &s[rest_at..];
    let rest = &rest[..rest.find("\n\n").or_else(|| rest.find("\r\n\r\n")).unwrap_or(rest.len())];
    let mut items: Vec<Vec<(usize, &str)>> = vec![vec![]];
    for (at, w) in rest.split_whitespace().map(|w| (w.as_ptr() as usize - rest.as_ptr() as usize, w)) {
        let bare = w.trim_end_matches(',');
        let legal = crate::entities::is_legal_form_in_capitals(bare);
        // ("&" is a firm's name's, "SMITH & JONES LLP"; an item with one is no person's.)
        if bare == "&" {
            if let Some(i) = items.last_mut() {
                i.push((at, w));
            }
            continue;
        }
        // ("AND" after a comma, ", and KELLY COOK", opens no further item.)
        if matches!(bare, "AND" | "and") {
            if !items.last().is_some_and(|i| i.is_empty()) {
                items.push(vec![]);
            }
            continue;
        }
        if crate::aliases::is_cue_word(bare) {
            items.push(vec![]);
            continue;
        }
        if ENDS.contains(&bare) || bare.starts_with('(') || !in_capitals(bare) && !bare.chars().all(|c| c.is_ascii_digit()) {
            break;
        }
        // A legal form after a comma is the name's ("PINNFUND USA, INC.").
        if legal && items.last().is_some_and(|i| i.is_empty()) && items.len() >= 2 {
            items.pop();
        }
        if let Some(i) = items.last_mut() {
            i.push((at, w));
        }
        if w.ends_with(',') {
            items.push(vec![]);
        }
    }
    let mut out = vec![];
    // The United States as the plaintiff, a federal criminal case's ("UNITED STATES OF
    // AMERICA v. …"): the country, whose caption `enforcement` reads as the prosecutor's.
    if matches!(plaintiff.join(" ").as_str(), "UNITED STATES" | "UNITED STATES OF AMERICA") {
        let at = plaintiff[0].as_ptr() as usize - s.as_ptr() as usize;
        let written = own_line[plaintiff[0].as_ptr() as usize - own_line.as_ptr() as usize..].trim_end();
        out.push(Mention {
            span: (sentence.0 + at, sentence.0 + at + written.len()),
            kind: "Location",
            key: "Location:united states".into(),
            surface: collapse(written),
            attrs: vec![],
        });
    }
    for item in items.iter().filter(|i| !i.is_empty()) {
        let (Some(&(a, _)), Some(&(b, last))) = (item.first(), item.last()) else { continue };
        let end = b + last.trim_end_matches(',').len();
        let written = &rest[a..end];
        // (A final period is the name's only after a legal form or an initial: "INC.", "J.")
        let written = if written.ends_with('.') && !crate::entities::is_legal_form_in_capitals(last.trim_end_matches(',')) && last.trim_end_matches(',').len() > 2 {
            &written[..written.len() - 1]
        } else {
            written
        };
        let words: Vec<&str> = written.split_whitespace().collect();
        // A court names the case's forum, no party, and ends the list ("SEC v. TODD HANSEN
        // AND NICHOLAS LOBUE, UNITED STATES DISTRICT COURT FOR THE …").
        if words.iter().any(|w| matches!(w.trim_end_matches(','), "COURT" | "COURTS")) {
            break;
        }
        let business = words.iter().any(|w| crate::entities::is_legal_form_in_capitals(w) || BUSINESS_WORDS.contains(w) || crate::ner::is_org_word(w));
        let initial = |w: &&str| w.len() == 2 && w.ends_with('.');
        // (The name lists are read in any case: "DANA" is Dana.)
        let given = words.first().is_some_and(|w| crate::ner::is_given_name(w));
        let kind = if business {
            "Organization"
        } else if (2..=4).contains(&words.len()) && (given || words.iter().any(initial)) && !words.contains(&"&") {
            "Person"
        } else {
            continue;
        };
        let span = (sentence.0 + rest_at + a, sentence.0 + rest_at + a + written.len());
        let surface = collapse(written);
        out.push(Mention { span, kind, key: format!("{kind}:{}", name_key(&surface)), surface, attrs: vec![] });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::parties;

    fn of(text: &str) -> Vec<(String, &'static str)> {
        parties(text, (0, text.len())).into_iter().map(|m| (m.surface, m.kind)).collect()
    }

    /// Each party of a caption in capitals, typed by its legal form, a business's word or
    /// a person's given name or initial; the list ends at the case's number.
    #[test]
    fn a_caption_in_capitals_lists_its_parties() {
        let got = of(
            "SECURITIES AND EXCHANGE COMMISSION V. PINNFUND USA, INC., ALLIED CAPITAL PARTNERS, SIX SIGMA, LLC A/K/A 6 SIGMA, LLC, MICHAEL J. FANGHELLA, and KELLY COOK A/K/A KELLY JAYE, Civil Action No. 01-CV-0496 H (LAB) (S.D. Cal.)",
        );
        let want = [
            ("PINNFUND USA, INC.", "Organization"),
            ("ALLIED CAPITAL PARTNERS", "Organization"),
            ("SIX SIGMA, LLC", "Organization"),
            ("6 SIGMA, LLC", "Organization"),
            ("MICHAEL J. FANGHELLA", "Person"),
            ("KELLY COOK", "Person"),
            ("KELLY JAYE", "Person"),
        ];
        assert_eq!(got, want.map(|(s, k)| (s.to_string(), k)));
        assert_eq!(
            of("UNITED STATES OF AMERICA v. JOHN DOE and ACME TRADING LTD., Defendants."),
            [("UNITED STATES OF AMERICA".to_string(), "Location"), ("JOHN DOE".to_string(), "Person"), ("ACME TRADING LTD.".to_string(), "Organization")]
        );
        // A name that opens with an initial is a person's; a court ends the list.
        assert_eq!(
            of("SEC v. J. CHARLES REIVES AND NICHOLAS LOBUE, UNITED STATES DISTRICT COURT FOR THE NORTHERN DISTRICT OF ILLINOIS, CASE NO. 99-C-6386"),
            [("J. CHARLES REIVES".to_string(), "Person"), ("NICHOLAS LOBUE".to_string(), "Person")]
        );
    }

    /// A caption that stacks its sides on lines of their own, each with its side's word.
    #[test]
    fn a_stacked_caption_lists_its_parties() {
        assert_eq!(
            of("SECURITIES AND EXCHANGE COMMISSION, Plaintiff,\n\nv.\n\nBRIGHTWATER CAPITAL MANAGEMENT LLC and ALAN J. FERREIRA, Defendants."),
            [("BRIGHTWATER CAPITAL MANAGEMENT LLC".to_string(), "Organization"), ("ALAN J. FERREIRA".to_string(), "Person")]
        );
        assert_eq!(
            of("UNITED STATES OF AMERICA,\nPlaintiff,\nv.\nJOHN DOE,\nDefendant."),
            [("UNITED STATES OF AMERICA".to_string(), "Location"), ("JOHN DOE".to_string(), "Person")]
        );
    }

    /// The caption's "v." is found as a word of its own.
    #[test]
    fn versus_is_a_word() {
        assert_eq!(super::versus("SEC v. DOE"), Some((3, 4)));
        assert_eq!(super::versus("A B VS. C"), Some((3, 5)));
        assert_eq!(super::versus("Gov. Roe and Rev. Doe v.Roe"), None);
        assert_eq!(super::versus("v. DOE"), None);
    }

    /// A roman "V." of a heading, a caption in mixed case and a sentence are no caption in
    /// capitals.
    #[test]
    fn headings_and_prose_are_no_captions() {
        assert!(of("PART V. REMEDIES AND PENALTIES").is_empty());
        assert!(of("ARTICLE V. JOHN DOE").is_empty());
        assert!(of("Judgment was entered in SEC v. Delta Holdings Inc., et al.").is_empty());
        assert!(of("The court in SEC V. DOE held that").is_empty());
    }
}
