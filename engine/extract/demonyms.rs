//! Demonyms as the places they name: "Venezuelan officials", "a Chinese money laundering
//! network", "North Korean banks" mention Venezuela, China and North Korea.
//!
//! The tagger read a demonym standing alone as a place, a body or a person by turns
//! ("Venezuelan" in the FinCEN advisories: 52 places, 26 people, 24 organisations), or as
//! no name at all; Re-DocRED's annotators marked the demonyms as places 508 times in 543.
//! A demonym of the list (`stdlib/models/gazetteer/demonyms.txt`, from the `countryinfo`
//! package, see its README) that no longer name holds is a Location mention keyed to its
//! country, so that "Venezuelan" and "Venezuela" are one entity. A demonym inside a name
//! ("Venezuelan Office of the National Treasury", "American Express") stays the name's.
//!
//! A state named formally or by its abbreviation ("the Islamic Republic of Iran", "DPRK",
//! "People's Republic of China") is likewise the place its short name names: the tagger
//! read such names as bodies (in the FinCEN advisories "Islamic Republic of Iran" 97 times,
//! with the "Iran" its definition made a term of, and "DPRK" 46 times), so that a graph had
//! one Iran that is a place and another that is an organisation. The list
//! (`gazetteer/states.txt`) is made from the same package.

use std::sync::LazyLock;

use super::entities::{Mention, name_key};
use tg_text::document::Span;

/// Spellings in wide use that the package lists in another form only ("Ecuadorean",
/// "Salvadoran", "Kazakhstani", "Argentinean", "Saudi Arabian", "Slovene"): the same
/// countries' demonyms, read after the file's.
const OTHER_SPELLINGS: &[(&str, &str)] = &[
    ("Ecuadorian", "Ecuador"),
    ("Salvadorean", "El Salvador"),
    ("Kazakh", "Kazakhstan"),
    ("Kyrgyz", "Kyrgyzstan"),
    ("Uzbek", "Uzbekistan"),
    ("Argentine", "Argentina"),
    ("Argentinian", "Argentina"),
    ("Saudi", "Saudi Arabia"),
    ("Nepali", "Nepal"),
    ("Slovenian", "Slovenia"),
    ("Icelandic", "Iceland"),
    ("Luxembourgish", "Luxembourg"),
];

/// The demonym list's (demonym, country) lines, in the file's order, then
/// [`OTHER_SPELLINGS`].
fn lines() -> impl Iterator<Item = (&'static str, &'static str)> {
    include_str!("../../stdlib/models/gazetteer/demonyms.txt").lines().filter_map(|l| l.split_once('\t')).chain(OTHER_SPELLINGS.iter().copied())
}

/// (demonym, its country's entity key), in the file's order.
static DEMONYMS: LazyLock<Vec<(&'static str, String)>> = LazyLock::new(|| lines().map(|(d, country)| (d, format!("Location:{}", name_key(country)))).collect());

/// The demonyms by their first word (up to a space or a hyphen: "South" of "South Korean",
/// "Guinea" of "Guinea-Bissauan"), longest first: one lookup per capitalised word of a
/// sentence finds the leftmost-longest demonym there.
static BY_FIRST_WORD: LazyLock<hashbrown::HashMap<&'static str, Vec<usize>>> = LazyLock::new(|| {
    let mut m: hashbrown::HashMap<&'static str, Vec<usize>> = hashbrown::HashMap::new();
    for (i, (d, _)) in DEMONYMS.iter().enumerate() {
        let first = d.split([' ', '-']).next().unwrap_or(d);
        m.entry(first).or_default().push(i);
    }
    for v in m.values_mut() {
        v.sort_by_key(|&i| std::cmp::Reverse(DEMONYMS[i].0.len()));
    }
    m
});

/// Words before a demonym that make it a language's name ("in French", "into Spanish").
const LANGUAGE_BEFORE: &[&str] = &["in", "into", "speak", "speaks", "spoke", "speaking", "fluent"];

/// Words after a demonym (and a hyphen or a space) that make it a language's name.
const LANGUAGE_AFTER: &[&str] = &["language", "languages", "speaking", "speaker", "speakers", "translation", "translations", "version", "subtitles"];

/// States' formal names and abbreviations (apostrophes as `'`), each with its country's
/// entity key.
static STATES: LazyLock<hashbrown::HashMap<&'static str, String>> = LazyLock::new(|| {
    include_str!("../../stdlib/models/gazetteer/states.txt")
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(formal, country)| (formal, format!("Location:{}", name_key(country))))
        .collect()
});

/// The country a name written at `span` of `text` names when it is a state's formal name
/// or abbreviation ("Islamic Republic of Iran", "the DPRK"): where the name begins and the
/// country's key ("Location:iran"). The name may begin up to two capitalised words before
/// the span, on its line: the tagger cut "People’s Republic of China" at the curly
/// apostrophe, "Syrian Arab Republic" after "Syrian".
pub fn formal_state(text: &str, span: Span) -> Option<(usize, &'static str)> {
    let written = text.get(span.0..span.1)?;
    // (Every listed name ends in one of a few words, "Iran", "Korea", "DPRK": most names
    // end in none, and need no more.)
    static LAST_WORDS: LazyLock<hashbrown::HashSet<&'static str>> = LazyLock::new(|| STATES.keys().filter_map(|k| k.split(' ').next_back()).collect());
    if !written.split_whitespace().next_back().is_some_and(|w| LAST_WORDS.contains(w)) {
        return None;
    }
    // One of the list's names is at most eight words; anything longer is none.
    if written.len() > 80 || !written.starts_with(|c: char| c.is_uppercase() || c == 't') {
        return None;
    }
    let lookup = |from: usize| {
        let name: String = text[from..span.1].split_whitespace().collect::<Vec<_>>().join(" ").replace('’', "'");
        let name = name.strip_prefix("the ").or_else(|| name.strip_prefix("The ")).unwrap_or(&name);
        STATES.get(name).map(|k| (from, k.as_str()))
    };
    // The widest name wins: "People’s Republic of China" is China, though "Republic of
    // China" alone is Taiwan. The starts: up to two capitalised words before (not an
    // article), each followed by a space or a line break, then the span's own.
    let mut starts = vec![span.0];
    for _ in 0..2 {
        let from = starts[starts.len() - 1];
        let Some(before) = text[..from].strip_suffix([' ', '\n']) else { break };
        let w = before.rsplit([' ', '\n', '(', '“', '"']).next().unwrap_or("");
        if w.is_empty() || w == "The" || !w.starts_with(|c: char| c.is_uppercase()) || w.ends_with([',', '.', ';', ':']) {
            break;
        }
        starts.push(from - w.len() - 1);
    }
    starts.into_iter().rev().find_map(lookup)
}

/// The country key of a demonym as written ("Venezuelan" → "Location:venezuela").
pub fn country_of(demonym: &str) -> Option<&'static str> {
    let first = demonym.split([' ', '-']).next().unwrap_or(demonym);
    BY_FIRST_WORD.get(first)?.iter().find(|&&i| DEMONYMS[i].0 == demonym).map(|&i| DEMONYMS[i].1.as_str())
}

/// Whether `name` is a country's name as the demonym list writes it ("Iran", "North
/// Korea", "United States").
pub fn is_country(name: &str) -> bool {
    static COUNTRIES: LazyLock<std::collections::BTreeSet<&'static str>> = LazyLock::new(|| lines().map(|(_, country)| country).collect());
    COUNTRIES.contains(name)
}

/// The sentence `sentence`'s rule mentions and learned names with its demonyms added: a
/// demonym that is a word of its own (a hyphen may join it: "Greek-French") and overlaps no
/// rule mention nor a longer learned name becomes a Location mention; a learned name that
/// is the demonym alone gives way to it.
pub fn with_demonyms(text: &str, sentence: Span, mut rules: Vec<Mention>, mut names: Vec<(Span, &'static str)>) -> (Vec<Mention>, Vec<(Span, &'static str)>) {
    let t = &text[sentence.0..sentence.1];
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '\'' || c == '’');
    let mut added = false;
    // Each word that starts with a capital (every demonym does, in ASCII), looked up by its
    // letters.
    let bytes = t.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let b = bytes[at];
        if !b.is_ascii_uppercase() || (at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'\'')) {
            at += 1;
            continue;
        }
        let run = bytes[at..].iter().take_while(|c| c.is_ascii_alphabetic()).count();
        let found =
            BY_FIRST_WORD.get(&t[at..at + run]).and_then(|ds| ds.iter().find(|&&i| t[at..].starts_with(DEMONYMS[i].0) && !word(t[at + DEMONYMS[i].0.len()..].chars().next())));
        let Some(&i) = found else {
            at += run.max(1);
            continue;
        };
        let (s, e) = (sentence.0 + at, sentence.0 + at + DEMONYMS[i].0.len());
        at += DEMONYMS[i].0.len();
        if word(text[..s].chars().next_back()) {
            continue;
        }
        // A capitalised word just before or after it makes it a part of a longer name the
        // tagger kept as no place or body's ("French Revolution", "Spanish Civil War",
        // "Soviet Russian"); the sentence's first word ("The Chinese …") does not. Where the
        // tagger read the demonym alone as a name before a capitalised word ("Venezuelan" of
        // "Venezuelan Vice President …"), it kept the word after out of the name: the
        // demonym is the place. (Not after a surname and a comma, "Quigley, Dutch": a given
        // name.)
        let next = text[e..sentence.1].strip_prefix(' ').and_then(|r| r.chars().next());
        let modifies = next.is_some_and(char::is_uppercase) && names.iter().any(|(sp, _)| *sp == (s, e));
        let before = text[sentence.0..s].strip_suffix(' ').map(|r| r.rsplit(' ').next().unwrap_or(r));
        let capital_before = before.is_some_and(|w| w.chars().next().is_some_and(char::is_uppercase) && s - 1 - w.len() > sentence.0);
        if !modifies && (next.is_some_and(char::is_uppercase) || capital_before) {
            continue;
        }
        // A language is no place: "written in Spanish", "French-language", "Greek speakers".
        let after = text[e..sentence.1].trim_start_matches(['-', ' ']);
        let language = before.is_some_and(|w| LANGUAGE_BEFORE.contains(&w)) || LANGUAGE_AFTER.iter().any(|a| after.starts_with(a) && !word(after[a.len()..].chars().next()));
        if language {
            continue;
        }
        let overlaps = |sp: Span| sp.0 < e && s < sp.1;
        if rules.iter().any(|r| overlaps(r.span)) || names.iter().any(|(sp, _)| overlaps(*sp) && *sp != (s, e)) {
            continue;
        }
        names.retain(|(sp, _)| *sp != (s, e));
        let (surface, key) = &DEMONYMS[i];
        rules.push(Mention { span: (s, e), kind: "Location", key: key.clone(), surface: surface.to_string(), attrs: vec![] });
        added = true;
    }
    if added {
        rules.sort_by(|a, b| a.span.cmp(&b.span).then(a.key.cmp(&b.key)));
    }
    (rules, names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(t: &str, names: Vec<(Span, &'static str)>) -> (Vec<(String, String)>, Vec<&'static str>) {
        let (rules, names) = with_demonyms(t, (0, t.len()), vec![], names);
        (rules.into_iter().map(|m| (m.surface, m.key)).collect(), names.into_iter().map(|(_, k)| k).collect())
    }

    #[test]
    fn a_demonym_alone_is_its_country() {
        assert_eq!(country_of("Venezuelan"), Some("Location:venezuela"));
        assert_eq!(country_of("Chinese"), Some("Location:china"));
        assert_eq!(country_of("Bahamian"), Some("Location:bahamas"));
        assert_eq!(country_of("Serbian"), Some("Location:serbia"));
        // (Spellings the package lacks.)
        assert_eq!(country_of("Ecuadorian"), Some("Location:ecuador"));
        assert_eq!(country_of("Saudi"), Some("Location:saudi arabia"));
    }

    /// Formal names and abbreviations of states are their countries; a name cut before a
    /// curly apostrophe is widened to the whole name; other names are none.
    #[test]
    fn formal_states_are_their_countries() {
        fn at<'a>(t: &'a str, name: &str) -> Option<(&'a str, &'static str)> {
            let s = t.find(name)?;
            formal_state(t, (s, s + name.len())).map(|(from, k)| (&t[from..s + name.len()], k))
        }
        let t = "Funds moved from the Islamic Republic of Iran and the DPRK to Acme.";
        assert_eq!(at(t, "Islamic Republic of Iran"), Some(("Islamic Republic of Iran", "Location:iran")));
        assert_eq!(at(t, "DPRK"), Some(("DPRK", "Location:north korea")));
        let t = "suppliers in the People’s Republic of China (PRC) and the Democratic Republic of Congo";
        assert_eq!(
            at("areas bordering the Democratic\nPeople’s Republic of Korea (DPRK)", "Republic of Korea"),
            Some(("Democratic\nPeople’s Republic of Korea", "Location:north korea"))
        );
        assert_eq!(at(t, "Republic of China"), Some(("People’s Republic of China", "Location:china")));
        assert_eq!(at(t, "PRC"), Some(("PRC", "Location:china")));
        assert_eq!(at(t, "Democratic Republic of Congo"), Some(("Democratic Republic of Congo", "Location:democratic republic of the congo")));
        let t = "Taipei is the seat of the Republic of China.";
        assert_eq!(at(t, "Republic of China"), Some(("Republic of China", "Location:taiwan")));
        let t = "the Islamic Republic of Iran Shipping Lines and Republic Services";
        assert_eq!(at(t, "Islamic Republic of Iran Shipping Lines"), None);
        assert_eq!(at(t, "Republic Services"), None);
        let t = "Venezuelan officials and North Korean banks used Chinese-made phones.";
        let (ms, _) = found(t, vec![]);
        assert_eq!(
            ms,
            [
                ("Venezuelan".to_string(), "Location:venezuela".to_string()),
                ("North Korean".to_string(), "Location:north korea".to_string()),
                ("Chinese".to_string(), "Location:china".to_string())
            ]
        );
        // The tagger's reading of the demonym alone gives way; a longer name keeps it.
        let t = "Venezuelan paid the Venezuelan Office of the National Treasury.";
        let (ms, names) = found(t, vec![((0, 10), "Organization"), ((20, 62), "Organization")]);
        assert_eq!(ms, [("Venezuelan".to_string(), "Location:venezuela".to_string())]);
        assert_eq!(names, ["Organization"]);
        // … also next to a capitalised word, where it read the demonym alone.
        let (ms, names) = found("OFAC designated Venezuelan Vice President Tareck El Aissami.", vec![((16, 26), "Person")]);
        assert_eq!((ms.len(), names.len()), (1, 0));
        // Not a given name after a surname and a comma.
        let (ms, names) = found("To: Quigley, Dutch <dq@example.com>", vec![((13, 18), "Person")]);
        assert_eq!((ms.len(), names.len()), (0, 1));
        // Nor part of a longer name, nor a language.
        assert!(found("The French Revolution, in Spanish, a Greek-language paper; Soviet Russian", vec![]).0.is_empty());
        assert_eq!(found("The Chinese said so.", vec![]).0.len(), 1);
        // Not inside a word, nor a possessive's or a longer word's part.
        assert!(found("Frenchman Danish's Americana", vec![]).0.is_empty());
    }
}
