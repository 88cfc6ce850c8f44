//! Identity evidence in the text (issues 17, 18): alias statements, unquoted defined terms
//! and enumerations of parties.
//!
//! - *Alias statements*: "Texas Cash Cow, LLC f/k/a Texas Cash Cow Investments, LLC",
//!   "Acme Corp. (formerly Acme Trading Ltd)", "John Doe a/k/a Jack Doe", "Beta d/b/a
//!   Beta Foods", "Gamma, now known as Delta". Each becomes an `ALIAS_OF` claim (subject:
//!   the name before the cue, object: the name after it) whose `kind` attribute says which
//!   statement it is — `formerly known as`, `now known as`, `also known as`, `doing
//!   business as` — citing the sentence, with the cue's own span on the attribute.
//! - *Unquoted defined terms*: "McKinley Mortgage Co. LLC (McKinley)", "American Business
//!   Financial Services, Inc. (ABF)", "Acme Holdings Ltd (the Company)": the term refers to
//!   the name before it in the rest of the document (coreference, like the quoted terms of
//!   `defined_terms`), and when the finders took the term for a name of its own, an
//!   `ALIAS_OF` claim of kind `defined term` links the two.
//! - *Enumerations*: names listed side by side ("Lewis Oil Corp., Lewis Oil Company and
//!   Rio Tinto plc") are different parties: `listed_with(doc, A, B)` for each pair, citing
//!   the list. `stdlib/identity.dl` never merges such a pair.

use std::sync::LazyLock;

use regex::Regex;

use super::entities::{Mention, collapse, name_key};
use super::modality::Modality;
use super::vocab::Vocabulary;
use super::{Claim, hex16};
use tg_store::{CitedFact, Tag, Value};
use tg_text::document::Span;
use tg_text::names;

/// Two parties listed side by side in one sentence, with the span of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// One entity key (the lesser).
    pub a: String,
    /// The other.
    pub b: String,
    /// The list's span.
    pub span: Span,
}

/// An alias statement's cue and the kind it states.
static CUE: LazyLock<Regex> = LazyLock::new(|| {
    super::entities::re(
        r"(?i)\b(?:(f/k/a|fka|f\.k\.a\.|formerly\s+known\s+as|formerly)|(n/k/a|nka|n\.k\.a\.|now\s+known\s+as|currently\s+known\s+as)|(a/k/a|aka|a\.k\.a\.|also\s+known\s+as)|(d/b/a|dba|d\.b\.a\.|doing\s+business\s+as|trading\s+as|t/a))(?:\s|$)",
    )
});

const KINDS: [&str; 4] = ["formerly known as", "now known as", "also known as", "doing business as"];

/// Whether the text between two names is one alias cue and nothing else (", f/k/a ", "
/// a/k/a ", " (formerly "): the second name is another name of the first's party.
pub(crate) fn is_cue_between(between: &str) -> bool {
    let t = between.trim_matches(|c: char| c.is_whitespace() || c == ',' || c == '(');
    CUE.find(&format!("{t} ")).is_some_and(|m| m.start() == 0 && m.end() == t.len() + 1)
}

fn is_party(m: &Mention) -> bool {
    matches!(m.kind, "Organization" | "Person")
}

/// The most words a name on either side of a cue may have: a longer run of capitalised
/// words is a caption or a list, not one name.
const MAX_NAME_WORDS: usize = 8;

/// A mention that can be one side of an alias statement: a party whose surface holds no
/// cue itself and is not a caption-long run of words.
fn is_alias_side(m: &Mention) -> bool {
    is_party(m) && !CUE.is_match(&m.surface) && m.surface.split_whitespace().count() <= MAX_NAME_WORDS && !m.surface.contains('\n')
}

/// Whether a word is an alias cue of one word ("a/k/a", "FKA", "d/b/a"), in any case.
pub(crate) fn is_cue_word(w: &str) -> bool {
    ["a/k/a", "f/k/a", "n/k/a", "d/b/a", "aka", "fka", "nka", "dba", "t/a", "a.k.a.", "f.k.a.", "n.k.a.", "d.b.a."].iter().any(|c| w.eq_ignore_ascii_case(c))
}

/// A name written after `from` (quotes and spaces skipped): capitalised words, with
/// "of", "and", "&", "the", "de" between them, a comma only before a legal form
/// ("Texas Cash Cow Investments, LLC"). The span, or `None`.
fn name_after(text: &str, from: usize, limit: usize) -> Option<Span> {
    let t = &text[from..limit];
    let skip = t.len() - t.trim_start_matches([' ', '"', '“', '\'', '‘']).len();
    let start = from + skip;
    let mut end = start;
    let mut i = start;
    let bytes = text.as_bytes();
    let mut n = 0;
    loop {
        n += 1;
        if n > MAX_NAME_WORDS {
            return None;
        }
        // One word: up to a space, comma, semicolon or parenthesis.
        let mut j = i;
        while j < limit && !matches!(bytes[j], b' ' | b',' | b';' | b'(' | b')' | b'"' | b'\n') && !(text.is_char_boundary(j) && text[j..].starts_with('”')) {
            j += 1;
        }
        if j == i {
            break;
        }
        let w = &text[i..j];
        // (A cue in capitals ends the name: "KELLY COOK A/K/A KELLY JAYE A/K/A …".)
        if is_cue_word(w) {
            break;
        }
        let bare = w.trim_end_matches('.');
        let connector = matches!(bare, "of" | "and" | "&" | "the" | "de" | "du" | "la" | "for");
        let cap = w.chars().next().is_some_and(|c| c.is_uppercase() || c.is_numeric());
        if !(cap || (connector && end > start)) {
            break;
        }
        if cap {
            end = j;
        }
        // A comma continues the name only before a legal form ("…, LLC", "…, Inc.").
        let mut k = j;
        if k < limit && bytes[k] == b',' {
            let rest = text[k + 1..limit].trim_start();
            let next: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '.').collect();
            let form = names::legal_form(&format!("x {next}"));
            if next.is_empty() || form.is_empty() {
                break;
            }
            k = limit - rest.len();
            i = k;
            continue;
        }
        while k < limit && bytes[k] == b' ' {
            k += 1;
        }
        if k == j {
            break;
        }
        i = k;
    }
    // A trailing connector is not part of the name.
    (end > start).then_some((start, end))
}

/// The names a written name `sp` joins with " and " or " & " (each with a capital letter),
/// in order; the whole name alone when it joins none.
fn split_at_and(text: &str, sp: Span) -> Vec<Span> {
    let name = &text[sp.0..sp.1];
    let mut out = vec![];
    let mut from = 0;
    for (at, sep) in name.match_indices(" and ").chain(name.match_indices(" & ")).collect::<std::collections::BTreeMap<_, _>>() {
        if at >= from {
            out.push((sp.0 + from, sp.0 + at));
            from = at + sep.len();
        }
    }
    out.push((sp.0 + from, sp.1));
    out.retain(|&(a, b)| text[a..b].chars().next().is_some_and(char::is_uppercase));
    if out.is_empty() { vec![sp] } else { out }
}

/// A name ending at `to` (spaces and a comma before it skipped), written like
/// [`name_after`]: from the start of the sentence's last run of capitalised words, inside
/// the brackets where it ends with one.
fn name_before(text: &str, from: usize, to: usize) -> Option<Span> {
    let mut from = from;
    let mut t = text[from..to].trim_end_matches([' ', ',', '(']);
    // A name in brackets right before the cue is the name ("Condor (Project Velocity) a/k/a
    // Trutta": Project Velocity); a bracket's end is never part of one.
    if let Some(inner) = t.strip_suffix(')') {
        match inner.rfind('(') {
            Some(open) => {
                from += open + 1;
                t = inner[open + 1..].trim_end();
            }
            None => t = inner.trim_end(),
        }
    }
    // An age in apposition before the cue ("Alejandro Curbelo, 32, aka …") is not the name's.
    if let Some((head, age)) = t.rsplit_once(", ")
        && (1..=3).contains(&age.len())
        && age.bytes().all(|b| b.is_ascii_digit())
    {
        t = head.trim_end();
    }
    let end = from + t.len();
    // Walk back over words; stop at a lowercase word that is no connector.
    let words: Vec<(usize, &str)> = t.match_indices(|c: char| !c.is_whitespace()).fold(vec![], |mut acc: Vec<(usize, &str)>, (i, _)| {
        if acc.last().is_none_or(|(s, w)| s + w.len() < i) {
            acc.push((i, &t[i..i + t[i..].find(char::is_whitespace).unwrap_or(t.len() - i)]));
        }
        acc
    });
    let mut start = None;
    let mut n = 0;
    for (i, w) in words.iter().rev() {
        n += 1;
        if n > MAX_NAME_WORDS || t[*i..].trim_end().contains('\n') {
            break;
        }
        let bare = w.trim_end_matches([',', '.']);
        if is_cue_word(bare) {
            break;
        }
        if w.chars().next().is_some_and(|c| c.is_uppercase() || c.is_numeric()) {
            start = Some(from + i);
        } else if matches!(bare, "of" | "&" | "the" | "de" | "for") && start.is_some() {
            // ("and" ends the name: before a cue it mostly joins two parties of a list.)
            continue;
        } else {
            break;
        }
    }
    start.map(|s| (s, end))
}

/// The party mention exactly at `span`, or a new Organization mention for it (a Person
/// when the mention next to it is one).
fn party_at(text: &str, ms: &[Mention], span: Span, like: Option<&Mention>) -> Mention {
    if let Some(m) = ms.iter().find(|m| is_party(m) && m.span == span) {
        return m.clone();
    }
    let surface = collapse(&text[span.0..span.1]);
    // A person's when the party beside it is one or, with no party beside it to go by, when
    // it has two to four words and opens with a given name ("KELLY COOK A/K/A KELLY JAYE"
    // in a caption in capitals, which the name finders leave to the rules); never with a
    // legal form.
    let personal = match like {
        Some(m) => m.kind == "Person",
        None => (2..=4).contains(&surface.split_whitespace().count()) && surface.split_whitespace().next().is_some_and(super::ner::is_given_name),
    };
    written_party(text, span, if personal && names::legal_form(&surface).is_empty() { "Person" } else { "Organization" })
}

/// A new mention of the name written at `span`, of type `kind`, keyed by its own words.
fn written_party(text: &str, span: Span, kind: &'static str) -> Mention {
    let surface = collapse(&text[span.0..span.1]);
    Mention { span, kind, key: format!("{kind}:{}", name_key(&surface)), surface, attrs: vec![] }
}

/// Alias statements and enumerations in one sentence. `ms` are the sentence's mentions
/// (sorted by span). Returns the claims, the mentions it added, and the enumerated pairs.
pub fn sentence(doc: &str, text: &str, sent: Span, ms: &[Mention], vocab: &Vocabulary) -> (Vec<Claim>, Vec<Mention>, Vec<Listed>) {
    let mut claims = vec![];
    let mut added: Vec<Mention> = vec![];
    let s_text = &text[sent.0..sent.1];
    let mut cue_spans: Vec<Span> = vec![];
    for c in CUE.captures_iter(s_text) {
        let (Some(whole), Some(kind)) = (c.get(0), (1..=4).find(|&i| c.get(i).is_some())) else { continue };
        let cue = c.get(kind).map_or((whole.start(), whole.end()), |g| (g.start(), g.end()));
        let cue = (sent.0 + cue.0, sent.0 + cue.1);
        // The party before the cue: a mention ending there, else the capitalised words.
        // (A short name in brackets after the name ends the name: "FCA US LLC (FCA US), formerly …".)
        let before = ms
            .iter()
            .rfind(|m| is_alias_side(m) && m.span.1 <= cue.0 && matches!(text[m.span.1..cue.0].trim().trim_start_matches(['"', '”']), "" | "," | "(" | ", (" | ")" | "),"));
        let subject = match before {
            Some(m) => m.clone(),
            None => match name_before(text, sent.0, cue.0) {
                Some(sp) => party_at(text, ms, sp, None),
                None => continue,
            },
        };
        let after = ms.iter().find(|m| is_alias_side(m) && m.span.0 >= cue.1 && text[cue.1..m.span.0].trim_matches([' ', '"', '“', '\'', '‘']).is_empty());
        // A bare "formerly" often opens a description ("formerly CEO of Acme"): only a name
        // the finders recognised follows it as an alias.
        let bare = text[cue.0..cue.1].eq_ignore_ascii_case("formerly");
        let written = if bare { None } else { name_after(text, cue.1, sent.1) };
        // A person's aliases joined by "and" are several names ("Claude Shaw aka Mac and
        // Claude Mac"): no person's name holds "and" (a company's may: "Smith and Sons").
        let several = match written {
            Some(sp) if subject.kind == "Person" => split_at_and(text, sp),
            _ => vec![],
        };
        let objects = if several.len() > 1 {
            // (Each is its own name: a word of it that coreference read as another's surname,
            // "Mac" before "Claude Mac", is keyed as written here.)
            several.into_iter().map(|sp| written_party(text, sp, "Person")).collect()
        } else {
            vec![match (after, written) {
                // The longer of the finder's mention and the written name ("Texas Cash Cow
                // Investments, LLC" where the finder stopped at the comma).
                (Some(m), Some(sp)) if sp.1 > m.span.1 && sp.0 == m.span.0 => party_at(text, ms, sp, Some(&subject)),
                (Some(m), _) => m.clone(),
                (None, Some(sp)) => party_at(text, ms, sp, Some(&subject)),
                (None, None) => continue,
            }]
        };
        for object in objects {
            if subject.key == object.key || vocab.check("ALIAS_OF", subject.kind, object.kind).is_err() {
                continue;
            }
            cue_spans.push(cue);
            for m in [&subject, &object] {
                if !ms.iter().any(|x| x.span == m.span && x.key == m.key) && !added.iter().any(|x| x.span == m.span) {
                    added.push(m.clone());
                }
            }
            claims.push(alias_claim(doc, sent, &subject, &object, KINDS[kind - 1], cue));
        }
    }
    // Enumerations: party mentions separated only by commas, "and", "or" or semicolons.
    let mut listed = vec![];
    let parties: Vec<&Mention> = ms.iter().filter(|m| is_party(m)).collect();
    let mut run: Vec<&Mention> = vec![];
    let flush = |run: &mut Vec<&Mention>, listed: &mut Vec<Listed>| {
        if run.len() >= 2 {
            let span = (run[0].span.0, run[run.len() - 1].span.1);
            for (i, x) in run.iter().enumerate() {
                for y in &run[i + 1..] {
                    if x.key != y.key && x.kind == y.kind {
                        let (a, b) = if x.key < y.key { (&x.key, &y.key) } else { (&y.key, &x.key) };
                        listed.push(Listed { a: a.clone(), b: b.clone(), span });
                    }
                }
            }
        }
        run.clear();
    };
    for m in parties {
        let joined = run.last().is_some_and(|prev| {
            prev.span.1 <= m.span.0 && {
                let gap = text[prev.span.1..m.span.0].trim();
                matches!(gap, "," | ";" | "and" | "or" | ", and" | ", or" | "; and" | "and/or" | ", and/or")
            }
        });
        if !joined {
            flush(&mut run, &mut listed);
        }
        run.push(m);
    }
    flush(&mut run, &mut listed);
    // A list around an alias cue is a statement, not an enumeration.
    listed.retain(|l| !cue_spans.iter().any(|c| l.span.0 <= c.0 && c.1 <= l.span.1));
    listed.sort_by(|x, y| (&x.a, &x.b, x.span).cmp(&(&y.a, &y.b, y.span)));
    listed.dedup_by(|x, y| x.a == y.a && x.b == y.b);
    (claims, added, listed)
}

fn alias_claim(doc: &str, sent: Span, s: &Mention, o: &Mention, kind: &str, cue: Span) -> Claim {
    let id = hex16(&[doc, &sent.0.to_string(), &sent.1.to_string(), &s.key, "ALIAS_OF", &o.key]);
    Claim {
        id,
        subject: (s.key.clone(), s.kind),
        rel: "ALIAS_OF",
        object: (o.key.clone(), o.kind),
        modality: Modality::Assertion,
        asserter: "document".into(),
        quote: sent,
        attrs: vec![("kind", kind.into(), cue)],
        valid: None,
        correction: None,
        antecedents: vec![],
        args: Some((s.span, o.span)),
    }
}

/// Unquoted defined terms after a party's name — "(McKinley)", "(ABF)", "(the Company)" —
/// as (term, index of the name's mention in `mentions`), like the quoted ones.
pub fn unquoted_terms(text: &str, mentions: &[&Mention]) -> Vec<(String, usize)> {
    let mut out = vec![];
    for (i, m) in mentions.iter().enumerate() {
        if !is_party(m) {
            continue;
        }
        // The parenthesis closing the mention itself (the finders may take it in:
        // "McKinley Mortgage Co. LLC (McKinley)"), else one right after it.
        let own_text = &text[m.span.0..m.span.1];
        let (inner, base) = match (own_text.ends_with(')'), own_text.rfind('(')) {
            (true, Some(open)) => (&own_text[open + 1..own_text.len() - 1], own_text[..open].trim_end()),
            _ => {
                let after = &text[m.span.1..];
                let rest = after.trim_start();
                if !rest.starts_with('(') || after.len() - rest.len() > 2 {
                    continue;
                }
                let Some(close) = rest.find(')') else { continue };
                (&rest[1..close], own_text)
            }
        };
        if inner.is_empty() || inner.len() > 40 || inner.contains(['"', '“', '(', '\n']) {
            continue;
        }
        let low = inner.to_lowercase();
        let term = inner.trim();
        // "(the Company)": the generic noun is the term, as written.
        let generic =
            low.starts_with("the ") && term.split_whitespace().count() == 2 && term.split_whitespace().nth(1).is_some_and(|w| w.chars().next().is_some_and(char::is_uppercase));
        let outer = names::words(base);
        let own = !low.starts_with("the ")
            && term.chars().next().is_some_and(char::is_uppercase)
            && names::is_defined_term(term, &outer)
            && names::legal_form(&format!("x {term}")).is_empty();
        if generic || own {
            out.push((term.to_string(), i));
        }
    }
    out
}

/// `ALIAS_OF` claims of kind `defined term` for unquoted terms the finders took for names
/// of their own ("McKinley" found as `Organization:mckinley` right after "McKinley
/// Mortgage Co. LLC (").
pub fn term_claims(doc: &str, text: &str, sentences: &[Span], mentions: &[Mention], terms: &[(String, usize)], vocab: &Vocabulary) -> Vec<Claim> {
    let mut out = vec![];
    for (term, i) in terms {
        let Some(full) = mentions.get(*i) else { continue };
        let Some(open) = text[full.span.1..].find('(').map(|k| full.span.1 + k + 1).filter(|&o| o <= full.span.1 + 3) else { continue };
        // The short name as a mention of its own; a quoted acronym the recognisers left alone
        // ("(\"BFMA\")") is read from the text at the parenthesis. A quoted word is not: it may
        // be only words of the name ("(\"Stifel\")", "(the \"Commission\")"), which says nothing
        // the name does not, a role ("(\"Defendants\")"), or another party's short name.
        // (A place's name may be a party's short name: "Meridian Oil Ventures, L.P.
        // (\"Meridian\")", "Trenton Industries Holdings, Inc. (\"Trenton\")".)
        let found = mentions
            .iter()
            .find(|m| (is_party(m) || (m.kind == "Location" && is_party(full))) && m.span.0 >= open && m.span.0 <= open + 1 && m.surface == *term && m.key != full.key)
            .cloned();
        let own_words = |t: &str| {
            let name: Vec<String> = full.surface.split_whitespace().map(|w| w.trim_end_matches([',', '.']).to_lowercase()).collect();
            t.split_whitespace().all(|w| name.contains(&w.trim_end_matches([',', '.']).to_lowercase()))
        };
        let read = || {
            let acronym = term.len() >= 2 && term.bytes().all(|b| b.is_ascii_uppercase() || b == b'-' || b == b'&') && term.bytes().any(|b| b.is_ascii_uppercase());
            if !acronym || own_words(term) {
                return None;
            }
            let at = open + text.get(open..super::floor_boundary(text, open + term.len() + 12))?.find(term.as_str())?;
            let key = format!("{}:{}", full.kind, name_key(term));
            (key != full.key && is_party(full)).then(|| Mention { span: (at, at + term.len()), kind: full.kind, key, surface: collapse(term), attrs: vec![] })
        };
        let Some(mut short) = found.or_else(read) else { continue };
        // A defined term is a name of what it defines, of its type: "James Asset Advisory, LLC
        // (\"James Asset\")" defines an organisation's name, whatever the tagger made of it.
        if short.kind != full.kind {
            short.key = format!("{}:{}", full.kind, name_key(&short.surface));
            short.kind = full.kind;
        }
        if short.key == full.key {
            continue;
        }
        let short = &short;
        let Some(sent) = sentences.iter().find(|s| s.0 <= full.span.0 && short.span.1 <= s.1) else { continue };
        if vocab.check("ALIAS_OF", full.kind, short.kind).is_ok() {
            // The attribute cites the parenthesis: from "(" to its ")" (or the term's end).
            let close = text[short.span.1..sent.1].find(')').map_or(short.span.1, |k| short.span.1 + k + 1);
            out.push(alias_claim(doc, *sent, full, short, "defined term", (open - 1, close)));
        }
    }
    out
}

/// The `listed_with(doc, a, b)` facts of a document's enumerations.
pub fn facts(doc: &str, listed: &[Listed]) -> Vec<CitedFact> {
    let sym = |s: &str| Value::Sym(s.to_string());
    let mut by: std::collections::BTreeMap<(&str, &str), Vec<(u64, u64)>> = std::collections::BTreeMap::new();
    for l in listed {
        by.entry((l.a.as_str(), l.b.as_str())).or_default().push((l.span.0 as u64, l.span.1 as u64));
    }
    by.into_iter().map(|((a, b), spans)| CitedFact { rel: "listed_with".into(), args: vec![sym(doc), sym(a), sym(b)], tag: Tag::Extracted, spans }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An age in apposition before an alias cue is no part of the name.
    #[test]
    fn an_age_before_the_cue_is_not_the_names() {
        let t = "Alejandro Curbelo, 32, aka Alex Curbelo";
        let cue = t.find(" aka").unwrap_or_default();
        assert_eq!(name_before(t, 0, cue).map(|s| &t[s.0..s.1]), Some("Alejandro Curbelo"));
    }

    /// A name no finder typed, opening with a given name, is a person's; with a legal form,
    /// an organisation's.
    #[test]
    fn an_untyped_name_with_a_given_name_is_a_persons() {
        let t = "KELLY COOK A/K/A KELLY JAYE and SIX SIGMA, LLC";
        assert_eq!(party_at(t, &[], (0, 10), None).kind, "Person");
        assert_eq!(party_at(t, &[], (32, 46), None).kind, "Organization");
    }

    #[test]
    fn a_cue_in_capitals_ends_the_names_beside_it() {
        let t = "and KELLY COOK A/K/A KELLY JAYE A/K/A KELLY SPAGNOLA, Civil Action No. 1";
        let first = t.find(" A/K/A").unwrap_or_default();
        assert_eq!(name_before(t, 0, first).map(|s| &t[s.0..s.1]), Some("KELLY COOK"));
        let after = first + " A/K/A ".len();
        assert_eq!(name_after(t, after, t.len()).map(|s| &t[s.0..s.1]), Some("KELLY JAYE"));
    }
}
