//! Defendants set out one to a line after a line that introduces them, as prosecutors'
//! releases list them:
//!
//! ```text
//! Charged in the indictment are:
//!
//!   - Jane Roe, 41, of Marietta, Georgia;
//!   - John Doe, a/k/a "JD," 38, of Alpharetta, Georgia; and
//!   - Acme Trading LLC.
//! ```
//!
//! or in blocks of a name, an age and a home ("The Defendants:⏎JANE ROE⏎Age: 41⏎Marietta,
//! Georgia"). No sentence names a member and the charge together, so the relation patterns,
//! which read one sentence, never see them: each member is a party charged (by the authority
//! the introducing line implies, as for "X was indicted") and the members are co-defendants.

use std::sync::LazyLock;

use regex::Regex;

use super::entities::Mention;
use tg_text::document::Span;

/// One list: the span of the line that introduces it and, for each member in order, the
/// index of the mention that names it (into the mentions given to [`find`]) and the span
/// of its line.
#[derive(Debug, PartialEq, Eq)]
pub struct DefendantList {
    /// The introducing line ("Charged in the indictment are:"), from the start of its
    /// sentence to the colon.
    pub intro: Span,
    /// Each member: its mention's index and its line's span.
    pub members: Vec<(usize, Span)>,
}

/// Words that make a line ending in a colon introduce parties charged: "Charged in the
/// indictment are:", "The defendants:", "Those indicted include:", "The following were
/// arrested:".
static INTRO: LazyLock<Regex> = LazyLock::new(|| super::entities::re(r"(?i)\b(?:charged|indicted|defendants?|arrested|convicted|sentenced)\b"));

/// A bullet or an item's number at the start of a line.
static BULLET: LazyLock<Regex> = LazyLock::new(|| super::entities::re(r"^[ \t]*(?:[-–—•*·▪◦]|\(?\d{1,2}[.)]|\([a-z]\))[ \t]+"));

/// The lists of defendants in `text` (within `scope`, the stretch its `sentences` cover).
/// `mentions` are the document's; only people and organisations that are neither
/// authorities nor marked by a role (a judge, the authority's staff) can be members.
pub fn find(text: &str, scope: Span, sentences: &[Span], mentions: &[(Mention, Option<Span>)], is_authority: impl Fn(&Mention) -> bool) -> Vec<DefendantList> {
    let mut out = vec![];
    let body = &text[scope.0..scope.1];
    // (Most documents have no line ending in a colon: nothing else is read for them.)
    let mut parties: Option<Vec<(usize, usize)>> = None;
    for (i, _) in body.match_indices(':') {
        let colon = scope.0 + i;
        // The colon ends its line: only spaces up to a newline (read no further than the
        // first other byte, so a long line of many colons costs no more than its length).
        if text[colon + 1..].bytes().find(|b| !matches!(b, b' ' | b'\t' | b'\r')) != Some(b'\n') {
            continue;
        }
        // The introducing words: the colon's sentence, up to it.
        let Some(&sent) = sentences.get(sentences.partition_point(|s| s.1 <= colon)).filter(|s| s.0 <= colon) else { continue };
        let intro = (sent.0, colon);
        let words = &text[intro.0..intro.1];
        if words.len() > 300 || !INTRO.is_match(words) {
            continue;
        }
        let parties = parties.get_or_insert_with(|| {
            let mut p: Vec<(usize, usize)> = mentions
                .iter()
                .enumerate()
                .filter(|(_, (m, _))| matches!(m.kind, "Person" | "Organization") && !m.attrs.iter().any(|(k, _)| *k == "role") && !is_authority(m))
                .map(|(i, (m, _))| (m.span.0, i))
                .collect();
            p.sort();
            p
        });
        // (A party named in the introducing words is its subject: "Jane Roe, the company's
        // founder, pleaded guilty to:" lists counts, not people.)
        if parties.iter().any(|&(at, _)| intro.0 <= at && at < intro.1) {
            continue;
        }
        let members = members_after(text, colon + 1, scope.1, parties, mentions);
        if !members.is_empty() {
            out.push(DefendantList { intro, members });
        }
    }
    out
}

/// The members listed in the lines after `from`: bulleted lines that open with a party's
/// name (a line that is neither, unindented, ends the list; an indented one continues an
/// item), or, where the first line has no bullet, lines that hold a name alone (with its
/// alias in brackets or after a comma) among short lines of no party (an age, a home).
fn members_after(text: &str, from: usize, end: usize, parties: &[(usize, usize)], mentions: &[(Mention, Option<Span>)]) -> Vec<(usize, Span)> {
    let mut members: Vec<(usize, Span)> = vec![];
    let mut bulleted: Option<bool> = None;
    let mut at = from;
    while at < end {
        let line_end = text[at..end].find('\n').map_or(end, |k| at + k);
        let line = &text[at..line_end];
        let span = (at, line_end);
        at = line_end + 1;
        if line.trim().is_empty() {
            continue;
        }
        let bullet = BULLET.find(line).map(|b| b.end());
        let is_bulleted = *bulleted.get_or_insert(bullet.is_some());
        let start = span.0 + bullet.unwrap_or(line.len() - line.trim_start().len());
        // The party whose name opens the line.
        let first = parties.partition_point(|&(s, _)| s < start);
        let opening = parties.get(first).filter(|&&(s, _)| s == start).map(|&(_, i)| i).filter(|&i| mentions[i].0.span.1 <= span.1);
        if is_bulleted {
            match (bullet, opening) {
                (Some(_), Some(i)) => members.push((i, span)),
                (None, _) if line.starts_with([' ', '\t']) && !members.is_empty() => {}
                _ => break,
            }
        } else {
            let named_alone = opening.is_some_and(|i| {
                let after = text[mentions[i].0.span.1..span.1].trim();
                line.len() <= 120 && (after.is_empty() || after.starts_with(['(', ',']))
            });
            let party_in_line = parties.get(parties.partition_point(|&(s, _)| s < span.0)).is_some_and(|&(s, _)| s < span.1);
            match opening {
                Some(i) if named_alone => members.push((i, span)),
                None if !party_in_line && line.len() <= 80 && !members.is_empty() => {}
                _ => break,
            }
        }
    }
    // One member once (a name listed twice is one party).
    let mut seen = std::collections::BTreeSet::new();
    members.retain(|&(i, _)| seen.insert(mentions[i].0.key.clone()));
    members
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mention(text: &str, name: &str, kind: &'static str) -> (Mention, Option<Span>) {
        assert!(text.contains(name), "{name}");
        let at = text.find(name).unwrap_or_default();
        (Mention { span: (at, at + name.len()), kind, key: format!("{kind}:{}", name.to_lowercase()), surface: name.into(), attrs: vec![] }, None)
    }

    fn members(text: &str, names: &[(&str, &'static str)]) -> Vec<String> {
        let ms: Vec<_> = names.iter().map(|(n, k)| mention(text, n, k)).collect();
        // (One sentence a line, as the splitter makes of such lists.)
        let mut sentences = vec![];
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            sentences.push((at, at + line.trim_end().len()));
            at += line.len();
        }
        let lists = find(text, (0, text.len()), &sentences, &ms, |m| m.key.contains("attorney"));
        lists.iter().flat_map(|l| l.members.iter().map(|&(i, _)| ms[i].0.surface.clone())).collect()
    }

    #[test]
    fn bulleted_members_after_a_charge() {
        let text = "Charged in the 14-count indictment are:\n\n  - Jane Roe, 41, of Marietta, Georgia;\n  - John Doe, a/k/a \"JD,\" 38, of Alpharetta; and\n  - Acme Trading LLC.\n\nRoe and Doe were arrested. Mary Major was not charged.\n";
        let names = [("Jane Roe", "Person"), ("John Doe", "Person"), ("Acme Trading LLC", "Organization"), ("Mary Major", "Person")];
        assert_eq!(members(text, &names), ["Jane Roe", "John Doe", "Acme Trading LLC"]);
    }

    #[test]
    fn blocks_of_name_age_and_home() {
        let text = "The Defendants:\nFARID HADDA (also known as \"Satoshi\")\nAge: 34\nMiami, Florida\n\nJI-HOON PAK\nAge: 31\nDubai\n\nE.D.N.Y. Docket No. 24-CR-512\n";
        let names = [("FARID HADDA", "Person"), ("JI-HOON PAK", "Person")];
        assert_eq!(members(text, &names), ["FARID HADDA", "JI-HOON PAK"]);
    }

    #[test]
    fn no_list_without_charging_words_or_with_a_party_in_the_intro() {
        // A list of findings, of counts, of victims: no defendants.
        let text = "The SEC found that:\n  - Acme Trading LLC failed to supervise.\n";
        assert!(members(text, &[("Acme Trading LLC", "Organization")]).is_empty());
        let text = "Jane Roe pleaded guilty and was sentenced for:\n  - Acme Trading LLC matters.\n";
        assert!(members(text, &[("Jane Roe", "Person"), ("Acme Trading LLC", "Organization")]).is_empty());
        // Prose after the colon's line is no list, nor are bullets that open with no name.
        let text = "The defendants are charged as follows:\n  - conspiracy, by Jane Roe;\n";
        assert!(members(text, &[("Jane Roe", "Person")]).is_empty());
        let text = "The defendants:\nJane Roe told investors that the fund was safe and that it would pay.\n";
        assert!(members(text, &[("Jane Roe", "Person")]).is_empty());
    }

    /// A long line of colons (a log, a minified record) is read once, not once a colon.
    #[test]
    fn a_line_of_many_colons_is_no_list() {
        let text = "charged:x".repeat(20_000);
        assert!(members(&text, &[]).is_empty());
    }

    #[test]
    fn prose_after_the_list_ends_it() {
        let text = "Charged are:\n  - Jane Roe, 41;\n  - John Doe, 38.\nMary Major, their lawyer, was not charged.\n";
        let names = [("Jane Roe", "Person"), ("John Doe", "Person"), ("Mary Major", "Person")];
        assert_eq!(members(text, &names), ["Jane Roe", "John Doe"]);
    }
}
