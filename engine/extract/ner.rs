//! The learned name recogniser: a greedy averaged-perceptron sequence tagger that finds
//! people, organisations and places that no lexicon rule names (people without a title,
//! companies without a legal form).
//!
//! Deterministic and offline: the weights are a versioned file embedded in the binary
//! (`stdlib/models/ner.tgw`, trained by `tg-train-ner` from public annotated data; see
//! `stdlib/models/README.md`), scores are integer sums, ties go to the lowest class.
//! Only capitalised tokens (and connectors such as "of", "and", "&" between them) are
//! scored; every other token is outside any name, which keeps the tagger fast and its
//! mistakes on lowercase prose impossible.

use std::sync::LazyLock;

use tg_text::document::Span;

/// What the tagger has said of each word earlier in the document: per word hash, how often
/// it tagged it as each group (outside, PER, ORG, LOC, MISC).
#[derive(Default)]
pub struct History(hashbrown::HashMap<u64, [u16; 5]>);

impl History {
    /// The feature value for a word: 0 unseen, else 1 + the group it was tagged most often.
    pub fn of(&self, lw: u64) -> u64 {
        self.0.get(&lw).map_or(0, |c| {
            let mut b = 0;
            for g in 1..5 {
                if c[g] > c[b] {
                    b = g;
                }
            }
            1 + b as u64
        })
    }

    /// Records the tagger's class for a scored word.
    pub fn note(&mut self, lw: u64, class: usize) {
        let e = self.0.entry(lw).or_default();
        e[group(class)] = e[group(class)].saturating_add(1);
    }
}

/// The classes, in the model file's order: outside, then begin/inside per type.
pub const CLASSES: [&str; 9] = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"];
/// The number of classes.
pub const NC: usize = CLASSES.len();
/// The outside class.
pub const O: usize = 0;
/// The class of an organisation's first word.
pub const B_ORG: usize = 3;
/// The class of an organisation's later words.
pub const I_ORG: usize = 4;
/// The class of a person's first word.
const B_PER: usize = 1;
/// The class of a person's later words.
const I_PER: usize = 2;
/// The class of a place's first word.
const B_LOC: usize = 5;
/// The class of a place's later words.
const I_LOC: usize = 6;
/// The class of a MISC name's first word (titles, events, nationalities: never emitted).
const B_MISC: usize = 7;

/// The vocabulary type a class's name belongs to (`None` for outside and MISC).
pub fn class_type(c: usize) -> Option<&'static str> {
    match c {
        1 | 2 => Some("Person"),
        3 | 4 => Some("Organization"),
        5 | 6 => Some("Location"),
        _ => None,
    }
}

/// The entity group of a class (0 outside, 1 PER, 2 ORG, 3 LOC, 4 MISC).
fn group(c: usize) -> usize {
    c.div_ceil(2)
}

fn is_begin(c: usize) -> bool {
    c % 2 == 1
}

/// One token of a sentence: its byte span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Start byte.
    pub start: usize,
    /// End byte.
    pub end: usize,
}

/// Words after which a period belongs to the word ("Inc.", "Mr.", "No."), not to the sentence.
const ABBREVIATIONS: &[&str] = &[
    "Inc", "Corp", "Co", "Ltd", "Mr", "Mrs", "Ms", "Dr", "Jr", "Sr", "St", "No", "Nos", "Bros", "Ave", "vs", "v", "Messrs", "Prof", "Gen", "Sen", "Rep", "Gov", "Hon", "Mt", "Ft",
    "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "Dept", "Div", "Assn", "Intl", "Cir", "Ct", "Supp", "etc", "al", "Cal", "Fla", "Tex",
    "Mass", "Ill", "Pa", "Va", "Wash", "Mich", "Conn", "Ariz", "Colo",
];

fn is_abbreviation(w: &str) -> bool {
    static SET: LazyLock<hashbrown::HashSet<&'static str>> = LazyLock::new(|| ABBREVIATIONS.iter().copied().collect());
    SET.contains(w)
}

/// Splits `text[span]` into tokens: words (letters and digits, with inner `.'’-&/` between
/// them, and a final period when the word is an abbreviation or an initial), a possessive
/// `'s` on its own, and every other non-space character alone.
pub fn tokenize(text: &str, span: Span) -> Vec<Token> {
    // About one token in five bytes of prose: one allocation for most sentences.
    let mut out = Vec::with_capacity(span.1.saturating_sub(span.0) / 5 + 4);
    let end = span.1.min(text.len());
    let mut i = span.0;
    let bytes = text.as_bytes();
    // The character at byte `i` (a character boundary): an ASCII byte as it is, without
    // slicing and decoding the rest of the text.
    let char_at = |i: usize| match bytes.get(i) {
        Some(&b) if b.is_ascii() => Some(b as char),
        Some(_) => text[i..].chars().next(),
        None => None,
    };
    while i < end {
        let Some(c) = char_at(i) else { break };
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let start = i;
        if !c.is_alphanumeric() {
            // A possessive `'s` / `’s` standing alone.
            let n = c.len_utf8();
            if (c == '\'' || c == '’') && text[i + n..end].starts_with(['s', 'S']) && char_at(i + n + 1).is_none_or(|d| !d.is_alphanumeric()) && i + n < end {
                out.push(Token { start, end: i + n + 1 });
                i += n + 1;
                continue;
            }
            out.push(Token { start, end: i + n });
            i += n;
            continue;
        }
        i += c.len_utf8();
        let mut has_dot = false;
        while i < end {
            let Some(d) = char_at(i) else { break };
            if d.is_alphanumeric() {
                i += d.len_utf8();
                continue;
            }
            if matches!(d, '.' | '\'' | '’' | '-' | '&' | '/') {
                let n = d.len_utf8();
                let next = if i + n < end { char_at(i + n) } else { None };
                // A possessive ends the word: "Acme's".
                if matches!(d, '\'' | '’') && next.is_some_and(|x| x == 's' || x == 'S') && (i + n + 1 >= end || char_at(i + n + 1).is_none_or(|x| !x.is_alphanumeric())) {
                    break;
                }
                if next.is_some_and(char::is_alphanumeric) {
                    has_dot |= d == '.';
                    i += n + next.map_or(0, char::len_utf8);
                    continue;
                }
            }
            break;
        }
        // A final period: an initial ("R."), a dotted abbreviation ("U.S."), a listed one.
        if i < end && bytes[i] == b'.' {
            let w = &text[start..i];
            let initial = w.chars().count() == 1 && w.chars().all(char::is_uppercase);
            if initial || has_dot || is_abbreviation(w) {
                i += 1;
            }
        }
        out.push(Token { start, end: i });
    }
    out
}

/// FNV-1a over the lower-cased bytes of a word.
fn lower_hash(w: &str) -> u64 {
    lower_hash_from(0xcbf2_9ce4_8422_2325, w)
}

/// The lower-case hashes of `words`: a set of words a rule looks a token's word up in.
fn word_set(words: &[&str]) -> hashbrown::HashSet<u64> {
    words.iter().map(|w| lower_hash(w)).collect()
}

/// FNV-1a continued from state `h` over the lower-cased bytes of `w` (a phrase's hash is
/// its words' fed one after another with a space between).
fn lower_hash_from(mut h: u64, w: &str) -> u64 {
    let mut eat = |b: u8| {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    for c in w.chars() {
        if c.is_ascii() {
            eat(c.to_ascii_lowercase() as u8);
        } else {
            let mut buf = [0u8; 4];
            for l in c.to_lowercase() {
                for b in l.encode_utf8(&mut buf).bytes() {
                    eat(b);
                }
            }
        }
    }
    h
}

/// The word's shape: capitals `X`, lower case `x`, digits `d`, other characters as they
/// are, each run written once ("McAlister" → "XxXx", "U.S." → "X.X.", "III" → "X").
fn shape_hash(w: &str) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut last = '\0';
    let mut n = 0;
    for c in w.chars() {
        let k = if c.is_uppercase() {
            'X'
        } else if c.is_lowercase() {
            'x'
        } else if c.is_numeric() {
            'd'
        } else {
            c
        };
        if k != last {
            last = k;
            n += 1;
            if n > 8 {
                break;
            }
            h = (h ^ k as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// The hash of a word's last (or first) three characters, lower-cased.
fn affix_hash(w: &str, suffix: bool) -> u64 {
    let n = w.chars().count();
    let s = if suffix { w.char_indices().nth(n.saturating_sub(3)).map_or(w, |(i, _)| &w[i..]) } else { w.char_indices().nth(3).map_or(w, |(i, _)| &w[..i]) };
    lower_hash(s) ^ if suffix { 0x5555 } else { 0xaaaa }
}

fn mix(t: u64, a: u64, b: u64) -> u64 {
    let mut h = t.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ a;
    h = h.rotate_left(29).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ b;
    h ^= h >> 31;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 29)
}

/// Legal-form words: a name that reaches one is an organisation's.
const LEGAL_FORMS: &[&str] = &[
    "inc",
    "inc.",
    "incorporated",
    "corp",
    "corp.",
    "corporation",
    "co",
    "co.",
    "company",
    "ltd",
    "ltd.",
    "limited",
    "llc",
    "l.l.c.",
    "llp",
    "lp",
    "l.p.",
    "plc",
    "gmbh",
    "ag",
    "sa",
    "s.a.",
    "n.a.",
    "nv",
    "n.v.",
    "bv",
    "b.v.",
    "pty",
    "spa",
    "s.p.a.",
    "sarl",
    "holdings",
    "group",
    "bank",
    "trust",
    "fund",
    "partners",
    "associates",
    "capital",
    "securities",
    "bancorp",
    "foundation",
    "university",
    "commission",
    "agency",
    "department",
    "association",
    "institute",
];

/// Words that companies' names often end in or contain, besides legal forms.
const ORG_WORDS: &[&str] = &[
    "technologies",
    "technology",
    "systems",
    "software",
    "solutions",
    "services",
    "industries",
    "international",
    "enterprises",
    "pharmaceuticals",
    "pharma",
    "energy",
    "oil",
    "gas",
    "resources",
    "mining",
    "minerals",
    "financial",
    "investments",
    "investment",
    "management",
    "advisors",
    "advisers",
    "consulting",
    "semiconductor",
    "communications",
    "networks",
    "media",
    "entertainment",
    "airlines",
    "motors",
    "labs",
    "laboratories",
    "brands",
    "foods",
    "markets",
    "mortgage",
    "insurance",
    "realty",
    "properties",
    "development",
    "equity",
    "ventures",
    "global",
    "trading",
    "research",
    "exchange",
    "bancshares",
    "savings",
    "federal",
    "credit",
    "union",
    "council",
    "committee",
    "office",
    "court",
    "church",
    "party",
    "club",
    "team",
    "records",
    "press",
    "news",
    // Institutions: bodies of state, learning, faith, sport and music.
    "ministry",
    "bureau",
    "authority",
    "college",
    "school",
    "academy",
    "society",
    "federation",
    "league",
    "army",
    "navy",
    "government",
    "parliament",
    "assembly",
    "congress",
    "senate",
    "board",
    "hospital",
    "museum",
    "orchestra",
    "studios",
    "pictures",
    "publishing",
    "publishers",
    "airways",
    "railway",
    "railways",
    "corps",
    "police",
    "service",
    "survey",
    "organization",
    "organisation",
    "alliance",
    "coalition",
    "movement",
    "front",
    "tribunal",
    "conference",
    "band",
    "choir",
    "fc",
];

/// Words that join the parts of one name ("Bank of America", "Boston Trading and Research").
const CONNECTORS: &[&str] = &[
    "of", "and", "&", "the", "de", "da", "du", "des", "del", "della", "di", "la", "le", "van", "von", "der", "den", "y", "for", "bin", "ibn", "al", "dos", "do", "e", "on", "in",
    "at", "upon",
];

/// Titles and honorifics that stand before a person's name.
const TITLES: &[&str] = &["mr", "mr.", "mrs", "mrs.", "ms", "ms.", "dr", "dr.", "prof", "prof.", "sir", "judge", "justice", "hon.", "honorable", "messrs."];

/// The word lists, each a bit of [`LISTS`]:
/// given names and surnames (US Census 1990, public domain) and places (GeoNames countries,
/// US states and cities of 15,000+, CC BY 4.0): `stdlib/models/gazetteer/`, made by
/// `scripts/make_gazetteers.py`;
const IN_GIVEN: u8 = 1;
const IN_SURNAMES: u8 = 2;
const IN_PLACES: u8 = 4;
/// words the training text writes in lower case at least twice (made by `tg-train-ner`
/// with the model): alone and capitalised, such a word is an opener or a heading, not a name;
const IN_COMMON: u8 = 8;
/// lower-case English words (SCOWL, Debian's `wamerican`): one of them alone and
/// capitalised is a defined term or a heading word ("Borrower", "Default"), not a name,
/// unless a name gazetteer lists it.
const IN_ENGLISH: u8 = 16;
/// listed companies (the major stock indices, PyPI `pytickersymbols`, MIT), their names
/// without legal forms ("Morgan Stanley", "Toyota").
const IN_COMPANIES: u8 = 32;
/// listed companies named by one English word ("Apple", "Intel", "Oracle"): no feature of
/// the tagger's, but such a word the tagger reads as an organisation is one, unless the
/// training text or the document writes it in lower case ("shell companies": "Shell" of
/// a heading is no company there) (`company-words.txt`).
const IN_COMPANY_WORDS: u8 = 64;

/// Every word list in one table, by lower-case hash of the word or phrase (a place's words
/// hashed with a space between): the lists a token is in cost one lookup — one cache
/// line of one table, not one of each list's. The low 8 bits of a value are the lists'
/// bits, the others the word's clusters ([`cluster_levels`]).
static LISTS: LazyLock<hashbrown::HashMap<u64, u32>> = LazyLock::new(|| {
    let mut m = hashbrown::HashMap::new();
    for (text, bit) in [
        (include_str!("../../stdlib/models/gazetteer/given-names.txt"), IN_GIVEN),
        (include_str!("../../stdlib/models/gazetteer/surnames.txt"), IN_SURNAMES),
        (include_str!("../../stdlib/models/gazetteer/places.txt"), IN_PLACES),
        (include_str!("../../stdlib/models/gazetteer/common-words.txt"), IN_COMMON),
        (include_str!("../../stdlib/models/gazetteer/english-words.txt"), IN_ENGLISH),
        (include_str!("../../stdlib/models/gazetteer/companies.txt"), IN_COMPANIES),
        (include_str!("../../stdlib/models/gazetteer/company-words.txt"), IN_COMPANY_WORDS),
    ] {
        for l in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            *m.entry(lower_hash(l)).or_insert(0) |= u32::from(bit);
        }
    }
    // Word clusters: `word<TAB>fine<TAB>middle<TAB>coarse` (k-means clusters of 1,024, 128
    // and 16 of GloVe vectors, made by `tg-make-clusters`), stored as `1 | fine << 1 |
    // middle << 11 | coarse << 18` above the lists' bits; a word without a vector has 0.
    for l in CLUSTERS_TEXT.lines() {
        let mut f = l.split('\t');
        let w = f.next().unwrap_or("");
        let mut n = || f.next().and_then(|x| x.parse::<u32>().ok()).unwrap_or(0);
        let (fine, middle, coarse) = (n() & 1023, n() & 127, n() & 15);
        *m.entry(lower_hash(w)).or_insert(0) |= (1 | fine << 1 | middle << 11 | coarse << 18) << 8;
    }
    m
});

/// The word clusters the features read (`gazetteer/clusters.txt`); the model file records
/// their hash, as a model is trained for one set of clusters.
pub const CLUSTERS_TEXT: &str = include_str!("../../stdlib/models/gazetteer/clusters.txt");

/// The lists' bits and clusters of the word or phrase of hash `h` ([`LISTS`]).
fn entry(h: u64) -> u32 {
    LISTS.get(&h).copied().unwrap_or(0)
}

/// The lists ([`LISTS`]) the word or phrase of hash `h` is in.
fn lists(h: u64) -> u8 {
    entry(h) as u8
}

/// The fine, middle and coarse cluster of a word ([`Info::cl`]), each 0 for none and
/// 1 + the cluster otherwise.
fn cluster_levels(c: u32) -> (u64, u64, u64) {
    if c == 0 {
        return (0, 0, 0);
    }
    (1 + u64::from((c >> 1) & 1023), 1 + u64::from((c >> 11) & 127), 1 + u64::from((c >> 18) & 15))
}

/// Gazetteer flags of a token: bit 0 a given name, 1 a surname, 2 begins a place name,
/// 3 continues one, 5 begins a listed company's name, 6 continues one (bit 4 is free: the
/// features write 16 for "no token").
const GIVEN_BIT: u8 = 1;
const SURNAME_BIT: u8 = 2;
const PLACE_BEGIN: u8 = 4;
const PLACE_INSIDE: u8 = 8;
const COMPANY_BEGIN: u8 = 32;
const COMPANY_INSIDE: u8 = 64;

/// What the tagger knows of one token before it scores anything.
#[derive(Clone, Copy, Debug)]
struct Info {
    lw: u64,
    shape: u64,
    suf: u64,
    suf4: u64,
    pre: u64,
    /// Starts with a capital, or has one after a lower-case start ("iTunes").
    cap: bool,
    lower_start: bool,
    connector: bool,
    comma: bool,
    legal: bool,
    title: bool,
    /// A word companies' names often contain ([`ORG_WORDS`]).
    orgword: bool,
    /// A legal form that ends a name ([`FINAL_FORMS`]).
    final_form: bool,
    /// All capitals, two letters or more.
    upper: bool,
    len: u8,
    gaz: u8,
    /// Bit 0: the document writes this word in lower case; bit 1: it capitalises it
    /// inside a sentence.
    doc: u8,
    /// The word lists ([`LISTS`]) a capitalised token's word is in (0 for other tokens:
    /// [`Info::lists`] looks theirs up when asked).
    in_lists: u8,
    /// How many tokens on the capitalised run this token begins or continues goes
    /// ([`run_heads`]; its head is that many tokens on).
    to_head: u32,
    /// The word's clusters ([`LISTS`]; 0 for none, and for a token no scored token reads:
    /// [`mark_clusters`]).
    cl: u32,
}

const BOS: u64 = 0x1111_2222_3333_4444;
const EOS: u64 = 0x5555_6666_7777_8888;

const LEX_CONNECTOR: u8 = 1;
const LEX_LEGAL: u8 = 2;
const LEX_TITLE: u8 = 4;
const LEX_ORGWORD: u8 = 8;
const LEX_FINAL: u8 = 16;

/// Legal forms after which a name does not go on ("Acme Ltd." ends at "Ltd.").
const FINAL_FORMS: &[&str] =
    &["inc", "inc.", "corp", "corp.", "ltd", "ltd.", "llc", "l.l.c.", "llp", "lp", "l.p.", "plc", "gmbh", "ag", "sa", "s.a.", "n.a.", "nv", "n.v.", "bv", "b.v.", "s.p.a.", "sarl"];

/// Connectors, legal forms and titles in one table: one lookup a token.
static LEX: LazyLock<hashbrown::HashMap<u64, u8>> = LazyLock::new(|| {
    let mut m = hashbrown::HashMap::new();
    for (words, bit) in [(CONNECTORS, LEX_CONNECTOR), (LEGAL_FORMS, LEX_LEGAL), (TITLES, LEX_TITLE), (ORG_WORDS, LEX_ORGWORD), (FINAL_FORMS, LEX_FINAL)] {
        for w in words {
            *m.entry(lower_hash(w)).or_insert(0) |= bit;
        }
    }
    m
});

/// What [`info`] reads of a word's letters: its lower-case hash, its shape's hash,
/// whether it is capitalised ([`Info::cap`]), starts in lower case, and is written in
/// capitals ([`Info::upper`]). One pass over the bytes for an ASCII word (most words);
/// the general definitions otherwise (the two give the same values on ASCII, checked by
/// a test).
fn letters(w: &str) -> (u64, u64, bool, bool, bool) {
    if !w.is_ascii() {
        return letters_general(w);
    }
    let b = w.as_bytes();
    let mut lw = 0xcbf2_9ce4_8422_2325u64;
    let mut shape: u64 = 0x9e37_79b9_7f4a_7c15;
    let (mut last, mut runs, mut alpha, mut any_lower, mut upper_after) = (0u8, 0, 0usize, false, false);
    for (i, &c) in b.iter().enumerate() {
        lw ^= c.to_ascii_lowercase() as u64;
        lw = lw.wrapping_mul(0x0000_0100_0000_01b3);
        let k = if c.is_ascii_uppercase() {
            upper_after |= i > 0;
            b'X'
        } else if c.is_ascii_lowercase() {
            any_lower = true;
            b'x'
        } else if c.is_ascii_digit() {
            b'd'
        } else {
            c
        };
        alpha += usize::from(c.is_ascii_alphabetic());
        // As `shape_hash`: runs after the eighth are not hashed; the first run starts from `\0`.
        if k != last && runs < 8 {
            last = k;
            runs += 1;
            shape = (shape ^ k as u64).wrapping_mul(0x0000_0100_0000_01b3);
        } else if k != last {
            runs += 1;
        }
    }
    let first = b.first().copied().unwrap_or(b' ');
    let cap = first.is_ascii_uppercase() || (first.is_ascii_lowercase() && upper_after);
    (lw, shape, cap, first.is_ascii_lowercase(), alpha >= 2 && !any_lower)
}

/// [`letters`] by the general (Unicode) definitions.
fn letters_general(w: &str) -> (u64, u64, bool, bool, bool) {
    let first = w.chars().next().unwrap_or(' ');
    let cap = first.is_uppercase() || (first.is_lowercase() && w.chars().skip(1).any(char::is_uppercase));
    let upper = w.chars().filter(|c| c.is_alphabetic()).count() >= 2 && !w.chars().any(char::is_lowercase);
    (lower_hash(w), shape_hash(w), cap, first.is_lowercase(), upper)
}

/// A word's suffix hashes (three and four characters), prefix hash (three) and length in
/// characters up to 6. Slices of the bytes for an ASCII word; the general definitions
/// otherwise (the two agree on ASCII, checked by a test).
fn affixes(w: &str) -> (u64, u64, u64, u8) {
    if !w.is_ascii() {
        return affixes_general(w);
    }
    let n = w.len();
    (lower_hash(&w[n.saturating_sub(3)..]) ^ 0x5555, lower_hash(&w[n.saturating_sub(4)..]) ^ 0x4444, lower_hash(&w[..n.min(3)]) ^ 0xaaaa, n.min(6) as u8)
}

/// [`affixes`] by characters.
fn affixes_general(w: &str) -> (u64, u64, u64, u8) {
    let n = w.chars().count();
    let suf4 = lower_hash(w.char_indices().nth(n.saturating_sub(4)).map_or(w, |(i, _)| &w[i..])) ^ 0x4444;
    (affix_hash(w, true), suf4, affix_hash(w, false), n.min(6) as u8)
}

impl Info {
    /// The word lists ([`LISTS`]) the token's word is in.
    fn lists(&self) -> u8 {
        if self.cap { self.in_lists } else { lists(self.lw) }
    }

    /// Whether the word belongs to a company's name: an organisation's word, a legal form,
    /// or a word of a listed company's name.
    fn company_word(&self) -> bool {
        self.orgword || self.legal || self.gaz & (COMPANY_BEGIN | COMPANY_INSIDE) != 0
    }

    /// Whether the word belongs to a place's name: a word of a listed place's name, or a
    /// kind of place ([`PLACE_HEADS`]: "Sea", "Street").
    fn place_word(&self) -> bool {
        self.gaz & (PLACE_BEGIN | PLACE_INSIDE) != 0 || PLACE_HEADS.contains(&self.lw)
    }
}

fn info(w: &str) -> Info {
    let (lw, shape, cap, lower_start, upper) = letters(w);
    let lex = LEX.get(&lw).copied().unwrap_or(0);
    let mut x = Info {
        lw,
        shape,
        suf: 0,
        suf4: 0,
        pre: 0,
        cap,
        lower_start,
        connector: lex & LEX_CONNECTOR != 0,
        comma: w == ",",
        legal: lex & LEX_LEGAL != 0,
        title: lex & LEX_TITLE != 0,
        orgword: lex & LEX_ORGWORD != 0,
        final_form: lex & LEX_FINAL != 0,
        upper,
        len: 0,
        doc: 0,
        gaz: 0,
        in_lists: 0,
        to_head: 0,
        cl: 0,
    };
    // What only a token that may be scored reads of itself.
    if cap || x.connector || x.comma {
        (x.suf, x.suf4, x.pre, x.len) = affixes(w);
    }
    if cap {
        let v = entry(lw);
        x.cl = v >> 8;
        x.in_lists = v as u8;
        x.gaz = (u8::from(x.in_lists & IN_GIVEN != 0) * GIVEN_BIT) | (u8::from(x.in_lists & IN_SURNAMES != 0) * SURNAME_BIT);
    }
    x
}

/// What the tagger knows of the whole document: the words it uses in lower case (a
/// capitalised "Following" is then a sentence opener, not a name) and the words it
/// capitalises inside sentences (a capitalised opener that recurs so is a name).
#[derive(Default)]
pub struct Context {
    lower: hashbrown::HashSet<u64>,
    inner_caps: hashbrown::HashSet<u64>,
}

impl Context {
    /// Reads the document's sentences.
    pub fn new(text: &str, sentences: &[Span]) -> Context {
        let prepared: Vec<Prepared> = sentences.iter().map(|&sp| prepare_bare(text, sp)).collect();
        Context::of(&prepared)
    }

    fn of(prepared: &[Prepared]) -> Context {
        let mut c = Context::default();
        for p in prepared {
            for (i, x) in p.info.iter().enumerate() {
                if x.lower_start {
                    c.lower.insert(x.lw);
                } else if x.cap && i > 0 {
                    c.inner_caps.insert(x.lw);
                }
            }
        }
        c
    }
}

/// Every sentence of a document prepared for tagging, each knowing the whole document.
pub fn prepare_document(text: &str, sentences: &[Span]) -> Vec<Prepared> {
    let mut prepared: Vec<Prepared> = sentences.iter().map(|&sp| prepare_bare(text, sp)).collect();
    let ctx = Context::of(&prepared);
    for p in &mut prepared {
        p.set_context(&ctx);
    }
    prepared
}

/// A sentence prepared for tagging: its tokens and what is known of each.
pub struct Prepared {
    /// The tokens.
    pub tokens: Vec<Token>,
    info: Vec<Info>,
    /// The token ranges that are quoted titles in title case ([`quoted_titles`]).
    titles: Vec<(usize, usize)>,
}

/// Tokenizes a sentence and computes what the features read, the sentence its own context.
pub fn prepare(text: &str, span: Span) -> Prepared {
    prepare_in(text, span, &Context::new(text, &[span]))
}

/// Tokenizes a sentence of a document and computes what the features read.
pub fn prepare_in(text: &str, span: Span, ctx: &Context) -> Prepared {
    let mut p = prepare_bare(text, span);
    p.set_context(ctx);
    p
}

/// Tokenizes a sentence and computes what the features read of it alone.
fn prepare_bare(text: &str, span: Span) -> Prepared {
    let tokens = tokenize(text, span);
    let mut info: Vec<Info> = tokens.iter().map(|t| info(&text[t.start..t.end])).collect();
    let phrases = phrase_lists(text, &tokens, &info);
    mark_gazetteer_names(&phrases, &mut info, IN_PLACES, PLACE_BEGIN, PLACE_INSIDE);
    mark_gazetteer_names(&phrases, &mut info, IN_COMPANIES, COMPANY_BEGIN, COMPANY_INSIDE);
    run_heads(&mut info);
    mark_clusters(&mut info);
    let titles = quoted_titles(text, &tokens);
    Prepared { tokens, info, titles }
}

/// The token ranges of a sentence that are titles in title case between quotation marks,
/// as a citation writes them (`Treasury, “Treasury Targets Venezuela Currency Exchange
/// Network …” (Mar. 19, 2019)`): at least three words of four letters or more inside, seven
/// in ten of them capitalised. The tagger learned names from prose, where a capital marks
/// a name; in such a title every word has one, and it read runs of headline words as names
/// ("Treasury Targets Venezuela", "Adeyemo Announces New", "MSB Principals"). It tags there
/// only words in capitals ("FATF", "U.S.") and places the gazetteer lists ("Russia", "South
/// Sudan") ([`Model::tag`]); the rule finders, and the names the document names elsewhere,
/// found again, still read a title. A quotation in sentence case (a statement, a defined
/// term) is no title.
fn quoted_titles(text: &str, tokens: &[Token]) -> Vec<(usize, usize)> {
    let mut out = vec![];
    // (Most sentences quote nothing: a search for the quotation marks says so.)
    let sentence = &text[tokens.first().map_or(0, |t| t.start)..tokens.last().map_or(0, |t| t.end)];
    if !sentence.contains('"') && !sentence.contains('“') {
        return out;
    }
    let mut open: Option<usize> = None;
    for (i, t) in tokens.iter().enumerate() {
        let w = &text[t.start..t.end];
        match (w, open) {
            ("“" | "\"", None) => open = Some(i),
            ("”" | "\"", Some(o)) => {
                open = None;
                let (mut words, mut capitalised) = (0, 0);
                for w in tokens[o + 1..i].iter().map(|t| &text[t.start..t.end]).filter(|w| w.len() >= 4 && w.starts_with(char::is_alphabetic)) {
                    words += 1;
                    capitalised += usize::from(w.starts_with(char::is_uppercase));
                }
                if words >= 3 && capitalised * 10 >= words * 7 {
                    out.push((o + 1, i));
                }
            }
            ("“", Some(_)) => open = Some(i),
            _ => {}
        }
    }
    out
}

/// Looks up the clusters of the words either side of a token that may be scored (a
/// capitalised word, a connector before one, a comma before a legal form), which its
/// features read; a capitalised word's own are known ([`info`]).
fn mark_clusters(info: &mut [Info]) {
    let n = info.len();
    for k in 0..n {
        let x = &info[k];
        let scorable =
            x.cap || (x.connector && (info.get(k + 1).is_some_and(|y| y.cap) || info.get(k + 2).is_some_and(|y| y.cap))) || (x.comma && info.get(k + 1).is_some_and(|y| y.legal));
        if !scorable {
            continue;
        }
        for j in [k.wrapping_sub(1), k, k + 1] {
            if let Some(y) = info.get_mut(j)
                && !y.cap
                && y.cl == 0
            {
                y.cl = entry(y.lw) >> 8;
            }
        }
    }
}

/// Sets each token's distance to the head of its capitalised run: the run goes on over a
/// capitalised word, or a connector before one ("Bank of America"), and its head is its
/// last word. One pass from the right: a run's head is the head of where it goes next.
fn run_heads(info: &mut [Info]) {
    let n = info.len();
    for r in (0..n).rev() {
        let next = if r + 1 < n && info[r + 1].cap {
            Some(r + 1)
        } else if r + 2 < n && info[r + 1].connector && info[r + 2].cap {
            Some(r + 2)
        } else {
            None
        };
        info[r].to_head = next.map_or(0, |s| info[s].to_head + (s - r) as u32);
    }
}

/// The lists ([`LISTS`]) each phrase of one to four words from a capitalised token is in:
/// `out[i][k]` for the words `i..=i + k`, which are capitalised words and connectors and end
/// in a capitalised word (0 otherwise, and for tokens that are not capitalised). One lookup
/// a phrase, read by both gazetteer passes.
fn phrase_lists(text: &str, tokens: &[Token], info: &[Info]) -> Vec<[u8; 4]> {
    let mut out = vec![[0u8; 4]; tokens.len()];
    for i in 0..tokens.len() {
        if !info[i].cap {
            continue;
        }
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for k in 0..4.min(tokens.len() - i) {
            let t = tokens[i + k];
            if k > 0 {
                h = lower_hash_from(h, " ");
            }
            h = lower_hash_from(h, &text[t.start..t.end]);
            if !(info[i + k].cap || info[i + k].connector) {
                break;
            }
            // (A one-word name's hash is the word's: its lists are known.)
            if info[i + k].cap {
                out[i][k] = if k == 0 { info[i].in_lists } else { lists(h) };
            }
        }
    }
    out
}

/// Marks the names of up to four words a word list ([`LISTS`] bit `list`) holds, longest
/// first from each capitalised token ([`phrase_lists`]): `begin` on the first word,
/// `inside` on the others.
fn mark_gazetteer_names(phrases: &[[u8; 4]], info: &mut [Info], list: u8, begin: u8, inside: u8) {
    let mut i = 0;
    while i < info.len() {
        let found = phrases[i].iter().rposition(|&l| l & list != 0).map_or(0, |k| k + 1);
        if found > 0 {
            info[i].gaz |= begin;
            for x in &mut info[i + 1..i + found] {
                x.gaz |= inside;
            }
            i += found;
        } else {
            i += 1;
        }
    }
}

impl Prepared {
    fn set_context(&mut self, ctx: &Context) {
        for x in self.info.iter_mut().filter(|x| x.cap) {
            x.doc = u8::from(ctx.lower.contains(&x.lw)) | u8::from(ctx.inner_caps.contains(&x.lw)) << 1;
        }
    }

    /// The lower-case hash of token `i`'s word.
    pub fn word_hash(&self, i: usize) -> u64 {
        self.info[i].lw
    }

    /// Whether half or more of the sentence's words are written in capitals.
    pub fn is_heading(&self) -> bool {
        let words = self.info.iter().filter(|x| x.cap || x.lower_start).count();
        let upper = self.info.iter().filter(|x| x.upper).count();
        words >= 2 && upper * 2 >= words
    }

    /// Whether any token is capitalised (a sentence without one has no names).
    pub fn any_capital(&self) -> bool {
        self.info.iter().any(|x| x.cap)
    }

    /// Whether token `i` may be scored at all given the previous token's class: capitalised
    /// words always; connectors and a comma before a legal form only inside a name with a
    /// capitalised word (or legal form) shortly after.
    pub fn candidate(&self, i: usize, prev: usize) -> bool {
        let x = &self.info[i];
        if x.cap {
            return true;
        }
        if prev == O {
            return false;
        }
        if x.comma {
            return self.info.get(i + 1).is_some_and(|n| n.legal);
        }
        x.connector && (self.info.get(i + 1).is_some_and(|n| n.cap) || (self.info.get(i + 1).is_some_and(|n| n.connector) && self.info.get(i + 2).is_some_and(|n| n.cap)))
    }

    /// Whether the token can only continue a name (a connector or comma), never begin one.
    pub fn continuation_only(&self, i: usize) -> bool {
        !self.info[i].cap
    }

    /// The feature hashes of token `i` given the two previous classes.
    pub fn features(&self, i: usize, p1: usize, p2: usize, h: u64, out: &mut Vec<u64>) {
        out.clear();
        let at = |j: isize| -> Option<&Info> { if j < 0 { None } else { self.info.get(j as usize) } };
        let i = i as isize;
        let x = &self.info[i as usize];
        let lw = |j: isize| at(j).map_or(if j < 0 { BOS } else { EOS }, |y| y.lw);
        let sh = |j: isize| at(j).map_or(if j < 0 { BOS } else { EOS }, |y| y.shape);
        let (p1, p2) = (p1 as u64, p2 as u64);
        out.push(mix(0, 0, 0));
        out.push(mix(1, x.lw, 0));
        out.push(mix(2, x.shape, 0));
        out.push(mix(3, x.suf, 0));
        out.push(mix(4, x.pre, 0));
        out.push(mix(5, lw(i - 1), 0));
        out.push(mix(6, lw(i + 1), 0));
        out.push(mix(7, lw(i - 2), 0));
        out.push(mix(8, lw(i + 2), 0));
        out.push(mix(9, sh(i - 1), 0));
        out.push(mix(10, sh(i + 1), 0));
        out.push(mix(11, p1, 0));
        out.push(mix(12, p2, p1));
        out.push(mix(13, p1, x.shape));
        out.push(mix(14, lw(i - 1), x.lw));
        out.push(mix(15, x.lw, lw(i + 1)));
        out.push(mix(16, x.shape, lw(i + 1)));
        out.push(mix(17, lw(i - 1), x.shape));
        if i == 0 {
            out.push(mix(18, x.lw, 0));
        }
        // A legal form within the next four tokens, and how far.
        if let Some(d) = (1..=4).find(|d| at(i + d).is_some_and(|y| y.legal)) {
            out.push(mix(19, d as u64, x.cap as u64));
        }
        if x.legal {
            out.push(mix(20, p1, 0));
        }
        if at(i - 1).is_some_and(|y| y.title) {
            out.push(mix(21, x.shape, 0));
        }
        out.push(mix(22, x.len as u64, x.shape));
        // All capitals around: a heading or a caption.
        let caps = |j: isize| at(j).is_some_and(|y| y.cap && y.shape == x.shape);
        if caps(i - 1) && caps(i + 1) {
            out.push(mix(23, x.shape, 0));
        }
        out.push(mix(24, sh(i - 1), x.shape));
        out.push(mix(25, x.shape, sh(i + 1)));
        let gz = |j: isize| at(j).map_or(16, |y| (y.gaz & 15) as u64);
        // A listed company's name: its own features, apart from the name and place flags.
        let co = |j: isize| at(j).map_or(16, |y| (y.gaz >> 5) as u64);
        if x.gaz >> 5 != 0 {
            out.push(mix(62, co(i), x.shape));
            out.push(mix(63, co(i), p1));
        }
        if co(i - 1) != 0 && co(i - 1) != 16 {
            out.push(mix(64, co(i - 1), co(i)));
        }
        out.push(mix(26, gz(i), 0));
        out.push(mix(27, gz(i - 1), gz(i)));
        out.push(mix(28, gz(i), gz(i + 1)));
        out.push(mix(29, gz(i), p1));
        out.push(mix(30, x.doc as u64, (i == 0) as u64));
        out.push(mix(31, x.doc as u64, x.shape));
        out.push(mix(32, x.suf4, 0));
        if x.orgword {
            out.push(mix(33, p1, 0));
        }
        out.push(mix(35, p1, x.lw));
        out.push(mix(36, p1, lw(i + 1)));
        if let Some(d) = (1..=3).find(|d| at(i + d).is_some_and(|y| y.orgword && y.cap)) {
            out.push(mix(34, d as u64, x.cap as u64));
        }
        // What the tagger said of this word earlier in the document.
        if h != 0 {
            out.push(mix(40, h, 0));
            out.push(mix(41, h, x.shape));
            out.push(mix(43, h, (i == 0) as u64));
        }
        // A wider window: neighbours' suffixes, the word trigram, three words out, the
        // neighbouring bigrams.
        {
            let suf = |j: isize| at(j).map_or(if j < 0 { BOS } else { EOS }, |y| y.suf);
            out.push(mix(44, suf(i - 1), 0));
            out.push(mix(45, suf(i + 1), 0));
            out.push(mix(46, mix(lw(i - 1), x.lw, lw(i + 1)), 0));
            out.push(mix(47, lw(i - 1), p1));
            out.push(mix(48, lw(i - 3), 0));
            out.push(mix(49, lw(i + 3), 0));
            out.push(mix(50, lw(i + 1), lw(i + 2)));
            out.push(mix(51, lw(i - 2), lw(i - 1)));
        }
        // The last word of the capitalised run this word begins or continues (its head:
        // "United States Geological Survey" is read as a survey from "United" on).
        if x.cap {
            let r = i + x.to_head as isize;
            if let Some(y) = at(r) {
                if r > i {
                    out.push(mix(56, y.lw, 0));
                    out.push(mix(57, y.suf4, 0));
                }
                out.push(mix(58, u64::from(y.orgword || y.legal), gz(r)));
                out.push(mix(59, (r - i).min(4) as u64, x.shape));
            }
        }
        // The word's clusters (which words it is used like), its neighbours' and its head's.
        {
            let cl = |j: isize| at(j).map_or((17, 17, 17), |y| cluster_levels(y.cl));
            let (f0, m0, c0) = cl(i);
            out.push(mix(70, f0, 0));
            out.push(mix(71, m0, x.shape));
            out.push(mix(72, c0, p1));
            out.push(mix(73, cl(i - 1).1, 0));
            out.push(mix(74, cl(i + 1).1, 0));
            if x.cap && x.to_head > 0 {
                let h = cl(i + x.to_head as isize);
                out.push(mix(75, h.0, 0));
                out.push(mix(76, h.1, m0));
            }
            out.push(mix(77, f0, p1));
            out.push(mix(78, cl(i - 1).0, 0));
            out.push(mix(79, cl(i + 1).0, 0));
        }
        // English and common words (the vocabulary of prose, not of names), here and around.
        {
            let eng = |j: isize| {
                at(j).map_or(4, |y| {
                    let l = y.lists();
                    u64::from(l & IN_ENGLISH != 0) | u64::from(l & IN_COMMON != 0) << 1
                })
            };
            let e = eng(i);
            out.push(mix(52, e, x.shape));
            out.push(mix(53, e, (i == 0) as u64 | (x.doc as u64) << 1));
            out.push(mix(54, e, eng(i + 1)));
            out.push(mix(55, eng(i - 1), e));
        }
    }
}

/// The 8-bit tag of a stored key: its top bits (the slot index is read from the low
/// ones), never 0, which marks an empty slot. One byte: the tag table (256 KB) leaves
/// half of a core's 1 MB L2 to the rest; a key whose tag matches by chance (1 in 255)
/// costs one slot read, and the slot's key decides.
fn tag_of(k: u64) -> u8 {
    ((k >> 56) as u8).max(1)
}

/// Whether class `c` may follow class `prev`: an inside tag continues a name begun before
/// it, of any type — a later word may retype the name ("United States" + "Geological
/// Survey" is one organisation), whose type is its last word's.
pub fn allowed(prev: usize, c: usize) -> bool {
    c == O || is_begin(c) || prev != O
}

/// A model: feature hash → one integer weight per class, in an open-addressing table.
pub struct Model {
    /// (feature, weights) slots; key 0 is an empty slot. Key and weights side by side (32
    /// bytes): a hit touches one cache line of them.
    slots: Vec<Slot>,
    /// An 8-bit tag of each slot's key ([`tag_of`]; 0: empty), probed before the slot: the
    /// tags fit in the processor's cache where the slots (8 MB) do not, and a feature not
    /// in the model (one in four of a scored token's) ends in the tags alone.
    tags: Vec<u8>,
    mask: usize,
    /// What the model file says of itself (version, training data, hashes).
    pub about: String,
    /// How much a name class must outscore the outside class to be chosen (precision
    /// over recall; chosen by cross-validation, stored in the file).
    pub margin: i32,
}

/// The model file is not one `tg` can read.
#[derive(Debug, thiserror::Error)]
#[error("model file: {0}")]
pub struct ModelError(String);

const MAGIC: &[u8; 8] = b"TGNER\x00\x03\x00";

/// One slot of the weight table: a feature and its 16-bit weight per class.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    w: [i16; NC],
}

/// A weight as the file stores it (the trainer keeps them within 16 bits).
fn to_i16(x: i32) -> i16 {
    x.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

impl Model {
    /// Builds a model from (feature, weights) pairs.
    pub fn from_pairs(pairs: &[(u64, [i32; NC])], about: String) -> Model {
        // At most half full (linear probing stays short), a power of two.
        let cap = (pairs.len() + pairs.len() / 2).next_power_of_two().max(16);
        let mut slots = vec![Slot::default(); cap];
        let mut tags = vec![0u8; cap];
        let mask = cap - 1;
        for (k, w) in pairs {
            // Key 0 marks an empty slot: a feature hashing to 0 is dropped (one in 2^64).
            if *k == 0 {
                continue;
            }
            let mut j = (*k as usize) & mask;
            while slots[j].key != 0 && slots[j].key != *k {
                j = (j + 1) & mask;
            }
            slots[j] = Slot { key: *k, w: w.map(to_i16) };
            tags[j] = tag_of(*k);
        }
        Model { slots, tags, mask, about, margin: 0 }
    }

    /// Reads a model file: magic, the `about` text, the margin, then sorted (key, i16 ×
    /// classes) pairs.
    pub fn read(bytes: &[u8]) -> Result<Model, ModelError> {
        let bad = |m: &str| ModelError(m.to_string());
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(bad("not a TextGraph NER model (bad magic)"));
        }
        let u32_at = |i: usize| bytes.get(i..i + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let about_len = u32_at(8).ok_or_else(|| bad("truncated header"))? as usize;
        let about = bytes.get(12..12 + about_len).ok_or_else(|| bad("truncated header"))?;
        let about = String::from_utf8(about.to_vec()).map_err(|_| bad("header is not UTF-8"))?;
        let mut i = 12 + about_len;
        let margin = u32_at(i).ok_or_else(|| bad("truncated"))? as i32;
        i += 4;
        let n = u32_at(i).ok_or_else(|| bad("truncated"))? as usize;
        i += 4;
        let rec = 8 + 2 * NC;
        if bytes.len() != i + n * rec {
            return Err(bad("length does not match the feature count"));
        }
        let mut pairs = Vec::with_capacity(n);
        for r in 0..n {
            let at = i + r * rec;
            let mut k = [0u8; 8];
            k.copy_from_slice(&bytes[at..at + 8]);
            let mut w = [0i32; NC];
            for (c, x) in w.iter_mut().enumerate() {
                let o = at + 8 + 2 * c;
                *x = i16::from_le_bytes([bytes[o], bytes[o + 1]]) as i32;
            }
            pairs.push((u64::from_le_bytes(k), w));
        }
        let mut m = Model::from_pairs(&pairs, about);
        m.margin = margin;
        Ok(m)
    }

    /// Writes pairs in the model file format (sorted by key: byte-identical for equal
    /// weights; weights beyond 16 bits are clamped, which the trainer never makes).
    pub fn write(pairs: &[(u64, [i32; NC])], about: &str, margin: i32) -> Vec<u8> {
        let mut sorted: Vec<&(u64, [i32; NC])> = pairs.iter().collect();
        sorted.sort_by_key(|p| p.0);
        let mut out = MAGIC.to_vec();
        out.extend((about.len() as u32).to_le_bytes());
        out.extend(about.as_bytes());
        out.extend(margin.to_le_bytes());
        out.extend((sorted.len() as u32).to_le_bytes());
        for (k, w) in sorted {
            out.extend(k.to_le_bytes());
            for x in w {
                out.extend(to_i16(*x).to_le_bytes());
            }
        }
        out
    }

    fn lookup(&self, k: u64) -> Option<&[i16; NC]> {
        // Key 0 is never stored (an empty slot's key): it has no weights.
        if k == 0 {
            return None;
        }
        let t = tag_of(k);
        let mut j = (k as usize) & self.mask;
        loop {
            let here = self.tags[j];
            if here == 0 {
                return None;
            }
            // Equal tags may still be different keys: the slot's key decides.
            if here == t && self.slots[j].key == k {
                return Some(&self.slots[j].w);
            }
            j = (j + 1) & self.mask;
        }
    }

    /// The scores of each class for a set of features.
    pub fn scores(&self, features: &[u64]) -> [i32; NC] {
        let mut s = [0i32; NC];
        // Every feature's first tag is read before any is tested: the reads do not wait on
        // each other, so their cache misses can overlap. An empty first slot: not in the model.
        for chunk in features.chunks(16) {
            let mut first = [0u8; 16];
            for (t, f) in first.iter_mut().zip(chunk) {
                *t = self.tags[(*f as usize) & self.mask];
            }
            for (t, f) in first.iter().zip(chunk) {
                if *t == 0 {
                    continue;
                }
                if let Some(w) = self.lookup(*f) {
                    for c in 0..NC {
                        s[c] += w[c] as i32;
                    }
                }
            }
        }
        s
    }

    /// The class of each token of a prepared sentence, left to right.
    pub fn tag(&self, p: &Prepared, hist: &mut History) -> Vec<usize> {
        let mut tags = Vec::with_capacity(p.tokens.len());
        let mut feats = Vec::with_capacity(32);
        let (mut p1, mut p2) = (O, O);
        for i in 0..p.tokens.len() {
            // (In a quoted title, of the capitalised words only one in capitals or of a place
            // the gazetteer lists: [`quoted_titles`].)
            let x = &p.info[i];
            let headline_word = x.cap && !x.upper && x.gaz & (PLACE_BEGIN | PLACE_INSIDE) == 0;
            let c = if p.candidate(i, p1) && !(headline_word && p.titles.iter().any(|&(a, b)| a <= i && i < b)) {
                let lw = p.word_hash(i);
                p.features(i, p1, p2, hist.of(lw), &mut feats);
                let s = self.scores(&feats);
                let c = best(&s, p1, p.continuation_only(i));
                // A name must begin clearly; once begun, it continues on the best score.
                let c = if c != O && is_begin(c) && s[c] - s[O] < self.margin { O } else { c };
                if p.info[i].cap {
                    hist.note(lw, c);
                }
                c
            } else {
                O
            };
            tags.push(c);
            p2 = p1;
            p1 = c;
        }
        tags
    }

    /// The names in `text[span]`, the sentence alone: (byte span, vocabulary type), MISC left out.
    pub fn names(&self, text: &str, span: Span) -> Vec<(Span, &'static str)> {
        self.names_in(text, span, &Context::new(text, &[span]))
    }

    /// The names in one sentence of a document whose [`Context`] is given.
    pub fn names_in(&self, text: &str, span: Span, ctx: &Context) -> Vec<(Span, &'static str)> {
        self.names_of(text, &prepare_in(text, span, ctx), &mut History::default())
    }

    /// The names in a prepared sentence. A heading or caption in capitals ("SECURITIES
    /// AND EXCHANGE COMMISSION v. JOHN DOE") has none: the tagger learned from prose, and
    /// the rule finders still read it.
    pub fn names_of(&self, text: &str, p: &Prepared, hist: &mut History) -> Vec<(Span, &'static str)> {
        if !p.any_capital() || p.is_heading() {
            return vec![];
        }
        let mut tags = self.tag(p, hist);
        end_a_person_before_of(p, &mut tags);
        join_before_a_shared_legal_form(p, &mut tags);
        join_an_institution_of_the(p, &mut tags);
        join_an_institution_before_of(p, &mut tags);
        institution_runs(p, &mut tags);
        join_a_generation(p, &mut tags);
        split_a_person_from_their_place(p, &mut tags);
        spans(text, p, &tags)
    }

    /// The names of every sentence of a document, in order.
    pub fn document(&self, text: &str, sentences: &[Span]) -> Vec<Vec<(Span, &'static str)>> {
        let mut hist = History::default();
        prepare_document(text, sentences).iter().map(|p| self.names_of(text, p, &mut hist)).collect()
    }
}

/// The best class allowed after `prev` (the lowest on a tie).
pub fn best(scores: &[i32; NC], prev: usize, continuation_only: bool) -> usize {
    let mut b = O;
    let mut bs = i32::MIN;
    for (c, &s) in scores.iter().enumerate() {
        if !allowed(prev, c) || (continuation_only && c != O && is_begin(c)) {
            continue;
        }
        if s > bs {
            b = c;
            bs = s;
        }
    }
    b
}

/// Where the organisation whose first tag (`B_ORG`) is at `start` ends: after its inside tags.
fn org_run_end(tags: &[usize], start: usize) -> usize {
    start + 1 + tags[start + 1..].iter().take_while(|&&t| t == I_ORG).count()
}

/// "Boston Trading and Research, LLC" is one company: an organisation without a legal form
/// of its own, then "and" or "&", then one whose name closes on a comma and a legal form,
/// are one name (the legal form after the comma is the whole name's).
pub fn join_before_a_shared_legal_form(p: &Prepared, tags: &mut [usize]) {
    let and = [lower_hash("and"), lower_hash("&")];
    let mut i = 0;
    while i < tags.len() {
        if tags[i] != B_ORG {
            i += 1;
            continue;
        }
        let j = org_run_end(tags, i);
        // tags[i..j] is an organisation; a connector "and" then a second one at j + 1.
        let own_form = (i..j).any(|k| p.info[k].legal);
        if !own_form && j + 1 < tags.len() && tags[j] == O && and.contains(&p.info[j].lw) && tags[j + 1] == B_ORG {
            let k = org_run_end(tags, j + 1);
            if k - j >= 4 && p.info[k - 2].comma && p.info[k - 1].final_form {
                tags[j] = I_ORG;
                tags[j + 1] = I_ORG;
            }
            i = k;
        } else {
            i = j;
        }
    }
}

/// An institution's name goes on over "of the" and what it is the institution of: "U.S.
/// Department of the Treasury", "Office of the Comptroller of the Currency", "Ministry of
/// the Interior". The tagger, which learned that "the" mostly opens a new phrase, ends the
/// name before it; after a head word of a body ([`INSTITUTION_HEADS`]) the capitalised
/// words after "of the" are the name's complement, unless they are a name of their own.
pub fn join_an_institution_of_the(p: &Prepared, tags: &mut [usize]) {
    let (of, the) = (lower_hash("of"), lower_hash("the"));
    let mut i = 0;
    while i < tags.len() {
        if tags[i] != B_ORG {
            i += 1;
            continue;
        }
        let mut j = org_run_end(tags, i);
        // tags[i..j] is an organisation; while it ends in a head word and "of the" and
        // capitalised words no name holds follow, they are its own.
        while INSTITUTION_HEADS.contains(&p.info[j - 1].lw) && j + 2 < tags.len() && p.info[j].lw == of && p.info[j + 1].lw == the && tags[j] == O && tags[j + 1] == O {
            let mut k = j + 2;
            // Words the tagger left out of any name, or one word it read as a name of its
            // own ("Treasury"); a name of several words is one of its own ("Field Office of
            // the Internal Revenue Service", "Health Office of the Embassy of Kuwait").
            while k < tags.len()
                && p.info[k].cap
                && !p.info[k].upper
                && (tags[k] == O || (is_begin(tags[k]) && class_type(tags[k]) != Some("Person") && tags.get(k + 1).is_none_or(|&t| t == O || is_begin(t))))
            {
                k += 1;
            }
            if k == j + 2 || tags.get(k).is_some_and(|&t| t != O && !is_begin(t)) {
                break;
            }
            // (The head may repeat: "Office of the Comptroller of the Currency".)
            tags[j..k].fill(I_ORG);
            j = k;
        }
        i = j;
    }
}

/// Reads a run of two or more capitalised words after "the" the tagger left outside any name
/// as an organisation when its head — the last word, or the word before "of" — is a body's
/// ([`INSTITUTION_HEADS`]): "the Federal Housing Administration", "the Enforcement
/// Division", "the Office of Foreign Assets Control". A body is named for what it is; the
/// tagger, which weighs the words around it, can miss a name it never saw.
pub fn institution_runs(p: &Prepared, tags: &mut [usize]) {
    let (of, the) = (lower_hash("of"), lower_hash("the"));
    static JOINS: LazyLock<[u64; 5]> = LazyLock::new(|| ["of", "and", "&", "for", "the"].map(lower_hash));
    let join = |k: usize| JOINS.contains(&p.info[k].lw);
    let n = tags.len();
    let mut i = 0;
    while i < n {
        if !p.info[i].cap || p.info[i].upper || tags[i] != O {
            i += 1;
            continue;
        }
        // The run: capitalised words, and "of", "and", "&", "for", "the" before a
        // capitalised one ("Office of the Comptroller of the Currency").
        let mut j = i + 1;
        while j < n && (p.info[j].cap && !p.info[j].upper || (join(j) && (j + 1..(j + 3).min(n)).find(|&k| !join(k)).is_some_and(|k| p.info[k].cap && !p.info[k].upper))) {
            j += 1;
        }
        let head = (i + 1..j).find(|&k| p.info[k].lw == of).map_or(j - 1, |k| k - 1);
        let words = (i..j).filter(|&k| p.info[k].cap).count();
        // After "the": a body so named, not a headline's words ("Acme Opens Office in Paris").
        let after_the = i > 0 && p.info[i - 1].lw == the;
        if words >= 2 && head > i && after_the && tags[i..j].iter().all(|&t| t == O) && INSTITUTION_HEADS.contains(&p.info[head].lw) {
            tags[i] = B_ORG;
            tags[i + 1..j].fill(I_ORG);
        }
        i = j;
    }
}

/// Joins a body's head word and "of" the tagger left out to the organisation after them:
/// "Office of" + "Public Affairs", "Bureau of" + "Industry and Security" (the head word
/// capitalised, [`INSTITUTION_HEADS`]).
pub fn join_an_institution_before_of(p: &Prepared, tags: &mut [usize]) {
    let of = lower_hash("of");
    // Not an officer's title ("Controller of Williams"), a company's board ("Board of
    // LiqTech International, Inc."), or "Bank of": the organisation after them is the name.
    static NOT_BEFORE_OF: LazyLock<[u64; 6]> = LazyLock::new(|| ["comptroller", "treasurer", "controller", "inspector", "board", "bank"].map(lower_hash));
    for i in 2..tags.len() {
        let company = || (i..org_run_end(tags, i)).any(|k| p.info[k].legal || p.info[k].gaz & (COMPANY_BEGIN | COMPANY_INSIDE) != 0);
        if tags[i] == B_ORG
            && tags[i - 1] == O
            && tags[i - 2] == O
            && p.info[i - 1].lw == of
            && p.info[i - 2].cap
            && INSTITUTION_HEADS.contains(&p.info[i - 2].lw)
            && !NOT_BEFORE_OF.contains(&p.info[i - 2].lw)
            && !company()
        {
            tags[i - 2] = B_ORG;
            tags[i - 1] = I_ORG;
            tags[i] = I_ORG;
        }
    }
}

/// Joins a generation written right after a person's name to it ("Paul R. Toth Jr.",
/// "John Doe Sr."): the tagger, which learned from text that seldom has them, leaves
/// "Jr." out. ("III" and "II" it reads.)
pub fn join_a_generation(p: &Prepared, tags: &mut [usize]) {
    static GENERATIONS: LazyLock<[u64; 4]> = LazyLock::new(|| ["jr", "jr.", "sr", "sr."].map(lower_hash));
    for i in 1..tags.len() {
        if tags[i] == O && group(tags[i - 1]) == group(B_PER) && p.info[i].cap && GENERATIONS.contains(&p.info[i].lw) {
            tags[i] = I_PER;
        }
    }
}

/// Ends a person's name the tagger ran on over "of" into a name of another kind ("Amelia
/// Ward of the Division of Enforcement", read as one name of the last word's type): the
/// person ends before "of", and what follows is its own name, or none where the tagger
/// read it as a title or an event's (MISC). A person's name that goes on as a person's
/// ("Duke of Wellington") stays whole.
pub fn end_a_person_before_of(p: &Prepared, tags: &mut [usize]) {
    let of = lower_hash("of");
    let n = tags.len();
    let mut i = 0;
    while i < n {
        if tags[i] != B_PER {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < n && tags[j] != O && !is_begin(tags[j]) {
            j += 1;
        }
        if let Some(k) = (i + 1..j).find(|&k| p.info[k].lw == of && group(tags[k - 1]) == group(B_PER))
            && (k + 1..j).any(|t| group(tags[t]) != group(B_PER))
        {
            let g = group(tags[j - 1]);
            tags[k] = O;
            let mut t = k + 1;
            // An article after "of" opens no name.
            while t < j && !p.info[t].cap {
                tags[t] = O;
                t += 1;
            }
            if t < j {
                if g == group(B_PER) || g == group(B_MISC) {
                    tags[t..j].fill(O);
                } else {
                    // Group g's classes: begin 2g - 1, inside 2g.
                    tags[t] = 2 * g - 1;
                    tags[t + 1..j].fill(2 * g);
                }
            }
        }
        i = j;
    }
}

/// Splits a place the tagger ran over a person's name and "of" into the person and the
/// place ("Lamesha Conley of Chicago, Illinois, pleaded guilty": a press release's way of
/// naming a party and where they live). Only where the words before "of" are a name: a
/// surname the name lists hold, no place's or English word, after a given name (or a word
/// no list holds) and at most one initial — not "Isle of Man", "Gulf of Mexico", "City of
/// London", "Republic of Korea".
pub fn split_a_person_from_their_place(p: &Prepared, tags: &mut [usize]) {
    let of = lower_hash("of");
    let n = tags.len();
    let english = |k: usize| p.info[k].lists() & IN_ENGLISH != 0;
    for i in 0..n {
        if tags[i] != B_LOC {
            continue;
        }
        let Some(k) = (i + 2..(i + 4).min(n)).find(|&k| p.info[k].lw == of) else { continue };
        if k + 1 >= n || tags[i + 1..=k + 1].iter().any(|&t| t != I_LOC) || !p.info[k + 1].cap {
            continue;
        }
        let plain = (i..k).all(|t| p.info[t].cap && !p.info[t].upper && !p.info[t].company_word());
        let surname = p.info[k - 1].gaz & SURNAME_BIT != 0 && !p.info[k - 1].place_word() && !english(k - 1);
        let given = p.info[i].gaz & GIVEN_BIT != 0 || (!english(i) && !p.info[i].place_word());
        // At most one word between: a given name or an initial ("R.").
        let middle = k == i + 2 || p.info[i + 1].gaz & GIVEN_BIT != 0 || (p.tokens[i + 1].end - p.tokens[i + 1].start == 2 && p.info[i + 1].cap);
        if plain && surname && given && middle {
            tags[i] = B_PER;
            tags[i + 1..k].fill(I_PER);
            tags[k] = O;
            tags[k + 1] = B_LOC;
        }
    }
}

/// Head words of bodies that take what they are the body of after "of the" ([`join_an_institution_of_the`]), by word hash.
static INSTITUTION_HEADS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| {
    word_set(&[
        "department",
        "ministry",
        "office",
        "bureau",
        "board",
        "council",
        "commission",
        "committee",
        "agency",
        "administration",
        "secretariat",
        "comptroller",
        "treasurer",
        "controller",
        "inspector",
        "court",
        "bank",
        "institute",
        "university",
        "college",
        "academy",
        "museum",
        "service",
        "authority",
    ])
});

/// Where a name whose last token is `tokens[e - 1]` ends, given a compound modifier
/// ("San Diego-based", "New York-born", "Texas-registered"): the name is the compound's
/// head — cut from its last token, or taken from the token after it on the same line, a
/// word the tagger read as one with its modifier.
fn end_before_modifier(text: &str, tokens: &[Token], e: usize) -> usize {
    let last = tokens[e - 1];
    let w = &text[last.start..last.end];
    if let Some(h) = modifier_compound_head(w).or_else(|| footnote_at(w)) {
        return last.start + h;
    }
    match tokens.get(e) {
        Some(next) if text[last.end..next.start].bytes().all(|b| b == b' ') => modifier_compound_head(&text[next.start..next.end]).map_or(last.end, |h| next.start + h),
        _ => last.end,
    }
}

/// Whether a capitalised word is one compound of a bank's or a corporation's word after a
/// stem of five letters or more ("Mosnarbank", "Westernbank", "Pacificorp").
fn institution_compound(w: &str) -> bool {
    w.len() >= 9
        && w.starts_with(|c: char| c.is_ascii_uppercase())
        && w.bytes().all(|b| b.is_ascii_alphabetic())
        && ["bank", "corp"].iter().any(|end| w[w.len() - 4..].eq_ignore_ascii_case(end))
}

/// Where a footnote's number glued to a word begins: "Sudan.2" → 5 (a word of two letters or
/// more ending in lower case, a period, one to three digits; not "U.S.", "NO.5").
fn footnote_at(w: &str) -> Option<usize> {
    let dot = w.rfind('.')?;
    let (word, num) = (&w[..dot], &w[dot + 1..]);
    let letters = word.len() >= 2 && word.bytes().all(|b| b.is_ascii_alphabetic()) && word.as_bytes()[word.len() - 1].is_ascii_lowercase();
    (letters && (1..=3).contains(&num.len()) && num.bytes().all(|b| b.is_ascii_digit())).then_some(dot)
}

/// The length of a token's capitalised head before a hyphen and a modifier word
/// ("Diego-based" → 5), if it is such a compound (not "Coca-Cola", "X-ray", "Won-yong").
pub(crate) fn modifier_compound_head(w: &str) -> Option<usize> {
    let h = w.find('-')?;
    let (head, tail) = (&w[..h], &w[h + 1..]);
    let tail_word = &tail[..tail.find(|c: char| !c.is_lowercase()).unwrap_or(tail.len())];
    (head.chars().next().is_some_and(char::is_uppercase) && head.chars().filter(|c| c.is_alphabetic()).count() >= 2 && modifier_word(tail_word)).then_some(h)
}

/// Whether a lower-case word after a hyphen makes the word before it a modifier: a
/// participle ("-based", "-registered", "-owned", "-nominated", "-speaking") or a word of
/// place, time or kind ("-born", "-area", "-era", "-style", "-language", "-wide"). Not the
/// second syllable of a given name ("Won-yong") nor a word's second half ("Blu-ray").
fn modifier_word(w: &str) -> bool {
    (w.len() >= 4 && (w.ends_with("ed") || w.ends_with("ing"))) || matches!(w, "born" | "area" | "era" | "style" | "language" | "wide" | "led" | "run" | "made")
}

/// The shortest line that a break may merely wrap, in bytes: prose hard-wrapped at 60–80
/// columns (old releases, e-mail, text taken from PDF) has lines longer than this; headings,
/// address blocks, signatures and list items mostly do not.
const WRAPPED_LINE: usize = 50;

/// Whether a line begins with a field's label ("X-bcc: …", "Subject: …", "Tel: …"): a
/// header's or a form's next field, not wrapped prose.
fn opens_with_label(line: &str) -> bool {
    let n = line.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'-').count();
    (1..=30).contains(&n) && line[n..].starts_with(':')
}

/// Whether the space `text[a..b]` between two tokens breaks the line for good: a blank line,
/// one break after a short line, or after a comma (an address's or a list's lines: "the
/// Financial Crimes Enforcement Network,⏎ Department of the Treasury"). One break after a
/// long line only wraps the prose.
pub fn hard_break(text: &str, a: usize, b: usize) -> bool {
    let gap = &text[a..b];
    let Some(nl) = gap.find('\n') else { return false };
    if gap[nl + 1..].contains('\n') || text[..a].ends_with(',') || opens_with_label(&text[b..]) {
        return true;
    }
    // (Only the last WRAPPED_LINE bytes before the break can hold a short line's start.)
    let from = a.saturating_sub(WRAPPED_LINE);
    let from = (from..a).find(|&k| text.is_char_boundary(k)).unwrap_or(a);
    a < WRAPPED_LINE || text[from..a].contains('\n')
}

/// The names a tag sequence marks: runs of one type's begin and inside tags, without
/// connectors or commas at their edges.
pub fn spans(text: &str, p: &Prepared, tags: &[usize]) -> Vec<(Span, &'static str)> {
    let (sun, of) = (lower_hash("sun"), lower_hash("of"));
    let (immediate, release) = (lower_hash("immediate"), lower_hash("release"));
    static LOCATIVES: LazyLock<[u64; 3]> = LazyLock::new(|| ["of", "in", "from"].map(lower_hash));
    let mut out = vec![];
    let mut i = 0;
    while i < tags.len() {
        let c = tags[i];
        if c == O || !is_begin(c) {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        // A legal form that ends a name ("Ltd.", "Inc", "LLC") ends the span: "Acme Ltd.
        // Orion Ltd" is two names, whatever the tags say.
        // A line break ends it too: a heading line and the line under it are not one name —
        // unless the break only wraps a long line of prose ("Michelle P.⏎ Suppes").
        // So does a footnote's number glued to a word ("North Korea.6 The U.S. …", text taken
        // from PDF): the sentence ended there.
        while j < tags.len()
            && tags[j] != O
            && !is_begin(tags[j])
            && !(p.info[j - 1].final_form && p.info[j].cap)
            && !hard_break(text, p.tokens[j - 1].end, p.tokens[j].start)
            && footnote_at(&text[p.tokens[j - 1].start..p.tokens[j - 1].end]).is_none()
            // A capitalised article inside a run opens what a web page's run-together lines
            // say next ("Office of Public Affairs The Department of Justice …", "… Affairs A
            // Miami man"); not after a connector ("Commonwealth of The Bahamas"), and "A"
            // after a person's word is an initial ("Jeffrey A Shankman").
            && (p.info[j - 1].connector
                || match &text[p.tokens[j].start..p.tokens[j].end] {
                    "The" | "An" => false,
                    "A" => group(tags[j - 1]) == group(1),
                    _ => true,
                })
        {
            j += 1;
        }
        // An amount's magnitude opens no name: "$750 Million Securities Fraud Scheme", "a
        // Billion-Dollar Venezuelan Scheme" (a headline's capitals).
        if magnitude_word(&text[p.tokens[i].start..p.tokens[i].end], i.checked_sub(1).is_some_and(|k| text[p.tokens[k].start..].starts_with(|c: char| c.is_ascii_digit()))) {
            i = j;
            continue;
        }
        // Nor does it end in an article, which opens the next sentence where
        // a web page's lines run together ("… Office of Public Affairs A former …").
        let mut e = j;
        while e > i + 1 && ((!p.info[e - 1].cap && !p.info[e - 1].legal) || OPENING_WORDS.contains(&p.info[e - 1].lw)) {
            e -= 1;
        }
        // Nor in a day's or a month's word before a number: a date follows ("MAILER-DAEMON
        // Sun Nov 29 10:57:46 2026", a mail header's sender and date).
        // ("Sun" counts here: a number follows.)
        let dated = |k: usize| CALENDAR_AND_CURRENCY.contains(&p.info[k].lw) || p.info[k].lw == sun;
        if (i + 1..e).any(dated) {
            let mut k = e;
            while k < p.tokens.len() && dated(k) {
                k += 1;
            }
            if text[p.tokens.get(k).map_or(text.len(), |t| t.start)..].starts_with(|c: char| c.is_ascii_digit()) {
                while e > i + 1 && dated(e - 1) {
                    e -= 1;
                }
            }
        }
        // The name's type is its last word's: a later word retypes what the first began.
        let c = tags[e - 1];
        // A line break that cut a person's run leaves one word before it: a listed place no
        // name list holds is that place ("Yaren, Nauru⏎Bill to:", read as "Nauru Bill").
        let cut = j < tags.len() && tags[j] != O && !is_begin(tags[j]) && hard_break(text, p.tokens[j - 1].end, p.tokens[j].start);
        let c = if cut && e == i + 1 && class_type(c) == Some("Person") && p.info[i].gaz & PLACE_BEGIN != 0 && p.info[i].gaz & (GIVEN_BIT | SURNAME_BIT) == 0 { B_LOC } else { c };
        // Two words, a given name (not a place's) and a surname the name lists hold, with no
        // word of a company's name, are a person's name ("Morgan Cooper", "Christian Young"),
        // whatever else the first word is used for; so are they for a place whose last word
        // names none ("Dean Hall", not "Jackson Heights").
        let company = |t: usize| p.info[t].company_word();
        let given_and_surname =
            e == i + 2 && !p.info[i].upper && !p.info[i + 1].upper && p.info[i].gaz & GIVEN_BIT != 0 && p.info[i + 1].gaz & SURNAME_BIT != 0 && !company(i) && !company(i + 1);
        // One word, read as a place, that no list holds but as a name of people and that
        // does what only people do next ("that Spera allegedly paid Hirsch", "Vasquez told
        // investors") is a person: a place that acts so is a listed one ("Russia paid").
        let acts = e == i + 1
            && p.info[i].gaz & (PLACE_BEGIN | PLACE_INSIDE | COMPANY_BEGIN | COMPANY_INSIDE) == 0
            && p.info[i].lists() & (IN_PLACES | IN_COMMON | IN_ENGLISH | IN_COMPANIES) == 0
            && {
                let mut k = e;
                while k < p.tokens.len() && k < e + 2 && text[p.tokens[k].start..p.tokens[k].end].ends_with("ly") && !p.info[k].cap {
                    k += 1;
                }
                k < p.tokens.len() && AGENT_VERBS.contains(&p.info[k].lw)
            };
        // A town named before its state or country after "of", "in" or "from" ("of
        // Anadarko, Oklahoma", "a resident of Theodore, Alabama", "in Eastlake, Ohio") is a
        // place, whatever its word is used for elsewhere; not a name with a company's word
        // ("of Acme Corp., Texas"), not a listed person's two names.
        let town = e <= i + 2
            && i > 0
            && LOCATIVES.contains(&p.info[i - 1].lw)
            && !(i..e).any(company)
            && !given_and_surname
            && p.tokens.get(e).is_some_and(|t| &text[t.start..t.end] == ",")
            && p.info.get(e + 1).is_some_and(|x| x.cap && !x.upper && x.lists() & IN_PLACES != 0);
        // After a company role and "of" ("CEO of Tamsa", "currently CEO of Enron India",
        // "a director of Helix Brasil"), a name the tagger read as a place is the body the
        // role is in, unless every word of it is a listed place's ("Governor of Texas",
        // "Mayor of New York") or it is a town before its state ("his business partner of
        // Powell, Ohio", "the former treasurer of Jackson County, Kentucky").
        let after_a_role = i >= 2 && p.info[i - 1].lw == of && COMPANY_ROLES.contains(&p.info[i - 2].lw) && !(i..e).all(|k| p.info[k].gaz & (PLACE_BEGIN | PLACE_INSIDE) != 0);
        let c = match class_type(c) {
            Some("Location") if after_a_role && !town => B_ORG,
            Some("Organization" | "Person") if town => B_LOC,
            Some("Organization") if given_and_surname && p.info[i].gaz & PLACE_BEGIN == 0 => B_PER,
            Some("Location") if (given_and_surname && !p.info[i + 1].place_word()) || acts => B_PER,
            _ => c,
        };
        // Whether the name opens its sentence, a line or what follows a colon, a bracket
        // or a quote ("Marek Novak: Split it.", `"type": "Date"`).
        let opens = i == 0
            || hard_break(text, p.tokens[i - 1].end, p.tokens[i].start)
            || matches!(&text[p.tokens[i - 1].start..p.tokens[i - 1].end], ":" | "]" | ")" | "\"" | "“" | "-" | "–" | "—");
        // One common or English word alone ("Office", "Rules", "Borrower") is not a name
        // unless a name gazetteer vouches for it — and a gazetteer vouches for a word only as
        // what it lists: a surname for a person ("Price", "Ward"), a place for a place, not
        // "Court" for an organisation.
        let english = |k: usize| p.info[k].lists() & IN_ENGLISH != 0;
        let vouched = |k: usize| match class_type(c) {
            Some("Person") => p.info[k].gaz & (GIVEN_BIT | SURNAME_BIT) != 0,
            // A place that is an English word alone ("Split", "Date") needs more than the list
            // where it opens a sentence or a clause (a heading's, a label's or an order's
            // word: "Date: 5 May", "Marek Novak: Split it."); inside one, what the tagger read
            // as a place and the list holds as a place of one word is one ("outside of
            // China", "flights to Turkey"; not "New" of "New York", not "MINE" in capitals,
            // not the last word of a capitalised term, "the Payment Date"; "the Date" is a
            // defined term, below).
            Some("Location") => {
                p.info[k].gaz & (PLACE_BEGIN | PLACE_INSIDE) != 0
                    && !(e == i + 1 && english(k) && (opens || (i > 0 && p.info[i - 1].cap) || p.info[k].upper || p.info[k].lists() & IN_PLACES == 0))
            }
            Some("Organization") => {
                p.info[k].gaz & (COMPANY_BEGIN | COMPANY_INSIDE) != 0
                    || (e == i + 1 && p.info[k].lists() & (IN_COMPANY_WORDS | IN_COMMON) == IN_COMPANY_WORDS && p.info[k].doc & 1 == 0)
            }
            _ => false,
        };
        let word = |k: usize| !vouched(k) && p.info[k].lists() & (IN_COMMON | IN_ENGLISH) != 0;
        // A line made of nothing but such words ("Account Statement") is a heading.
        let whole_line = i == 0 && !p.info[e..].iter().any(|x| x.cap || x.lower_start);
        // After a determiner ("the Loan", "the Fund") an English word is a defined term,
        // whatever a gazetteer lists it as.
        let after_determiner = i > 0 && DETERMINERS.contains(&p.info[i - 1].lw);
        // "that" is a determiner before a word no name list holds ("that Person"), the
        // conjunction before a name ("alleges that Barber").
        let after_that = i > 0 && p.info[i - 1].lw == lower_hash("that") && !vouched(i);
        let determined = (after_determiner || after_that) && english(i);
        // No person is written "the Equity Transfer Contract" or "this Loan": after a
        // determiner, a person's name of English words alone is a defined term, even where
        // the name lists hold its words ("Loan", "Contract" are surnames too).
        let determined_person = after_determiner && class_type(c) == Some("Person") && (i..e).all(|k| english(k) || p.info[k].connector);
        // A person or a place whose every word is an English word and none a name the
        // gazetteers list ("Term Loan", "Effective Date") is a defined term too.
        // So is an organisation named only by English words with no word of a company's name
        // among them ("Account Statement"; not "United Airlines", "Granite Bank").
        // The head is the word before a preposition ("Department of Justice", "Bank of
        // America", "Gulf of Mexico"), else the last word ("Health and Human Services").
        let head = (i + 1..e).find(|&k| p.info[k].connector && PREPOSITIONS.contains(&p.info[k].lw)).map_or(e - 1, |k| k - 1);
        // Except a place named for what it is: its head is a kind of place ("Pacific Ocean",
        // "Middle East", "Wall Street", "Rocky Mountains"), and an organisation whose head
        // names a body ("North Shore Medical Center").
        let org_evidence = ORG_HEADS.contains(&p.info[head].lw) || (i..e).any(|k| p.info[k].orgword || p.info[k].legal || p.info[k].gaz & COMPANY_BEGIN != 0);
        let place_evidence = PLACE_HEADS.contains(&p.info[head].lw);
        let all_words = e > i + 1
            && (class_type(c) == Some("Person") || (class_type(c) == Some("Location") && !place_evidence) || (class_type(c) == Some("Organization") && !org_evidence))
            && (i..e).all(|k| word(k) || p.info[k].connector);
        // An organisation named by English words alone is named for what it is: its head
        // word says so ("Granite Bank", "Federal Reserve", "Office of Inspector General"), it
        // has a legal form, or it is a listed company ("Home Depot"). Otherwise it is a
        // contract's defined term or a headline ("Credit Extension", "Borrower Equity
        // Interest", "Exchange Act"), whatever word of a company's name it holds.
        let term_like_org = class_type(c) == Some("Organization")
            && e > i + 1
            && (i..e).all(|k| english(k) || p.info[k].connector)
            && !(p.info[head].orgword || ORG_HEADS.contains(&p.info[head].lw) || (i..e).any(|k| p.info[k].legal || p.info[k].gaz & (COMPANY_BEGIN | COMPANY_INSIDE) != 0));
        // A name whose head word names a law or a document ("Bank Secrecy Act", "Securities
        // Exchange Act of 1934", "Iranian Financial Sanctions Regulations", "Joint Statement
        // on …") is no organisation, whatever words of a body's name it holds.
        let law_or_paper = class_type(c) == Some("Organization") && e > i + 1 && LAWS_AND_PAPERS.contains(&p.info[head].lw);
        // A run of capitalised words with a headline's verb in it is a headline, a page's
        // title run into its menu, not a name ("Florida Man Sentenced", "Justice Department
        // Announces Charges Against", "Español Press Release Alabama Woman Pleads Guilty").
        let headline = e > i + 1 && (i..e).any(|k| HEADLINE_VERBS.contains(&p.info[k].lw));
        // One word in capitals is an acronym, never a person's name alone ("OK", "SEC"); one
        // letter alone is no name at all.
        let acronym_person = e == i + 1 && ((class_type(c) == Some("Person") && p.info[i].upper) || text[p.tokens[i].start..p.tokens[i].end].chars().count() == 1);
        // A person's name does not end in a letter alone ("Exhibit A", "Schedule B"): an
        // initial is written with its period; a regnal number ("George V") is the exception.
        let last = &text[p.tokens[e - 1].start..p.tokens[e - 1].end];
        let lettered = class_type(c) == Some("Person") && e > i + 1 && last.chars().count() == 1 && !matches!(last, "I" | "V" | "X");
        // A day, a month, a currency code or a payment rail alone is a date's, an amount's or
        // a transfer's word, never a name ("Fri, 1 Mar 2024" in a mail header, "the USD
        // account", a wire log's channel "ACH"); a connector alone ("Of" of a cut-off
        // "Sheriff's Of") joins names, it is none.
        // Days and months together are a date's words too ("Sun Nov" of "Sun, 4 Nov 2001"
        // in a header; "Sun" counts only beside another such word, not in "Sun Microsystems").
        let calendar = (e == i + 1 && (CALENDAR_AND_CURRENCY.contains(&p.info[i].lw) || p.info[i].connector))
            || (e > i + 1 && (i..e).all(|k| CALENDAR_AND_CURRENCY.contains(&p.info[k].lw) || p.info[k].lw == sun));
        // A mail's or a form's field name opening a line ("X-Folder:", "Content-Type:",
        // "Message-ID:") names the field, no one.
        let field_name = e == i + 1
            && (i == 0 || text[..p.tokens[i].start].ends_with('\n'))
            && text[p.tokens[i].start..p.tokens[i].end].contains('-')
            && p.tokens.get(e).is_some_and(|t| &text[t.start..t.end] == ":");
        // A mail's and a chat's own words are no name: a pronoun's contraction ("I'll", "We've"
        // open sentences capitalised), the shorthand of messages ("FYI", "ASAP", "PS"), a
        // time zone after a clock's time ("-0700 (PDT)" of a Date: header, "10:00 a.m.
        // CST") and an attached file's name ("Review.ppt", "Budget2001.xls").
        let tok = |k: usize| &text[p.tokens[k].start..p.tokens[k].end];
        // (A contraction anywhere makes the run a message's; the other words must fill it.)
        let message_word = |k: usize| MESSAGE_SHORTHAND.contains(&p.info[k].lw) || is_file_name(tok(k));
        let clock_zone = e == i + 1 && TIME_ZONES.contains(&p.info[i].lw) && {
            let before = (0..i).rev().find(|&k| !matches!(tok(k), "(" | "[")).map(tok);
            before.is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()) || matches!(w.to_ascii_lowercase().as_str(), "am" | "pm" | "a.m." | "p.m."))
        };
        let message = clock_zone || (i..e).any(|k| is_contraction(tok(k))) || (i..e).all(|k| message_word(k) || p.info[k].connector);
        let common_alone = field_name
            || message
            || all_words
            || term_like_org
            || law_or_paper
            || headline
            || determined_person
            || acronym_person
            || lettered
            || calendar
            || (e == i + 1 && (word(i) || determined))
            || (whole_line && (i..e).all(|k| word(k) || p.info[k].connector));
        let kind = class_type(c).filter(|_| !common_alone);
        // A judge's title ("United States District Judge") is a role, no place or body; a
        // person's name is not the citation of a court ("N.D. Ga", "C.D. Cal.", "D. Utah").
        let citation = |t: usize| citation_word(&text[p.tokens[t].start..p.tokens[t].end]);
        // Nor is it initials with places or a court's or an office's words that no list
        // holds as a given name or a surname ("(D. Utah)", "U. S. District Judge", "U. S.
        // Attorney"; not "J. Shrewder", "O. G. Foot").
        let unnamed = |t: usize| p.info[t].gaz & (GIVEN_BIT | SURNAME_BIT) == 0 && (p.info[t].lists() & IN_PLACES != 0 || OFFICE_WORDS.contains(&p.info[t].lw));
        // (Also a court's words right before the judge's title the name stops short of: "U.S.
        // District" of "U.S. District Judge".)
        let court_word = |t: usize| COURT_HEADS.contains(&p.info[t].lw);
        let before_title = e < p.tokens.len() && ROLE_HEADS.contains(&p.info[e].lw) && court_word(e - 1) && text.get(p.tokens[e - 1].end..p.tokens[e].start) == Some(" ");
        let role_or_citation = |k: &str| {
            let role = k != "Person" && (ROLE_HEADS.contains(&p.info[e - 1].lw) || before_title);
            let cited = k == "Person" && (i..e).all(|t| citation(t) || unnamed(t)) && (i..e).any(citation);
            // No person's name ends in a judge's title ("U. S. District Judge").
            let titled = k == "Person" && ROLE_HEADS.contains(&p.info[e - 1].lw);
            role || cited || titled || (e == i + 1 && COURT_WORDS.contains(&p.info[i].lw))
        };
        let kind = kind.filter(|k| !role_or_citation(k));
        // A court is a body, no place ("pleaded guilty in U.S. District Court in Norfolk").
        let kind = kind.map(|k| if k == "Location" && p.info[e - 1].lw == lower_hash("court") { "Organization" } else { k });
        // A name whose last word is one compound of a bank or a corporation ("Evrofinance
        // Mosnarbank", "Westernbank", "PacifiCorp") is an organisation's, not the person or
        // the place the tagger read (a short stem is a name's: "Burbank", "Eubank").
        let kind = kind.map(|k| if k != "Organization" && institution_compound(&text[p.tokens[e - 1].start..p.tokens[e - 1].end]) { "Organization" } else { k });
        // A name of two words or more headed, in the Romance way, by an institution's word
        // ("Banco de Desarrollo Económico y Social de Venezuela", "Secretaría de Hacienda",
        // "Los Comités Locales de …") is an organisation's, whatever its other words suggest.
        let head = if e > i + 2 && ROMANCE_ARTICLES.contains(&p.info[i].lw) { i + 1 } else { i };
        let kind = kind.map(|k| if e > head + 1 && ROMANCE_INSTITUTIONS.contains(&p.info[head].lw) { "Organization" } else { k });
        // A person's name starts after an honorific, the "v." of a caption in capitals, or
        // the English words of a phrase about the person ("the Matter of Art H. Beroff").
        let start = if kind == Some("Person") { person_start(p, i, e) } else { i };
        // An initial the tagger left right before a person's name is the name's first
        // ("O. Jay Neeley"): a capital and its period, on the same line.
        let initial = |k: usize| {
            let w = &text[p.tokens[k].start..p.tokens[k].end];
            w.len() == 2 && w.as_bytes()[0].is_ascii_uppercase() && w.ends_with('.')
        };
        let start = if kind == Some("Person") && start == i && i > 0 && tags[i - 1] == O && initial(i - 1) && text.get(p.tokens[i - 1].end..p.tokens[i].start) == Some(" ") {
            i - 1
        } else {
            start
        };
        // A press release's "For Immediate Release" is no part of the name after it (nor what
        // a web page's menu has before it: "Share Facebook X LinkedIn Email For Immediate
        // Release Office of Public Affairs").
        let start = (start..e.saturating_sub(2)).find(|&k| p.info[k].lw == immediate && p.info[k + 1].lw == release).map_or(start, |k| k + 2);
        // It is none when it runs on over more than six words, any other name over more than
        // twelve (a web page's menu read as one line: "… Fraud Scheme MENU News All News
        // Blogs Photo Galleries Podcasts Press Releases …").
        let words = (start..e).filter(|&k| !p.info[k].connector).count();
        let kind = kind.filter(|k| words <= if *k == "Person" { 6 } else { 12 });
        // An initial written without its period inside a name follows a given name
        // ("Phillip K Allen"); after other words it is none of a name ("Facebook X LinkedIn
        // Email", a page's buttons).
        let bare_initial = |k: usize| {
            let w = &text[p.tokens[k].start..p.tokens[k].end];
            w.len() == 1 && w.bytes().all(|b| b.is_ascii_uppercase()) && !text[p.tokens[k].end..].starts_with('.')
        };
        // (A regnal number, "Gustav V", "Guido I da Montefeltro", ends the name or stands
        // before a connector: only an initial inside the name before a word is tested.)
        let kind = kind.filter(|k| *k != "Person" || (start + 1..e - 1).all(|k| !bare_initial(k) || p.info[k + 1].connector || p.info[k - 1].gaz & GIVEN_BIT != 0));
        // A name glued after a mail system's path or an address's "@" ("…/Corp/Enron@Enron",
        // "Allen/HOU/ECT@ECT") is an organisation's unit or domain, no person.
        let glued = text[..p.tokens[start].start].ends_with(['/', '@']);
        let kind = kind.map(|k| if k == "Person" && glued { "Organization" } else { k });
        // A press release's dateline is its city, where a line opens, before a dash
        // ("WASHINGTON - The Office …", "NEW YORK, N.Y. – …"): a place, no body or person.
        let dateline = start == i && opens && dateline_at(text, p, i, e);
        let kind = kind.map(|k| if dateline { "Location" } else { k });
        // An organisation's name that opens a sentence or follows a dateline's dash does not
        // begin with its article ("The Office of the Comptroller of the Currency (OCC)", the
        // office the text names later without "The").
        let start = if kind == Some("Organization") && start == i && opens && e > i + 2 && &text[p.tokens[i].start..p.tokens[i].end] == "The" { i + 1 } else { start };
        // A compound modifier inside a party's run says where it is or what it is: "Hong
        // Kong-registered Kingsway Sino Resources Limited" begins after it.
        let start = if matches!(kind, Some("Organization" | "Person")) {
            (start..e.saturating_sub(1)).rev().find(|&k| modifier_compound_head(&text[p.tokens[k].start..p.tokens[k].end]).is_some()).map_or(start, |k| k + 1)
        } else {
            start
        };
        // No person's name holds "and" or "&": "Claude Shaw aka Mac and Claude Mac" names
        // two aliases, "Mary and Christian Young" two people. A person's run is cut there
        // into the names on either side (a connector the tagger let continue an
        // organisation's name, "Boston Trading and Research", stays).
        let and = |k: usize| matches!(&text[p.tokens[k].start..p.tokens[k].end], "and" | "&");
        let cut = if kind == Some("Person") { (start + 1..e.saturating_sub(1)).find(|&k| and(k)) } else { None };
        if let (Some(k), Some(kind)) = (cut, kind) {
            // The name before the connector ends before a comma that lists it ("Mac, and").
            let mut left = k;
            while left > start && p.tokens[left - 1].end - p.tokens[left - 1].start == 1 && !p.info[left - 1].cap {
                left -= 1;
            }
            if left > start {
                out.push(((p.tokens[start].start, p.tokens[left - 1].end), kind));
            }
            if (k + 1..e).any(|t| p.info[t].cap) {
                out.push(((p.tokens[k + 1].start, end_before_modifier(text, &p.tokens, e)), kind));
            }
        } else if let Some(kind) = kind {
            let mut span = (p.tokens[start].start, end_before_modifier(text, &p.tokens, e));
            // A person in a mail system's address ("Phillip K Allen/HOU/ECT", Lotus Notes) is
            // the name before its organisation's path.
            if kind == "Person"
                && let Some(slash) = text[p.tokens[e - 1].start..span.1].find('/')
                && e > i + 1
            {
                span.1 = p.tokens[e - 1].start + slash;
            }
            if text[span.0..span.1].chars().any(char::is_alphabetic) {
                out.push((span, kind));
            }
        }
        i = j;
    }
    out
}

/// Whether tokens `i..e`, a place's words, are a dateline: they open the line, and a dash
/// follows them, after at most a comma, a state's abbreviation and a date ("NEW YORK, N.Y. –").
fn dateline_at(text: &str, p: &Prepared, i: usize, e: usize) -> bool {
    let word = |k: usize| p.tokens.get(k).map(|t| &text[t.start..t.end]);
    // Every word a place's (or a dotted abbreviation's, "D.C."), in capitals or capitalised:
    // "BOSTON TRADING CO -" and "Acme Corp -" name no place.
    let place = |k: usize| p.info[k].lists() & IN_PLACES != 0 || p.info[k].gaz & (PLACE_BEGIN | PLACE_INSIDE) != 0;
    let dotted = |k: usize| word(k).is_some_and(|w| w.len() <= 5 && w.contains('.'));
    if !(i..e).all(|k| (p.info[k].cap && (place(k) || dotted(k))) || p.info[k].connector) || !(i == 0 || hard_break(text, p.tokens[i - 1].end, p.tokens[i].start)) {
        return false;
    }
    // (The state and the date may follow, after a comma: "NEW YORK, N.Y. –", "Sept. 9, 2023".)
    let mut k = e;
    if word(k) == Some(",") {
        while k < e + 8 && word(k).is_some_and(|w| w == "," || w.starts_with(|c: char| c.is_ascii_digit()) || (w.starts_with(|c: char| c.is_ascii_uppercase()) && w.len() <= 9)) {
            k += 1;
        }
    }
    matches!(word(k), Some("-" | "–" | "—" | "--"))
}

/// Where a person's name of tokens `i..e` begins: after an honorific ("Honorable", "Hon."),
/// the "Charge" of a title "… in Charge", a caption's "V." before a name in capitals ("V.
/// NELSON BARBER"), or English words and an "of" before the name ("Matter of Art H.
/// Beroff", "Estate of …": English words no name list holds, or common ones, "Matter" a
/// surname too), as long as two tokens remain of it (one after the "Charge").
fn person_start(p: &Prepared, i: usize, e: usize) -> usize {
    let mut i = i;
    while i + 2 < e && (HONORIFICS.contains(&p.info[i].lw) || (p.info[i].lw == lower_hash("v.") && p.info[i + 1].upper)) {
        i += 1;
    }
    // The last word of an office's title "… in Charge" ("Special Agent in Charge Eric B.
    // Smith", "Inspector in Charge Robert Wemyss"): the tagger reads it as the name's first.
    if i > 0 && i + 1 < e && p.info[i].lw == lower_hash("charge") && p.info[i - 1].lw == lower_hash("in") {
        i += 1;
    }
    if let Some(of) = (i + 1..e.saturating_sub(2)).find(|&k| p.info[k].lw == lower_hash("of"))
        && (i..of).all(|k| p.info[k].lists() & IN_ENGLISH != 0 && (p.info[k].gaz & (GIVEN_BIT | SURNAME_BIT) == 0 || p.info[k].lists() & IN_COMMON != 0))
    {
        i = of + 1;
    }
    i
}

/// Honorifics written before a name, which are not part of it, by word hash.
static HONORIFICS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| word_set(&["honorable", "honourable", "hon.", "hon"]));

/// A person's roles in a company, before "of" and the company's name ([`spans`]).
static COMPANY_ROLES: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| {
    word_set(&[
        "ceo",
        "cfo",
        "coo",
        "cto",
        "chairman",
        "chairwoman",
        "founder",
        "co-founder",
        "cofounder",
        "director",
        "owner",
        "co-owner",
        "employee",
        "officer",
        "shareholder",
        "treasurer",
        "controller",
        "executive",
        "principal",
        "partner",
        "manager",
    ])
});

/// Verbs of what people do, not places: a word no list holds before one is a person's
/// name ([`spans`]).
static AGENT_VERBS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| {
    word_set(&[
        "paid",
        "told",
        "said",
        "agreed",
        "admitted",
        "pleaded",
        "asked",
        "wrote",
        "signed",
        "directed",
        "instructed",
        "bribed",
        "stole",
        "embezzled",
        "misappropriated",
        "lied",
        "testified",
        "emailed",
        "met",
        "promised",
        "recruited",
        "solicited",
        "forged",
        "falsified",
        "concealed",
        "knew",
        "believed",
        "resigned",
    ])
});

/// Last words of a role's title, which is not a place's or a body's name ("United States
/// District Judge", "U.S. Magistrate Judge"), by word hash.
static ROLE_HEADS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| word_set(&["judge", "judges", "magistrate"]));

/// Last words of a court's name before a judge's title ("U.S. District Judge", "U.S.
/// Bankruptcy Judge", "Circuit Judge"), by word hash.
static COURT_HEADS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| word_set(&["district", "bankruptcy", "circuit", "court", "magistrate"]));

/// Words of a case's citation ("97 Civ. 2376", "F. Supp."), never a name alone, by word hash.
static COURT_WORDS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| word_set(&["civ", "civ.", "crim", "crim.", "supp", "supp.", "cir", "cir."]));

/// Head words of Spanish, Portuguese, French and Italian institutions' names, which open
/// the name ("Banco …", "Comisión Nacional …", "Petróleos de …"), by word hash.
static ROMANCE_INSTITUTIONS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| {
    word_set(&[
        "banco",
        "banca",
        "banque",
        "caja",
        "fondo",
        "comisión",
        "comision",
        "comissão",
        "commissione",
        "secretaría",
        "secretaria",
        "ministerio",
        "ministério",
        "ministère",
        "ministero",
        "oficina",
        "corporación",
        "corporacion",
        "compañía",
        "compania",
        "companhia",
        "compagnie",
        "instituto",
        "institut",
        "istituto",
        "fundación",
        "fundacion",
        "fundação",
        "sociedad",
        "sociedade",
        "société",
        "societe",
        "società",
        "empresa",
        "empresas",
        "grupo",
        "superintendencia",
        "asociación",
        "asociacion",
        "federación",
        "federacion",
        "consejo",
        "conselho",
        "juzgado",
        "fiscalía",
        "fiscalia",
        "procuraduría",
        "procuraduria",
        "petróleos",
        "petroleos",
        "minería",
        "mineria",
        "servicio",
        "servicios",
        "dirección",
        "direccion",
        "departamento",
        "agencia",
        "universidad",
        "universidade",
        "université",
        "partido",
        "cámara",
        "comité",
        "comités",
        "comites",
        "cooperativa",
        "tribunal",
        "autoridad",
        "administración",
        "administracion",
        "unidad",
    ])
});

/// Articles that may open such a name ("Los Comités …", "La Caja …"), by word hash.
static ROMANCE_ARTICLES: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| word_set(&["el", "la", "los", "las", "le", "les", "o", "os", "il"]));

/// English articles, which open a sentence and end no name, by word hash. (Number words
/// end names: "Council of Ten", "BBC Two".)
static OPENING_WORDS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| word_set(&["a", "an", "the"]));

/// Words of a court's or a public office's name, which are no person's after initials
/// ("U. S. District", "U. S. Attorney"), by word hash.
static OFFICE_WORDS: LazyLock<hashbrown::HashSet<u64>> =
    LazyLock::new(|| word_set(&["district", "districts", "court", "courts", "circuit", "attorney", "attorneys", "attorney's", "marshal", "marshals", "trustee"]));

/// The words of a large amount's magnitude (in any case), which open no name: "$750
/// Million Securities Fraud" (`entities` stops a name before them too).
pub(crate) const MAGNITUDES: [&str; 3] = ["million", "billion", "trillion"];

/// Whether a word is a compound of a magnitude ("Billion-Dollar", "Multimillion-Dollar",
/// "Multi-Million"), in any case.
pub(crate) fn magnitude_compound(w: &str) -> bool {
    let starts = |m: &str| w.get(..m.len()).is_some_and(|p| p.eq_ignore_ascii_case(m));
    ["million-", "billion-", "trillion-", "multimillion", "multi-million", "multibillion", "multi-billion"].iter().any(|m| starts(m))
}

/// Whether a word is an amount's magnitude: "Million", "Billion" or "Thousand" after a
/// number (`after_number`), or a compound of one.
fn magnitude_word(w: &str, after_number: bool) -> bool {
    (after_number && (MAGNITUDES.iter().any(|m| w.eq_ignore_ascii_case(m)) || w.eq_ignore_ascii_case("thousand"))) || magnitude_compound(w)
}

/// Whether a token is a word of a court citation, never of a name: an initial or initials
/// ("N.D.", "E.", "C. A."), an abbreviation of a state or a court ("Ga", "Cal.", "Civ"), or
/// of a code's or a register's title ("Fed. Reg.", "Stat.").
fn citation_word(w: &str) -> bool {
    let bare = w.trim_end_matches('.');
    let initials = !bare.is_empty() && bare.split('.').all(|part| part.len() == 1 && part.bytes().all(|b| b.is_ascii_uppercase())) && w.ends_with('.');
    initials
        || matches!(
            bare,
            "Ala"
                | "Ariz"
                | "Ark"
                | "Cal"
                | "Colo"
                | "Conn"
                | "Del"
                | "Fla"
                | "Ga"
                | "Ill"
                | "Ind"
                | "Kan"
                | "Ky"
                | "La"
                | "Mass"
                | "Md"
                | "Mich"
                | "Minn"
                | "Miss"
                | "Mo"
                | "Mont"
                | "Neb"
                | "Nev"
                | "Okla"
                | "Or"
                | "Ore"
                | "Pa"
                | "Tenn"
                | "Tex"
                | "Va"
                | "Vt"
                | "Wash"
                | "Wis"
                | "Wyo"
                | "Civ"
                | "Crim"
                | "Cir"
                | "Supp"
                | "Fed"
                | "Reg"
                | "Stat"
        )
}

/// Head words of bodies besides [`ORG_WORDS`] (which the tagger's features read; these only
/// decide whether a name of English words is a body's or a defined term's: "Federal
/// Housing Administration", "Information Services Division"), by word hash.
static ORG_HEADS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| {
    word_set(&[
        "administration",
        "agency",
        "association",
        "bank",
        "capital",
        "center",
        "centre",
        "commission",
        "company",
        "corporation",
        "department",
        "division",
        "foundation",
        "fund",
        "funds",
        "group",
        "guard",
        "institute",
        "institution",
        "network",
        "partners",
        "partnership",
        "trust",
        "university",
        "unit",
    ])
});

/// Head words of the names of laws and of documents, which are not bodies: a name of
/// several words with one as its head is no organisation ([`spans`]), by word hash.
static LAWS_AND_PAPERS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| {
    word_set(&[
        "act",
        "acts",
        "regulation",
        "regulations",
        "rule",
        "rules",
        "code",
        "statute",
        "statutes",
        "directive",
        "ordinance",
        "treaty",
        "statement",
        "report",
        "advisory",
        "guidance",
        "notice",
        "release",
    ])
});

/// Verbs of press-release headlines, written in title case there, that no name holds
/// (nouns that are also verbs — Charges, Orders, Files, Sanctions — are left out), by word
/// hash.
static HEADLINE_VERBS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| {
    word_set(&[
        "pleads",
        "plead",
        "sentenced",
        "convicted",
        "charged",
        "indicted",
        "announces",
        "announce",
        "launches",
        "alleges",
        "designates",
        "indicts",
        "arrested",
        "extradited",
        "admits",
        "admit",
        "agrees",
        "agree",
        "sues",
        "settles",
        "warns",
        "imposes",
        "seizes",
        "unveils",
        "obtains",
        "assesses",
        "ordered",
        "guilty",
        "acquitted",
        "resigns",
        "receives",
        "receive",
    ])
});

/// Head words that name a kind of place: a place named by English words alone is one when
/// its head is one of them ("Pacific Ocean", "Middle East", "Wall Street", "Gulf of Mexico"),
/// and a contract's defined term of English words ("Effective Date") is not ([`spans`]).
static PLACE_HEADS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| {
    word_set(&[
        "avenue",
        "bay",
        "beach",
        "boulevard",
        "canal",
        "canyon",
        "cape",
        "cays",
        "channel",
        "coast",
        "corridor",
        "county",
        "creek",
        "desert",
        "east",
        "empire",
        "falls",
        "forest",
        "glacier",
        "gulf",
        "harbor",
        "harbour",
        "heights",
        "hemisphere",
        "highlands",
        "hill",
        "hills",
        "island",
        "islands",
        "isles",
        "lake",
        "lakes",
        "mountain",
        "mountains",
        "ocean",
        "oceans",
        "peninsula",
        "plains",
        "province",
        "range",
        "reservoir",
        "river",
        "rivers",
        "sea",
        "seas",
        "square",
        "strait",
        "straits",
        "street",
        "valley",
        "west",
    ])
});

/// The connectors that are prepositions: the word before one heads a name ("Bank of
/// America"); "and", "&", "the" join words of equal rank.
static PREPOSITIONS: LazyLock<hashbrown::HashSet<u64>> =
    LazyLock::new(|| word_set(&["of", "for", "on", "in", "at", "upon", "de", "da", "du", "des", "del", "della", "di", "van", "von", "der", "den"]));

/// Days, months, the commonest ISO 4217 currency codes and payment rails (the channel a
/// transfer went by), each alone no name, by word hash.
static CALENDAR_AND_CURRENCY: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| {
    word_set(&[
        "mon",
        "tue",
        "tues",
        "wed",
        "thu",
        "thur",
        "thurs",
        "fri",
        "sat",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "usd",
        "eur",
        "gbp",
        "chf",
        "jpy",
        "cny",
        "rub",
        "aed",
        "hkd",
        "sgd",
        "cad",
        "aud",
        "nzd",
        "sek",
        "nok",
        "dkk",
        "inr",
        "brl",
        "mxn",
        "zar",
        "try",
        "pln",
        "czk",
        "huf",
        "ach",
        "sepa",
        "fedwire",
        "chips",
        "rtgs",
        "bacs",
        "chaps",
    ])
});

/// The shorthand of mail and chat messages, by word hash: never a name alone ("FYI",
/// "ASAP", "PS", "RE:" and "FW:" of a subject line).
static MESSAGE_SHORTHAND: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| {
    word_set(&[
        "fyi", "asap", "tgif", "fwiw", "rsvp", "tbd", "tba", "btw", "imo", "imho", "eod", "cob", "ooo", "lol", "thx", "pls", "plz", "attn", "re", "fw", "fwd", "ps", "pps", "nb",
        "aka", "etc",
    ])
});

/// Time zones' abbreviations, by word hash: after a clock's time they are the zone, no
/// name ("09:33:00 -0800 (PST)", "3 p.m. EST").
static TIME_ZONES: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| {
    word_set(&[
        "utc", "gmt", "est", "edt", "cst", "cdt", "mst", "mdt", "pst", "pdt", "akst", "akdt", "hst", "ast", "adt", "nst", "ndt", "bst", "ist", "cet", "cest", "eet", "eest", "wet",
        "west", "msk", "jst", "kst", "hkt", "sgt", "aest", "aedt", "acst", "awst", "nzst", "nzdt",
    ])
});

/// Whether a word is a pronoun's or a verb's contraction ("I'll", "We've", "They're",
/// "Don't", "It'd"): a capital at a sentence's start, never a name's. (Names with an
/// apostrophe put it after a prefix, "O'Neill", "D'Angelo", "N'Diaye".)
fn is_contraction(w: &str) -> bool {
    // (Most words hold no apostrophe: a byte scan, no character decoding. 0xE2 opens "’".)
    if !w.bytes().any(|b| b == b'\'' || b == 0xE2) {
        return false;
    }
    let Some((head, tail)) = w.split_once(['\'', '’']) else { return false };
    let tail = tail.to_ascii_lowercase();
    (tail == "t" && head.to_ascii_lowercase().ends_with('n'))
        || (matches!(tail.as_str(), "ll" | "ve" | "m" | "d" | "re" | "s")
            && matches!(head.to_ascii_lowercase().as_str(), "i" | "we" | "you" | "they" | "he" | "she" | "it" | "that" | "there" | "who" | "what" | "where" | "here" | "let"))
}

/// Whether a word is a file's name with a document's, a sheet's, an archive's or an
/// image's extension ("Review.ppt", "Budget2001.xls"): an attachment, no name. ("Amazon.com"
/// is a name: web domains are not among them.)
fn is_file_name(w: &str) -> bool {
    w.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && matches!(
                ext.to_ascii_lowercase().as_str(),
                "doc"
                    | "docx"
                    | "xls"
                    | "xlsx"
                    | "xlsm"
                    | "ppt"
                    | "pptx"
                    | "pdf"
                    | "txt"
                    | "rtf"
                    | "csv"
                    | "zip"
                    | "rar"
                    | "7z"
                    | "gz"
                    | "jpg"
                    | "jpeg"
                    | "png"
                    | "gif"
                    | "tif"
                    | "tiff"
                    | "bmp"
                    | "msg"
                    | "eml"
                    | "pst"
                    | "mp3"
                    | "mp4"
                    | "wav"
                    | "exe"
                    | "dll"
                    | "xml"
                    | "json"
            )
    })
}

/// Determiners before a defined term ("the", "a", "such"), by word hash.
/// ("that" is not among them: in enforcement prose it is the conjunction before a clause's
/// subject, "alleges that Barber", more often than a determiner.)
static DETERMINERS: LazyLock<hashbrown::HashSet<u64>> = LazyLock::new(|| {
    word_set(&["the", "a", "an", "this", "these", "those", "such", "said", "each", "any", "every", "another", "other", "either", "neither", "no", "its", "their"])
});

/// Whether a name's word is written in the English word list in lower case (a
/// capitalised "Loan" is one): a defined term's word, when a determiner comes before it.
pub fn is_english_word(word: &str) -> bool {
    lists(lower_hash(word)) & IN_ENGLISH != 0
}

/// Whether `word` is a surname of the gazetteer (`surnames.txt`, any case).
pub fn is_listed_surname(word: &str) -> bool {
    lists(lower_hash(word)) & IN_SURNAMES != 0
}

/// Whether `word`, capitalised, is a press-release headline's verb ("Pleads", "Sentenced";
/// [`HEADLINE_VERBS`]).
pub fn is_headline_verb(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase) && HEADLINE_VERBS.contains(&lower_hash(word))
}

/// Whether `word` is the head word of a law's or a paper's name ("Act", "Regulations",
/// "Advisory", …; [`LAWS_AND_PAPERS`]).
pub fn is_law_or_paper(word: &str) -> bool {
    LAWS_AND_PAPERS.contains(&lower_hash(word))
}

/// Whether `word` is one companies' names often contain ("International", "Financial";
/// [`ORG_WORDS`]), in any case.
pub fn is_org_word(word: &str) -> bool {
    LEX.get(&lower_hash(word)).is_some_and(|l| l & LEX_ORGWORD != 0)
}

/// Whether `name` (a word or a phrase of up to four) is a place the gazetteer lists
/// (`places.txt`: "Miami", "San Diego").
pub fn is_listed_place(name: &str) -> bool {
    lists(lower_hash(name)) & IN_PLACES != 0
}

/// Whether `word` is a common word: one the training text writes in lower case at least
/// twice ("summit", "general", "first"; not "halcyon").
pub fn is_common_word(word: &str) -> bool {
    lists(lower_hash(word)) & IN_COMMON != 0
}

/// Whether `word` is in the given-name list ("Mary", "Jose").
pub fn is_given_name(word: &str) -> bool {
    lists(lower_hash(word)) & IN_GIVEN != 0
}

/// Whether `word` is a determiner ("the", "this", "such", "each" …): what comes before a
/// defined term, not before a name.
pub fn is_determiner(word: &str) -> bool {
    DETERMINERS.contains(&lower_hash(word))
}

/// The model shipped with `tg` (`stdlib/models/ner.tgw`).
pub static BUILTIN: LazyLock<Model> = LazyLock::new(|| {
    // The file is part of the binary (input never reaches it) and tests/ner_model.rs loads
    // it: a broken one is a build defect, the one way this can fail.
    match Model::read(include_bytes!("../../stdlib/models/ner.tgw")) {
        Ok(model) => model,
        Err(e) => panic!("the built-in NER model does not load: {e}"),
    }
});

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(t: &str) -> Vec<&str> {
        tokenize(t, (0, t.len())).into_iter().map(|k| &t[k.start..k.end]).collect()
    }

    #[test]
    fn an_organisation_of_english_words_needs_a_head_that_names_a_body() {
        let names = |t: &str| -> Vec<String> { BUILTIN.names(t, (0, t.len())).into_iter().map(|(sp, k)| format!("{k}:{}", &t[sp.0..sp.1])).collect() };
        // A contract's defined terms, though "Credit" is a word of companies' names.
        assert_eq!(names("Borrower and not dismissed within 30 days (but no Credit Extensions will be made before then)."), Vec::<String>::new());
        // A body's head word, before a preposition or last.
        assert_eq!(names("He was paid by the Federal Housing Administration in May."), ["Organization:Federal Housing Administration"]);
    }

    /// In a quoted title in title case the tagger reads no headline words as names, only
    /// words in capitals and listed places; a quotation in sentence case it reads as prose.
    #[test]
    fn a_quoted_title_names_only_places_and_capitals() {
        let names = |t: &str| -> Vec<String> { BUILTIN.names(t, (0, t.len())).into_iter().map(|(sp, k)| format!("{k}:{}", &t[sp.0..sp.1])).collect() };
        let t = "See Treasury, “Treasury Sanctions Kremlin Elites, Leaders, Oligarchs, and Family for Enabling Putin’s War Against Ukraine,” (March 11, 2022); FATF, “Recent U.S. Government Actions Against Press Conference Schemes,” (May 2, 2022).";
        let n = names(t);
        assert!(n.iter().all(|x| !x.contains("Kremlin") && !x.contains("Enabling") && !x.contains("Press Conference") && !x.contains("Recent")), "{n:?}");
        assert!(n.contains(&"Location:Ukraine".to_string()), "{n:?}");
        let t = "Doe said, “We will hold Globex Holdings accountable for the harm it did to investors in Ohio.”";
        assert!(names(t).contains(&"Organization:Globex Holdings".to_string()), "{:?}", names(t));
        let toks = tokenize(t, (0, t.len()));
        assert!(quoted_titles(t, &toks).is_empty());
        let t = "the advisory “Guidance on Existing AML Program Rule Compliance Obligations” of 2016";
        let toks = tokenize(t, (0, t.len()));
        assert_eq!(
            quoted_titles(t, &toks).iter().map(|&(a, b)| &t[toks[a].start..toks[b - 1].end]).collect::<Vec<_>>(),
            ["Guidance on Existing AML Program Rule Compliance Obligations"]
        );
    }

    #[test]
    fn a_listed_place_that_is_an_english_word_is_a_place_inside_a_sentence() {
        let names = |t: &str| -> Vec<String> { BUILTIN.names(t, (0, t.len())).into_iter().map(|(sp, k)| format!("{k}:{}", &t[sp.0..sp.1])).collect() };
        assert_eq!(names("The Borrower shall not transfer funds outside of China for the Loan."), ["Location:China"]);
        assert!(names("Interest is due on the first Payment Date of the month.").is_empty());
        // Opening a line, such a word is a label's or a heading's.
        assert!(names("Date: 5 May 2023").is_empty());
    }

    /// A break that wraps a long line of prose does not end a name; a blank line, a short
    /// line, a comma at the line's end or a label opening the next line does.
    #[test]
    fn a_name_goes_on_over_a_wrapped_line_only() {
        let long = "     entry on May 27, 1997 of final judgments on consent against Michelle P.";
        let t = format!("{long}\r\n     Suppes and Mark Anthony each consented.");
        let a = long.len();
        let b = t.find("Suppes").unwrap_or(0);
        assert!(!hard_break(&t, a, b));
        let names: Vec<&str> = BUILTIN.names(&t, (0, t.len())).into_iter().map(|(sp, _)| &t[sp.0..sp.1]).collect();
        assert!(names.contains(&"Michelle P.\r\n     Suppes"), "{names:?}");
        // A short line (a heading, an address), a blank line, a comma, a field's label.
        assert!(hard_break("Acme Holdings\nJohn Smith", 13, 14));
        let blank = format!("{long}\n\nSuppes");
        assert!(hard_break(&blank, long.len(), long.len() + 2));
        let comma = format!("{long},\nDepartment of the Treasury");
        assert!(hard_break(&comma, long.len() + 1, long.len() + 2));
        let label = format!("{long}\nX-bcc: nobody");
        assert!(hard_break(&label, long.len(), long.len() + 1));
    }

    /// A compound modifier is not part of the name before it, a footnote's number glued to a
    /// name is not part of it, and a mail address's path is not part of a person's name.
    #[test]
    fn names_end_before_modifiers_footnotes_and_mail_paths() {
        let names = |t: &str| -> Vec<String> { BUILTIN.names(t, (0, t.len())).into_iter().map(|(sp, k)| format!("{k}:{}", &t[sp.0..sp.1])).collect() };
        let n = names("The fraud was run by three San Diego-based defendants and a firm in Los Angeles.");
        assert!(n.contains(&"Location:San Diego".to_string()), "{n:?}");
        assert_eq!(modifier_compound_head("Diego-based"), Some(5));
        assert_eq!(modifier_compound_head("Texas-registered"), Some(5));
        assert_eq!((modifier_compound_head("Coca-Cola"), modifier_compound_head("Won-yong"), modifier_compound_head("X-ray")), (None, None, None));
        assert_eq!((footnote_at("Sudan.2"), footnote_at("Korea.16"), footnote_at("U.S."), footnote_at("NO.5"), footnote_at("v1.2")), (Some(5), Some(5), None, None, None));
        let n = names("Funds moved through banks in South Sudan.2 As a result, the Treasury acted.");
        assert!(n.contains(&"Location:South Sudan".to_string()), "{n:?}");
        let n = names("To: Richard Shapiro/NA/Enron@Enron, Mark Palmer/Corp/Enron@ENRON cc: Subject: speech");
        assert!(n.contains(&"Person:Mark Palmer".to_string()) && n.contains(&"Person:Richard Shapiro".to_string()), "{n:?}");
    }

    /// Honorifics, a caption's "v." and "the Matter of" are not part of a person's name;
    /// a judge's title is no place; a court's citation is no person.
    #[test]
    fn names_without_honorifics_titles_or_citations() {
        let names = |t: &str| -> Vec<String> { BUILTIN.names(t, (0, t.len())).into_iter().map(|(sp, k)| format!("{k}:{}", &t[sp.0..sp.1])).collect() };
        let n = names("On June 5, the Honorable Dale A. Kimball, United States District Judge for the District of Utah, entered the order.");
        assert!(n.contains(&"Person:Dale A. Kimball".to_string()) && !n.iter().any(|x| x.contains("Judge")), "{n:?}");
        // (Read from the tagger's classes, given: the model of 2026-12-06 reads "In the
        // Matter of …" as a work's title, and the rule finders find the person.)
        let read = |t: &str, name: &str, class: usize| -> Vec<String> {
            let p = prepare(t, (0, t.len()));
            let at = t.find(name).unwrap_or(0);
            let tags: Vec<usize> = p
                .tokens
                .iter()
                .map(|k| {
                    if k.start == at {
                        class
                    } else if k.start > at && k.end <= at + name.len() {
                        class + 1
                    } else {
                        O
                    }
                })
                .collect();
            spans(t, &p, &tags).into_iter().map(|(sp, k)| format!("{k}:{}", &t[sp.0..sp.1])).collect()
        };
        let n = read("The Commission instituted proceedings In the Matter of Art H. Beroff last year.", "Matter of Art H. Beroff", 1);
        assert_eq!(n, ["Person:Art H. Beroff"]);
        assert!(citation_word("N.D.") && citation_word("Ga") && citation_word("E.") && citation_word("Cal.") && !citation_word("Utah") && !citation_word("Ed"));
        let n = names("SEC v. Jerry A. Womack, Civil Action No. 1:01-CV-1234 (N.D. Ga. filed May 1, 2001), 97 Civ. 2376 (RPP)");
        assert!(!n.iter().any(|x| x.contains("N.D.") || x.ends_with(":Civ")), "{n:?}");
        let n = names("SEC v. Paul Harris, Civil Action No. 2:03CV00001 (D. Utah), before the U. S. District Judge, with the U. S. Attorney.");
        assert!(!n.iter().any(|x| x.starts_with("Person:") && (x.contains("D. Utah") || x.contains("U. S."))), "{n:?}");
        let n = names("Defendants J. Shrewder and O. G. Foot appeared.");
        assert!(n.contains(&"Person:O. G. Foot".to_string()), "{n:?}");
        assert_eq!(read("Defendants J. Shrewder and O. G. Foot appeared.", "J. Shrewder", 1), ["Person:J. Shrewder"]);
        // The court's words of a title the name stops short of; a court alone is a body.
        let n = names("Henry Lora, 51, of Miami, pleaded guilty before U.S. District Judge Federico A. Moreno of the Southern District of Florida.");
        assert!(!n.iter().any(|x| x.contains("U.S. District")) && n.contains(&"Person:Federico A. Moreno".to_string()), "{n:?}");
        let n = names("Paul Robinson, 37, of Lawrenceville, Georgia, pleaded guilty in U.S. District Court in Norfolk, Virginia.");
        assert!(n.iter().all(|x| !x.starts_with("Location:") || !x.contains("Court")), "{n:?}");
    }

    /// A web page's menu and buttons read as one line of capitalised words are no names.
    #[test]
    fn a_web_pages_chrome_is_no_name() {
        let t = "Office of Public Affairs News Press Releases Former Arkansas State Senator and Two Others Charged With Bribery and Fraud Scheme MENU News All News Blogs Photo Galleries Podcasts Press Releases Speeches Videos Archived Press Releases Archived News Para Notícias en Español Press Release Former Arkansas State Senator and Two Others Charged with Bribery and Fraud Scheme Thursday, March 2, 2017";
        let n: Vec<String> = BUILTIN.names(t, (0, t.len())).into_iter().filter(|(_, k)| *k == "Person").map(|(sp, _)| t[sp.0..sp.1].to_string()).collect();
        assert!(n.iter().all(|x| x.split_whitespace().count() <= 6), "{n:?}");
        let people = |t: &str| -> Vec<String> { BUILTIN.names(t, (0, t.len())).into_iter().filter(|(_, k)| *k == "Person").map(|(sp, _)| t[sp.0..sp.1].to_string()).collect() };
        let t = "Press Release Michigan Pharmacist Sentenced to 46 Months in Prison for $4M Health Care Fraud Scheme Monday, November 24, 2025 Share Facebook X LinkedIn Email For Immediate Release Office of Public Affairs A former Michigan pharmacist was sentenced today.";
        assert!(!people(t).iter().any(|x| x.contains("Facebook")), "{:?}", people(t));
        assert!(people("From: Phillip K Allen wrote to the desk.").contains(&"Phillip K Allen".to_string()));
        // The lines run together: an article opens the next sentence, it ends no name.
        let n: Vec<String> = BUILTIN.names(t, (0, t.len())).into_iter().map(|(sp, _)| t[sp.0..sp.1].to_string()).collect();
        assert!(n.iter().any(|x| x.ends_with("Office of Public Affairs")) && !n.iter().any(|x| x.ends_with(" A")), "{n:?}");
        // Nor does a menu of more than twelve words make an organisation.
        let t = "Health Care Fraud Conspiracy MENU News All News Blogs Photo Galleries Podcasts Press Releases Speeches Videos Archived Press Releases Archived News Para Notícias en Español Press Release";
        assert!(BUILTIN.names(t, (0, t.len())).iter().all(|(sp, _)| t[sp.0..sp.1].split_whitespace().count() <= 12));
    }

    /// A name glued after a mail system's path or an "@" is an organisation's, no person's.
    #[test]
    fn a_name_in_a_mail_path_is_an_organisations() {
        let t = "---------------------- Forwarded by Vince J Kaminski/HOU/ECT on 05/01/2001 09:37 PM ---------------------------\nTo: Louise Kitchen/Corp/Enron@Enron, Greg Whalley/HOU/ECT@ECT\nSubject: Enron update";
        let n: Vec<String> = BUILTIN.names(t, (0, t.len())).into_iter().map(|(sp, k)| format!("{k}:{}", &t[sp.0..sp.1])).collect();
        let glued = t.find("@Enron").map_or(0, |k| k + 1);
        let kinds: Vec<&str> = BUILTIN.names(t, (0, t.len())).into_iter().filter(|(sp, _)| sp.0 == glued).map(|(_, k)| k).collect();
        assert!(kinds == ["Organization"] && n.contains(&"Person:Louise Kitchen".to_string()), "{n:?}");
    }

    /// Days and months together are a date's words, no name; "Sun" beside another word is.
    #[test]
    fn days_and_months_are_no_name() {
        let t = "From MAILER-DAEMON Sun Nov 29 10:57:46 2026\nMessage-ID: <1310258.1075843013191.JavaMail.evans@thyme>";
        let n: Vec<&str> = BUILTIN.names(t, (0, t.len())).into_iter().map(|(sp, _)| &t[sp.0..sp.1]).collect();
        assert!(!n.iter().any(|x| x.contains("Nov")), "{n:?}");
        let t = "The servers were bought from Sun Microsystems in 2001.";
        let n: Vec<&str> = BUILTIN.names(t, (0, t.len())).into_iter().map(|(sp, _)| &t[sp.0..sp.1]).collect();
        assert!(n.contains(&"Sun Microsystems"), "{n:?}");
    }

    /// A mail's own words are no names: contractions, shorthand, a time zone after a clock's
    /// time, an attached file's name. Names with an apostrophe and web domains stay.
    #[test]
    fn a_messages_shorthand_zones_and_files_are_no_names() {
        let names = |t: &str| -> Vec<String> { BUILTIN.names(t, (0, t.len())).into_iter().map(|(sp, _)| t[sp.0..sp.1].to_string()).collect() };
        let t = "Date: Mon, 14 May 2001 16:39:00 -0700 (PDT)\nAmericans, I'll cover my name. SK - I've printed this out. PS I'll call you ASAP.\nFYI - see the attached Review.ppt before 10:00 a.m. CST.";
        let n = names(t);
        for x in ["PDT", "I'll", "I've", "PS I'll", "ASAP", "FYI", "Review.ppt", "CST"] {
            assert!(!n.iter().any(|m| m == x), "{x} in {n:?}");
        }
        let n = names("Sean O'Neill met Jim D'Angelo at the offices of Amazon.com in Seattle.");
        assert!(n.iter().any(|m| m.contains("O'Neill")) && n.iter().any(|m| m.contains("D'Angelo")) && n.contains(&"Amazon.com".to_string()), "{n:?}");
        for (w, yes) in [("I'll", true), ("We've", true), ("Don't", true), ("They're", true), ("O'Neill", false), ("D'Angelo", false), ("N'Diaye", false)] {
            assert_eq!(is_contraction(w), yes, "{w}");
        }
        assert!(is_file_name("Budget2001.xls") && !is_file_name("Amazon.com") && !is_file_name(".pdf"));
    }

    /// A name headed by a Romance institution's word is an organisation's, whatever the
    /// tagger read from its other words.
    #[test]
    fn romance_institutions_are_organisations() {
        let names = |t: &str| -> Vec<String> { BUILTIN.names(t, (0, t.len())).into_iter().map(|(sp, k)| format!("{k}:{}", &t[sp.0..sp.1])).collect() };
        let n = names("Funds moved through Banco de Desarrollo Económico y Social de Venezuela and Los Comités Locales de Abastecimiento y Producción.");
        assert!(n.iter().filter(|x| x.contains("Banco") || x.contains("Comités")).all(|x| x.starts_with("Organization:")) && n.iter().any(|x| x.contains("Banco")), "{n:?}");
    }

    #[test]
    fn named_classes_are_the_model_files() {
        assert_eq!((CLASSES[O], CLASSES[B_ORG], CLASSES[I_ORG]), ("O", "B-ORG", "I-ORG"));
    }

    #[test]
    fn a_run_goes_on_over_capitals_and_connectors_before_one() {
        let t = "He saw the Bank of New York and Mellon, then left for Paris";
        let p = prepare(t, (0, t.len()));
        let words = toks(t);
        let head = |w: &str| {
            let i = words.iter().position(|x| *x == w).unwrap_or(usize::MAX);
            words[i + p.info[i].to_head as usize]
        };
        // "and" joins "York" to "Mellon"; the comma ends the run; a lone word is its own head.
        assert_eq!((head("Bank"), head("New"), head("Mellon"), head("Paris"), head("He")), ("Mellon", "Mellon", "Mellon", "Paris", "He"));
    }

    #[test]
    fn tokens_keep_abbreviations_and_split_possessives() {
        assert_eq!(toks("Acme Inc. paid Mr. R. Smith's U.S. unit $5."), ["Acme", "Inc.", "paid", "Mr.", "R.", "Smith", "'s", "U.S.", "unit", "$", "5", "."]);
        assert_eq!(toks("O'Brien, AT&T and Coca-Cola (\"Coke\")."), ["O'Brien", ",", "AT&T", "and", "Coca-Cola", "(", "\"", "Coke", "\"", ")", "."]);
        assert_eq!(toks("Société Générale’s"), ["Société", "Générale", "’s"]);
    }

    /// The one-pass reading of an ASCII word and its byte-sliced affixes equal the general
    /// definitions.
    #[test]
    fn ascii_letters_equal_the_general_reading() {
        let words = [
            "",
            "a",
            "A",
            "Acme",
            "McAlister",
            "iTunes",
            "U.S.",
            "III",
            "LeGall",
            "x1",
            "R2-D2",
            "ABCdefGHIjklMNOpqrSTU1-2_3",
            "&",
            ",",
            "'s",
            "ABC",
            "A1",
            "aB",
            "ab.cd.ef.gh.ij",
            "\0",
            "a\0b",
        ];
        for w in words {
            assert_eq!(letters(w), letters_general(w), "{w:?}");
            assert_eq!(affixes(w), affixes_general(w), "{w:?}");
        }
        // Every short word over a small alphabet.
        let alphabet = ['a', 'Z', '1', '.', '-'];
        let mut n = 0;
        for len in 1..=5u32 {
            for code in 0..5usize.pow(len) {
                let mut c = code;
                let w: String = (0..len)
                    .map(|_| {
                        let ch = alphabet[c % 5];
                        c /= 5;
                        ch
                    })
                    .collect();
                assert_eq!(letters(&w), letters_general(&w), "{w:?}");
                assert_eq!(affixes(&w), affixes_general(&w), "{w:?}");
                n += 1;
            }
        }
        assert_eq!(n, 5 + 25 + 125 + 625 + 3125);
    }

    #[test]
    fn the_builtin_model_loads_and_round_trips() {
        let m = &*BUILTIN;
        assert!(m.about.contains("TextGraph NER"), "{}", m.about);
        let pairs = vec![(42u64, [1i32, -2, 3, 0, 0, 0, 0, 0, 30_000])];
        let bytes = Model::write(&pairs, "x", 7);
        let back = Model::read(&bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.lookup(42), Some(&[1, -2, 3, 0, 0, 0, 0, 0, 30_000]));
        assert_eq!(back.margin, 7);
        assert!(Model::read(b"not a model at all").is_err());
        assert!(Model::read(&bytes[..bytes.len() - 1]).is_err());
    }

    /// A person's run of words with "and" or "&" in it is two names: the tagger's run
    /// "Mac and Claude Mac" (two aliases) is cut at the connector; an organisation's is not.
    #[test]
    fn a_persons_name_holds_no_and() {
        let t = "Claude Shaw aka Mac and Claude Mac, a citizen.";
        let p = prepare(t, (0, t.len()));
        // Claude Shaw aka Mac and Claude Mac , a citizen .
        let tags = [1, 2, 0, 1, 2, 2, 2, 0, 0, 0, 0];
        let got: Vec<(&str, &str)> = spans(t, &p, &tags).into_iter().map(|(s, k)| (&t[s.0..s.1], k)).collect();
        assert_eq!(got, [("Claude Shaw", "Person"), ("Mac", "Person"), ("Claude Mac", "Person")]);
        let t = "Smith & Jones sued Acme Trading and Research.";
        let p = prepare(t, (0, t.len()));
        // Smith & Jones sued Acme Trading and Research .
        let got: Vec<(&str, &str)> = spans(t, &p, &[1, 2, 2, 0, 3, 4, 4, 4, 0]).into_iter().map(|(s, k)| (&t[s.0..s.1], k)).collect();
        assert_eq!(got, [("Smith", "Person"), ("Jones", "Person"), ("Acme Trading and Research", "Organization")]);
    }

    /// The names of `t` tagged `tags` after `join` has joined what it joins.
    fn joined(t: &str, tags: &[usize], join: fn(&Prepared, &mut [usize])) -> Vec<(String, &'static str)> {
        let p = prepare(t, (0, t.len()));
        let mut tags = tags.to_vec();
        join(&p, &mut tags);
        spans(t, &p, &tags).into_iter().map(|(s, k)| (t[s.0..s.1].to_string(), k)).collect()
    }

    /// An institution's name goes on over "of the" and the words the tagger left out; not
    /// over a name of several words of its own, nor after a word that heads no body.
    #[test]
    fn an_institution_goes_on_over_of_the() {
        let read = |t: &str, tags: &[usize]| joined(t, tags, join_an_institution_of_the);
        let org = |s: &str| (s.to_string(), "Organization");
        // U.S. Department of the Treasury said so .
        assert_eq!(read("U.S. Department of the Treasury said so.", &[3, 4, 0, 0, 3, 0, 0, 0]), [org("U.S. Department of the Treasury")]);
        // the Office of the Comptroller of the Currency .
        assert_eq!(read("the Office of the Comptroller of the Currency.", &[0, 3, 0, 0, 0, 0, 0, 0, 0]), [org("Office of the Comptroller of the Currency")]);
        // the Field Office of the Internal Revenue Service .
        assert_eq!(read("the Field Office of the Internal Revenue Service.", &[0, 3, 4, 0, 0, 3, 4, 4, 0]), [org("Field Office"), org("Internal Revenue Service")]);
        // Acme Holdings of the Bahamas: "Holdings" heads no body that is "of" a place.
        assert_eq!(read("Acme Holdings of the Bahamas paid.", &[3, 4, 0, 0, 5, 0, 0]), [org("Acme Holdings"), ("Bahamas".to_string(), "Location")]);
        // The head's "of the" before a person is no complement.
        assert_eq!(read("Acme Bank of the Ravindra Kowalczyk.", &[3, 4, 0, 0, 1, 2, 0]), [org("Acme Bank"), ("Ravindra Kowalczyk".to_string(), "Person")]);
    }

    /// A generation after a person's name is the name's; a place run over a person's name
    /// and "of" is the person and the place, and a place's name with "of" stays one.
    #[test]
    fn a_generation_joins_and_a_person_of_a_place_splits() {
        let per = |s: &str| (s.to_string(), "Person");
        let loc = |s: &str| (s.to_string(), "Location");
        // Paul R. Toth Jr. , 41 , was sentenced .
        assert_eq!(joined("Paul R. Toth Jr., 41, was sentenced.", &[1, 2, 2, 0, 0, 0, 0, 0, 0, 0], join_a_generation), [per("Paul R. Toth Jr.")]);
        // After no person's name it stays out: He left Paris Jr. said .
        assert_eq!(joined("He left Paris Jr. said.", &[0, 0, 5, 0, 0, 0], join_a_generation), [loc("Paris")]);
        // Amelia Ward of the Division of Enforcement . (the tagger: PER over "of", MISC after)
        assert_eq!(joined("Amelia Ward of the Division of Enforcement.", &[1, 2, 2, 8, 8, 8, 8, 0], end_a_person_before_of), [per("Amelia Ward")]);
        // Duke of Wellington spoke . (a person's name over "of" stays whole)
        assert_eq!(joined("Duke of Wellington spoke.", &[1, 2, 2, 0, 0], end_a_person_before_of), [per("Duke of Wellington")]);
        // Ann Lee of Acme Bank Corp . (the rest is its own name, of its last word's type)
        assert_eq!(joined("Ann Lee of Acme Bank Corp.", &[1, 2, 2, 4, 4, 4, 0], end_a_person_before_of), [per("Ann Lee"), ("Acme Bank Corp.".to_string(), "Organization")]);
        // A town before its state after "of" is a place, whatever the tagger typed it:
        // Bitseedy , 41 , of Anadarko , Oklahoma , was sentenced .
        let read = |t: &str, tags: &[usize]| joined(t, tags, |_, _| {});
        assert_eq!(read("Bitseedy, 41, of Anadarko, Oklahoma, was sentenced.", &[1, 0, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0]), [per("Bitseedy"), loc("Anadarko"), loc("Oklahoma")]);
        // … not a company: an employee of Acme Corp. , Texas-based …
        assert_eq!(read("He was an employee of Acme Corp., Texas said.", &[0, 0, 0, 0, 0, 3, 4, 0, 5, 0, 0]), [("Acme Corp.".to_string(), "Organization"), loc("Texas")]);
        // After a company role and "of", a place no list holds is the company; a listed
        // place or a town before its state stays a place.
        // Guillermo Vogel , CEO of Tamsa .
        assert_eq!(read("Guillermo Vogel, CEO of Tamsa.", &[1, 2, 0, 0, 0, 5, 0]), [per("Guillermo Vogel"), ("Tamsa".to_string(), "Organization")]);
        // He met the Governor of Texas .
        assert_eq!(read("He met the Governor of Texas.", &[0, 0, 0, 0, 0, 5, 0]), [loc("Texas")]);
        // his partner of Powell , Ohio , sued .
        assert_eq!(read("his partner of Powell, Ohio, sued.", &[0, 0, 0, 5, 0, 5, 0, 0, 0]), [loc("Powell"), loc("Ohio")]);
        let split = |t: &str, tags: &[usize]| joined(t, tags, split_a_person_from_their_place);
        // Lamesha Conley of Chicago , Illinois , pleaded guilty .
        assert_eq!(split("Lamesha Conley of Chicago, Illinois, pleaded guilty.", &[5, 6, 6, 6, 0, 5, 0, 0, 0, 0]), [per("Lamesha Conley"), loc("Chicago"), loc("Illinois")]);
        // He sailed the Gulf of Mexico and the Isle of Man .
        assert_eq!(split("He sailed the Gulf of Mexico and the Isle of Man.", &[0, 0, 0, 5, 6, 6, 0, 0, 5, 6, 6, 0]), [loc("Gulf of Mexico"), loc("Isle of Man")]);
    }

    #[test]
    fn transitions_and_spans() {
        assert!(allowed(1, 2) && allowed(3, 2) && !allowed(O, 2) && allowed(O, 1));
        let t = "Boston Trading and Research, LLC sued Lisa P. McAlister.";
        let p = prepare(t, (0, t.len()));
        // Boston Trading and Research , LLC sued Lisa P. McAlister .
        let tags = [3, 4, 4, 4, 4, 4, 0, 1, 2, 2, 0];
        let got: Vec<(&str, &str)> = spans(t, &p, &tags).into_iter().map(|(s, k)| (&t[s.0..s.1], k)).collect();
        assert_eq!(got, [("Boston Trading and Research, LLC", "Organization"), ("Lisa P. McAlister", "Person")]);
        // A later word retypes the name: "United States" begun as a place, "Geological
        // Survey" continued as an organisation, is one organisation.
        let t = "The United States Geological Survey said so.";
        let p = prepare(t, (0, t.len()));
        let got: Vec<(&str, &str)> = spans(t, &p, &[0, 5, 6, 4, 4, 0, 0, 0]).into_iter().map(|(s, k)| (&t[s.0..s.1], k)).collect();
        assert_eq!(got, [("United States Geological Survey", "Organization")]);
    }

    #[test]
    fn a_person_does_not_end_in_a_letter_alone() {
        let t = "The wires are listed in Exhibit A by John Q. Public.";
        let regnal = "George V";
        let q = prepare(regnal, (0, regnal.len()));
        assert_eq!(spans(regnal, &q, &[1, 2]).len(), 1);
        let p = prepare(t, (0, t.len()));
        // The wires are listed in Exhibit A by John Q. Public .
        let got: Vec<&str> = spans(t, &p, &[0, 0, 0, 0, 0, 1, 2, 0, 1, 2, 2, 0]).into_iter().map(|(s, _)| &t[s.0..s.1]).collect();
        assert_eq!(got, ["John Q. Public"]);
    }

    #[test]
    fn a_legal_form_after_a_comma_is_the_whole_names() {
        let read = |t: &str, tags: &[usize]| joined(t, tags, join_before_a_shared_legal_form).into_iter().map(|(n, _)| n).collect::<Vec<_>>();
        // Boston Trading and Research , LLC sued .
        assert_eq!(read("Boston Trading and Research, LLC sued.", &[3, 4, 0, 3, 4, 4, 0, 0]), ["Boston Trading and Research, LLC"]);
        // Without the comma, or when the first has its own legal form, they stay two.
        assert_eq!(read("Boston Trading and Research LLC sued.", &[3, 4, 0, 3, 4, 0, 0]), ["Boston Trading", "Research LLC"]);
        assert_eq!(read("Acme Inc. and Research, LLC sued.", &[3, 4, 0, 3, 4, 4, 0, 0]), ["Acme Inc.", "Research, LLC"]);
    }

    #[test]
    fn a_day_a_month_or_a_currency_alone_is_no_name() {
        let t = "Fri wrote to Ortiz about USD and Quorra";
        let p = prepare(t, (0, t.len()));
        // Fri wrote to Ortiz about USD and Quorra: every capitalised word tagged a name.
        let tags = [1, 0, 0, 1, 0, 3, 0, 3];
        let got: Vec<&str> = spans(t, &p, &tags).into_iter().map(|(s, _)| &t[s.0..s.1]).collect();
        assert_eq!(got, ["Ortiz", "Quorra"]);
        // A payment rail alone is the channel, not a party: "sent by ACH to Quorra".
        let t = "Sent by ACH to Quorra";
        let p = prepare(t, (0, t.len()));
        let got: Vec<&str> = spans(t, &p, &[0, 0, 3, 0, 3]).into_iter().map(|(s, _)| &t[s.0..s.1]).collect();
        assert_eq!(got, ["Quorra"]);
    }

    /// One compound of a bank's or a corporation's word after a long stem is an
    /// institution's; a place's or a surname's short stem is not.
    #[test]
    fn institution_compounds() {
        for w in ["Mosnarbank", "Westernbank", "Pacificorp", "Gazprombank"] {
            assert!(super::institution_compound(w), "{w}");
        }
        for w in ["Burbank", "Eubank", "Fairbanks", "bank", "Westernbank2", "mosnarbank"] {
            assert!(!super::institution_compound(w), "{w}");
        }
    }
}
