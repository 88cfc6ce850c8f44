//! Extraction: canonical documents → entities, mentions and claims under the closed
//! vocabulary, each fact citing the exact bytes it came from (issue 5).
//!
//! Model-free and deterministic: lexicons and patterns ([`entities`]), templates of
//! typed placeholders for relations ([`relations`]), cue lexicons for modality
//! ([`modality`]), and defined terms and pronouns resolved to the nearest compatible
//! antecedent (coreference; claims that rest on it are tagged INFERRED and cite the
//! antecedent). Tables (CSV wire logs) yield claims from their columns. Every claim is
//! checked against the [`vocab::Vocabulary`] before it is emitted.

#![forbid(unsafe_code)]

pub mod acronyms;
pub mod aliases;
pub mod authorities;
pub mod captions;
pub mod clause;
mod defendant_lists;
pub mod demonyms;
pub mod employment;
pub mod enforcement;
pub mod entities;
pub mod eval;
pub mod eval_docred;
pub mod identifiers;
pub mod modality;
pub mod ner;
pub mod ner_train;
mod placeholders;
pub mod relations;
pub mod roles;
pub mod totals;
pub mod vocab;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use regex::Regex;

use entities::{Mention, collapse, name_key};
use modality::Modality;
use tg_store::{Arg, CitedFact, PackedFacts, Tag};
use tg_text::document::{Field, Span};
use vocab::Vocabulary;

/// What extraction reads of a canonical document.
#[derive(Clone, Debug)]
pub struct Input<'a> {
    /// Document id.
    pub id: &'a str,
    /// Canonical text.
    pub text: &'a str,
    /// Sentence spans, in order.
    pub sentences: &'a [Span],
    /// Structured fields (CSV rows, JSON records).
    pub fields: &'a [Field],
    /// Message senders and recipients as written, with their spans (known people).
    pub people: &'a [(String, Span)],
    /// The document's own date (ISO 8601), for relative dates.
    pub date: Option<String>,
}

/// A claim as extracted, before it becomes facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Content id.
    pub id: String,
    /// Subject entity key and type.
    pub subject: (String, &'static str),
    /// Relation (a vocabulary name: no string a claim).
    pub rel: &'static str,
    /// Object entity key and type.
    pub object: (String, &'static str),
    /// How the source holds it.
    pub modality: Modality,
    /// The asserting party's entity key, or `document` (borrowed: most claims are the document's).
    pub asserter: std::borrow::Cow<'static, str>,
    /// The quote span.
    pub quote: Span,
    /// Extra values (attribute name, value) with the spans stating them.
    pub attrs: Vec<(&'static str, String, Span)>,
    /// Validity date (ISO) with its span.
    pub valid: Option<(String, Span)>,
    /// Correction cue with its span.
    pub correction: Option<(String, Span)>,
    /// Antecedent mentions that coreference used: (entity key, antecedent span, referring span).
    pub antecedents: Vec<(String, Span, Span)>,
    /// The spans of the subject and object mentions in the quote (sentence claims; `None`
    /// for claims from table rows, whose parties are cells).
    pub args: Option<(Span, Span)>,
}

/// What extraction made of a document.
#[derive(Clone, Debug, Default)]
pub struct Extraction {
    /// Entity mentions (coreferring ones included, with `coref` set).
    pub mentions: Vec<(Mention, Option<Span>)>,
    /// Claims.
    pub claims: Vec<Claim>,
    /// Claims the vocabulary refused, with the reason.
    pub refused: Vec<String>,
    /// Parties listed side by side ([`aliases`]): never the same entity.
    pub listed: Vec<aliases::Listed>,
    /// Registry identifiers stated beside a party's name ([`identifiers`]).
    pub identifiers: Vec<identifiers::Stated>,
}

/// The largest char boundary of `text` at or before `i` (clamped to its length).
pub(crate) fn floor_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn hex16(parts: &[&str]) -> String {
    let mut h = blake3::Hasher::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update(&[0]);
    }
    h.finalize().to_hex()[..16].to_string()
}

/// The document's own date: a `Date:` header line near the top, else the first message time.
fn document_date(text: &str, given: Option<String>) -> Option<String> {
    let head = &text[..floor_boundary(text, 2000)];
    if let Some(value) = header_value(head)
        && let Some(d) = entities::find(text, value, None).into_iter().find(|x| x.kind == "Date" && x.key.len() == "Date:2024-01-01".len())
    {
        return Some(d.key["Date:".len()..].to_string());
    }
    given.filter(|g| g.len() >= 10 && g[..10].parse::<jiff::civil::Date>().is_ok()).map(|g| g[..10].to_string())
}

/// The span of the value of the first header line `Date:`, `Dated:` or `Sent:` in `head`
/// (any case; whitespace around the colon), as the regex `(?im)^\s*(?:date|dated|sent)\s*:\s*(.+)$`
/// finds it. A hand scan: that regex has no literal to look for, and it was a twentieth of
/// extraction's time on short documents.
fn header_value(head: &str) -> Option<Span> {
    let space = |from: usize| from + head[from..].len() - head[from..].trim_start().len();
    let mut pos = 0;
    loop {
        let line_end = head[pos..].find('\n').map_or(head.len(), |i| pos + i);
        let body = space(pos);
        for name in ["date", "dated", "sent"] {
            let end = body + name.len();
            if !head.get(body..end).is_some_and(|w| w.eq_ignore_ascii_case(name)) {
                continue;
            }
            let colon = space(end);
            if !head[colon..].starts_with(':') {
                continue;
            }
            // `\s*(.+)$`: the rest of the first line with something on it after the colon;
            // when only whitespace follows, the regex backs off to its last character that
            // is not a line break.
            let mut v = space(colon + 1);
            if v == head.len() {
                match head[colon + 1..].char_indices().rev().find(|(_, c)| *c != '\n') {
                    Some((i, _)) => v = colon + 1 + i,
                    None => continue,
                }
            }
            let v_end = head[v..].find('\n').map_or(head.len(), |i| v + i);
            if v_end > v {
                return Some((v, v_end));
            }
        }
        if line_end == head.len() {
            return None;
        }
        pos = line_end + 1;
    }
}

/// Whether the text after a name opens with the word "Act" ("… Act of 1940", "… Act."): the
/// name is then a law's title, cut.
fn before_act(after: &str) -> bool {
    let Some(rest) = after.strip_prefix([' ', '\n']) else { return false };
    rest.strip_prefix("Act").is_some_and(|r| r.strip_prefix('s').unwrap_or(r).chars().next().is_none_or(|c| !c.is_alphanumeric()))
}

/// The spans of a sentence that name storms: "Hurricane Katrina", "Hurricanes Harvey, Irma,
/// and Maria", "Tropical Storm Allison", "Typhoon Haiyan", with the storm's word; `None`
/// for a sentence without one.
fn storm_names(sentence: &str) -> Option<Vec<(usize, usize)>> {
    static STORM: LazyLock<Regex> =
        LazyLock::new(|| entities::re(r"\b(?:Hurricanes?|Tropical\s+Storms?|Typhoons?|Cyclones?|Superstorm)\s+\p{Lu}\p{Ll}+(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)\p{Lu}\p{Ll}+)*"));
    if !["urricane", "Storm", "yphoon", "yclone"].iter().any(|w| sentence.contains(w)) {
        return None;
    }
    let found: Vec<(usize, usize)> = STORM.find_iter(sentence).map(|m| (m.start(), m.end())).collect();
    (!found.is_empty()).then_some(found)
}

/// Whether a name runs into the words "Press Release(s)" (`after`: the text after it), as
/// a web page's menu and heading do: no name is so written.
fn in_press_release_heading(surface: &str, after: &str) -> bool {
    // (Most names have no "Press" in them.)
    if !surface.contains("Press") {
        return false;
    }
    let mut words = surface.split_whitespace().peekable();
    while let Some(w) = words.next() {
        if w == "Press" && words.peek().is_some_and(|n| n.starts_with("Release")) {
            return true;
        }
    }
    surface.ends_with(" Press") && after.strip_prefix(' ').is_some_and(|r| r.starts_with("Release"))
}

/// Whether a name in capitals names a kind of people or of business, not one: its last
/// word a plural of roles, departments or institutions ("Tellers", "Departments",
/// "Institutions", "Fraudsters"), every word before it an English word, an acronym
/// ("AML/BSA", "U.S.") or "and" ("Legal and Compliance Departments"). A name with "of" is
/// a body's ("Bureau of Financial Institutions"), one with a word no dictionary lists a
/// proper name ("Lehman Brothers" has no plural of the list anyway).
fn names_a_kind(surface: &str) -> bool {
    const KINDS: &[&str] = &[
        "agents",
        "analysts",
        "businesses",
        "counterparties",
        "customers",
        "departments",
        "employees",
        "facilitators",
        "fraudsters",
        "institutions",
        "investigators",
        "managers",
        "officers",
        "officials",
        "principals",
        "professionals",
        "tellers",
        "units",
    ];
    // (Every word of the list is a plural in "s": most names end otherwise.)
    if !surface.ends_with('s') {
        return false;
    }
    let mut words = surface.split_whitespace().rev();
    if !words.next().is_some_and(|last| KINDS.iter().any(|k| k.eq_ignore_ascii_case(last))) {
        return false;
    }
    let acronym = |w: &str| w.chars().any(|c| c.is_ascii_uppercase()) && w.chars().all(|c| c.is_ascii_uppercase() || matches!(c, '.' | '/' | '&'));
    let body = |w: &str| matches!(w, "of" | "for" | "on" | "the" | "The");
    words.all(|w| !body(w) && (w == "and" || acronym(w) || w.split('-').all(ner::is_english_word)))
}

/// The extraction of `text` read as one document with the built-in vocabulary (tests).
#[cfg(test)]
fn extracted(text: &str) -> Extraction {
    let sents = tg_text::chunk::sentences(text, 0, text.len());
    extract(&Input { id: "t", text, sentences: &sents, fields: &[], people: &[], date: None }, Vocabulary::builtin())
}

#[cfg(test)]
mod header_tests {
    use super::header_value;

    #[test]
    fn header_lines_as_the_regex_reads_them() {
        fn v(h: &str) -> Option<&str> {
            header_value(h).map(|(a, b)| &h[a..b])
        }
        assert_eq!(v("From: a@b.c\nDate: Mon, 4 Mar 2024 10:00\nSubject: x"), Some("Mon, 4 Mar 2024 10:00"));
        assert_eq!(v("  DATED :  4 March 2024\r\nx"), Some("4 March 2024\r"));
        assert_eq!(v("Sent:\n\n  4 March 2024\n"), Some("4 March 2024"));
        assert_eq!(v("Update: none\nThe date: is not a header"), None);
        assert_eq!(v("Memo\nDate 4 March"), None);
        assert_eq!(v("Date:"), None);
    }

    /// Every arrangement of a few header fragments gives the span the regex gives.
    #[test]
    fn header_scan_equals_the_regex() {
        let re = regex::Regex::new(r"(?im)^\s*(?:date|dated|sent)\s*:\s*(.+)$").unwrap_or_else(|e| panic!("{e}"));
        let parts = ["Date", "dated", "SENT", "x", ":", " ", "\t", "\n", "\r\n", "4 May", "é", "Dat"];
        let mut n = 0u64;
        for a in parts {
            for b in parts {
                for c in parts {
                    for d in parts {
                        let h = format!("{a}{b}{c}{d}");
                        let want = re.captures(&h).and_then(|c| c.get(1)).map(|m| (m.start(), m.end()));
                        assert_eq!(header_value(&h), want, "{h:?}");
                        n += 1;
                    }
                }
            }
        }
        assert_eq!(n, 12u64.pow(4));
    }
}

/// Defined terms: `Acme Trading Ltd ("Acme")`, `Beta Holdings SA (the "Beneficiary")`, also
/// after a comma (`Acme Trading, Incorporated, ("Acme")`) and after the description a
/// contract gives its party (`Acme Solar Inc., a Delaware corporation ("Borrower")`: the
/// term names the party the description follows, when no other party is named in it).
fn defined_terms(text: &str, mentions: &[&Mention]) -> Vec<(String, usize)> {
    // The term in brackets and quotes, after a name or after its description.
    // (A second term may follow: "(\"Norrland\" or the \"Company\")".)
    const TERM: &str = r#"\((?:the\s+|hereinafter\s+)?["“]([^"”()]{1,40})["”](?:\s*,?\s+(?:or|and)\s+(?:the\s+)?["“][^"”()]{1,40}["”])?\)"#;
    static DEF: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(&format!(r"^,?\s*{TERM}")));
    static DESCRIBED: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(&format!(r#"^,\s*(?:a|an)\s+[^()"“”;\n]{{1,120}}?\s*{TERM}"#)));
    let mut out = vec![];
    for (i, m) in mentions.iter().enumerate() {
        if !matches!(m.kind, "Organization" | "Person") {
            continue;
        }
        let after = &text[m.span.1..floor_boundary(text, m.span.1 + 60)];
        // The pattern opens with spaces and a parenthesis: most names have none after them.
        if after.strip_prefix(',').unwrap_or(after).trim_start().starts_with('(') {
            if let Some(c) = DEF.captures(after)
                && let Some(t) = c.get(1)
            {
                // (A party named before whose words the term is owns it; otherwise the
                // words before may be a title the term shortens.)
                let mut owner = term_owner(text, mentions, i, t.as_str());
                // A term after a name that an alias cue gives ("X, f/k/a Y (\"Z\")") is the
                // party's, named first.
                while owner > 0
                    && matches!(mentions[owner - 1].kind, "Organization" | "Person")
                    && mentions[owner - 1].span.1 <= mentions[owner].span.0
                    && aliases::is_cue_between(&text[mentions[owner - 1].span.1..mentions[owner].span.0])
                {
                    owner -= 1;
                }
                if owner != i || !titles_the_party(text, m, t.as_str()) {
                    out.push((t.as_str().to_string(), owner));
                }
            }
            continue;
        }
        if !(after.starts_with(", a ") || after.starts_with(", an ")) {
            continue;
        }
        let after = &text[m.span.1..floor_boundary(text, m.span.1 + 200)];
        if let Some(c) = DESCRIBED.captures(after)
            && let Some(t) = c.get(1)
        {
            // No other party named inside the description (a place may be: "a Delaware
            // corporation").
            let end = m.span.1 + t.start();
            let other = mentions[i + 1..].iter().take_while(|x| x.span.0 < end).any(|x| matches!(x.kind, "Organization" | "Person"));
            if !other {
                out.push((t.as_str().to_string(), i));
            }
        }
    }
    out
}

/// A defined term's or a name's words, lower-cased, without the punctuation around them,
/// as the two tests of a term's owner compare them.
fn term_words(s: &str) -> Vec<String> {
    s.split_whitespace().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase()).filter(|w| !w.is_empty()).collect()
}

/// Whether `term`, defined right after the party `m`, names a thing whose title ends with
/// the party rather than the party: "a Final Judgment Of Permanent Injunction And Other
/// Relief Against Jerry A. Womack (\"Final Judgment\")" defines the judgment, not Womack.
/// The term's words are then all written in the clause before the name and none in it.
fn titles_the_party(text: &str, m: &Mention, term: &str) -> bool {
    let before = &text[floor_boundary(text, m.span.0.saturating_sub(200))..m.span.0];
    let clause = before.rsplit(['\n', ';']).next().unwrap_or_default();
    let clause = clause.rsplit(". ").next().unwrap_or_default();
    let (wanted, own, written) = (term_words(term), term_words(&m.surface), term_words(clause));
    !wanted.is_empty() && wanted.iter().all(|w| !own.contains(w) && written.contains(w))
}

/// Whose defined term `term`, written after mention `i`, is: `i`'s, unless the term is
/// made of words of a party named just before it and none of `i`'s own ("Gary L.
/// McNaughton, individually and d/b/a The Haven Equity Company (\"McNaughton\")": the
/// term is the man's, not his business's).
fn term_owner(text: &str, mentions: &[&Mention], i: usize, term: &str) -> usize {
    let wanted = term_words(term);
    let within = |m: &Mention| {
        let own = term_words(&m.surface);
        !wanted.is_empty() && wanted.iter().all(|w| own.contains(w))
    };
    if within(mentions[i]) {
        return i;
    }
    let start = mentions[i].span.0;
    (0..i)
        .rev()
        .take(3)
        .take_while(|&j| start - mentions[j].span.1.min(start) <= 120 && !text[mentions[j].span.1.min(start)..start].contains(['\n', ';', '.']))
        .find(|&j| matches!(mentions[j].kind, "Organization" | "Person") && within(mentions[j]))
        .unwrap_or(i)
}

/// A full name's surname: its last word before a generation ("David E. Ross II"); `None`
/// for a name of one word.
fn surname(name: &str) -> Option<&str> {
    let mut words = name.split_whitespace().rev().filter(|w| !matches!(w.trim_end_matches([',', '.']), "Jr" | "Sr" | "II" | "III" | "IV"));
    let last = words.next()?;
    words.next().map(|_| last)
}

/// Two people who share a surname, named once: in "Mary and Christian Young were
/// indicted", "Mary" is Mary Young. A given name alone, right before "and" and a person
/// named in full, takes that person's surname in its key (its span stays the word written),
/// unless the document names someone in full with that word as the surname ("LoBue and
/// Todd Hansen" after "Nicholas LoBue").
fn shared_surnames(text: &str, per_sentence: &mut [Vec<Mention>]) {
    let pair = |a: &Mention, b: &Mention| {
        a.kind == "Person"
            && b.kind == "Person"
            && !a.surface.contains(' ')
            && a.span.1 <= b.span.0
            && text.get(a.span.1..b.span.0) == Some(" and ")
            && b.surface.split_whitespace().count() >= 2
            && ner::is_given_name(&a.surface)
    };
    if !per_sentence.iter().any(|ms| ms.windows(2).any(|w| pair(&w[0], &w[1]))) {
        return;
    }
    let surnames: std::collections::BTreeSet<String> =
        per_sentence.iter().flatten().filter(|m| m.kind == "Person").filter_map(|m| surname(&m.surface).map(str::to_lowercase)).collect();
    for ms in per_sentence.iter_mut() {
        for k in 1..ms.len() {
            let (a, b) = (&ms[k - 1], &ms[k]);
            if !pair(a, b) || surnames.contains(&a.surface.to_lowercase()) {
                continue;
            }
            let Some(last) = surname(&b.surface) else { continue };
            let key = format!("Person:{}", name_key(&format!("{} {last}", a.surface)));
            ms[k - 1].key = key;
        }
    }
}

/// The short name of an organisation's full name: the name without the legal forms it ends
/// with ("World Homes" of "World Homes, Inc.", "Options Group Trading" of "Options Group
/// Trading Company"), which a document goes on to write once it has named the company in
/// full. `None` when the name states no legal form, or when what is left could be a word of
/// prose (one English word, "Capital" of "Capital, Inc."; a demonym) or ends on no name's word.
fn short_name(surface: &str) -> Option<&str> {
    let mut stem = surface;
    loop {
        let head = stem.trim_end_matches([',', ' ']);
        let Some(at) = head.rfind(' ') else { break };
        if tg_text::names::legal_form(&format!("x {}", &head[at + 1..])).is_empty() {
            break;
        }
        stem = head[..at].trim_end_matches([',', ' ']);
    }
    (stem.len() < surface.len() && could_name_a_company(stem)).then_some(stem)
}

/// Whether what is left of a company's name could still name it: it begins and ends on a
/// name's word, not "The", and is not a word of prose (one English word, "Capital"; a
/// demonym, "Venezuelan" of "Venezuelan Corporation of Foreign Trade"; under three letters).
fn could_name_a_company(stem: &str) -> bool {
    let words: Vec<&str> = stem.split_whitespace().collect();
    let named = |w: &str| w.chars().next().is_some_and(|c| c.is_uppercase() || c.is_ascii_digit());
    let prose = words.len() == 1
        && (stem.chars().any(char::is_lowercase) && ner::is_english_word(stem) || stem.chars().filter(|c| c.is_alphabetic()).count() < 3 || demonyms::country_of(stem).is_some());
    words.first().is_some_and(|w| named(w) && *w != "The") && words.last().is_some_and(|w| named(w)) && !prose
}

/// A company's first two words as a name of its own, of a short name of three words or
/// more ("Golden Palms" of "Golden Palms Card Club, LLC"): not a person's name that names the
/// company ("Robert Lowes" of "Robert Lowes Trading Co."; a given name that is also an
/// English word, "Golden" of "Golden Falcon General Trading LLC", is the company's), nor a place ("United States" of
/// "United States Steel Corp."), nor words joined by "of" or "and".
fn leading_words(short: &str) -> Option<&str> {
    let words: Vec<&str> = short.split_whitespace().collect();
    if words.len() < 3 {
        return None;
    }
    let named = |w: &str| w.starts_with(char::is_uppercase) && w.chars().all(|c| c.is_alphabetic() || c == '-');
    let end = words[0].len() + 1 + words[1].len();
    let stem = short.get(..end).filter(|s| s.split_whitespace().count() == 2)?;
    (named(words[0]) && named(words[1]) && (!ner::is_given_name(words[0]) || ner::is_english_word(words[0])) && !ner::is_listed_place(stem) && could_name_a_company(stem))
        .then_some(stem)
}

/// A company's first word as a name of its own: of a short name of two words or more, a
/// capitalised word of four letters or more that is no common word, place, given name,
/// demonym, organisation word or determiner ("Halcyon" of "Halcyon Surgical Systems"; not
/// "First" of "First Atlantic Bank", "Summit" of "Summit Ridge Securities", "Texas" of
/// "Texas Instruments").
fn first_word_stem(short: &str) -> Option<&str> {
    first_word(short).filter(|w| !ner::is_given_name(w))
}

/// [`first_word_stem`]'s shape, the word a given name ("Halvard" of "Halvard Logistics Group
/// Inc."): the company's only where no person of the document bears it as a first name
/// (the caller's test).
fn first_word(short: &str) -> Option<&str> {
    first_word_shape(short).filter(|w| !ner::is_listed_place(w))
}

/// [`first_word`] without its test for a listed place: the word a town's name
/// ("Westbrook" of "Westbrook Aerospace Distributors Inc."), the company's only where the
/// document names no place with it (the caller's test) and it is no state's.
fn first_word_shape(short: &str) -> Option<&str> {
    let mut words = short.split_whitespace();
    let first = words.next()?;
    words.next()?;
    let shaped = first.len() >= 4 && first.chars().all(char::is_alphabetic) && first.starts_with(char::is_uppercase);
    (shaped && !ner::is_common_word(first) && !ner::is_org_word(first) && !ner::is_determiner(first) && demonyms::country_of(first).is_none()).then_some(first)
}

/// Whether `word` is a listed given name, with its accents or without ("Lucía" as
/// "Lucia", "Andrés" as "Andres": the list spells names in ASCII).
fn given_name(word: &str) -> bool {
    if ner::is_given_name(word) {
        return true;
    }
    if word.is_ascii() {
        return false;
    }
    let folded: String = word
        .chars()
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' => 'a',
            'Á' | 'À' | 'Â' | 'Ä' | 'Ã' | 'Å' => 'A',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'É' | 'È' | 'Ê' | 'Ë' => 'E',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'Í' | 'Ì' | 'Î' | 'Ï' => 'I',
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'ø' => 'o',
            'Ó' | 'Ò' | 'Ô' | 'Ö' | 'Õ' | 'Ø' => 'O',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'Ú' | 'Ù' | 'Û' | 'Ü' => 'U',
            'ñ' => 'n',
            'Ñ' => 'N',
            'ç' => 'c',
            'Ç' => 'C',
            other => other,
        })
        .collect();
    ner::is_given_name(&folded)
}

/// Whether `text` writes `word` as a town somewhere: after "in" ("in Westbrook") or before
/// its state or country ("Westbrook, Maine").
fn written_as_town(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let e = i + word.len();
        if text[..i].ends_with(char::is_alphanumeric) || text[e..].starts_with(char::is_alphanumeric) {
            return false;
        }
        let region = text[e..].strip_prefix(", ").map(|r| r.split(|c: char| !c.is_alphabetic() && c != ' ').next().unwrap_or_default().trim());
        let region = region.is_some_and(|r| {
            let mut words: Vec<&str> = r.split(' ').take(3).collect();
            while !words.is_empty() {
                let name = words.join(" ");
                if entities::is_state_name(&name) || demonyms::is_country(&name) {
                    return true;
                }
                words.pop();
            }
            false
        });
        region || text[..i].ends_with(" in ") || text[..i].ends_with("\nin ")
    })
}

/// Whether words of a name name a listed place or a country's people: one word or two
/// ("India", "North America", "Nicaragua", "Hellenic").
fn names_a_place(words: &str) -> bool {
    let ws: Vec<&str> = words.split_whitespace().collect();
    ws.iter().any(|w| ner::is_listed_place(w) || demonyms::country_of(w).is_some()) || ws.windows(2).any(|p| ner::is_listed_place(&p.join(" ")))
}

/// Words that say what line of business a company is in, which a document drops with the
/// legal form once it has named the company in full ("Granite State" of "Granite State
/// Bankshares, Inc.", "Media Vision" of "Media Vision Technology, Inc.").
const BUSINESS_WORDS: &[&str] = &[
    "Bankshares",
    "Bancshares",
    "Bancorp",
    "Bancorporation",
    "Holdings",
    "Holding",
    "Group",
    "Technology",
    "Technologies",
    "Industries",
    "International",
    "Enterprises",
    "Systems",
    "Financial",
    "Partners",
    "Associates",
    "Communications",
    "Resources",
    "Ventures",
    "Investments",
    "Pharmaceuticals",
    "Laboratories",
    "Networks",
    "Solutions",
    "Services",
    "Energy",
    "Airlines",
    "Airways",
    "Software",
    "Motors",
    "Capital",
    "Securities",
    "Insurance",
    "Properties",
    "Realty",
    "Media",
    "Entertainment",
    "Advisors",
    "Advisers",
    "Advisory",
    "Management",
    "Consulting",
];

/// A company's shorter short name: its [`short_name`] (`short`) without a last word that
/// names its line of business ([`BUSINESS_WORDS`]), when what is left could still name a
/// company ("Granite State"; not "Granite" of "Granite Bancorp, Inc.", one English word).
fn business_stem(short: &str) -> Option<&str> {
    let (stem, last) = short.rsplit_once(' ')?;
    let stem = stem.trim_end_matches([',', ' ']);
    (BUSINESS_WORDS.contains(&last) && could_name_a_company(stem)).then_some(stem)
}

/// News writes a company's line of business before its name at the start of a sentence
/// ("Drugmaker Sanofi SA said …", "Automaker Ford Motor Co. will …"), where the capital
/// makes the noun read as the name's first word: the name without it. `None` when the
/// first word names no line of business or no capitalised word follows it.
fn without_opening_business_noun(name: &str) -> Option<&str> {
    const NOUNS: &[&str] = &[
        "retailer",
        "insurer",
        "reinsurer",
        "lender",
        "miner",
        "brewer",
        "refiner",
        "distiller",
        "wholesaler",
        "conglomerate",
        "rival",
        "startup",
        "biotech",
        "broker",
        "brokerage",
    ];
    let (first, rest) = name.split_once(' ')?;
    let lower = first.to_lowercase();
    let noun = (lower.len() > 5 && lower.ends_with("maker")) || NOUNS.contains(&lower.as_str());
    let rest = rest.trim_start();
    (noun && first.starts_with(char::is_uppercase) && rest.starts_with(char::is_uppercase)).then_some(rest)
}

/// A name a footnote's "See" opens ("See FBI", "See U.S. Department of State"), without it.
fn after_see(name: &str) -> Option<&str> {
    name.strip_prefix("See ").map(str::trim_start).filter(|r| r.starts_with(char::is_uppercase))
}

/// A name a place's "-based" opens ("China-based Bank of Dandong", "Texas-based ArthroCare
/// Corp."; a country, a U.S. state or a listed place), without it: the name is what
/// follows, unless that is one English word ("China-Based Company" keeps its words:
/// "Company" alone names nothing).
fn after_based(name: &str) -> Option<&str> {
    // (Most names hold no hyphen, and no "-based": searches say so.)
    if !name.contains('-') {
        return None;
    }
    let at = name.find("-based ").or_else(|| name.find("-Based "))?;
    // (The modifier opens the name: not the "Russia-based" inside a headline's "Treasury
    // Sanctions Russia-based Bank", nor "Evidence-Based".)
    let place = &name[..at];
    if !demonyms::is_country(place) && !entities::is_state_name(place) && !ner::is_listed_place(place) {
        return None;
    }
    let rest = name[at + "-based ".len()..].trim_start();
    let one_english_word = !rest.contains(' ') && ner::is_english_word(rest);
    (rest.starts_with(char::is_uppercase) && !one_english_word).then_some(rest)
}

/// Whether the words after an "it" make it the empty subject of an attribution or a
/// judgement ("it is (further) alleged that", "it was reported", "it is unclear whether",
/// "it appears that"), which refers to nothing.
fn expletive_it(after: &str) -> bool {
    static EXPLETIVE: LazyLock<Regex> = LazyLock::new(|| {
        entities::re(
            r"^(?:is|was|has\s+been|had\s+been|(?:should|must|may|might|can|could|would|will)\s+(?:also\s+|further\s+)?be)\s+(?:also\s+|further\s+|now\s+|widely\s+|generally\s+|hereby\s+)?(?:alleged|ordered|adjudged|decreed|reported|believed|estimated|expected|understood|claimed|unclear|not\s+clear|clear|possible|likely\s+that|known\s+that|noted|important|emphasi[sz]ed|stressed|recogni[sz]ed|remembered|pointed\s+out|necessary|essential|worth\s+noting)\b|^(?:appears|appeared|seems|seemed)\s+that\b",
        )
    });
    EXPLETIVE.is_match(after)
}

/// Whether an opening quote stands right before byte `at` (`"Acme"`, `“Acme”`): a term's
/// definition, not a use of it.
fn after_open_quote(text: &str, at: usize) -> bool {
    text[..at].ends_with(['"', '“'])
}

/// The word (letters) that ends before byte `at`, spaces skipped; empty if none.
fn word_before(text: &str, at: usize) -> &str {
    let head = text[..at].trim_end();
    let start = head.char_indices().rev().take_while(|(_, c)| c.is_alphabetic()).last().map_or(head.len(), |(i, _)| i);
    &head[start..]
}

/// The sentence (of sorted, disjoint sentences) that contains `span`, if one does.
fn containing(sentences: &[Span], span: Span) -> Option<&Span> {
    sentences.get(sentences.partition_point(|s| s.1 < span.1)).filter(|s| s.0 <= span.0 && span.1 <= s.1)
}

fn is_word_boundary(text: &str, s: usize, e: usize) -> bool {
    let before = text[..s].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
    let after = text[e..].chars().next().is_none_or(|c| !c.is_alphanumeric());
    before && after
}

/// The capitals of each name of two words or more that has lower-case letters and four
/// letters or more, with the name's index ("John K. McQuade": "JOHN K. MCQUADE"): how a
/// caption writes it. (One word in capitals is too often a heading's, a path's or a
/// folder's: "KITCHEN", "GERMANY", "\DASOVICH-J\".)
fn capitals_of(names: &[&str]) -> Vec<(String, usize)> {
    names
        .iter()
        .enumerate()
        .filter(|(_, n)| n.contains(' ') && n.chars().any(char::is_lowercase) && n.chars().filter(|c| c.is_alphabetic()).count() >= 4)
        .map(|(i, n)| (n.to_uppercase(), i))
        .collect()
}

/// `text` with each run of ASCII white space (spaces, tabs, line breaks) one space, and the
/// offset in `text` of each of its bytes: a name wrapped over two lines ("JOSEPH E.⏎GRENDI",
/// also after a CR LF) reads as written on one.
fn one_line(text: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut at = Vec::with_capacity(text.len());
    let mut white = false;
    for (i, c) in text.char_indices() {
        if c.is_ascii_whitespace() {
            if !white {
                out.push(' ');
                at.push(i);
            }
            white = true;
            continue;
        }
        white = false;
        out.push(c);
        at.extend(i..i + c.len_utf8());
    }
    (out, at)
}

/// [`find_all`] in `text[scope]`, the hits' offsets into `text`.
fn find_within(text: &str, scope: Span, patterns: &[&str]) -> Vec<(usize, usize, usize)> {
    let mut hits = find_all(&text[scope.0..scope.1], patterns);
    for h in &mut hits {
        h.0 += scope.0;
        h.1 += scope.0;
    }
    hits
}

/// `text[scope]` as written on one line ([`one_line`]), made once per document and only
/// when it has any other white space than single spaces (else it reads as it is).
fn lines_of(text: &str, scope: Span) -> Option<(String, Vec<usize>)> {
    let region = &text[scope.0..scope.1];
    let wrapped = region.bytes().any(|b| b.is_ascii_whitespace() && b != b' ') || region.contains("  ");
    wrapped.then(|| one_line(region))
}

/// [`find_within`] where a name may be wrapped over lines ("Bol⏎Mel", text from a PDF or
/// a release wrapped at 75 columns): `text[scope]` is searched as written on one line
/// (`lines`, from [`lines_of`]: each run of white space one space, as the patterns are
/// written); the hits are the text's own bytes, first to last letter.
fn find_within_lines(text: &str, scope: Span, lines: Option<&(String, Vec<usize>)>, patterns: &[&str]) -> Vec<(usize, usize, usize)> {
    match lines {
        Some((flat, at)) if !patterns.is_empty() => find_all(flat, patterns).into_iter().map(|(s, e, k)| (at[s] + scope.0, at[e - 1] + 1 + scope.0, k)).collect(),
        _ => find_within(text, scope, patterns),
    }
}

/// Non-overlapping occurrences of `patterns` in `text`, leftmost first and longest at a
/// position: (start, end, pattern index). One Aho-Corasick pass for many patterns; for a
/// few, a substring search each (an automaton costs more to build than they cost to scan).
fn find_all(text: &str, patterns: &[&str]) -> Vec<(usize, usize, usize)> {
    let mut hits: Vec<(usize, usize, usize)> = vec![];
    if patterns.len() > 16 {
        // Up to 127 patterns, a packed (SIMD) searcher with the same leftmost-longest
        // semantics: an automaton costs more to build than one document's search takes.
        if patterns.len() < 128
            && let Some(packed) = aho_corasick::packed::Config::new().match_kind(aho_corasick::packed::MatchKind::LeftmostLongest).builder().extend(patterns).build()
        {
            return packed.find_iter(text).map(|m| (m.start(), m.end(), m.pattern().as_usize())).collect();
        }
        // A contiguous NFA: a DFA costs more to build than one document's search saves.
        if let Ok(ac) =
            aho_corasick::AhoCorasick::builder().match_kind(aho_corasick::MatchKind::LeftmostLongest).kind(Some(aho_corasick::AhoCorasickKind::ContiguousNFA)).build(patterns)
        {
            return ac.find_iter(text).map(|m| (m.start(), m.end(), m.pattern().as_usize())).collect();
        }
    }
    for (i, p) in patterns.iter().enumerate().filter(|(_, p)| !p.is_empty()) {
        hits.extend(text.match_indices(p).map(|(s, _)| (s, s + p.len(), i)));
    }
    hits.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    let mut out: Vec<(usize, usize, usize)> = vec![];
    for h in hits {
        if out.last().is_none_or(|l| h.0 >= l.1) {
            out.push(h);
        }
    }
    out
}

/// Whether an organisation's key names a public body: an authority, a court, a judicial
/// district, a ministry, an agency, a legislature or a public program (Medicare) — no business that "the company" or
/// "the firm" may stand for.
fn public_body(key: &str) -> bool {
    const WORDS: &[&str] = &[
        "court",
        "district of ",
        "attorney",
        "department of ",
        "ministry",
        "commission",
        "agency",
        "bureau",
        "office of ",
        "administration",
        "government",
        "parliament",
        "congress",
        "senate",
        "police",
        "prosecutor",
        "regulator",
        "authority",
    ];
    authorities::is_authority(key) || authorities::is_program(key) || key.strip_prefix("Organization:").is_some_and(|n| WORDS.iter().any(|w| n.contains(w)))
}

/// Extracts a document with the built-in name recogniser.
pub fn extract(input: &Input, vocab: &Vocabulary) -> Extraction {
    extract_with(input, vocab, &ner::BUILTIN)
}

/// Extracts a document with the given name recogniser (cross-validation runs a model
/// trained without the document).
pub fn extract_with(input: &Input, vocab: &Vocabulary, names: &ner::Model) -> Extraction {
    let text = input.text;
    let date = document_date(text, input.date.clone());
    // Pass 1: mentions found by the rule finders and the name recogniser, sentence by sentence.
    let mut learned = names.document(text, input.sentences);
    // One name, one type in a document: each learned name takes the type the tagger gave
    // its words most often (ties: organisation, person, place, in that order).
    // (Each learned name's collapsed text, computed once, in the order of `learned`.)
    // A name written in capitals ("v. MICHAEL HUMPHRESS" in a caption) takes the type of the
    // same name written in mixed case where the document has it: the tagger read its type
    // from the letters' case, which capitals do not show.
    let surfaces: Vec<String> = learned.iter().flatten().map(|(sp, _)| collapse(&text[sp.0..sp.1])).collect();
    let mut votes: BTreeMap<&str, [usize; 3]> = BTreeMap::new();
    const TYPES: [&str; 3] = ["Organization", "Person", "Location"];
    for ((_, kind), surface) in learned.iter().flatten().zip(&surfaces) {
        if let Some(t) = TYPES.iter().position(|t| t == kind) {
            votes.entry(surface.as_str()).or_default()[t] += 1;
        }
    }
    // (Names of two words or more: an acronym, "SEC", is written so in every case.)
    let capitals = |s: &str| s.contains(' ') && !s.chars().any(char::is_lowercase);
    // (The mixed-case votes by lower case, made only for a document with a name in capitals.)
    let mut mixed: BTreeMap<String, [usize; 3]> = BTreeMap::new();
    if surfaces.iter().any(|s| capitals(s)) {
        for (surface, v) in votes.iter().filter(|(s, _)| !capitals(s)) {
            let m = mixed.entry(surface.to_lowercase()).or_default();
            for t in 0..3 {
                m[t] += v[t];
            }
        }
    }
    for ((_, kind), surface) in learned.iter_mut().flatten().zip(&surfaces) {
        let own = votes.get(surface.as_str());
        let v = if capitals(surface) { mixed.get(&surface.to_lowercase()).or(own) } else { own };
        if let Some(v) = v {
            let mut best = (0..3).fold(0, |b, t| if v[t] > v[b] { t } else { b });
            // A tie between an organisation and a person ("v. Dmitri Kovalenko a/k/a …" in a
            // caption, "Dmitri Kovalenko, a Ukrainian national" in the text) goes to the
            // person where the document names one by the name's last word alone ("Kovalenko
            // paid …"): a surname standing for its bearer.
            if best == 0 && v[1] == v[0] && surface.contains(' ') {
                let last = surface.rsplit(' ').next().unwrap_or("");
                best = usize::from(votes.get(last).is_some_and(|w| w[1] > w[0]));
            }
            *kind = TYPES[best];
        }
    }
    drop(mixed);
    // A name the text describes as a business or another organisation, in apposition or
    // with "is"/"was" ("Net Income, a nominee corporation", "Securitas, a Swedish security
    // services firm", "Roketsan is a Turkish weapons manufacturer"), or names after such a
    // noun ("punk rock band Bad Religion") is an organisation, wherever the document names
    // it, whatever the tagger read from its words.
    let businesses: std::collections::BTreeSet<&str> = learned
        .iter()
        .flatten()
        .zip(&surfaces)
        .filter(|((sp, kind), _)| {
            matches!(*kind, "Person" | "Location")
                && (entities::described_as_business(&text[sp.1..floor_boundary(text, sp.1 + 160)])
                    // (Not a possessor: "his club, Jeff Healey's Roadhouse" is no Jeff Healey.)
                    || (entities::named_after_business_noun(&text[floor_boundary(text, sp.0.saturating_sub(40))..sp.0]) && !text[sp.1..].starts_with(['\'', '’'])))
        })
        .map(|(_, surface)| surface.as_str())
        .collect();
    if !businesses.is_empty() {
        for ((_, kind), surface) in learned.iter_mut().flatten().zip(&surfaces) {
            if businesses.contains(surface.as_str()) {
                *kind = "Organization";
            }
        }
    }
    drop(businesses);
    // Places whatever the tagger read: a U.S. state's abbreviation after a town and a comma
    // ("Tampa, Fla.", "Newark, N.J."; it had "N.J." an organisation in a DOJ lede, and "Fla."
    // a party that "owned and operated" a company), and the United States named alone,
    // the country ("U.S." of "U.S. Attorney Smith" or "U.S. District Judge Roe", whose
    // office's first word the tagger reads as a body's name: some 200 such organisations in
    // the releases, ledes and advisories measured, against some 700 places).
    for (sp, kind) in learned.iter_mut().flatten() {
        let name = &text[sp.0..sp.1];
        let state = *kind != "Location" && entities::is_state_abbreviation(name) && text[..sp.0].trim_end().ends_with(',');
        // (Also a U.S. state's name typed a body: the "Florida" of a headline's "Florida
        // Couple Plead Guilty", then by the document's votes that of "Pembroke Pines, Florida".)
        let country = *kind == "Organization"
            && (matches!(name, "U.S." | "US" | "U.S.A." | "USA" | "United States of America") || demonyms::is_country(name) || entities::is_state_name(name));
        // (A country the tagger read as a person, "a federal jury in Puerto Rico", unless its
        // name opens with a given name: "Jordan", "Chad", "Israel" may be people's.)
        let country = country || (*kind == "Person" && demonyms::is_country(name) && !name.split_whitespace().next().is_some_and(ner::is_given_name));
        if state || country {
            *kind = "Location";
        }
    }
    // One word the tagger found only where every word is capitalised, at the start of a
    // sentence, is not looked for again elsewhere (a wrong guess would spread); names of
    // several words, words it found inside a sentence and the rules' names are.
    let opener = |sp: &Span| containing(input.sentences, *sp).is_some_and(|s| text[s.0..sp.0].trim().is_empty());
    let mut inside: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for ((sp, _), surface) in learned.iter().flatten().zip(&surfaces) {
        if !opener(sp) {
            inside.insert(surface.as_str());
        }
    }
    drop(votes);
    let learned_words: std::collections::BTreeSet<Span> = learned
        .iter()
        .flatten()
        .zip(&surfaces)
        .filter(|((sp, _), surface)| !text[sp.0..sp.1].contains(char::is_whitespace) && !inside.contains(surface.as_str()))
        .map(|((sp, _), _)| *sp)
        .collect();
    drop(inside);
    drop(surfaces);
    // (The tagger's own names, which a headline's verb after them does not undo below.)
    let learned_spans: std::collections::BTreeSet<Span> = learned.iter().flatten().map(|(sp, _)| *sp).collect();
    let mut per_sentence: Vec<Vec<Mention>> = input
        .sentences
        .iter()
        .zip(learned)
        .map(|(&s, found)| {
            let mut rules = entities::find(text, s, date.as_deref());
            // (A caption's parties in capitals, which the tagger does not read.)
            let caption = captions::parties(text, s);
            if !caption.is_empty() {
                rules.extend(caption);
                rules = entities::resolve_overlaps(rules);
            }
            let (rules, found) = demonyms::with_demonyms(text, s, authorities::with_authorities(text, s, rules), found);
            acronyms::widen(text, s, entities::with_names(text, rules, found))
        })
        .collect();
    // A release's heading "U.S. Attorney's Office⏎Eastern District of New York": the office
    // for that district, on the first line (read as lines: the splitter may make the heading
    // one sentence or several).
    let mut department_lines: Vec<(usize, Span)> = vec![];
    let sentence_at = |span: Span| input.sentences.partition_point(|s| s.1 <= span.0).min(input.sentences.len().saturating_sub(1));
    let inside = |i: usize, span: Span| input.sentences.get(i).is_some_and(|s| s.0 <= span.0 && span.1 <= s.1);
    let mut lines = vec![];
    let mut at = 0;
    // (Read only where some line may be one: most texts name no U.S. Attorney.)
    for line in text.split_inclusive('\n').take_while(|_| text.contains("Attorney")) {
        let lead = line.len() - line.trim_start().len();
        lines.push((at + lead, at + lead + line.trim().len()));
        at += line.len();
    }
    for k in 0..lines.len().saturating_sub(1) {
        let (l, next) = (lines[k], lines[k + 1]);
        let line = &text[l.0..l.1];
        if line.len() > 40 || !line.contains("Attorney") {
            continue;
        }
        let Some(key) = authorities::heading_office(line, &text[next.0..next.1]) else { continue };
        let i = sentence_at(l);
        if !inside(i, l) {
            continue;
        }
        per_sentence[i].retain(|m| m.span.1 <= l.0 || l.1 <= m.span.0);
        per_sentence[i].push(Mention { span: l, kind: "Organization", key, surface: collapse(line), attrs: vec![] });
        per_sentence[i].sort_by_key(|m| m.span);
        // (The line above it, "Department of Justice", names the department the office is
        // part of, not another party: the release is the office's, and so are the charges it
        // reports without naming who brought them.)
        if let Some(&above) = k.checked_sub(1).and_then(|j| lines.get(j))
            && matches!(&text[above.0..above.1], "Department of Justice" | "U.S. Department of Justice" | "United States Department of Justice")
        {
            let j = sentence_at(above);
            if inside(j, above) {
                department_lines.push((j, above));
            }
        }
    }
    let department_heading = |m: &Mention, line: Span| m.key == "Organization:department of justice" && line.0 <= m.span.0 && m.span.1 <= line.1;
    for &(j, line) in &department_lines {
        per_sentence[j].retain(|m| !department_heading(m, line));
    }
    drop(lines);
    // A rule's name right before a headline's verb ("Owner of Miami Home Health Company
    // Pleads Guilty", "Georgia-Based Bank Sentenced") is a headline's words in title case,
    // which the rules read as a company's name: none (an authority stays one: "Justice
    // Department Announces …"). The tagger's runs with the verb in them are dropped whole
    // (`ner::spans`); a name it found before the verb stays ("Bristol-Myers, Squibb Agree to
    // Merge").
    for ms in &mut per_sentence {
        ms.retain(|m| {
            let next = text[m.span.1..].strip_prefix(' ').and_then(|r| r.split([' ', '\n']).next());
            let headline = matches!(m.kind, "Organization" | "Person" | "Location") && next.is_some_and(ner::is_headline_verb);
            !headline || authorities::is_authority(&m.key) || learned_spans.contains(&m.span)
        });
    }
    drop(learned_spans);
    // (The storms' names, which are not found again as people below.)
    let mut storm_spans: Vec<Span> = vec![];
    // "Drugmaker Sanofi SA said …": the line of business opening the sentence is no word of
    // the company's name (only for names keyed by their own words, not an authority's).
    // Nor is a footnote's "See" any name's ("See FBI, …", "See U.S. Department of State":
    // what is left is keyed as found alone, an agency by its canonical name).
    for (ms, &sent) in per_sentence.iter_mut().zip(input.sentences) {
        for m in ms.iter_mut().filter(|m| matches!(m.kind, "Organization" | "Person" | "Location")) {
            let written = &text[m.span.0..m.span.1];
            let see = after_see(written).or_else(|| after_based(written));
            let business = (see.is_none() && m.kind == "Organization" && text[sent.0..m.span.0].trim().is_empty()).then(|| without_opening_business_noun(written)).flatten();
            let Some(rest) = see.or(business) else { continue };
            let own_key = m.keyed_by_surface();
            if business.is_some() && !own_key {
                continue;
            }
            m.span.0 = m.span.1 - rest.len();
            m.surface = collapse(rest);
            if let Some(agency) = authorities::find(rest, 0).into_iter().find(|a| a.span == (0, rest.len())) {
                (m.kind, m.key) = (agency.kind, agency.key);
            } else if own_key {
                m.key = format!("{}:{}", m.kind, name_key(&m.surface));
            }
        }
    }
    // A state named formally or by its abbreviation ("the Islamic Republic of Iran", "DPRK",
    // "U.S.") is its country, a place, whatever the tagger or a rule typed it as; a name the
    // tagger cut ("People’s Republic of China" after the apostrophe) is widened to the whole
    // name. A U.S. state's abbreviation found as a place is that state ("Ala." is Alabama).
    for (ms, &sent) in per_sentence.iter_mut().zip(input.sentences) {
        let mut widened = false;
        for m in ms.iter_mut().filter(|m| matches!(m.kind, "Organization" | "Location" | "Person")) {
            if let Some((from, key)) = demonyms::formal_state(text, m.span).filter(|(from, _)| *from >= sent.0) {
                widened |= from < m.span.0;
                m.span.0 = from;
                m.surface = collapse(&text[from..m.span.1]);
                (m.kind, m.key) = ("Location", key.to_string());
            } else if let Some(state) = (m.kind == "Location").then(|| entities::state_of_abbreviation(&m.surface)).flatten() {
                // A U.S. state's abbreviation is the state: "Montgomery, Ala." names Alabama.
                m.key = format!("Location:{}", name_key(state));
            } else if let Some(rest) = ["Acting", "Former"].iter().find_map(|t| text[m.span.0..m.span.1].strip_prefix(t)).filter(|r| r.starts_with(char::is_whitespace))
                && let from = m.span.1 - rest.trim_start().len()
                && let Some((_, key)) = demonyms::formal_state(text, (from, m.span.1)).filter(|(f, _)| *f == from)
            {
                // An office's title before the country of "Acting U.S. Attorney …", which the
                // tagger read as a body's name: the country.
                m.span.0 = from;
                m.surface = collapse(&text[from..m.span.1]);
                (m.kind, m.key) = ("Location", key.to_string());
            }
        }
        if widened {
            *ms = entities::resolve_overlaps(std::mem::take(ms));
        }
        // Names that are none, whatever found them (an authority stays one): a name just
        // before "Act" is the first words of a law's title the tagger cut ("the USA PATRIOT
        // Act", "Section 206 of the Investment Advisers Act of 1940"); a kind of people or of
        // business in capitals ("Bank Tellers", "AML/BSA Departments", "U.S. Financial
        // Institutions", as an advisory's list of whom it is for writes them); a storm, named
        // as people are ("Hurricanes Harvey, Irma, and Maria"); a run into the words "Press
        // Release" ("Justice.gov Office of Public Affairs News Press Releases Former …",
        // "Español Press" of "… Notícias en Español Press Release …", a web page's menu and
        // heading in one DOJ lede in seven), where an authority's name before the words stays
        // the authority's ("Department of Justice Press Release" of a citation).
        let from = storm_spans.len();
        storm_spans.extend(storm_names(&text[sent.0..sent.1]).unwrap_or_default().into_iter().map(|(a, b)| (sent.0 + a, sent.0 + b)));
        let storms = &storm_spans[from..];
        ms.retain_mut(|m| {
            if m.kind == "Person" && storms.iter().any(|&(a, b)| a <= m.span.0 && m.span.1 <= b) {
                return false;
            }
            if !matches!(m.kind, "Organization" | "Location" | "Person") || authorities::is_authority(&m.key) {
                return true;
            }
            if before_act(&text[m.span.1..]) || names_a_kind(&m.surface) {
                return false;
            }
            if !in_press_release_heading(&m.surface, &text[m.span.1..]) {
                return true;
            }
            let written = &text[m.span.0..m.span.1];
            let before = written.find(" Press").map_or(written, |i| &written[..i]);
            match authorities::find(before, 0).into_iter().find(|a| a.span == (0, before.len())) {
                Some(agency) => {
                    m.span.1 = m.span.0 + before.len();
                    m.surface = collapse(before);
                    (m.kind, m.key) = (agency.kind, agency.key);
                    true
                }
                None => false,
            }
        });
    }
    shared_surnames(text, &mut per_sentence);
    // Acronyms of common words and of laws ("suspicious activity report (SAR)", "Bank Secrecy
    // Act (BSA)") are no names, wherever the tagger took them for one.
    if let (Some(a), Some(z)) = (input.sentences.first(), input.sentences.last()) {
        let found: Vec<&Mention> = per_sentence.iter().flatten().collect();
        let terms = acronyms::common_terms(text, (a.0, z.1), &found);
        drop(found);
        // (Also the trade's acronyms, defined or not: "SARs", "CMLNs", "E.O.".)
        let is_term = |m: &Mention| {
            let bare = m.surface.strip_suffix('s').filter(|b| terms.contains(*b)).unwrap_or(&m.surface);
            matches!(m.kind, "Organization" | "Person" | "Location")
                && (terms.contains(bare) || acronyms::is_trade_term(&m.surface))
                && m.keyed_by_surface()
                && !authorities::is_authority(&m.key)
        };
        for ms in &mut per_sentence {
            ms.retain(|m| !is_term(m));
        }
    }
    // Known people (senders, recipients) and names already found recur elsewhere.
    let mut known: BTreeMap<String, (&'static str, String)> = BTreeMap::new();
    for (name, _) in input.people {
        let n = collapse(name);
        if n.split_whitespace().count() >= 2 && n.chars().next().is_some_and(char::is_uppercase) && !n.contains('@') {
            known.insert(n.clone(), ("Person", format!("Person:{}", name_key(&n))));
        }
    }
    for m in per_sentence.iter().flatten() {
        if matches!(m.kind, "Organization" | "Person") && m.surface.len() >= 4 && !learned_words.contains(&m.span) {
            known.insert(m.surface.clone(), (m.kind, m.key.clone()));
        }
    }
    drop(learned_words);
    // The defined terms are found among the mentions so far, read by reference (a term's
    // index is into this order); they are copied (`all`) only when there is a term to
    // read them again for: a document's worth of mentions otherwise.
    let found: Vec<&Mention> = per_sentence.iter().flatten().collect();
    let mut terms = defined_terms(text, &found);
    terms.extend(aliases::unquoted_terms(text, &found));
    let all: Vec<Mention> = if terms.is_empty() { vec![] } else { found.iter().map(|&m| m.clone()).collect() };
    drop(found);
    // Referring expressions: (span, antecedent key, kind, antecedent span).
    let mut coref: Vec<(Span, String, &'static str, Span)> = vec![];
    // Known names and defined terms, found again in one pass over the text.
    let names: Vec<(&String, &(&'static str, String))> = known.iter().collect();
    let mut extra: Vec<Vec<Mention>> = vec![vec![]; input.sentences.len()];
    let sentence_of = |pos: usize| input.sentences.partition_point(|s| s.1 <= pos);
    // (Only the sentences' stretch of the text is searched: a block's, not the document's.)
    let scope = match (input.sentences.first(), input.sentences.last()) {
        (Some(a), Some(z)) => (a.0, z.1),
        _ => (0, 0),
    };
    let in_one_sentence = |s: usize, e: usize| is_word_boundary(text, s, e) && input.sentences.get(sentence_of(s)).is_some_and(|x| x.0 <= s && e <= x.1);
    // (The text as written on one line, for the names a line break may wrap.)
    let lines = lines_of(text, scope);
    let mut hits: Vec<(usize, usize, usize)> =
        find_within_lines(text, scope, lines.as_ref(), &names.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>()).into_iter().filter(|&(s, e, _)| in_one_sentence(s, e)).collect();
    // A known name written in capitals ("v. ERNEST W. GRENDI, JOSEPH E.⏎GRENDI and EMCOR
    // GROUP, INC." in a caption, which the tagger does not read) is found again by its
    // capitals, also over a line break; it keeps the text's letters as its surface.
    let capitals = capitals_of(&names.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>());
    let mut written: BTreeMap<(usize, usize), String> = BTreeMap::new();
    if !capitals.is_empty() {
        let upper: Vec<&str> = capitals.iter().map(|(u, _)| u.as_str()).collect();
        // (A hit starts and ends on a letter of the name: each is the text's own byte.)
        for (s, e, k) in find_within_lines(text, scope, lines.as_ref(), &upper) {
            if in_one_sentence(s, e) && !hits.iter().any(|h| h.0 < e && s < h.1) {
                hits.push((s, e, capitals[k].1));
                written.insert((s, e), collapse(&text[s..e]));
            }
        }
        hits.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    }
    drop(capitals);
    // A name of English words written after a determiner ("this Loan Agreement", "the
    // Equity Transfer Contract", "any Person") is a defined term there. A person's name so
    // written anywhere in the document is one everywhere in it (no one writes "the Barber"
    // of Mr. Barber): not found again, and no longer a name where the tagger found it. A
    // company's one-word name is passed over only where a determiner comes before it ("an
    // Apple device" does not make Apple a term).
    // (Whether each name is one of English words, as the rule reads it: once a name.)
    let english: Vec<bool> = names.iter().map(|(name, (kind, _))| (!name.contains(' ') || *kind == "Person") && name.split_whitespace().all(ner::is_english_word)).collect();
    let determined = |s: usize| ner::is_determiner(word_before(text, s));
    let mut terms_not_names: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for &(s, _, i) in &hits {
        let (name, (kind, _)) = names[i];
        if *kind == "Person" && english[i] && determined(s) {
            terms_not_names.insert(name.as_str());
        }
    }
    for (s, e, i) in hits {
        let (name, (kind, key)) = names[i];
        if terms_not_names.contains(name.as_str()) || (english[i] && determined(s)) {
            continue;
        }
        // (A person's name in a storm's, "Hurricanes Harvey, Irma, and Maria", is none.)
        if *kind == "Person" && storm_spans.iter().any(|&(a, b)| a <= s && e <= b) {
            continue;
        }
        let surface = written.remove(&(s, e)).unwrap_or_else(|| name.clone());
        extra[sentence_of(s)].push(Mention { span: (s, e), kind, key: key.clone(), surface, attrs: vec![] });
    }
    if !terms_not_names.is_empty() {
        for ms in &mut per_sentence {
            ms.retain(|m| !(m.kind == "Person" && terms_not_names.contains(m.surface.as_str())));
        }
    }
    drop(terms_not_names);
    drop(names);
    drop(known);
    for (si, more) in extra.into_iter().enumerate() {
        if !more.is_empty() {
            let mut merged = std::mem::take(&mut per_sentence[si]);
            merged.extend(more);
            per_sentence[si] = entities::resolve_overlaps(merged);
        }
    }
    // (The department above an office's heading stays no party when the document names it
    // again below, where the search for known names finds it: "… the Department of
    // Justice's National Center for Disaster Fraud".)
    for &(j, line) in &department_lines {
        per_sentence[j].retain(|m| !department_heading(m, line));
    }
    // Surnames: a one-word name that is the last (or first) word of exactly one person named in full
    // in the document ("Humphress" after "Michael Humphress") refers to that person, whatever
    // type it was found as alone; such a mention becomes coreference (INFERRED, citing the
    // full name).
    let mut full: BTreeMap<String, BTreeMap<String, Span>> = BTreeMap::new();
    // (Likewise a given name alone — "Hi Lena," — for the one person of the document it begins.
    // Not a term the document defines for another party: "James Asset Advisory, LLC ("James
    // Asset")", which the tagger read as a person, names no person "James".)
    let defined_term = |m: &Mention| terms.iter().any(|(t, i)| *t == m.surface && all[*i].key != m.key);
    // The last two words or more of one person's longer name ("Ruiz Paredes" after "Esteban
    // Ruiz Paredes"): that person (below), and no full name of its own here.
    let mut tails: BTreeMap<String, BTreeMap<String, Span>> = BTreeMap::new();
    // (Each name once: the first of its mentions is the one a later one cites.)
    let mut read: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for m in per_sentence.iter().flatten().filter(|m| m.kind == "Person" && m.surface.contains(' ')) {
        if !read.insert(m.surface.as_str()) {
            continue;
        }
        let words: Vec<&str> = m.surface.split_whitespace().collect();
        for k in 1..words.len().saturating_sub(1) {
            if !words[k].ends_with('.') {
                tails.entry(words[k..].join(" ").to_lowercase()).or_default().entry(m.key.clone()).or_insert(m.span);
            }
        }
    }
    let a_tail = |m: &Mention| tails.get(&m.surface.to_lowercase()).is_some_and(|keys| keys.len() == 1 && !keys.contains_key(&m.key));
    for m in per_sentence.iter().flatten().filter(|m| m.kind == "Person" && m.surface.split_whitespace().count() >= 2 && !defined_term(m) && !a_tail(m)) {
        let words: Vec<&str> = m.surface.split_whitespace().collect();
        let last = surname(&m.surface).unwrap_or(words[words.len() - 1]);
        // A name of four words or more without initials before its last ("Miguel Ángel
        // Reyes Cortés", "Julio Cesar Montero Pinzon") ends in two surnames: the first of
        // them is the one used alone ("Reyes's cousin"). So does one of three whose middle
        // word is no given name after a given name ("Julio Mendieta Paz": "Mendieta").
        let two_surnames = words.iter().all(|w| !w.ends_with('.')) && (words.len() >= 4 || (words.len() == 3 && given_name(words[0]) && !given_name(words[1])));
        let paternal = two_surnames.then(|| words.iter().rposition(|w| *w == last).filter(|&i| i >= 2).map(|i| words[i - 1])).flatten();
        for w in [Some(words[0]), Some(last), paternal].into_iter().flatten() {
            // (A demonym is no one's given name: "Venezuelan" of a "Venezuelan SOEs" the
            // tagger took for a person. A country is a surname only of a name that opens with
            // a given name, "Chris Germany": "Venezuela" is no short name of a "Social de
            // Venezuela" the tagger cut from a bank's Spanish name.)
            let country = demonyms::is_country(w) && !ner::is_given_name(words[0]);
            if w.chars().next().is_some_and(char::is_uppercase) && w.len() >= 2 && !w.ends_with('.') && demonyms::country_of(w).is_none() && !country {
                full.entry(w.to_lowercase()).or_default().entry(m.key.clone()).or_insert(m.span);
            }
        }
    }
    // A surname (or a given name) two people bear is the one's the document named first
    // where it called that one by it alone before it named the other: releases go on
    // calling their principal so and name a relative in full ("Marrero used investors'
    // money … caused Biscayne Yield Partners to wire $600,000 to a dealership owned by his
    // cousin, Rafael Marrero. Marrero faces …"). Not where both are named before the word
    // stands alone ("John Smith and Robert Smith … Smith"), nor in mail or chat (a document
    // whose headers name its people), whose messages each name their own people.
    // (Named first in the text, not in a caption: "SEC v. Curtis L. Hammond …, and Denise
    // Hammond, Relief Defendant" lists the relative before the release tells of anyone.)
    // (Read only where two people share a word of their names.)
    let caption = |si: usize| captions::is_caption(text, input.sentences[si]);
    let mut in_text: BTreeMap<&str, Span> = BTreeMap::new();
    if full.values().any(|keys| keys.len() >= 2) && input.people.is_empty() {
        for (_, ms) in per_sentence.iter().enumerate().filter(|(si, _)| !caption(*si)) {
            for m in ms.iter().filter(|m| m.kind == "Person") {
                in_text.entry(m.key.as_str()).or_insert(m.span);
            }
        }
    }
    let mut established: BTreeMap<String, (String, Span)> = BTreeMap::new();
    for (w, keys) in full.iter().filter(|(_, keys)| keys.len() >= 2 && input.people.is_empty()) {
        let mut order: Vec<(Span, &String)> = keys.iter().map(|(k, sp)| (in_text.get(k.as_str()).copied().unwrap_or(*sp), k)).collect();
        order.sort();
        let (first, second) = (order[0], order[1]);
        let alone = per_sentence
            .iter()
            .flatten()
            .any(|m| m.kind == "Person" && !m.surface.contains(char::is_whitespace) && m.surface.to_lowercase() == *w && m.span.0 >= first.0.1 && m.span.1 <= second.0.0);
        if alone {
            established.insert(w.clone(), (first.1.clone(), first.0));
        }
    }
    drop(in_text);
    // A given name and a surname after the same two with middle initials between ("Gregory
    // Voss" after "Gregory A. Voss"): that person, where the document names one so. (Not
    // over a middle name: "Jho Low" is the alias of "Jho Taek Low" the text states.)
    let mut middled: BTreeMap<(String, String), BTreeMap<String, Span>> = BTreeMap::new();
    let initial = |w: &str| w.len() <= 2 && w.starts_with(char::is_uppercase) && (w.len() == 1 || w.ends_with('.'));
    for m in per_sentence.iter().flatten().filter(|m| m.kind == "Person") {
        let words: Vec<&str> = m.surface.split_whitespace().collect();
        if words.len() < 3 || !initial(words[1]) {
            continue;
        }
        if let (Some(first), Some(last)) = (words.first(), surname(&m.surface)) {
            middled.entry((first.to_lowercase(), last.to_lowercase())).or_default().entry(m.key.clone()).or_insert(m.span);
        }
    }
    // (The one person a map names for a mention, named before it and not the mention's own.)
    let one_before = |keys: Option<&BTreeMap<String, Span>>, m: &Mention| {
        keys.filter(|keys| keys.len() == 1).and_then(|keys| keys.iter().next()).filter(|(key, ante)| **key != m.key && ante.1 <= m.span.0).map(|(key, ante)| (key.clone(), *ante))
    };
    let mut middle_refs: Vec<(Span, String, &'static str, Span)> = vec![];
    for m in per_sentence.iter().flatten().filter(|m| m.kind == "Person" && m.attrs.is_empty() && m.surface.contains(' ')) {
        let words: Vec<&str> = m.surface.split_whitespace().collect();
        let middle = match words[..] {
            [first, last] if first.len() >= 2 && !first.ends_with('.') => one_before(middled.get(&(first.to_lowercase(), last.to_lowercase())), m),
            _ => None,
        };
        if let Some((key, ante)) = middle.or_else(|| one_before(tails.get(&m.surface.to_lowercase()), m)) {
            middle_refs.push((m.span, key, "Person", ante));
        }
    }
    drop(middled);
    drop(tails);
    for ms in &mut per_sentence {
        ms.retain(|m| !middle_refs.iter().any(|r| r.0 == m.span));
    }
    let mut surname_refs: Vec<(Span, String, &'static str, Span)> = middle_refs;
    for ms in &mut per_sentence {
        ms.retain(|m| {
            // (A demonym is its country's, not the first word of "Venezuelan SOEs".)
            let demonym = m.kind == "Location" && demonyms::country_of(&m.surface).is_some_and(|k| *k == m.key);
            let one_word = !m.surface.contains(char::is_whitespace) && matches!(m.kind, "Person" | "Organization" | "Location") && m.attrs.is_empty() && !demonym;
            let lower = m.surface.to_lowercase();
            let person = one_word.then(|| full.get(&lower)).flatten().and_then(|keys| {
                if keys.len() == 1 {
                    keys.iter().next().map(|(k, sp)| (k.clone(), *sp))
                } else {
                    // (An established one only after its full name, and only where the
                    // word alone was read as a person's.)
                    established.get(&lower).filter(|(_, ante)| m.kind == "Person" && m.span.0 >= ante.1).cloned()
                }
            });
            match person {
                Some((key, ante)) if key != m.key => {
                    surname_refs.push((m.span, key, "Person", ante));
                    false
                }
                _ => true,
            }
        });
    }
    // A surname that is an English word, which the tagger may not find alone ("Colt" after
    // "Marcelino Colt", "Marks"), is found again after the full name, as a company's short
    // name is below (other surnames the tagger reads as names wherever it meets them):
    // written as a name ("Colt", not "TCOs"), a word of its own, no part of a longer name
    // (no capitalised word just before or after it), not before a given name ("Day, Mike"),
    // nor where the word is prose: opening its sentence or a line, after an article ("the
    // Colt revolver"). Only a surname that one person bears and no one as a given name, of
    // a full name that opens with a given name (not "Cob Monday").
    let mut lone: BTreeMap<&str, (String, Span)> = BTreeMap::new();
    for m in per_sentence.iter().flatten().filter(|m| m.kind == "Person") {
        let Some(last) = surname(&m.surface) else { continue };
        let given = m.surface.split_whitespace().next().is_some_and(ner::is_given_name);
        let word = last.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'') && last.chars().skip(1).all(|c| !c.is_uppercase());
        if given && word && last.len() >= 3 && ner::is_english_word(last) && full.get(&last.to_lowercase()).is_some_and(|keys| keys.len() == 1) {
            lone.entry(last).or_insert_with(|| (m.key.clone(), m.span));
        }
    }
    if !lone.is_empty() {
        let list: Vec<&str> = lone.keys().copied().collect();
        for (s, e, i) in find_within_lines(text, scope, lines.as_ref(), &list) {
            let (key, ante) = &lone[list[i]];
            let before = text[..s].trim_end_matches(' ');
            let prev = before.rsplit(|c: char| !c.is_alphanumeric() && c != '.').next().unwrap_or_default();
            let capital_before = before.len() + 1 == s && prev.chars().next().is_some_and(char::is_uppercase) && !prev.ends_with('.');
            let capital_after = text[e..].strip_prefix(' ').is_some_and(|r| r.starts_with(char::is_uppercase));
            let opens = input.sentences.get(sentence_of(s)).is_some_and(|x| text[x.0..s].trim_start_matches(|c: char| !c.is_alphanumeric()).is_empty());
            let line_start = text[..s].trim_end_matches([' ', '\t', '>']).ends_with('\n');
            let prose = opens || line_start || matches!(prev, "the" | "The" | "a" | "A" | "an" | "An");
            // ("Day, Mike": a surname before a given name is someone else's.)
            let inverted = text[e..].strip_prefix(", ").and_then(|r| r.split(|c: char| !c.is_alphabetic()).next()).is_some_and(ner::is_given_name);
            if s > ante.1
                && in_one_sentence(s, e)
                && !capital_before
                && !capital_after
                && !prose
                && !inverted
                && !after_open_quote(text, s)
                && !per_sentence[sentence_of(s)].iter().any(|m| m.span.0 < e && s < m.span.1)
                && !surname_refs.iter().any(|r| r.0.0 < e && s < r.0.1)
            {
                surname_refs.push(((s, e), key.clone(), "Person", *ante));
            }
        }
    }
    drop(lone);
    drop(full);
    // A company's short name, its name without the legal form ("World Homes" after "World
    // Homes, Inc."), refers to the company wherever the document writes it after the full
    // name, whatever the tagger made of it there (a name of its own, or nothing): like a
    // surname, coreference (INFERRED, citing the full name). Not a short name that two
    // companies share ("Rio Tinto plc", "Rio Tinto Limited"), nor one that is a person's name
    // ("Robert C. Lowes" of "Robert C. Lowes, Inc."), nor one that opens a longer name.
    let mut shorts: BTreeMap<String, Option<(String, Span)>> = BTreeMap::new();
    // The name without its line of business too ("Granite State"), unless it is another
    // company's short name ("Emvest" of "Emvest, Inc." beside "Emvest Holdings LLC").
    let mut business: BTreeMap<String, Option<(String, Span)>> = BTreeMap::new();
    for m in per_sentence.iter().flatten().filter(|m| m.kind == "Organization") {
        let Some(short) = short_name(&m.surface) else { continue };
        for (own, name) in [(true, Some(short)), (false, business_stem(short)), (false, leading_words(short))] {
            let Some(name) = name else { continue };
            let map = if own { &mut shorts } else { &mut business };
            let e = map.entry(name.to_string()).or_insert_with(|| Some((m.key.clone(), m.span)));
            if e.as_ref().is_some_and(|(k, _)| *k != m.key) {
                *e = None;
            }
        }
    }
    for (short, v) in business {
        shorts.entry(short).or_insert(v);
    }
    // A company's first word too, where it is no word of prose ("Insnet" of "Insnet World
    // Communications, Inc.", as releases go on to write it without defining it; a town's
    // name where the document names no place with it, "Westbrook" of "Westbrook Aerospace
    // Distributors Inc."): the
    // company's that the document names first with it, until it names another that opens
    // with it too ("Halcyon agreed … Halcyon's Greek subsidiary, Halcyon Hellas S.A."); not
    // one whose other words name a place ("Enron North America Corp.": "Enron" is the
    // group's), nor a word a place the document names holds ("Korea" of "Korea Kwangson
    // Banking Corp." beside "North Korea").
    let mut firsts: BTreeMap<String, (Option<(String, Span)>, usize)> = BTreeMap::new();
    // (A given name is a company's first word only where no person of the document bears it
    // as a first name: "Halvard" of "Halvard Logistics Group Inc." beside no "Halvard Berg".)
    let mut given: BTreeSet<String> = BTreeSet::new();
    let first_names: BTreeSet<&str> =
        per_sentence.iter().flatten().filter(|m| m.kind == "Person").filter_map(|m| m.surface.split_whitespace().next().filter(|_| m.surface.contains(' '))).collect();
    // (Whether the text writes a town's name as a town, read once a word: a scan of the text.)
    let mut as_town: BTreeMap<String, bool> = BTreeMap::new();
    for m in per_sentence.iter().flatten().filter(|m| m.kind == "Organization") {
        let Some(short) = short_name(&m.surface) else { continue };
        let first = first_word_stem(short)
            .or_else(|| {
                let w = first_word(short).filter(|w| !first_names.contains(w))?;
                given.insert(w.to_string());
                Some(w)
            })
            .or_else(|| {
                first_word_shape(short).filter(|w| {
                    ner::is_listed_place(w)
                        && !entities::is_state_name(w)
                        && !ner::is_given_name(w)
                        && !first_names.contains(w)
                        && !*as_town.entry(w.to_string()).or_insert_with(|| written_as_town(&text[scope.0..scope.1], w))
                })
            });
        if let Some(first) = first {
            let one = (!names_a_place(&short[first.len()..])).then(|| (m.key.clone(), m.span));
            let (owner, until) = firsts.entry(first.to_string()).or_insert_with(|| (one, usize::MAX));
            if owner.as_ref().is_none_or(|(k, _)| *k != m.key) {
                *until = (*until).min(m.span.0);
            }
        }
    }
    // (Nor a word the document writes alone before it names the company: "Enron" in a mail
    // that names "Enron Capital & Trade Resources Corp." later is the group's own name.)
    let in_a_place = |w: &str| per_sentence.iter().flatten().any(|m| m.kind == "Location" && m.surface.split_whitespace().any(|x| x == w));
    let alone_before = |w: &str, at: usize| {
        text[scope.0..at.max(scope.0)].match_indices(w).any(|(i, _)| {
            let (i, e) = (scope.0 + i, scope.0 + i + w.len());
            !text[..i].ends_with(char::is_alphanumeric) && !text[e..].starts_with(|c: char| c.is_alphanumeric() || c == ' ' && text[e + 1..].starts_with(char::is_uppercase))
        })
    };
    let mut until: BTreeMap<String, usize> = BTreeMap::new();
    for (first, (v, cutoff)) in firsts {
        if let Some((_, ante)) = &v
            && !in_a_place(&first)
            && !alone_before(&first, ante.0)
            && !shorts.contains_key(&first)
        {
            shorts.insert(first.clone(), v);
            until.insert(first, cutoff);
        }
    }
    let before_another = |short: &str, at: usize| until.get(short).is_none_or(|&u| at < u);
    // (A person bears the name where the document names them so by the sentence that names
    // the company in full: "sued Robert C. Lowes and Robert C. Lowes, Inc."; a "person" of
    // that name only later is the tagger's reading of the short name: "Warner Chilcott PLC
    // …. Warner Chilcott has agreed to pay $125 million".)
    // (A given name the document uses alone before the full name, "Former Halvard Logistics
    // Bosses Charged", is the tagger's reading of a headline: no person bears it in full.)
    shorts.retain(|short, v| {
        let Some((_, ante)) = v else { return false };
        let by = input.sentences.get(sentence_of(ante.0)).map_or(ante.1, |x| x.1);
        given.contains(short) || !per_sentence.iter().flatten().any(|m| m.kind == "Person" && m.surface == *short && m.span.0 < by)
    });
    let mut short_refs: Vec<(Span, String, &'static str, Span)> = vec![];
    if !shorts.is_empty() {
        for ms in &mut per_sentence {
            ms.retain(|m| match shorts.get(&m.surface) {
                Some(Some((key, ante)))
                    if m.span.0 > ante.1
                        && before_another(&m.surface, m.span.0)
                        && *key != m.key
                        && m.attrs.is_empty()
                        && matches!(m.kind, "Person" | "Organization" | "Location")
                        && !after_open_quote(text, m.span.0) =>
                {
                    short_refs.push((m.span, key.clone(), "Organization", *ante));
                    false
                }
                _ => true,
            });
        }
        let list: Vec<&str> = shorts.keys().map(String::as_str).collect();
        for (s, e, i) in find_within_lines(text, scope, lines.as_ref(), &list) {
            let Some(Some((key, ante))) = shorts.get(list[i]) else { continue };
            let longer = text[e..].strip_prefix(' ').is_some_and(|r| r.starts_with(char::is_uppercase));
            // (A whole word: "Halcyon" is not in "Halcyonic"; nor a mail path's part, "Kevin
            // McGowan/Corp/Enron@Enron".)
            let inside_word =
                text[..s].ends_with(|c: char| c.is_alphanumeric() || c == '/' || c == '@') || text[e..].starts_with(|c: char| c.is_alphanumeric() || c == '/' || c == '@');
            if s > ante.1
                && before_another(list[i], s)
                && !inside_word
                && in_one_sentence(s, e)
                && !after_open_quote(text, s)
                && !longer
                && !per_sentence[sentence_of(s)].iter().any(|m| m.span.0 < e && s < m.span.1)
            {
                short_refs.push(((s, e), key.clone(), "Organization", *ante));
            }
        }
    }
    drop(shorts);
    // A defined term after its definition is the defined party, not a name of its own:
    // what the tagger or the re-finding made of it gives way to the coreference below.
    if !terms.is_empty() {
        for ms in &mut per_sentence {
            ms.retain(|m| !terms.iter().any(|(t, i)| m.surface == *t && m.span.0 > all[*i].span.1 && m.key != all[*i].key));
        }
    }
    // Defined terms used after their definition.
    for (s, e, i) in find_within_lines(text, scope, lines.as_ref(), &terms.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>()) {
        let sp = (s, e);
        let si = sentence_of(sp.0);
        let ante = &all[terms[i].1];
        let inside = input.sentences.get(si).is_some_and(|x| x.0 <= sp.0 && sp.1 <= x.1);
        if inside
            && is_word_boundary(text, sp.0, sp.1)
            && sp.0 > ante.span.1
            && !after_open_quote(text, sp.0)
            && !per_sentence[si].iter().any(|x| x.span.0 < sp.1 && sp.0 < x.span.1)
        {
            coref.push((sp, ante.key.clone(), ante.kind, ante.span));
        }
    }
    drop(lines);
    // Pronouns and generic nouns: the nearest compatible antecedent before them.
    // "the Commission", "the Court", "the United States Attorney's Office": the nearest
    // organisation whose name has that head.
    /// Nouns "the bank", "the company" modify rather than name ("the bank accounts").
    const RECORD_NOUNS: &[&str] = &[
        "account",
        "accounts",
        "statement",
        "statements",
        "record",
        "records",
        "holding",
        "secrecy",
        "examiner",
        "examiners",
        "regulator",
        "regulators",
        "robbery",
        "fraud",
        "loan",
        "loans",
        "deposit",
        "deposits",
        "transfer",
        "transfers",
        "wire",
        "wires",
        "card",
        "cards",
        "check",
        "checks",
        "name",
        "names",
        "code",
        "codes",
        "data",
        "information",
        "details",
    ];
    static PRONOUN: LazyLock<Regex> = LazyLock::new(|| {
        entities::re(r"\b(?:(?P<org>[Ii]t|[Tt]he (?:company|firm|bank|entity|Commission|Court|Bureau|Department|United States Attorney['’]s Office))|(?P<per>[Hh]e|[Ss]he))\b")
    });
    coref.extend(surname_refs);
    coref.extend(short_refs);
    // Every mention so far, by reference (the referring expressions' own ones after the
    // found ones of the same span: a stable sort).
    // Each with the span of the name it cites: its own, or a referring expression's
    // antecedent ("he" after "Wick" cites "Channa Wick").
    let referring: Vec<(Mention, Span)> =
        coref.iter().map(|(sp, key, kind, ante)| (Mention { span: *sp, kind, key: key.clone(), surface: text[sp.0..sp.1].to_string(), attrs: vec![] }, *ante)).collect();
    let mut flat: Vec<(&Mention, Span)> = per_sentence.iter().flatten().map(|m| (m, m.span)).chain(referring.iter().map(|(m, ante)| (m, *ante))).collect();
    flat.sort_by_key(|a| a.0.span);
    // (Where the document cites the federal securities laws: read once, if needed.)
    let mut securities_laws: Option<Option<Span>> = None;
    for (si, &sent) in input.sentences.iter().enumerate() {
        // A match test, no captures: which group matched shows in its first letter.
        for whole in PRONOUN.find_iter(&text[sent.0..sent.1]) {
            let sp = (sent.0 + whole.start(), sent.0 + whole.end());
            let org = whole.as_str().starts_with(['I', 'i', 'T', 't']);
            let want = if org { "Organization" } else { "Person" };
            // "it" before its verb only ("It wired", not "wired it"): the subject position.
            let after = text[sp.1..].trim_start();
            if org && whole.as_str().eq_ignore_ascii_case("it") && (!after.starts_with(|ch: char| ch.is_lowercase()) || expletive_it(after)) {
                continue;
            }
            // "The bank accounts", "the company records": a noun's modifier, no reference.
            if org && whole.as_str().len() > 2 && text[sp.1..].starts_with(' ') && RECORD_NOUNS.contains(&after.split(|c: char| !c.is_alphanumeric()).next().unwrap_or("")) {
                continue;
            }
            // A capitalised head ("the Commission") names its antecedent's kind of body.
            let head = whole.as_str().strip_prefix(['T', 't']).and_then(|r| r.strip_prefix("he ")).filter(|h| h.starts_with(char::is_uppercase)).map(str::to_lowercase);
            // "The company", "the firm", "the bank" and "the entity" name a business, never a
            // public body the sentence names nearer ("a criminal information filed in the
            // District of Minnesota charging the company").
            let business = matches!(whole.as_str().get(4..), Some("company" | "firm" | "bank" | "entity"));
            let compatible = |m: &Mention| m.kind == want && head.as_ref().is_none_or(|h| m.key.contains(h.as_str())) && !(business && public_body(&m.key));
            // (Mentions are in text order: only those starting before the pronoun are looked at.)
            // (The mentions from byte `at` on.)
            let from = |at: usize| &flat[flat.partition_point(|(m, _)| m.span.0 < at)..];
            let before_it = &flat[..flat.partition_point(|(m, _)| m.span.0 < sp.0)];
            let mut ante = before_it.iter().rev().find(|(m, _)| m.span.1 <= sp.0 && compatible(m));
            // A pronoun that opens its sentence continues the previous sentence's subject
            // ("Wells Fargo acquired Bank of Alaska. It also acquired …"): the first compatible
            // mention of the sentence the nearest one is in, not the nearest one. So does one
            // after an opening phrase that names no party ("Adobe's first acquisition was
            // Emerald City Software. In August 1994, the company acquired …").
            let before = text[sent.0..sp.0].trim();
            let opens = before.is_empty()
                || (before.ends_with(',') && !from(sent.0).iter().take_while(|(m, _)| m.span.0 < sp.0).any(|(m, _)| matches!(m.kind, "Person" | "Organization" | "Location")));
            if opens
                && let Some((near, _)) = ante
                && let Some(prev) = containing(input.sentences, near.span)
            {
                ante = from(prev.0).iter().find(|(m, _)| m.span.1 <= prev.1 && compatible(m)).or(ante);
            }
            // "The bank" is the bank the document named last, where the nearer business is none
            // ("Meridian National Bank is a subsidiary of Meridian Financial Group, Inc., a bank
            // holding company …. the bank's former chief executive officer").
            if whole.as_str().ends_with("bank")
                && ante.is_some_and(|(m, _)| !m.key.contains("bank"))
                && let Some(bank) = before_it.iter().rev().find(|(m, _)| m.span.1 <= sp.0 && compatible(m) && m.key.contains("bank"))
            {
                ante = Some(bank);
            }
            // The "it" of a country: a place that opens the pronoun's sentence (the previous
            // one, when the pronoun opens its own) after the organisation found is what "it"
            // continues ("The Marshall Islands has indicated …. It is currently drafting …",
            // "Panama … has given clear evidence that it recognizes …"), no organisation.
            let opening = if opens { si.checked_sub(1).and_then(|i| input.sentences.get(i)).copied() } else { Some(sent) };
            if let (Some((a, _)), Some(opening)) = (ante, opening)
                && whole.as_str().eq_ignore_ascii_case("it")
                && let Some((first, _)) = from(opening.0).first().filter(|(m, _)| m.span.1 <= sp.0.min(opening.1))
                && first.kind == "Location"
                && first.span.0 > a.span.1
                && matches!(text[opening.0..first.span.0].trim_matches(|c: char| !c.is_alphanumeric()), "" | "The" | "the")
            {
                continue;
            }
            // "The Commission" of a document that names no commission but cites the federal
            // securities laws is the SEC, which enforces them (cited at the first citation):
            // litigation releases that never write the SEC's name.
            if ante.is_none() && head.as_deref() == Some("commission") {
                // (In the text being read, `scope`: a record of an archive, a block of a large document.)
                let cited =
                    *securities_laws.get_or_insert_with(|| securities_laws_cited(&text[scope.0..scope.1], flat.iter().map(|(m, _)| *m)).map(|(x, y)| (scope.0 + x, scope.0 + y)));
                if let Some(cited) = cited {
                    coref.push((sp, "Organization:securities and exchange commission".to_string(), want, cited));
                }
                continue;
            }
            // (A referring expression, "Humphress" or "World Homes", is the nearest mention of
            // its party; the pronoun cites the name that one refers to.)
            if let Some((ante, cited)) = ante {
                coref.push((sp, ante.key.clone(), want, *cited));
            }
        }
    }
    drop(flat);
    drop(referring);
    coref.sort_by_key(|a| a.0);
    coref.dedup_by(|a, b| a.0 == b.0);

    // The authorities named, by sentence (a settlement's implied party is the last one before).
    let authority_mentions: Vec<(usize, Mention)> =
        per_sentence.iter().enumerate().flat_map(|(i, ms)| ms.iter().filter(|m| authorities::is_authority(&m.key)).map(move |m| (i, m.clone()))).collect();
    let mut out = Extraction::default();
    // (Where the document places a criminal case in a federal court: read once, if needed.)
    let mut document_federal: Option<Option<Span>> = None;
    // (The record's publisher, [`publisher`]: read once, if an implied party needs it.)
    let mut record_publisher: Option<Option<Mention>> = None;
    for (si, &sent) in input.sentences.iter().enumerate() {
        // (Each sentence's mentions are read here for the last time: moved, not copied.)
        let mut ms: Vec<(Mention, Option<Span>)> = std::mem::take(&mut per_sentence[si]).into_iter().map(|m| (m, None)).collect();
        // (The referring expressions are sorted by span: those of this sentence are a range.)
        let first = coref.partition_point(|c| c.0.0 < sent.0);
        for (sp, key, kind, ante) in coref[first..].iter().take_while(|c| c.0.0 < sent.1).filter(|c| c.0.1 <= sent.1) {
            // A referring name holds the names inside it ("the United States Attorney's
            // Office" is the office, not the United States).
            ms.retain(|(m, _)| !(sp.0 <= m.span.0 && m.span.1 <= sp.1 && m.span != *sp));
            if !ms.iter().any(|(m, _)| m.span.0 < sp.1 && sp.0 < m.span.1) {
                ms.push((Mention { span: *sp, kind, key: key.clone(), surface: collapse(&text[sp.0..sp.1]), attrs: vec![] }, Some(*ante)));
            }
        }
        // "The defendants consented …": a plural reference to the parties the document has
        // charged so far. It reads as the first; each other one gets a copy of its claims.
        let mut plural: Vec<Span> = vec![];
        let defendants = if text[sent.0..sent.1].contains("efendants") { charged_parties(&out.claims) } else { vec![] };
        if let Some(first) = defendants.first() {
            for d in DEFENDANTS.find_iter(&text[sent.0..sent.1]) {
                let sp = (sent.0 + d.start(), sent.0 + d.end());
                // ("the defendants' former employer" is someone else.)
                if text[sp.1..].starts_with(['\'', '’']) {
                    continue;
                }
                if !ms.iter().any(|(m, _)| m.span.0 < sp.1 && sp.0 < m.span.1) {
                    ms.push((Mention { span: sp, kind: first.1, key: first.0.clone(), surface: collapse(&text[sp.0..sp.1]), attrs: vec![] }, Some(first.2)));
                    plural.push(sp);
                }
            }
        }
        ms.sort_by_key(|a| a.0.span);
        mark_roles(text, sent, &mut ms);
        out.identifiers.extend(identifiers::sentence(text, sent, &ms));
        // Alias statements and enumerations (identity evidence for the rule library).
        let mut mentions: Vec<Mention> = ms.iter().map(|(m, _)| m.clone()).collect();
        let (alias_claims, alias_mentions, listed) = aliases::sentence(input.id, text, sent, &mentions, vocab);
        // (The names the sentence gives one party: "Claude Shaw aka Mac and Claude Mac … was
        // charged" lists one person, no co-defendants.)
        let one_party: Vec<(String, String)> = alias_claims.iter().filter(|c| c.rel == "ALIAS_OF").map(|c| (c.subject.0.clone(), c.object.0.clone())).collect();
        out.claims.extend(alias_claims);
        // A name only the alias statement found ("v. Dmitri Kovalenko a/k/a "Dima K," Brandon
        // L. Sutter, …") is a mention of the sentence's own, so the list it stands in reads on
        // over it; one over another mention's words (a longer written name) is kept beside it.
        let mut more = false;
        for m in alias_mentions {
            if ms.iter().any(|(x, _)| x.span.0 < m.span.1 && m.span.0 < x.span.1) {
                out.mentions.push((m, None));
            } else {
                ms.push((m, None));
                more = true;
            }
        }
        if more {
            ms.sort_by_key(|a| a.0.span);
            mentions = ms.iter().map(|(m, _)| m.clone()).collect();
        }
        out.listed.extend(listed);
        // Every relation joins two mentions: a sentence with fewer has none, but for one
        // whose second party (an authority) is implied.
        if ms.len() < 2 && !(ms.len() == 1 && enforcement::may_imply_authority(&text[sent.0..sent.1])) {
            out.mentions.extend(ms);
            continue;
        }
        let template = relations::template(&text[sent.0..sent.1], sent.0, &mentions);
        // (The Department of Justice where federal words place the sentence's case: read once
        // a sentence, if a charge's authority is implied.)
        let mut sentence_federal: Option<Option<Mention>> = None;
        for mut f in relations::find(&template, &mentions) {
            // An implied party (a settlement's authority): named in the sentence, else earlier
            // in the document, then cited as the claim's antecedent (INFERRED).
            let mut with_implied = None;
            if f.object == relations::IMPLIED {
                let before = &authority_mentions[..authority_mentions.partition_point(|(i, _)| *i < si)];
                let after = &authority_mentions[authority_mentions.partition_point(|(i, _)| *i <= si)..];
                // The Department of Justice where federal words imply it, cited at them (for a
                // charge, and for what a sentence or a plea agreement makes the party pay).
                let federal = if matches!(f.rel, "CHARGED" | "ORDERED_TO_PAY" | "SETTLED_WITH") {
                    sentence_federal
                        .get_or_insert_with(|| {
                            let at = match enforcement::federal_words(&text[sent.0..sent.1], true) {
                                // (In the text being read, `scope`.)
                                enforcement::CaseIn::Unsaid => *document_federal
                                    .get_or_insert_with(|| enforcement::federal_words(&text[scope.0..scope.1], false).federal().map(|(x, y)| (scope.0 + x, scope.0 + y))),
                                here => here.federal().map(|(a, b)| (sent.0 + a, sent.0 + b)),
                            };
                            at.map(|sp| Mention {
                                span: sp,
                                kind: "Organization",
                                key: "Organization:department of justice".into(),
                                surface: collapse(&text[sp.0..sp.1]),
                                attrs: vec![],
                            })
                        })
                        .as_ref()
                } else {
                    None
                };
                let publisher = record_publisher.get_or_insert_with(|| publisher(input)).as_ref();
                let named = enforcement::Named { before, after, federal, publisher };
                match enforcement::implied_object(f.rel, f.subject, &text[sent.0..sent.1], &mentions, named) {
                    Some(Ok(i)) => f.object = i,
                    Some(Err(m)) => {
                        let mut more = ms.clone();
                        more.push((Mention { span: sent, kind: m.kind, key: m.key.clone(), surface: m.surface.clone(), attrs: vec![] }, Some(m.span)));
                        f.object = more.len() - 1;
                        with_implied = Some(more);
                    }
                    None => continue,
                }
                // (A charge's or a designation's implied party is the authority that
                // charged or designated: its subject.)
                if matches!(f.rel, "CHARGED" | "DESIGNATED") {
                    std::mem::swap(&mut f.subject, &mut f.object);
                }
            }
            let ms = with_implied.as_ref().unwrap_or(&ms);
            let (s, o) = (&ms[f.subject], &ms[f.object]);
            // Nothing is related to itself: two mentions of one entity ("the company" read as
            // the PDVSA named after it) make no claim; nor are two names of one party
            // co-defendants.
            if s.0.key == o.0.key || (f.rel == "CO_DEFENDANT" && one_party.iter().any(|(a, b)| (*a == s.0.key && *b == o.0.key) || (*a == o.0.key && *b == s.0.key))) {
                continue;
            }
            // Judges and the authority's staff are named in a case, not parties to it.
            if [s, o].iter().any(|m| m.0.attrs.iter().any(|(k, v)| *k == "role" && matches!(v.as_str(), "judge" | "staff"))) {
                continue;
            }
            // An order the authority asks for ("The complaint seeks a court order requiring X
            // to disgorge …") is none a court has made: no claim.
            if f.rel == "ORDERED_TO_PAY" && modality::sought(&text[sent.0..s.0.span.0.clamp(sent.0, sent.1)]) {
                continue;
            }
            if let Err(e) = vocab.check(f.rel, s.0.kind, o.0.kind) {
                out.refused.push(e.to_string());
                continue;
            }
            out.claims.push(claim(input.id, text, sent, ms, &f, vocab));
            // The other parties "the defendants" stands for.
            for (i, arg) in [f.subject, f.object].into_iter().enumerate() {
                if !plural.contains(&ms[arg].0.span) {
                    continue;
                }
                for d in &defendants[1..] {
                    let mut each = ms.clone();
                    each[arg] = (Mention { key: d.0.clone(), kind: d.1, ..ms[arg].0.clone() }, Some(d.2));
                    let other = &each[if i == 0 { f.object } else { f.subject }].0;
                    if other.key != d.0 && vocab.check(f.rel, each[f.subject].0.kind, each[f.object].0.kind).is_ok() {
                        out.claims.push(claim(input.id, text, sent, &each, &f, vocab));
                    }
                }
            }
        }
        // ("The defendants" stands for several parties: no one mention of one of them.)
        ms.retain(|(m, _)| !plural.contains(&m.span));
        out.mentions.extend(ms);
    }
    list_claims(input, vocab, scope, &authority_mentions, &mut out);
    // (What the document-wide passes needed is freed before a table's claims are made.)
    drop(per_sentence);
    drop(coref);
    drop(authority_mentions);
    out.claims.extend(aliases::term_claims(input.id, text, input.sentences, &all, &terms, vocab));
    drop(all);
    drop(terms);
    table_claims(input, vocab, &mut out.refused, &mut out.claims);
    // One claim once: two readings of one sentence may state the same claim (the caption
    // and the plea of "In United States v. Celentano, …, Celentano pleaded guilty"), whose
    // id, a hash of what it says and where, is then the same.
    let mut seen = std::collections::BTreeSet::new();
    out.claims.retain(|c| seen.insert(c.id.clone()));
    out
}

/// The claims of the lists of defendants set out line by line ([`defendant_lists`]): each
/// member charged by the authority the introducing line implies (as for "X was indicted":
/// [`enforcement::implied_object`], found among the document's `authority_mentions`), and
/// every two members co-defendants. A claim quotes the introducing line through its
/// member's line (the later member's, for co-defendants).
fn list_claims(input: &Input, vocab: &Vocabulary, scope: Span, authority_mentions: &[(usize, Mention)], out: &mut Extraction) {
    let text = input.text;
    let lists = defendant_lists::find(text, scope, input.sentences, &out.mentions, |m| authorities::is_authority(&m.key));
    for list in lists {
        let mention = |i: usize| out.mentions[i].clone();
        let si = input.sentences.partition_point(|s| s.1 <= list.intro.0);
        let before = &authority_mentions[..authority_mentions.partition_point(|(i, _)| *i < si)];
        let after = &authority_mentions[authority_mentions.partition_point(|(i, _)| *i <= si)..];
        let intro_text = &text[list.intro.0..list.intro.1];
        let at = match enforcement::federal_words(intro_text, true) {
            enforcement::CaseIn::Unsaid => enforcement::federal_words(&text[scope.0..scope.1], false).federal().map(|(x, y)| (scope.0 + x, scope.0 + y)),
            here => here.federal().map(|(a, b)| (list.intro.0 + a, list.intro.0 + b)),
        };
        let federal =
            at.map(|sp| Mention { span: sp, kind: "Organization", key: "Organization:department of justice".into(), surface: collapse(&text[sp.0..sp.1]), attrs: vec![] });
        let published = publisher(input);
        let named = enforcement::Named { before, after, federal: federal.as_ref(), publisher: published.as_ref() };
        let members: Vec<((Mention, Option<Span>), Span)> = list.members.iter().map(|&(i, line)| (mention(i), line)).collect();
        let Some(first) = members.first() else { continue };
        let authority = match enforcement::implied_object("CHARGED", 0, intro_text, std::slice::from_ref(&first.0.0), named) {
            Some(Err(m)) => Some(m.clone()),
            _ => None,
        };
        let found = |rel: &'static str, subject: usize, object: usize| relations::Found { rel, subject, object, money: None, date: None, role: None, extra: vec![] };
        for (member, line) in &members {
            let Some(a) = &authority else { break };
            let quote = (list.intro.0, line.1);
            let ms = vec![member.clone(), (Mention { span: quote, kind: a.kind, key: a.key.clone(), surface: a.surface.clone(), attrs: vec![] }, Some(a.span))];
            match vocab.check("CHARGED", a.kind, member.0.kind) {
                Ok(()) => out.claims.push(claim(input.id, text, quote, &ms, &found("CHARGED", 1, 0), vocab)),
                Err(e) => out.refused.push(e.to_string()),
            }
        }
        for (j, (later, line)) in members.iter().enumerate() {
            for (earlier, _) in &members[..j] {
                let quote = (list.intro.0, line.1);
                let ms = vec![earlier.clone(), later.clone()];
                match vocab.check("CO_DEFENDANT", earlier.0.kind, later.0.kind) {
                    Ok(()) => out.claims.push(claim(input.id, text, quote, &ms, &found("CO_DEFENDANT", 0, 1), vocab)),
                    Err(e) => out.refused.push(e.to_string()),
                }
            }
        }
    }
}

/// Where a document that names no commission cites the federal securities laws the SEC
/// enforces (the Securities Act, the Securities Exchange Act, the Investment Advisers and
/// Investment Company Acts, "the federal securities laws"): the first citation's span.
/// None where it names a commission (its "Commission" is that one) or cites the Commodity
/// Exchange Act (the CFTC's "Commission").
fn securities_laws_cited<'a>(text: &str, mut mentions: impl Iterator<Item = &'a Mention>) -> Option<Span> {
    static LAWS: LazyLock<Regex> = LazyLock::new(|| {
        entities::re(
            r"\b(?:Securities\s+Act\s+of\s+1933|Securities\s+Exchange\s+Act(?:\s+of\s+1934)?|Investment\s+Advisers\s+Act|Investment\s+Company\s+Act|federal\s+securities\s+laws)\b",
        )
    });
    if text.contains("Commodity Exchange Act") || mentions.any(|m| m.kind == "Organization" && m.key.contains("commission")) {
        return None;
    }
    LAWS.find(text).map(|m| (m.start(), m.end()))
}

/// A plural reference to a case's defendants ("the defendants", "both defendants", "each of
/// the defendants"); "the remaining defendants" and "other defendants" name only some.
static DEFENDANTS: LazyLock<Regex> = LazyLock::new(|| entities::re(r"\b(?:[Tt]he|[Bb]oth|[Aa]ll|[Aa]ll\s+(?:of\s+)?the|[Ee]ach\s+of\s+the)\s+defendants\b"));

/// The parties charged in `claims` (the objects of CHARGED, first mention first): key, type
/// and the span of the mention that names them.
fn charged_parties(claims: &[Claim]) -> Vec<(String, &'static str, Span)> {
    let mut out: Vec<(String, &'static str, Span)> = vec![];
    for c in claims.iter().filter(|c| c.rel == "CHARGED") {
        let Some((_, at)) = c.args else { continue };
        let named = c.antecedents.iter().find(|a| a.2 == at).map_or(at, |a| a.1);
        if !out.iter().any(|d| d.0 == c.object.0) {
            out.push((c.object.0.clone(), c.object.1, named));
        }
    }
    out
}

/// Marks people named as a judge (`role: judge`: "Judge X", "the Honorable X", "U.S.
/// District Judge X") or as the authority's staff (`role: staff`: "Assistant U.S. Attorney
/// X", "the investigation was conducted by X", "X of the Division of Enforcement"), so that
/// they are not taken for parties. Their names are kept whole.
fn mark_roles(text: &str, sent: Span, ms: &mut [(Mention, Option<Span>)]) {
    static JUDGE: LazyLock<Regex> = LazyLock::new(|| {
        entities::re(r"(?:\b(?:Chief\s+|Senior\s+|District\s+|Magistrate\s+|Bankruptcy\s+|Circuit\s+|Administrative\s+Law\s+)?Judge|\bJustice|\bHonorable|\bHon\.)\s*$")
    });
    static STAFF_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
        entities::re(
            r"(?i)(?:\bassistant\s+(?:u\.\s?s\.\s+|united\s+states\s+)?attorneys?|\btrial\s+attorneys?|\bstaff\s+(?:attorneys?|accountants?|members?)|\bprosecutors?|\b(?:was|were|is|are|been|being)\s+(?:conducted|handled|led|supervised|assisted|litigated)\s+by|\bwill\s+be\s+(?:led|handled|litigated)\s+by)\s+(?:(?-i:\p{Lu})[\p{L}.'’-]*\s+|,\s*|and\s+){0,12}$",
        )
    });
    static STAFF_AFTER: LazyLock<Regex> = LazyLock::new(|| {
        entities::re(
            r"^[^.;]{0,60}?\b(?:of|in)\s+the\s+(?:(?:SEC|Commission)['’]s\s+)?(?:Division\s+of\s+Enforcement|Enforcement\s+Division|[A-Z][a-z]+\s+Regional\s+Office|Office\s+of\s+the\s+(?:General\s+Counsel|Chief\s+Accountant))",
        )
    });
    // The patterns run on parts of the sentence: one without their words cannot match
    // ([`roles::RoleWords`]), and most sentences have none of them.
    let mut words: Option<roles::RoleWords> = None;
    for i in 0..ms.len() {
        if ms[i].0.kind != "Person" || ms[i].0.attrs.iter().any(|(k, _)| *k == "role") {
            continue;
        }
        let w = *words.get_or_insert_with(|| roles::RoleWords::of(text, sent));
        let (a, b) = ms[i].0.span;
        let before = &text[sent.0.min(a)..a];
        let after = &text[b..sent.1.max(b)];
        let role = if w.judge && JUDGE.is_match(before) {
            Some("judge")
        } else if (w.staff_before && STAFF_BEFORE.is_match(before)) || (w.staff_after && STAFF_AFTER.is_match(after)) {
            Some("staff")
        } else {
            None
        };
        if let Some(r) = role {
            ms[i].0.attrs.push(("role", r.to_string()));
        }
    }
}

fn claim(doc: &str, text: &str, sent: Span, ms: &[(Mention, Option<Span>)], f: &relations::Found, vocab: &Vocabulary) -> Claim {
    let quote = sent;
    let qtext = &text[quote.0..quote.1];
    let (s, o) = (&ms[f.subject].0, &ms[f.object].0);
    // Modality and date are read in the clause that carries the relation (`clause.rs`): the
    // span of its arguments (an implied object has none in the sentence) widened to clause
    // boundaries.
    // (An implied party — an authority the sentence leaves implied — stands for the whole
    // sentence; a charge's is its subject.)
    let implied_s = ms[f.subject].1.is_some_and(|_| s.span == sent);
    let implied = ms[f.object].1.is_some_and(|_| o.span == sent);
    let party = if implied_s { o.span } else { s.span };
    let mut spans = vec![party];
    if !implied && !implied_s {
        spans.push(o.span);
    }
    spans.extend(f.money.iter().chain(f.extra.iter().map(|(_, m)| m)).map(|&m| ms[m].0.span));
    let lo = spans.iter().map(|x| x.0).min().unwrap_or(quote.0).saturating_sub(quote.0);
    let hi = spans.iter().map(|x| x.1).max().unwrap_or(quote.1).saturating_sub(quote.0);
    let cl = clause::clause(qtext, (lo, hi));
    let scope = if cl.framed { (0, cl.end) } else { (cl.start, cl.end) };
    // A role stated in an apposition ("X, the founder and CEO of Y, raised $5 million by
    // falsely promising returns"): the clause's words after the apposition are what X did,
    // not what X is; the role's modality is read up to the comma that closes it.
    let appositive = matches!(f.rel, "OFFICER_OF" | "EMPLOYED_BY" | "DIRECTOR_OF" | "ASSOCIATED_WITH" | "SUBSIDIARY_OF" | "OWNS")
        && hi > lo
        && hi < cl.end
        && qtext[hi..].starts_with(',')
        && qtext[lo..hi].contains(',');
    let modality_clause = if appositive { clause::Clause { end: hi, ..cl } } else { cl };
    let mut modality = modality::modality(&clause::modality_text(qtext, modality_clause, (lo, hi)));
    // An enforcement act is matched only where its own verb is affirmed (the patterns admit
    // no "not", "never" or "allegedly" before "charged", "consented", "designated"): a
    // denial or a hedge in its clause is the conduct's ("alleges that X raised $5 million by
    // falsely promising returns", "the owner of a purported clinic, X, was convicted",
    // "X allegedly paid Y, which was designated by OFAC"), not the act's.
    // (So is an attribution after its parties: "X has been charged … for participating in
    // the alleged conspiracy"; one before them, "the complaint alleges that X …", frames it.)
    let act = matches!(f.rel, "CHARGED" | "CO_DEFENDANT" | "SETTLED_WITH" | "ORDERED_TO_PAY" | "DESIGNATED");
    if act && (matches!(modality, Modality::Denied | Modality::Hedged) || modality == Modality::Reported && modality::modality(&qtext[cl.start.min(hi)..hi]) != Modality::Reported)
    {
        modality = Modality::Assertion;
    }
    if modality == Modality::Assertion && cl.framed {
        let frame = &qtext[..cl.start];
        modality = modality::modality(frame);
        // "alleged that A falsely stated that B, and that C …": C continues one of two
        // complements, which the text does not say; the attribution's, not the denial's or
        // the hedge's, where both frame it.
        if matches!(modality, Modality::Denied | Modality::Hedged) && modality::governing(frame) == Some(Modality::Reported) {
            modality = Modality::Reported;
        }
    }
    // Attribution and open questions scope over the rest of the sentence ("… alleged that A,
    // B, and C …"); denials and hedges stay in their clause.
    if modality == Modality::Assertion && cl.start > 0 {
        modality = modality::governing(&qtext[..cl.start]).unwrap_or(modality);
    }
    let scope = if modality != Modality::Assertion && cl.start > 0 && modality::governing(&qtext[..cl.start]) == Some(modality) { (0, cl.end) } else { scope };
    // A wrongdoing stated in a charge ("X was indicted … for his role in a conspiracy to
    // defraud Y") is the authority's allegation: reported, unless the sentence also states
    // a finding or an admission.
    if modality == Modality::Assertion && matches!(f.rel, "DEFRAUDED" | "MISAPPROPRIATED_FROM" | "PAID") && modality::charged_not_found(&qtext[..hi.min(qtext.len())]) {
        modality = Modality::Reported;
    }
    if modality == Modality::Reported && matches!(f.rel, "CHARGED" | "CO_DEFENDANT") && modality::charging_paper(&qtext[..o.span.0.saturating_sub(quote.0).min(qtext.len())]) {
        modality = Modality::Assertion;
    }
    if qtext.trim_end().ends_with('?') && modality != Modality::Undecided {
        modality = Modality::Question;
    }
    let stext = &qtext[scope.0..scope.1];
    // The asserter: a party next to the attribution words, inside the clause or its frame.
    let mut asserter = std::borrow::Cow::Borrowed("document");
    if modality == Modality::Reported
        && let Some((a, b)) = modality::attribution(stext)
    {
        let (a, b) = (quote.0 + scope.0 + a, quote.0 + scope.0 + b);
        let cue = &text[a..b];
        let party = |m: &&(Mention, Option<Span>)| matches!(m.0.kind, "Person" | "Organization") && m.0.key != s.key && m.0.key != o.key;
        // Only spaces, a comma or a title may sit between the party and the cue.
        let close = |from: usize, to: usize| {
            let gap = text[from..to].trim().trim_end_matches('.');
            matches!(gap, "" | "," | "Mr" | "Mrs" | "Ms" | "Dr" | "Prof")
        };
        let found = if cue.to_lowercase().starts_with("according to") {
            ms.iter().filter(party).find(|m| m.0.span.0 >= b && close(b, m.0.span.0))
        } else {
            ms.iter().filter(party).rev().find(|m| m.0.span.1 <= a && close(m.0.span.1, a))
        };
        // (Not the court a charging paper was filed in: "The SEC's complaint, filed in the
        // U.S. District Court …, alleges".)
        if let Some(m) = found
            && !relations::FILED_IN.is_match(&text[text[..m.0.span.0].rfind(['.', ';', '\n']).map_or(0, |k| k + 1)..m.0.span.0])
        {
            asserter = m.0.key.clone().into();
        }
    }
    // A denial is the denier's: the party just before "denied" in the quote ("Marek Novak
    // denied that he controls …"), even when it is the claim's own subject.
    if modality == Modality::Denied
        && let Some((a, _)) = modality::denial(stext)
    {
        let a = quote.0 + scope.0 + a;
        let gap_ok = |from: usize| matches!(text[from..a].trim(), "" | ",");
        if let Some(m) = ms.iter().rfind(|m| matches!(m.0.kind, "Person" | "Organization") && m.0.span.1 <= a)
            && gap_ok(m.0.span.1)
        {
            asserter = m.0.key.clone().into();
        }
    }
    let mut attrs = vec![];
    if let Some(mi) = f.money {
        let m = &ms[mi].0;
        // A stated total of several transfers is `total_amount`, never `amount` (totals.rs),
        // where the vocabulary has it.
        let (from, to) = (quote.0 + cl.start, quote.0 + cl.end);
        let stated = totals::total(&text[from.min(m.span.0)..m.span.0], &text[m.span.1..to.max(m.span.1)]);
        let as_total = stated.total && vocab.check_attribute(f.rel, "total_amount").is_ok();
        for (k, v) in &m.attrs {
            let k = if as_total && *k == "amount" { "total_amount" } else { *k };
            if vocab.check_attribute(f.rel, k).is_ok() {
                attrs.push((k, v.clone(), m.span));
            }
        }
        if let Some(n) = stated.count.filter(|_| as_total && vocab.check_attribute(f.rel, "transfers").is_ok()) {
            attrs.push(("transfers", n.to_string(), m.span));
        }
    }
    // Amounts by kind ("penalty", "disgorgement"), with the currency of the first.
    for (k, mi) in &f.extra {
        let m = &ms[*mi].0;
        let amount = m.attrs.iter().find(|a| a.0 == "amount").map(|a| a.1.clone());
        if let Some(v) = amount
            && vocab.check_attribute(f.rel, k).is_ok()
        {
            attrs.push((*k, v, m.span));
            if let Some(c) = m.attrs.iter().find(|a| a.0 == "currency")
                && !attrs.iter().any(|a| a.0 == "currency")
                && vocab.check_attribute(f.rel, "currency").is_ok()
            {
                attrs.push(("currency", c.1.clone(), m.span));
            }
        }
    }
    if let Some(r) = &f.role
        && vocab.check_attribute(f.rel, "role").is_ok()
    {
        attrs.push(("role", r.clone(), quote));
    }
    // The validity date: the date mention in the clause nearest the subject, else the last
    // one of the frame before it (an opening "On 4 March 2024, …"); never another clause's.
    let day = |m: &&(Mention, Option<Span>)| m.0.kind == "Date" && m.0.key.len() == "Date:2024-01-01".len();
    let (c0, c1) = (quote.0 + cl.start, quote.0 + cl.end);
    let valid = ms
        .iter()
        .filter(day)
        .filter(|m| m.0.span.0 >= c0 && m.0.span.1 <= c1)
        .min_by_key(|m| m.0.span.0.abs_diff(party.0))
        .or_else(|| ms.iter().filter(day).rfind(|m| m.0.span.1 <= c0))
        .map(|m| (m.0.key["Date:".len()..].to_string(), m.0.span));
    let correction = modality::correction(qtext).map(|(a, b)| (text[quote.0 + a..quote.0 + b].to_lowercase(), (quote.0 + a, quote.0 + b)));
    let antecedents = [&ms[f.subject], &ms[f.object]].iter().filter_map(|m| m.1.map(|ante| (m.0.key.clone(), ante, m.0.span))).collect();
    let id = hex16(&[doc, &quote.0.to_string(), &quote.1.to_string(), &s.key, f.rel, &o.key]);
    Claim {
        id,
        subject: (s.key.clone(), s.kind),
        rel: f.rel,
        object: (o.key.clone(), o.kind),
        modality,
        asserter,
        quote,
        attrs,
        valid,
        correction,
        antecedents,
        args: Some((s.span, o.span)),
    }
}

/// Columns of a transfer table, by header words.
fn column<'a>(fields: &'a [&'a Field], names: &[&str]) -> Option<&'a Field> {
    fields.iter().copied().find(|f| {
        let k = f.key.to_lowercase();
        names.iter().any(|n| k == *n || k.starts_with(&format!("{n}_")) || k.ends_with(&format!("_{n}")) || k.starts_with(&format!("{n} ")))
    })
}

fn party_kind(name: &str) -> &'static str {
    let ms = entities::find(name, (0, name.len()), None);
    if ms.iter().any(|m| m.kind == "Organization") {
        "Organization"
    } else if name.split_whitespace().count() >= 2 && name.split_whitespace().all(|w| w.chars().next().is_some_and(char::is_uppercase)) {
        "Person"
    } else {
        "Organization"
    }
}

/// TRANSFERRED claims from the rows of a transfer table, added to `out`: a row with an
/// originator, a beneficiary and an amount column (header words, any common naming).
/// Records in ascending order; a table's fields (in record order as ingest gives them) are
/// read a record at a time, not grouped first.
fn table_claims(input: &Input, vocab: &Vocabulary, refused: &mut Vec<String>, out: &mut Vec<Claim>) {
    if input.fields.is_sorted_by_key(|f| f.record) {
        let mut fields: Vec<&Field> = vec![];
        for run in input.fields.chunk_by(|a, b| a.record == b.record) {
            fields.clear();
            fields.extend(run);
            record_claim(input, vocab, &fields, refused, out);
        }
    } else {
        let mut by_record: BTreeMap<u32, Vec<&Field>> = BTreeMap::new();
        for f in input.fields {
            by_record.entry(f.record).or_default().push(f);
        }
        for fields in by_record.values() {
            record_claim(input, vocab, fields, refused, out);
        }
    }
}

/// The TRANSFERRED claim of one record's fields (see [`table_claims`]), if it makes one.
fn record_claim(input: &Input, vocab: &Vocabulary, fields: &[&Field], refused: &mut Vec<String>, out: &mut Vec<Claim>) {
    let from = column(fields, &["originator", "sender", "payer", "debtor", "remitter", "ordering_customer", "from"]);
    let to = column(fields, &["beneficiary", "receiver", "recipient", "payee", "creditor", "to"]);
    let amount = column(fields, &["amount", "value", "sum"]);
    let (Some(from), Some(to), Some(amount)) = (from, to, amount) else { return };
    let text = input.text;
    let (a, b) = (collapse(from.value(text)), collapse(to.value(text)));
    if a.is_empty() || b.is_empty() {
        return;
    }
    let (ka, kb) = (party_kind(&a), party_kind(&b));
    if let Err(e) = vocab.check("TRANSFERRED", ka, kb) {
        refused.push(e.to_string());
        return;
    }
    let start = fields.iter().map(|f| f.span().0).min().unwrap_or(0);
    let end = fields.iter().map(|f| f.span().1).max().unwrap_or(0);
    let quote = (start, end);
    let mut attrs = vec![];
    let currency = column(fields, &["currency", "ccy"])
        .map(|c| c.value(text).trim().to_uppercase())
        .or_else(|| ["usd", "eur", "gbp", "chf", "jpy"].iter().find(|c| amount.key.to_lowercase().contains(*c)).map(|c| c.to_uppercase()));
    let digits: String = amount.value(text).chars().filter(|c| c.is_ascii_digit() || *c == '.').collect();
    if !digits.is_empty() {
        attrs.push(("amount", digits.trim_end_matches(".00").to_string(), amount.span()));
    }
    if let Some(c) = currency {
        attrs.push(("currency", c, amount.span()));
    }
    if let Some(r) = column(fields, &["reference", "ref", "id", "wire_id", "transaction_id"]) {
        attrs.push(("reference", r.value(text).trim().to_string(), r.span()));
    }
    let valid = column(fields, &["date", "value_date", "booking_date"]).and_then(|d| {
        let ms = entities::find(d.value(text), (0, d.value(text).len()), None);
        ms.into_iter().find(|m| m.kind == "Date" && m.key.len() == "Date:2024-01-01".len()).map(|m| (m.key["Date:".len()..].to_string(), d.span()))
    });
    if let Some((iso, sp)) = &valid {
        attrs.push(("date", iso.clone(), *sp));
    }
    let subject = (format!("{ka}:{}", name_key(&a)), ka);
    let object = (format!("{kb}:{}", name_key(&b)), kb);
    let id = hex16(&[input.id, &start.to_string(), &end.to_string(), &subject.0, "TRANSFERRED", &object.0]);
    out.push(Claim {
        id,
        subject,
        rel: "TRANSFERRED",
        object,
        modality: Modality::Assertion,
        asserter: "document".into(),
        quote,
        attrs,
        valid,
        correction: None,
        antecedents: vec![],
        args: None,
    });
}

/// Extracts a canonical document as ingest produced it: its facts, and one warning per
/// distinct refusal by the vocabulary (with how many claims it refused).
/// The facts are packed ([`PackedFacts`]: every string once, no vector a fact), so a large
/// document's claims cost a few words each until the store reads them a piece at a time.
pub fn document_facts(id: &str, x: &tg_text::document::Extracted, vocab: &Vocabulary) -> (PackedFacts, Vec<String>) {
    let mut out = PackedFacts::new();
    let warnings = each_block_facts(id, x, vocab, &mut |block, _| {
        if out.is_empty() {
            out = block;
            Ok(())
        } else {
            out.append(&block)
        }
    });
    out.seal();
    // (Appending packed facts cannot fail: no error reaches here.)
    (out, warnings.unwrap_or_default())
}

/// Extracts a canonical document a block at a time ([`BLOCK_BYTES`]), giving `emit` each
/// block's facts (packed, sealed) as they are made, with the byte the next block begins
/// at (`None` after the last): what [`document_facts`] gives, in pieces, so a large
/// document's facts can be written as they come. No later block's mention begins before
/// that byte (its sentences and fields begin there or after). Returns the refusal
/// warnings; stops at the first error `emit` returns.
pub fn each_block_facts(
    id: &str,
    x: &tg_text::document::Extracted,
    vocab: &Vocabulary,
    emit: &mut dyn FnMut(PackedFacts, Option<usize>) -> Result<(), tg_store::StoreError>,
) -> Result<Vec<String>, tg_store::StoreError> {
    // (A structured file's records are read value by value: a JSON record's title, body and
    // address are no one sentence — "…Wire Fraud\",\"publishedAt\":…,\"body\":\"A federal …".)
    let mut records: Vec<Span> = x.blocks.iter().filter(|b| b.kind == "record").map(|b| b.span).collect();
    records.sort_unstable();
    let sentences = if records.is_empty() { tg_text::chunk::region_sentences(&x.text, &x.blocks) } else { value_sentences(&x.text, &records, &x.fields) };
    let mut people = vec![];
    for m in &x.messages {
        for c in m.sender.iter().chain(m.recipients.iter().map(|(c, _)| c)) {
            people.push((c.value.clone(), c.span));
        }
    }
    let date = x.messages.iter().find_map(|m| m.time.as_ref()).map(|t| t.value.clone());
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    // A large document is extracted a block of sentences at a time (docs/ARCHITECTURE.md,
    // "Large documents"): names, defined terms and coreference are read within a block.
    // (A structured file's records — JSON Lines' objects, a JSON array's — are read each on
    // its own: a news archive's releases share no authority, no defined term, no "he".)
    let record_starts: Vec<usize> = records.iter().map(|r| r.0).collect();
    let all = blocks(&x.text, &sentences, &x.fields, BlockLimit { bytes: BLOCK_BYTES, fields: BLOCK_FIELDS }, &record_starts);
    for (k, &(sents, fields)) in all.iter().enumerate() {
        let next = all.get(k + 1).and_then(|(s, _)| s.first()).map(|s| s.0);
        let input = Input { id, text: &x.text, sentences: sents, fields, people: &people, date: date.clone() };
        let extraction = extract(&input, vocab);
        for r in &extraction.refused {
            *refused.entry(r.clone()).or_default() += 1;
        }
        // As `packed_facts`, freeing what is packed as it goes: the mentions once their
        // facts are made, each claim once its facts are.
        let mut out = PackedFacts::new();
        entity_facts(id, &extraction, &x.fields, &x.text, &mut out);
        let Extraction { mentions, claims, .. } = extraction;
        drop(mentions);
        for c in claims {
            claim_facts(id, &c, &mut out);
        }
        out.seal();
        emit(out, next)?;
    }
    Ok(refused.into_iter().map(|(why, n)| format!("{n} claim(s) refused: {why}")).collect())
}

/// The authority whose web site published a record (a structured file's address field,
/// "url": "https://www.justice.gov/…", [`authorities::publisher`]), cited at the address.
fn publisher(input: &Input) -> Option<Mention> {
    let ends_with = |k: &str, end: &str| k.len() >= end.len() && k.get(k.len() - end.len()..).is_some_and(|e| e.eq_ignore_ascii_case(end));
    input.fields.iter().find_map(|f| {
        let k: &str = &f.key;
        if !(k.eq_ignore_ascii_case("url") || k.eq_ignore_ascii_case("link") || ends_with(k, "_url") || ends_with(k, ".url")) {
            return None;
        }
        let key = authorities::publisher(f.value(input.text))?;
        let sp = f.span();
        Some(Mention { span: sp, kind: "Organization", key: key.into(), surface: collapse(&input.text[sp.0..sp.1]), attrs: vec![] })
    })
}

/// The sentences of a structured file's values: each field's value split on its own, in
/// text order (a value's sentences never run into the next key). A title's value keeps the
/// quotation marks the file writes around it ("title":"Former Contractor Sentenced to 39
/// Months …"): a headline in title case, quoted, is read as a quoted title is (no run of its
/// capitalised words is a name for that alone: `ner::quoted_titles`).
/// Text outside the records (a line that is no valid JSON, kept as text) and a record
/// without fields are read as prose: nothing is left unread.
/// `records` are the record blocks' spans, in text order.
fn value_sentences(text: &str, records: &[Span], fields: &[Field]) -> Vec<Span> {
    let titled = |f: &Field| {
        let k = f.key.rsplit('.').next().unwrap_or_default();
        ["title", "headline", "heading", "subject"].iter().any(|t| k.eq_ignore_ascii_case(t))
    };
    let quoted = |(a, b): Span| a > 0 && text.as_bytes().get(a - 1) == Some(&b'"') && text.as_bytes().get(b) == Some(&b'"');
    let mut values: Vec<Span> = fields.iter().map(|f| if titled(f) && quoted(f.span()) { (f.span().0 - 1, f.span().1 + 1) } else { f.span() }).collect();
    values.sort_unstable();
    values.dedup();
    let prose = |a: usize, b: usize| tg_text::chunk::sentences(text, a, b);
    let mut out = vec![];
    let (mut at, mut v) = (0usize, 0usize);
    for &(a, b) in records {
        if at < a {
            out.extend(prose(at, a));
        }
        // (The values that begin before this record are a record's before it, or none's.)
        while v < values.len() && values[v].0 < a {
            v += 1;
        }
        let first = v;
        while v < values.len() && values[v].1 <= b {
            v += 1;
        }
        if first == v {
            out.extend(prose(a.max(at), b));
        } else {
            out.extend(values[first..v].iter().flat_map(|&(x, y)| prose(x, y)));
        }
        at = at.max(b);
    }
    if at < text.len() {
        out.extend(prose(at, text.len()));
    }
    out
}

/// The text a document is extracted in at once, at most (bytes of sentences): a document
/// of more is extracted a block at a time, so extraction's memory is bounded by a block's,
/// not the document's (issue 19). Larger than any prose document we have read whole.
pub const BLOCK_BYTES: usize = 1 << 20;

/// The fields a block holds, at most (a table's cells): a table's extraction holds ~340
/// bytes a cell (its mentions, row claims and their packed facts), so 1 MiB of rows
/// (~80,000 cells) held ~27 MB; 16,384 cells hold ~6 MB (docs/BENCHMARKS.md, "Blocks of
/// cells, a smaller cache, cells one at a time"). A row's claim reads its own cells, so
/// what a table loses at a cut is little: coreference and names found again across rows
/// ~2,300 rows apart (109 of a 50,000-row table's facts).
pub const BLOCK_FIELDS: usize = 16_384;

/// How much one block holds, at most: bytes of sentences and fields.
#[derive(Clone, Copy, Debug)]
struct BlockLimit {
    bytes: usize,
    fields: usize,
}

/// The blocks a document is extracted in: runs of whole sentences of at most `limit`
/// bytes and fields (a longer sentence alone), each with the fields that start between its
/// first sentence and the next block's (a record's fields all in its first field's block);
/// one block, everything, for a document within `limit` (or with fields out of text
/// order, which ingest never gives).
/// A block also ends where one of `records` (the bytes where a structured file's records
/// begin, in order) begins: each record is read on its own, with its fields.
fn blocks<'a>(text: &str, sentences: &'a [Span], fields: &'a [Field], limit: BlockLimit, records: &[usize]) -> Vec<(&'a [Span], &'a [Field])> {
    if (text.len() <= limit.bytes && fields.len() <= limit.fields && records.len() <= 1) || sentences.is_empty() || !fields.is_sorted_by_key(|f| f.span().0) {
        return vec![(sentences, fields)];
    }
    // Where each block begins: its first sentence, and the byte its fields begin at (a
    // record's start, or the sentence's).
    let mut cuts = vec![(0usize, 0usize)];
    let mut start = sentences[0].0;
    let mut next_record = records.partition_point(|&r| r <= start);
    // Fields that begin before the current block's first sentence, and before the end of
    // the sentence at hand (both only move forward: sentences are in text order).
    let (mut before_start, mut before_end) = (0usize, 0usize);
    for (i, s) in sentences.iter().enumerate().skip(1) {
        let mut record = None;
        while next_record < records.len() && records[next_record] <= s.0 {
            record = Some(records[next_record]);
            next_record += 1;
        }
        while before_end < fields.len() && fields[before_end].span().0 < s.1 {
            before_end += 1;
        }
        if record.is_some() || s.1 - start > limit.bytes || before_end - before_start > limit.fields {
            let begin = record.unwrap_or(s.0);
            cuts.push((i, begin));
            start = s.0;
            while before_start < fields.len() && fields[before_start].span().0 < begin {
                before_start += 1;
            }
        }
    }
    cuts.push((sentences.len(), usize::MAX));
    // Fields by the byte where each block begins (the first block from byte 0, the last
    // to the end), a record whole in the block its first field is in (a row's claim
    // reads all its cells).
    let mut ends: Vec<usize> = cuts[1..]
        .iter()
        .map(|&(_, begin)| {
            let mut z = fields.partition_point(|f| f.span().0 < begin);
            while z > 0 && z < fields.len() && fields[z].record == fields[z - 1].record {
                z += 1;
            }
            z
        })
        .collect();
    ends.insert(0, 0);
    for k in 1..ends.len() {
        ends[k] = ends[k].max(ends[k - 1]);
    }
    cuts.windows(2).zip(ends.windows(2)).map(|(c, f)| (&sentences[c[0].0..c[1].0], &fields[f[0]..f[1]])).collect()
}

/// The facts of an extraction (relations declared in `stdlib/schema.dl`); `fields` are
/// the document's, `text` its text (a field's value is read from it).
pub fn facts(doc: &str, x: &Extraction, fields: &[Field], text: &str) -> Vec<CitedFact> {
    let mut out = PackedFacts::new();
    packed_facts(doc, x, fields, text, &mut out);
    out.to_vec()
}

/// The facts of [`facts`], in the same order, added to `out` (packed: no string copied a fact).
pub fn packed_facts(doc: &str, x: &Extraction, fields: &[Field], text: &str, out: &mut PackedFacts) {
    entity_facts(doc, x, fields, text, out);
    for c in &x.claims {
        claim_facts(doc, c, out);
    }
}

/// The facts of [`packed_facts`] before the claims': entities, mentions (with a table's
/// party cells), their attributes, coreference, enumerations.
fn entity_facts(doc: &str, x: &Extraction, fields: &[Field], text: &str, out: &mut PackedFacts) {
    let sym = Arg::Sym;
    let wide = |sp: Span| (sp.0 as u64, sp.1 as u64);
    // Table parties: entities cited by their cells.
    // The fields inside a quote: a range of the fields when they are in text order (as
    // ingest gives them), so a table of N rows costs N lookups, not N × N.
    let in_order = fields.is_sorted_by_key(|f| f.span().0);
    let inside = move |q: Span| -> &[Field] {
        if in_order {
            let a = fields.partition_point(|f| f.span().0 < q.0);
            let b = fields.partition_point(|f| f.span().0 < q.1);
            &fields[a..b.max(a)]
        } else {
            fields
        }
    };
    // (A cell's party borrows the claim's key, and its surface the cell's value when
    // collapsing the value's whitespace leaves it as it is: no strings a cell.)
    let party_cells: Vec<(&str, &'static str, Span, std::borrow::Cow<str>)> = x
        .claims
        .iter()
        .filter(|c| {
            c.antecedents.is_empty()
                && c.attrs.iter().any(|a| a.0 == "reference" || a.0 == "amount")
                && inside(c.quote).iter().any(|f| f.span().0 >= c.quote.0 && f.span().1 <= c.quote.1)
        })
        .flat_map(|c| {
            inside(c.quote).iter().filter(move |f| f.span().0 >= c.quote.0 && f.span().1 <= c.quote.1).filter_map(move |f| {
                let value = f.value(text);
                let v = collapse(value);
                let v = if v == value { std::borrow::Cow::Borrowed(value) } else { std::borrow::Cow::Owned(v) };
                [&c.subject, &c.object].into_iter().find(|(k, kind)| *k == format!("{kind}:{}", name_key(&v))).map(|(k, kind)| (k.as_str(), *kind, f.span(), v))
            })
        })
        .collect();
    // Entities and mentions: one fact each, citing every span. The facts of a key come in
    // key order and cite its spans in the order found (the mentions', then the cells');
    // a stable sort of the sources by key groups them so without a vector of spans a key.
    let named: Vec<&Mention> = x.mentions.iter().filter(|(_, ante)| ante.is_none()).map(|(m, _)| m).collect();
    let mut entities: Vec<(&str, &str, Span)> = named.iter().map(|m| (m.key.as_str(), m.kind, m.span)).chain(party_cells.iter().map(|(k, kind, sp, _)| (*k, *kind, *sp))).collect();
    grouped(&mut entities, |e| (e.0, e.1), |e| wide(e.2), |(key, kind, _), spans| out.push("entity", &[sym(key), sym(kind)], Tag::Extracted, spans));
    drop(entities);
    let mut mentions: Vec<(&str, &str, Span)> =
        named.iter().map(|m| (m.key.as_str(), m.surface.as_str(), m.span)).chain(party_cells.iter().map(|(k, _, sp, surface)| (*k, surface.as_ref(), *sp))).collect();
    grouped(&mut mentions, |e| (e.0, e.1), |e| wide(e.2), |(key, surface, _), spans| out.push("mention", &[sym(doc), sym(key), sym(surface)], Tag::Extracted, spans));
    drop(mentions);
    // An identifier cites the name and the identifier together.
    let mut attrs: Vec<(&str, &str, &str, Span)> = named
        .iter()
        .flat_map(|m| m.attrs.iter().map(|(k, v)| (m.key.as_str(), *k, v.as_str(), m.span)))
        .chain(x.identifiers.iter().map(|id| (id.entity.as_str(), id.kind, id.value.as_str(), id.span)))
        .collect();
    grouped(&mut attrs, |e| (e.0, e.1, e.2), |e| wide(e.3), |(key, k, v, _), spans| out.push("entity_attr", &[sym(key), sym(k), sym(v)], Tag::Extracted, spans));
    drop(attrs);
    let mut corefs: Vec<(&str, &str, Span)> = x.mentions.iter().filter(|(_, ante)| ante.is_some()).map(|(m, _)| (m.surface.as_str(), m.key.as_str(), m.span)).collect();
    grouped(&mut corefs, |e| (e.0, e.1), |e| wide(e.2), |(surface, key, _), spans| out.push("coref", &[sym(doc), sym(surface), sym(key)], Tag::Inferred, spans));
    out.extend_from_slice(&aliases::facts(doc, &x.listed));
}

/// Sorts `items` stably by `key` and calls `emit` once a key, in key order, with the
/// key's first item and the spans of its items in their order before the sort: what a
/// `BTreeMap` from key to a vector of spans gives, without a vector a key.
fn grouped<T: Copy, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K, span: impl Fn(&T) -> (u64, u64), mut emit: impl FnMut(T, &[(u64, u64)])) {
    items.sort_by_key(&key);
    let mut spans: Vec<(u64, u64)> = vec![];
    for run in items.chunk_by(|a, b| key(a) == key(b)) {
        spans.clear();
        spans.extend(run.iter().map(&span));
        emit(run[0], &spans);
    }
}

/// One claim's facts (the last of [`packed_facts`]).
fn claim_facts(doc: &str, c: &Claim, out: &mut PackedFacts) {
    let sym = Arg::Sym;
    let tag = if c.antecedents.is_empty() { Tag::Extracted } else { Tag::Inferred };
    let polarity = if c.modality == Modality::Denied { "negative" } else { "positive" };
    let q = [(c.quote.0 as u64, c.quote.1 as u64)];
    out.push("claim", &[sym(&c.id), sym(doc), sym(&c.subject.0), sym(c.rel), sym(&c.object.0), sym(c.modality.name()), sym(polarity), sym(&c.asserter)], tag, &q);
    for (k, v, sp) in &c.attrs {
        out.push("claim_attr", &[sym(&c.id), sym(k), sym(v)], tag, &[(sp.0 as u64, sp.1 as u64)]);
    }
    if let Some((d, sp)) = &c.valid {
        out.push("claim_valid", &[sym(&c.id), sym(d)], tag, &[(sp.0 as u64, sp.1 as u64)]);
    }
    if let Some((cue, sp)) = &c.correction {
        out.push("claim_correction", &[sym(&c.id), sym(cue)], tag, &[(sp.0 as u64, sp.1 as u64)]);
    }
    for (key, ante, referring) in &c.antecedents {
        out.push("claim_antecedent", &[sym(&c.id), sym(key)], Tag::Inferred, &[(ante.0 as u64, ante.1 as u64), (referring.0 as u64, referring.1 as u64)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_capitals_over_line_breaks() {
        assert_eq!(capitals_of(&["McQuade", "SEC", "Ann", "Joseph E. Grendi", "Al B"]), [("JOSEPH E. GRENDI".to_string(), 3)]);
        let text = "v. JOSEPH E.\r\n  GRENDI, Ü\tX";
        let (flat, at) = one_line(text);
        assert_eq!(flat, "v. JOSEPH E. GRENDI, Ü X");
        assert_eq!(at.len(), flat.len());
        let s = flat.find("GRENDI").unwrap_or_default();
        assert_eq!(&text[at[s]..at[s + 5] + 1], "GRENDI");
        let u = flat.find('Ü').unwrap_or_default();
        assert_eq!((at[u], at[u + 1]), (text.find('Ü').unwrap_or_default(), text.find('Ü').unwrap_or_default() + 1));
    }

    #[test]
    fn a_large_document_is_read_in_blocks_of_whole_sentences() {
        let text = "Aa aa. Bb bb. Cc cc. Dd dd.";
        let sents: Vec<Span> = vec![(0, 6), (7, 13), (14, 20), (21, 27)];
        let field = |at: usize| Field::new(at as u32, "k".into(), &text[at..at + 2], (at, at + 2), text);
        let fields = vec![field(0), field(7), field(15), field(22)];
        // At most 13 bytes of sentences a block: two sentences each, the fields with them.
        let bytes = |n: usize| BlockLimit { bytes: n, fields: usize::MAX };
        let got = blocks(text, &sents, &fields, bytes(13), &[]);
        let spans: Vec<(Vec<Span>, Vec<usize>)> = got.iter().map(|(s, f)| (s.to_vec(), f.iter().map(|f| f.span().0).collect())).collect();
        assert_eq!(spans, vec![(vec![(0, 6), (7, 13)], vec![0, 7]), (vec![(14, 20), (21, 27)], vec![15, 22])]);
        // A sentence longer than a block is a block alone; a short document is one block.
        assert_eq!(blocks(text, &sents, &fields, bytes(5), &[]).len(), 4);
        assert_eq!(blocks(text, &sents, &fields, bytes(100), &[]).len(), 1);
        // A record's fields stay together, in the block of its first field.
        let row = |at: usize| Field::new(7, "k".into(), &text[at..at + 2], (at, at + 2), text);
        let split = vec![field(0), row(7), row(15), field(22)];
        let got = blocks(text, &sents, &split, bytes(13), &[]);
        assert_eq!(got.iter().map(|(_, f)| f.iter().map(|f| f.span().0).collect::<Vec<_>>()).collect::<Vec<_>>(), vec![vec![0, 7, 15], vec![22]]);
        // Fields out of text order (never from ingest): one block, so none is lost.
        let shuffled = vec![field(22), field(0)];
        assert_eq!(blocks(text, &sents, &shuffled, bytes(13), &[]).len(), 1);
        // Every sentence and every field is in exactly one block.
        for limit in 1..30 {
            let got = blocks(text, &sents, &fields, bytes(limit), &[]);
            assert_eq!(got.iter().map(|(s, _)| s.len()).sum::<usize>(), 4, "{limit}");
            assert_eq!(got.iter().map(|(_, f)| f.len()).sum::<usize>(), 4, "{limit}");
        }
        // At most two fields a block, however few the bytes; a record's fields stay
        // together even past the limit; a sentence with more fields than the limit is
        // a block alone.
        let cells = |n: usize| BlockLimit { bytes: usize::MAX, fields: n };
        let starts = |got: Vec<(&[Span], &[Field])>| got.iter().map(|(s, f)| (s.len(), f.iter().map(|f| f.span().0).collect::<Vec<_>>())).collect::<Vec<_>>();
        assert_eq!(starts(blocks(text, &sents, &fields, cells(2), &[])), vec![(2, vec![0, 7]), (2, vec![15, 22])]);
        assert_eq!(starts(blocks(text, &sents, &fields, cells(3), &[])), vec![(3, vec![0, 7, 15]), (1, vec![22])]);
        assert_eq!(starts(blocks(text, &sents, &split, cells(1), &[])), vec![(1, vec![0]), (1, vec![7, 15]), (1, vec![]), (1, vec![22])]);
        let crowded = vec![field(0), field(2), field(7), field(9), field(15)];
        assert_eq!(starts(blocks(text, &sents, &crowded, cells(1), &[])), vec![(1, vec![0, 2]), (1, vec![7, 9]), (2, vec![15])]);
        assert_eq!(blocks(text, &sents, &fields, cells(4), &[]).len(), 1);
        // Each record of a structured file is a block, with its fields, however small.
        let unlimited = BlockLimit { bytes: usize::MAX, fields: usize::MAX };
        let records = vec![field(0), field(7), Field::new(2, "k".into(), &text[15..17], (15, 17), text), Field::new(2, "k".into(), &text[22..24], (22, 24), text)];
        assert_eq!(starts(blocks(text, &sents, &records, unlimited, &[0, 7, 14])), vec![(1, vec![0]), (1, vec![7]), (2, vec![15, 22])]);
    }

    fn claims(text: &str) -> Vec<String> {
        let x = extracted(text);
        x.claims.iter().map(|c| format!("{}({}, {})", c.rel, c.subject.0, c.object.0)).collect()
    }

    /// A state named formally or by its abbreviation is its country, a place, also where its
    /// definition makes the short name a term; FinCEN's designation of one is a claim, a
    /// place merely sanctioned is none.
    #[test]
    fn formal_states_are_their_countries() {
        let text = "The Islamic Republic of Iran (Iran) uses front companies. Iran moved funds through the People’s Republic of China. FinCEN has designated the DPRK as a jurisdiction of primary money laundering concern. OFAC sanctioned Iran in May.";
        let x = extracted(text);
        let places: Vec<(&str, &str)> = x.mentions.iter().filter(|(m, _)| m.kind != "Date").map(|(m, _)| (m.surface.as_str(), m.key.as_str())).collect();
        for (surface, key) in
            [("Islamic Republic of Iran", "Location:iran"), ("Iran", "Location:iran"), ("People’s Republic of China", "Location:china"), ("DPRK", "Location:north korea")]
        {
            assert!(places.contains(&(surface, key)), "{surface}: {places:?}");
        }
        assert!(!places.iter().any(|(_, k)| k.starts_with("Organization:") && (k.contains("iran") || k.contains("dprk"))), "{places:?}");
        assert_eq!(
            claims(text).iter().filter(|c| c.starts_with("DESIGNATED")).collect::<Vec<_>>(),
            ["DESIGNATED(Organization:financial crimes enforcement network, Location:north korea)"]
        );
        // The United States by its abbreviation (after an office's title too), a U.S. state
        // by its AP abbreviation.
        let text = "Dana Roe, 45, of Montgomery, Ala., pleaded guilty before U.S. District Judge Ann Lee, announced Assistant Attorney General Mark Bell of the Justice Department’s Criminal Division, Acting U.S. Attorney John Doe of the Central District of California and Special Agent in Charge Ed Poe. She moved the money to the U.S. in May.";
        let x = extracted(text);
        let places: Vec<(&str, &str)> = x.mentions.iter().filter(|(m, _)| m.kind == "Location").map(|(m, _)| (m.surface.as_str(), m.key.as_str())).collect();
        for (surface, key) in [("Ala", "Location:alabama"), ("U.S.", "Location:united states")] {
            assert!(places.contains(&(surface, key)), "{surface}: {places:?}");
        }
        assert!(!x.mentions.iter().any(|(m, _)| m.surface.starts_with("Acting")), "{:?}", x.mentions);
    }

    /// A country is no short name of a "person" whose name opens with no given name (the
    /// tagger's "Social de Venezuela", cut from a bank's Spanish name), but is the surname
    /// of a person whose name opens with one.
    #[test]
    fn a_country_is_a_surname_only_after_a_given_name() {
        let kinds = |text: &str, surface: &str| -> Vec<String> {
            let x = extracted(text);
            x.mentions.iter().filter(|(m, _)| m.surface == surface).map(|(m, _)| m.key.clone()).collect()
        };
        let text = "Mr. Zoltar Peru met the investors in Lima.\n\nMining in Peru grew after the deal.\n\nThe mines of Peru employ many.";
        let ks = kinds(text, "Peru");
        assert!(ks.len() == 2 && ks.iter().all(|k| k == "Location:peru"), "{ks:?}");
        let text = "From: Chris Germany. X-Folder: Germany, Chris. Germany, Chris wrote the note.";
        let ks = kinds(text, "Germany");
        assert!(!ks.is_empty() && ks.iter().all(|k| k.starts_with("Person:")), "{ks:?}");
    }

    /// Words around a name that are no person's: the "Charge" of an office's title "… in
    /// Charge", a country, a storm's name found again, a register's abbreviation.
    #[test]
    fn titles_countries_storms_and_registers_are_no_people() {
        let people = |text: &str| -> Vec<String> { extracted(text).mentions.iter().filter(|(m, _)| m.kind == "Person").map(|(m, _)| m.surface.clone()).collect() };
        let ps = people("The arrest was announced by U.S. Attorney Ann Lee and FBI Cleveland Special Agent in Charge Eric B. Smith.");
        assert!(ps.contains(&"Eric B. Smith".to_string()) && !ps.iter().any(|p| p.starts_with("Charge")), "{ps:?}");
        let ps = people(
            "Bus Owners Convicted Involving Puerto Rico Public School Bus Services MENU News All News Blogs Photo Galleries Podcasts Press Releases Speeches Videos Archived Press Releases Archived News Para Notícias en Español Press Release. A federal jury in Puerto Rico convicted four individuals.",
        );
        assert!(!ps.contains(&"Puerto Rico".to_string()), "{ps:?}");
        let ps = people(
            "Scams related to Hurricanes Harvey, Irma, and Maria may grow. Analysts saw 743 domain names containing the word “Irma,” and most include the word “relief.” More scams related to Hurricanes Harvey, Irma, and Maria are likely.",
        );
        // (The storms' names are none; the quoted word is left as the tagger read it.)
        assert!(ps.iter().filter(|p| *p == "Irma").count() <= 1 && !ps.iter().any(|p| p == "Harvey" || p == "Maria"), "{ps:?}");
        let ps = people("See FinCEN, Beneficial Ownership Information Reporting Requirements, 87 Fed. Reg. 59,501 (Sept. 30, 2022).");
        assert!(!ps.iter().any(|p| p.contains("Reg")), "{ps:?}");
    }

    /// A caption written in capitals ("SECURITIES AND EXCHANGE COMMISSION V. …") names the
    /// defendants, as one in mixed case does; a member with an alias in parentheses does not
    /// end a caption's list.
    #[test]
    fn captions_in_capitals_and_with_aliases_name_the_defendants() {
        let got = claims(
            "SECURITIES AND EXCHANGE COMMISSION V. PEREGRINE FUNDING, INC., GRAFTON PARTNERS, and JAMES L. HILLMAN, Civil Action No. 01-CV-0496 H (S.D. Cal.)\n\nThe Commission filed its complaint alleging that James L. Hillman raised $330 million through his control of Peregrine Funding, Inc. and by selling securities in Grafton Partners.",
        );
        for party in ["Organization:peregrine funding inc", "Organization:grafton partners", "Person:james l. hillman"] {
            assert!(got.contains(&format!("CHARGED(Organization:securities and exchange commission, {party})")), "{party}: {got:?}");
        }
        let got = claims(
            "SEC v. William P. Trainor, Medical Diagnostic Products, Inc. (f/k/a Novatek International, Inc.), Karen Losordo and Geraldine Trainor, Civil Action No. 98CV01533 (D.D.C.)",
        );
        for party in ["Person:william p. trainor", "Organization:medical diagnostic products inc", "Person:karen losordo", "Person:geraldine trainor"] {
            assert!(got.contains(&format!("CHARGED(Organization:securities and exchange commission, {party})")), "{party}: {got:?}");
        }
        assert!(!got.iter().any(|c| c.starts_with("CHARGED") && c.contains("novatek")), "{got:?}");
    }

    /// A surname refers to the person named in full though a company's defined term opens
    /// with it ("James Asset Advisory, LLC ("James Asset")", which the tagger reads as a
    /// person).
    #[test]
    fn a_surname_is_the_persons_beside_a_term_that_opens_with_it() {
        let text = "The Securities and Exchange Commission filed a complaint against Anthony A. James, an adviser.  The complaint alleges that James used his position as owner of James Asset Advisory, LLC (\"James Asset\") to receive funds.  The Commission seeks an injunction against James and James Asset.";
        let keys: Vec<String> = extracted(text).mentions.iter().filter(|(m, _)| m.surface == "James").map(|(m, _)| m.key.clone()).collect();
        assert!(keys.len() == 2 && keys.iter().all(|k| k == "Person:anthony a. james"), "{keys:?}");
    }

    /// A federal criminal case's caption ("United States v. X") is the prosecutor's charge:
    /// the U.S. Attorney the document names, else the Department of Justice; a state's
    /// ("Texas v. X") is none.
    #[test]
    fn a_federal_criminal_caption_is_the_prosecutors_charge() {
        let got = claims("Front companies moved the funds. See United States v. Dana Roe, No. 1:19-cr-00123 (S.D. Fla. 2019).");
        assert_eq!(got, ["CHARGED(Organization:department of justice, Person:dana roe)"]);
        let got = claims(
            "UNITED STATES OF AMERICA v. DANA ROE and LEE PARK, Defendants, Criminal No. 19-123\n\nThe United States Attorney's Office for the District of Columbia filed the indictment.",
        );
        for party in ["Person:dana roe", "Person:lee park"] {
            assert!(got.iter().any(|c| c.starts_with("CHARGED(Organization:united states attorney") && c.ends_with(&format!("{party})"))), "{party}: {got:?}");
        }
        assert!(claims("Front companies moved the funds. See Texas v. Dana Roe, No. 19-123 (Tex. Crim. App. 2019).").is_empty());
        // The caption and the plea of one sentence state one claim, given once.
        let got = claims(
            "The U.S. Department of Justice charged Vincent D. Celentano. In United States v. Celentano, 01-6179-CR-WDF, Celentano pleaded guilty to making a false statement.",
        );
        assert_eq!(got.iter().filter(|c| c.starts_with("CHARGED(Organization:department of justice, Person:vincent d. celentano)")).count(), 2, "{got:?}");
    }

    /// The names the sentence gives one party ("aka Mac and Roy Mac") are no co-defendants.
    #[test]
    fn one_party_named_twice_is_no_co_defendant() {
        let got = claims("Roy Shaw aka Mac and Roy Mac, a U.S. citizen residing in Ohio, was charged in federal court with two counts of mail fraud.");
        assert!(got.iter().any(|c| c.starts_with("ALIAS_OF(Person:roy shaw, Person:roy mac)")), "{got:?}");
        assert!(!got.iter().any(|c| c.starts_with("CO_DEFENDANT")), "{got:?}");
    }

    /// A plea after an age and an alias is the party's as the document names it first.
    #[test]
    fn a_plea_after_an_age_and_an_alias_is_the_first_name() {
        let got = claims("Alan Curtis, 32, aka Al Curtis, of Miami, pleaded guilty before U.S. District Judge Joan Roe.");
        assert!(got.contains(&"CHARGED(Organization:department of justice, Person:alan curtis)".to_string()), "{got:?}");
        assert!(!got.iter().any(|c| c.starts_with("CHARGED") && c.contains("al curtis")), "{got:?}");
        // An alias in brackets, written with periods.
        let got = claims("Alan Curtis (a.k.a. Al Curtis), of Miami, pleaded guilty before U.S. District Judge Joan Roe.");
        assert!(got.contains(&"CHARGED(Organization:department of justice, Person:alan curtis)".to_string()), "{got:?}");
        assert!(got.contains(&"ALIAS_OF(Person:alan curtis, Person:al curtis)".to_string()), "{got:?}");
    }

    /// A record published on an authority's web site (its "url" field) reports that
    /// authority's case: a plea or a sentence with no prosecutor named is the publisher's,
    /// cited at the address; a record from elsewhere gives no such claim.
    #[test]
    fn a_press_releases_publisher_is_its_prosecutor() {
        let run = |url: &str| {
            let text = format!("{{\"url\":\"{url}\",\"body\":\"Alan Curtis, 45, of Tampa, was sentenced today to 87 months in prison for embezzling.\"}}");
            let at = text.find(url).unwrap_or_default();
            let body = text.find("Alan").unwrap_or_default();
            let end = text.rfind('"').unwrap_or_default();
            let fields = vec![
                Field::new(0, tg_text::document::FieldKey::from("url"), url, (at, at + url.len()), &text),
                Field::new(0, tg_text::document::FieldKey::from("body"), &text[body..end], (body, end), &text),
            ];
            let sents = [(body, end)];
            let x = extract(&Input { id: "t", text: &text, sentences: &sents, fields: &fields, people: &[], date: None }, Vocabulary::builtin());
            x.claims
                .iter()
                .map(|c| (format!("{}({}, {})", c.rel, c.subject.0, c.object.0), c.antecedents.iter().map(|a| text[a.1.0..a.1.1].to_string()).collect::<Vec<_>>()))
                .collect::<Vec<_>>()
        };
        let url = "https://www.justice.gov/opa/pr/tampa-man-sentenced";
        assert_eq!(run(url), [("CHARGED(Organization:department of justice, Person:alan curtis)".to_string(), vec![url.to_string()])]);
        assert!(run("https://www.example.com/tampa-man-sentenced").is_empty());
    }

    /// A structured record's values are sentences each, a title's with its quotation marks.
    #[test]
    fn a_records_values_are_its_sentences() {
        let text = r#"{"title":"Acme Owner Sentenced For Role In Fraud Scheme","body":"Alan Curtis pleaded guilty. He was sentenced."}"#;
        let field = |k: &str, v: &str| {
            let at = text.find(v).unwrap_or_default();
            Field::new(0, tg_text::document::FieldKey::from(k), v, (at, at + v.len()), text)
        };
        let fields = vec![field("title", "Acme Owner Sentenced For Role In Fraud Scheme"), field("body", "Alan Curtis pleaded guilty. He was sentenced.")];
        let got: Vec<&str> = value_sentences(text, &[(0, text.len())], &fields).into_iter().map(|(a, b)| &text[a..b]).collect();
        assert_eq!(got, ["\"Acme Owner Sentenced For Role In Fraud Scheme\"", "Alan Curtis pleaded guilty.", "He was sentenced."]);
        // A line that is no record (invalid JSON, kept as text) is read as prose.
        let two = format!("{text}\nnot json: Carl Roe pleaded guilty.\n");
        let got: Vec<&str> = value_sentences(&two, &[(0, text.len())], &fields).into_iter().map(|(a, b)| &two[a..b]).collect();
        assert_eq!(got.last().copied(), Some("not json: Carl Roe pleaded guilty."));
    }

    /// A denial or a hedge in a charge's clause is the conduct's, not the charge's.
    #[test]
    fn a_charge_is_not_denied_by_the_conduct_it_describes() {
        let x = extracted("The SEC sued Alan Curtis on May 2. The SEC's complaint alleges that Curtis raised $5 million by falsely promising guaranteed returns.");
        let got: Vec<String> = x.claims.iter().map(|c| format!("{}({}, {}) {:?}", c.rel, c.subject.0, c.object.0, c.modality)).collect();
        assert!(!got.is_empty() && got.iter().all(|c| c.ends_with("Assertion")), "{got:?}");
        let x = extracted("The owner of a purported clinic, Alan Curtis, was convicted by a federal jury.");
        let got: Vec<String> = x.claims.iter().map(|c| format!("{}({}, {}) {:?}", c.rel, c.subject.0, c.object.0, c.modality)).collect();
        assert_eq!(got, ["CHARGED(Organization:department of justice, Person:alan curtis) Assertion"]);
        // An attribution after the party is the conduct's; one before it frames the charge;
        // an authority's action that alleges is its charge.
        let modalities = |t: &str| extracted(t).claims.iter().map(|c| format!("{}({}) {:?}", c.rel, c.object.0, c.modality)).collect::<Vec<_>>();
        assert_eq!(
            modalities("Real estate investor Alan Curtis has been charged in federal court with one count of bid rigging for participating in the alleged conspiracy."),
            ["CHARGED(Person:alan curtis) Assertion"]
        );
        assert_eq!(
            modalities("According to documents provided to the court, Alan Curtis pleaded guilty to wire fraud in federal court."),
            ["CHARGED(Person:alan curtis) Reported"]
        );
        let got = modalities(
            "The Securities and Exchange Commission sued Beta LLC. The Commission's action, filed on May 2, alleged that Acme Corp. and Alan Curtis sold unregistered securities.",
        );
        assert!(got.contains(&"CHARGED(Person:alan curtis) Assertion".to_string()) && got.iter().all(|c| c.ends_with("Assertion")), "{got:?}");
    }

    /// A role in an apposition is not denied by what the clause goes on to say its holder did.
    #[test]
    fn a_role_in_an_apposition_keeps_its_own_modality() {
        let got = claims("Alan Curtis, the founder and chief executive officer of Orchard Hill Advisors LLC, raised $5 million by falsely promising returns.");
        let x = extracted("Alan Curtis, the founder and chief executive officer of Orchard Hill Advisors LLC, raised $5 million by falsely promising returns.");
        assert!(got.contains(&"OFFICER_OF(Person:alan curtis, Organization:orchard hill advisors llc)".to_string()), "{got:?}");
        assert!(x.claims.iter().all(|c| c.modality == Modality::Assertion), "{:?}", x.claims);
        // A role denied in its own clause stays denied.
        let x = extracted("Alan Curtis falsely claimed that he was the chief executive officer of Orchard Hill Advisors LLC.");
        assert!(!x.claims.is_empty() && x.claims.iter().all(|c| c.modality == Modality::Denied), "{:?}", x.claims);
    }

    /// A federal jury's verdict of guilty is the prosecutor's charge, for each party it names.
    #[test]
    fn a_federal_jurys_verdict_is_the_department_of_justices() {
        let got = claims("A federal jury in Miami yesterday found Alan Curtis and Joan Roe guilty of wire fraud.");
        assert_eq!(
            got,
            [
                "CO_DEFENDANT(Person:alan curtis, Person:joan roe)",
                "CHARGED(Organization:department of justice, Person:alan curtis)",
                "CHARGED(Organization:department of justice, Person:joan roe)"
            ]
        );
        assert!(claims("A jury in Miami found Alan Curtis not guilty of wire fraud.").is_empty());
    }

    /// A kind of people or of business in capitals is no name; a body's name with such a
    /// word is one.
    #[test]
    fn kinds_of_people_in_capitals_name_no_one() {
        assert!(
            ["Bank Tellers", "AML/BSA Departments", "U.S. Financial Institutions", "Legal and Compliance Departments", "Fraudsters", "Customer-Facing Officers"]
                .iter()
                .all(|n| names_a_kind(n))
        );
        assert!(
            ![
                "Bureau of Financial Institutions",
                "National Association of Special Police and Security Officers",
                "Lehman Brothers",
                "United Nations",
                "Kaseya Units",
                "Acme Officers LLC"
            ]
            .iter()
            .any(|n| names_a_kind(n))
        );
    }

    /// Storms are named as people are, and are none.
    #[test]
    fn a_storm_is_no_person() {
        let text = "Fraud followed Hurricanes Harvey, Irma, and Maria, and Jane Roe of Houston sold fake relief.";
        let x = extracted(text);
        let people: Vec<&str> = x.mentions.iter().filter(|(m, _)| m.kind == "Person").map(|(m, _)| m.surface.as_str()).collect();
        assert!(!people.iter().any(|p| p.contains("Harvey") || *p == "Irma" || *p == "Maria"), "{people:?}");
        assert!(people.contains(&"Jane Roe"), "{people:?}");
        assert_eq!(storm_names("after Tropical Storm Allison hit, Typhoon Haiyan hit"), Some(vec![(6, 28), (34, 48)]));
        assert_eq!(storm_names("Harvey Weinstein"), None);
    }

    /// A name that runs into "Press Release" is a web page's heading; "Associated Press" is
    /// a name.
    #[test]
    fn a_press_release_heading_names_no_one() {
        assert!(in_press_release_heading("Justice.gov Office of Public Affairs News Press Releases Former", " DEA Agent"));
        assert!(in_press_release_heading("Español Press", " Release Alabama Woman Sentenced"));
        assert!(!in_press_release_heading("Associated Press", " reported"));
        assert!(!in_press_release_heading("Press Ganey Associates", ", Inc."));
        let x = extracted("See Department of Justice Press Release, “Acme Owner Pleads Guilty,” (May 2, 2019).");
        assert!(x.mentions.iter().any(|(m, _)| m.key == "Organization:department of justice" && m.surface == "Department of Justice"), "{:?}", x.mentions);
    }

    /// A company's name without its line of business ("Florida West" of "Florida West
    /// Airlines, Inc.") is the company.
    #[test]
    fn a_company_without_its_line_of_business_is_the_company() {
        let got = claims(
            "The Commission sued two former employees of Florida West Airlines, Inc., a cargo carrier. The complaint alleges that Maury Joseph, Florida West's former CEO, misstated revenues.",
        );
        assert!(got.contains(&"OFFICER_OF(Person:maury joseph, Organization:florida west airlines inc)".to_string()), "{got:?}");
    }

    /// The first words of a law's title are no name: "Investment Advisers" of the Act.
    #[test]
    fn a_law_title_names_no_one() {
        let text = "Roe is enjoined from violating the antifraud provisions of the federal securities laws, specifically Sections 5(a) and 17(a) of the Securities Act of 1933, Section 10(b) of the Securities Exchange Act of 1934 and Rule 10b-5 thereunder, and Sections 206(1) and (2) of the Investment Advisers Act.\n\nThe order finds that Roe violated Section 15(b) of the Exchange Act and Section 203(f) of the Investment Advisers Act of 1940, Making Findings, Imposing Remedial Sanctions. Acme Actuarial LLC hired Roe.";
        let x = extracted(text);
        let names: Vec<&str> = x.mentions.iter().filter(|(m, _)| matches!(m.kind, "Organization" | "Person" | "Location")).map(|(m, _)| m.surface.as_str()).collect();
        assert!(!names.iter().any(|n| n.contains("Advisers")), "{names:?}");
        assert!(names.contains(&"Acme Actuarial LLC"), "{names:?}");
        assert!(before_act(" Act of 1940") && before_act(" Acts.") && before_act("\nAct") && !before_act(" Action") && !before_act(" Actuarial"));
    }

    /// A headline's words in title case are no names: not the tagger's run with the verb
    /// in it, nor the company a rule reads before the verb; an authority stays one.
    #[test]
    fn a_headline_in_title_case_names_no_one() {
        let text = "Press Release Owner of Miami Home Health Company Pleads Guilty for Role in Fraud Scheme\n\nJustice Department Announces Charges. For Immediate Release Office of Public Affairs The Acme Ltd. owner was charged.";
        let x = extracted(text);
        let names: Vec<&str> = x.mentions.iter().filter(|(m, _)| matches!(m.kind, "Organization" | "Person")).map(|(m, _)| m.surface.as_str()).collect();
        assert!(!names.iter().any(|n| n.contains("Company") || n.contains("Announces")), "{names:?}");
        assert!(names.contains(&"Justice Department") && names.contains(&"Acme Ltd."), "{names:?}");
        // A press release's "For Immediate Release" is no part of the office's name after it,
        // and a capitalised article opens what a web page's run-together lines say next.
        assert!(names.contains(&"Office of Public Affairs"), "{names:?}");
        // A headline's amount in capitals is money, its magnitude no name's first word.
        let x = extracted("Former Executive Convicted For Orchestrating $750 Million Securities Fraud Scheme at Acme Ltd.\n\nA Billion-Dollar Venezuelan Scheme Ends.");
        let names: Vec<&str> = x.mentions.iter().filter(|(m, _)| matches!(m.kind, "Organization" | "Person")).map(|(m, _)| m.surface.as_str()).collect();
        assert!(!names.iter().any(|n| n.contains("Million") || n.contains("Billion")), "{names:?}");
        assert!(x.mentions.iter().any(|(m, _)| m.key == "Money:USD 750000000"), "{:?}", x.mentions);
    }

    /// The packed searcher of `find_all` finds what the leftmost-longest automaton finds:
    /// names that are prefixes, suffixes and parts of each other, over texts of their letters.
    #[test]
    fn find_all_packed_equals_the_automaton() {
        let words = ["Ab", "Abc", "bc", "c", "Ab Cd", "Cd", "d Ab", "Abc Cd", "b", "Ab Ab"];
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for round in 0..300 {
            let n = 17 + round % 100;
            let patterns: Vec<String> = (0..n).map(|i| format!("{}{}", words[next() % words.len()], if i % 3 == 0 { format!(" {i}") } else { String::new() })).collect();
            let mut unique: Vec<&str> = vec![];
            for p in &patterns {
                if !unique.contains(&p.as_str()) {
                    unique.push(p);
                }
            }
            if unique.len() <= 16 {
                continue;
            }
            let text: String = (0..(5 + next() % 400)).map(|_| words[next() % words.len()]).collect::<Vec<_>>().join(if next() % 2 == 0 { " " } else { "" });
            let ac = aho_corasick::AhoCorasick::builder().match_kind(aho_corasick::MatchKind::LeftmostLongest).build(&unique).unwrap_or_else(|e| panic!("{e}"));
            let want: Vec<(usize, usize, usize)> = ac.find_iter(&text).map(|m| (m.start(), m.end(), m.pattern().as_usize())).collect();
            assert_eq!(find_all(&text, &unique), want, "{unique:?} in {text:?}");
        }
    }

    /// The people (surfaces) of a text, in order.
    fn people(text: &str) -> Vec<String> {
        let x = extracted(text);
        x.mentions.iter().filter(|(m, _)| m.kind == "Person").map(|(m, _)| m.surface.clone()).collect()
    }

    #[test]
    fn a_persons_name_written_after_a_determiner_is_a_defined_term() {
        // The tagger reads the heading's "Ward" as a surname (a census surname, as "Loan" and
        // "Person" are); the contract writes it after "this" and "the": a defined term, in
        // every sentence of the document.
        let heading = "Section 5. 1 Repayment of Ward and Payment of Purchase Price.";
        assert_eq!(people(heading), ["Ward"]);
        let contract = format!("{heading} This Ward Agreement binds Marek Novak. Marek Novak shall repay the Ward in full.");
        assert_eq!(people(&contract), ["Marek Novak", "Marek Novak"]);
        // "that" before a name is the conjunction: the surname is still the person.
        assert_eq!(people("The complaint names Ronald Barber. It alleges that Barber wired USD 5,000 to Acme Ltd."), ["Ronald Barber", "Barber"]);
    }

    #[test]
    fn a_denial_is_the_deniers() {
        let text = "Marek Novak denied that he controls Gamma Consulting LLC. Acme Ltd did not transfer any funds to Beta Ltd.";
        let x = extracted(text);
        let got: Vec<(String, &str, String)> = x.claims.iter().map(|c| (c.rel.to_string(), c.modality.name(), c.asserter.to_string())).collect();
        assert_eq!(got, [("CONTROLS".to_string(), "denied", "Person:marek novak".to_string()), ("TRANSFERRED".to_string(), "denied", "document".to_string())]);
    }

    #[test]
    fn modality_and_date_come_from_the_claims_clause() {
        let text = "Vesta Media Corp. falsely portrayed its finances on 1 May 2023, and Nolan Freight Ltd wired USD 5,000 to Vesta Media Corp. on 2 June 2023. \
                    The complaint alleged that Acme Ltd, Beta Ltd, and Gamma Ltd paid Delta Ltd USD 7.";
        let x = extracted(text);
        let got: Vec<(String, &str, Option<String>)> = x.claims.iter().map(|c| (c.rel.to_string(), c.modality.name(), c.valid.as_ref().map(|v| v.0.clone()))).collect();
        assert_eq!(got, [("TRANSFERRED".to_string(), "assertion", Some("2023-06-02".to_string())), ("PAID".to_string(), "reported", None)]);
    }

    #[test]
    fn a_name_described_as_a_business_is_one() {
        assert!(entities::described_as_business(", a nominee corporation that received the proceeds"));
        assert!(entities::described_as_business(", a Swedish security services firm, in connection with"));
        assert!(entities::described_as_business(" (\"Acme\"), a Nevada corporation based in Reno"));
        // A person's role, a company's officer, a firm named later: no apposition of a business.
        assert!(!entities::described_as_business(", a partner of the firm."));
        assert!(!entities::described_as_business(", a former bank officer, pleaded guilty"));
        assert!(!entities::described_as_business(", the company's founder"));
        assert!(!entities::described_as_business(", a company officer"));
        assert!(!entities::described_as_business(" and a corporation"));
        // With "is"/"was", an organisation of another kind, modifiers joined by "and".
        assert!(entities::described_as_business(" is a major Turkish weapons manufacturer and defense contractor based in Ankara."));
        assert!(entities::described_as_business(" is a Japanese video game development and publishing company formed from"));
        assert!(entities::described_as_business(" was an American punk rock band."));
        assert!(!entities::described_as_business(" was a bank teller at Acme."));
        assert!(!entities::described_as_business(" is a party to the agreement."));
        assert!(!entities::described_as_business(" was a member of the band."));
        // A name right after an organisation's noun.
        assert!(entities::named_after_business_noun("the first album by American punk rock band "));
        assert!(entities::named_after_business_noun("shares of the Japanese carmaker "));
        assert!(!entities::named_after_business_noun("a former bank employee "));
        assert!(!entities::named_after_business_noun("the company founder "));
        assert!(!entities::named_after_business_noun("the bandleader "));
        // Through the extractor: the tagger's person is retyped wherever the document names it.
        let kinds = |text: &str, name: &str| {
            let sents = tg_text::chunk::sentences(text, 0, text.len());
            let x = extract(&Input { id: "t", text, sentences: &sents, fields: &[], people: &[], date: None }, Vocabulary::builtin());
            x.mentions.iter().filter(|(m, _)| m.surface == name).map(|(m, _)| m.kind).collect::<Vec<_>>()
        };
        let text = "Mr. Drescher was working on the team advising Halvorsen, a Swedish security services firm, on the acquisition. Halvorsen paid the fee.";
        let tagged: Vec<&str> = ner::BUILTIN.names(text, (0, text.len())).into_iter().filter(|(sp, _)| &text[sp.0..sp.1] == "Halvorsen").map(|(_, k)| k).collect();
        let described = kinds(text, "Halvorsen");
        assert!(tagged.contains(&"Person") && described == ["Organization", "Organization"], "{tagged:?} {described:?}");
        // A role word opening a business's description names the business.
        assert_eq!(kinds("The profits were received by defendant Net Income, a nominee corporation that Smith controlled.", "Net Income"), ["Organization"]);
    }

    #[test]
    fn a_term_for_a_title_that_ends_with_the_party_is_not_the_party() {
        // "Final Judgment" is the judgment's short name, not Womack's; "Borrower" is Acme's.
        let text = "The court entered a Final Judgment Of Permanent Injunction Against Jerry A. Womack (\"Final Judgment\"). Womack paid USD 5,000 to Acme Ltd on 1 May 2023.";
        let m = |a: &str| {
            let s = text.find(a).unwrap_or(0);
            Mention { span: (s, s + a.len()), kind: "Person", key: String::new(), surface: a.to_string(), attrs: vec![] }
        };
        assert!(titles_the_party(text, &m("Jerry A. Womack"), "Final Judgment"));
        assert!(!titles_the_party(text, &m("Jerry A. Womack"), "Womack"));
        let contract = "This agreement is between Acme Solar Inc. (\"Borrower\") and the Borrower's bank.";
        let s = contract.find("Acme").unwrap_or(0);
        let acme = Mention { span: (s, s + 15), kind: "Organization", key: String::new(), surface: "Acme Solar Inc.".into(), attrs: vec![] };
        assert!(!titles_the_party(contract, &acme, "Borrower"));
    }

    #[test]
    fn a_term_defined_after_a_partys_description_is_the_party() {
        // The contract's way: the party, its description, then the term.
        assert_eq!(
            claims(
                "This agreement is between Acme Solar Inc., a Delaware corporation (\"Borrower\"), and Silicon Valley Bank (\"Bank\"). Borrower wired USD 5,000 to Bank on 1 May 2023."
            ),
            ["REGISTERED_AT(Organization:acme solar inc, Location:delaware)", "TRANSFERRED(Organization:acme solar inc, Organization:silicon valley bank)"]
        );
        // A description that names another party leaves the term to the nearer name.
        assert_eq!(
            claims("Acme Solar Inc., a subsidiary of Beta Holdings Ltd (\"Parent\"), is a party. Parent wired USD 5,000 to Gamma Ltd on 1 May 2023."),
            ["SUBSIDIARY_OF(Organization:acme solar inc, Organization:beta holdings ltd)", "TRANSFERRED(Organization:beta holdings ltd, Organization:gamma ltd)"]
        );
    }

    #[test]
    fn a_defined_short_name_after_a_comma_and_in_brackets_is_the_party() {
        // The short name defined after a comma refers back to the company (a word of its
        // name: no alias claim); a short name in brackets after the name leaves the name next
        // to its verb.
        assert_eq!(
            claims("The SEC sued Moss, Ferrow and Company, Incorporated, (\"Moss\") in May. Moss consented to the entry of a final judgment."),
            [
                "CHARGED(Organization:securities and exchange commission, Organization:moss ferrow and company incorporated)",
                "SETTLED_WITH(Organization:moss ferrow and company incorporated, Organization:securities and exchange commission)"
            ]
        );
        assert_eq!(
            claims("The SEC sued Quorra Corporation. Quorra Corporation (Quorra) consented to the entry of a final judgment."),
            [
                "CHARGED(Organization:securities and exchange commission, Organization:quorra corporation)",
                "SETTLED_WITH(Organization:quorra corporation, Organization:securities and exchange commission)",
                "ALIAS_OF(Organization:quorra corporation, Organization:quorra)"
            ]
        );
    }

    #[test]
    fn an_alias_cue_after_a_bracketed_short_name_names_the_whole_party() {
        let got = claims("Quorra Motors LLC (Quorra Motors), formerly known as Vesta Group LLC, admitted the scheme.");
        assert!(got.contains(&"ALIAS_OF(Organization:quorra motors llc, Organization:vesta group llc)".to_string()), "{got:?}");
        assert!(got.iter().all(|c| !c.contains(')') || c.ends_with(')') && c.matches(')').count() == 1), "{got:?}");
    }

    #[test]
    fn a_term_of_words_of_the_party_before_is_that_partys() {
        let got = claims(
            "The SEC obtained a final judgment against Gary L. McNaughton, individually and d/b/a The Haven Equity Company (\"McNaughton\"). The Final Judgment required McNaughton to pay $11,815.24.",
        );
        assert!(got.iter().any(|c| c.contains("(Person:gary l. mcnaughton, ")), "{got:?}");
        assert!(got.iter().all(|c| !c.contains("Organization:mcnaughton") && !c.contains("(Organization:haven equity company, ")), "{got:?}");
    }

    #[test]
    fn a_defined_term_is_of_the_type_of_what_it_defines() {
        let got = claims("Jane Roe used her position as owner of James Asset Advisory, LLC (\"James Asset\") to take $5 million from clients.");
        assert!(got.contains(&"ALIAS_OF(Organization:james asset advisory llc, Organization:james asset)".to_string()), "{got:?}");
    }

    #[test]
    fn a_given_name_before_and_a_full_name_shares_its_surname() {
        let got = claims("Mary and Christian Young were indicted by a federal grand jury. The SEC charged Mary and Christian Young.");
        assert!(got.contains(&"CO_DEFENDANT(Person:mary young, Person:christian young)".to_string()), "{got:?}");
        // A surname of someone named in full is that person's, not a given name.
        let got = claims("The SEC charged Nicholas LoBue and David E. Ross II. LoBue and Todd Hansen were indicted. Ross and Michael Licopantis were indicted.");
        assert!(got.iter().all(|c| !c.contains("lobue hansen") && !c.contains("ross licopantis")), "{got:?}");
    }

    #[test]
    fn acronyms_of_common_words_are_no_names() {
        let text = "Banks file suspicious activity reports (SARs) with FinCEN. The SAR that Acme Bank filed named Mr. John Doe. Each SAR is kept.";
        let x = extracted(text);
        let names: Vec<&str> = x.mentions.iter().map(|(m, _)| m.surface.as_str()).collect();
        assert!(names.iter().all(|n| !n.starts_with("SAR")), "{names:?}");
        assert!(names.contains(&"FinCEN") && names.contains(&"John Doe"), "{names:?}");
    }

    #[test]
    fn nothing_is_related_to_itself() {
        let got = claims("Gamma Trading Ltd sells oil. When the company received USD 5,000 from Gamma Trading Ltd, Mr. John Doe was told.");
        assert!(got.iter().all(|c| c != "RECEIVED_FROM(Organization:gamma trading ltd, Organization:gamma trading ltd)"), "{got:?}");
    }

    /// A finding reaches a scheme to defraud over places and dates, and after where the
    /// party lives.
    #[test]
    fn a_finding_reaches_the_scheme_over_places() {
        let got = claims("John Doe of Detroit, Mich., pleaded guilty today in Detroit to participating in a conspiracy to defraud Gamma Fund LP.");
        assert!(got.contains(&"DEFRAUDED(Person:john doe, Organization:gamma fund lp)".to_string()), "{got:?}");
    }

    /// A wrongdoing a charge states is reported; one a finding or an admission states is
    /// asserted.
    #[test]
    fn a_charge_reports_the_wrongdoing_a_finding_asserts_it() {
        let m = |t: &str| {
            let text = t;
            let sents = tg_text::chunk::sentences(text, 0, text.len());
            let x = extract(&Input { id: "t", text, sentences: &sents, fields: &[], people: &[], date: None }, Vocabulary::builtin());
            x.claims.iter().filter(|c| c.rel == "DEFRAUDED").map(|c| c.modality.name()).collect::<Vec<_>>()
        };
        assert_eq!(m("Desmond Okafor was indicted today for his role in a conspiracy to defraud Gamma Fund LP."), ["reported"]);
        assert_eq!(m("Desmond Okafor was charged today for defrauding Gamma Fund LP of $1 million."), ["reported"]);
        assert_eq!(m("Desmond Okafor pleaded guilty today to participating in a conspiracy to defraud Gamma Fund LP."), ["assertion"]);
    }

    /// The verb after a relative clause about a party is that party's.
    #[test]
    fn a_relative_clause_gives_the_verb_to_the_party_before_it() {
        let got = claims(
            "Harlan J. Whitcombe, 52, of Tampa, Fla., who owned and operated Bayview Mobility Supply LLC, was sentenced today in Tampa to 87 months in prison for his role in a wide-ranging conspiracy to defraud Gamma Fund LP.",
        );
        assert!(got.contains(&"DEFRAUDED(Person:harlan j. whitcombe, Organization:gamma fund lp)".to_string()), "{got:?}");
        assert!(!got.iter().any(|c| c.starts_with("DEFRAUDED(Organization:bayview")), "{got:?}");
    }

    /// A state's abbreviation after a town is a place, never a party.
    #[test]
    fn a_states_abbreviation_after_a_town_is_a_place() {
        assert!(entities::is_state_abbreviation("Fla.") && entities::is_state_abbreviation("N.Y.") && !entities::is_state_abbreviation("Inc."));
        assert!(entities::is_state_name("Florida") && entities::is_state_name("Ohio") && entities::is_state_name("New York") && !entities::is_state_name("Miami"));
        let got = claims("Harlan J. Whitcombe, 52, of Tampa, Fla., who owned and operated Bayview Mobility Supply LLC, was sentenced today.");
        assert!(!got.iter().any(|c| c.contains("fla")), "{got:?}");
        assert!(got.contains(&"OWNS(Person:harlan j. whitcombe, Organization:bayview mobility supply llc)".to_string()), "{got:?}");
    }

    /// A person's aliases joined by "and" are two aliases, each its own claim.
    #[test]
    fn a_persons_aliases_joined_by_and_are_several() {
        let got = claims("Claude Shaw aka Mac and Claude Mac, a U.S. citizen residing in Florida, was charged with mail fraud.");
        let aliases: Vec<&String> = got.iter().filter(|c| c.starts_with("ALIAS_OF")).collect();
        assert_eq!(aliases, ["ALIAS_OF(Person:claude shaw, Person:mac)", "ALIAS_OF(Person:claude shaw, Person:claude mac)"], "{got:?}");
        // A company's name may hold "and".
        let got = claims("Acme Holdings LLC, also known as Smith and Sons LLC, sold shares.");
        assert!(got.contains(&"ALIAS_OF(Organization:acme holdings llc, Organization:smith and sons llc)".to_string()), "{got:?}");
    }

    #[test]
    fn laws_and_papers_are_no_organisations() {
        let text = "This advisory is based on analysis of Bank Secrecy Act (BSA) data. Pursuant to the Iranian Financial Sanctions Regulations (IFSR), banks must report. See the Joint Statement on Distributed Denial-of-Service attacks.";
        let x = extracted(text);
        let orgs: Vec<&str> = x.mentions.iter().filter(|(m, _)| m.kind == "Organization").map(|(m, _)| m.surface.as_str()).collect();
        assert!(orgs.iter().all(|o| !o.contains("Act") && !o.contains("Regulations") && !o.contains("Statement") && !o.contains("Bank")), "{orgs:?}");
        assert!(x.claims.iter().all(|c| c.rel != "ALIAS_OF"), "{:?}", x.claims.iter().map(|c| &c.object.0).collect::<Vec<_>>());
    }

    #[test]
    fn a_name_in_capitals_takes_the_type_the_document_writes_it_with() {
        let got = claims(
            "SECURITIES AND EXCHANGE COMMISSION v. MICHAEL HUMPHRESS, United States District Court for the Northern District of California, Civil Action No. C97-2288.\nThe Commission alleged that Michael Humphress sold shares. Humphress consented.",
        );
        assert!(got.contains(&"CHARGED(Organization:securities and exchange commission, Person:michael humphress)".to_string()), "{got:?}");
    }

    #[test]
    fn a_sentence_opening_pronoun_continues_the_previous_subject() {
        assert_eq!(
            claims("Wells Fargo Bank acquired National Bank of Alaska. It also acquired First Security Corporation."),
            ["ACQUIRED(Organization:wells fargo bank, Organization:national bank of alaska)", "ACQUIRED(Organization:wells fargo bank, Organization:first security corporation)"]
        );
    }

    /// An office in a company's function names no organisation.
    #[test]
    fn an_office_in_a_function_is_no_organisations() {
        let got = claims("In that regard, Cindy Olson, Executive Vice President of Human Resources and Community Relations, will report to Steve Kean.");
        assert!(got.iter().all(|c| !c.starts_with("OFFICER_OF")), "{got:?}");
        let got = claims("Jeff Sherrick, CEO of EGEP, will report to Cliff Baxter.");
        assert!(got.contains(&"OFFICER_OF(Person:jeff sherrick, Organization:egep)".to_string()), "{got:?}");
    }

    /// A name in brackets before an alias cue is the aliased name, without the bracket.
    #[test]
    fn a_bracketed_name_before_an_alias_cue() {
        let got = claims("Please review ENA Merchant Assets in Condor (Project Velocity) a/k/a Trutta before Monday.");
        assert!(got.contains(&"ALIAS_OF(Organization:project velocity, Organization:trutta)".to_string()), "{got:?}");
    }

    /// A defined term wrapped over two lines (text from a PDF) is still the defined party.
    #[test]
    fn a_defined_term_wrapped_over_lines_is_found_again() {
        let got = claims("On May 2, 2018, sanctions were imposed on Benjamin Bol Mel (Bol Mel).31 Bol\nMel is the President of Zephyrine Holdings Limited.");
        assert!(got.contains(&"OFFICER_OF(Person:benjamin bol mel, Organization:zephyrine holdings limited)".to_string()), "{got:?}");
    }

    /// A defined term after a name an alias cue gives is the party's, named first; a
    /// professional corporation's "PC" ends its name.
    #[test]
    fn a_term_after_a_former_name_is_the_partys() {
        let got = claims("The SEC charged Norrland Systems, Inc., f/k/a Norrland Automation Corp. (\"Norrland\" or the \"Company\"). Norrland paid Beta Ltd $5,000.");
        assert!(got.contains(&"PAID(Organization:norrland systems inc, Organization:beta ltd)".to_string()), "{got:?}");
        let got = claims("Dr. Sameer Haddad, the owner of Lakeshore Pain & Wellness PC, pleaded guilty.");
        assert!(got.contains(&"OWNS(Person:sameer haddad, Organization:lakeshore pain & wellness pc)".to_string()), "{got:?}");
        let x = extracted("More efficient Shared PC and Roaming User features.");
        assert!(x.mentions.iter().all(|(m, _)| m.surface != "Shared PC"), "{:?}", x.mentions);
        // Prosecutors who charged a person do not make them staff; their office charged.
        let got = claims(
            "Prosecutors from the U.S. Attorney's Office for the Southern District of New York unsealed an indictment against Stefan Brandt, a banker. Prosecutors said Stefan Brandt paid Beta Ltd $5,000.",
        );
        assert!(got.contains(&"CHARGED(Organization:united states attorney's office for the southern district of new york, Person:stefan brandt)".to_string()), "{got:?}");
        assert!(got.contains(&"PAID(Person:stefan brandt, Organization:beta ltd)".to_string()), "{got:?}");
        // Charged by information: the prosecutor's paper; a plea after a long description of
        // the party ("the owner and chief executive officer of …, a laboratory in Plano").
        let got = claims(
            "The U.S. Attorney's Office for the Northern District of Texas announced it. Harpreet Dhillon, 47, of Frisco, Texas, the owner and chief executive officer of Lone Star Diagnostics LLC, a toxicology testing laboratory in Plano, pleaded guilty. John Doe was charged by information in February.",
        );
        for party in ["harpreet dhillon", "john doe"] {
            let want = format!("CHARGED(Organization:united states attorney's office for the northern district of texas, Person:{party})");
            assert!(got.contains(&want), "{got:?}");
        }
        // A Turkish legal form after "Limited" ends the name; a compound modifier before it is none of it.
        let x = extracted("Istanbul-based Anadolu Kapı Dış Ticaret Limited Şirketi paid Beta Ltd $5,000.");
        assert!(x.mentions.iter().any(|(m, _)| m.surface == "Anadolu Kapı Dış Ticaret Limited Şirketi"), "{:?}", x.mentions);
    }

    #[test]
    fn an_empty_it_refers_to_nothing() {
        assert!(expletive_it("is alleged that the shares were sold"));
        assert!(expletive_it("is further alleged that many of these shares were issued"));
        assert!(expletive_it("was reported that"));
        assert!(expletive_it("appears that the funds"));
        assert!(expletive_it("should be emphasized that the issuance of this Advisory"));
        assert!(expletive_it("must also be noted that"));
        assert!(!expletive_it("should be fined"));
        assert!(!expletive_it("wired the funds to Beta"));
        assert!(!expletive_it("is a shell company"));
        assert!(!expletive_it("appears to have paid"));
        let text = "World Homes, Inc. filed nine forms with the Commission on Form S-8. It is further alleged that many of these shares were issued to Merle Ferguson.";
        let x = extracted(text);
        assert!(x.mentions.iter().all(|(m, _)| m.surface != "It"), "{:?}", x.mentions);
    }

    /// A pronoun after an opening phrase that names no party continues the previous
    /// sentence's subject, as one that opens its sentence does.
    #[test]
    fn a_pronoun_after_an_opening_phrase_continues_the_subject() {
        let got = claims("Veltrix Systems Inc.'s first acquisition was Corbel Data LLC in March 1990. In August 1994, the company acquired Harlan Software Corp.");
        assert!(got.iter().any(|c| c.starts_with("ACQUIRED(Organization:veltrix systems inc, Organization:harlan software corp")), "{got:?}");
        assert!(got.iter().all(|c| !c.starts_with("ACQUIRED(Organization:corbel data llc")), "{got:?}");
    }

    /// A footnote's "See" is no word of the name after it; a citation's code is no
    /// organisation.
    #[test]
    fn a_footnotes_see_and_a_citations_code_are_no_names() {
        assert_eq!(after_see("See U.S. Department of State"), Some("U.S. Department of State"));
        assert_eq!(after_see("See FBI"), Some("FBI"));
        assert_eq!(after_see("Seeger Partners"), None);
        assert_eq!(after_see("See also"), None);
        assert_eq!(after_based("China-based Bank of Dandong"), Some("Bank of Dandong"));
        assert_eq!(after_based("North Korea-based Foreign Trade Bank"), Some("Foreign Trade Bank"));
        assert_eq!(after_based("Treasury Sanctions Russia-based Bank"), None);
        assert_eq!(after_based("China-Based Company"), None);
        assert_eq!(after_based("Texas-based ArthroCare Corp."), Some("ArthroCare Corp."));
        assert_eq!(after_based("Evidence-Based Medicine Institute"), None);
        let text = "Banks must file reports under 31 CFR 1010.311 and 31 U.S.C. 5313 with FinCEN.";
        let x = extracted(text);
        let orgs: Vec<&str> = x.mentions.iter().filter(|(m, _)| m.kind == "Organization").map(|(m, _)| m.surface.as_str()).collect();
        assert_eq!(orgs, ["FinCEN"]);
    }

    /// A line of business that opens a news sentence is no part of the company's name.
    #[test]
    fn a_line_of_business_opening_a_sentence_is_no_part_of_the_name() {
        assert_eq!(without_opening_business_noun("Drugmaker Sanofi SA"), Some("Sanofi SA"));
        assert_eq!(without_opening_business_noun("Automaker Ford Motor Co."), Some("Ford Motor Co."));
        assert_eq!(without_opening_business_noun("Retailer Target Corp."), Some("Target Corp."));
        assert_eq!(without_opening_business_noun("General Motors Co."), None);
        assert_eq!(without_opening_business_noun("Maker Studios Inc."), None);
        let got = claims("Drugmaker Halvane Therapeutics Inc. said on Tuesday it will acquire Corvessa Biologics Ltd. for $1 billion.");
        assert!(got.iter().any(|c| c.starts_with("ACQUIRED(Organization:halvane therapeutics inc, Organization:corvessa biologics ltd")), "{got:?}");
    }

    #[test]
    fn short_names_of_companies() {
        assert_eq!(short_name("World Homes, Inc."), Some("World Homes"));
        assert_eq!(short_name("Samsung Electronics Co., Ltd."), Some("Samsung Electronics"));
        assert_eq!(short_name("Options Group Trading Company"), Some("Options Group Trading"));
        assert_eq!(short_name("JWP, Inc."), Some("JWP"));
        assert_eq!(short_name("Tri-Star Investment Group, L.L.C."), Some("Tri-Star Investment Group"));
        // No legal form, a word of prose, a determiner, no name's word at the end.
        assert_eq!(leading_words("Golden Palms Card Club"), Some("Golden Palms"));
        assert_eq!(leading_words("Golden Falcon General Trading"), Some("Golden Falcon"));
        for s in ["Robert Lowes Trading", "United States Steel", "Bank of America", "World Homes", "North Korea Trading"] {
            assert_eq!(leading_words(s), None, "{s}");
        }
        assert_eq!(short_name("World Homes"), None);
        assert_eq!(short_name("Capital, Inc."), None);
        assert_eq!(short_name("The Company"), None);
        assert_eq!(short_name("Smith & Co."), None);
        // Without its line of business, what could still name it.
        let business_short_name = |s: &'static str| short_name(s).and_then(business_stem);
        assert_eq!(business_short_name("Granite State Bankshares, Inc."), Some("Granite State"));
        assert_eq!(business_short_name("Media Vision Technology, Inc."), Some("Media Vision"));
        assert_eq!(business_short_name("Orchard Hill Advisors LLC"), Some("Orchard Hill"));
        assert_eq!(business_short_name("Granite Bancorp, Inc."), None);
        assert_eq!(business_short_name("American Holdings, Inc."), None);
        assert_eq!(business_short_name("Granite State Trading, Inc."), None);
        assert_eq!(business_short_name("Granite State Bankshares"), None);
    }

    /// A company named in full and then without its legal form and its line of business
    /// ("Harbor Point" of "Harbor Point Bancorp, Inc.") is one party; not where the shorter
    /// name is another company's short name.
    #[test]
    fn a_company_named_without_its_line_of_business_after_its_full_name() {
        let got = claims("The Commission sued Harbor Point Bancorp, Inc. and its former treasurer, Dana Whitfield, on May 2. Harbor Point paid Whitfield $40,000 in kickbacks.");
        assert!(got.contains(&"PAID(Organization:harbor point bancorp inc, Person:dana whitfield)".to_string()), "{got:?}");
        let got = claims("The Commission sued Harbor Point, Inc. and Harbor Point Bancorp, Inc. on May 2. Harbor Point paid Dana Whitfield $40,000 in kickbacks.");
        assert!(got.contains(&"PAID(Organization:harbor point inc, Person:dana whitfield)".to_string()), "{got:?}");
        assert!(got.iter().all(|c| !c.starts_with("PAID(Organization:harbor point bancorp")), "{got:?}");
    }

    /// A company named in full and then by its first word alone is one party, until the
    /// document names another company that opens with the word; not where the word is
    /// prose, a place's or written alone before the full name; "the company" is no public
    /// body.
    #[test]
    fn a_company_named_by_its_first_word_after_its_full_name() {
        let text = "Halcyon Surgical Systems Inc. agreed to pay $62 million. In a related matter, Halcyon agreed to pay $23.6 million to the Securities and Exchange Commission. Halcyon's Greek subsidiary, Halcyon Hellas S.A., paid bribes. Halcyon paid Dana Ortiz $5,000.";
        let got = claims(text);
        assert!(got.contains(&"SETTLED_WITH(Organization:halcyon surgical systems inc, Organization:securities and exchange commission)".to_string()), "{got:?}");
        assert!(got.contains(&"SUBSIDIARY_OF(Organization:halcyon hellas s.a, Organization:halcyon surgical systems inc)".to_string()), "{got:?}");
        // (After the subsidiary is named, "Halcyon" could be either.)
        let x = extracted(text);
        let hellas = text.find("Halcyon Hellas").unwrap_or_default();
        let alone: Vec<(usize, &str)> = x.mentions.iter().filter(|(m, _)| m.surface == "Halcyon").map(|(m, _)| (m.span.0, m.key.as_str())).collect();
        assert!(
            alone.iter().filter(|(at, _)| *at < hellas).count() == 2 && alone.iter().all(|(at, k)| (*at < hellas) == (*k == "Organization:halcyon surgical systems inc")),
            "{alone:?}"
        );
        assert_eq!(first_word_stem("Halcyon Surgical Systems"), Some("Halcyon"));
        for prose in ["First Atlantic Bank", "General Widget Holdings", "Texas Instruments", "American Widget", "The Widget Group", "Halcyon"] {
            assert_eq!(first_word_stem(prose), None, "{prose}");
        }
        assert!(names_a_place(" North America") && names_a_place(" India") && !names_a_place(" Surgical Systems"));
        // A town's name opens a company's name: the company's where the document names no
        // place with it.
        let got = claims("Gulf Horizon Aviation FZE bought parts from Westbrook Aerospace Distributors Inc. in 2021. Gulf Horizon Aviation paid Westbrook by wire.");
        assert!(got.contains(&"PAID(Organization:gulf horizon aviation fze, Organization:westbrook aerospace distributors inc)".to_string()), "{got:?}");
        let got = claims(
            "Westbrook Aerospace Distributors Inc. is in Portland. Gulf Horizon Aviation FZE paid Acme Corp. in Westbrook, Maine. Gulf Horizon Aviation paid Westbrook by wire.",
        );
        assert!(got.iter().all(|c| !c.contains("PAID(Organization:gulf horizon aviation fze, Organization:westbrook aerospace")), "{got:?}");
        // A criminal information filed in a district charging "the company" charges the company.
        let got = claims(
            "Halcyon Surgical Systems Inc. settled. A criminal information filed today in the District of Minnesota charging the company was unsealed by the Department of Justice.",
        );
        assert!(got.iter().all(|c| !c.contains("district of minnesota")), "{got:?}");
    }

    /// A press release's dateline is a place, and the body after its dash is named without
    /// "The"; a charging paper's aside on its court neither blocks the charge nor makes the
    /// court the asserter; "the bank" is the bank named last, "the bank accounts" no bank;
    /// words of the name in brackets are its short name.
    #[test]
    fn datelines_filing_asides_the_bank_and_short_names_from_the_middle() {
        let x = extracted(
            "WASHINGTON - The Office of the Comptroller of the Currency (OCC) today assessed a $25 million civil money penalty against Meridian National Bank, N.A., Columbus, Ohio, for unsafe practices. Meridian National Bank is a subsidiary of Meridian Financial Group, Inc., a holding company. Separately, the OCC entered into a formal agreement with the bank's former chief executive officer, Howard P. Linde.",
        );
        let kinds: Vec<(&str, &str)> = x.mentions.iter().map(|(m, _)| (m.surface.as_str(), m.kind)).collect();
        assert!(kinds.contains(&("WASHINGTON", "Location")) && kinds.contains(&("Office of the Comptroller of the Currency", "Organization")), "{kinds:?}");
        let got: Vec<String> = x.claims.iter().map(|c| format!("{}({}, {})", c.rel, c.subject.0, c.object.0)).collect();
        assert!(got.contains(&"ORDERED_TO_PAY(Organization:meridian national bank n.a, Organization:office of the comptroller of the currency)".to_string()), "{got:?}");
        assert!(got.contains(&"OFFICER_OF(Person:howard p. linde, Organization:meridian national bank)".to_string()), "{got:?}");
        let x = extracted("Washington D.C., Sept. 9, 2023 - The Securities and Exchange Commission today charged Acme Corp.");
        assert!(x.mentions.iter().any(|(m, _)| m.surface.starts_with("Washington") && m.kind == "Location"), "{:?}", x.mentions);
        // A company before a dash is no dateline, though its first word names a place.
        let x = extracted("Boston Trading Co - quarterly report attached.");
        assert!(x.mentions.iter().all(|(m, _)| m.kind != "Location" || m.surface == "Boston"), "{:?}", x.mentions);
        // Initials before a dash in mail are no dateline.
        let x = extracted("SK - I have printed this out and put it in the folder.");
        assert!(x.mentions.iter().all(|(m, _)| m.kind != "Location"), "{:?}", x.mentions);

        let text = "The SEC sued Ridgeline Hash LLC and Tobias Renner. The SEC's complaint, filed in the U.S. District Court for the District of Utah, alleges that Renner, the chief executive officer of Ridgeline Hash, paid Carla Maddox $40,000. The complaint, filed under seal in the U.S. District Court for the District of Utah, charges Ridgeline Hash and Carla Maddox with fraud.";
        let x = extracted(text);
        let officer = x.claims.iter().find(|c| c.rel == "OFFICER_OF").map(|c| c.asserter.to_string());
        assert_eq!(officer.as_deref(), Some("document"));
        let got: Vec<String> = x.claims.iter().map(|c| format!("{}({}, {})", c.rel, c.subject.0, c.object.0)).collect();
        assert!(got.contains(&"CHARGED(Organization:securities and exchange commission, Person:carla maddox)".to_string()), "{got:?}");

        // A founder and officer with an age and a home; "it is hereby ordered" refers to nothing.
        let got = claims("Mr. John Doe, 52, of Greenwich, Connecticut, is Beta LLC's founder and chief investment officer.");
        assert_eq!(got, ["OFFICER_OF(Person:john doe, Organization:beta llc)"]);
        let x = extracted("The SEC sued Beta LLC. It is hereby ordered that Beta LLC shall pay disgorgement of $5,000.");
        assert!(x.mentions.iter().all(|(m, _)| m.surface != "It"), "{:?}", x.mentions);
        let x = extracted("Treasury believes that the bank accounts used by First Harbor Bank's customers are held abroad.");
        assert!(x.mentions.iter().all(|(m, _)| m.surface != "the bank"), "{:?}", x.mentions);

        let got = claims("Construtora Vale Alto S.A. (Vale Alto), a Brazil-based company, agreed to pay $96 million to the Department of Justice.");
        assert!(got.contains(&"SETTLED_WITH(Organization:construtora vale alto s.a, Organization:department of justice)".to_string()), "{got:?}");
    }

    /// A court's caption stacked on lines of their own charges the defendants; the
    /// judgment's "is liable for disgorgement" orders the payment.
    #[test]
    fn a_stacked_caption_and_a_judgments_own_words() {
        let text = "UNITED STATES DISTRICT COURT\nSOUTHERN DISTRICT OF FLORIDA\n\nSECURITIES AND EXCHANGE COMMISSION, Plaintiff,\n\nv.\n\nBRIGHTWATER CAPITAL MANAGEMENT LLC and ALAN J. FERREIRA, Defendants.\n\nIT IS HEREBY ORDERED, ADJUDGED, AND DECREED that Defendant Alan J. Ferreira is liable for disgorgement of $845,000, together with prejudgment interest thereon in the amount of $61,230, and a civil penalty in the amount of $150,000.\n";
        let x = extracted(text);
        let got: Vec<String> = x
            .claims
            .iter()
            .map(|c| format!("{}({}, {}) {}", c.rel, c.subject.0, c.object.0, c.attrs.iter().map(|a| format!("{}={}", a.0, a.1)).collect::<Vec<_>>().join(" ")))
            .collect();
        for want in [
            "CHARGED(Organization:securities and exchange commission, Organization:brightwater capital management llc)",
            "CHARGED(Organization:securities and exchange commission, Person:alan j. ferreira)",
            "ORDERED_TO_PAY(Person:alan j. ferreira, Organization:securities and exchange commission) disgorgement=845000 currency=USD prejudgment_interest=61230 penalty=150000",
        ] {
            assert!(got.iter().any(|g| g.starts_with(want)), "{want} not in {got:?}");
        }
    }

    /// A company named in full and then by its name without the legal form is one party, in
    /// the claims and for the pronouns after the short name; a person of the short name's
    /// name stays a person.
    #[test]
    fn a_company_named_without_its_legal_form_after_its_full_name() {
        let text = "The Commission sued Mark Ruiz and Zephyrine Holdings, Inc. on May 2. Zephyrine Holdings paid Ruiz $40,000 in kickbacks. Zephyrine Holdings then wired the funds to Ruiz, and it later misappropriated $9,000 from Doverbrook Capital LLC.";
        let got = claims(text);
        assert!(got.contains(&"PAID(Organization:zephyrine holdings inc, Person:mark ruiz)".to_string()), "{got:?}");
        assert!(got.contains(&"MISAPPROPRIATED_FROM(Organization:zephyrine holdings inc, Organization:doverbrook capital llc)".to_string()), "{got:?}");
        assert!(got.iter().all(|c| !c.contains("Organization:zephyrine holdings)")), "{got:?}");
        let x = extracted(text);
        let short: Vec<(&str, &str)> = x.mentions.iter().filter(|(m, _)| m.surface == "Zephyrine Holdings").map(|(m, _)| (m.key.as_str(), m.kind)).collect();
        assert_eq!(short, [("Organization:zephyrine holdings inc", "Organization"); 2]);
        // The short name is inferred: it cites the full name.
        assert!(x.mentions.iter().filter(|(m, _)| m.surface == "Zephyrine Holdings").all(|(_, ante)| ante.is_some()));
        // A short name that reads as a person's, named only after the company, is the company.
        let got = claims("The Commission sued Arthur Andersen LLP on May 2. Arthur Andersen paid Dana Ortiz $40,000 in kickbacks.");
        assert!(got.contains(&"PAID(Organization:arthur andersen llp, Person:dana ortiz)".to_string()), "{got:?}");
        let text = "The Commission sued Robert C. Lowes and Robert C. Lowes, Inc. on May 2. Robert C. Lowes paid Dana Ortiz $40,000 in kickbacks.";
        let got = claims(text);
        assert!(got.contains(&"PAID(Person:robert c. lowes, Person:dana ortiz)".to_string()), "{got:?}");
    }

    /// An authority the rules name keeps its canonical key where the tagger found the same
    /// words as a name: "the United States Securities and Exchange Commission" charges as
    /// the SEC.
    #[test]
    fn a_rule_name_keeps_its_key_where_the_tagger_found_the_same_span() {
        let got =
            claims("The United States Securities and Exchange Commission (Commission) announced a judgment. On May 2, the Commission brought this action against Dorian Vale.");
        assert!(got.contains(&"CHARGED(Organization:securities and exchange commission, Person:dorian vale)".to_string()), "{got:?}");
    }
}

#[cfg(test)]
mod enforcement_tests {
    use super::*;

    fn claims(text: &str) -> Vec<String> {
        let x = extracted(text);
        x.claims.iter().map(|c| format!("{}({}, {}) {}", c.rel, c.subject.0, c.object.0, c.modality.name())).collect()
    }

    /// "Named in the indictment are A; B; and C": each charged by the prosecutor the
    /// document names, and co-defendants; a settlement consented to as a bar.
    #[test]
    fn parties_named_in_the_indictment_and_a_consent_to_a_bar() {
        let got = claims(
            "The U.S. Attorney's Office for the Southern District of Florida announced the charges. \
             Named in the indictment are Solaris Trading Corp.; Horacio Benitez, 56, of Doral; and Andres Ospina, 49, of Medellin, Colombia.",
        );
        let office = "Organization:united states attorney's office for the southern district of florida";
        for party in ["Organization:solaris trading corp", "Person:horacio benitez", "Person:andres ospina"] {
            assert!(got.contains(&format!("CHARGED({office}, {party}) assertion")), "{party}: {got:?}");
        }
        assert!(got.contains(&"CO_DEFENDANT(Person:horacio benitez, Person:andres ospina) assertion".to_string()), "{got:?}");
        // Relief defendants are named, not charged.
        let got = claims("The SEC filed a complaint against Jane Roe. Named as relief defendants in the complaint are Acme Holdings LLC and Beta Trust.");
        assert!(got.iter().all(|c| !c.contains("acme") && !c.contains("beta")), "{got:?}");
        let got =
            claims("The SEC charged Marcus Ebbesen. Without admitting or denying the findings, Ebbesen consented to an industry bar and agreed to pay a civil penalty of $85,000.");
        assert!(got.contains(&"SETTLED_WITH(Person:marcus ebbesen, Organization:securities and exchange commission) assertion".to_string()), "{got:?}");
    }

    /// A list whose last member is described with a place and a person before "are
    /// charged" (criminal words: a conspiracy), and the SEC's complaint against two people;
    /// the paternal surname of a name whose given name is written with an accent.
    #[test]
    fn described_lists_complaints_against_and_accented_given_names() {
        let got = claims(
            "The U.S. Attorney's Office for the Southern District of Florida announced charges today. \
             Kirill Demchenko, 46, of Sunny Isles Beach, Florida; his company, Coastal Avionics Supply LLC, a Florida limited liability company; \
             and Steppe Tech Distribution LLP, a Kazakhstan limited liability partnership of which Arman Seitkali is general director, \
             are charged with conspiring to violate export controls.",
        );
        let office = "Organization:united states attorney's office for the southern district of florida";
        for party in ["Person:kirill demchenko", "Organization:coastal avionics supply llc", "Organization:steppe tech distribution llp"] {
            assert!(got.contains(&format!("CHARGED({office}, {party}) assertion")), "{party}: {got:?}");
        }
        assert!(got.iter().all(|c| !c.contains("arman seitkali)")), "{got:?}");
        let got = claims(
            "The SEC charged Northfield Surgical Holdings, Inc. today. The SEC's complaint against Arturo Castañeda Ruiz and Lucía Ferrer Ortega, filed in Minnesota, \
             charges them with fraud. Castañeda and Ferrer recorded sham sales.",
        );
        for party in ["Person:arturo castañeda ruiz", "Person:lucía ferrer ortega"] {
            assert!(got.contains(&format!("CHARGED(Organization:securities and exchange commission, {party}) assertion")), "{party}: {got:?}");
        }
        let x = extracted("The SEC charged Lucía Ferrer Ortega. Ferrer recorded sham sales.");
        assert!(x.mentions.iter().any(|(m, c)| m.surface == "Ferrer" && m.key == "Person:lucía ferrer ortega" && c.is_some()), "{:?}", x.mentions);
        assert!(given_name("Lucía") && given_name("Andrés") && !given_name("Ferrer"));
    }

    /// Defendants listed one to a line after "Charged in the indictment are:" are each
    /// charged by the office the heading names (not the department above it, though the
    /// release names the department again below), and co-defendants; the quote runs from
    /// the introducing line through the member's line.
    #[test]
    fn a_bulleted_list_of_defendants_is_charged_by_the_heading_office() {
        let text = "Department of Justice\nU.S. Attorney's Office\nNorthern District of Georgia\n\n\
                    ATLANTA - Three residents were indicted by a federal grand jury for a loan fraud scheme.\n\n\
                    Charged in the indictment are:\n\n  - Kwame A. Boateng, 41, of Marietta, Georgia;\n  - Lana Petrova, 38, of Alpharetta, Georgia; and\n  - Rashid Masri, 52, of Lawrenceville, Georgia.\n\n\
                    Boateng and Petrova were arrested this week.\n\n\
                    Report fraud to the Department of Justice's National Center for Disaster Fraud Hotline.\n";
        let x = extracted(text);
        let listed: Vec<String> = x
            .claims
            .iter()
            .filter(|c| text[c.quote.0..c.quote.1].starts_with("Charged in"))
            .map(|c| format!("{}({}, {}) {}", c.rel, c.subject.0, c.object.0, c.modality.name()))
            .collect();
        let office = "Organization:united states attorney's office for the northern district of georgia";
        assert_eq!(
            listed,
            [
                format!("CHARGED({office}, Person:kwame a. boateng) assertion"),
                format!("CHARGED({office}, Person:lana petrova) assertion"),
                format!("CHARGED({office}, Person:rashid masri) assertion"),
                "CO_DEFENDANT(Person:kwame a. boateng, Person:lana petrova) assertion".to_string(),
                "CO_DEFENDANT(Person:kwame a. boateng, Person:rashid masri) assertion".to_string(),
                "CO_DEFENDANT(Person:lana petrova, Person:rashid masri) assertion".to_string(),
            ]
        );
        let last = x.claims.iter().find(|c| c.object.0 == "Person:rashid masri").map(|c| &text[c.quote.0..c.quote.1]);
        assert!(last.is_some_and(|q| q.ends_with("Lawrenceville, Georgia.")), "{last:?}");
        assert!(x.claims.iter().all(|c| c.subject.0 != "Organization:department of justice"));
    }

    #[test]
    fn the_defendants_are_each_party_charged_before() {
        let got = claims(
            "The Securities and Exchange Commission today charged Acme Corp. and John Doe with fraud. \
             Without admitting or denying the facts alleged in the complaint, the defendants consented to the entry of final judgments. \
             Last month the Commission filed a related action against the defendants' former employer.",
        );
        // The formula attributes nothing; the defendants' employer is none of them.
        assert_eq!(
            got,
            [
                "CHARGED(Organization:securities and exchange commission, Organization:acme corp) assertion",
                "CHARGED(Organization:securities and exchange commission, Person:john doe) assertion",
                "CO_DEFENDANT(Organization:acme corp, Person:john doe) assertion",
                "SETTLED_WITH(Organization:acme corp, Organization:securities and exchange commission) assertion",
                "SETTLED_WITH(Person:john doe, Organization:securities and exchange commission) assertion"
            ]
        );
    }

    #[test]
    fn an_order_sought_is_no_order() {
        assert_eq!(
            claims("The Securities and Exchange Commission sued Lynn Bentley. The amended complaint seeks a court order requiring Lynn Bentley to disgorge $5,000."),
            ["CHARGED(Organization:securities and exchange commission, Person:lynn bentley) assertion"]
        );
    }

    /// Who a complaint's allegation names is charged as a fact: the charge and who was
    /// charged with whom are assertions, the allegation's content stays the complaint's.
    #[test]
    fn a_charge_in_the_complaints_own_words_is_stated() {
        assert_eq!(
            claims("The Securities and Exchange Commission's complaint alleges that Acme Corp. and Dana Ortiz defrauded Beta Fund LLC."),
            [
                "CHARGED(Organization:securities and exchange commission, Organization:acme corp) assertion",
                "CHARGED(Organization:securities and exchange commission, Person:dana ortiz) assertion",
                "CO_DEFENDANT(Organization:acme corp, Person:dana ortiz) assertion",
                "DEFRAUDED(Organization:acme corp, Organization:beta fund llc) reported",
                "DEFRAUDED(Person:dana ortiz, Organization:beta fund llc) reported"
            ]
        );
        // Another's report of a charge stays reported.
        assert_eq!(
            claims("According to a newspaper, the Securities and Exchange Commission charged Dana Ortiz."),
            ["CHARGED(Organization:securities and exchange commission, Person:dana ortiz) reported"]
        );
    }

    /// A paper "charging" its parties is the charge of the prosecutor or regulator the
    /// sentence (or the document before it) names; never an investigator's or a victim's.
    #[test]
    fn an_indictment_charging_is_its_prosecutors_charge() {
        assert_eq!(
            claims("The Department of Justice announced a criminal complaint charging Dana Ortiz and Mark Ruiz with wire fraud."),
            [
                "CO_DEFENDANT(Person:dana ortiz, Person:mark ruiz) assertion",
                "CHARGED(Organization:department of justice, Person:dana ortiz) assertion",
                "CHARGED(Organization:department of justice, Person:mark ruiz) assertion"
            ]
        );
        // A federal grand jury's indictment is the Department of Justice's (below), never
        // the IRS's it names.
        let got = claims("A federal grand jury returned an indictment today charging Dana Ortiz with conspiring to defraud the IRS.");
        assert!(got.contains(&"CHARGED(Organization:department of justice, Person:dana ortiz) assertion".to_string()), "{got:?}");
        assert!(got.iter().all(|c| !c.starts_with("CHARGED(Organization:internal revenue service")), "{got:?}");
        let got = claims("The Department of Justice announced an indictment charging Los Angeles-based associates of a cartel.");
        assert!(got.is_empty(), "{got:?}");
        // "X was indicted / charged": by the prosecutor the sentence announces, or the
        // document names before (an indictment); a bare charge only by one that announces it.
        assert_eq!(
            claims("Dana Ortiz, 39, of Tampa, Florida, was indicted for wire fraud, the Justice Department announced."),
            ["CHARGED(Organization:department of justice, Person:dana ortiz) assertion"]
        );
        assert_eq!(
            claims("Dana Ortiz and Mark Ruiz have each been indicted for wire fraud, the Justice Department announced."),
            [
                "CO_DEFENDANT(Person:dana ortiz, Person:mark ruiz) assertion",
                "CHARGED(Organization:department of justice, Person:dana ortiz) assertion",
                "CHARGED(Organization:department of justice, Person:mark ruiz) assertion"
            ]
        );
        let got = claims("The Securities and Exchange Commission sued Mark Ruiz. Dana Ortiz was charged with making a false statement to the Securities and Exchange Commission.");
        assert!(got.iter().all(|c| !c.contains("dana ortiz")), "{got:?}");
        // A criminal paper is a prosecutor's, not the regulator's whose release reports it.
        let got = claims("The Securities and Exchange Commission announced that a federal grand jury returned an indictment charging Dana Ortiz.");
        assert_eq!(got, ["CHARGED(Organization:department of justice, Person:dana ortiz) assertion"]);
        assert_eq!(
            claims("The Securities and Exchange Commission today filed a complaint in federal court charging Dana Ortiz with fraud."),
            ["CHARGED(Organization:securities and exchange commission, Person:dana ortiz) assertion"]
        );
    }

    /// "The complaint alleges that X violated …" and "the complaint charges X with …" are
    /// charges of the authority whose complaint it is (named before); what else a
    /// complaint alleges may be of anyone. An alias's "and" names another alias.
    #[test]
    fn the_complaint_alleges_a_violation() {
        let text = "The Securities and Exchange Commission filed a complaint against Dana Ortiz. The complaint alleges that Mark Ruiz and Acme Holdings LLC violated Section 10(b). The complaint also alleges that Beta Corp. and Gamma Corp. negotiated in secret.";
        let got = claims(text);
        assert!(got.contains(&"CHARGED(Organization:securities and exchange commission, Person:mark ruiz) assertion".to_string()), "{got:?}");
        assert!(got.contains(&"CHARGED(Organization:securities and exchange commission, Organization:acme holdings llc) assertion".to_string()), "{got:?}");
        assert!(got.contains(&"CO_DEFENDANT(Person:mark ruiz, Organization:acme holdings llc) assertion".to_string()), "{got:?}");
        assert!(got.iter().all(|c| !c.contains("beta corp") && !c.contains("gamma corp")), "{got:?}");
        let got = claims("The Securities and Exchange Commission sued Dana Ortiz. In addition, the complaint charges Mark Ruiz and Carl Roe with violations of Section 5.");
        assert!(got.contains(&"CO_DEFENDANT(Person:mark ruiz, Person:carl roe) assertion".to_string()), "{got:?}");
        assert!(got.contains(&"CHARGED(Organization:securities and exchange commission, Person:carl roe) assertion".to_string()), "{got:?}");
        // The paper's name may be capitalised, as releases write it.
        let got = claims("The Securities and Exchange Commission today filed a Complaint in the United States District Court for the District of Columbia against Dana Ortiz.");
        assert_eq!(got, ["CHARGED(Organization:securities and exchange commission, Person:dana ortiz) assertion"]);
        let got = claims("A federal grand jury returned an indictment. The indictment charges Talashia Hinton, aka LayLay and LaLa, with wire fraud.");
        assert_eq!(
            got,
            [
                "ALIAS_OF(Person:talashia hinton, Person:laylay) assertion",
                "ALIAS_OF(Person:talashia hinton, Person:lala) assertion",
                "CHARGED(Organization:department of justice, Person:talashia hinton) assertion"
            ]
        );
    }

    /// "The Commission" of a release that never writes the SEC's name but cites the federal
    /// securities laws is the SEC, INFERRED and cited at the citation; not where the
    /// document names another commission or cites the Commodity Exchange Act.
    #[test]
    fn the_commission_of_the_securities_laws_is_the_sec() {
        let text = "The Commission today filed a complaint against Dana Ortiz. The complaint alleges that Ortiz violated Section 10(b) of the Securities Exchange Act of 1934.";
        let got = claims(text);
        assert_eq!(got, ["CHARGED(Organization:securities and exchange commission, Person:dana ortiz) assertion"]);
        let x = extracted(text);
        let cited: Vec<&str> = x.claims.iter().flat_map(|c| c.antecedents.iter().map(|a| &text[a.1.0..a.1.1])).collect();
        assert_eq!(cited, ["Securities Exchange Act of 1934"]);
        assert!(claims("The Commission today filed a complaint against Dana Ortiz for violating the Commodity Exchange Act and the Securities Act of 1933.").is_empty());
        assert!(claims("The Commission today filed a complaint against Dana Ortiz under the federal securities laws. The Federal Trade Commission helped.").is_empty());
        assert!(claims("The Commission today filed a complaint against Dana Ortiz.").is_empty());
    }

    /// A plea, a verdict or a sentence whose prosecutor the document names only after it
    /// (a press release names the U.S. Attorney's office at its end) is that prosecutor's;
    /// one a federal court, jury or prison places, where the document names no prosecutor,
    /// the Department of Justice's, INFERRED and cited at those words; a state court's or
    /// one nothing places, nobody's.
    #[test]
    fn a_federal_courts_order_and_a_plea_agreements_payment_are_the_department_of_justices() {
        // A federal court's order where the document names no authority: the prosecutor's case.
        let got = claims("John Doe pleaded guilty to wire fraud and faces up to 20 years in federal prison. Doe was also ordered to forfeit $1.1 million.");
        assert!(got.contains(&"ORDERED_TO_PAY(Person:john doe, Organization:department of justice) assertion".to_string()), "{got:?}");
        let got = claims("U.S. District Judge Jane Poe ordered John Doe to pay restitution of $840,000.");
        assert_eq!(got, ["ORDERED_TO_PAY(Person:john doe, Organization:department of justice) assertion"]);
        // A plea agreement's payment.
        let got = claims("A federal grand jury indicted Richard Roe. As part of his plea agreement, Roe agreed to pay $500,000 in restitution to the victims.");
        assert!(got.contains(&"SETTLED_WITH(Person:richard roe, Organization:department of justice) assertion".to_string()), "{got:?}");
        // No federal words, no authority: no order of anyone's.
        let got = claims("John Doe was ordered to pay $1.1 million.");
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn a_federal_plea_is_the_department_of_justices() {
        let text = "Dana Ortiz, 48, of Tampa, pleaded guilty to wire fraud. The case was prosecuted by the United States Attorney's Office for the District of Maine.";
        assert_eq!(claims(text), ["CHARGED(Organization:united states attorney's office for the district of maine, Person:dana ortiz) assertion"]);
        let text = "Dana Ortiz, 48, of Tampa, pleaded guilty before U.S. District Judge Mark Ruiz to wire fraud.";
        assert_eq!(claims(text), ["CHARGED(Organization:department of justice, Person:dana ortiz) assertion"]);
        let x = extracted(text);
        let cited: Vec<(&str, &str)> = x.claims.iter().flat_map(|c| c.antecedents.iter().map(|a| (a.0.as_str(), &text[a.1.0..a.1.1]))).collect();
        assert_eq!(cited, [("Organization:department of justice", "U.S. District Judge")]);
        // The judge is no party (role: judge), the document's other sentences may place it.
        let got = claims("Dana Ortiz pleaded guilty to wire fraud. She faces up to 20 years in federal prison.");
        assert_eq!(got, ["CHARGED(Organization:department of justice, Person:dana ortiz) assertion"]);
        // Two parties, their ages and a nationality between them and the verb. (A bare
        // "were charged" in a district court may be a regulator's civil case: co-defendants
        // only, as above.)
        let got = claims(
            "Amir Dianat, 55, and Kamran Lajmiri, 42, both Iranian nationals, were charged with violating export laws in the U.S. District Court for the District of Columbia.",
        );
        assert_eq!(got, ["CO_DEFENDANT(Person:amir dianat, Person:kamran lajmiri) assertion"]);
        let got = claims(
            "Amir Dianat, 55, and Kamran Lajmiri, 42, both Iranian nationals, were indicted for violating export laws in the U.S. District Court for the District of Columbia.",
        );
        assert_eq!(
            got,
            [
                "CO_DEFENDANT(Person:amir dianat, Person:kamran lajmiri) assertion",
                "CHARGED(Organization:department of justice, Person:amir dianat) assertion",
                "CHARGED(Organization:department of justice, Person:kamran lajmiri) assertion"
            ]
        );
        // A degree after the name, several parties' one home, a plea "entered".
        let got = claims("Jane Roe, M.D., 58, of Dearborn, Michigan, pleaded guilty before U.S. District Judge Mark Ruiz to health care fraud.");
        assert_eq!(got, ["CHARGED(Organization:department of justice, Person:jane roe) assertion"]);
        let got = claims("Dana Ortiz and Mark Ruiz, both residents of Montgomery County, Ala., each pleaded guilty to one count of wire fraud.");
        assert_eq!(got, ["CO_DEFENDANT(Person:dana ortiz, Person:mark ruiz) assertion"]);
        let got = claims("Dana Ortiz entered a guilty plea in federal district court in Miami to 12 counts of an indictment.");
        assert_eq!(got, ["CHARGED(Organization:department of justice, Person:dana ortiz) assertion"]);
        // A plea agreed to; the party an aside describes by what the other is.
        let got = claims(
            "Acme Sales LLC, a subsidiary of pharmaceutical manufacturer Acme Holdings PLC, has agreed to plead guilty to health care fraud, the Justice Department announced today.",
        );
        assert!(got.contains(&"CHARGED(Organization:department of justice, Organization:acme sales llc) assertion".to_string()), "{got:?}");
        assert!(got.iter().all(|c| !c.starts_with("CHARGED(Organization:department of justice, Organization:acme holdings")), "{got:?}");
        // Guilty pleas entered by a list; a party named in a description ("including") is
        // none of the subject's.
        let got = claims("Dana Ortiz, Mark Ruiz and Carl Roe each entered guilty pleas before U.S. District Judge Ann Lee.");
        assert_eq!(got.iter().filter(|c| c.starts_with("CHARGED(Organization:department of justice")).count(), 3, "{got:?}");
        let got = claims("The former vendor for many campaigns, including the Acme Senate Committee pleaded guilty in U.S. District Court.");
        assert!(got.is_empty(), "{got:?}");
        assert!(claims("Dana Ortiz, 48, of Tampa, pleaded guilty to wire fraud.").is_empty());
        assert!(claims("Dana Ortiz pleaded guilty in state court to wire fraud and faces time in federal prison.").is_empty());
        // A civil action in a district court places no criminal case elsewhere in the document.
        let got = claims("The Securities and Exchange Commission sued Mark Ruiz in the U.S. District Court for the District of Maine. Dana Ortiz was convicted of fraud.");
        assert!(got.iter().all(|c| !c.contains("dana ortiz")), "{got:?}");
    }

    /// An order the sentence names no court for is the prosecutor's action's, not that of
    /// the agency the money is paid to.
    #[test]
    fn an_order_to_pay_the_irs_is_the_prosecutions() {
        let got = claims(
            "Dana Ortiz was sentenced today to 36 months in prison and ordered to pay restitution of $5,000 to the Internal Revenue Service, the Justice Department announced.",
        );
        assert!(got.contains(&"ORDERED_TO_PAY(Person:dana ortiz, Organization:department of justice) assertion".to_string()), "{got:?}");
    }

    /// A surname the tagger does not find alone is the person named in full before it (an
    /// English word too, "Colt"), after a generation ("Wooten" of "Daniel J. Wooten III");
    /// not before a given name ("Colt, Mike"), nor after an article.
    #[test]
    fn a_surname_found_again_after_the_full_name() {
        let text = "The Securities and Exchange Commission sued Daniel J. Wooten III and Marcelino Colt.                     The Commission obtained a final judgment against Colt and Wooten. Copies went to Colt, Mike and to the Colt office.";
        let got = claims(text);
        assert!(got.contains(&"CHARGED(Organization:securities and exchange commission, Person:marcelino colt) assertion".to_string()), "{got:?}");
        let x = extracted(text);
        let colt: Vec<(usize, &str)> = x.mentions.iter().filter(|(m, _)| m.surface == "Colt").map(|(m, _)| (m.span.0, m.key.as_str())).collect();
        assert_eq!(colt, [(text.find("Colt and").unwrap_or(0), "Person:marcelino colt")], "{colt:?}");
        let wooten: Vec<&str> = x.mentions.iter().filter(|(m, _)| m.surface == "Wooten").map(|(m, _)| m.key.as_str()).collect();
        assert_eq!(wooten, ["Person:daniel j. wooten iii"]);
    }

    /// Where an officer lives stands between the name and the office.
    #[test]
    fn an_officer_of_a_place_and_a_company() {
        assert_eq!(
            claims("Tor Ewald, of San Diego, California, Kestrel Energy Corp.'s former secretary and treasurer, was sentenced in December 2005."),
            ["OFFICER_OF(Person:tor ewald, Organization:kestrel energy corp) assertion"]
        );
    }

    #[test]
    fn the_us_attorneys_office_named_again_is_the_office() {
        assert_eq!(
            claims(
                "The United States Attorney's Office for the Eastern District of New York conducted a parallel investigation. \
                 The United States Attorney's Office announced the filing of charges against Dawn M. Schlegel and Sandra L. Hatfield."
            ),
            [
                "CHARGED(Organization:united states attorney's office for the eastern district of new york, Person:dawn m. schlegel) assertion",
                "CHARGED(Organization:united states attorney's office for the eastern district of new york, Person:sandra l. hatfield) assertion",
                "CO_DEFENDANT(Person:dawn m. schlegel, Person:sandra l. hatfield) assertion"
            ]
        );
    }

    /// A caption's alias in quotes ends no list; a relative the caption names before the
    /// release tells of anyone leaves the principal his surname; a name without its middle
    /// initial is the person named with it; a home before a role is no person; a name read
    /// as a body in the caption and as a person in the text is the person the surname names.
    #[test]
    fn captions_aliases_surnames_and_middle_initials() {
        let text = "Securities and Exchange Commission v. Dmitri Kovalenko a/k/a \"Dima K,\" Brandon L. Sutter, and Calder Bay Ventures Inc., Defendants, and Laura M. Kovalenko, Relief Defendant, No. 2:22-cv-04196 (C.D. Cal.)\n\n\
            The Securities and Exchange Commission today charged Dmitri Kovalenko, a Ukrainian national, with fraud. \
            Kovalenko paid Lumen Street Media LLC $610,000. \
            Kovalenko wired $1.2 million to his wife, Laura M. Kovalenko. \
            Lorraine M. Castillo-Hart, 49, of San Antonio, the president of Lone Star Facility Services Inc., was charged. \
            The U.S. Attorney's Office for the Central District of California charged Lorraine Castillo-Hart.";
        let got = claims(text);
        for want in [
            "CHARGED(Organization:securities and exchange commission, Person:dmitri kovalenko) assertion",
            "CHARGED(Organization:securities and exchange commission, Person:brandon l. sutter) assertion",
            "CHARGED(Organization:securities and exchange commission, Organization:calder bay ventures inc) assertion",
            "CO_DEFENDANT(Person:dmitri kovalenko, Person:brandon l. sutter) assertion",
            "PAID(Person:dmitri kovalenko, Organization:lumen street media llc) assertion",
            "OFFICER_OF(Person:lorraine m. castillo-hart, Organization:lone star facility services inc) assertion",
            "CHARGED(Organization:united states attorney's office for the central district of california, Person:lorraine m. castillo-hart) assertion",
        ] {
            assert!(got.iter().any(|g| g == want), "{want} not in {got:#?}");
        }
        assert!(got.iter().all(|g| !g.contains("Person:kovalenko") && !g.contains("Organization:dmitri") && !g.contains("san antonio")), "{got:#?}");
    }

    /// Names of two surnames: their last two words, and the first surname alone, are the
    /// person's.
    #[test]
    fn two_surnames_stand_for_their_bearer() {
        let got = claims(
            "Miguel Ángel Reyes Cortés and Esteban Ruiz Paredes were charged by the Securities and Exchange Commission. \
             Ruiz Paredes settled with the Commission. Julio Mendieta Paz was charged by the Commission. Mendieta settled with the Commission. \
             Reyes Cortés's cousin, Alejandro Fuentes, paid Reyes $5,000.",
        );
        for want in [
            "SETTLED_WITH(Person:esteban ruiz paredes, Organization:securities and exchange commission) assertion",
            "ASSOCIATED_WITH(Person:alejandro fuentes, Person:miguel ángel reyes cortés) assertion",
            "PAID(Person:alejandro fuentes, Person:miguel ángel reyes cortés) assertion",
            "SETTLED_WITH(Person:julio mendieta paz, Organization:securities and exchange commission) assertion",
        ] {
            assert!(got.iter().any(|g| g == want), "{want} not in {got:#?}");
        }
    }

    /// A clause that continues one of two complements, an allegation's and a denial's, is the
    /// allegation's; one of purpose after a payment denies nothing of the payment.
    #[test]
    fn continued_complements_and_purposes_keep_their_modality() {
        let got = claims(
            "The complaint further alleged that Acme Capital LLC's Forms ADV, which Curtis Hammond signed, falsely stated that the firm allocated trades pro rata, \
             and that Curtis Hammond concealed the practice from Acme Capital LLC's chief compliance officer, Lydia Okonkwo. \
             Osvaldo Ferrer also paid Dr. Leonard M. Gaskins, a Coral Gables internist, approximately $2,500 per month, disguised as a salary, to sign plans for patients he had never examined.",
        );
        for want in ["OFFICER_OF(Person:lydia okonkwo, Organization:acme capital llc) reported", "PAID(Person:osvaldo ferrer, Person:leonard m. gaskins) assertion"] {
            assert!(got.iter().any(|g| g == want), "{want} not in {got:#?}");
        }
    }
}
