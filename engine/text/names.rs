//! Name features for entity resolution: normalised cores, blocking keys, discriminators,
//! extensions and similarities of two names.
//!
//! These are the building blocks `stdlib/identity.dl` calls as host functors
//! (`@tg_er_core(N)`, `@tg_jaro_winkler(A, B)`, …); the rules decide, these only measure.
//! Every function is pure and deterministic, so a derivation replays byte for byte.

/// Words that say nothing about which organisation a name means: legal forms in many
/// jurisdictions. "Acme Ltd" and "Acme Limited" are the same name; "Acme Products" is not.
pub const EMPTY_SUFFIXES: &[&str] = &[
    "ab",
    "ag",
    "aps",
    "as",
    "asa",
    "bhd",
    "bv",
    "cjsc",
    "co",
    "company",
    "corp",
    "corporation",
    "cv",
    "dmcc",
    "fz",
    "fzc",
    "fzco",
    "fze",
    "gmbh",
    "inc",
    "incorporated",
    "jsc",
    "kft",
    "kg",
    "kk",
    "limited",
    "llc",
    "lllp",
    "llp",
    "lp",
    "ltd",
    "ltda",
    "nv",
    "oao",
    "ojsc",
    "ooo",
    "oy",
    "oyj",
    "pjsc",
    "plc",
    "pllc",
    "pte",
    "pty",
    "sa",
    "sab",
    "sarl",
    "sas",
    "sca",
    "se",
    "sl",
    "spa",
    "srl",
    "sro",
    "the",
    "zao",
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
/// lower-cased, words joined by spaces; empty when there is none. A parenthesis that
/// defines a short name for the one before it is an alias, not a discriminator
/// ([`is_defined_term`]): "McKinley Mortgage Co. LLC (McKinley)" has none.
pub fn discriminator(name: &str) -> String {
    let outer = words(name);
    let mut parts = vec![];
    for p in parentheses(name) {
        let w = words(&p);
        if !w.is_empty() && !is_defined_term(&p, &outer) {
            parts.push(w.join(" "));
        }
    }
    parts.join(" ")
}

/// Whether a parenthesis after a name defines a term for it rather than telling it apart:
/// quoted (`("Acme")`), a generic noun with an article (`(the Company)`, `(the "Bank")`),
/// "hereinafter …", an alias statement (`(f/k/a …)`, `(formerly …)`), the name's acronym
/// (`(ABF)` after "American Business Financial"), or one or two of the name's own words
/// (`(McKinley)`). `outer` is the name's words outside parentheses ([`words`]).
pub fn is_defined_term(paren: &str, outer: &[String]) -> bool {
    let t = paren.trim();
    let low = t.to_lowercase();
    if t.starts_with(['"', '“', '\'', '‘']) || low.starts_with("the ") || low.starts_with("hereinafter") || low.starts_with("collectively") {
        return true;
    }
    if ["f/k/a", "a/k/a", "d/b/a", "fka ", "aka ", "dba ", "formerly", "now known as", "currently known as", "also known as", "doing business as"]
        .iter()
        .any(|a| low.starts_with(a))
    {
        return true;
    }
    let w = words(t);
    if w.is_empty() || w.len() > 2 {
        return false;
    }
    if w.iter().all(|x| outer.contains(x)) {
        return true;
    }
    // An acronym of the name: the initials of its words (articles and "of" optional).
    let letters: String = w.concat();
    let initials = |skip: bool| -> String { outer.iter().filter(|x| !(skip && matches!(x.as_str(), "of" | "and" | "the" | "for"))).filter_map(|x| x.chars().next()).collect() };
    w.len() == 1 && letters.chars().count() >= 2 && t.chars().any(|c| c.is_uppercase()) && {
        let (a, b) = (initials(false), initials(true));
        let core_initials: String = identifying(outer.to_vec()).iter().filter(|x| !matches!(x.as_str(), "of" | "and" | "the" | "for")).filter_map(|x| x.chars().next()).collect();
        [a, b, core_initials].iter().any(|i| *i == letters || (i.starts_with(&letters) && letters.chars().count() >= 3))
    }
}

/// The text of each top-level parenthesis of a name, in order.
fn parentheses(name: &str) -> Vec<String> {
    let mut out = vec![];
    let mut depth = 0usize;
    let mut cur = String::new();
    for c in name.chars() {
        match c {
            '(' | '[' => {
                if depth > 0 {
                    cur.push(c);
                }
                depth += 1;
            }
            ')' | ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    out.push(std::mem::take(&mut cur));
                } else {
                    cur.push(c);
                }
            }
            _ if depth > 0 => cur.push(c),
            _ => {}
        }
    }
    out
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

/// The kind of registry identifier an attribute name or a label in text names, normalised:
/// `lei` (LEI, Legal Entity Identifier), `registration number` (company number, registered
/// number, CRN…), `tax id` (EIN, TIN, tax identification number), `vat number`, `cik`, `crd`;
/// "" for anything else. Only identifiers issued to one legal entity (or one person, for a
/// CRD) count: two records stating the same one name one entity whatever their names say,
/// so an account number or an address, which several parties may share, is not one.
pub fn identifier_kind(label: &str) -> &'static str {
    let lower = label.to_lowercase();
    let mut words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    // "CRD No.", "company number", "LEI code": the suffix says "identifier"; some words only
    // name one with it ("company" alone is a name column, "company number" an identifier).
    let suffixed = words.last().is_some_and(|w| matches!(*w, "no" | "number" | "nr" | "code" | "num"));
    if suffixed && words.len() > 1 {
        words.pop();
    }
    let key = words.join(" ");
    match key.as_str() {
        "lei" | "legal entity identifier" => "lei",
        "crn" | "company registration" => "registration number",
        "company" | "registration" | "registered" | "reg" | "incorporation" | "business registration" | "commercial register" | "registry" | "companies house" if suffixed => {
            "registration number"
        }
        "ein" | "fein" | "tin" | "tax id" | "employer identification" | "taxpayer identification" | "tax identification" => "tax id",
        "tax" | "employer id" if suffixed => "tax id",
        "vat" | "vat id" | "vat registration" => "vat number",
        "cik" | "central index key" => "cik",
        "crd" => "crd",
        _ => "",
    }
}

/// An identifier's value as compared: letters upper-cased, spaces and punctuation dropped
/// ("12-3456789" = "123456789", "gb 123 4567 89" = "GB123456789").
pub fn identifier_value(value: &str) -> String {
    value.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_uppercase).collect()
}

/// The legal form a name ends with, normalised: the trailing run of legal-form words
/// ("Rio Tinto plc" → "plc", "Acme Limited" → "ltd", "Samsung Electronics Co., Ltd." →
/// "ltd", "Lewis Oil Company" → "co"), sorted and joined by spaces; empty when the name
/// states none. Different legal forms are different legal entities ("Rio Tinto plc" and
/// "Rio Tinto Limited"), so the rules compare these as an attribute of the name. Spellings
/// of one form are one form (Limited = Ltd, Corporation = Corp, Incorporated = Inc,
/// Company = Co); "Co., Ltd." is the limited company itself.
pub fn legal_form(name: &str) -> String {
    let w = words(name);
    let mut forms: Vec<&str> = vec![];
    for x in w.iter().rev() {
        if !is_empty_word(x) {
            break;
        }
        forms.push(match x.as_str() {
            "limited" => "ltd",
            "corporation" => "corp",
            "incorporated" => "inc",
            "company" => "co",
            other => other,
        });
    }
    // A name made only of legal-form words ("The Company") states no form: it is a term.
    if forms.len() == w.len() {
        return String::new();
    }
    forms.retain(|f| *f != "the");
    if forms.contains(&"ltd") {
        forms.retain(|f| *f != "co" && *f != "corp");
    }
    forms.sort_unstable();
    forms.dedup();
    forms.join(" ")
}

/// Abbreviations of organisation words and their full (singular) form, sorted by
/// abbreviation: "Res. Ctr." is "Research Center", "Univ." "University", "Labs"
/// "Laboratory", "Intl" "International".
const ORG_ABBREVIATIONS: &[(&str, &str)] = &[
    ("acad", "academy"),
    ("assn", "association"),
    ("assoc", "association"),
    ("bro", "brother"),
    ("bros", "brother"),
    ("centre", "center"),
    ("cntr", "center"),
    ("coll", "college"),
    ("comp", "computer"),
    ("comput", "computer"),
    ("ctr", "center"),
    ("dep", "department"),
    ("dept", "department"),
    ("dev", "development"),
    ("div", "division"),
    ("elec", "electrical"),
    ("eng", "engineering"),
    ("engg", "engineering"),
    ("engr", "engineering"),
    ("fac", "faculty"),
    ("grp", "group"),
    ("hldg", "holding"),
    ("hosp", "hospital"),
    ("inf", "information"),
    ("info", "information"),
    ("inst", "institute"),
    ("instit", "institute"),
    ("int", "international"),
    ("intern", "international"),
    ("intl", "international"),
    ("lab", "laboratory"),
    ("labo", "laboratory"),
    ("laboratorie", "laboratory"),
    ("labs", "laboratory"),
    ("math", "mathematic"),
    ("med", "medical"),
    ("mfg", "manufacturing"),
    ("mgmt", "management"),
    ("mgt", "management"),
    ("natl", "national"),
    ("phy", "physic"),
    ("phys", "physic"),
    ("polytech", "polytechnic"),
    ("res", "research"),
    ("rsch", "research"),
    ("sci", "science"),
    ("soc", "society"),
    ("svc", "service"),
    ("sys", "system"),
    ("syst", "system"),
    ("tech", "technology"),
    ("technol", "technology"),
    ("telecom", "telecommunication"),
    ("univ", "university"),
    ("univeristy", "university"),
    ("universidad", "university"),
    ("universita", "university"),
    ("universitat", "university"),
    ("universite", "university"),
    ("universiteit", "university"),
];

/// Words that carry no identity in an organisation's name: articles and prepositions in
/// a few languages ("University of Maryland" = "Maryland University" word for word).
const ORG_STOPWORDS: &[&str] = &["and", "at", "da", "de", "del", "della", "der", "des", "di", "du", "et", "for", "in", "la", "le", "of", "on", "the", "und"];

/// Words that open a department or other sub-unit of an organisation ("Dept. of Computer
/// Science", "School of Engineering", "Division of …").
const DEPARTMENT_WORDS: &[&str] = &["chair", "department", "division", "faculty", "group", "program", "programme", "section", "unit"];

/// Words that make a segment of an affiliation string the organisation itself.
const ORG_HEADS: &[&str] = &[
    "academy",
    "agency",
    "association",
    "authority",
    "bank",
    "center",
    "clinic",
    "college",
    "company",
    "corporation",
    "council",
    "foundation",
    "fund",
    "holding",
    "hospital",
    "institute",
    "institution",
    "laboratory",
    "ministry",
    "museum",
    "observatory",
    "organisation",
    "organization",
    "polytechnic",
    "research",
    "school",
    "society",
    "system",
    "technology",
    "trust",
    "university",
];

/// Words of a street address, which is not the place an affiliation is told apart by.
const ADDRESS_WORDS: &[&str] = &["avenue", "ave", "blvd", "boulevard", "box", "building", "drive", "floor", "hall", "lane", "po", "road", "room", "street", "suite", "way"];

/// Place names written in several ways: US states, and countries by their usual codes.
const PLACE_ABBREVIATIONS: &[(&str, &str)] = &[
    ("az", "arizona"),
    ("ca", "california"),
    ("calif", "california"),
    ("ct", "connecticut"),
    ("deutschland", "germany"),
    ("england", "uk"),
    ("fl", "florida"),
    ("ga", "georgia"),
    ("il", "illinois"),
    ("ma", "massachusetts"),
    ("mass", "massachusetts"),
    ("md", "maryland"),
    ("mi", "michigan"),
    ("mn", "minnesota"),
    ("nj", "new jersey"),
    ("nl", "netherlands"),
    ("ny", "new york"),
    ("nyc", "new york"),
    ("oh", "ohio"),
    ("pa", "pennsylvania"),
    ("tx", "texas"),
    ("uk", "uk"),
    ("us", "usa"),
    ("usa", "usa"),
    ("va", "virginia"),
    ("wa", "washington"),
];

fn stem(w: &str) -> String {
    let n = w.chars().count();
    if n > 4 && w.ends_with("ies") {
        format!("{}y", &w[..w.len() - 3])
    } else if n > 4 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w[..w.len() - 1].to_string()
    } else {
        w.to_string()
    }
}

/// An organisation word in its full, singular form ("Labs" → "laboratory", "Res" →
/// "research", "Sciences" → "science").
fn org_word(w: &str) -> String {
    if let Ok(i) = ORG_ABBREVIATIONS.binary_search_by(|(a, _)| (*a).cmp(w)) {
        return ORG_ABBREVIATIONS[i].1.to_string();
    }
    let s = stem(w);
    match ORG_ABBREVIATIONS.binary_search_by(|(a, _)| (*a).cmp(s.as_str())) {
        Ok(i) => ORG_ABBREVIATIONS[i].1.to_string(),
        Err(_) => s,
    }
}

/// The segments of an organisation string, split at commas, semicolons, " - " and " at "
/// ("Dept. of CS, Univ. of Maryland at College Park, MD 20742, USA"), each as its words
/// (parenthesised parts left out); a segment of legal forms only joins the one before it
/// ("Amazon.com, Inc.").
fn org_segments(name: &str) -> Vec<Vec<String>> {
    let mut raw: Vec<String> = vec![];
    let mut cur = String::new();
    let mut depth = 0usize;
    for c in name.chars() {
        match c {
            '(' | '[' => {
                depth += 1;
                cur.push(c);
            }
            ')' | ']' => {
                depth = depth.saturating_sub(1);
                cur.push(c);
            }
            ',' | ';' | '|' if depth == 0 => raw.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    raw.push(cur);
    let mut out: Vec<Vec<String>> = vec![];
    for r in raw {
        let spaced = format!(" {r} ");
        for part in spaced.split(" - ").flat_map(|p| p.split(" at ")) {
            let w = words(part);
            if w.is_empty() {
                continue;
            }
            match out.last_mut() {
                Some(prev) if w.iter().all(|x| is_empty_word(x)) => prev.extend(w),
                _ => out.push(w),
            }
        }
    }
    out
}

/// The organisation part and the place of an organisation string: the segment that names
/// the organisation (the first with a word such as University, Institute, Laboratory,
/// Center or a legal form, else the first that is not a department), its words in full
/// singular form with legal forms and articles dropped; and the words of the segments
/// after it that name no unit (the place: "San Jose, CA" → "san jose california"),
/// numbers (postcodes) left out. Departments and other sub-units are set aside:
/// "Dept. of Computer Science, Stanford Univ., Stanford, CA" → ("stanford university",
/// "stanford california").
pub fn org_parts(name: &str) -> (String, String) {
    let segs = org_segments(name);
    // Initials written apart are one word ("T. J. Watson" = "T.J. Watson").
    let segs: Vec<Vec<String>> = segs
        .into_iter()
        .map(|s| {
            let mut out: Vec<String> = vec![];
            let mut prev_initial = false;
            for w in s {
                let initial = w.chars().count() == 1 && w.chars().all(char::is_alphabetic);
                match out.last_mut() {
                    Some(last) if initial && prev_initial => last.push_str(&w),
                    _ => out.push(w),
                }
                // The last word is made of initials only while each word joined to it was one.
                prev_initial = initial;
            }
            out
        })
        .collect();
    let full: Vec<Vec<String>> = segs.iter().map(|s| s.iter().map(|w| org_word(w)).collect()).collect();
    let is_dept = |s: &[String]| {
        s.first().is_some_and(|w| DEPARTMENT_WORDS.contains(&w.as_str()))
            || s.last().is_some_and(|w| DEPARTMENT_WORDS.contains(&w.as_str()))
            || (s.len() > 2 && s[0] == "school" && s[1] == "of")
    };
    let has_head = |s: &[String]| s.iter().any(|w| ORG_HEADS.binary_search(&w.as_str()).is_ok() || is_empty_word(w));
    let org = full.iter().position(|s| !is_dept(s) && has_head(s)).or_else(|| full.iter().position(|s| !is_dept(s))).unwrap_or(0);
    let Some(seg) = full.get(org) else { return (core(name), String::new()) };
    let kept: Vec<String> = identifying(seg.clone()).into_iter().filter(|w| !ORG_STOPWORDS.contains(&w.as_str())).collect();
    let core_out = if kept.is_empty() { core(name) } else { kept.join(" ") };
    // The place: the first segment after the organisation that is neither a unit nor an
    // address ("650 Harry Road"), e.g. the city; states and countries after it add nothing
    // a city does not say, and are often left out.
    let mut place: Vec<String> = vec![];
    for (k, s) in full.iter().enumerate().skip(org + 1) {
        if is_dept(s) || has_head(s) || segs[k].iter().any(|w| w.chars().any(|c| c.is_numeric()) && w.chars().any(|c| c.is_alphabetic()) || ADDRESS_WORDS.contains(&w.as_str())) {
            continue;
        }
        let words: Vec<String> = segs[k].iter().filter(|w| !w.chars().all(|c| c.is_numeric()) && !ORG_STOPWORDS.contains(&w.as_str())).cloned().collect();
        if words.is_empty() {
            continue;
        }
        for w in words {
            match PLACE_ABBREVIATIONS.binary_search_by(|(a, _)| (*a).cmp(w.as_str())) {
                Ok(i) => place.push(PLACE_ABBREVIATIONS[i].1.to_string()),
                Err(_) => place.push(w),
            }
        }
        break;
    }
    (core_out, place.join(" "))
}

/// [`org_parts`]' organisation part: the core an organisation is resolved by.
pub fn org_core(name: &str) -> String {
    org_parts(name).0
}

/// [`org_parts`]' place ("" when the string names none).
pub fn org_place(name: &str) -> String {
    org_parts(name).1
}

/// The `i`-th word (from 0) of a space-separated core, "" past its end.
pub fn word_at(core: &str, i: i32) -> String {
    usize::try_from(i).ok().and_then(|i| core.split(' ').filter(|w| !w.is_empty()).nth(i)).unwrap_or("").to_string()
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
    let least = |x: &[&str], y: &[&str]| x.iter().zip(y).map(|(p, q)| (strsim::jaro_winkler(p, q) * 1000.0).round() as i32).min().unwrap_or(0);
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
    let (Some(y), m, d) = (parts.first().and_then(|s| num(s, 4)), parts.get(1).map(|s| num(s, 2)), parts.get(2).map(|s| num(s, 2))) else {
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
    fn identifier_kinds() {
        for (label, kind) in [
            ("LEI", "lei"),
            ("lei_code", "lei"),
            ("Company No.", "registration number"),
            ("registration_number", "registration number"),
            ("company", ""),
            ("CRD No.", "crd"),
            ("EIN", "tax id"),
            ("Tax Identification Number", "tax id"),
            ("VAT number", "vat number"),
            ("CIK", "cik"),
            ("soc_sec_id", ""),
            ("account", ""),
            ("date_of_birth", ""),
        ] {
            assert_eq!(identifier_kind(label), kind, "{label}");
        }
        assert_eq!(identifier_value("12-3456789"), "123456789");
        assert_eq!(identifier_value("gb 123 4567 89"), "GB123456789");
    }

    #[test]
    fn suffix_list_is_sorted() {
        assert!(EMPTY_SUFFIXES.windows(2).all(|w| w[0] < w[1]));
        assert!(ORG_HEADS.windows(2).all(|w| w[0] < w[1]));
        assert!(ORG_ABBREVIATIONS.windows(2).all(|w| w[0].0 < w[1].0), "{:?}", ORG_ABBREVIATIONS.windows(2).find(|w| w[0].0 >= w[1].0));
        assert!(PLACE_ABBREVIATIONS.windows(2).all(|w| w[0].0 < w[1].0), "{:?}", PLACE_ABBREVIATIONS.windows(2).find(|w| w[0].0 >= w[1].0));
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
        assert!(values_agree("Christian S. Jensen, Richard T. Snodgrass, Giedrius Slivinskas", "Giedrius Slivinskas, Christian S. Jensen, Richard Thomas Snodgrass"));
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
    fn legal_forms() {
        assert_eq!(legal_form("Rio Tinto plc"), "plc");
        assert_eq!(legal_form("Rio Tinto Limited"), "ltd");
        assert_eq!(legal_form("Lewis Oil Corp."), "corp");
        assert_eq!(legal_form("Lewis Oil Company"), "co");
        assert_eq!(legal_form("Samsung Electronics Co., Ltd."), "ltd");
        assert_eq!(legal_form("McKinley Mortgage Co. LLC (McKinley)"), "co llc");
        assert_eq!(legal_form("Acme"), "");
        assert_eq!(legal_form("The Company"), "");
        assert_eq!(legal_form("The Coca-Cola Company"), "co");
    }

    #[test]
    fn defined_terms_are_not_discriminators() {
        assert_eq!(discriminator("McKinley Mortgage Co. LLC (McKinley)"), "");
        assert_eq!(discriminator("American Business Financial Services, Inc. (ABF)"), "");
        assert_eq!(discriminator("Acme Holdings Ltd (the Company)"), "");
        assert_eq!(discriminator("Acme Holdings Ltd (\"Acme\")"), "");
        assert_eq!(discriminator("Texas Cash Cow, LLC (f/k/a Texas Cash Cow Investments, LLC)"), "");
        assert_eq!(discriminator("Acme Ltd (UK)"), "uk");
        assert_eq!(discriminator("Acme Ltd (Delaware)"), "delaware");
    }

    #[test]
    fn organisation_parts() {
        assert_eq!(org_parts("IBM Almaden Res. Ctr."), ("ibm almaden research center".into(), String::new()));
        assert_eq!(org_parts("IBM Almaden Research Center, San Jose, CA"), ("ibm almaden research center".into(), "san jose".into()));
        assert_eq!(org_parts("IBM Almaden Research Ctr, 650 Harry Road, San Jose"), ("ibm almaden research center".into(), "san jose".into()));
        assert_eq!(org_parts("Dept. of Computer Science, Stanford Univ., Stanford, CA 94305"), ("stanford university".into(), "stanford".into()));
        assert_eq!(org_core("IBM T. J. Watson Research Ctr."), org_core("IBM T.J. Watson Research Center"));
        assert_eq!(org_core("University of California at Berkeley"), "university california");
        assert_eq!(org_place("University of California at Berkeley"), "berkeley");
        assert_eq!(org_core("AT&T Bell Labs"), "t bell laboratory");
        assert_eq!(org_core("Amazon.com, Inc."), "amazoncom");
        assert_eq!(org_core("Procter & Gamble"), org_core("Procter and Gamble Co."));
        assert_eq!(org_core("Intl. Business Machines"), org_core("International Business Machines Corp"));
        assert_eq!(word_at("a b c", 1), "b");
        assert_eq!(word_at("a b c", 3), "");
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
