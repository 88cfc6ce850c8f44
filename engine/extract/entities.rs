//! Entity mentions: organisations, people, money, accounts, dates, e-mail addresses,
//! phone numbers, crypto wallets and reference numbers, each with its byte span and a
//! normalised key, found by lexicons and patterns — no model, same input same output.
//!
//! Precision comes first: a pattern only fires on a shape or a context that names the
//! type (a legal-form suffix, a title, a currency, an IBAN checksum, a "SWIFT" nearby).

use std::sync::LazyLock;

use regex::Regex;

use tg_text::document::Span;

/// One mention of an entity.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Mention {
    /// Where it is.
    pub span: Span,
    /// Its type (a vocabulary type name).
    pub kind: &'static str,
    /// The normalised key: equal keys are the same entity.
    pub key: String,
    /// The text as written (whitespace collapsed).
    pub surface: String,
    /// Normalised attributes: a Money's `currency`/`amount`, a Date's `iso`.
    pub attrs: Vec<(&'static str, String)>,
}

impl Mention {
    /// Whether the mention is keyed by its own words (`Kind:name key of the surface`), not
    /// by a canonical name or an antecedent's: the key follows the surface when it is cut.
    pub fn keyed_by_surface(&self) -> bool {
        self.key.strip_prefix(self.kind).and_then(|r| r.strip_prefix(':')).is_some_and(|k| k == name_key(&self.surface))
    }
}

/// A regex of this module's kind: `\b` an ASCII word boundary.
pub(super) fn re(p: &str) -> Regex {
    // Word boundaries are ASCII ones: what they delimit here (numbers, codes, English
    // cue words) is ASCII, and a Unicode `\b` makes the regex engine leave its DFA for a
    // much slower search on any non-ASCII text (curly quotes, dashes).
    let p = p.replace(r"\b", r"(?-u:\b)");
    // The patterns are constants of this file; a bad one fails every test at once.
    tg_text::pattern::constant(&p)
}

/// `re`'s captures in `hay` when `on`, else none, without setting a search up (a captures
/// iterator allocates its slots even for an empty text, and most finders are off in most
/// sentences).
fn caps_if<'r, 'h>(re: &'r Regex, on: bool, hay: &'h str) -> std::iter::Flatten<std::option::IntoIter<regex::CaptureMatches<'r, 'h>>> {
    on.then(|| re.captures_iter(hay)).into_iter().flatten()
}

/// `re`'s matches in `hay` when `on`, else none (as [`caps_if`]).
fn matches_if<'r, 'h>(re: &'r Regex, on: bool, hay: &'h str) -> std::iter::Flatten<std::option::IntoIter<regex::Matches<'r, 'h>>> {
    on.then(|| re.find_iter(hay)).into_iter().flatten()
}

/// Cue groups: a finder's patterns can only match a sentence that has one of its group's
/// cue words ([`CUE_WORDS`]), so a finder whose cues are absent is skipped — an exact
/// shortcut, the output is the same.
mod cue {
    pub const CUR_BEFORE: u128 = 1;
    pub const CUR_AFTER: u128 = 1 << 1;
    pub const BIC: u128 = 1 << 2;
    pub const ACCT: u128 = 1 << 3;
    pub const ETH: u128 = 1 << 4;
    pub const BTC: u128 = 1 << 5;
    pub const MONTH: u128 = 1 << 6;
    pub const DASH: u128 = 1 << 7;
    pub const REL: u128 = 1 << 8;
    pub const PHONE: u128 = 1 << 9;
    pub const REF: u128 = 1 << 10;
    pub const ROLE: u128 = 1 << 11;
    pub const SAY: u128 = 1 << 12;
    pub const TITLE: u128 = 1 << 13;
    pub const BY: u128 = 1 << 14;
    pub const PLACE: u128 = 1 << 15;
    pub const ORG: u128 = 1 << 16;
    pub const PRISON: u128 = 1 << 17;
    pub const ALL: u128 = u128::MAX;
}

/// The cue words of each group, each a substring every match of the group's patterns
/// contains: exactly as written when the group's patterns are case-sensitive (`true`),
/// in any case otherwise.
const CUE_WORDS: &[(u128, bool, &[&str])] = &[
    (cue::CUR_BEFORE, true, &["€", "£", "¥", "USD", "EUR", "GBP", "JPY", "CHF", "CNY", "RMB", "AUD", "CAD", "HKD", "SGD", "RUB", "AED", "BTC", "ETH"]),
    (cue::CUR_AFTER, true, &["USD", "EUR", "GBP", "CHF", "JPY", "dollars", "Dollars", "euros", "Euros", "pounds", "yen", "francs"]),
    (cue::BIC, false, &["SWIFT", "BIC"]),
    (cue::ACCT, false, &["account", "acct", "a/c"]),
    (cue::ETH, true, &["0x"]),
    (cue::BTC, true, &["bc1", "BTC"]),
    (cue::BTC, false, &["bitcoin", "wallet"]),
    (cue::MONTH, true, &["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]),
    (cue::REL, false, &["today", "yesterday", "tomorrow", "days"]),
    (cue::PHONE, false, &["tel", "phone", "mobile", "fax"]),
    (cue::REF, true, &["SAR", "STR", "CTR"]),
    (cue::REF, false, &["case", "file", "ref", "release"]),
    (
        cue::ROLE,
        false,
        &[
            "director",
            "executive",
            "controller",
            "CEO",
            "CFO",
            "COO",
            "chair",
            "president",
            "secretary",
            "treasurer",
            "counsel",
            "partner",
            "founder",
            "shareholder",
            "owner",
            "employee",
            "manager",
            "accountant",
            "analyst",
            "officer",
            "signatory",
            "trustee",
            "nominee",
            "broker",
            "representative",
            "adviser",
            "principal",
        ],
    ),
    (cue::TITLE, true, &["Mr", "Ms", "Miss", "Dr", "Prof", "Sir", "Judge", "Dame"]),
    (cue::BY, false, &["by"]),
    (cue::PLACE, true, &["registered", "incorporated", "domiciled", "based", "headquartered", "located"]),
    // Every organisation ends in a legal-form word or is a "Bank of …" ("Bank" is one of them).
    (cue::ORG, true, ORG_SUFFIXES),
    (cue::ORG, true, PREFIX_FORMS),
    (cue::ORG, true, RUSSIAN_FORMS),
    (cue::PRISON, true, &["sentenced"]),
    (cue::SAY, true, &["said", "stated", "told", "wrote", "alleged", "claimed", "denied", "confirmed", "admitted", "testified", "reported", "signed", "approved"]),
];

/// The lanes a [`CueSet`] can answer for at once: the pattern groups of several modules
/// (relations, enforcement, employment) found in one pass over a template.
pub const CUE_LANES: usize = 3;

/// One group of cue words of a [`CueSet`]: the group's bits, and how its words count.
#[derive(Clone, Copy, Debug)]
pub struct CueGroup {
    /// The group's bits (a pattern's own bit, in the pattern modules).
    pub bits: u128,
    /// The words count only as written (else in any ASCII case).
    pub exact: bool,
    /// The words count only as whole words: no ASCII letter, digit or `_` just before or
    /// after (where the group's patterns have the word between `\b`s or spaces).
    pub whole: bool,
    /// The words.
    pub words: &'static [&'static str],
}

/// What a cue word found sets: groups for any occurrence, groups for whole-word ones, and
/// groups for whole-word occurrences spelt exactly so.
#[derive(Clone, Default)]
struct CueBits {
    any: [u128; CUE_LANES],
    whole: [u128; CUE_LANES],
    whole_exact: Vec<(String, [u128; CUE_LANES])>,
}

/// A set of cue words with the groups each belongs to. Two automata, each one overlapping
/// pass over a text: the words of any-case groups matched ASCII case-insensitively, and the
/// words of case-sensitive groups matched exactly as written (short exact cues — "SA",
/// "Mr", "AUD" — would otherwise match inside every other ordinary word and be rejected
/// one by one).
pub struct CueSet {
    any: Option<aho_corasick::AhoCorasick>,
    any_bits: Vec<CueBits>,
    exact: Option<aho_corasick::AhoCorasick>,
    exact_bits: Vec<CueBits>,
    /// An automaton could not be built: every group may match.
    broken: bool,
}

/// An ASCII word byte, as `(?-u:\b)` has it.
fn word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl CueSet {
    /// A set from (group bits, case-sensitive, words); a word listed in several groups
    /// has them all.
    pub fn new(words: &[(u128, bool, &'static [&'static str])]) -> CueSet {
        let groups: Vec<CueGroup> = words.iter().map(|&(bits, exact, words)| CueGroup { bits, exact, whole: false, words }).collect();
        CueSet::with_lanes(&[&groups])
    }

    /// A set answering for several lanes of groups at once ([`CueSet::present_lanes`]):
    /// lane `k`'s groups are `lanes[k]`.
    pub fn with_lanes(lanes: &[&[CueGroup]]) -> CueSet {
        use std::collections::BTreeMap;
        let mut any: BTreeMap<String, CueBits> = BTreeMap::new();
        let mut exact: BTreeMap<String, CueBits> = BTreeMap::new();
        let mut broken = lanes.len() > CUE_LANES;
        for (lane, groups) in lanes.iter().enumerate().take(CUE_LANES) {
            for g in *groups {
                for w in g.words {
                    // A whole-word cue must begin and end with a word byte to be tested so.
                    let whole = g.whole && w.bytes().next().is_some_and(word_byte) && w.bytes().last().is_some_and(word_byte);
                    if g.exact && whole {
                        // In the any-case automaton, its spelling checked: templates then
                        // need one pass only.
                        let e = any.entry(w.to_ascii_lowercase()).or_default();
                        match e.whole_exact.iter_mut().find(|(x, _)| x == w) {
                            Some((_, b)) => b[lane] |= g.bits,
                            None => {
                                let mut b = [0; CUE_LANES];
                                b[lane] = g.bits;
                                e.whole_exact.push((w.to_string(), b));
                            }
                        }
                        continue;
                    }
                    let e = if g.exact { exact.entry(w.to_string()).or_default() } else { any.entry(w.to_ascii_lowercase()).or_default() };
                    if whole {
                        e.whole[lane] |= g.bits;
                    } else {
                        e.any[lane] |= g.bits;
                    }
                }
            }
        }
        let build = |m: &BTreeMap<String, CueBits>, ci: bool, broken: &mut bool| {
            if m.is_empty() {
                return None;
            }
            let ac = aho_corasick::AhoCorasick::builder().ascii_case_insensitive(ci).kind(Some(aho_corasick::AhoCorasickKind::DFA)).build(m.keys()).ok();
            *broken |= ac.is_none();
            ac
        };
        let any_ac = build(&any, true, &mut broken);
        let exact_ac = build(&exact, false, &mut broken);
        CueSet { any: any_ac, any_bits: any.into_values().collect(), exact: exact_ac, exact_bits: exact.into_values().collect(), broken }
    }

    /// The groups with a cue word in `t` (lane 0). Every group when in doubt: when an
    /// automaton could not be built, or when `t` has a character that Unicode case folding
    /// makes an ASCII letter (the Kelvin sign, the long s), which case-insensitive
    /// patterns match.
    pub fn present(&self, t: &str) -> u128 {
        self.present_lanes(t)[0]
    }

    /// The groups with a cue word in `t`, for every lane ([`CueSet::with_lanes`]).
    pub fn present_lanes(&self, t: &str) -> [u128; CUE_LANES] {
        if self.broken || (!t.is_ascii() && (t.contains('\u{212A}') || t.contains('\u{17F}'))) {
            return [cue::ALL; CUE_LANES];
        }
        let b = t.as_bytes();
        let mut bits = [0u128; CUE_LANES];
        for (ac, table) in [(&self.any, &self.any_bits), (&self.exact, &self.exact_bits)] {
            let Some(ac) = ac else { continue };
            for m in ac.find_overlapping_iter(t) {
                let Some(g) = table.get(m.pattern().as_usize()) else { return [cue::ALL; CUE_LANES] };
                let whole = (m.start() == 0 || !word_byte(b[m.start() - 1])) && b.get(m.end()).is_none_or(|&c| !word_byte(c));
                for (k, bit) in bits.iter_mut().enumerate() {
                    *bit |= g.any[k] | if whole { g.whole[k] } else { 0 };
                }
                if whole {
                    for (w, wb) in &g.whole_exact {
                        if b.get(m.start()..m.end()) == Some(w.as_bytes()) {
                            for (bit, x) in bits.iter_mut().zip(wb) {
                                *bit |= x;
                            }
                        }
                    }
                }
            }
        }
        bits
    }
}

/// The cue groups present in a sentence. The one-byte cues (`$`, `-`, `+`) are looked
/// for apart, by a byte search: in the automaton they would make most of its states
/// match states, its slow path.
fn cues(t: &str) -> u128 {
    static SET: LazyLock<CueSet> = LazyLock::new(|| CueSet::new(CUE_WORDS));
    let mut bits = SET.present(t);
    for (byte, groups) in [(b'$', cue::CUR_BEFORE), (b'-', cue::DASH | cue::REF), (b'+', cue::PHONE)] {
        if t.as_bytes().contains(&byte) {
            bits |= groups;
        }
    }
    bits
}

/// Legal-form and institution words that end an organisation's name.
const ORG_SUFFIXES: &[&str] = &[
    "Ltd",
    "Ltd.",
    "Limited",
    "LLC",
    "L.L.C.",
    "LLP",
    "LP",
    "L.P.",
    "Inc",
    "Inc.",
    "Incorporated",
    "Corp",
    "Corp.",
    "Corporation",
    "PLC",
    "plc",
    "GmbH",
    "AG",
    "KG",
    "SE",
    "S.A.",
    "SA",
    // (Peru's closed and open corporations, Colombia's simplified one.)
    "S.A.C.",
    "SAC",
    "S.A.A.",
    "S.A.S.",
    "S.à r.l.",
    "Sàrl",
    "SARL",
    "SAS",
    "S.L.",
    "B.V.",
    "BV",
    "N.V.",
    "NV",
    "Pty",
    "SpA",
    "S.p.A.",
    "Oy",
    "AB",
    "A/S",
    // (Forms of the free zones of the Emirates, of Latin America and of US professional
    // firms, frequent in sanctions and fraud cases; Russia's are [`RUSSIAN_FORMS`].)
    "FZE",
    "FZCO",
    "FZC",
    "FZ-LLC",
    "DMCC",
    "Ltda",
    "Ltda.",
    "SRL",
    "S.R.L.",
    "PLLC",
    "P.L.L.C.",
    "PC",
    "P.C.",
    "P.A.",
    "LLLP",
    "Kft",
    "Kft.",
    "ApS",
    "Bhd",
    "Şti",
    "Şti.",
    "Şirketi",
    "A.Ş.",
    "Holdings",
    "Holding",
    "Trust",
    "Bank",
    "Foundation",
    "Group",
    "Partners",
    "Fund",
    "Co.",
    "Company",
    "Associates",
    "Ventures",
    "Capital",
    "Bancorp",
    "Securities",
];

/// Capitalised words that start sentences or clauses and never begin a name.
const STOP: &[&str] = &[
    "The",
    "A",
    "An",
    "In",
    "On",
    "At",
    "By",
    "For",
    "From",
    "To",
    "With",
    "Between",
    "And",
    "Or",
    "But",
    "If",
    "When",
    "While",
    "After",
    "Before",
    "Since",
    "As",
    "Of",
    "This",
    "That",
    "These",
    "Those",
    "Our",
    "We",
    "Its",
    "His",
    "Her",
    "Their",
    "It",
    "He",
    "She",
    "They",
    "Because",
    "Although",
    "Each",
    "Every",
    "All",
    "Any",
    "Both",
    "Re",
    "Subject",
    "Date",
    "To:",
    "From:",
    "Dear",
    "Per",
    "Via",
    "According",
    "Mr",
    "Mrs",
    "Ms",
    "Dr",
    "However",
    "Then",
    "Also",
    "Thus",
    "Yes",
    "No",
    "OK",
    "Please",
    "Summary",
    "See",
    "Exhibit",
    "Section",
    "Chief",
    "Executive",
    "Officer",
    "President",
    "Vice",
    "Senior",
    "Former",
    "Chairman",
    "Director",
    "CEO",
    "CFO",
    "COO",
    "Judge",
    "Court",
    "District",
    "Board",
    "Directors",
    "Minutes",
    "Meeting",
    "Committee",
    "Department",
    "Office",
    "Division",
    "Payee",
    "Due",
    "Did",
    "Does",
    "Do",
    "Is",
    "Was",
    "Were",
    "Are",
    "Has",
    "Have",
    "Had",
    "Who",
    "What",
    "Why",
    "How",
    "Where",
    "Which",
    "Will",
    "Would",
    "Should",
    "Can",
    "Could",
    "May",
    "Might",
    "Must",
    "Shall",
    "Under",
    "Over",
    "Into",
    "Onto",
    "Against",
    "Through",
    "During",
    "Without",
    "Within",
    "Among",
    "Upon",
    "About",
    "Not",
];

/// Roles and document words: before "of" they name what follows ("Director of Acme Inc.",
/// "Certificate of Formation of Beta LLC") and are never part of an organisation's name.
const TITLES: &[&str] = &[
    "Director",
    "Directors",
    "Officer",
    "President",
    "Chairman",
    "Chairwoman",
    "Chair",
    "Secretary",
    "Treasurer",
    "Manager",
    "Counsel",
    "Founder",
    "Member",
    "Head",
    "Executive",
    "Employee",
    "Shareholder",
    "Shareholders",
    "Trustee",
    "Controller",
    "Partner",
    "Principal",
    "Chief",
    "Vice",
    "Certificate",
    "Articles",
    "Formation",
    "Incorporation",
    "Acquisition",
    "Merger",
    "Subsidiary",
    "Affiliate",
    "Affiliates",
    "Division",
    "Certification",
    "Bylaws",
];

/// Words that name a party's role in a contract or a kind of company, capitalised as
/// defined terms ("the Borrower Company", "an Investment Company"): not names.
const PARTY_NOUNS: &[&str] = &[
    "Borrower",
    "Borrowers",
    "Lender",
    "Lenders",
    "Guarantor",
    "Guarantors",
    "Parent",
    "Beneficiary",
    "Intermediary",
    "Correspondent",
    "Issuing",
    "Paying",
    "Agent",
    "Administrative",
    "Collateral",
    "Investment",
    "Operating",
    "Acquiring",
    "Surviving",
    "Depositary",
    "Custodian",
    "Receiving",
    "Sending",
    "Originating",
    "Remitting",
];

/// Legal-form and institution words that open a name in French, Spanish, Italian and
/// Portuguese ("Société Générale", "Banco Santander").
const PREFIX_FORMS: &[&str] = &["Société", "Societe", "Sociedad", "Società", "Sociedade", "Compagnie", "Compañía", "Banco", "Banca", "Banque", "Caisse", "Crédit"];

/// Legal forms of Russia and its neighbours, which open a name ("PJSC Sberbank", "OOO
/// Stroytransgaz") or end it ("Gazprom PJSC"): both a [`PREFIX_FORMS`] word and a suffix.
const RUSSIAN_FORMS: &[&str] = &["JSC", "OJSC", "PJSC", "CJSC", "OOO", "ZAO", "OAO"];

/// Legal forms written as abbreviations: a name ending in one is a name even when every
/// other word is a legal-form word too.
const LEGAL_ABBREVIATIONS: &[&str] = &[
    "Ltd", "LLC", "L.L.C", "LLP", "L.L.P", "LP", "L.P", "Inc", "Corp", "PLC", "plc", "GmbH", "AG", "KG", "SE", "S.A", "SA", "SARL", "SAS", "S.L", "B.V", "BV", "N.V", "NV", "Pty",
    "SpA", "S.p.A", "Oy", "AB", "A/S", "AS", "Sàrl", "S.à r.l", "Co", "FZE", "FZCO", "FZC", "FZ-LLC", "DMCC", "Ltda", "SRL", "S.R.L", "PLLC", "P.L.L.C", "PC", "P.C", "P.A",
    "LLLP", "Kft", "ApS", "Bhd", "Şti", "A.Ş", "S.A.C", "SAC", "S.A.A", "S.A.S",
];

/// Whether a word (its final period dropped) is a legal form written as an abbreviation:
/// [`LEGAL_ABBREVIATIONS`] or one of [`RUSSIAN_FORMS`].
pub(crate) fn is_legal_abbreviation(w: &str) -> bool {
    LEGAL_ABBREVIATIONS.contains(&w) || RUSSIAN_FORMS.contains(&w)
}

/// Whether a word is a legal-form or institution word ([`ORG_SUFFIXES`]), by hash.
fn is_suffix(w: &str) -> bool {
    // Every suffix starts with a capital but "plc", and none is longer than 12 bytes: most
    // words need no hash.
    // (A non-ASCII capital opens the Turkish forms: "Şti.", "Şirketi".)
    if w.len() > 12 || !w.as_bytes().first().is_some_and(|b| b.is_ascii_uppercase() || *b == b'p' || *b >= 0x80) {
        return false;
    }
    static SET: LazyLock<hashbrown::HashSet<&'static str>> = LazyLock::new(|| ORG_SUFFIXES.iter().chain(RUSSIAN_FORMS).copied().collect());
    SET.contains(w)
}

/// Whether a word of a name written in capitals is a legal-form or institution word
/// ([`ORG_SUFFIXES`]) as written ("LLC", "L.P.") or in title case ("INC." for "Inc.").
pub(crate) fn is_legal_form_in_capitals(w: &str) -> bool {
    if is_suffix(w) {
        return true;
    }
    let mut chars = w.chars();
    let title: String = chars.next().into_iter().chain(chars.flat_map(char::to_lowercase)).collect();
    is_suffix(&title)
}

/// Whether a word never begins a name ([`STOP`]), as written or in capitals ("The",
/// "THE"), by hash; nor does an amount's magnitude in a headline's capitals ("$750 Million
/// Securities Fraud", "Billion-Dollar": [`crate::ner::MAGNITUDES`]).
fn is_stop(w: &str) -> bool {
    static SET: LazyLock<hashbrown::HashSet<String>> = LazyLock::new(|| STOP.iter().flat_map(|s| [s.to_string(), s.to_uppercase()]).collect());
    // (The magnitudes open with m, b or t: most words are not tested further.)
    let magnitude = || w.as_bytes().first().is_some_and(|b| matches!(b.to_ascii_lowercase(), b'm' | b'b' | b't'));
    SET.contains(w) || magnitude() && (crate::ner::MAGNITUDES.iter().any(|m| w.eq_ignore_ascii_case(m)) || crate::ner::magnitude_compound(w))
}

const MONTHS: [&str; 12] = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/// Whether a word names a month in a date's way: in full ("March", "May") or abbreviated
/// with its period ("Mar."); a bare "Mar" or "Jun" is a name's word ("Inversiones Mar
/// Caribe SRL", "Jun Li Trading Ltd").
fn month_word(word: &str) -> bool {
    month_number(word).is_some() && (word.ends_with('.') || MONTHS.iter().any(|m| m.eq_ignore_ascii_case(word)))
}

fn month_number(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_lowercase();
    if w.len() < 3 {
        return None;
    }
    MONTHS.iter().position(|m| m.starts_with(&w) && (w.len() >= 3) && (w.len() == m.len() || w.len() <= 4)).map(|i| i as u32 + 1)
}

/// Whether an ASCII byte is whitespace as `char::is_whitespace` has it (which, unlike
/// `u8::is_ascii_whitespace`, counts the vertical tab).
fn ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r')
}

/// The words of ASCII `s` (split at whitespace, and at `,` when `comma`) joined by one
/// space, each byte mapped by `map`: `collapse` and `name_key` on ASCII text, in one pass
/// over bytes.
fn join_ascii_words(s: &str, comma: bool, map: fn(u8) -> u8) -> String {
    let mut out: Vec<u8> = Vec::with_capacity(s.len());
    let mut gap = false;
    for &b in s.as_bytes() {
        if ascii_space(b) || (comma && b == b',') {
            gap = !out.is_empty();
        } else {
            if gap {
                out.push(b' ');
                gap = false;
            }
            out.push(map(b));
        }
    }
    // ASCII in, ASCII out: always UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// Collapses whitespace runs to one space.
pub fn collapse(s: &str) -> String {
    // One string built in place (as `split_whitespace().collect().join(" ")` would give):
    // extraction calls this for every name it finds. ASCII text by bytes.
    if s.is_ascii() {
        return join_ascii_words(s, false, |b| b);
    }
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// The key of a name: lower case, whitespace collapsed, commas and final dots dropped, an
/// HTML-escaped ampersand read as one ("Smith &amp; Co." is "Smith & Co.": releases scraped
/// from the web keep the escape in their text).
pub fn name_key(s: &str) -> String {
    if s.contains("&amp;") {
        return name_key(&s.replace("&amp;", "&"));
    }
    if s.is_ascii() {
        // The same steps in one pass: commas as spaces, runs collapsed, lower case; then
        // the final dots.
        let mut k = join_ascii_words(s, true, |b| b.to_ascii_lowercase());
        let keep = k.trim_end_matches('.').len();
        k.truncate(keep);
        return k;
    }
    collapse(&s.replace(',', " ")).trim_end_matches('.').to_lowercase()
}

/// A word of the text with its span.
#[derive(Clone, Copy, Debug)]
struct Word<'a> {
    text: &'a str,
    start: usize,
    end: usize,
}

fn words(text: &str, (s, e): Span) -> Vec<Word<'_>> {
    // A letter or digit and the letters, digits and `&'’.-/` after it; or a lone `&` (also
    // written `&amp;`, as text scraped from HTML keeps it).
    // (Scanned by hand, bytes for ASCII and chars otherwise: a regex here was a tenth of
    // extraction's time.)
    let t = &text[s..e];
    let b = t.as_bytes();
    // The char at a char boundary `i` with its length.
    let char_at = |i: usize| t[i..].chars().next().map_or((' ', 1), |c| (c, c.len_utf8()));
    let mut out = Vec::with_capacity(b.len() / 6 + 1);
    let mut i = 0;
    while i < b.len() {
        let (first, len) = if b[i] < 0x80 { (b[i] as char, 1) } else { char_at(i) };
        if first == '&' {
            if t[i..].starts_with("&amp;") {
                out.push(Word { text: "&", start: s + i, end: s + i + 5 });
                i += 5;
            } else {
                out.push(word(t, s, i, i + 1));
                i += 1;
            }
            continue;
        }
        if !first.is_alphanumeric() {
            i += len;
            continue;
        }
        let start = i;
        i += len;
        while i < b.len() {
            let (d, len) = if b[i] < 0x80 { (b[i] as char, 1) } else { char_at(i) };
            if d.is_alphanumeric() || matches!(d, '&' | '\'' | '’' | '.' | '-' | '/') {
                i += len;
            } else {
                break;
            }
        }
        out.push(word(t, s, start, i));
    }
    out
}

/// The word `t[a..b]` (`t` starting at `s` in the text): a trailing dot kept only for known
/// abbreviations ("Inc.", "S.A."), a possessive dropped ("Gamma Holdings's director").
fn word(t: &str, s: usize, a: usize, b: usize) -> Word<'_> {
    let mut t = &t[a..b];
    let mut end = s + b;
    let initial = t.len() == 2 && t.chars().next().is_some_and(char::is_uppercase);
    if t.ends_with('.') && !is_suffix(t) && !initial && !t[..t.len() - 1].contains('.') {
        t = &t[..t.len() - 1];
        end -= 1;
    }
    if t.as_bytes().last().is_some_and(|l| matches!(l, b's' | b'\'' | 0x99)) {
        for poss in ["'s", "’s", "'", "’"] {
            if t.len() > poss.len() && t.ends_with(poss) {
                t = &t[..t.len() - poss.len()];
                end -= poss.len();
                break;
            }
        }
    }
    Word { text: t, start: s + a, end }
}

fn capitalised(w: &str) -> bool {
    w.chars().next().is_some_and(char::is_uppercase)
}

/// Organisations: capitalised words ending in a legal-form suffix ("Acme Trading Ltd",
/// "Delta Freight, Inc.", "Bank of Cyprus").
fn organisations(text: &str, ws: &[Word<'_>], out: &mut Vec<Mention>) {
    let mut i = 0;
    while i < ws.len() {
        let w = ws[i];
        // A legal form or institution word that opens the name ("Société Générale", "Banco
        // Santander", "Compagnie Financière Tradition"): it and the capitalised words after
        // it on the same line.
        if (PREFIX_FORMS.contains(&w.text) || RUSSIAN_FORMS.contains(&w.text))
            && ws.get(i + 1).is_some_and(|n| capitalised(n.text) && !is_stop(n.text) && text[w.end..n.start].trim().is_empty() && !text[w.end..n.start].contains('\n'))
        {
            let mut j = i + 1;
            while ws.get(j + 1).is_some_and(|n| capitalised(n.text) && !is_stop(n.text) && text[ws[j].end..n.start].trim().is_empty() && !text[ws[j].end..n.start].contains('\n'))
                && j < i + 4
            {
                j += 1;
            }
            push_org(text, w.start, ws[j].end, out);
            i = j + 1;
            continue;
        }
        // "Bank of Cyprus", "Bank of New York Mellon"
        if w.text == "Bank" && ws.get(i + 1).is_some_and(|n| n.text == "of") && ws.get(i + 2).is_some_and(|n| capitalised(n.text)) {
            let mut j = i + 2;
            // Only across spaces on one line: "Bank of Lindsay (FNBL)" ends at "Lindsay".
            while ws.get(j + 1).is_some_and(|n| capitalised(n.text) && !is_stop(n.text) && text[ws[j].end..n.start].trim().is_empty() && !text[ws[j].end..n.start].contains('\n'))
                && j < i + 5
            {
                j += 1;
            }
            // Capitalised words before it on the same line are part of the name ("Royal Bank of Canada").
            let mut b = i;
            while b > 0 && i - b < 3 {
                let p = ws[b - 1];
                let gap = &text[p.end..ws[b].start];
                if !gap.trim().is_empty() || gap.contains(['\n', '\r', '\t']) || !capitalised(p.text) || is_stop(p.text) || TITLES.contains(&p.text) || month_word(p.text) {
                    break;
                }
                b -= 1;
            }
            push_org(text, ws[b].start, ws[j].end, out);
            i = j + 1;
            continue;
        }
        if is_suffix(w.text) && i > 0 {
            // Walk back over capitalised words (and "&", "and", "of" between them).
            let mut k = i;
            let mut first = None;
            while k > 0 && i - k < 6 {
                let p = ws[k - 1];
                // "Delta Freight, Inc.": a comma between the name and its suffix.
                let gap = &text[p.end..ws[k].start];
                // Words of one name sit on one line, or on two lines of hard-wrapped prose; a
                // tab or a short line (a table cell, a heading) ends it.
                let spaces = !gap.contains('\t')
                    && match gap.matches('\n').count() {
                        0 => true,
                        1 => {
                            let line_start = text[..p.end].rfind('\n').map_or(0, |i| i + 1);
                            p.end - line_start >= 40
                        }
                        _ => false,
                    };
                // "Stifel, Nicolaus & Company, Incorporated", "Fenner, Pierce & Smith Inc.": a
                // firm named by partners' names joins them with commas before an `&`.
                let partners = gap.trim() == ","
                    && first == Some(k)
                    && (k..i).any(|j| firm_joint(ws, j))
                    && capitalised(p.text)
                    && !is_suffix(p.text)
                    && !is_stop(p.text)
                    && !TITLES.contains(&p.text);
                if !spaces || !(gap.trim().is_empty() || (gap.trim() == "," && k == i) || partners) {
                    break;
                }
                // "… by Orion Nominees Ltd. Orion Nominees Ltd is …": an abbreviated legal form
                // with its full stop ends the name before it (the sentence splitter keeps
                // "Ltd. Orion" together, as it must for "Ltd. and").
                if p.text.ends_with('.') && is_suffix(p.text) {
                    break;
                }
                // ("UAE-registered Zarrin Falak LLC", "Istanbul-based Anadolu Ltd.": a compound
                // modifier says where the company is, it is no word of its name.)
                if capitalised(p.text) && !is_stop(p.text) && !month_word(p.text) && crate::ner::modifier_compound_head(p.text).is_none() {
                    first = Some(k - 1);
                } else if p.text == "of" && k >= 2 && TITLES.contains(&ws[k - 2].text) {
                    // "Director of Acme Inc.": a role or a document names what follows, it is not part of it.
                    break;
                } else if (matches!(p.text, "&" | "of" | "de" | "du" | "van" | "von" | "der") && first.is_some()) || firm_joint(ws, k - 1) {
                    // ("Smith & Co.", "Nicolaus and Company": the joint of a firm's name may
                    // stand right before the legal form.)
                } else {
                    break;
                }
                k -= 1;
            }
            // Connectors, roles and contract parties cannot start a name ("Director Bizexpress
            // Limited" in a signature block, "Borrower Company", "Investment Company").
            if let Some(mut f) = first {
                while f < i && (!capitalised(ws[f].text) || TITLES.contains(&ws[f].text) || PARTY_NOUNS.contains(&ws[f].text)) {
                    f += 1;
                }
                // Two suffixes in a row ("Holdings Ltd", "Nolan & Co., Inc."): one organisation.
                let mut end = i;
                while ws.get(end + 1).is_some_and(|n| {
                    let gap = text[ws[end].end..n.start].trim();
                    is_suffix(n.text) && (gap.is_empty() || (gap == "," && is_legal_abbreviation(n.text.trim_end_matches('.'))))
                }) {
                    end += 1;
                }
                // A name of legal-form words only ("Holding Company", "Bank Holding Company") is a
                // common noun phrase unless it ends in an abbreviated form ("Capital Partners LLC").
                let generic = ws[f..=end].iter().all(|w| is_suffix(w.text)) && !ws[f..=end].iter().any(|w| is_legal_abbreviation(w.text.trim_end_matches('.')));
                // A law's name goes on past the legal-form word ("the Bank Secrecy Act",
                // "the Bank Holding Company Act"): no organisation.
                let mut k = end;
                while k < end + 4 && ws.get(k + 1).is_some_and(|n| capitalised(n.text) && text[ws[k].end..n.start] == *" ") {
                    k += 1;
                }
                let law = k > end && matches!(ws[k].text, "Act" | "Acts" | "Regulation" | "Regulations" | "Rule" | "Rules" | "Code");
                if law {
                    i = k + 1;
                    continue;
                }
                // ("PC" without its periods ends a professional corporation's name of two words
                // or more, "Haddad Medical PC"; after one word it is a computer, "Shared PC".)
                let computer = w.text == "PC" && i - f < 2;
                if f < i && !generic && !computer {
                    push_org(text, ws[f].start, ws[end].end, out);
                    i = end + 1;
                    continue;
                }
            }
        }
        i += 1;
    }
}

/// Firms named by their partners' surnames: three or more, commas between them and "&"
/// before the last ("Robinson, Silverman, Pearce, Aronsohn & Berman", "Taylor, Bean &
/// Whitaker", "Baxter, Banks, & Smith"). Each name is one capitalised word, a listed surname
/// or no English word (not "Aircraft, Avionics, Parts & Support"); people listed are
/// joined by "and", a firm's partners by "&".
fn partner_firms(text: &str, ws: &[Word<'_>], out: &mut Vec<Mention>) {
    let partner = |w: &Word<'_>| {
        let mut cs = w.text.chars();
        cs.next().is_some_and(char::is_uppercase)
            && cs.all(|c| c.is_lowercase() || c == '\'' || c == '’' || c == '-')
            && w.text.chars().count() >= 2
            && !is_stop(w.text)
            && month_number(w.text).is_none()
            && (super::ner::is_listed_surname(w.text) || !super::ner::is_english_word(w.text))
    };
    let gap = |a: &Word<'_>, b: &Word<'_>| &text[a.end..b.start];
    let mut i = 0;
    while i < ws.len() {
        if !partner(&ws[i]) {
            i += 1;
            continue;
        }
        // Partners after commas, then "&" (after a comma or not) and the last partner.
        let mut j = i;
        let mut commas = 0;
        while ws.get(j + 1).is_some_and(|n| partner(n) && gap(&ws[j], n).trim_end_matches(' ') == ",") {
            j += 1;
            commas += 1;
        }
        let amp = ws.get(j + 1).is_some_and(|n| matches!(n.text, "&" | "&amp;") && matches!(gap(&ws[j], n), " " | ", "));
        let last = ws.get(j + 2).filter(|n| amp && partner(n) && gap(&ws[j + 1], n) == " ");
        if let (true, Some(last)) = (commas >= 1, last) {
            push_org(text, ws[i].start, last.end, out);
            i = j + 3;
        } else {
            i = j + 1;
        }
    }
}

fn push_org(text: &str, s: usize, mut e: usize, out: &mut Vec<Mention>) {
    // "… to Beta Ltd." — the sentence's full stop is not part of the name.
    if text[..e].ends_with('.') {
        let next = text[e..].trim_start();
        if next.is_empty() || next.starts_with(|c: char| c.is_uppercase()) || text[e..].starts_with('\n') {
            e -= 1;
        }
    }
    // "Acme Trading Ltd (UK)": a short parenthesised discriminator right after the name is
    // part of it; "Acme Ltd (UK)" and "Acme Ltd (US)" may be different companies.
    let rest = &text[e..];
    if let Some(inner) = rest.strip_prefix(" (").and_then(|r| r.split_once(')')).map(|(i, _)| i)
        && (2..=12).contains(&inner.len())
        && inner.starts_with(|c: char| c.is_ascii_uppercase())
        && inner.chars().all(|c| c.is_ascii_alphabetic() || c == '.' || c == ' ')
        && !inner.contains("the")
        && !own_short_name(&text[s..e], inner)
        && !own_short_name(&text[name_run_start(text, s)..e], inner)
    {
        e += 2 + inner.len() + 1;
    }
    let surface = collapse(&text[s..e]);
    out.push(Mention { span: (s, e), kind: "Organization", key: format!("Organization:{}", name_key(&surface)), surface, attrs: vec![] });
}

/// Where the run of capitalised words and joints ("and", "of", "&") that ends right
/// before `s` on its line begins (at most eight words back): the longer name a finder may
/// have cut ("Imperial Integrative Health Research and" before "Development LLC"), whose
/// short form a bracket after it may give ("(Imperial)").
fn name_run_start(text: &str, s: usize) -> usize {
    let mut start = s;
    for _ in 0..8 {
        let before = &text[..start];
        let trimmed = before.trim_end_matches(' ');
        if trimmed.len() == before.len() || trimmed.is_empty() {
            break;
        }
        let w = trimmed.rsplit(|c: char| c.is_whitespace()).next().unwrap_or("");
        if !(w.starts_with(|c: char| c.is_uppercase()) || matches!(w, "and" | "of" | "&")) || w.ends_with([',', ';', '.', ':']) {
            break;
        }
        start = trimmed.len() - w.len();
    }
    // Not a joint at its start.
    while let Some(rest) = ["and ", "of ", "& "].iter().find_map(|j| text[start..s].strip_prefix(j)) {
        start = s - rest.len();
    }
    start
}

/// Whether word `j` joins a firm's name: an `&`, or "and" before a partnership word
/// ("Nicolaus and Company", "Smith and Associates"), where it joins names, not two parties.
fn firm_joint(ws: &[Word<'_>], j: usize) -> bool {
    match ws[j].text {
        "&" => true,
        "and" => ws.get(j + 1).is_some_and(|n| matches!(n.text, "Company" | "Co." | "Associates" | "Partners" | "Sons")),
        _ => false,
    }
}

/// Whether `inner` is the name's own short form ("BellSouth Corporation (BellSouth)", "Acme
/// Trading Ltd (ATL)"): a defined term, not a discriminator like "(UK)" that belongs to the
/// name.
fn own_short_name(name: &str, inner: &str) -> bool {
    let short: String = inner.chars().filter(|c| c.is_alphabetic()).flat_map(char::to_lowercase).collect();
    let letters: String = name.chars().filter(|c| c.is_alphabetic()).flat_map(char::to_lowercase).collect();
    let initials: String = name.split_whitespace().filter_map(|w| w.chars().next()).filter(|c| c.is_alphabetic()).flat_map(char::to_lowercase).collect();
    // Every word's initial with a dotted form's letters ("Petroleos de Venezuela
    // S.A." is "PDVSA").
    let spelt = || -> String {
        name.split_whitespace()
            .flat_map(|w| {
                let w = w.trim_matches(|c: char| !c.is_alphanumeric());
                let dotted = w.contains('.') && w.split('.').all(|p| p.chars().count() <= 2);
                let n = if dotted { w.len() } else { w.chars().next().map_or(0, char::len_utf8) };
                w[..n].chars().filter(|c| c.is_alphabetic()).flat_map(char::to_lowercase).collect::<Vec<_>>()
            })
            .collect()
    };
    // A short name may be words of the name from its middle ("Construtora Vale Alto S.A."
    // is "Vale Alto"), or open with one of its words ("Acme Holdings S.A." is "Acme
    // Group"); a discriminator of one word is not ("Acme Asia Ltd (Asia)" stays one name).
    let name_words: Vec<String> = name.split_whitespace().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase()).collect();
    let inner_words: Vec<String> = inner.split_whitespace().map(str::to_lowercase).collect();
    let from_its_words = inner_words.len() >= 2 && inner_words.first().is_some_and(|f| name_words.contains(f));
    // Acronyms pass over the small words: "First National Bank of Lindsay" is "FNBL".
    short.len() >= 2
        && (from_its_words
            || letters.starts_with(&short)
            || initials.starts_with(&short)
            || spelt() == short
            || (short.len() >= 3 && super::acronyms::spells_capitals(name, inner)))
}

/// People named with a title ("Mr. John Doe", "Dr Lena Ortiz").
fn titled_people(text: &str, sentence: Span, cues: u128, out: &mut Vec<Mention>) {
    static T: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:Mr|Mrs|Ms|Miss|Dr|Prof|Sir|Judge|Dame)\.?\s+((?:\p{Lu}[\p{L}'’\-]+\s+){0,2}\p{Lu}[\p{L}'’\-]+)"));
    let (s, e) = sentence;
    for c in caps_if(&T, cues & cue::TITLE != 0, &text[s..e]) {
        if let Some(m) = c.get(1) {
            push_person(text, s + m.start(), s + m.end(), out);
        }
    }
}

/// Adds the person named by `text[s..e]`, without a possessive's ending ("Judge Wood's
/// decision", "Mr. Drescher's friends": the person is Wood, Drescher).
fn push_person(text: &str, s: usize, e: usize, out: &mut Vec<Mention>) {
    let name = &text[s..e];
    let e = e - ["'s", "’s"].iter().find(|p| name.len() > p.len() + 1 && name.ends_with(**p)).map_or(0, |p| p.len());
    let surface = collapse(&text[s..e]);
    out.push(Mention { span: (s, e), kind: "Person", key: format!("Person:{}", name_key(&surface)), surface, attrs: vec![] });
}

/// Role words that name a person next to them ("a director, Marek Novak").
pub const ROLES: &str = r"(?i:director|managing director|chief [a-z]+ officer|chief executive officer|chief executive|chief financial officer|chief operating officer|chief accounting officer|controller|CEO|CFO|COO|chairman|chairwoman|chair|(?:senior\s+|executive\s+)?vice\s+president|president|secretary|treasurer|general counsel|partner|founder|shareholder|owner|beneficial owner|employee|manager|relationship manager|accountant|analyst|officer|signatory|trustee|nominee|broker|registered representative|portfolio manager|investment adviser|principal)";

/// Nouns that name an organisation of some kind and hardly ever a person: a business
/// ("corporation", "manufacturer", "bank"), a body ("agency", "association", "university")
/// or a group ("band", "club", "political party"). Not "party" alone ("a party to the
/// agreement"), nor "developer", "publisher", "contractor", "broker", which people are too.
const ORGANISATION_NOUNS: &str = r"(?:corporation|company|firm|partnership|entity|brokerage|broker-dealer|conglomerate|holding\s+company|shell\s+company|limited\s+liability\s+company|bank|manufacturer|carmaker|automaker|retailer|airline|startup|start-up|subsidiary|organi[sz]ation|association|foundation|charity|agency|university|college|newspaper|magazine|broadcaster|record\s+label|band|rock\s+group|football\s+club|club|political\s+party)";

/// Whether the text after a name describes it as an organisation: in apposition (a comma)
/// or with "is"/"was", an article, up to six modifiers (no preposition or determiner among
/// them: "a partner of the firm" is a person) and an organisation's noun
/// ([`ORGANISATION_NOUNS`]) that ends the phrase or opens its complement ("a Nevada
/// corporation based in", "a nominee corporation that", "is a Turkish weapons manufacturer
/// and defense contractor", "was an Italian manufacturer of bicycles").
pub(crate) fn described_as_business(after: &str) -> bool {
    static DESCRIBED: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"^(?:\s*\([^()]{{0,40}}\))?(?:,|\s+(?:is|was))\s+(?:a|an)\s+(?P<mods>(?:[\w-]+\s+){{0,6}}?){ORGANISATION_NOUNS}(?:[,.;:)]|\s+(?:that|which|based|located|headquartered|incorporated|organized|registered|controlled|owned|formed|founded|engaged|whose|in|with|and|of)\b)"
        ))
    });
    const NOT_MODIFIERS: [&str; 17] = ["of", "at", "with", "for", "in", "on", "by", "to", "from", "or", "the", "a", "an", "his", "her", "its", "their"];
    // (Most names are followed by neither: no search then.)
    let rest = after.trim_start();
    if !(rest.starts_with([',', '(']) || rest.starts_with("is ") || rest.starts_with("was ")) {
        return false;
    }
    DESCRIBED.captures(after).is_some_and(|c| c.name("mods").is_none_or(|m| !m.as_str().split_whitespace().any(|w| NOT_MODIFIERS.contains(&w.to_lowercase().as_str()))))
}

/// The U.S. states' abbreviations as news and court prose write them after a town ("Fla.",
/// "Mich.", "N.Y.", "Calif."; AP style, with its period), each with the state's name.
const STATE_ABBREVIATIONS: &[(&str, &str)] = &[
    ("Ala.", "Alabama"),
    ("Ariz.", "Arizona"),
    ("Ark.", "Arkansas"),
    ("Calif.", "California"),
    ("Colo.", "Colorado"),
    ("Conn.", "Connecticut"),
    ("Del.", "Delaware"),
    ("Fla.", "Florida"),
    ("Ga.", "Georgia"),
    ("Ill.", "Illinois"),
    ("Ind.", "Indiana"),
    ("Kan.", "Kansas"),
    ("Ky.", "Kentucky"),
    ("La.", "Louisiana"),
    ("Md.", "Maryland"),
    ("Mass.", "Massachusetts"),
    ("Mich.", "Michigan"),
    ("Minn.", "Minnesota"),
    ("Miss.", "Mississippi"),
    ("Mo.", "Missouri"),
    ("Mont.", "Montana"),
    ("Neb.", "Nebraska"),
    ("Nev.", "Nevada"),
    ("N.H.", "New Hampshire"),
    ("N.J.", "New Jersey"),
    ("N.M.", "New Mexico"),
    ("N.Y.", "New York"),
    ("N.C.", "North Carolina"),
    ("N.D.", "North Dakota"),
    ("Okla.", "Oklahoma"),
    ("Ore.", "Oregon"),
    ("Pa.", "Pennsylvania"),
    ("R.I.", "Rhode Island"),
    ("S.C.", "South Carolina"),
    ("S.D.", "South Dakota"),
    ("Tenn.", "Tennessee"),
    ("Tex.", "Texas"),
    ("Vt.", "Vermont"),
    ("Va.", "Virginia"),
    ("Wash.", "Washington"),
    ("W.Va.", "West Virginia"),
    ("Wis.", "Wisconsin"),
    ("Wyo.", "Wyoming"),
];

/// The state a U.S. state's abbreviation names ("Fla." → Florida; [`STATE_ABBREVIATIONS`]).
pub fn state_of_abbreviation(w: &str) -> Option<&'static str> {
    // (A name's span may stop before the period: "Fla" of "Tampa, Fla.,".)
    STATE_ABBREVIATIONS.iter().find(|(a, _)| *a == w || a.strip_suffix('.') == Some(w)).map(|(_, state)| *state)
}

/// Whether a name is a U.S. state's ("Florida", "Ohio"; the states AP style does not
/// abbreviate are written out).
pub fn is_state_name(name: &str) -> bool {
    const UNABBREVIATED: [&str; 7] = ["Alaska", "Hawaii", "Idaho", "Iowa", "Maine", "Ohio", "Utah"];
    UNABBREVIATED.contains(&name) || STATE_ABBREVIATIONS.iter().any(|(_, state)| *state == name)
}

/// Whether a word is a U.S. state's abbreviation as news and court prose write it after a
/// town ([`STATE_ABBREVIATIONS`]).
pub fn is_state_abbreviation(w: &str) -> bool {
    state_of_abbreviation(w).is_some()
}

/// Whether the text before a name ends in an organisation's noun that the name stands
/// beside ("American punk rock band Bad Religion", "the Japanese carmaker Suzuki", "the
/// bank Wells Fargo"): the name is that organisation's.
pub(crate) fn named_after_business_noun(before: &str) -> bool {
    static NOUN: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?:^|[^\w-]){ORGANISATION_NOUNS},?\s+$")));
    // (Most names follow no such word: a cheap test of the last letter first.)
    before.ends_with(' ') && before.trim_end().trim_end_matches(',').ends_with(|c: char| c.is_ascii_lowercase()) && NOUN.is_match(before)
}

/// People named next to a role ("Marek Novak, a director of", "director Marek Novak"),
/// or next to a verb of saying ("Lena Ortiz said").
fn role_people(text: &str, sentence: Span, cues: u128, out: &mut Vec<Mention>) {
    static NAME: &str = r"(\p{Lu}[\p{Ll}'’\-]+(?:\s+\p{Lu}\.)?(?:\s+\p{Lu}[\p{Ll}'’\-]+){1,2})";
    static A: LazyLock<Regex> =
        LazyLock::new(|| re(&format!(r"{NAME},\s+(?:(?:a|an|the|its|their|his|her)\s+)?(?:(?i:former|then|sole|non-executive|senior|acting)\s+)?(?:{ROLES})\b")));
    // No comma between: "Vice President, Worldwide Sales" names a department.
    static B: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"\b(?:{ROLES})\s+{NAME}")));
    // "a director, Marek Novak, …": an apposition closed by a second comma.
    static B2: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"\b(?:a|an|the|its|their|our)\s+(?:{ROLES}),\s+{NAME},")));
    static C: LazyLock<Regex> =
        LazyLock::new(|| re(&format!(r"{NAME}\s+(?:said|stated|told|wrote|alleged|claimed|denied|confirmed|admitted|testified|reported|signed|approved)\b")));
    static D: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"\b(?:signed by|approved by|By)\s+{NAME}\b")));
    // "Daniyar Zhaxalyk, 26, a citizen of …", "John Smith, 45, of Miami": an age in apposition.
    // (Up to four words here: "Minh Phuong Ngoc Vong, 40, of Bowie".)
    static NAME4: &str = r"(\p{Lu}[\p{Ll}'’\-]+(?:\s+\p{Lu}\.)?(?:\s+\p{Lu}[\p{Ll}'’\-]+){1,3})";
    static E: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"{NAME4},\s+\d{{2}},\s+(?:of|from|a|an|the|who)\b")));
    // "Martin Tasis was sentenced today to 10 years in prison": only people serve prison terms
    // (a company pleads guilty and is sentenced too, but to fines).
    static F: LazyLock<Regex> =
        LazyLock::new(|| re(&format!(r"{NAME4}\s+(?:was\s+)?sentenced\s+(?:\p{{Ll}}+\s+){{0,2}}to\s+(?:\d+|\p{{Ll}}+(?:-\p{{Ll}}+)?)\s+(?:months|years)\b")));
    // A and C open with a name, which the regex engine must look for everywhere; they are
    // run only when their cue words (a role, a verb of saying) are in the sentence at all
    // (the sentence's cue groups, found in one pass).
    let (s, e) = sentence;
    let t = &text[s..e];
    let role_word = cues & cue::ROLE != 0;
    let role_cue = role_word && t.contains(',');
    let say_cue = cues & cue::SAY != 0;
    let age_cue = has_age_apposition(t);
    let prison_cue = cues & cue::PRISON != 0;
    for (k, (pat, on)) in
        [(&*A, role_cue), (&*B, role_word), (&*B2, role_cue), (&*C, say_cue), (&*D, cues & cue::BY != 0), (&*E, age_cue), (&*F, prison_cue)].into_iter().enumerate()
    {
        for c in caps_if(pat, on, t) {
            if let Some(m) = c.get(1) {
                let (mut start, end) = (m.start(), m.end());
                // E and F know the name only by what follows it: it must open its clause
                // ("A citizen of the Dominican Republic was sentenced" is not a name), and
                // a rank before it is not part of it ("Sergeant First Class Michael Rambaran").
                if k >= 5 {
                    let before = t[..start].trim_end();
                    if before.rsplit(char::is_whitespace).next().is_some_and(|w| w.starts_with(char::is_lowercase)) {
                        continue;
                    }
                    while let Some((rank, rest)) = t[start..end].split_once(char::is_whitespace)
                        && RANKS.contains(&rank)
                    {
                        start = end - rest.trim_start().len();
                    }
                    if t[start..end].split_whitespace().count() < 2 {
                        continue;
                    }
                }
                // A home after a party and "of" before a role is the party's, no person: "X,
                // 49, of San Antonio, the president and owner of Y".
                if k == 0 && {
                    let before = t[..start].trim_end();
                    let (rest, word) = before.rsplit_once(char::is_whitespace).unwrap_or(("", before));
                    matches!(word, "of" | "in" | "from") && rest.trim_end().ends_with(',')
                } {
                    continue;
                }
                let name = &t[start..end];
                let first = name.split_whitespace().next().unwrap_or("");
                let name_words: Vec<&str> = name.split_whitespace().collect();
                let is_org = name_words.iter().any(|w| ORG_SUFFIXES.contains(w) || RUSSIAN_FORMS.contains(w));
                // A title is not a name ("Principal Financial Officer").
                let titled = name_words.iter().any(|w| {
                    matches!(
                        *w,
                        "Officer"
                            | "Director"
                            | "President"
                            | "Manager"
                            | "Counsel"
                            | "Secretary"
                            | "Treasurer"
                            | "Chairman"
                            | "Partner"
                            | "Executive"
                            | "Controller"
                            | "Attorney"
                            | "Deputy"
                            | "Assistant"
                            | "Advisor"
                            | "Adviser"
                            | "Agent"
                            | "Inspector"
                            | "Commissioner"
                            | "General"
                            | "Legal"
                            | "Pleads"
                            | "Guilty"
                            | "Sentenced"
                            | "Charged"
                            | "Division"
                            | "Department"
                            | "County"
                            | "Cartel"
                            | "Republic"
                            | "Office"
                            | "Bureau"
                            | "Agency"
                            | "Unit"
                            | "Services"
                    )
                });
                if titled || is_stop(first) || is_org || name_words.iter().any(|w| month_number(w).is_some()) {
                    continue;
                }
                // A role word may open a business's description ("Net Income, a nominee
                // corporation"): the name is the business's.
                if k == 0 && described_as_business(&t[end..]) {
                    push_org(text, s + start, s + end, out);
                    continue;
                }
                push_person(text, s + start, s + end, out);
            }
        }
    }
}

/// Ranks and offices written before a name ("Retired Navy Captain Michael Brooks",
/// "Congresswoman Corrine Brown"): not part of it.
const RANKS: &[&str] = &[
    "Admiral",
    "Agent",
    "Army",
    "Captain",
    "Chief",
    "Class",
    "Colonel",
    "Commander",
    "Congressman",
    "Congresswoman",
    "Corporal",
    "Councilman",
    "Councilwoman",
    "Deputy",
    "Detective",
    "Father",
    "First",
    "Former",
    "General",
    "Governor",
    "Lieutenant",
    "Major",
    "Marine",
    "Master",
    "Mayor",
    "Navy",
    "Officer",
    "Pastor",
    "Petty",
    "Private",
    "Representative",
    "Retired",
    "Reverend",
    "Second",
    "Senator",
    "Sergeant",
    "Sheriff",
    "Specialist",
    "Staff",
    "Warrant",
];

/// Whether a sentence has ", NN," (an age in apposition), which pattern E needs.
fn has_age_apposition(t: &str) -> bool {
    t.as_bytes().windows(5).any(|w| w[0] == b',' && w[1] == b' ' && w[2].is_ascii_digit() && w[3].is_ascii_digit() && w[4] == b',')
}

/// Parses an amount as written ("2,000,000", "1.000.000,00", "2.5") into hundredths.
fn parse_amount(num: &str) -> Option<i128> {
    let n: String = num.chars().filter(|c| !c.is_whitespace() && *c != '\'' && *c != '’').collect();
    let (commas, dots) = (n.matches(',').count(), n.matches('.').count());
    let decimal = match (commas, dots) {
        (0, 0) => None,
        (_, 0) => {
            // "2,000,000" groups; "12,5" a decimal comma.
            let last = n.rsplit(',').next().unwrap_or("");
            if commas == 1 && last.len() != 3 { Some(',') } else { None }
        }
        (0, _) => {
            let last = n.rsplit('.').next().unwrap_or("");
            if dots == 1 && last.len() != 3 {
                Some('.')
            } else if dots > 1 {
                None
            } else {
                Some('.')
            }
        }
        _ => {
            if n.rfind(',') > n.rfind('.') {
                Some(',')
            } else {
                Some('.')
            }
        }
    };
    let (int, frac) = match decimal {
        Some(d) => {
            let (a, b) = n.rsplit_once(d)?;
            (a.to_string(), b.to_string())
        }
        None => (n.clone(), String::new()),
    };
    let int: String = int.chars().filter(char::is_ascii_digit).collect();
    if int.is_empty() || int.len() > 20 || frac.len() > 6 || !frac.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut v: i128 = int.parse().ok()?;
    v *= 1_000_000;
    let mut f = frac.clone();
    while f.len() < 6 {
        f.push('0');
    }
    v += f.parse::<i128>().ok()?;
    Some(v) // millionths
}

fn currency_code(sym: &str) -> Option<&'static str> {
    Some(match sym.trim().to_lowercase().as_str() {
        "$" | "us$" | "usd" | "dollars" | "dollar" | "us dollars" => "USD",
        "€" | "eur" | "euro" | "euros" => "EUR",
        "£" | "gbp" | "pounds" | "pound" | "pounds sterling" => "GBP",
        "¥" | "jpy" | "yen" => "JPY",
        "chf" | "swiss francs" => "CHF",
        "cny" | "rmb" | "yuan" => "CNY",
        "aud" => "AUD",
        "cad" => "CAD",
        "hkd" => "HKD",
        "sgd" => "SGD",
        "rub" | "roubles" | "rubles" => "RUB",
        "aed" => "AED",
        "btc" | "bitcoin" => "BTC",
        "eth" | "ether" => "ETH",
        _ => return None,
    })
}

fn magnitude(word: Option<&str>) -> i128 {
    match word.map(|w| w.trim().to_lowercase()) {
        Some(w) if w == "million" || w == "m" || w == "mn" || w == "mm" => 1_000_000,
        Some(w) if w == "billion" || w == "bn" || w == "b" => 1_000_000_000,
        Some(w) if w == "thousand" || w == "k" => 1_000,
        _ => 1,
    }
}

/// Formats millionths as a plain decimal with at most two decimals ("1940000", "12.50").
fn format_amount(v: i128) -> String {
    let cents = v / 10_000;
    if cents % 100 == 0 { format!("{}", cents / 100) } else { format!("{}.{:02}", cents / 100, cents % 100) }
}

/// Money: a currency (symbol, code or word) with an amount, in any common order.
fn money(text: &str, sentence: Span, cues: u128, out: &mut Vec<Mention>) {
    const CUR: &str = r"US\$|\$|€|£|¥|USD|EUR|GBP|JPY|CHF|CNY|RMB|AUD|CAD|HKD|SGD|RUB|AED|BTC|ETH";
    const NUM: &str = r"\d{1,3}(?:[,\.\s’']\d{3})+(?:[\.,]\d{1,2})?|\d+(?:[\.,]\d+)?";
    // (Words of magnitude in any case: a headline's "$4 Million".)
    const MAG: &str = r"(?i:million|billion|thousand)|mn|bn|m|k";
    static BEFORE: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?:^|[^\p{{L}}])(?P<c>{CUR})\s?(?P<n>{NUM})(?:\s?(?P<m>{MAG})\b)?")));
    static AFTER: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(r"\b(?P<n>{NUM})\s?(?:(?P<m>(?i:million|billion|thousand))\s+)?(?P<c>USD|EUR|GBP|CHF|JPY|dollars|Dollars|euros|Euros|pounds|US dollars|yen|Swiss francs)\b"))
    });
    let (s, e) = sentence;
    let t = &text[s..e];
    // Every amount has a digit: most sentences need no search.
    if !t.bytes().any(|b| b.is_ascii_digit()) {
        return;
    }
    for (pat, on) in [(&*BEFORE, cues & cue::CUR_BEFORE != 0), (&*AFTER, cues & cue::CUR_AFTER != 0)] {
        for c in caps_if(pat, on, t) {
            let (Some(cur), Some(n)) = (c.name("c"), c.name("n")) else { continue };
            let Some(code) = currency_code(cur.as_str()) else { continue };
            // "… in 2020 USD 5 million": a bare year before a currency code is a date.
            let year = n.as_str().len() == 4 && (n.as_str().starts_with("19") || n.as_str().starts_with("20")) && n.as_str().bytes().all(|b| b.is_ascii_digit());
            if year && n.start() < cur.start() {
                continue;
            }
            let Some(v) = parse_amount(n.as_str()) else { continue };
            let v = v.saturating_mul(magnitude(c.name("m").map(|m| m.as_str())));
            let start = s + cur.start().min(n.start());
            let end = s + [cur.end(), n.end(), c.name("m").map_or(0, |m| m.end())].into_iter().max().unwrap_or(n.end());
            let amount = format_amount(v);
            let surface = collapse(&text[start..end]);
            out.push(Mention {
                span: (start, end),
                kind: "Money",
                key: format!("Money:{code} {amount}"),
                surface,
                attrs: vec![("currency", code.to_string()), ("amount", amount)],
            });
        }
    }
}

/// Whether an IBAN's check digits are right (ISO 13616 mod 97).
pub fn iban_valid(iban: &str) -> bool {
    let s: String = iban.chars().filter(|c| !c.is_whitespace()).collect();
    if s.len() < 15 || s.len() > 34 || !s.is_ascii() {
        return false;
    }
    let (head, tail) = s.split_at(4);
    let mut rem: u32 = 0;
    for c in tail.chars().chain(head.chars()) {
        let v = match c {
            '0'..='9' => c as u32 - '0' as u32,
            'A'..='Z' => c as u32 - 'A' as u32 + 10,
            _ => return false,
        };
        rem = if v >= 10 { (rem * 100 + v) % 97 } else { (rem * 10 + v) % 97 };
    }
    rem == 1
}

/// Accounts: IBANs (checksum-validated), SWIFT/BIC codes and account numbers named as
/// such, crypto wallet addresses.
fn accounts(text: &str, sentence: Span, cues: u128, out: &mut Vec<Mention>) {
    static IBAN: LazyLock<Regex> = LazyLock::new(|| re(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b"));
    static BIC: LazyLock<Regex> = LazyLock::new(|| re(r"(?i:SWIFT|BIC)(?:/BIC)?(?:\s+code)?\s*:?\s*(?-i:(?P<b>[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?))\b"));
    static ACCT: LazyLock<Regex> = LazyLock::new(|| re(r"(?i:account|acct\.?|a/c)\s*(?i:no\.?|number|#)?\s*:?\s*(?P<a>\d[\d\- ]{4,22}\d)\b"));
    static ETH: LazyLock<Regex> = LazyLock::new(|| re(r"\b0x[0-9a-fA-F]{40}\b"));
    static BTC: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:bc1[02-9ac-hj-np-z]{25,59}|[13][1-9A-HJ-NP-Za-km-z]{25,34})\b"));
    let (s, e) = sentence;
    let t = &text[s..e];
    // IBANs, account numbers and wallets have digits: most sentences need no search for them.
    let td = if t.bytes().any(|b| b.is_ascii_digit()) { t } else { "" };
    // An IBAN opens with two capitals and two digits: a byte scan finds whether any does.
    let iban_shape = td.as_bytes().windows(4).any(|w| w[0].is_ascii_uppercase() && w[1].is_ascii_uppercase() && w[2].is_ascii_digit() && w[3].is_ascii_digit());
    for m in matches_if(&IBAN, iban_shape && !td.is_empty(), td) {
        if iban_valid(m.as_str()) {
            let compact: String = m.as_str().chars().filter(|c| !c.is_whitespace()).collect();
            out.push(Mention {
                span: (s + m.start(), s + m.end()),
                kind: "Account",
                key: format!("Account:IBAN {compact}"),
                surface: m.as_str().into(),
                attrs: vec![("scheme", "IBAN".into())],
            });
        }
    }
    for c in caps_if(&BIC, cues & cue::BIC != 0, t) {
        if let Some(b) = c.name("b") {
            out.push(Mention {
                span: (s + b.start(), s + b.end()),
                kind: "Account",
                key: format!("Account:BIC {}", b.as_str()),
                surface: b.as_str().into(),
                attrs: vec![("scheme", "BIC".into())],
            });
        }
    }
    for c in caps_if(&ACCT, cues & cue::ACCT != 0 && !td.is_empty(), td) {
        if let Some(a) = c.name("a") {
            let digits: String = a.as_str().chars().filter(char::is_ascii_digit).collect();
            if digits.len() >= 6 {
                out.push(Mention {
                    span: (s + a.start(), s + a.end()),
                    kind: "Account",
                    key: format!("Account:number {digits}"),
                    surface: a.as_str().into(),
                    attrs: vec![("scheme", "number".into())],
                });
            }
        }
    }
    for m in matches_if(&ETH, cues & cue::ETH != 0 && !td.is_empty(), td) {
        out.push(Mention {
            span: (s + m.start(), s + m.end()),
            kind: "Account",
            key: format!("Account:ETH {}", m.as_str().to_lowercase()),
            surface: m.as_str().into(),
            attrs: vec![("scheme", "ETH".into())],
        });
    }
    // Legacy bitcoin addresses look like many other tokens: only with a crypto word near.
    // (Computed once and only when a candidate is found: lowercasing every sentence cost.)
    let crypto_context = std::cell::OnceCell::new();
    let crypto = || {
        *crypto_context.get_or_init(|| {
            t.contains("BTC") || {
                let l = t.to_lowercase();
                l.contains("bitcoin") || l.contains("wallet")
            }
        })
    };
    // Nothing is kept without "bc1" or a crypto word: no search then.
    for m in matches_if(&BTC, cues & cue::BTC != 0 && !td.is_empty(), td) {
        if m.as_str().starts_with("bc1") || crypto() {
            out.push(Mention {
                span: (s + m.start(), s + m.end()),
                kind: "Account",
                key: format!("Account:BTC {}", m.as_str()),
                surface: m.as_str().into(),
                attrs: vec![("scheme", "BTC".into())],
            });
        }
    }
}

fn iso(y: i32, m: u32, d: u32) -> Option<String> {
    let date = jiff::civil::Date::new(i16::try_from(y).ok()?, i8::try_from(m).ok()?, i8::try_from(d).ok()?).ok()?;
    Some(date.to_string())
}

/// Dates: "4 March 2024", "March 4, 2024", "2024-03-04", "March 2024" (month
/// precision), and "today"/"yesterday"/"tomorrow"/"N days ago|later" against the
/// document's date when it has one.
fn dates(text: &str, sentence: Span, doc_date: Option<&str>, cues: u128, out: &mut Vec<Mention>) {
    const MON: &str =
        r"Jan(?:uary|\.)?|Feb(?:ruary|\.)?|Mar(?:ch|\.)?|Apr(?:il|\.)?|May|June?|July?|Aug(?:ust|\.)?|Sep(?:t|tember|\.)?\.?|Oct(?:ober|\.)?|Nov(?:ember|\.)?|Dec(?:ember|\.)?";
    static DMY: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>{MON})\s*,?\s+(?P<y>\d{{4}})\b")));
    static MDY: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"\b(?P<m>{MON})\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s?,?\s+(?P<y>\d{{4}})\b")));
    static YMD: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b"));
    static MY: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"\b(?P<m>{MON})\s+(?P<y>(?:19|20)\d{{2}})\b")));
    static REL: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\b(?:(?P<w>today|yesterday|tomorrow)|(?P<n>\d{1,3})\s+days\s+(?P<dir>ago|later|earlier))\b"));
    let (s, e) = sentence;
    let t = &text[s..e];
    let mut taken: Vec<Span> = vec![];
    // Absolute dates have digits; relative ones ("yesterday") need none.
    let td = if t.bytes().any(|b| b.is_ascii_digit()) { t } else { "" };
    let push = |span: Span, iso_date: String, out: &mut Vec<Mention>, taken: &mut Vec<Span>| {
        if taken.iter().any(|&(a, b)| a < span.1 && span.0 < b) {
            return;
        }
        taken.push(span);
        out.push(Mention { span, kind: "Date", key: format!("Date:{iso_date}"), surface: collapse(&text[span.0..span.1]), attrs: vec![("iso", iso_date)] });
    };
    // Every absolute date pattern has a four-digit year: without four digits in a row none
    // can match (an exact gate, a byte scan).
    let year = td.as_bytes().windows(4).any(|w| w.iter().all(u8::is_ascii_digit));
    let (month, dash) = (year && cues & cue::MONTH != 0, year && cues & cue::DASH != 0);
    for (pat, on) in [(&*DMY, month), (&*MDY, month), (&*YMD, dash)] {
        for c in caps_if(pat, on, td) {
            let (Some(d), Some(m), Some(y)) = (c.name("d"), c.name("m"), c.name("y")) else { continue };
            let month = m.as_str().parse().ok().or_else(|| month_number(m.as_str()));
            let (Some(month), Ok(day), Ok(year)) = (month, d.as_str().parse::<u32>(), y.as_str().parse::<i32>()) else { continue };
            let Some(whole) = c.get(0) else { continue };
            match iso(year, month, day) {
                Some(iso_date) => push((s + whole.start(), s + whole.end()), iso_date, out, &mut taken),
                // Not a calendar date ("31 February"): no month-precision date either.
                None => taken.push((s + whole.start(), s + whole.end())),
            }
        }
    }
    for c in caps_if(&MY, month, td) {
        let (Some(m), Some(y), Some(whole)) = (c.name("m"), c.name("y"), c.get(0)) else { continue };
        if let (Some(month), Ok(year)) = (month_number(m.as_str()), y.as_str().parse::<i32>()) {
            push((s + whole.start(), s + whole.end()), format!("{year:04}-{month:02}"), out, &mut taken);
        }
    }
    let Some(base) = doc_date.and_then(|d| d.get(..10)).and_then(|d| d.parse::<jiff::civil::Date>().ok()) else { return };
    for c in caps_if(&REL, cues & cue::REL != 0, t) {
        let Some(whole) = c.get(0) else { continue };
        let days: i64 = match (c.name("w").map(|w| w.as_str().to_lowercase()), c.name("n"), c.name("dir")) {
            (Some(w), _, _) if w == "today" => 0,
            (Some(w), _, _) if w == "yesterday" => -1,
            (Some(_), _, _) => 1,
            (None, Some(n), Some(dir)) => {
                let n: i64 = n.as_str().parse().unwrap_or(0);
                if dir.as_str().eq_ignore_ascii_case("later") { n } else { -n }
            }
            _ => continue,
        };
        if let Ok(d) = base.checked_add(jiff::Span::new().days(days)) {
            push((s + whole.start(), s + whole.end()), d.to_string(), out, &mut taken);
        }
    }
}

/// E-mail addresses, phone numbers and reference numbers.
fn contacts_and_references(text: &str, sentence: Span, cues: u128, out: &mut Vec<Mention>) {
    static EMAIL: LazyLock<Regex> = LazyLock::new(|| re(r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}\b"));
    static PHONE: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?:\+\d{1,3}[\s\-.]?)(?:\(?\d{1,4}\)?[\s\-.]?){2,5}\d{2,4}\b|(?i:tel|phone|mobile|fax)\.?:?\s*(?P<p>\(?\d[\d\s\-().]{6,}\d)"));
    static REF: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"\b(?:[A-Z]{2,6}-\d{2,6}(?:-[A-Z0-9]{1,8})*|\d{1,2}:\d{2}-[a-z]{2}-\d{3,6}|(?:SAR|STR|CTR)\s?#?\d{3,}(?:-\d+)*)\b|(?i:case|file|ref(?:erence)?|release)\s+(?i:no\.?|number|#)\s*(?P<r>[A-Z0-9][\w:\-/\.]*[A-Za-z0-9])",
        )
    });
    let (s, e) = sentence;
    let t = &text[s..e];
    for m in matches_if(&EMAIL, t.contains('@'), t) {
        // Message ids (`<20240301.1001@host>`) look like addresses but are not.
        if t[..m.start()].ends_with('<') && m.as_str().split('@').next().is_some_and(|l| l.chars().filter(char::is_ascii_digit).count() >= 8) {
            continue;
        }
        out.push(Mention { span: (s + m.start(), s + m.end()), kind: "Email", key: format!("Email:{}", m.as_str().to_lowercase()), surface: m.as_str().into(), attrs: vec![] });
    }
    for c in caps_if(&PHONE, cues & cue::PHONE != 0 && t.bytes().any(|b| b.is_ascii_digit()), t) {
        let Some(m) = c.name("p").or_else(|| c.get(0)) else { continue };
        let digits: String = m.as_str().chars().filter(char::is_ascii_digit).collect();
        if (7..=15).contains(&digits.len()) {
            let lead = if m.as_str().starts_with('+') { "+" } else { "" };
            out.push(Mention { span: (s + m.start(), s + m.end()), kind: "Phone", key: format!("Phone:{lead}{digits}"), surface: m.as_str().into(), attrs: vec![] });
        }
    }
    for c in caps_if(&REF, cues & cue::REF != 0, t) {
        let Some(m) = c.name("r").or_else(|| c.get(0)) else { continue };
        out.push(Mention {
            span: (s + m.start(), s + m.end()),
            kind: "Reference",
            key: format!("Reference:{}", m.as_str().to_uppercase()),
            surface: m.as_str().into(),
            attrs: vec![],
        });
    }
}

/// Places named as where something is registered, incorporated or based.
fn locations(text: &str, sentence: Span, cues: u128, out: &mut Vec<Mention>) {
    static L: LazyLock<Regex> =
        LazyLock::new(|| re(r"\b(?:registered|incorporated|domiciled|based|headquartered|located)\s+in\s+(?:the\s+)?(?P<l>\p{Lu}[\p{L}\-]+(?:\s+\p{Lu}[\p{L}\-]+){0,2})"));
    let (s, e) = sentence;
    for c in caps_if(&L, cues & cue::PLACE != 0, &text[s..e]) {
        if let Some(m) = c.name("l") {
            if month_number(m.as_str()).is_some() {
                continue;
            }
            let surface = collapse(m.as_str());
            out.push(Mention { span: (s + m.start(), s + m.end()), kind: "Location", key: format!("Location:{}", name_key(&surface)), surface, attrs: vec![] });
        }
    }
}

/// Every mention in a sentence, overlaps resolved: the longer span wins, then the
/// earlier finder (money and accounts before references, organisations before people).
pub fn find(text: &str, sentence: Span, doc_date: Option<&str>) -> Vec<Mention> {
    let mut found = vec![];
    let cues = cues(&text[sentence.0..sentence.1]);
    money(text, sentence, cues, &mut found);
    accounts(text, sentence, cues, &mut found);
    dates(text, sentence, doc_date, cues, &mut found);
    // (The two organisation finders read one scan of the sentence's words.)
    let (legal_forms, ampersand) = (cues & cue::ORG != 0, text[sentence.0..sentence.1].contains('&'));
    if legal_forms || ampersand {
        let ws = words(text, sentence);
        if legal_forms {
            organisations(text, &ws, &mut found);
        }
        if ampersand {
            partner_firms(text, &ws, &mut found);
        }
    }
    titled_people(text, sentence, cues, &mut found);
    role_people(text, sentence, cues, &mut found);
    contacts_and_references(text, sentence, cues, &mut found);
    locations(text, sentence, cues, &mut found);
    resolve_overlaps(found)
}

/// The rule finders' mentions of a sentence combined with the names a learned tagger found
/// in it (docs/EXTRACTION.md, "Precedence"): every rule mention stays as found (its
/// evidence — a legal form, a title, a currency — types it); a learned name that overlaps
/// no rule mention is added; one that overlaps only a rule name of its own type and
/// contains it, longer, replaces it ("William R. Schantz III" for a rule's "Schantz III");
/// any other overlap goes to the rule (the same span too: a rule's key is canonical, the
/// SEC's whatever the agency's name is written as).
pub fn with_names(text: &str, rules: Vec<Mention>, names: Vec<(Span, &'static str)>) -> Vec<Mention> {
    if names.is_empty() {
        return rules;
    }
    let mut out = rules;
    for (span, kind) in names {
        // A legal form alone ("Inc.", "L.L.P.") is the tail of a name the tagger cut, no name.
        if text[span.0..span.1].split_whitespace().all(|w| is_legal_abbreviation(w.trim_end_matches([',', '.']))) {
            continue;
        }
        let overlapping: Vec<usize> = out.iter().enumerate().filter(|(_, m)| m.span.0 < span.1 && span.0 < m.span.1).map(|(i, _)| i).collect();
        let replaces = !overlapping.is_empty()
            && overlapping.iter().all(|&i| {
                let m = &out[i];
                m.kind == kind && span.0 <= m.span.0 && m.span.1 <= span.1 && m.attrs.is_empty() && m.span != span
            });
        if !overlapping.is_empty() && !replaces {
            continue;
        }
        for i in overlapping.into_iter().rev() {
            out.remove(i);
        }
        let surface = collapse(&text[span.0..span.1]);
        out.push(Mention { span, kind, key: format!("{kind}:{}", name_key(&surface)), surface, attrs: vec![] });
    }
    out.sort_by(|a, b| a.span.cmp(&b.span).then(a.key.cmp(&b.key)));
    out
}

/// Keeps non-overlapping mentions: longest first, then in finder order; result by position.
pub fn resolve_overlaps(found: Vec<Mention>) -> Vec<Mention> {
    let mut order: Vec<(usize, Mention)> = found.into_iter().enumerate().collect();
    order.sort_by(|(i, a), (j, b)| (b.span.1 - b.span.0).cmp(&(a.span.1 - a.span.0)).then(i.cmp(j)));
    let mut kept: Vec<Mention> = vec![];
    for (_, m) in order {
        if !kept.iter().any(|k| k.span.0 < m.span.1 && m.span.0 < k.span.1) {
            kept.push(m);
        }
    }
    kept.sort_by(|a, b| a.span.cmp(&b.span).then(a.key.cmp(&b.key)));
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cue words: whole-word groups count only between non-word bytes, exact ones only as
    /// written; lanes answer apart; a Kelvin sign makes every group possible.
    #[test]
    fn cue_words_whole_exact_and_by_lane() {
        let a = [
            CueGroup { bits: 1, exact: true, whole: true, words: &["sues"] },
            CueGroup { bits: 2, exact: false, whole: true, words: &["broker"] },
            CueGroup { bits: 4, exact: false, whole: false, words: &["rout"] },
            CueGroup { bits: 8, exact: true, whole: false, words: &["SA"] },
        ];
        let b = [CueGroup { bits: 1, exact: false, whole: false, words: &["sues"] }];
        let set = CueSet::with_lanes(&[&a, &b]);
        assert_eq!(set.present_lanes("It issues shares"), [0, 1, 0]);
        assert_eq!(set.present_lanes("«O1» sues «O2»"), [1, 1, 0]);
        assert_eq!(set.present_lanes("Acme Sues_ Beta"), [0, 1, 0]);
        assert_eq!(set.present("Acme Sues Beta"), 0);
        assert_eq!(set.present("a BROKER, en route"), 2 | 4);
        assert_eq!(set.present("stockbroker said"), 0);
        assert_eq!(set.present("Beta SA and Sa"), 8);
        assert_eq!(set.present("\u{212A}"), cue::ALL);
    }

    /// The ASCII fast paths of `collapse` and `name_key` give what the general code gives.
    #[test]
    fn ascii_keys_as_the_general_code_gives_them() {
        let general_collapse = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        let general_key = |s: &str| general_collapse(&s.replace(',', " ")).trim_end_matches('.').to_lowercase();
        let parts = ["Acme", " ", "\t", "\n", "\x0B", "\x0C", "\r", ",", ".", "Inc.", "LTD", "", "a.b"];
        let mut n = 0;
        for a in parts {
            for b in parts {
                for c in parts {
                    for d in parts {
                        let s = format!("{a}{b}{c}{d}");
                        assert_eq!(collapse(&s), general_collapse(&s), "{s:?}");
                        assert_eq!(name_key(&s), general_key(&s), "{s:?}");
                        n += 1;
                    }
                }
            }
        }
        assert_eq!(n, 13 * 13 * 13 * 13);
        assert_eq!(name_key("Beta  Holdings, S.A. ."), "beta holdings s.a. ");
        assert_eq!(name_key("Émile  Zola,"), "émile zola");
    }

    fn kinds(text: &str) -> Vec<(String, &'static str, String)> {
        find(text, (0, text.len()), Some("2024-03-04")).into_iter().map(|m| (text[m.span.0..m.span.1].to_string(), m.kind, m.key)).collect()
    }

    #[test]
    fn firms_named_by_partners() {
        let orgs = |t: &str| kinds(t).into_iter().filter(|m| m.1 == "Organization").map(|m| m.0).collect::<Vec<_>>();
        assert_eq!(orgs("He joined Robinson, Silverman, Pearce, Aronsohn &amp; Berman as counsel."), ["Robinson, Silverman, Pearce, Aronsohn &amp; Berman"]);
        assert_eq!(orgs("The president of Taylor, Bean & Whitaker and Baxter, Banks, & Smith."), ["Taylor, Bean & Whitaker", "Baxter, Banks, & Smith"]);
        // Two names with "&" may be two people; English words are a list of things.
        assert!(orgs("Smith & Jones met. He sold Aircraft, Avionics, Parts & Support.").is_empty());
    }

    /// A month's bare abbreviation is a name's word; a month in full or abbreviated with its
    /// period is a date's, and opens no name.
    #[test]
    fn a_bare_month_abbreviation_is_a_names_word() {
        let orgs = |t: &str| kinds(t).into_iter().filter(|m| m.1 == "Organization").map(|m| m.0).collect::<Vec<_>>();
        assert_eq!(orgs("It paid Inversiones Mar Caribe SRL and Jun Li Trading Ltd in cash."), ["Inversiones Mar Caribe SRL", "Jun Li Trading Ltd"]);
        assert!(super::month_word("March") && super::month_word("Mar.") && !super::month_word("Mar") && !super::month_word("Jun"));
    }

    #[test]
    fn organisations_by_legal_form() {
        let k = kinds("Between 1 and 3 March 2024 Acme Trading Ltd sent wires to Beta Holdings SA and Delta Freight, Inc. via Bank of Cyprus.");
        let orgs: Vec<&str> = k.iter().filter(|m| m.1 == "Organization").map(|m| m.0.as_str()).collect();
        assert_eq!(orgs, ["Acme Trading Ltd", "Beta Holdings SA", "Delta Freight, Inc.", "Bank of Cyprus"]);
        assert!(k.iter().any(|m| m.2 == "Date:2024-03-03"));
        assert!(k.iter().any(|m| m.2 == "Organization:delta freight inc"));
        // Peru's and Colombia's forms, after a name whose first word bears an accent.
        let k = kinds("Valtrona paid Consultoría Integral Pachacámac S.A.C. and Distribuidora Andina S.A.S. in 2019.");
        let orgs: Vec<&str> = k.iter().filter(|m| m.1 == "Organization").map(|m| m.0.as_str()).collect();
        assert_eq!(orgs, ["Consultoría Integral Pachacámac S.A.C.", "Distribuidora Andina S.A.S."]);
    }

    #[test]
    fn roles_and_generic_phrases_are_not_organisations() {
        let orgs = |t: &str| kinds(t).into_iter().filter(|m| m.1 == "Organization").map(|m| m.0).collect::<Vec<_>>();
        assert_eq!(orgs("Mr. Patzig was a Director of Cyntellect Inc., a private company."), ["Cyntellect Inc."]);
        assert_eq!(orgs("Certificate of Formation of Beta Media, LLC filed."), ["Beta Media, LLC"]);
        assert_eq!(orgs("It is registered as a bank holding company under the Bank Holding Company Act."), Vec::<String>::new());
        assert_eq!(orgs("The Borrower Company shall pay the Lender."), Vec::<String>::new());
        assert_eq!(orgs("RBC Capital Markets, LLC is a subsidiary of Royal Bank of Canada."), ["RBC Capital Markets, LLC", "Royal Bank of Canada"]);
        assert_eq!(orgs("He ran the First National Bank of Lindsay (FNBL), in Oklahoma."), ["First National Bank of Lindsay"]);
        assert_eq!(orgs("It filed reports under the U.S. Bank Secrecy Act with Acme Bank."), ["Acme Bank"]);
        assert_eq!(kinds("On April 2 , 2012 it closed.").into_iter().map(|m| m.2).collect::<Vec<_>>(), ["Date:2012-04-02"]);
    }

    #[test]
    fn a_legal_form_may_open_the_name() {
        let orgs = |t: &str| kinds(t).into_iter().filter(|m| m.1 == "Organization").map(|m| m.0).collect::<Vec<_>>();
        assert_eq!(orgs("Money went to Société Générale and Banco Quorra Central via Caisse Nord."), ["Société Générale", "Banco Quorra Central", "Caisse Nord"]);
        assert_eq!(orgs("Unicode: Société Générale, 東京."), ["Société Générale"]);
        // The form alone, or before a lower-case word, names nothing.
        assert_eq!(orgs("The Banque was closed; banco de la nación is a phrase."), Vec::<String>::new());
        // Russian forms before the name, the Emirates' free-zone forms and others after it.
        assert_eq!(
            orgs("Funds went from PJSC Sovcombank and OOO Stroytransgaz to Baltic Amber Trading FZE, Gulf Star DMCC, Andes Comercial Ltda. and Keller Law PLLC."),
            ["PJSC Sovcombank", "OOO Stroytransgaz", "Baltic Amber Trading FZE", "Gulf Star DMCC", "Andes Comercial Ltda.", "Keller Law PLLC"]
        );
    }

    #[test]
    fn partners_names_escaped_ampersands_and_defined_short_names() {
        let orgs = |t: &str| kinds(t).into_iter().filter(|m| m.1 == "Organization").map(|m| (m.0, m.2)).collect::<Vec<_>>();
        let o = orgs("The firm Hale, Dorr &amp; Partners, Inc. of Boston paid.");
        assert_eq!(o, [("Hale, Dorr &amp; Partners, Inc.".to_string(), "Organization:hale dorr & partners inc".to_string())]);
        assert_eq!(orgs("Acme Trading Ltd (ATL) and Acme Trading Ltd (UK) filed.").into_iter().map(|m| m.0).collect::<Vec<_>>(), ["Acme Trading Ltd", "Acme Trading Ltd (UK)"]);
        // The bracket is the short name of the longer name the finder cut: no discriminator.
        let t = "A co-founder of Imperial Integrative Health Research and Development LLC (Imperial) was sentenced.";
        let mut out = vec![];
        let s = t.find("Development").unwrap_or(0);
        push_org(t, s, s + "Development LLC".len(), &mut out);
        assert_eq!(out[0].surface, "Development LLC");
        // An acronym of every word's initial and a dotted form's letters is the name's own.
        let t = "It sold oil to Petroleos de Venezuela S.A. (PDVSA) in 2019.";
        let mut out = vec![];
        let s = t.find("Petroleos").unwrap_or(0);
        push_org(t, s, s + "Petroleos de Venezuela S.A.".len(), &mut out);
        assert_eq!(out[0].surface, "Petroleos de Venezuela S.A.");
        assert_eq!(orgs("It named Quorra Corporation (Quorra) as a defendant.").into_iter().map(|m| m.0).collect::<Vec<_>>(), ["Quorra Corporation"]);
        // A list of companies is no partnership: a legal form before the comma ends the name.
        assert_eq!(orgs("It sued Acme Ltd, Beta &amp; Co. yesterday.").into_iter().map(|m| m.0).collect::<Vec<_>>(), ["Acme Ltd", "Beta &amp; Co."]);
        assert_eq!(orgs("It sued Gale & Co., Inc. yesterday.").into_iter().map(|m| m.0).collect::<Vec<_>>(), ["Gale & Co., Inc."]);
        assert_eq!(
            orgs("Former employees of Moss, Ferrow and Company, Incorporated left.").into_iter().map(|m| m.0).collect::<Vec<_>>(),
            ["Moss, Ferrow and Company, Incorporated"]
        );
        // "and" between two names with no partnership word after it joins two parties.
        assert_eq!(orgs("It paid Acme and Beta Holdings Ltd.").into_iter().map(|m| m.0).collect::<Vec<_>>(), ["Beta Holdings Ltd"]);
    }

    #[test]
    fn money_in_every_shape() {
        let text = "USD 1,940,000 and $2,000,000 and EUR 1.000.000,00 and 2.5 million dollars and £3m and 12,500 USD; in 2020 USD rates fell.";
        let keys: Vec<String> = kinds(text).into_iter().filter(|m| m.1 == "Money").map(|m| m.2).collect();
        assert_eq!(keys, ["Money:USD 1940000", "Money:USD 2000000", "Money:EUR 1000000", "Money:USD 2500000", "Money:GBP 3000000", "Money:USD 12500"]);
        // A headline's capitals.
        let keys: Vec<String> = kinds("Banker Sentenced for Embezzling $4 Million and 2 Billion Dollars").into_iter().filter(|m| m.1 == "Money").map(|m| m.2).collect();
        assert_eq!(keys, ["Money:USD 4000000", "Money:USD 2000000000"]);
    }

    #[test]
    fn iban_checksums_and_accounts() {
        assert!(iban_valid("GB82 WEST 1234 5698 7654 32"));
        assert!(!iban_valid("GB83 WEST 1234 5698 7654 32"));
        let keys: Vec<String> =
            kinds("Pay into GB82 WEST 1234 5698 7654 32 (SWIFT: WESTGB2L), not GB83 WEST 1234 5698 7654 32; account no. 12345678.").into_iter().map(|m| m.2).collect();
        assert_eq!(keys, ["Account:IBAN GB82WEST12345698765432", "Account:BIC WESTGB2L", "Account:number 12345678"]);
    }

    #[test]
    fn dates_absolute_and_relative() {
        let keys: Vec<String> = kinds("On 4 March 2024, March 5, 2024 and 2024-03-06; yesterday and 3 days later; not 31 February 2024.").into_iter().map(|m| m.2).collect();
        assert_eq!(keys, ["Date:2024-03-04", "Date:2024-03-05", "Date:2024-03-06", "Date:2024-03-03", "Date:2024-03-07"]);
    }

    #[test]
    fn people_by_title_role_and_speech() {
        let text = "Beta Holdings SA shares a director, Marek Novak, with Acme. Mr. John Doe said so. Lena Ortiz, the relationship manager of Acme, agreed.";
        let people: Vec<String> = kinds(text).into_iter().filter(|m| m.1 == "Person").map(|m| m.0).collect();
        assert_eq!(people, ["Marek Novak", "John Doe", "Lena Ortiz"]);
        // Titles after a role word are not names.
        let titles = "Signed by the principal Financial Officer and by Principal Deputy Assistant Attorney General Nicole Argentieri.";
        assert!(kinds(titles).iter().all(|m| m.1 != "Person" || !m.0.contains("Officer") && !m.0.contains("Deputy")), "{:?}", kinds(titles));
        // A possessive's ending is no part of the name.
        let owned: Vec<String> = kinds("Judge Wood's order stood. Mr. Drescher’s friends left.").into_iter().filter(|m| m.1 == "Person").map(|m| m.0).collect();
        assert!(owned.contains(&"Wood".to_string()) && owned.contains(&"Drescher".to_string()) && !owned.iter().any(|n| n.ends_with('s')), "{owned:?}");
    }

    #[test]
    fn people_by_age_apposition_and_prison_term() {
        let people = |t: &str| kinds(t).into_iter().filter(|m| m.1 == "Person").map(|m| m.0).collect::<Vec<_>>();
        assert_eq!(people("Daniyar Zhaxalyk, 26, a citizen of Kazakhstan, was sentenced."), ["Daniyar Zhaxalyk"]);
        assert_eq!(people("Minh Phuong Ngoc Vong, 40, of Bowie, Maryland, pleaded guilty."), ["Minh Phuong Ngoc Vong"]);
        assert_eq!(people("Martin Tasis was sentenced today to 10 years in prison."), ["Martin Tasis"]);
        assert_eq!(people("Former Sergeant First Class Michael Rambaran, 51, of Pearland, Texas, pleaded guilty."), ["Michael Rambaran"]);
        // The name must open its clause, and offices are not names.
        assert!(people("A citizen of the Dominican Republic was sentenced today to 65 months in prison.").is_empty());
        assert!(people("The head of its Mortgage Warehouse Lending Division was sentenced today to eight years in prison.").is_empty());
        // A company is sentenced to fines, not prison terms.
        assert!(people("Credit Suisse was sentenced to pay a fine.").is_empty());
    }

    #[test]
    fn contacts_and_references_found() {
        let keys: Vec<String> =
            kinds("Write to dana@example.com or call +44 20 7946 0958 about WT-1004 and FIN-2014-A001, Case No. 1:23-cv-00456.").into_iter().map(|m| m.2).collect();
        assert_eq!(keys, ["Email:dana@example.com", "Phone:+442079460958", "Reference:WT-1004", "Reference:FIN-2014-A001", "Reference:1:23-CV-00456"]);
    }
}
