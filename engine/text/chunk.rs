//! Deterministic, sentence-aware, bounded chunks of a canonical text.
//!
//! The text is first cut at the boundaries of sections, pages, messages, tables and
//! code blocks (so a chunk never straddles two of them), then each region is split
//! into sentences, and sentences are packed greedily into chunks of at most
//! [`MAX_CHUNK_BYTES`]. A sentence longer than that
//! is cut at the last whitespace before the limit (or at a character boundary), so
//! gigantic lines cost linear time. Each chunk names the innermost block holding it,
//! which makes chunks hierarchical: section → chunk.

use std::cmp::Reverse;
use std::sync::LazyLock;

use regex::Regex;

use crate::document::{Block, Span, trim_span};

/// Largest chunk (bytes): chunks pack whole sentences up to this size.
pub const MAX_CHUNK_BYTES: usize = 1500;

/// Block kinds whose boundaries chunks never cross.
const BOUNDARY_KINDS: [&str; 7] = ["section", "page", "message", "table", "code", "chapter", "attachment"];

/// Candidate sentence ends: sentence punctuation and line breaks (a line break ends a
/// sentence before a blank line, or everywhere in a one-paragraph-per-line text).
static BREAKS: LazyLock<Regex> = LazyLock::new(|| crate::pattern::constant(r"[.!?]|\n"));

/// Lines longer than this are paragraphs written on one line: hard-wrapped text (mail,
/// plain-text filings) is wrapped well below it.
const PARAGRAPH_LINE: usize = 120;

/// Abbreviations that never end a sentence: titles, "No."/"v." before what they
/// introduce, Latin abbreviations, month abbreviations ("Sept. 5").
const NEVER_ENDS: &[&str] = &[
    "Mr", "Mrs", "Ms", "Messrs", "Dr", "Prof", "Rev", "Hon", "Gen", "Sen", "Rep", "Gov", "Lt", "Col", "Capt", "Sgt", "St", "Mt", "Ft", "No", "Nos", "v", "vs", "e.g", "i.e", "cf",
    "al", "Jan", "Feb", "Apr", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "Art", "Sec", "approx",
];

/// Abbreviations that end a sentence only before a word that opens one ("… paid Acme
/// Inc. The next day …"): legal forms, name suffixes, "etc.", country and place initials,
/// and the Federal Register's "Fed. Reg." of a citation ("69 Fed. Reg. 74,439").
const MAY_END: &[&str] = &["Inc", "Ltd", "Corp", "Co", "Bros", "Jr", "Sr", "etc", "U.S", "U.K", "D.C", "N.Y", "L.L.C", "L.P", "S.A", "N.V", "B.V", "Fed", "Reg"];

/// Words that open sentences: after a [`MAY_END`] abbreviation they show the sentence ended.
const OPENERS: &[&str] = &[
    "The",
    "He",
    "She",
    "It",
    "They",
    "We",
    "I",
    "In",
    "On",
    "At",
    "According",
    "This",
    "That",
    "These",
    "Those",
    "After",
    "Before",
    "Its",
    "His",
    "Her",
    "Their",
    "A",
    "An",
    "As",
    "Since",
    "From",
    "During",
    "When",
    "While",
    "Also",
    "However",
    "Moreover",
    "Further",
    "Furthermore",
    "Additionally",
    "Instead",
    "Without",
    "For",
    "Under",
    "Among",
    "Both",
    "Each",
    "Following",
    "Previously",
    "Separately",
    "Today",
    "Yesterday",
    "Then",
    "There",
    "Thereafter",
    "Later",
    "Subsequently",
];

/// Whether the period ending `word` (the text before it back to whitespace) is an
/// abbreviation's, and so no sentence end, given the word after it (`next`).
fn abbreviation(word: &str, next: &str) -> bool {
    let word = word.trim_start_matches(['(', '[', '"', '\'', '“', '‘']);
    let next_word: &str = next.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '.')).next().unwrap_or("");
    let opener = OPENERS.contains(&next_word);
    // An initial ("William R. Schantz"), not a lone pronoun before an opener.
    if word.chars().count() == 1 && word.chars().all(char::is_uppercase) {
        return !opener || word != "I";
    }
    if NEVER_ENDS.contains(&word) {
        // A month ends a sentence only before an opener ("… in Jan. The …" is rare; "Jan. 5" is not).
        return !(opener
            && word.len() >= 3
            && word.chars().next().is_some_and(char::is_uppercase)
            && !matches!(word, "Mr" | "Mrs" | "Ms" | "Dr" | "Prof" | "Messrs" | "St" | "No" | "Nos"));
    }
    if MAY_END.contains(&word) {
        return !opener;
    }
    // Dotted initials ("S.D.N.Y", "a.k.a"): segments of one or two letters.
    if word.contains('.') && word.split('.').all(|p| !p.is_empty() && p.len() <= 2 && p.chars().all(char::is_alphabetic)) {
        return !opener;
    }
    false
}

/// Whether a line is a field with its value: a capitalised word of at most 30 letters,
/// digits or hyphens, a colon, a space and more on the line ("Re: Wires", "Date: 4 March
/// 2024"; not "http://…", not "Note that …", not a label alone, "Subject:", whose value
/// the lines after it hold).
fn opens_with_field(line: &str) -> bool {
    let n = line.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'-').count();
    (1..=30).contains(&n)
        && line.as_bytes()[0].is_ascii_uppercase()
        && line[n..].starts_with(':')
        && line[n + 1..].starts_with([' ', '\t'])
        && !line[n + 1..].split('\n').next().unwrap_or("").trim().is_empty()
}

/// Whether a region is written one paragraph per line: more than half of its non-blank
/// bytes are on lines longer than [`PARAGRAPH_LINE`]. Then every line break ends a sentence
/// (hard-wrapped text keeps its sentences across line ends).
fn one_paragraph_per_line(region: &str) -> bool {
    let (mut long, mut all) = (0usize, 0usize);
    for line in region.split('\n') {
        let n = line.trim().len();
        all += n;
        if n > PARAGRAPH_LINE {
            long += n;
        }
    }
    long * 2 > all
}

/// Whether a line is a caption's "v." alone ("v.", "V.", "vs.", "-v-").
fn is_versus_line(line: &str) -> bool {
    matches!(line, "v." | "V." | "vs." | "VS." | "Vs." | "-v-" | "- v. -" | "-v.-")
}

/// The sentences of `text[start..end]`, trimmed, none longer than the chunk limit.
///
/// A sentence ends at `.`, `!` or `?` before whitespace (closing quotes and brackets
/// stay with it), except after an abbreviation ([`NEVER_ENDS`], initials, and [`MAY_END`]
/// unless a sentence opener follows); and at a line break before a blank line, or at
/// every line break of a one-paragraph-per-line region.
pub fn sentences(text: &str, start: usize, end: usize) -> Vec<Span> {
    let end = end.min(text.len());
    let bytes = text.as_bytes();
    let mut out = vec![];
    let mut s = start;
    let Some(region) = text.get(start..end) else { return out };
    let paragraphs = region.contains('\n') && one_paragraph_per_line(region);
    for m in BREAKS.find_iter(region) {
        let i = start + m.start();
        if i < s {
            continue;
        }
        // A run without any break: cut it before it outgrows a chunk.
        while i - s > MAX_CHUNK_BYTES {
            let c = split_point(text, s, s + MAX_CHUNK_BYTES);
            push_bounded(text, (s, c), &mut out);
            s = c;
        }
        if bytes[i] == b'\n' {
            // A blank line (only spaces on it) after this one, or a paragraph per line.
            let rest = &text[i + 1..end];
            let blank = rest.trim_start_matches([' ', '\t', '\r']).starts_with('\n');
            // A memo's or a form's field and its value ("From: Dana Whitfield, AML
            // Investigations", "Date: 4 March 2024") is a line of its own: it neither runs
            // into the next line nor takes the one before it.
            let field = || {
                let line = &text[text[..i].rfind('\n').map_or(start, |k| (k + 1).max(start))..i];
                opens_with_field(line.trim_start()) || opens_with_field(rest.trim_start_matches([' ', '\t']))
            };
            if blank || paragraphs || field() {
                // A court's caption stacks its sides on lines of their own around a "v." line
                // ("UNITED STATES OF AMERICA, ⏎ v. ⏎ JOHN DOE, Defendant."): one sentence, read
                // as a caption, over blank lines too. (Read only where the line would end one.)
                let line = text[s..i].rsplit('\n').map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
                let next_line = rest.split('\n').map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
                if is_versus_line(line) || is_versus_line(next_line) {
                    continue;
                }
                push_bounded(text, (s, i), &mut out);
                s = i;
            }
            continue;
        }
        let mut j = i + 1;
        while j < end && matches!(bytes[j], b'"' | b'\'' | b')' | b']') {
            j += 1;
        }
        // Curly closing quotes too.
        while j < end && (text[j..end].starts_with('”') || text[j..end].starts_with('’')) {
            j += '”'.len_utf8();
        }
        // A footnote's number glued to the full stop in text from a PDF ("… the Government
        // of Venezuela.31 Cabello is …"): the number closes the sentence, when a word in
        // lower case or a closing bracket or quote stands before the stop and a capital
        // after the number (not "Inc.3", "2019.4" or "4.2 The").
        if bytes[i] == b'.' && j == i + 1 {
            let digits = bytes[j..end].iter().take_while(|b| b.is_ascii_digit()).count();
            let before = text[..i].chars().next_back().is_some_and(|c| c.is_lowercase() || matches!(c, ')' | '"' | '”' | '’'));
            let after = bytes.get(j + digits) == Some(&b' ') && bytes.get(j + digits + 1).is_some_and(u8::is_ascii_uppercase);
            if (1..=3).contains(&digits) && before && after && !abbreviation(text[s..i].rsplit(char::is_whitespace).next().unwrap_or(""), "") {
                j += digits;
            }
        }
        if j < end && !bytes[j].is_ascii_whitespace() {
            continue;
        }
        let word = text[s..i].rsplit(char::is_whitespace).next().unwrap_or("");
        let next = text[j..end].trim_start();
        if bytes[i] == b'.' && j == i + 1 && abbreviation(word, next) {
            continue;
        }
        // An abbreviation's period inside a closing bracket or quote, before words that go on
        // in lower case or a number ("Acme Holdings LLC (f/k/a Beta Trading Corp.) and John
        // Doe", "Executive Order (E.O.) 14024"): no end.
        if bytes[i] == b'.' && j > i + 1 && next.starts_with(|c: char| c.is_lowercase() || c.is_ascii_digit()) && abbreviation(word, next) {
            continue;
        }
        push_bounded(text, (s, j), &mut out);
        s = j;
    }
    while end - s > MAX_CHUNK_BYTES {
        let c = split_point(text, s, s + MAX_CHUNK_BYTES);
        push_bounded(text, (s, c), &mut out);
        s = c;
    }
    push_bounded(text, (s, end), &mut out);
    out
}

/// A cut at or before `i`: after the last whitespace in the second half of `[s, i)`, else a char boundary.
fn split_point(text: &str, s: usize, i: usize) -> usize {
    let half = s + (i - s) / 2;
    let mut k = i;
    while k > half {
        if text.as_bytes()[k - 1].is_ascii_whitespace() {
            return k;
        }
        k -= 1;
    }
    let mut c = i;
    while c > s + 1 && !text.is_char_boundary(c) {
        c -= 1;
    }
    c
}

fn push_bounded(text: &str, span: Span, out: &mut Vec<Span>) {
    let (s, e) = trim_span(text, span);
    if s < e {
        out.push((s, e));
    }
}

/// The sentences of a text, never crossing the boundary of a section, page, message,
/// table or code block.
pub fn region_sentences(text: &str, blocks: &[Block]) -> Vec<Span> {
    let mut cuts: Vec<usize> = vec![0, text.len()];
    for b in blocks.iter().filter(|b| BOUNDARY_KINDS.contains(&b.kind)) {
        cuts.push(b.span.0);
        cuts.push(b.span.1);
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = vec![];
    for w in cuts.windows(2) {
        out.extend(sentences(text, w[0], w[1]));
    }
    out
}

/// The chunks of a text (from its [`region_sentences`]): spans and the innermost
/// enclosing block (if any). Sentences are packed greedily up to the size limit, and a
/// chunk never spans two regions.
pub fn chunks(blocks: &[Block], sentences: &[Span]) -> Vec<(Span, Option<usize>)> {
    let mut cuts: Vec<usize> = blocks.iter().filter(|b| BOUNDARY_KINDS.contains(&b.kind)).flat_map(|b| [b.span.0, b.span.1]).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut spans = vec![];
    let mut cur: Option<Span> = None;
    for &s in sentences {
        // A region boundary between the current chunk and this sentence closes the chunk.
        let crosses = |c: Span| {
            let i = cuts.partition_point(|&x| x <= c.0);
            cuts.get(i).is_some_and(|&x| x <= s.0)
        };
        cur = match cur {
            Some(c) if s.1 - c.0 <= MAX_CHUNK_BYTES && !crosses(c) => Some((c.0, s.1)),
            Some(c) => {
                spans.push(c);
                Some(s)
            }
            None => Some(s),
        };
    }
    if let Some(c) = cur {
        spans.push(c);
    }
    // Innermost block containing each chunk: a sweep over blocks sorted by (start, longest first).
    let mut order: Vec<usize> = (0..blocks.len()).collect();
    order.sort_by_key(|&i| (blocks[i].span.0, Reverse(blocks[i].span.1), i));
    let mut stack: Vec<usize> = vec![];
    let mut j = 0;
    let mut out = Vec::with_capacity(spans.len());
    for (s, e) in spans {
        while j < order.len() && blocks[order[j]].span.0 <= s {
            let b = order[j];
            while stack.last().is_some_and(|&t| blocks[t].span.1 <= blocks[b].span.0) {
                stack.pop();
            }
            stack.push(b);
            j += 1;
        }
        while stack.last().is_some_and(|&t| blocks[t].span.1 <= s) {
            stack.pop();
        }
        let parent = stack.iter().rev().find(|&&t| blocks[t].span.0 <= s && blocks[t].span.1 >= e).copied();
        out.push(((s, e), parent));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sentences;

    fn split(t: &str) -> Vec<&str> {
        sentences(t, 0, t.len()).into_iter().map(|(a, b)| &t[a..b]).collect()
    }

    #[test]
    fn a_footnote_number_glued_to_the_stop_ends_the_sentence() {
        assert_eq!(
            split("OFAC designated him for being an official of the Government of Venezuela.31 Cabello is the President of Raven LLC."),
            ["OFAC designated him for being an official of the Government of Venezuela.31", "Cabello is the President of Raven LLC."]
        );
        assert_eq!(
            split("Sanctions were imposed on Benjamin Bol Mel (Bol Mel).31 Bol Mel is a banker."),
            ["Sanctions were imposed on Benjamin Bol Mel (Bol Mel).31", "Bol Mel is a banker."]
        );
        // Numbers with a decimal point, and a legal form, are no footnotes.
        assert_eq!(split("Revenue rose in 2019.4 The rest fell."), ["Revenue rose in 2019.4 The rest fell."]);
        assert_eq!(split("See section 4.2 The rest applies."), ["See section 4.2 The rest applies."]);
        assert_eq!(split("It paid Acme Inc.3 Beta took the rest."), ["It paid Acme Inc.3 Beta took the rest."]);
    }

    #[test]
    fn abbreviations_do_not_end_sentences() {
        assert_eq!(split("Acme Ltd. paid Beta Inc. USD 5. Then it stopped."), ["Acme Ltd. paid Beta Inc. USD 5.", "Then it stopped."]);
        assert_eq!(split("Mr. Doe and Dr. Roe met Mrs. Poe and Ms. Lo at St. Louis, Jr. High."), ["Mr. Doe and Dr. Roe met Mrs. Poe and Ms. Lo at St. Louis, Jr. High."]);
        assert_eq!(
            split("SEC v. William R. Schantz, Civil Action No. 5, in the U.S. District Court."),
            ["SEC v. William R. Schantz, Civil Action No. 5, in the U.S. District Court."]
        );
        assert_eq!(
            split("Filed Sept. 5, 2001 and Jan. 3, 2002 (Nos. 1 and 2), e.g. here, i.e. there, vs. them."),
            ["Filed Sept. 5, 2001 and Jan. 3, 2002 (Nos. 1 and 2), e.g. here, i.e. there, vs. them."]
        );
        assert_eq!(split("X, a.k.a. Y, of the U.K. office wired funds."), ["X, a.k.a. Y, of the U.K. office wired funds."]);
        // A legal form or "U.S." ends a sentence before a word that opens one.
        assert_eq!(
            split("It paid Acme Corp. The next day it paid Beta Co. He left the U.S. In May he returned."),
            ["It paid Acme Corp.", "The next day it paid Beta Co.", "He left the U.S.", "In May he returned."]
        );
        // … nor inside a closing bracket before words in lower case; before an opener it does.
        assert_eq!(
            split("The SEC sued Acme LLC (f/k/a Beta Corp.) and Roe. It named Gamma (formerly Delta Inc.) The rest settled."),
            ["The SEC sued Acme LLC (f/k/a Beta Corp.) and Roe.", "It named Gamma (formerly Delta Inc.)", "The rest settled."]
        );
        // … nor before a number: "Executive Order (E.O.) 14024".
        assert_eq!(split("X is designated pursuant to Executive Order (E.O.) 14024 today."), ["X is designated pursuant to Executive Order (E.O.) 14024 today."]);
        // Curly closing quotes stay with their sentence.
        assert_eq!(split("He said “stop.” Then he left."), ["He said “stop.”", "Then he left."]);
        // A Federal Register citation is one sentence's.
        assert_eq!(
            split("See Interpretive Release 2004-1, 69 Fed. Reg. 74,439 (Dec. 14, 2004). It applies."),
            ["See Interpretive Release 2004-1, 69 Fed. Reg. 74,439 (Dec. 14, 2004).", "It applies."]
        );
    }

    #[test]
    fn line_ends_in_hard_wrapped_and_one_paragraph_per_line_text() {
        // Hard-wrapped: sentences run across line ends; a blank line (even with spaces on it) ends one.
        let wrapped = "The Commission filed a complaint against\nAcme Corp. today\n   \nLitigation Release No. 5\n\nNext paragraph.";
        assert_eq!(split(wrapped), ["The Commission filed a complaint against\nAcme Corp. today", "Litigation Release No. 5", "Next paragraph."]);
        // One paragraph per line: every line break ends a sentence, headings included.
        let long = "x".repeat(130);
        let para = format!(
            "Litigation Release No. 20842 / January 5, 2009\nSEC v. Anthony A. James\nOn December 23, 2008, the U.S. Attorney filed charges against James {long}\nIn September 2008 the Commission sued him {long}"
        );
        let got = split(&para);
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(got[0], "Litigation Release No. 20842 / January 5, 2009");
        assert_eq!(got[1], "SEC v. Anthony A. James");
        assert!(got[3].starts_with("In September 2008"));
    }

    #[test]
    fn a_stacked_caption_is_one_sentence() {
        let judgment = "UNITED STATES DISTRICT COURT\nSOUTHERN DISTRICT OF FLORIDA\n\nSECURITIES AND EXCHANGE COMMISSION, Plaintiff,\n\nv.\n\nBRIGHTWATER CAPITAL LLC and ALAN J. FERREIRA, Defendants.\n\nIT IS HEREBY ORDERED that Defendant pays.";
        assert_eq!(
            split(judgment),
            [
                "UNITED STATES DISTRICT COURT\nSOUTHERN DISTRICT OF FLORIDA",
                "SECURITIES AND EXCHANGE COMMISSION, Plaintiff,\n\nv.\n\nBRIGHTWATER CAPITAL LLC and ALAN J. FERREIRA, Defendants.",
                "IT IS HEREBY ORDERED that Defendant pays."
            ]
        );
        // (Also where long lines make every line a paragraph.)
        let long = "SECURITIES AND EXCHANGE COMMISSION, Plaintiff,\n\nv.\n\nBRIGHTWATER CAPITAL LLC and ALAN J. FERREIRA, Defendants.\n\nIT IS HEREBY ORDERED, ADJUDGED, AND DECREED that Defendant Alan J. Ferreira is liable for disgorgement of $845,000, together with prejudgment interest thereon in the amount of $61,230, and a civil penalty in the amount of $150,000.";
        assert_eq!(split(long)[0], "SECURITIES AND EXCHANGE COMMISSION, Plaintiff,\n\nv.\n\nBRIGHTWATER CAPITAL LLC and ALAN J. FERREIRA, Defendants.");
    }

    #[test]
    fn a_fields_line_is_a_sentence_of_its_own() {
        let memo = "MEMORANDUM\n\nTo: Compliance Review Committee\nFrom: Dana Whitfield, AML Investigations\nDate: 4 March 2024\nRe: Wires\n\nThe wires were\nsent in March. See:\nhttp://x.test/a\nNote that it ends.\n\nSubject:\nTransactions\nInvolving Israel\nDate:\nJuly 2000";
        assert_eq!(
            split(memo),
            [
                "MEMORANDUM",
                "To: Compliance Review Committee",
                "From: Dana Whitfield, AML Investigations",
                "Date: 4 March 2024",
                "Re: Wires",
                "The wires were\nsent in March.",
                "See:\nhttp://x.test/a\nNote that it ends.",
                "Subject:\nTransactions\nInvolving Israel\nDate:\nJuly 2000"
            ]
        );
    }
}
