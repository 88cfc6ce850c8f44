//! Typed relations between mentions of one sentence, by patterns over a template.
//!
//! The sentence is rewritten with each mention replaced by a placeholder naming its type
//! and index (`«O0»` an organisation, `«P1»` a person, `«M2»` money, `«D3»` a date, `«A4»`
//! an account, `«L5»` a location, `«R6»` a reference, `«X7»` anything else), and each
//! relation's patterns run over that template. A pattern names its subject `s`, object
//! `o`, and optionally money `m`, date `d` and a role word `role`. Patterns may not cross
//! another entity between their arguments unless they say so, which keeps them precise.

use std::sync::LazyLock;

use regex::Regex;

use super::entities::{Mention, ROLES};

/// A relation found in a sentence: indices into the sentence's mentions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Vocabulary relation name.
    pub rel: &'static str,
    /// Subject mention.
    pub subject: usize,
    /// Object mention.
    pub object: usize,
    /// Money mention (amount, currency).
    pub money: Option<usize>,
    /// Date mention stated with it.
    pub date: Option<usize>,
    /// Role word (for OFFICER_OF).
    pub role: Option<String>,
    /// Amounts with their kind (`penalty`, `disgorgement`, …): attribute name and money mention.
    pub extra: Vec<(&'static str, usize)>,
}

/// Cue words of a staff role held at a company ("operations manager", "bookkeeper").
const EMPLOYEE_CUES: &[&str] = &[
    "manager",
    "employee",
    "accountant",
    "bookkeeper",
    "analyst",
    "trader",
    "broker",
    "engineer",
    "supervisor",
    "assistant",
    "clerk",
    "teller",
    "cashier",
    "salesman",
    "saleswoman",
    "representative",
    "specialist",
    "administrator",
    "coordinator",
];

/// Territories that keep a company register of their own but are no country of the
/// demonym list: the places offshore companies are formed in.
const REGISTERS: &[&str] = &[
    "British Virgin Islands",
    "BVI",
    "B.V.I.",
    "Hong Kong",
    "Macau",
    "Macao",
    "Gibraltar",
    "Guernsey",
    "Jersey",
    "Isle of Man",
    "Anguilla",
    "Labuan",
    "Curaçao",
    "Curacao",
    "Aruba",
    "Puerto Rico",
    "Turks and Caicos",
    "Turks and Caicos Islands",
    "Cook Islands",
    "Nevis",
    "Saint Kitts and Nevis",
];

/// The object index of a relation whose object the sentence leaves implied (a settlement's
/// or an order's authority): extraction names it from the document ([`super::enforcement`]).
pub const IMPLIED: usize = usize::MAX;

fn letter(kind: &str) -> char {
    match kind {
        "Organization" => 'O',
        "Person" => 'P',
        "Money" => 'M',
        "Date" => 'D',
        "Account" => 'A',
        "Location" => 'L',
        "Reference" => 'R',
        _ => 'X',
    }
}

/// The template of a sentence: its text with mentions replaced by placeholders.
pub fn template(sentence: &str, base: usize, mentions: &[Mention]) -> String {
    let mut out = String::with_capacity(sentence.len());
    let mut at = 0;
    let mut last: Option<&Mention> = None;
    for (i, m) in mentions.iter().enumerate() {
        let (s, e) = (m.span.0.saturating_sub(base), m.span.1.saturating_sub(base));
        if s < at || e > sentence.len() || !sentence.is_char_boundary(s) || !sentence.is_char_boundary(e) {
            continue;
        }
        // A party's defined short name in brackets right after its name ("BellSouth
        // Corporation (BellSouth) consents …", "Jane Roe (“Roe”)", "Reliance New Energy
        // Solar Ltd (RNESL), a subsidiary of …") is the same party: the template reads on as
        // if it were not there, so the name stays next to its verb.
        if last.is_some_and(|l| l.kind == m.kind && (l.key == m.key || is_capitals(&m.surface) || same_first_word(&l.surface, &m.surface)))
            && matches!(sentence[at..s].trim_start(), "(" | "(\"" | "(“")
            && let Some(close) = [")", "\")", "”)"].iter().find(|c| sentence[e..].starts_with(**c))
        {
            at = e + close.len();
            continue;
        }
        // A charging paper's aside on the court it was filed in ("The complaint, filed under
        // seal in the «O1», charges …") is no party to the sentence: the template reads on
        // as if it were not there, so the paper stays next to its verb.
        if sentence[e..].starts_with(',')
            && (sentence[at..s].ends_with(" in ") || sentence[at..s].ends_with(" the "))
            && let Some(aside) = FILED_IN.captures(&sentence[at..s]).and_then(|c| c.get(1))
        {
            out.push_str(&sentence[at..at + aside.start()]);
            at = e + 1;
            continue;
        }
        last = Some(m);
        out.push_str(without_modifier(&sentence[at..s], m.kind));
        out.push('«');
        out.push(letter(m.kind));
        out.push_str(&i.to_string());
        out.push('»');
        at = e;
    }
    out.push_str(&sentence[at..]);
    out
}

/// The text before a party without a compound modifier that ends it ("to Hong
/// Kong-registered «O2»", "Istanbul-based «O0»"): where the party is, said as an adjective,
/// stands between a verb and its object; the template reads on as if it were not there.
fn without_modifier<'a>(gap: &'a str, kind: &str) -> &'a str {
    if !matches!(kind, "Organization" | "Person") || !gap.ends_with(' ') || !gap.contains('-') {
        return gap;
    }
    let body = gap.trim_end();
    let Some(space) = body.rfind(' ') else { return gap };
    if crate::ner::modifier_compound_head(&body[space + 1..]).is_none() {
        return gap;
    }
    // (With the capitalised words of the place before the compound: "Hong" of "Hong Kong-".)
    let mut cut = space;
    for _ in 0..2 {
        match body[..cut].rfind(' ') {
            Some(k) if body[k + 1..cut].starts_with(char::is_uppercase) && !body[k + 1..cut].ends_with([',', '.', ';', ':']) => cut = k,
            _ => break,
        }
    }
    &gap[..cut + 1]
}

/// The start of an aside that places a charging paper in its court, up to the court's name
/// (", filed under seal in the ", ", which was filed in federal court in ").
pub(super) static FILED_IN: LazyLock<Regex> = LazyLock::new(|| {
    tg_text::pattern::constant(
        r"(?i)\b(?:complaint|indictment|information|action|lawsuit|suit|petition|order|judgment|motion)(,\s*(?:which was\s+|that was\s+)?(?:filed|entered|unsealed|returned|brought)\b[^,«»]{0,60}?\bin\s+(?:the\s+)?)$",
    )
});

/// Whether a bracketed name of two words or more opens with its party's first word ("HSBC
/// Holdings plc (HSBC Group)"): the party's short name.
fn same_first_word(name: &str, short: &str) -> bool {
    short.split_whitespace().count() >= 2 && name.split_whitespace().next().is_some_and(|w| short.split_whitespace().next() == Some(w))
}

/// A short name in capitals ("RNESL", "KC LLC", "AT&T"): a defined term's usual form.
fn is_capitals(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_uppercase()) && s.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || matches!(b, b' ' | b'&' | b'-' | b'.'))
}

// Argument shapes. `ORG`, `PER`, `PARTY` capture one placeholder; `GAP` is text with no
// placeholder in it.
pub(super) const ORG: &str = r"«O(\d+)»";
/// A party; a title may stand before a person ("paid Mr. «P1»").
pub(super) const PARTY: &str = r"(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+)?«[OP](\d+)»";
pub(super) const PER: &str = r"(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof|Sir)\.?\s+)?«P(\d+)»";
pub(super) const GAP: &str = r"[^«»]{0,60}?";
pub(super) const SHORT: &str = r"[^«»]{0,25}?";
/// Where a party lives, after its name: `of «L1»`, `of «L1», «L2»`, `of «L1», Mich.` (the
/// patterns put their own space or comma before it).
pub(super) const LIVES_IN: &str = r"of\s+«L\d+»(?:\s*,\s*(?:«L\d+»|[A-Z][a-z]{1,4}\.))?";
/// Where a person lives, after the name (and age): ", of «L1», «L2»", ", formerly of «L1»",
/// ", a resident of «L1», Fla.", of several: ", both of «L1»", ", all residents of «L1»,
/// «L2»." (a state's abbreviation read as a place, its period after it), and a town no list
/// holds before its state (", of Oak Brook, «L1»"). The comma after it is the pattern's.
pub(super) const HOME: &str = r"(?:\s*,?\s*(?:(?:formerly|currently|also|both|all|each)\s+)?(?:of|an?\s+residents?\s+of|residents\s+of)\s+(?:«L\d+»(?:\s*,\s*(?:«L\d+»\.?|[A-Z][a-z]{1,4}\.))?|(?:[A-Z][a-z]+\s+){0,2}[A-Z][a-z]+\s*,\s*«L\d+»\.?))?";
/// After a company bought: the end of the object, not "stock", "shares" or "options" of
/// it (buying "Acme stock" is no acquisition of Acme).
const WHOLE: &str = r"(?:\s*(?:[,.;:()|–—]|$)|\s+(?:for|from|in|on|at|and|by|to|with|which|that|after|before|last|this|earlier|through|via|as|under|shortly)\b)";
/// What may describe a subsidiary before the word: "wholly owned", "indirectly wholly -
/// owned", "plant-based foods", a place ("a wholly owned Swedish subsidiary"); up to five
/// words joined by spaces or hyphens.
const SUBSIDIARY_WORDS: &str = r"(?:(?:[A-Za-z][a-z]*|«L\d+»)(?:\s*-\s*|\s+)){0,5}?";
/// A description set off by commas after a subject ("Amphenol, a manufacturer of fiber
/// optic equipment, is acquiring …": lowercase words, no other party but a place first, "a
/// «L1» private equity firm") or a relative clause
/// ("X, which is consolidated by Y, acquired …": one party at most).
const APPOSITION: &str = r"(?:\s*,\s+(?:(?:a|an|the)\s+(?:«L\d+»(?:-based)?\s+)?[a-z][^«»,]{0,60}?|(?:which|who)\s+[^«»,]{0,40}?(?:«[OP]\d+»[^«»,]{0,10}?)?),)?";
/// A party's age after its name and a comma (", 32", ", age 49"), as ledes and biographies
/// write it.
pub(super) const AN_AGE: &str = r"(?:\s*,\s*(?:age\s+|aged\s+)?\d{1,3})";
/// A defined term and an age in apposition after a person ("X ("E. Doe"), age 49, was …",
/// "X, 52, is …"), in a biography's usual place between the name and what the person was.
const AGE: &str = r"(?:\s*\([^()«»]{0,40}\))?(?:\s*,\s*(?:age\s+|aged\s+)?\d{1,3}\s*,)?";
/// A person's nationality in apposition ("X, a «L1» national residing in «L2», paid …"):
/// the place is no party to what the person did.
const NATIONAL: &str =
    r"(?:\s*,?\s*an?\s+(?:[a-z-]+\s+)?«L\d+»\s+(?:national|citizen|resident|businessman|businesswoman)(?:\s+(?:residing|living|based)\s+in\s+«L\d+»(?:\s*,\s*«L\d+»)?)?\s*,)?";
/// Verbs that put a person in a role ("is", "has been", "served as").
const SERVES: &str = r"(?:(?:previously|currently|also|formerly|most\s+recently)\s+)?(?:is|was|are|were|has\s+been|had\s+been|serves\s+as|served\s+as|has\s+served\s+as|became|remains)(?:\s+(?:also|previously|currently|formerly))?";

struct Pattern {
    rel: &'static str,
    /// Words one of which every match contains (any case): the pattern runs only on a
    /// template that has one.
    cues: &'static [&'static str],
    re: Regex,
    /// Capture group numbers of subject and object (by position in the pattern).
    swap: bool,
    /// The cues are whole words as written ([`whole_words`]).
    exact: bool,
    /// The cues count only as whole words.
    whole: bool,
    /// The placeholders its argument groups read ([`super::placeholders`]).
    needs: super::placeholders::Needs,
}

/// `p` with cue words that its every match contains as whole words (between `\b`s or
/// spaces in the pattern), as written when `exact` (the pattern is case-sensitive there),
/// else in any case: a tighter gate than cue substrings ("sent" is no cue in "present",
/// "sues" none in "issues").
fn whole_words(mut p: Pattern, exact: bool, cues: &'static [&'static str]) -> Pattern {
    p.cues = cues;
    p.exact = exact;
    p.whole = true;
    p
}

fn pat(rel: &'static str, cues: &'static [&'static str], p: String, swap: bool) -> Pattern {
    // Word boundaries are ASCII ones: the patterns' words are English, and a Unicode `\b`
    // makes the regex engine leave its DFA for a much slower search on any non-ASCII text
    // (every template is: its placeholders are «»).
    let p = p.replace(r"\b", r"(?-u:\b)");
    let needs = super::placeholders::Needs::of(&p);
    Pattern { rel, cues, re: tg_text::pattern::constant(&p), swap, exact: false, whole: false, needs }
}

/// The cue words of the family and business ties (substrings: "son" is in "son-in-law").
/// A family or business tie before a person's name ("his wife, Y", "her longtime business
/// partner, Y"); the tie is the `role` group.
const KIN: &str = r"(?:(?:longtime|long-time|close|childhood|older|younger|elder|then-|estranged)\s*)?(?P<role>(?:(?:former|ex-|business|step)\s*){0,2}(?:wife|husband|spouse|son|daughter|brother|sister|father|mother|nephew|niece|cousin|uncle|aunt|partner|son-in-law|daughter-in-law|brother-in-law|sister-in-law|father-in-law|mother-in-law|stepson|stepdaughter|girlfriend|boyfriend|friend))";

/// "his wife, Y" where every person the sentence names before it is one, by key ("Voss
/// wired the money to an account he held jointly with his wife, Y"; "Rourke owns 80% of
/// «O»; his wife, Y, owns the rest"): Y is associated with that person, the tie its role.
fn kin_of_the_one_person(template: &str, mentions: &[Mention], out: &mut Vec<Found>) {
    static TIE: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(&format!(r"(?-u:\b)(?:his|her)\s+{KIN}\s*,\s+(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?«P(?P<y>\d+)»")));
    static PERSON: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(r"«P(\d+)»"));
    if !template.contains("his ") && !template.contains("her ") {
        return;
    }
    for c in TIE.captures_iter(template) {
        let (Some(whole), Some(y)) = (c.get(0), c.name("y").and_then(|y| y.as_str().parse::<usize>().ok())) else { continue };
        let before: Vec<usize> = PERSON.captures_iter(&template[..whole.start()]).filter_map(|p| index(&p, 1)).collect();
        let Some(&first) = before.first() else { continue };
        let key = |i: usize| mentions.get(i).map(|m| m.key.as_str());
        if key(first).is_none() || before.iter().any(|&i| key(i) != key(first)) || key(first) == key(y) {
            continue;
        }
        let role = c.name("role").map(|r| r.as_str().split_whitespace().collect::<Vec<_>>().join(" "));
        out.push(Found { rel: "ASSOCIATED_WITH", subject: y, object: first, money: None, date: None, role, extra: vec![] });
    }
}

const KIN_CUES: &[&str] =
    &["wife", "husband", "spouse", "son", "daughter", "brother", "sister", "father", "mother", "nephew", "niece", "cousin", "uncle", "aunt", "partner", "friend"];

/// The transfer verbs of the TRANSFERRED patterns, as whole words.
const TRANSFER_WORDS: &[&str] = &["wire", "wired", "sent", "send", "transferred", "transfer", "remitted", "remit", "moved", "move", "routed", "route"];

/// The cue words of the officer patterns' role words.
const OFFICER_CUES: &[&str] =
    &["chief", "chair", "president", "secretary", "treasurer", "counsel", "director", "officer", "controller", "manager", "principal", "managing", "CEO", "CFO", "COO"];

/// The words that describe a company before its noun: "a shell company", "a Delaware limited
/// liability company", "a «L» corporation" (a place or a demonym: "a German company", "a
/// Bahamas corporation"), "a Miami-based entity".
const KIND_WORDS: &str = r"(?:(?:[A-Z]?[a-z-]+|«L\d+»(?:-based)?)\s+){0,3}?";

/// The nouns for a business that a company is described as ("a dealership owned by X").
const BUSINESS_NOUNS: &str = r"(?:company|entity|firm|corporation|fund|vehicle|business|dealership|clinic|pharmacy|partnership|bank|brokerage|agency|restaurant|store|practice|consultancy|broker-dealer|distributor|supplier|vendor|manufacturer|wholesaler|contractor|subcontractor|dealer|lender|retailer)";

/// A relative or an associate described before their name after "by": "owned by his
/// cousin, X", "controlled by her business partner, X".
const RELATIVE: &str = r"(?:(?:his|her|their|its)\s+(?:[a-z-]+\s+){0,2}?(?:wife|husband|spouse|son|daughter|brother|sister|father|mother|cousin|nephew|niece|uncle|aunt|girlfriend|boyfriend|partner|associate|friend|in-law|brother-in-law|sister-in-law|son-in-law|father-in-law)\s*,\s+)?";

/// The legal kinds of bodies in the plural, after the place their law is ("both Delaware
/// corporations", "all New Jersey limited liability companies").
const PLURAL_KINDS: &str = r"(?:corporations|(?:limited\s+liability\s+|exempted\s+|business\s+|international\s+business\s+|shell\s+|holding\s+)?companies|(?:limited\s+liability\s+|limited\s+|general\s+)?partnerships|LLCs)\b";

/// What a payee is called before its name: "paid patient recruiter X", "paid a foreign
/// official, X" (the name after it is the payee).
const PAYEE_ROLES: &str = r"(?:recruiters?|brokers?|consultants?|agents?|officials?|employees?|marketers?|promoters?|nominees?|doctors?|physicians?|contractors?|insiders?|accomplices?|co-conspirators?|associates?|intermediar(?:y|ies)|middlem[ae]n|lobbyists?|finders?|couriers?|representatives?)\s*,?";

/// The party a transfer's money came from, after "from": a party, its account ("Y's escrow
/// account") or an account held by it; an account at a bank ("from his account at Y") is
/// the subject's own, the bank none of the parties.
const SOURCE: &str = r"(?:(?:an?|the|its|his|her|their)\s+(?:[a-z-]+\s+)?accounts?\s+(?:at|with)\s+(?:the\s+)?«O\d+»|(?:the\s+)?(?:(?:an?|its|his|her|their)\s+)?(?:(?:[a-z-]+\s+)?accounts?\s+(?:of|held\s+by|controlled\s+by|owned\s+by|maintained\s+by)\s+(?:the\s+)?)?«[OP](?P<holder>\d+)»(?:\s?['’]s?(?:\s+[a-z-]+){0,2}?\s+accounts?)?)";

/// A company's kind before its name, in apposition after a verb: "controlled a freight
/// forwarder, «O1»", "controlled its general partner, «O1»".
const KIND_FIRST: &str = r"(?:(?:an?|the|its|his|her|their)\s+(?:[a-z-]+\s+){0,3}?[a-z-]+\s*,\s+)?";

/// Where a company described by its kind is seated, before how it is owned or controlled:
/// "a company incorporated in the «L1» and owned by X".
const SEATED_AND: &str = r"(?:(?:incorporated|organized|registered|formed|based|headquartered|located)\s+in\s+(?:the\s+)?«L\d+»(?:,\s+«L\d+»)?,?\s+and\s+)?";

/// Where a company described by its kind is seated, before a relative clause on who owns
/// or controls it: "a free-zone company registered in «L1», «L2», that X controls".
const SEATED: &str = r"(?:(?:incorporated|organized|registered|formed|based|headquartered|located)\s+in\s+(?:the\s+)?«L\d+»(?:,\s+«L\d+»)?,?\s+)?";

/// A place the money came from, with no party: "from accounts in «L1»", "from «L1»".
const PLACE_SOURCE: &str = r"(?:(?:an?|the|its|his|her|their)\s+)?(?:[a-z-]+\s+){0,2}?«L\d+»(?:,\s+«L\d+»)?";

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    let transfer_verbs = r"(?:wired?|sent|send|transferred|transfer|remitted|remit|moved|move|routed|route|wire-transferred)";
    let mut v = vec![
        // X wired USD 1m to Y / X sent Y USD 1m
        whole_words(
            // (The payee may be the holder of the account the money went to: "to an account
            // held by Y", "to bank accounts controlled by Y". The payer is the party the money
            // came from when the sentence names one: "X transferred $850,000 from Y's escrow
            // account to Z" is Y's money sent to Z by X's hand, as "X caused Y to wire" is.)
            pat(
                "TRANSFERRED",
                &[],
                format!(
                    r"{PARTY}(?:\s*\([^()«»]*\))?{SHORT}\b(?P<tv>{transfer_verbs})\b{GAP}(?:«M(?P<m>\d+)»{GAP})?(?:\bfrom\s+(?:{SOURCE}|{PLACE_SOURCE}){SHORT})?\bto\s+(?:the\s+)?(?:(?:(?:an?|the|its|his|her|their)\s+)?(?:(?:bank|brokerage|offshore|nominee)\s+)?accounts?\s+(?:(?:at|with|in)\s+(?:the\s+)?«[OL]\d+»\s+)?(?:(?:held|controlled|owned|maintained|opened)\s+by|held\s+in\s+the\s+names?\s+of)\s+(?:the\s+)?)?{RELATIVE}(?:(?:co-defendant|co-conspirator|accomplice|associate|nominee)\s+)?{PARTY}"
                ),
                false,
            ),
            true,
            TRANSFER_WORDS,
        ),
        // USD 1m was wired by X to Y
        whole_words(
            pat("TRANSFERRED", &[], format!(r"(?:«M(?P<m>\d+)»)?{SHORT}\b(?:was|were|had been|has been)\s+{transfer_verbs}\s+(?:by|from)\s+{PARTY}{SHORT}\bto\s+{PARTY}"), false),
            true,
            TRANSFER_WORDS,
        ),
        // X (laundered the proceeds) by transferring USD 1m (from Y's account at Z) to W: the
        // gerund's subject is the clause's.
        whole_words(
            pat(
                "TRANSFERRED",
                &[],
                format!(
                    r"{PARTY}{AGE}{HOME}[^«»;]{{0,80}}?\bby\s+(?P<tv>wiring|transferring|sending|remitting|routing|moving)\b{GAP}(?:«M(?P<m>\d+)»{GAP})?(?:\bfrom\s+(?:{SOURCE}|{PLACE_SOURCE})(?:\s+(?:at|with)\s+(?:the\s+)?«O\d+»)?{SHORT})?\bto\s+(?:the\s+)?(?:(?:(?:an?|the|its|his|her|their)\s+)?(?:(?:bank|brokerage|offshore|nominee)\s+)?accounts?\s+(?:(?:at|with|in)\s+(?:the\s+)?«[OL]\d+»\s+)?(?:(?:held|controlled|owned|maintained|opened)\s+by|held\s+in\s+the\s+names?\s+of)\s+(?:the\s+)?)?{RELATIVE}(?:(?:co-defendant|co-conspirator|accomplice|associate|nominee)\s+)?{PARTY}"
                ),
                false,
            ),
            true,
            &["wiring", "transferring", "sending", "remitting", "routing", "moving"],
        ),
        // Y received USD 1m from X
        pat("RECEIVED_FROM", &["received"], format!(r"{PARTY}{AGE}{HOME}{SHORT}\breceived\b{GAP}(?:«M(?P<m>\d+)»{GAP})?\bfrom\s+{PARTY}"), false),
        // Y accepted USD 1m / (cash) payments (totaling USD 1m) / bribes from X; not an
        // offer or a position: only money is accepted so.
        pat(
            "RECEIVED_FROM",
            &["accepted"],
            format!(
                r"{PARTY}{AGE}{HOME}{SHORT}\baccepted\s+(?:[a-z-]+\s+){{0,3}}?«M(?P<m>\d+)»(?:\s+in\s+(?:[a-z-]+\s+)?(?:payments?|bribes?|kickbacks?|cash|gifts?))?\s+from\s+{PARTY}"
            ),
            false,
        ),
        pat(
            "RECEIVED_FROM",
            &["accepted"],
            format!(
                r"{PARTY}{AGE}{HOME}{SHORT}\baccepted\s+(?:[a-z-]+\s+){{0,2}}?(?:payments?|bribes?|kickbacks?|cash|money|funds|gifts?|loans?)\b(?:\s+(?:totaling|totalling|of|worth|amounting\s+to)\s+(?:[a-z]+\s+){{0,2}}?«M(?P<m>\d+)»)?\s+from\s+{PARTY}"
            ),
            false,
        ),
        // X paid Y USD 1m / X paid USD 1m to Y
        pat(
            "PAID",
            &["paid"],
            format!(
                r"{PARTY}{AGE}{HOME}{NATIONAL}{SHORT}\bpaid\s+(?:(?:[a-z-]+\s+){{0,2}}?{PAYEE_ROLES}\s+)?{PARTY}(?:{AGE}{HOME}\s*,?\s*(?:(?:approximately|about|more\s+than|over|at\s+least|nearly|roughly|a\s+total\s+of)\s+)?«M(?P<m>\d+)»)?"
            ),
            false,
        ),
        // The sentence's subject, who did one thing "and paid Y" ("X, 39, of «L», received a
        // loan for «O» and paid Y a kickback of $N"): X paid.
        pat(
            "PAID",
            &["paid"],
            format!(
                r"^(?:[^«»,]{{0,30}},\s+)?{PER}{AGE}{HOME}\s*,?\s+[a-z]+ed\b(?:[^«»;,]|«[OMLD]\d+»){{1,120}}?\s+and\s+(?:then\s+)?paid\s+{PARTY}(?:\s+an?\s+(?:[a-z-]+\s+){{0,2}}?of\s+«M(?P<m>\d+)»)?"
            ),
            false,
        ),
        // A payer made to pay by another: "Brennan caused «O1» to pay «O2» (, a company owned
        // by …,) approximately «M3»", "arranged for «O1» to pay «O2»": «O1» paid.
        whole_words(
            pat(
                "PAID",
                &[],
                format!(
                    r"\b(?:caused|causing|directed|directing|instructed|instructing|induced|inducing|arranged\s+for|arranging\s+for)\s+{PARTY}\s+to\s+pay\s+{PARTY}(?:\s*«M(?P<m>\d+)»)?"
                ),
                false,
            ),
            false,
            &["caused", "causing", "directed", "directing", "instructed", "instructing", "induced", "inducing", "arranged", "arranging"],
        ),
        // Money before its payer, in a relative clause: "about «M1» that X paid in 2021 to Y".
        pat("PAID", &["paid"], format!(r"«M(?P<m>\d+)»\s+(?:that|which)\s+{PARTY}\s+paid\b[^«»;,]{{0,30}}?\bto\s+(?:the\s+)?{PARTY}"), false),
        pat(
            "PAID",
            &["paid"],
            format!(
                r"{PARTY}{AGE}{HOME}{SHORT}\bpaid\s+(?:(?:more\s+than|over|about|approximately|at\s+least|nearly|roughly|a\s+total\s+of)\s+)?(?:«M(?P<m>\d+)»){GAP}\bto\s+{PARTY}"
            ),
            false,
        ),
        // X, a (wholly-owned) subsidiary of Y / X is a subsidiary of Y
        pat(
            "SUBSIDIARY_OF",
            &["subsidiary"],
            format!(r"{ORG}(?:\s*\([^()«»]*\))?\s*,?\s+(?:is\s+|was\s+|became\s+)?(?:a|an|the)\s+{SUBSIDIARY_WORDS}subsidiary\s+of\s+{ORG}"),
            false,
        ),
        // Y's subsidiary, X
        pat("SUBSIDIARY_OF", &["subsidiary"], format!(r"{ORG}\s?['’]s?\s+{SUBSIDIARY_WORDS}subsidiary\s*,?\s+{ORG}"), true),
        // X's parent (company), Y
        pat("SUBSIDIARY_OF", &["parent"], format!(r"{ORG}\s?['’]s?\s+(?:ultimate\s+)?parent(?:\s+company)?\s*,\s+{ORG}"), false),
        // X, through its (wholly owned) subsidiary Y, …
        pat("SUBSIDIARY_OF", &["subsidiar"], format!(r"{ORG}\s*,?\s+(?:acting\s+|operating\s+)?(?:through|via)\s+its\s+{SUBSIDIARY_WORDS}subsidiar(?:y|ies)\s*,?\s+{ORG}"), true),
        // X is the parent (company) of Y / X (parent company of Y)
        pat(
            "SUBSIDIARY_OF",
            &["parent"],
            format!(
                r"{ORG}(?:\s*\([^()«»]*\))?(?:\s*,\s*|\s*\(\s*|\s+)(?:is\s+|was\s+|became\s+|as\s+)?(?:the\s+|a\s+)?(?:ultimate\s+|direct\s+|indirect\s+)?parent(?:\s+company)?\s+of\s+(?:its\s+)?{SUBSIDIARY_WORDS}{ORG}"
            ),
            true,
        ),
        // X, a director of Y / X is a director of Y / X serves as director of Y
        pat(
            "DIRECTOR_OF",
            &["director"],
            format!(
                r"{PER}\s*,?\s+(?:{SERVES}\s+)?(?:a|an|the|its)?\s*(?:(?i:former|sole|non-executive|independent|executive|finance)\s+)?(?i:director)\s+(?:of|at)\s+(?:the\s+)?{ORG}"
            ),
            false,
        ),
        // Y's director, X
        pat("DIRECTOR_OF", &["director"], format!(r"{ORG}['’]s?\s+(?:sole\s+|former\s+)?director,?\s+{PER}"), true),
        // X owns Y / X holds N% of Y
        pat(
            "OWNS",
            &["owns", "owned", "holds", "held"],
            format!(r"{PARTY}{SHORT}\b(?:owns|owned|holds|held)\s+(?:\d+(?:\.\d+)?\s?%|(?:all|most|a majority|a stake|shares)\b[^«»]{{0,20}}?)?\s*(?:of\s+|in\s+)?{ORG}"),
            false,
        ),
        // X, (52,) (of «L», «L»,) (who) (also) owns / owned (and operated) Y
        pat(
            "OWNS",
            &["owns", "owned"],
            format!(
                r"{PER}{AGE}(?:\s*,?\s+{LIVES_IN})?{NATIONAL}\s*,?\s+(?:who\s+)?(?:also\s+|allegedly\s+)?(?:owns|owned)(?:\s+and\s+(?:operates|operated|manages|managed|runs|ran|controls|controlled))?\s+(?:the\s+)?{ORG}"
            ),
            false,
        ),
        // X, (55,) the (former) owner of Y / X, owner and operator of Y / Y's owner, X / X, the
        // sole member (shareholder) of Y (an LLC's or a corporation's one owner)
        pat(
            "OWNS",
            &["owner", "sole"],
            format!(
                r"{PER}{AGE}{HOME}\s*,?\s+(?:{SERVES}\s+)?(?:the\s+|an?\s+|its\s+)?(?:(?:president|chief\s+executive\s+officer|CEO|co-?founder|founder|manager|operator)(?:\s*,\s*|\s+and\s+)){{0,2}}(?:(?:former\s+|sole\s+|majority\s+|co-?|part[- ])?owners?|sole\s+(?:member|shareholder|stockholder))(?:(?:\s*,\s*|\s*,?\s+and\s+)(?:operator|manager|president|chief\s+[a-z]+\s+officer|chief\s+executive|compliance\s+officer|CEO|CFO|COO|managing\s+member|director)){{0,2}}\s+of\s+(?:the\s+)?{ORG}"
            ),
            false,
        ),
        pat("OWNS", &["owner"], format!(r"{ORG}['’]s?\s+(?:former\s+|sole\s+|majority\s+|co-?)?owner,?\s+{PER}"), true),
        // X, Y's president and sole owner (the owner after the company's other roles)
        pat("OWNS", &["owner"], format!(r"{PER}\s*,\s+{ORG}['’]s?\s+(?:[a-z-]+\s+){{1,4}}?and\s+(?:sole\s+|majority\s+|principal\s+|co-?)?owner\b"), false),
        // X owned and operated Y (a clinic, a supply company: owning it is the relation)
        pat(
            "OWNS",
            &["owns", "owned"],
            format!(r"{PARTY}{SHORT}\b(?:owns|owned)\s+and\s+(?:operates|operated|manages|managed|runs|ran|controls|controlled)\s+(?:the\s+)?{ORG}"),
            false,
        ),
        // Y is (wholly) owned (and operated) by X
        pat(
            "OWNS",
            &["owned"],
            format!(
                r"{ORG}{SHORT}\b(?:is|was|are|were)\s+(?:wholly\s+|partly\s+|majority[- ]|jointly\s+|ultimately\s+|secretly\s+|indirectly\s+|beneficially\s+)?owned(?:\s+and\s+(?:operated|managed|controlled|run))?\s+by\s+{PARTY}"
            ),
            true,
        ),
        // X controls Y / Y is controlled by X
        pat("CONTROLS", &["controls", "controlled"], format!(r"{PARTY}{SHORT}\b(?:controls|controlled)\s+{KIND_FIRST}{ORG}"), false),
        pat(
            "CONTROLS",
            &["controlled"],
            format!(r"{ORG}{SHORT}\b(?:is|was|are|were)\s+(?:(?:ultimately|effectively|secretly|indirectly|actually|jointly|also)\s+)?controlled\s+by\s+{PARTY}"),
            true,
        ),
        // "companies controlled by X, including Y": Y is one of them.
        pat(
            "CONTROLS",
            &["controlled"],
            format!(
                r"\b(?:compan(?:y|ies)|entities|businesses|firms|accounts)\s+(?:that\s+(?:were|was|are|is)\s+)?(?:(?:owned|beneficially\s+owned)\s+(?:or|and)\s+)?controlled\s+by\s+{PARTY}\s*,\s+including\s+{ORG}"
            ),
            false,
        ),
        // Y, a (shell) company controlled/owned by X (operated, run or managed by X)
        pat(
            "CONTROLS",
            &["controlled", "operated", "run", "managed"],
            format!(
                r"{ORG}(?:\s*\([^()«»]*\))?,\s+(?:an?\s+|the\s+)?{KIND_WORDS}{BUSINESS_NOUNS}\s+{SEATED_AND}(?:ultimately\s+|secretly\s+)?(?:controlled|operated|run|managed)\s+by\s+{RELATIVE}{PARTY}"
            ),
            true,
        ),
        // X formed (set up, incorporated) Y / Y, a company X (had) formed: the one who formed a
        // company runs it, as enforcement texts tell of shell companies.
        pat("CONTROLS", &["formed", "set up", "incorporated"], format!(r"{PARTY}{SHORT}\b(?:formed|set\s+up|incorporated)\s+{ORG}"), false),
        pat(
            "CONTROLS",
            &["formed", "set up", "incorporated"],
            format!(r"{ORG}(?:\s*\([^()«»]*\))?,\s+(?:an?\s+|the\s+)?{KIND_WORDS}{BUSINESS_NOUNS}\s+(?:that\s+|which\s+)?{PARTY}\s+(?:had\s+)?(?:formed|set\s+up|incorporated)\b"),
            true,
        ),
        pat(
            "OWNS",
            &["owned"],
            format!(
                r"{ORG}(?:\s*\([^()«»]*\))?,\s+(?:an?\s+|the\s+)?{KIND_WORDS}{BUSINESS_NOUNS}\s+{SEATED_AND}(?:wholly\s+|ultimately\s+|jointly\s+|secretly\s+|nominally\s+|ostensibly\s+|purportedly\s+|formally\s+)?owned\s+by\s+{RELATIVE}{PARTY}"
            ),
            true,
        ),
        // Y, a company (nominally) owned by X but (in fact) controlled by Z: Z controls it.
        pat(
            "CONTROLS",
            &["controlled"],
            format!(
                r"{ORG}(?:\s*\([^()«»]*\))?,\s+(?:an?\s+|the\s+)?{KIND_WORDS}{BUSINESS_NOUNS}\s+{SEATED_AND}(?:[a-z]+ly\s+)?owned\s+by\s+{RELATIVE}(?:(?:Mr|Mrs|Ms|Miss|Dr)\.?\s+)?«[OP]\d+»\s*,?\s+(?:and|but)\s+(?:(?:ultimately|actually|in\s+fact|secretly|really|effectively)\s+)?controlled\s+by\s+{RELATIVE}{PARTY}"
            ),
            true,
        ),
        // Y, a company X controlled / owned (a relative clause without its pronoun).
        pat(
            "CONTROLS",
            &["controlled", "controls"],
            format!(
                r"{ORG}(?:\s*\([^()«»]*\))?,\s+(?:an?\s+|the\s+)?{KIND_WORDS}(?:compan(?:y|ies)|entity|firm|corporation|fund|vehicle)\s+{SEATED}(?:that\s+|which\s+)?{PARTY}\s+(?:also\s+|secretly\s+|effectively\s+)?(?:controlled|controls)\b"
            ),
            true,
        ),
        pat(
            "OWNS",
            &["owned", "owns"],
            format!(
                r"{ORG}(?:\s*\([^()«»]*\))?,\s+(?:an?\s+|the\s+)?{KIND_WORDS}(?:company|entity|firm|corporation|fund|vehicle)\s+{SEATED}(?:that\s+|which\s+)?{PARTY}\s+(?:also\s+|secretly\s+)?(?:owned|owns)\b"
            ),
            true,
        ),
        // X is the (ultimate) beneficial owner of Y / Y's beneficial owner, X
        pat(
            "BENEFICIAL_OWNER_OF",
            &["beneficial"],
            format!(r"{PARTY},?\s+(?:is|was|as|being)?\s*(?:the|a|an)\s+(?:ultimate\s+)?beneficial\s+owner\s+of\s+(?:the\s+account\s+of\s+)?{ORG}"),
            false,
        ),
        pat("BENEFICIAL_OWNER_OF", &["beneficial"], format!(r"{ORG}['’]s?\s+(?:ultimate\s+)?beneficial\s+owner,?\s+(?:is\s+)?{PARTY}"), true),
        pat("BENEFICIAL_OWNER_OF", &["beneficial"], format!(r"\bthe\s+(?:ultimate\s+)?beneficial\s+owner\s+of\s+{ORG}\s+(?:is|was)\s+{PARTY}"), true),
        // X acquired Y / Y was acquired by X
        pat(
            "ACQUIRED",
            &["acquired", "bought", "purchased", "took"],
            format!(r"{PARTY}{SHORT}\b(?:acquired|bought|purchased|took over)\s+(?:substantially\s+all\s+of\s+)?{ORG}{WHOLE}"),
            false,
        ),
        // Y's 2001 acquisition by X
        pat("ACQUIRED", &["acquisition"], format!(r"{ORG}(?:['’]s?|s)\s+(?:(?:19|20)\d\d\s+)?acquisition\s+by\s+{PARTY}"), true),
        // Y's general partner, X: a general partner runs (controls) the partnership.
        pat("CONTROLS", &["general partner"], format!(r"{ORG}['’]s?\s+general\s+partner,?\s+{PARTY}"), true),
        pat(
            "ACQUIRED",
            &["acquired", "bought", "purchased", "taken"],
            format!(r"{ORG}{SHORT}\b(?:was|were|has been|had been)\s+(?:acquired|bought|purchased|taken over)\s+by\s+{PARTY}"),
            true,
        ),
        // X, an employee of Y / a contracting officer (an agent, an executive) with Y / X
        // works for Y
        whole_words(
            pat(
                "EMPLOYED_BY",
                &[],
                format!(
                    r"{PER}{AGE}{HOME}\s*,?\s+(?:is\s+|was\s+|at\s+the\s+time\s+|then\s+)?(?:an?\s+)?(?:former\s+)?(?:(?:employee|staff member|banker|analyst|accountant|trader|clerk|broker|consultant|(?:registered|investment\s+advis[eo]r|sales)\s+representative|(?:relationship\s+)?manager)\s+(?:of|at|with)|(?:(?:contracting|loan|procurement|program|police|customs|credit|acquisition)\s+officer|(?:[a-z-]+\s+)?(?:official|agent|specialist|engineer|auditor|examiner|executive))\s+(?:with|at))\s+(?:the\s+)?{ORG}"
                ),
                false,
            ),
            true,
            &[
                "employee",
                "staff",
                "banker",
                "analyst",
                "accountant",
                "trader",
                "clerk",
                "broker",
                "consultant",
                "representative",
                "manager",
                "officer",
                "official",
                "agent",
                "specialist",
                "engineer",
                "auditor",
                "examiner",
                "executive",
            ],
        ),
        pat("EMPLOYED_BY", &["work"], format!(r"{PER}{SHORT}\b(?:works|worked|working)\s+(?:for|at)\s+{ORG}"), false),
        // (not "employed with Y's division": the organisation is the employer itself)
        pat("EMPLOYED_BY", &["employed"], format!(r"{PER}{SHORT}\b(?:is|was)\s+employed\s+(?:by|with)\s+{ORG}(?:[\s,.;]|$)"), false),
        // "X, 49, a physician employed at Y", "X, who was employed by Y"
        pat(
            "EMPLOYED_BY",
            &["employed"],
            format!(r"{PER}{AGE}\s*,?\s+(?:who\s+(?:is|was)\s+|an?\s+(?:[a-z-]+\s+){{0,2}}?)employed\s+(?:by|at|with)\s+(?:the\s+)?{ORG}(?:[\s,.;]|$)"),
            false,
        ),
        // X registered/incorporated/organized in L (no clause's comma between: "Of the companies
        // Treasury designated, six are registered in the BVI" registers no Treasury)
        pat(
            "REGISTERED_AT",
            &["registered", "incorporated", "domiciled", "organized", "organised", "formed", "established"],
            format!(r"{ORG}(?:\s*\([^()«»]*\))?,?[^«»,]{{0,25}}?\b(?:registered|incorporated|domiciled|organized|organised|formed|established)\s+in\s+(?:the\s+)?«L(\d+)»"),
            false,
        ),
        // X, a Delaware corporation / X is a Nevada limited liability company: the law it is
        // organised under, named by the place before the legal kind of body. A business's
        // line between them ("a Florida property management company") or "-based" says where
        // it works, not where it is registered.
        pat(
            "REGISTERED_AT",
            &["corporation", "company", "partnership", "LLC", "L.L.C.", "trust"],
            format!(
                r"{ORG}(?:\s*\([^()«»]*\))?(?:\s*,\s+|\s+(?:is|was)\s+)an?\s+(?:(?:publicly[\s-]traded|privately[\s-]held|private|public|wholly[\s-]owned)\s+)?«L(\d+)»\s+(?:corporation|(?:limited\s+liability\s+|exempted\s+|business\s+|international\s+business\s+|shell\s+|holding\s+)?company|(?:limited\s+liability\s+|limited\s+|general\s+)partnership|LLC|L\.L\.C\.|(?:statutory\s+|business\s+)?trust)\b"
            ),
            false,
        ),
        // X, a Hong Kong-registered company: registered where its compound modifier says.
        pat(
            "REGISTERED_AT",
            &["registered", "incorporated", "domiciled"],
            format!(r"{ORG}(?:\s*\([^()«»]*\))?\s*,\s+an?\s+«L(\d+)»-(?:registered|incorporated|domiciled)\b"),
            false,
        ),
        // X and Y, both Delaware corporations / A, B and C, all New Jersey limited liability
        // companies: each is registered there (the member before the last, then the last).
        pat(
            "REGISTERED_AT",
            &["corporations", "companies", "partnerships", "LLCs"],
            format!(r"{ORG}(?:\s*\([^()«»]*\))?(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)«O\d+»(?:\s*\([^()«»]*\))?){{1,3}}\s*,\s+(?:both|each|all)\s+«L(\d+)»\s+{PLURAL_KINDS}"),
            false,
        ),
        pat(
            "REGISTERED_AT",
            &["corporations", "companies", "partnerships", "LLCs"],
            format!(r"{ORG}(?:\s*\([^()«»]*\))?\s*,\s+(?:both|each|all)\s+«L(\d+)»\s+{PLURAL_KINDS}"),
            false,
        ),
        // X signed ... with Y
        pat("SIGNED", &["signed"], format!(r"{PARTY}{SHORT}\bsigned\b(?:[^«»]|«M\d+»){{0,60}}?\bwith\s+{ORG}"), false),
        // X holds account A / account A held by X
        // X holds account A (for Y: then Y is the holder, X the bank)
        pat(
            "HOLDS_ACCOUNT",
            &["account"],
            format!(
                r"{PARTY}{SHORT}\b(?:holds|held|opened|maintains|maintained)\s+(?:an?\s+|the\s+)?(?:bank\s+)?account\b{SHORT}«A(\d+)»(?:\s+(?:for|on behalf of)\s+«[OP](?P<holder>\d+)»)?"
            ),
            false,
        ),
        pat("HOLDS_ACCOUNT", &["held", "opened", "owned"], format!(r"«A(\d+)»{SHORT}\b(?:held|opened|owned)\s+by\s+{PARTY}"), true),
    ];
    // Officers with their role words: one, or several joined ("Chairman and Chief Executive
    // Officer", "President, CEO and Treasurer"); the role attribute is all of them.
    let word = r"(?:(?i:principal vice president|chief [a-z]+ officer|chief executive officer|chief executive|chief financial officer|chief operating officer|chief accounting officer|chairman of the board|chairman|chairwoman|senior vice president|executive vice president|vice president|president|secretary|treasurer|general counsel|managing director|managing partner|managing member|compliance officer|controller|general manager|general director|director general|principal)|CEO|CFO|COO)";
    // A later role may be a directorship, with its article ("President, Chief Executive
    // Officer and a Director of X"): the first names the office.
    // (A role's words may be wrapped over lines: "chief financial⏎officer".)
    let word = word.replace(' ', r"\s+");
    let officer = format!(r"(?P<role>{word}(?:(?:\s*,\s*|\s*,?\s+(?:and|&)\s+)(?:(?:a|an)\s+)?(?:{word}|(?i:director))){{0,3}})");
    // "founder and CEO of X": the founding is no office, the role after it is.
    // ("owner and chief executive officer of X": the ownership is the owner patterns', the
    // office this one's.)
    let founder = r"(?:(?i:co-?founder|founder|(?:sole\s+|majority\s+|principal\s+)?(?:co-?)?owner)(?:\s*,\s*|\s+and\s+)){0,2}";
    // A department may follow the role ("Senior Vice President, Worldwide Sales at X"), or its
    // field in lower case ("senior vice president of lending at X").
    v.push(pat("OFFICER_OF", OFFICER_CUES, format!(r"{PER}{AGE}{HOME}{NATIONAL}\s*,?\s+(?:who\s+)?(?:{SERVES}\s+)?(?:the|a|an|its)?\s*(?:(?i:former|then|interim|acting|currently|formerly|now)\s+)?{founder}{officer}(?:\s+and\s+(?:sole\s+|majority\s+|principal\s+|co-?)?owner)?(?:,\s+[A-Z][\w ,&]{{0,30}}?|\s+(?:of|for)\s+(?P<field>[a-z][a-z&\s-]{{0,30}}?))?\s+(?:of|at)\s+(?:the\s+now[- ]defunct\s+)?{ORG}"), false));
    // "Y, a … company; its founder and chief executive officer, X; and its former vice
    // president of sales, Z": the first and the last officer listed after the company (no
    // other company between: "its" is that one).
    v.push(pat(
        "OFFICER_OF",
        OFFICER_CUES,
        format!(r"{ORG}(?:[^«»]|«[LDM]\d+»){{0,250}}?(?:[;,]\s+(?:and\s+)?|\s+(?:admitted|acknowledged|said|stated|announced)\s+that\s+)its\s+(?:(?i:former|then|current|interim|acting)\s+)?{founder}{officer}(?:\s+(?:of|for)\s+(?:[a-z][a-z&\s-]{{0,30}}?|(?:«L\d+»\s+){{1,3}}[a-z][a-z&\s-]{{0,20}}?))?\s*,\s+{PER}"),
        true,
    ));
    v.push(pat(
        "OFFICER_OF",
        OFFICER_CUES,
        format!(r"{ORG}(?:[^«»]|«[LDMP]\d+»){{0,400}};\s+and\s+its\s+(?:(?i:former|then|current|interim|acting)\s+)?{founder}{officer}(?:\s+(?:of|for)\s+[a-z][a-z&\s-]{{0,30}}?)?\s*,\s+{PER}"),
        true,
    ));
    // "Y, a … company of which X is (the) general director": X holds the office.
    v.push(pat(
        "OFFICER_OF",
        OFFICER_CUES,
        format!(
            r"{ORG}(?:\s*\([^()«»]*\))?,\s+(?:(?:an?|the)\s+(?:[^«»,;]|«L\d+»){{0,80}}?\s+)?of\s+which\s+{PER}\s+(?:is|was|has\s+been|had\s+been|serves\s+as|served\s+as)\s+(?:the\s+|a\s+|an\s+)?(?:(?i:former|sole)\s+)?{officer}\b"
        ),
        true,
    ));
    // "X, Y's former chief executive" (the office in apposition after the person).
    v.push(pat(
        "OFFICER_OF",
        OFFICER_CUES,
        format!(r"{PER}{AGE}{HOME}\s*,\s+(?:then-|the\s+)?{ORG}['’]s?\s+(?:(?i:former|then|interim|acting|current|longtime|co-)\s*)?{founder}{officer}\b"),
        false,
    ));
    // "Y's CEO, X" and the headline form without the possessive ("Pfizer CEO Albert Bourla").
    v.push(pat("OFFICER_OF", OFFICER_CUES, format!(r"{ORG}(?:\s?['’]s?|\s+s)?\s+(?:former\s+)?{founder}{officer},?\s+{PER}"), true));
    // "X (age 49) was Y's chief financial officer"
    v.push(pat(
        "OFFICER_OF",
        OFFICER_CUES,
        format!(r"{PER}{AGE}{HOME}\s*,?\s+{SERVES}\s+(?:the\s+)?(?:former\s+)?{ORG}(?:\s?['’]s?|\s+s)\s+(?:former\s+)?{founder}{officer}\b"),
        false,
    ));
    // "X, Y's Chairman and CEO" / "X, the Y chief executive"
    v.push(pat("OFFICER_OF", OFFICER_CUES, format!(r"{PER}{AGE}{HOME}\s*,\s+(?:the\s+)?(?:former\s+)?{ORG}(?:\s?['’]s?|\s+s)?\s+(?:former\s+)?{officer}\b"), false));
    // "Y, and X, its president" / "Y and its president, X": the company just named.
    v.push(pat("OFFICER_OF", OFFICER_CUES, format!(r"{ORG},?\s+and\s+{PER},\s+its\s+(?:former\s+)?{officer}\b"), true));
    // (Also in a list without "and", "Y, its president, X, and …", and the next officer the
    // list names so: "Y, its president X, and its former chief financial officer, Z", "Y's
    // former chief financial officer, X, and its former controller, Z".)
    v.push(pat(
        "OFFICER_OF",
        OFFICER_CUES,
        format!(r"{ORG}(?:\s*\([^()«»]*\))?(?:,\s+(?:which|that)\s+(?:[^«»;]|«[LMD]\d+»){{1,100}}?)?(?:,\s+|,?\s+and\s+)its\s+(?:former\s+)?{officer},?\s+{PER}"),
        true,
    ));
    v.push(pat(
        "OFFICER_OF",
        OFFICER_CUES,
        format!(r"{ORG}(?:\s*\([^()«»]*\))?(?:,\s+its|\s?['’]s?)\s+(?:former\s+)?{word},?\s+(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+)?«P\d+»(?:\s*\([^()«»]*\))?,?\s+and\s+its\s+(?:former\s+)?{officer},?\s+{PER}"),
        true,
    ));
    // A sanctions designation's tie: "Treasury designated X for acting for or on behalf of Y",
    // "X was designated for providing support to, and acting for or on behalf of, Y" (OFAC's
    // words for an agent or a front): X is associated with Y, the tie its role.
    v.push(pat(
        "ASSOCIATED_WITH",
        &["behalf"],
        format!(
            r"{PARTY}(?:\s*\([^()«»]{{0,40}}\))?(?:\s*,?\s+(?:was|were|is|are|has\s+been|have\s+been)\s+(?:designated|sanctioned|identified)\b)?\s+for\b[^«»;]{{0,200}}?\b(?P<role>act(?:ing|ed)\s+for\s+or\s+on\s+behalf\s+of)\s*,?\s+(?:directly\s+or\s+indirectly\s*,?\s+)?(?:the\s+)?{PARTY}"
        ),
        false,
    ));
    // Family and business ties between people: "X and his wife, Y", "Y, the wife of X", "Y
    // is the brother of X", "X's son, Y": Y is associated with X, the tie its role.
    let kin = KIN;
    v.push(pat("ASSOCIATED_WITH", KIN_CUES, format!(r"{PER}{AGE}{HOME}\s*,?\s+and\s+(?:his|her)\s+{kin}\s*,?\s+{PER}"), true));
    // "his" or "her" of the one person before it: the sentence's only one ("X transferred
    // the money to his brother-in-law, Y"), or the one a relative clause is about ("Y, who
    // bought the options in the name of his sister, Z").
    v.push(pat("ASSOCIATED_WITH", KIN_CUES, format!(r"^(?:[^«»]|«[OMLDA]\d+»)*?{PER}(?:[^«»;]|«[OMLD]\d+»){{0,200}}?\b(?:his|her)\s+{kin}\s*,\s+{PER}"), true));
    v.push(pat("ASSOCIATED_WITH", KIN_CUES, format!(r"{PER}\s*,\s+who\s+(?:[^«»;]|«[OMLD]\d+»){{0,200}}?\b(?:his|her)\s+{kin}\s*,\s+{PER}"), true));
    v.push(pat("ASSOCIATED_WITH", KIN_CUES, format!(r"{PER}{AGE}{HOME}\s*,?\s+(?:the\s+|a\s+)?{kin}\s+of\s+{PER}"), false));
    v.push(pat("ASSOCIATED_WITH", KIN_CUES, format!(r"{PER}\s*,?\s+(?:is|was)\s+(?:the\s+|a\s+)?{kin}\s+of\s+{PER}"), false));
    v.push(pat("ASSOCIATED_WITH", KIN_CUES, format!(r"{PER}\s?['’]s?\s+{kin}\s*,?\s+{PER}"), true));
    // X, the (founder and) majority shareholder of Y / X, owner and operator of Y: owns (part of) it.
    v.push(pat(
        "OWNS",
        &["shareholder", "owner"],
        format!(r"{PER}\s*,\s+(?:the\s+|a\s+|an\s+)?(?:former\s+)?{founder}(?:(?:sole|majority|controlling|principal|largest)\s+shareholder|(?:sole\s+)?owner(?:\s+and\s+operator)?)\s+of\s+{ORG}"),
        false,
    ));
    // X, a former Y employee
    v.push(pat(
        "EMPLOYED_BY",
        &["employee", "banker", "trader", "accountant", "broker"],
        format!(r"{PER}\s*,\s+(?:an?\s+)?(?:former\s+)?{ORG}\s+(?:employee|banker|trader|accountant|broker)\b"),
        false,
    ));
    // X, Y's operations manager / X, 44, of «L», the company's bookkeeper: a staff role
    // held at the company named (an office is OFFICER_OF's; an agent, a consultant or
    // counsel works for it, not at it).
    v.push(pat(
        "EMPLOYED_BY",
        EMPLOYEE_CUES,
        format!(r"{PER}{AGE}{HOME}\s*,\s+(?:the\s+|then-)?(?:former\s+|longtime\s+|senior\s+)?{ORG}['’]s?\s+(?:[a-z-]+\s+){{0,2}}?(?:manager|employee|accountant|bookkeeper|analyst|trader|broker|engineer|supervisor|assistant|clerk|teller|cashier|salesman|saleswoman|representative|specialist|administrator|coordinator)\b"),
        false,
    ));
    // "Y and its (wholly owned, primary bank) subsidiary, X"
    v.push(pat("SUBSIDIARY_OF", &["subsidiar"], format!(r"{ORG}(?:\s*\([^()«»]*\))?\s*,?\s+and\s+its\s+{SUBSIDIARY_WORDS}subsidiar(?:y|ies)\s*,?\s+{ORG}"), true));
    // X is a member of the board (of directors) of Y
    v.push(pat(
        "DIRECTOR_OF",
        &["board"],
        format!(r"{PER}\s*,?\s+(?:{SERVES}\s+)?(?:also\s+)?(?:a\s+)?member\s+of\s+(?:the\s+|its\s+)?(?:[Bb]oard\s+of\s+[Dd]irectors|[Bb]oard)\s+of\s+{ORG}"),
        false,
    ));
    // X worked (in commercial banking) for Y
    v.push(pat("EMPLOYED_BY", &["work"], format!(r"{PER}{SHORT}\b(?:works|worked|working)\b[^«»]{{0,40}}?\b(?:for|at|with)\s+(?:the\s+)?{ORG}"), false));
    // X was a partner / (registered) stockbroker with (the accounting firm of) Y
    v.push(whole_words(
        pat("EMPLOYED_BY", &[],
        format!(r"{PER}{AGE}{HOME}\s*,?\s+(?:{SERVES}\s+)?(?:also\s+|at\s+the\s+time\s+|then\s+)?(?:a|an)\s+(?:[\w-]+\s+){{0,3}}?(?i:partner|employee|advisor|adviser|stockbroker|broker|banker|analyst|accountant|associate|consultant|engineer|attorney|lawyer|trader)\s+(?:with|at|for)\s+(?:the\s+(?:[\w-]+\s+){{0,3}}?(?:firm|company|bank)\s+of\s+)?{ORG}"),
        false,),
        false,
        &["partner", "employee", "advisor", "adviser", "stockbroker", "broker", "banker", "analyst", "accountant", "associate", "consultant", "engineer", "attorney", "lawyer", "trader"],
    ));
    // "Employment Agreement, dated …, between Y and X": X works for Y (agreements a company
    // makes only with its staff and directors).
    let staff_agreement = r"(?i:employment|severance|retention|offer|appointment|stock\s+option|change\s+in\s+control|change\s+of\s+control)\s+(?i:agreement|letter)\b(?:[^«»]|«D\d+»){0,60}?\bbetween\s+";
    v.push(pat("EMPLOYED_BY", &["agreement", "letter"], format!(r"{staff_agreement}{ORG}\s*,?\s+and\s+{PER}"), true));
    v.push(pat("EMPLOYED_BY", &["agreement", "letter"], format!(r"{staff_agreement}{PER}\s*,?\s+and\s+{ORG}"), false));
    // "X has been a director of A since 2005 and a director of B": the second directorship
    // (the first is the director pattern's).
    v.push(pat(
        "DIRECTOR_OF",
        &["director"],
        format!(r"{PER}\s*,?\s+(?:{SERVES}\s+)?(?:a|an|the)\s+(?:(?i:former|non-executive|independent)\s+)?(?i:director)\s+(?:of|at)\s+(?:the\s+)?«O\d+»(?:\s*\([^()«»]*\))?(?:[^«»]|«D\d+»){{0,30}}?\band\s+(?:also\s+)?(?:a|an)\s+(?:(?i:former|non-executive|independent)\s+)?(?i:director)\s+(?:of|at)\s+(?:the\s+)?{ORG}"),
        false,
    ));
    // X joined Y / prior to joining Y, X
    // (Over an apposition that names where the person was: "X, currently CEO of A, has
    // joined B".)
    v.push(pat("EMPLOYED_BY", &["joined"], format!(r"{PER}(?:\s*,\s+[a-zA-Z][^«»,]{{0,40}}?\s(?:of|at|with)\s+«O\d+»\s*,)?{SHORT}\bjoined\s+(?:the\s+)?{ORG}"), false));
    v.push(pat("EMPLOYED_BY", &["joining"], format!(r"\b(?i:prior\s+to|before|after|since)\s+joining\s+(?:the\s+)?{ORG}\s*(?:in\s+\d{{4}}\s*)?,\s*{PER}"), true));
    // "X acquired (oilfield pump maker) Y", "X is acquiring sensor manufacturer Y", "X will
    // buy Y", "X to acquire Y": the object may be introduced by what it is, a noun phrase
    // ending in a business noun ("shares of Y" is no acquisition of Y).
    let business = r"(?:(?:[a-z][a-z-]*\s+){0,2}(?:company|firm|maker|manufacturer|service|provider|developer|start-?up|rival|competitor|bank|lender|insurer|reinsurer|retailer|operator|producer|platform|business|chain|supplier|distributor|brand|drugmaker|biotech|group)\s+)?";
    v.push(pat(
        "ACQUIRED",
        &["acquir", "buy", "bought", "purchas"],
        format!(r"{PARTY}{APPOSITION}{SHORT}\b(?:acquires|acquiring|acquire|buys|buying|buy|purchases|purchasing|purchase)\s+{business}{ORG}{WHOLE}"),
        false,
    ));
    v.push(pat("ACQUIRED", &["acquired", "bought", "purchased"], format!(r"{PARTY}{APPOSITION}{SHORT}\b(?:acquired|bought|purchased)\s+{business}{ORG}{WHOLE}"), false));
    // "X completed its acquisition of (Bermuda-based) Y", "X Closes Acquisition of Y";
    // "X entered into an agreement to acquire Y"; "the acquisition of Y by X".
    let based = r"(?:«[LO]\d+»\s*-\s*based\s+)?";
    v.push(pat(
        "ACQUIRED",
        &["acquisition"],
        format!(r"{PARTY}{SHORT}\b(?i:completed|completes|closed|closes|finalized|finalised|finalizes|announced|announces)\s+(?i:its\s+|the\s+)?(?i:acquisition)\s+of\s+{based}{business}{ORG}{WHOLE}"),
        false,
    ));
    v.push(pat(
        "ACQUIRED",
        &["agreement"],
        format!(r"{PARTY}{SHORT}\b(?:entered\s+into|signed|reached|executed)\s+(?:an?\s+|the\s+)?(?:definitive\s+|merger\s+)?agreement\s+to\s+(?:acquire|buy|purchase)\s+{based}{business}{ORG}{WHOLE}"),
        false,
    ));
    v.push(pat("ACQUIRED", &["acquisition"], format!(r"\bacquisition\s+of\s+{ORG}\s+by\s+{PARTY}"), true));
    // "X sold Y to (a subsidiary of) Z": Z acquired Y.
    v.push(pat(
        "ACQUIRED",
        &["sold", "sell"],
        format!(r"«[OP]\d+»{SHORT}\b(?:sold|sells|agreed\s+to\s+sell)\s+{ORG}\s+to\s+(?:(?:a|an)\s+(?:subsidiary|affiliate|unit)\s+of\s+)?{PARTY}"),
        true,
    ));
    // "Y Acquired by X" (a headline), "Y (acquired by X)", "Y … to be acquired by X"
    v.push(pat("ACQUIRED", &["acquired"], format!(r"{ORG}\s*(?:\(\s*)?(?i:acquired)\s+by\s+{PARTY}"), true));
    v.push(pat("ACQUIRED", &["acquired"], format!(r"{ORG}{GAP}\bto\s+be\s+acquired\s+by\s+{PARTY}"), true));
    // "X's acquisition of Y"
    v.push(pat(
        "ACQUIRED",
        &["acquisition"],
        format!(r"{ORG}(?:['’]s?|\s+s)\s+(?:(?:19|20)\d\d\s+)?acquisition\s+of\s+(?:substantially\s+all\s+(?:of\s+)?the\s+assets\s+of\s+)?{ORG}"),
        false,
    ));
    // "Y, an operating unit of X", "Y (currently a wholly owned subsidiary of X)"
    v.push(whole_words(
        pat("SUBSIDIARY_OF", &[], format!(r"{ORG}\s*,\s+(?:an?|the)\s+(?:operating\s+|business\s+)?(?:unit|division)\s+of\s+{ORG}"), false),
        true,
        &["unit", "division"],
    ));
    v.push(pat("SUBSIDIARY_OF", &["subsidiary"], format!(r"{ORG}\s*\(\s*(?:currently\s+|now\s+|formerly\s+)?(?:a|an|the)\s+{SUBSIDIARY_WORDS}subsidiary\s+of\s+{ORG}"), false));
    // X agreed to pay $N to Y (the payee named)
    v.push(whole_words(
        pat("PAID", &[], format!(r"{PARTY}{SHORT}\bagreed\s+to\s+pay\s+(?:a\s+total\s+of\s+)?«M(?P<m>\d+)»{SHORT}\bto\s+(?:the\s+)?{PARTY}"), false),
        true,
        &["pay"],
    ));
    v
});

/// The cue words of every pattern in one automaton: bit `i` of a template's cue groups is
/// set when pattern `i`'s cues are in it, bit 127 when the shared-director pattern's are
/// (patterns past 126 always run).
/// Lane 0: these patterns; lane 1: [`super::enforcement`]'s; lane 2: [`super::employment`]'s —
/// every module's cue words found in one pass over the template.
static CUES: LazyLock<super::entities::CueSet> = LazyLock::new(|| {
    use super::entities::CueGroup;
    let mut groups: Vec<CueGroup> =
        PATTERNS.iter().enumerate().filter(|(i, _)| *i < 127).map(|(i, p)| CueGroup { bits: 1u128 << i, exact: p.exact, whole: p.whole, words: p.cues }).collect();
    groups.push(CueGroup { bits: 1 << 127, exact: false, whole: false, words: &["director"] });
    super::entities::CueSet::with_lanes(&[&groups, &super::enforcement::cue_groups(), &super::employment::cue_groups()])
});

/// Whether pattern `i` may match a template with these cue groups.
fn may_match(present: u128, i: usize) -> bool {
    i >= 127 || present & (1u128 << i) != 0
}

/// "Y shares a director, X, with Z": X directs both.
static SHARED_DIRECTOR: LazyLock<Regex> = LazyLock::new(|| {
    let p = format!(r"{ORG}(?:\s*\([^()«»]*\))*\s+shares?\s+a\s+director,?\s+{PER},?\s+with\s+{ORG}");
    tg_text::pattern::constant(&p)
});

/// Relations whose last argument may be a list of organisations.
const COORDINATED: &[&str] = &["OFFICER_OF", "DIRECTOR_OF", "EMPLOYED_BY", "ACQUIRED", "SUBSIDIARY_OF", "OWNS", "CONTROLS"];

/// One more organisation of a list after an argument: ", «O3»", ", and «O3»", " and (of) «O3»".
static LIST_ITEM: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(r"^(?:\s*\([^()«»]*\))?(?:\s*,\s*(?:and\s+)?|\s*,?\s+and\s+)(?:of\s+|the\s+)?«O(\d+)»"));
/// What may follow a list's last item: punctuation, the end, or a word that starts what
/// the list is not part of ("in 2012", "since", "for $5 million").
static LIST_END: LazyLock<Regex> = LazyLock::new(|| {
    tg_text::pattern::constant(
        r"^(?:\s*\([^()«»]*\))?(?:\s*(?:[,.;:()|–—]|$)|\s+(?:in|since|from|until|for|at|on|as|during|which|that|to|through|with|after|before|respectively)(?-u:\b)|\s+«D\d+»)",
    )
});

/// The organisations listed with the argument that ends at `from` (its placeholder's end):
/// a list needs an "and" before its last item and an end after it, else it is none.
fn coordinated(template: &str, from: usize) -> Vec<usize> {
    let mut items = vec![];
    let mut at = from;
    let mut joined = false;
    while let Some(c) = template.get(at..).and_then(|rest| LIST_ITEM.captures(rest)) {
        let (Some(whole), Some(n)) = (c.get(0), index(&c, 1)) else { break };
        let and = whole.as_str().contains("and");
        // ", and" before a second item closes an apposition ("X, a subsidiary of A, and B"):
        // a list's comma before its "and" needs a third item before it.
        if and && items.is_empty() && whole.as_str().contains(',') {
            break;
        }
        joined |= and;
        items.push(n);
        at += whole.end();
        if joined {
            break;
        }
    }
    let ends = template.get(at..).is_some_and(|rest| LIST_END.is_match(rest));
    if joined && ends { items } else { vec![] }
}

/// Whether the subject placeholder at `start..end` of `template` is the subject of the verb
/// before the object at `object`: not inside a relative clause set off before it and closed
/// by a comma after it, not the object of a preposition before the match (`match_start`),
/// and with no "we" (the writer) between it and the object.
fn subject_stands(template: &str, start: usize, end: usize, object: usize, match_start: usize) -> bool {
    let before = template.get(..start).unwrap_or_default();
    let clause = before.rsplit(['»', ',']).next().unwrap_or_default();
    let opened = before.rfind(',').is_some_and(|c| before.rfind('»').is_none_or(|p| p < c))
        && clause.split_whitespace().next().is_some_and(|w| matches!(w, "which" | "who" | "whom" | "whose" | "that"));
    let gap = template.get(end..object.max(end)).unwrap_or_default();
    if opened && gap.trim_start().starts_with(',') {
        return false;
    }
    // Nor one a preposition governs before a verb joined by "and" (the verb is the clause's
    // subject's): "«P0» received a loan for «O1» and paid «P2» a kickback" is «P0»'s
    // payment, not «O1»'s. (An apposition after it is the party's own: "to «O1», a company
    // registered in «L2»", "a director of «O1» (currently a subsidiary of «O2»)".)
    let word_before = before.trim_end().rsplit(char::is_whitespace).next().unwrap_or_default();
    // (A preposition the pattern reads itself, "was wired by «O1» to …", is the pattern's.)
    if start <= match_start
        && matches!(word_before, "for" | "to" | "from" | "with" | "by" | "of" | "at" | "on" | "into" | "through" | "under" | "against" | "via" | "including" | "involving")
        && matches!(gap.split_whitespace().next(), Some("and" | "or" | "but" | "then"))
        // (Another party after "and" lists it with the subject: "through «O1» and «O2», both
        // «L3» corporations".)
        && !gap.split_whitespace().nth(1).is_some_and(|w| w.starts_with('«'))
    {
        return false;
    }
    // Nor a name that modifies a noun after an indefinite article ("after learning of a «O1»
    // inquiry, «P2» transferred …": the inquiry is no party).
    if start <= match_start && matches!(word_before, "a" | "an" | "A" | "An") && gap.trim_start().starts_with(|c: char| c.is_ascii_lowercase()) {
        return false;
    }
    !gap.split(|c: char| !c.is_alphanumeric()).any(|w| matches!(w, "we" | "We"))
}

/// The party a placeholder stands in apposition to, when the placeholder that starts at
/// `start` of `template` closes an aside after it: in "«P0», owner of «O1», defrauded «O2»"
/// (or "«P0», the former chief executive of «O1», paid …") the verb after the aside is
/// «P0»'s, not «O1»'s. The aside is words ending in "of", "at", "with" or "for" between
/// two commas, in lower case or capitalised as titles are ("«P0», former Chief Operations
/// Officer of «O1», was charged … for defrauding «O2»"), or an alias ("«P0», aka «P1», was
/// sentenced": «P0»'s name as the document gives it first); an age may come first ("«P0»,
/// 32, aka «P1», of «L2», pleaded guilty"); a relative clause ("who worked for") is not one
/// (see [`subject_stands`]).
/// The party a match's last party possesses in apposition: where the match ends right
/// after that party (`last_end`, past its "»") and the text goes on "'s <one to three
/// lower-case words>, «P1»" ("owned by «P0»'s brother-in-law, «P1»"), «P1».
fn possessed(template: &str, match_end: usize, last_end: usize) -> Option<usize> {
    if match_end != last_end {
        return None;
    }
    static POSSESSED: LazyLock<Regex> =
        LazyLock::new(|| tg_text::pattern::constant(r"^\s?['’]s?\s+(?:[a-z][a-z-]*\s+){0,2}[a-z][a-z-]*\s*,\s+(?:(?:Mr|Mrs|Ms|Miss|Dr)\.?\s+)?«P(\d+)»"));
    POSSESSED.captures(template.get(match_end..)?).and_then(|c| c.get(1)).and_then(|m| m.as_str().parse().ok())
}

/// Where a role's company ends the match and the text goes on in its possessive, naming
/// another body the company has ("the general manager of «O1»'s wholly owned «L2»
/// subsidiary, «O3»"): the role is held there. `Some(Some(«O3»))` where that body is named
/// in apposition, `Some(None)` where it is not ("the CEO of «O1»'s parent"), `None` where
/// no such possessive follows ("a manager at «O1»'s «L2» office" works for «O1»).
fn role_in_possessed(template: &str, match_end: usize, last_end: usize) -> Option<Option<usize>> {
    if match_end != last_end {
        return None;
    }
    let rest = template.get(match_end..)?;
    if !(rest.starts_with("'s ") || rest.starts_with("’s ") || rest.starts_with("' ") || rest.starts_with("’ ")) {
        return None;
    }
    static HAD: LazyLock<Regex> = LazyLock::new(|| {
        tg_text::pattern::constant(
            r"^['’]s?\s+(?:(?:[a-z][a-z-]*|«L\d+»)\s+){0,4}(?:subsidiary|subsidiaries|affiliate|parent|joint\s+venture|portfolio\s+company|client|customer|vendor|supplier)\b(?:\s*,\s+«O(\d+)»)?",
        )
    });
    let c = HAD.captures(rest)?;
    Some(c.get(1).and_then(|m| m.as_str().parse().ok()))
}

/// Whether the text after a person's placeholder (`rest`, from its closing mark) names the
/// person's own office in apposition, after an age and a home: ", «O1»'s CEO", ", the chief
/// executive officer of «O1»".
fn own_office(rest: &str) -> bool {
    static OFFICE: LazyLock<Regex> = LazyLock::new(|| {
        tg_text::pattern::constant(&format!(
            r"^»{AN_AGE}?(?:\s*,?\s+{LIVES_IN})?\s*,\s+(?:(?:the|a|an|its)\s+|then-)?(?:(?:former|then)\s+)?(?:«O\d+»['’]s?\s|(?:[A-Za-z-]+\s+){{1,4}}(?:of|at)\s+(?:the\s+)?«O)"
        ))
    });
    OFFICE.is_match(rest)
}

/// Whether `before` ends in an alias cue ("«P0», aka ", "a/k/a \"").
fn after_alias(before: &str) -> bool {
    static CUE: LazyLock<Regex> =
        LazyLock::new(|| tg_text::pattern::constant(r#"(?:aka|a/k/a|a\.k\.a\.|also\s+known\s+as|formerly\s+known\s+as|f/k/a|d/b/a|dba)\s+["“]?(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?$"#));
    CUE.is_match(before)
}

pub(super) fn apposition_head(template: &str, start: usize) -> Option<usize> {
    static ASIDE: LazyLock<Regex> = LazyLock::new(|| {
        tg_text::pattern::constant(&format!(
            r#"«[OP](\d+)»(?:\s*\([^()«»]{{0,40}}\))?{AN_AGE}?(?:\s*,?\s+{LIVES_IN})?\s*,\s+(?:(?:(?:the|a|an|its|his|her|their)\s+)?(?:(?:[A-Za-z][A-Za-z-]*|«L\d+»(?:-based)?)\s+){{0,6}}?(?:of|at|with|for|by)\s+(?:the\s+)?(?P<kind>(?:(?:[a-z][a-z-]*|«L\d+»)\s+){{0,3}})(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?|(?:aka|a/k/a|a\.k\.a\.|also\s+known\s+as|formerly\s+known\s+as|f/k/a)\s+["“]?(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?)$|«O(?P<dba>\d+)»\s*,?\s+(?:d/b/a|dba|D/B/A|DBA|doing\s+business\s+as)\s+["“]?$"#
        ))
    });
    // (A quoted alias closes with its quote after the comma: "a/k/a \"«P1»,\" has been".)
    static CLOSED: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(r#"^«[OP]\d+»(?:\s*\([^()«»]{0,40}\))?\s*,["”]?\s"#));
    let (before, here) = (template.get(..start)?, template.get(start..)?);
    if !CLOSED.is_match(here) {
        return None;
    }
    // A relative clause about the party before ("«P0», 52, of «L1», «L2», who owned and
    // operated «O3», was sentenced …"): the verb after it is that party's, over its age
    // and where it lives.
    static RELATIVE: LazyLock<Regex> = LazyLock::new(|| {
        tg_text::pattern::constant(&format!(
            r"«[OP](\d+)»(?:\s*\([^()«»]{{0,40}}\))?(?:\s*,\s*(?:age\s+)?\d{{1,3}})?(?:\s*,?\s+{LIVES_IN})?\s*,\s+(?:who|which)\s+(?:(?:also|previously|formerly|then|now)\s+)?(?:(?:[a-z-]+|«L\d+»)\s+){{1,8}}(?:the\s+)?$"
        ))
    });
    // (Most asides are no relative clause: the regex runs only where one may end here.)
    if before.ends_with(|c: char| c.is_whitespace())
        && (before.contains("who") || before.contains("which"))
        && let Some(c) = RELATIVE.captures(before)
    {
        return index(&c, 1);
    }
    // The last of several aliases ("«P0», also known as «P1» and «P2», conspired …"): the
    // name the aliases are of.
    static LAST_ALIAS: LazyLock<Regex> =
        LazyLock::new(|| tg_text::pattern::constant(r"«[OP](\d+)»\s*,\s+(?:aka|a/k/a|a\.k\.a\.|also\s+known\s+as)\s+«[OP]\d+»(?:\s*,\s*«[OP]\d+»)*\s*,?\s+(?:and|or)\s+$"));
    if (before.ends_with(" and ") || before.ends_with(" or "))
        && let Some(c) = LAST_ALIAS.captures(before)
    {
        return index(&c, 1);
    }
    // Only the stretch since the party before (the aside holds no other; a place it may).
    let from = before.rfind("«O").into_iter().chain(before.rfind("«P")).max()?;
    let c = ASIDE.captures(&before[from..])?;
    if c.get(0).is_none_or(|m| m.start() != 0) || before[from..].split_whitespace().nth(1).is_some_and(|w| matches!(w, "who" | "which" | "whom" | "whose" | "that")) {
        return None;
    }
    // Words may say what the second party is ("a subsidiary of pharmaceutical manufacturer
    // «O1»"), but join no other ("the owner of two clinics and «O1»").
    // (Nor is "in connection with which Mr. «P1»" one: a relative clause opens there; nor
    // ", and is now being led by «O3»": a clause of its own, with a verb.)
    if c.name("kind").is_some_and(|k| k.as_str().split_whitespace().any(|w| matches!(w, "and" | "or" | "but" | "nor" | "than" | "which" | "whom" | "whose" | "that")))
        || c.get(0).is_some_and(|m| {
            // ("and" between two roles, "the owner and chief executive officer of", is one
            // description.)
            let words: Vec<&str> = m.as_str().split_whitespace().collect();
            words.iter().enumerate().any(|(i, w)| {
                let roles = *w == "and"
                    && words.get(i + 1).is_some_and(|n| {
                        matches!(
                            n.to_ascii_lowercase().as_str(),
                            "chief"
                                | "president"
                                | "ceo"
                                | "cfo"
                                | "coo"
                                | "director"
                                | "owner"
                                | "co-owner"
                                | "founder"
                                | "co-founder"
                                | "operator"
                                | "manager"
                                | "principal"
                                | "secretary"
                                | "treasurer"
                                | "chairman"
                                | "sole"
                        )
                    });
                !roles && matches!(*w, "and" | "or" | "but" | "is" | "was" | "are" | "were" | "be" | "being" | "been" | "has" | "have" | "had")
            })
        })
    {
        return None;
    }
    // (A trade name's party is the company that trades under it: "«O0» d/b/a «O1», a
    // «L2» company".)
    index(&c, 1).or_else(|| c.name("dba").and_then(|m| m.as_str().parse().ok()))
}

fn index(c: &regex::Captures, i: usize) -> Option<usize> {
    c.get(i).and_then(|m| m.as_str().parse().ok())
}

/// The relations the patterns find in one sentence's template.
pub fn find(template: &str, mentions: &[Mention]) -> Vec<Found> {
    let _ = ROLES;
    let mut out = vec![];
    // Every pattern here relates two placeholders, and most sentences have fewer; with one,
    // only an enforcement pattern with an implied authority can match.
    let places = template.matches('«').count();
    if places == 0 {
        return out;
    }
    let two = places >= 2;
    let dates: Vec<usize> = mentions.iter().enumerate().filter(|(_, m)| m.kind == "Date").map(|(i, _)| i).collect();
    let [present, enforcement_cues, employment_cues] = CUES.present_lanes(template);
    let counts = super::placeholders::Counts::of(template);
    if two {
        find_patterns(template, present, &counts, &dates, &mut out);
        // A subject's later verb after "and" ("«P0» transferred «M1» from «O2» to an account,
        // and wired «M3» to his girlfriend, «P4»"): the patterns read "«P0» wired «M3» to …"
        // too, and what they find of that subject there is its.
        for (subject, derived) in coordinated_predicates(template) {
            let [present, _, _] = CUES.present_lanes(&derived);
            let counts = super::placeholders::Counts::of(&derived);
            let mut more = vec![];
            find_patterns(&derived, present, &counts, &dates, &mut more);
            out.extend(more.into_iter().filter(|f| f.subject == subject && f.object != subject));
        }
    }
    for c in (two && present & (1 << 127) != 0).then(|| SHARED_DIRECTOR.captures_iter(template)).into_iter().flatten() {
        if let (Some(o1), Some(p), Some(o2)) = (index(&c, 1), index(&c, 2), index(&c, 3)) {
            for o in [o1, o2] {
                out.push(Found { rel: "DIRECTOR_OF", subject: p, object: o, money: None, date: dates.first().copied(), role: None, extra: vec![] });
            }
        }
    }
    if two {
        kin_of_the_one_person(template, mentions, &mut out);
    }
    out.extend(super::enforcement::find_with(template, mentions, enforcement_cues, &counts));
    let employment = super::employment::find_with(template, &out, Some(employment_cues));
    out.extend(employment);
    // A transfer without money in its own words takes the sentence's only amount.
    let amounts: Vec<usize> = mentions.iter().enumerate().filter(|(_, m)| m.kind == "Money").map(|(i, _)| i).collect();
    for f in &mut out {
        if matches!(f.rel, "TRANSFERRED" | "PAID" | "RECEIVED_FROM") && f.money.is_none() && amounts.len() == 1 {
            f.money = amounts.first().copied();
        }
    }
    // A company named by a place before "company" ("a Quito company", "a Delaware company",
    // "a Cyprus company") is registered there where the place is a state, a country or a
    // territory with its own company register ("a British Virgin Islands company"); a town
    // only says where it works.
    out.retain(|f| {
        f.rel != "REGISTERED_AT"
            || !template.contains(&format!("«L{}» company", f.object))
            || mentions.get(f.object).is_some_and(|m| {
                super::demonyms::is_country(&m.surface)
                    || super::demonyms::country_of(&m.surface).is_some()
                    || super::entities::is_state_name(&m.surface)
                    || REGISTERS.contains(&m.surface.as_str())
            })
    });
    // An office "of Human Resources" or "of Finance" is held in a company's function, not in
    // an organisation of that name ("Executive Vice President of Human Resources").
    out.retain(|f| !(matches!(f.rel, "OFFICER_OF" | "EMPLOYED_BY" | "DIRECTOR_OF") && mentions.get(f.object).is_some_and(|m| is_corporate_function(&m.surface))));
    out.sort_by(|a, b| (a.subject, a.object, a.rel).cmp(&(b.subject, b.object, b.rel)));
    out.dedup_by(|a, b| a.rel == b.rel && a.subject == b.subject && a.object == b.object);
    out
}

/// The relation patterns' finds in a template (`present`: its cue bits; `counts`: its
/// placeholders), pushed to `out`.
fn find_patterns(template: &str, present: u128, counts: &super::placeholders::Counts, dates: &[usize], out: &mut Vec<Found>) {
    for (i, p) in PATTERNS.iter().enumerate() {
        if !may_match(present, i) || !p.needs.may_match(counts) {
            continue;
        }

        // A match test (a DFA, no captures) first: capture groups cost a backtracking search.
        if !p.re.is_match(template) {
            continue;
        }
        for c in p.re.captures_iter(template) {
            // The two argument groups are the numbered groups that are not named.
            let names: Vec<Option<&str>> = p.re.capture_names().collect();
            let groups: Vec<regex::Match> = (1..c.len()).filter(|&i| names.get(i).copied().flatten().is_none()).filter_map(|i| c.get(i)).collect();
            let args: Vec<usize> = groups.iter().filter_map(|g| g.as_str().parse().ok()).collect();
            let (&[a, b], &[ga, gb]) = (&args[..], &groups[..]) else { continue };
            // The first party may close an aside on the one before it: the verb is that one's.
            // (Not where what follows it is its own office, in apposition: "«P0», with «P1»,
            // «O2»'s CEO, retained …" makes «P1» the CEO.)
            // (An alias's office is its bearer's: "«P0», aka «P1», the President of «O2»".)
            let start = ga.start().saturating_sub('«'.len_utf8() + 1);
            let own = !p.swap && matches!(p.rel, "OFFICER_OF" | "DIRECTOR_OF" | "EMPLOYED_BY") && own_office(&template[ga.end()..]) && !after_alias(&template[..start]);
            let a = if own { a } else { apposition_head(template, start).unwrap_or(a) };
            let (mut subject, object) = if p.swap { (b, a) } else { (a, b) };
            // "the transfer to Y of responsibility for …" names a transfer, and no one who made it.
            if c.name("tv")
                .is_some_and(|v| matches!(template[..v.start()].split_whitespace().next_back(), Some("the" | "The" | "a" | "A" | "this" | "that" | "its" | "their" | "any")))
            {
                continue;
            }
            // An office's field names no other body ("vice president of lending at Y", "chairman
            // of the management board of Y"); an indefinite one does ("CFO of a subsidiary unit
            // of Y" is no officer of Y).
            if c.name("field").is_some_and(|f| matches!(f.as_str().split_whitespace().next(), Some("a" | "an" | "one" | "two" | "several" | "various" | "certain" | "other"))) {
                continue;
            }
            // A transfer promised or foreseen ("told investors that he would send their money
            // to …") is none made.
            if c.name("tv").is_some_and(|v| matches!(template[..v.start()].split_whitespace().next_back(), Some("would" | "will" | "could" | "should" | "might"))) {
                continue;
            }
            // "Wire" before "transfer(s)" is a noun: someone who approved or received wire
            // transfers to Y sent none ("approved wire transfers of $4.6 million … to Y");
            // one who made, sent or initiated them did, and says so with its own verb.
            if c.name("tv").is_some_and(|v| {
                v.as_str().eq_ignore_ascii_case("wire")
                    && template[v.end()..].trim_start().starts_with("transfer")
                    && !matches!(
                        template[..v.start()].split_whitespace().rev().find(|w| !matches!(*w, "two" | "three" | "several" | "multiple" | "numerous" | "the" | "a" | "an")),
                        Some(
                            "made"
                                | "make"
                                | "makes"
                                | "making"
                                | "sent"
                                | "send"
                                | "initiated"
                                | "initiate"
                                | "executed"
                                | "execute"
                                | "conducted"
                                | "caused"
                                | "ordered"
                                | "directed"
                        )
                    )
            }) {
                continue;
            }
            let holder = c.name("holder").and_then(|h| h.as_str().parse().ok());
            if let Some(h) = holder {
                subject = h;
            }
            // A subject before its verb: not one inside a relative clause ("X, which is
            // consolidated by Y, acquired Z"), nor one the writer's "we" stands between.
            if !p.swap && holder.is_none() && !subject_stands(template, ga.start() - '«'.len_utf8() - 1, ga.end() + '»'.len_utf8(), gb.start(), c.get(0).map_or(0, |m| m.start()))
            {
                continue;
            }
            // A party that ends the match and is followed by its relative or its officer in
            // apposition names whose the tie is: "a company owned by «P0»'s brother-in-law,
            // «P1»" is «P1»'s company.
            let (subject, mut object) = match possessed(template, c.get(0).map_or(0, |m| m.end()), gb.end() + '»'.len_utf8()) {
                Some(other) if p.swap => (other, object),
                Some(other) => (subject, other),
                None => (subject, object),
            };
            // A role in what the company has ("general manager of «O1»'s subsidiary, «O2»")
            // is held there, not in the company.
            if !p.swap && matches!(p.rel, "OFFICER_OF" | "DIRECTOR_OF" | "EMPLOYED_BY") {
                match role_in_possessed(template, c.get(0).map_or(0, |m| m.end()), gb.end() + '»'.len_utf8()) {
                    Some(Some(had)) => object = had,
                    Some(None) => continue,
                    None => {}
                }
            }
            if subject == object {
                continue;
            }
            let money = c.name("m").and_then(|m| m.as_str().parse().ok());
            let role = c.name("role").map(|r| r.as_str().split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase());
            let found = Found { rel: p.rel, subject, object, money, date: dates.first().copied(), role, extra: vec![] };
            // The last argument may be the first of a list ("Vice President of A and B",
            // "acquired A, B and C"): each one listed is related alike. The last argument is
            // the subject when the pattern swaps its groups.
            // Owners listed as the subject own alike ("«P0», 52, of «L1», and «P2», 47,
            // owned and operated «O4»").
            if p.rel == "OWNS" && !p.swap {
                for other in super::enforcement::subject_list(template, found.subject).into_iter().filter(|&o| o != found.subject && o != found.object) {
                    out.push(Found { subject: other, ..found.clone() });
                }
            }
            if COORDINATED.contains(&p.rel) {
                for other in coordinated(template, gb.end() + '»'.len_utf8()) {
                    let mut f = found.clone();
                    *(if p.swap { &mut f.subject } else { &mut f.object }) = other;
                    if f.subject != f.object {
                        out.push(f);
                    }
                }
            }
            out.push(found);
        }
    }
}

/// A sentence's subject and a later verb of its after "and" (one a relation pattern reads:
/// the verbs of paying, sending, receiving, owning, controlling, buying, signing, holding,
/// causing, serving, working, defrauding, taking), as (subject, the template
/// with the subject right before that verb): "«P0», 41, of «L1», transferred «M2» from
/// «O3» to an account …, and wired «M4» to his girlfriend, «P5»" gives (0, "«P0» wired «M4»
/// to his girlfriend, «P5»"). The subject opens the sentence (after an opening phrase of a
/// few words) and a verb follows it; no complement or relative clause ("that", "who",
/// "which") stands between, whose own subject the later verb may be.
fn coordinated_predicates(template: &str) -> Vec<(usize, String)> {
    static SUBJECT: LazyLock<Regex> = LazyLock::new(|| {
        tg_text::pattern::constant(&format!(
            r"^(?:[^«»,]{{0,60}},\s+)?(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?(«[OP](\d+)»){AGE}{HOME}\s*,?\s+(?:also\s+|then\s+|allegedly\s+|later\s+)?(?:[a-z]+ed|paid|sent|sold|gave|made|took|held|is|was|owns|controls|received)\b"
        ))
    });
    static AND_VERB: LazyLock<Regex> = LazyLock::new(|| {
        tg_text::pattern::constant(
            r"(?:,\s+|\s+)and\s+(?:then\s+|also\s+|later\s+|subsequently\s+|allegedly\s+|thereafter\s+)?((?:paid|wired|sent|transferred|remitted|routed|received|accepted|controlled|owned|acquired|bought|purchased|signed|held|opened|maintained|caused|directed|instructed|arranged|induced|served|worked|defrauded|misappropriated|embezzled|diverted|stole)\b)",
        )
    });
    // (Most sentences have no "and" before a verb: the cheap test first.)
    if !template.contains(" and ") {
        return vec![];
    }
    let Some(c) = SUBJECT.captures(template) else { return vec![] };
    let (Some(whole), Some(ph), Some(n)) = (c.get(0), c.get(1), c.get(2)) else { return vec![] };
    let Ok(subject) = n.as_str().parse::<usize>() else { return vec![] };
    let mut out = vec![];
    for v in AND_VERB.captures_iter(&template[whole.end()..]).filter_map(|m| m.get(1)) {
        let at = whole.end() + v.start();
        let between = &template[whole.end()..at];
        if between.split(|ch: char| !ch.is_alphanumeric()).any(|w| matches!(w, "that" | "who" | "which" | "whom" | "whose")) {
            break;
        }
        out.push((subject, format!("{} {}", ph.as_str(), &template[at..])));
    }
    out
}

/// Whether a name is one of a company's functions ("Human Resources", "Finance",
/// "Corporate Development"), which a title names after "of" as it names a company.
fn is_corporate_function(name: &str) -> bool {
    const FUNCTIONS: &[&str] = &[
        "accounting",
        "business development",
        "communications",
        "community relations",
        "compliance",
        "corporate development",
        "engineering",
        "finance",
        "government affairs",
        "human resources",
        "information technology",
        "investor relations",
        "legal",
        "marketing",
        "operations",
        "public affairs",
        "public relations",
        "research and development",
        "risk management",
        "sales",
        "strategy",
    ];
    let lower = name.to_lowercase();
    FUNCTIONS.binary_search(&lower.as_str()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::super::entities;
    use super::*;

    fn rels(s: &str) -> Vec<String> {
        let ms = entities::find(s, (0, s.len()), None);
        let t = template(s, 0, &ms);
        find(&t, &ms).into_iter().filter(|f| f.object != IMPLIED).map(|f| format!("{}({}, {})", f.rel, ms[f.subject].surface, ms[f.object].surface)).collect()
    }

    /// A role held in what a company has, an owner named with its other roles, a
    /// distributor owned through a relative, a description that opens with a place.
    #[test]
    fn roles_in_subsidiaries_owners_and_described_buyers() {
        // The general manager of a subsidiary the text names is its officer, not the parent's.
        assert_eq!(
            rels("Mr. Miguel Reyes, the general manager of Trenton Holdings Inc.'s wholly owned subsidiary, Valvulas Trenton S.A., was charged."),
            ["OFFICER_OF(Miguel Reyes, Valvulas Trenton S.A.)", "SUBSIDIARY_OF(Valvulas Trenton S.A., Trenton Holdings Inc.)"]
        );
        // One of a subsidiary it does not name is no one's role here; an office's is the company's.
        assert!(rels("Mr. Miguel Reyes, the general manager of Trenton Holdings Inc.'s subsidiary, was charged.").is_empty());
        assert_eq!(rels("Mr. David Drescher, a former manager at Pricewaterhouse Ltd.'s audit office, traded."), ["EMPLOYED_BY(David Drescher, Pricewaterhouse Ltd.)"]);
        // "is the owner of", and an owner after the company's other roles.
        assert_eq!(rels("Mr. Thomas Delgado is the owner of Casa Grill LLC."), ["OWNS(Thomas Delgado, Casa Grill LLC)"]);
        assert_eq!(
            rels("Mr. Curtis Hammond, Hammond Asset Management Inc.'s president and sole owner, placed trades."),
            ["OFFICER_OF(Curtis Hammond, Hammond Asset Management Inc.)", "OWNS(Curtis Hammond, Hammond Asset Management Inc.)"]
        );
        // A distributor owned through a relative the possessive names.
        assert_eq!(
            rels("Valvulas Ltd paid Sierra Madre S.A., a distributor controlled by Mr. Jose Reyes's cousin, Mr. Alejandro Fuentes."),
            ["PAID(Valvulas Ltd, Sierra Madre S.A.)", "CONTROLS(Alejandro Fuentes, Sierra Madre S.A.)", "ASSOCIATED_WITH(Alejandro Fuentes, Jose Reyes)"]
        );
        // An investment adviser representative works for the adviser.
        assert_eq!(
            rels("Ms. Eleanor Whitfield, a former investment adviser representative of Sound Harbor Advisors LLC, stole."),
            ["EMPLOYED_BY(Eleanor Whitfield, Sound Harbor Advisors LLC)"]
        );
        // An office's holder who also owns it; one who works with a body.
        assert_eq!(
            rels("Ms. Lorraine Castillo-Hart, 49, the president and owner of Lone Star Services Inc., was convicted."),
            ["OFFICER_OF(Lorraine Castillo-Hart, Lone Star Services Inc.)", "OWNS(Lorraine Castillo-Hart, Lone Star Services Inc.)"]
        );
        assert_eq!(
            rels("Mr. Douglas Fenwick, a former contracting officer with the Army Contracting Command Ltd, was convicted."),
            ["EMPLOYED_BY(Douglas Fenwick, Army Contracting Command Ltd)"]
        );
        // A later verb of the subject's, after "and"; money sent to a relative named so.
        assert_eq!(
            rels("Mr. Thomas Delgado transferred $540,000 from DTE Hospitality LLC to a brokerage account, and wired $220,000 to his girlfriend, Ms. Vanessa Lin."),
            ["TRANSFERRED(Thomas Delgado, Vanessa Lin)", "ASSOCIATED_WITH(Vanessa Lin, Thomas Delgado)"]
        );
        assert_eq!(
            rels("Mr. Nathan Ashby was the managing partner of Beacon Partners LP and controlled its general partner, Ashby Capital LLC."),
            ["OFFICER_OF(Nathan Ashby, Beacon Partners LP)", "CONTROLS(Nathan Ashby, Ashby Capital LLC)"]
        );
        // Not over a clause with a subject of its own, nor a transfer only promised.
        assert!(rels("Mr. John Doe said that Acme Ltd hired Mr. Carl Roe and paid Beta Ltd.").iter().all(|r| !r.starts_with("PAID(John Doe")));
        assert!(rels("Mr. John Doe told investors that he would send their money to his friend, Mr. Carl Roe.").iter().all(|r| !r.starts_with("TRANSFERRED")));
        // A name modifying a noun is no subject; a town before "company" registers nothing.
        assert!(
            rels("Mr. Hector Salazar, after learning of a Financial Industry Authority Inc inquiry in 2023, transferred $450,000 to Gulfview Advisory LLC.")
                .iter()
                .all(|r| !r.contains("Authority"))
        );
        // Co-owners listed; an agreement of an amount signed with a party.
        assert_eq!(
            rels("Mr. Marcus Oyelaran, 41, and his brother, Mr. Tobi Oyelaran, 37, were the co-owners of Peachline Freight Inc."),
            ["OWNS(Marcus Oyelaran, Peachline Freight Inc)", "ASSOCIATED_WITH(Tobi Oyelaran, Marcus Oyelaran)", "OWNS(Tobi Oyelaran, Peachline Freight Inc)"]
        );
        assert_eq!(rels("Mr. Marcus Oyelaran signed a $5 million credit agreement with Chattahoochee Bank Inc."), ["SIGNED(Marcus Oyelaran, Chattahoochee Bank Inc)"]);
        // A company's seat before who controls it.
        assert_eq!(
            with_place("Kestrel Ltd wired $1.3 million to Sunline Trading FZE, a free-zone company registered in Dubai, that Mr. Kwame Asante controls.", "Dubai"),
            ["TRANSFERRED(Kestrel Ltd, Sunline Trading FZE)", "REGISTERED_AT(Sunline Trading FZE, Dubai)", "CONTROLS(Kwame Asante, Sunline Trading FZE)"]
        );
        // The company an apposition with a place describes is the one that acts.
        assert_eq!(
            with_place("Bayou Gulf Inc., a subsidiary of the Norwegian group Hallstrand Holdings Ltd, paid $3.8 million to Costa Azul S.A.", "Norwegian"),
            ["PAID(Bayou Gulf Inc., Costa Azul S.A)"]
        );
        assert_eq!(
            with_place("JL Global Trading Co., a Jersey City company owned by Ms. Jennifer Liang, received $6.2 million from Garden State Auto LLC.", "Jersey City"),
            ["RECEIVED_FROM(JL Global Trading Co., Garden State Auto LLC)", "OWNS(Jennifer Liang, JL Global Trading Co.)"]
        );
        // Companies owned together.
        assert_eq!(
            rels("Mr. Osvaldo Ferrer owned and operated Sunrise Care LLC and Palmetto Nursing Inc., both Florida companies."),
            ["OWNS(Osvaldo Ferrer, Sunrise Care LLC)", "OWNS(Osvaldo Ferrer, Palmetto Nursing Inc.)"]
        );
        assert_eq!(rels("Mr. John Doe owns Acme Ltd and Beta Ltd owns Gamma Ltd."), ["OWNS(John Doe, Acme Ltd)", "OWNS(Beta Ltd, Gamma Ltd)"]);
        // A clause of its own after a comma is no apposition.
        assert_eq!(
            rels("It was acquired by Novell Inc., and is now being led by Xamarin Inc., a subsidiary of Microsoft Corporation."),
            ["SUBSIDIARY_OF(Xamarin Inc., Microsoft Corporation)"]
        );
        // A relative clause's "with which" is no apposition's.
        assert_eq!(
            rels("We signed with Sitoa Corporation, in connection with which Mr. Calbert Lai, the Chief Executive Officer of Sitoa Corporation, was appointed."),
            ["OFFICER_OF(Calbert Lai, Sitoa Corporation)"]
        );
        // A payer another made pay.
        assert_eq!(
            rels("Mr. Harold Brennan caused Meridian Oil LP to pay Pickett Drilling Co., a company owned by Mr. Dale Pickett, $740,000 for nothing."),
            ["PAID(Meridian Oil LP, Pickett Drilling Co.)", "OWNS(Dale Pickett, Pickett Drilling Co.)"]
        );
        // A managing partner is an officer; "who served as" names the office too.
        assert_eq!(rels("Mr. Nathan Ashby was the managing partner of Beacon Partners LP."), ["OFFICER_OF(Nathan Ashby, Beacon Partners LP)"]);
        assert_eq!(rels("Ms. Celeste Varga, who served as chief operating officer of Ashby Capital LLC, prepared statements."), ["OFFICER_OF(Celeste Varga, Ashby Capital LLC)"]);
    }

    /// What the patterns find in `s` with the rule finders' mentions and `place` found as
    /// a place (the tagger finds it; here it is added).
    fn with_place(s: &str, place: &str) -> Vec<String> {
        let mut ms = entities::find(s, (0, s.len()), None);
        let at = s.find(place).unwrap_or_default();
        ms.push(entities::Mention { span: (at, at + place.len()), kind: "Location", key: format!("Location:{}", place.to_lowercase()), surface: place.to_string(), attrs: vec![] });
        ms.sort_by_key(|m| m.span);
        let t = template(s, 0, &ms);
        find(&t, &ms).into_iter().map(|f| format!("{}({}, {})", f.rel, ms[f.subject].surface, ms[f.object].surface)).collect::<Vec<_>>()
    }

    /// Every pattern's two argument groups are read by the placeholder gate, and they are
    /// the regex's unnamed groups.
    #[test]
    fn every_pattern_has_two_argument_groups_the_gate_reads() {
        for p in PATTERNS.iter() {
            let unnamed = p.re.capture_names().skip(1).filter(Option::is_none).count();
            assert_eq!(p.needs.arity(), Some(2), "{}", p.re.as_str());
            assert_eq!(unnamed, 2, "{}", p.re.as_str());
        }
    }

    #[test]
    fn a_defined_short_name_in_brackets_reads_as_its_party() {
        let s = "Quorra Corporation (Quorra) consented to pay Delta Ltd (Omega Ltd).";
        let m = |a: usize, b: usize, key: &str| Mention { span: (a, b), kind: "Organization", key: key.to_string(), surface: s[a..b].to_string(), attrs: vec![] };
        let ms = [m(0, 18, "Organization:quorra corporation"), m(20, 26, "Organization:quorra corporation"), m(45, 54, "Organization:delta ltd"), m(56, 65, "Organization:other")];
        // The second "Quorra" is Quorra Corporation's: gone from the template; "(Omega Ltd)" is another party's name and stays.
        assert_eq!(template(s, 0, &ms), "«O0» consented to pay «O2» («O3»).");
        // A short name of two words that opens with the party's first word is the party's,
        // whatever key it was given ("HSBC Holdings plc (HSBC Group)").
        let s = "Quorra Holdings plc (Quorra Group) consented.";
        let m = |a: usize, b: usize, key: &str| Mention { span: (a, b), kind: "Organization", key: key.to_string(), surface: s[a..b].to_string(), attrs: vec![] };
        let ms = [m(0, 19, "Organization:quorra holdings plc"), m(21, 33, "Organization:quorra group")];
        assert_eq!(template(s, 0, &ms), "«O0» consented.");
    }

    /// Each pattern has its own cue bit (bit 127 is the shared-director pattern's): patterns
    /// past 126 would run on every template.
    #[test]
    fn the_patterns_fit_the_cue_bits() {
        assert!(super::PATTERNS.len() <= 127, "{} patterns", super::PATTERNS.len());
    }

    /// Family and business ties: the kin is the subject, the person it is kin of the object.
    #[test]
    fn family_ties() {
        assert_eq!(rels("Mrs. Lynn Bentley is the wife of Mr. Robert Bentley."), ["ASSOCIATED_WITH(Lynn Bentley, Robert Bentley)"]);
        // A designation's "acting for or on behalf of" ties the agent to its principal; a
        // tie to an unnamed party ("designated individuals") is none.
        assert_eq!(
            rels("In May, Treasury designated Delta Aviation Company Limited for acting for or on behalf of Beta Air LLC."),
            ["ASSOCIATED_WITH(Delta Aviation Company Limited, Beta Air LLC)"]
        );
        assert_eq!(
            rels("Mr. John Doe was designated for providing material assistance in support of the activities of, and acting for or on behalf of, Mr. Richard Roe."),
            ["ASSOCIATED_WITH(John Doe, Richard Roe)"]
        );
        assert!(rels("Mr. John Doe also designated three individuals for acting for or on behalf of designated persons, including Mr. Richard Roe.").is_empty());
        assert!(rels("Mr. Raymond Arias, 42, and his wife, Mrs. Emelitza Arias, 25, were sentenced.").contains(&"ASSOCIATED_WITH(Emelitza Arias, Raymond Arias)".to_string()));
        assert_eq!(rels("Mr. Hans Drescher's friend, Dr. Alan Poe, paid."), ["ASSOCIATED_WITH(Alan Poe, Hans Drescher)"]);
        assert_eq!(rels("Mr. Hans Drescher's former business partner, Dr. Alan Poe, paid."), ["ASSOCIATED_WITH(Alan Poe, Hans Drescher)"]);
        // "His" of the sentence's one person, or of the person a relative clause is about.
        // (The money is the company's it came from, sent to the relative.)
        assert_eq!(
            rels("Mr. John Doe wired $5,000 from Acme Corp to his brother-in-law, Mr. Richard Roe."),
            ["TRANSFERRED(Acme Corp, Richard Roe)", "ASSOCIATED_WITH(Richard Roe, John Doe)"]
        );
        assert_eq!(
            rels("Mr. Hans Drescher tipped Mr. John Doe, who bought options in an account held in the name of his sister, Ms. Jane Doe."),
            ["ASSOCIATED_WITH(Jane Doe, John Doe)"]
        );
        assert!(rels("Mr. Hans Drescher paid Mr. John Doe through his sister, Ms. Jane Doe.").iter().all(|r| !r.starts_with("ASSOCIATED_WITH")));
        assert_eq!(rels("The SEC charged Mr. Hans Drescher and his longtime friend Mr. John Doe."), ["ASSOCIATED_WITH(John Doe, Hans Drescher)"]);
        // A tie between a person and a company is none of these.
        assert!(rels("Mr. Hans Drescher and his partner, Acme Ltd, paid.").is_empty());
    }

    #[test]
    fn transfers_active_and_passive() {
        assert_eq!(rels("Acme Trading Ltd (\"Acme\") sent four wires totalling USD 1,940,000 to Beta Holdings SA."), ["TRANSFERRED(Acme Trading Ltd, Beta Holdings SA)"]);
        assert_eq!(rels("USD 2,000,000 was wired by Acme Corp to Beta Ltd."), ["TRANSFERRED(Acme Corp, Beta Ltd)"]);
        // A company's function is no organisation to hold an office in.
        assert!(super::is_corporate_function("Human Resources") && !super::is_corporate_function("Enron Wind"));
        // The noun names a transfer, not who made it; the verb still does.
        assert!(rels("Acme Corp announced the transfer to Beta Ltd of responsibility for its pipelines.").is_empty());
        assert_eq!(rels("Acme Corp agreed to transfer USD 2,000,000 to Beta Ltd."), ["TRANSFERRED(Acme Corp, Beta Ltd)"]);
        // The payee as the holder of the account the money went to; an account at a bank is
        // no payment to the bank.
        assert_eq!(rels("Mr. John Doe caused Acme Corp to wire $2 million to an account held by Beta Ltd."), ["TRANSFERRED(Acme Corp, Beta Ltd)"]);
        assert!(rels("Mr. John Doe transferred $1.2 million to accounts he controlled at Gamma Bank Ltd.").is_empty());
        assert!(rels("Acme Corp transferred $1 million to its Gamma Bank Ltd. account.").is_empty());
        // "Wire transfers" approved are no transfer by who approved them; made, they are.
        assert!(rels("Mr. John Doe approved wire transfers of $4.6 million from those accounts to Beta Ltd.").is_empty());
        assert_eq!(rels("Mr. John Doe made three wire transfers of $4.6 million to Beta Ltd."), ["TRANSFERRED(John Doe, Beta Ltd)"]);
        // The money's source named after "from" is the payer, whose hand moved it or not.
        assert_eq!(rels("Mr. John Doe transferred $850,000 from Acme Corp's escrow account to Beta Ltd."), ["TRANSFERRED(Acme Corp, Beta Ltd)"]);
        assert_eq!(rels("Mr. John Doe wired $2 million from accounts held by Acme Corp to Beta Ltd."), ["TRANSFERRED(Acme Corp, Beta Ltd)"]);
        assert_eq!(rels("Mr. John Doe wired $2 million from his account at Gamma Bank Ltd. to Beta Ltd."), ["TRANSFERRED(John Doe, Beta Ltd)"]);
        // A place the money came from is none of the parties; an account at a bank held by a
        // party is the party's.
        assert_eq!(rels("Mr. John Doe wired payments from accounts in Kyrgyzstan to Beta Ltd's account."), ["TRANSFERRED(John Doe, Beta Ltd)"]);
        assert_eq!(rels("Acme Corp sent $2.5 million to an account at Gamma Bank Ltd. held by Mr. John Doe."), ["TRANSFERRED(Acme Corp, John Doe)"]);
    }

    /// The verb after a relative clause about a party is that party's, over its age and
    /// where it lives.
    #[test]
    fn a_relative_clause_is_an_aside() {
        assert_eq!(super::apposition_head("«P0», 52, of «L1», «L2», who owned and operated «O3», was sentenced", 54), Some(0));
        assert_eq!(super::apposition_head("«O0», which controlled «O1», paid", 25), Some(0));
        let t = "«O0», which does business in the «L1» as «O2», entered into an agreement";
        assert_eq!(super::apposition_head(t, t.find("«O2»").unwrap_or_default()), Some(0));
        assert_eq!(super::apposition_head("«P0» said that «O1», was", 17), None);
        let t = "charged «O1» d/b/a «O2» (\"Lumora\"), a «L3» company";
        assert_eq!(super::apposition_head(t, t.find("«O2»").unwrap_or_default()), Some(1));
        // Roles listed by commas before "of": the office and the ownership both.
        assert_eq!(
            rels("Mr. Hollis Vandermeer, 63, is the founder, sole owner and chief compliance officer of Crestline Harbor Advisors LLC."),
            ["OFFICER_OF(Hollis Vandermeer, Crestline Harbor Advisors LLC)", "OWNS(Hollis Vandermeer, Crestline Harbor Advisors LLC)"]
        );
        // "his wife, Y" after one person named twice (a pronoun and a name), or after a
        // semicolon: that person's; not where two people stand before it.
        let s = "Mr. Gregory Voss wired money to an account he held with his wife, Mrs. Laura Voss.";
        let mut ms = entities::find(s, (0, s.len()), None);
        ms.push(Mention {
            span: (s.find("he held").unwrap_or_default(), s.find("he held").unwrap_or_default() + 2),
            kind: "Person",
            key: "Person:gregory voss".into(),
            surface: "he".into(),
            attrs: vec![],
        });
        ms.sort_by_key(|m| m.span);
        let t = template(s, 0, &ms);
        let got: Vec<String> = find(&t, &ms).into_iter().map(|f| format!("{}({}, {}) {:?}", f.rel, ms[f.subject].surface, ms[f.object].surface, f.role)).collect();
        assert_eq!(got, ["ASSOCIATED_WITH(Laura Voss, Gregory Voss) Some(\"wife\")"], "{t}");
        assert_eq!(
            rels("Mr. Timothy Rourke owns Evergreen Summit LLC; his wife, Mrs. Colleen Rourke, owns the rest."),
            ["OWNS(Timothy Rourke, Evergreen Summit LLC)", "ASSOCIATED_WITH(Colleen Rourke, Timothy Rourke)"]
        );
        assert!(rels("Mr. John Doe paid Mr. Roe Smith through an account held by his wife, Mrs. Jane Doe.").iter().all(|r| !r.starts_with("ASSOCIATED_WITH")));
        // The one who formed a company, or operates it, controls it.
        assert_eq!(rels("Mr. Marcus Oyelaran formed Redbud Logistics LLC in 2021."), ["CONTROLS(Marcus Oyelaran, Redbud Logistics LLC)"]);
        assert_eq!(
            rels("Payments went to Redwater Analytics LLC, a limited liability company that Mr. Nikhil Raman had formed in his mother's name."),
            ["CONTROLS(Nikhil Raman, Redwater Analytics LLC)"]
        );
        assert_eq!(rels("Payments went to Fennick Media Group LLC, a stock-promotion firm operated by Mr. Colin Brisbane."), ["CONTROLS(Colin Brisbane, Fennick Media Group LLC)"]);
        // An employee described after the age and the home ("at the time" a trader at Y).
        assert_eq!(
            rels("Mr. Anthony Graziano, 55, at the time a municipal trader at Ridgeway Coastal Capital Markets LLC, bought bonds."),
            ["EMPLOYED_BY(Anthony Graziano, Ridgeway Coastal Capital Markets LLC)"]
        );
        // A staff role held at the company named, in apposition.
        assert_eq!(rels("Mr. Priya Iyer, Crestline Harbor Advisors LLC's operations manager, raised concerns."), ["EMPLOYED_BY(Priya Iyer, Crestline Harbor Advisors LLC)"]);
        assert!(rels("Mr. Priya Iyer, Crestline Harbor Advisors LLC's outside consultant, raised concerns.").is_empty());
        // An aside's party followed by its own office holds the office: the verb after it
        // is the first party's, the office is not.
        assert_eq!(rels("Mr. John Doe, with Mr. Roe Smith, Acme Inc.'s CEO, retained promoters."), ["OFFICER_OF(Roe Smith, Acme Inc.)"]);
        assert_eq!(rels("Mr. John Doe, aka Mr. Roe Smith, the President of Acme Inc., was arrested."), ["OFFICER_OF(John Doe, Acme Inc.)"]);
    }

    /// Owning and operating a business is owning it.
    #[test]
    fn owned_and_operated() {
        assert_eq!(rels("Mr. John Doe, 45, who owned and operated Acme Medical Supply LLC, was sentenced today."), ["OWNS(John Doe, Acme Medical Supply LLC)"]);
        assert_eq!(rels("Acme Medical Supply LLC was owned and operated by Mr. John Doe."), ["OWNS(John Doe, Acme Medical Supply LLC)"]);
        // Over an age and where the party lives (places are the tagger's: see `lib.rs`).
        assert_eq!(rels("Mr. John Doe, 52, who owned Acme Medical Supply LLC, was sentenced today."), ["OWNS(John Doe, Acme Medical Supply LLC)"]);
        // Owners listed with their ages own alike.
        assert_eq!(
            rels("According to the indictment, Mr. John Doe, 52, and Mr. Carl Roe, 47, owned and operated Acme Medical Supply LLC, a laboratory."),
            ["OWNS(John Doe, Acme Medical Supply LLC)", "OWNS(Carl Roe, Acme Medical Supply LLC)"]
        );
    }

    /// Any "chief … officer" is an office ("Chief Operations Officer", "chief technology
    /// officer"), not only the four best known.
    #[test]
    fn every_chief_officer_is_an_office() {
        assert_eq!(rels("Mr. John Doe, former Chief Operations Officer of Beta LLC, was charged today."), ["OFFICER_OF(John Doe, Beta LLC)"]);
        assert_eq!(rels("Mr. John Doe, the chief technology officer of Beta LLC, resigned."), ["OFFICER_OF(John Doe, Beta LLC)"]);
        assert!(rels("Mr. John Doe, a chief of staff at Beta LLC, resigned.").is_empty());
    }

    /// An owner in apposition owns; money accepted from a party is received from it, an
    /// offer accepted is not.
    #[test]
    fn owners_and_money_accepted() {
        // (An office after the ownership is held too.)
        assert_eq!(
            rels("Mr. John Doe, 55, the owner and president of Acme Supply Inc., was convicted."),
            ["OFFICER_OF(John Doe, Acme Supply Inc.)", "OWNS(John Doe, Acme Supply Inc.)"]
        );
        assert_eq!(rels("Acme Supply Inc.'s owner, Mr. John Doe, was convicted."), ["OWNS(John Doe, Acme Supply Inc.)"]);
        assert_eq!(rels("Mr. John Doe accepted cash payments totaling approximately $310,000 from Mr. Javier Roe."), ["RECEIVED_FROM(John Doe, Javier Roe)"]);
        assert_eq!(rels("Mr. John Doe accepted $50,000 in bribes from Acme Corp."), ["RECEIVED_FROM(John Doe, Acme Corp)"]);
        assert_eq!(rels("Mr. John Doe, 47, accepted cash payments from Mr. Javier Roe."), ["RECEIVED_FROM(John Doe, Javier Roe)"]);
        assert_eq!(rels("Mr. John Doe, 47, paid $5,000 to Mr. Javier Roe."), ["PAID(John Doe, Javier Roe)"]);
        assert!(rels("Mr. John Doe accepted a job offer from Acme Corp.").is_empty());
    }

    /// "Its" officers in a list are the company's that opens it, with "and" or without.
    #[test]
    fn its_officers_in_a_list() {
        assert_eq!(
            rels("The complaint names Beta LLC, its president Mr. John Doe, and its former chief financial officer, Ms. Mary Roe."),
            ["OFFICER_OF(John Doe, Beta LLC)", "OFFICER_OF(Mary Roe, Beta LLC)"]
        );
        assert_eq!(rels("The complaint names Beta LLC, its president, Mr. John Doe, and Gamma Ltd."), ["OFFICER_OF(John Doe, Beta LLC)"]);
        assert_eq!(rels("Beta LLC and its president, Mr. John Doe, settled."), ["OFFICER_OF(John Doe, Beta LLC)"]);
        // (After a relative clause on the company.)
        assert_eq!(rels("Treasury designated Beta LLC, which makes engines for drones, and its managing director, Mr. John Doe."), ["OFFICER_OF(John Doe, Beta LLC)"]);
        assert_eq!(rels("Beta LLC used Gamma Ltd., a Dubai-based front company owned by Mr. John Doe's associate, Mr. Richard Roe."), ["OWNS(Richard Roe, Gamma Ltd.)"]);
        // A company's one member owns it; its seat may come before its owner or controller;
        // an adverb may stand before "controlled".
        assert_eq!(rels("Mr. John Doe, the sole member of Beta LLC, transferred funds."), ["OWNS(John Doe, Beta LLC)"]);
        assert_eq!(
            rels("The bribes went through Beta Ltd., a company incorporated in the Seychelles and owned by Mr. John Doe."),
            ["REGISTERED_AT(Beta Ltd., Seychelles)", "OWNS(John Doe, Beta Ltd.)"]
        );
        assert_eq!(rels("Acme Corp booked sales to Beta LLC, which was secretly controlled by Mr. John Doe."), ["CONTROLS(John Doe, Beta LLC)"]);
        assert_eq!(rels("The bank processed transactions for companies controlled by Mr. John Doe, including Beta LLC."), ["CONTROLS(John Doe, Beta LLC)"]);
        assert_eq!(rels("Mr. John Doe also controlled a freight forwarder, Beta Shipping Inc., which shipped the cars."), ["CONTROLS(John Doe, Beta Shipping Inc.)"]);
        // A party after a preposition is no subject: the payment is the clause's subject's.
        assert!(rels("Mr. John Doe received a loan for Beta LLC and paid Mr. Richard Roe a kickback.").iter().all(|r| !r.contains("Beta LLC")));
        assert_eq!(rels("Acme Corp paid more than $4 million to Beta Ltd."), ["PAID(Acme Corp, Beta Ltd)"]);
        // The subject of a verb joined by "and"; money before its payer.
        assert_eq!(rels("Mr. John Doe, 39, received a $310,000 loan for Beta LLC and paid Mr. Richard Roe a kickback of $93,000."), ["PAID(John Doe, Richard Roe)"]);
        assert_eq!(rels("The inquiry centres on about $6 million that Acme Corp paid in 2021 to Beta Ltd, a consultant."), ["PAID(Acme Corp, Beta Ltd)"]);
        assert_eq!(
            rels("Mr. John Doe was a director of Beta Holdings, Inc. (currently a wholly owned subsidiary of Gamma Inc.), a drug maker."),
            ["DIRECTOR_OF(John Doe, Beta Holdings, Inc.)", "SUBSIDIARY_OF(Beta Holdings, Inc., Gamma Inc.)"]
        );
        assert_eq!(
            rels("Acme Corp sent wires to Beta Holdings SA (\"Beta\"), a company registered in Nauru."),
            ["TRANSFERRED(Acme Corp, Beta Holdings SA)", "REGISTERED_AT(Beta Holdings SA, Nauru)"]
        );
        assert_eq!(
            rels("The action names Beta LLC (\"Beta\"), its president Mr. John Doe, and its former chief financial officer, Ms. Mary Roe."),
            ["OFFICER_OF(John Doe, Beta LLC)", "OFFICER_OF(Mary Roe, Beta LLC)"]
        );
        assert_eq!(
            rels("Beta LLC's former chief financial officer, Ms. Mary Roe, and its former controller, Mr. John Doe, recognized revenue."),
            ["OFFICER_OF(Mary Roe, Beta LLC)", "OFFICER_OF(John Doe, Beta LLC)"]
        );
    }

    #[test]
    fn appositions_and_possessives() {
        assert_eq!(rels("Beta Ltd, a subsidiary of Gamma Holdings, signed."), ["SUBSIDIARY_OF(Beta Ltd, Gamma Holdings)"]);
        assert_eq!(rels("Gamma Holdings's director, Mr. John Doe, resigned."), ["DIRECTOR_OF(John Doe, Gamma Holdings)"]);
        assert_eq!(
            rels("Beta Holdings SA shares a director, Marek Novak, with Acme Trading Ltd."),
            ["DIRECTOR_OF(Marek Novak, Beta Holdings SA)", "DIRECTOR_OF(Marek Novak, Acme Trading Ltd)"]
        );
        assert_eq!(rels("Omega Ltd is wholly owned by Gamma Holdings."), ["OWNS(Gamma Holdings, Omega Ltd)"]);
        // A company described by its place, its form or a shell's words before its noun.
        // (The place before the company's legal kind is where it is registered.)
        assert_eq!(with_place("Omega Ltd, a Nauru company owned by Gamma Holdings, signed.", "Nauru"), ["REGISTERED_AT(Omega Ltd, Nauru)", "OWNS(Gamma Holdings, Omega Ltd)"]);
        assert_eq!(
            with_place("Omega Ltd, a Delaware limited liability company controlled by Mr. John Doe, signed.", "Delaware"),
            ["REGISTERED_AT(Omega Ltd, Delaware)", "CONTROLS(John Doe, Omega Ltd)"]
        );
        assert_eq!(with_place("Omega Ltd is a Nevada corporation.", "Nevada"), ["REGISTERED_AT(Omega Ltd, Nevada)"]);
        // Not a business's line, nor "-based": where it works.
        assert!(with_place("Omega Ltd, a Florida property management company, signed.", "Florida").is_empty());
        assert!(with_place("Omega Ltd, a Florida-based company, signed.", "Florida").is_empty());
        assert!(with_place("Omega SA, a Quito company owned by Gamma Holdings, signed.", "Quito").iter().all(|r| !r.starts_with("REGISTERED_AT")));
        // "Y, a … partnership of which X is general director".
        assert_eq!(
            rels("Payments went to Steppe Tech Distribution LLP, a limited liability partnership of which Mr. Arman Seitkali is general director."),
            ["OFFICER_OF(Arman Seitkali, Steppe Tech Distribution LLP)"]
        );
        // A compound modifier, a trust, "established in".
        assert_eq!(with_place("Omega Limited, a Hong Kong-registered company, paid.", "Hong Kong"), ["REGISTERED_AT(Omega Limited, Hong Kong)"]);
        assert_eq!(with_place("Omega Holdings Trust, a Nevada trust, paid.", "Nevada"), ["REGISTERED_AT(Omega Holdings Trust, Nevada)"]);
        assert_eq!(
            with_place("Omega Corporation, a company established in the British Virgin Islands in 2014, paid.", "British Virgin Islands"),
            ["REGISTERED_AT(Omega Corporation, British Virgin Islands)"]
        );
        // A territory with a register of its own is no country, but companies are formed there.
        assert_eq!(with_place("Omega Ltd., a British Virgin Islands company, sold shares.", "British Virgin Islands"), ["REGISTERED_AT(Omega Ltd., British Virgin Islands)"]);
        assert_eq!(with_place("Omega S.A., a company organized in Panama, sold shares.", "Panama"), ["REGISTERED_AT(Omega S.A., Panama)"]);
        // A description opening with a place leaves the buyer its verb; a nationality the payer's.
        assert_eq!(
            with_place("Harborline Capital Partners LLC, a Pittsburgh private equity firm, acquired Mahoning Fabricators Inc. in 2014.", "Pittsburgh"),
            ["ACQUIRED(Harborline Capital Partners LLC, Mahoning Fabricators Inc.)"]
        );
        assert_eq!(with_place("Mr. Dmitri Kovalenko, a Ukrainian national, paid Lumen Media LLC $610,000.", "Ukrainian"), ["PAID(Dmitri Kovalenko, Lumen Media LLC)"]);
        assert_eq!(with_place("Mr. Mehmet Yildirim, 45, a Turkish citizen, allegedly owns Anatolia Teknik Ltd.", "Turkish"), ["OWNS(Mehmet Yildirim, Anatolia Teknik Ltd)"]);
        assert_eq!(rels("Omega Ltd, a shell company controlled by Mr. John Doe, signed."), ["CONTROLS(John Doe, Omega Ltd)"]);
        assert_eq!(rels("Omega Ltd, a dealership owned by his cousin, Mr. John Doe, signed."), ["OWNS(John Doe, Omega Ltd)"]);
        assert_eq!(rels("Mr. John Doe sent $5,000 to Omega Ltd, a company Mr. John Doe controlled."), ["TRANSFERRED(John Doe, Omega Ltd)", "CONTROLS(John Doe, Omega Ltd)"]);
        // The owner is the relative the possessive introduces.
        assert_eq!(
            rels("Mr. Al Roe paid Omega Ltd, a company owned by Mr. John Doe's brother-in-law, Mr. Tom Reilly."),
            ["PAID(Al Roe, Omega Ltd)", "OWNS(Tom Reilly, Omega Ltd)", "ASSOCIATED_WITH(Tom Reilly, John Doe)"]
        );
        assert_eq!(rels("Beta Holdings SA, a company registered in Nauru, replied."), ["REGISTERED_AT(Beta Holdings SA, Nauru)"]);
        // Another clause between them registers no one.
        assert!(rels("Of the firms Beta Holdings SA named, six are registered in Nauru.").is_empty());
        assert_eq!(rels("Mr. Calbert Lai , the Chief Executive Officer of Sitoa Corporation , resigned."), ["OFFICER_OF(Calbert Lai, Sitoa Corporation)"]);
        // The verb after an aside is the party's before it, not the aside's.
        assert_eq!(
            rels("Mr. John Doe, the president of Omega Securities Inc., paid $50,000 to Beta Ltd."),
            ["OFFICER_OF(John Doe, Omega Securities Inc.)", "PAID(John Doe, Beta Ltd)"]
        );
        assert_eq!(rels("Beta Ltd, a subsidiary of Gamma Holdings, acquired Delta Corp."), ["SUBSIDIARY_OF(Beta Ltd, Gamma Holdings)", "ACQUIRED(Beta Ltd, Delta Corp)"]);
        assert_eq!(rels("Mr. Patzig was a Director of Cyntellect Inc., a private company."), ["DIRECTOR_OF(Patzig, Cyntellect Inc.)"]);
        assert_eq!(rels("Ms. Ray served as Senior Vice President of Omega Corp."), ["OFFICER_OF(Ray, Omega Corp)"]);
        // The office's field in lower case between the role and the organisation.
        assert_eq!(rels("Ms. Ray served as senior vice president of lending at Omega Corp from 2012."), ["OFFICER_OF(Ray, Omega Corp)"]);
        assert!(rels("Ms. Ray, a former controller of a subsidiary unit of Omega Corp, was charged.").is_empty());
        assert_eq!(rels("Ms. Ray, the former chairman of the management board of Omega Corp, was charged."), ["OFFICER_OF(Ray, Omega Corp)"]);
        // A biography's age in apposition, an office with the company's possessive.
        assert_eq!(rels("Mr. John Doe, age 49, was Omega Corp's chief financial officer."), ["OFFICER_OF(John Doe, Omega Corp)"]);
        assert_eq!(rels("Ms. Jane Roe, 52, was the controller of Beta Ltd until 2021."), ["OFFICER_OF(Jane Roe, Beta Ltd)"]);
        assert!(rels("Mr. John Doe, age 49, was Omega Corp's client.").is_empty());
        assert_eq!(
            rels(
                "Mr. John Doe (\"J. Doe\"), age 52, was Omega Corp's senior vice president of finance until March 1992, when he became chief operating officer of Omega Corp's Information Services Division."
            ),
            ["OFFICER_OF(John Doe, Omega Corp)"]
        );
        // Headline appositions, the company's title after a name, "previously served as".
        assert_eq!(rels("Omega Corp CEO Mr. John Doe said sales rose."), ["OFFICER_OF(John Doe, Omega Corp)"]);
        assert_eq!(rels("Mr. John Doe, Omega Corp's Chairman and Chief Executive Officer, resigned."), ["OFFICER_OF(John Doe, Omega Corp)"]);
        assert_eq!(rels("Mr. Doe previously served as Chairman of the Board, President and Chief Executive Officer of Beta Holdings SA."), ["OFFICER_OF(Doe, Beta Holdings SA)"]);
        assert_eq!(rels("Ms. Roe is also Executive Director of the Gamma Holdings foundation."), ["DIRECTOR_OF(Roe, Gamma Holdings)"]);
    }

    #[test]
    fn acquisitions_with_descriptions() {
        assert_eq!(rels("In 2019 Acme Corp acquired payments start-up Beta Ltd for $2 million."), ["ACQUIRED(Acme Corp, Beta Ltd)"]);
        assert_eq!(rels("Gamma Holdings said it will buy Omega Corp."), ["ACQUIRED(Gamma Holdings, Omega Corp)"]);
        assert_eq!(rels("Omega Corp Acquired by Gamma Holdings"), ["ACQUIRED(Gamma Holdings, Omega Corp)"]);
        assert_eq!(rels("Beta Ltd agreed to be acquired by Acme Corp."), ["ACQUIRED(Acme Corp, Beta Ltd)"]);
        assert_eq!(rels("Before Acme Corp's acquisition of Beta Ltd, prices rose."), ["ACQUIRED(Acme Corp, Beta Ltd)"]);
        assert_eq!(rels("Beta Ltd, an operating unit of Gamma Holdings, competes."), ["SUBSIDIARY_OF(Beta Ltd, Gamma Holdings)"]);
        assert_eq!(rels("He led Beta Ltd (now a wholly owned subsidiary of Gamma Holdings) until 2001."), ["SUBSIDIARY_OF(Beta Ltd, Gamma Holdings)"]);
        // Buying shares of a company is no acquisition of it.
        assert!(rels("Acme Corp bought shares of Beta Ltd.").is_empty());
        assert!(rels("On July 28, Acme Corp purchased Beta Ltd common stock and call options.").is_empty());
        assert!(rels("Acme Corp began buying Beta Ltd stock.").is_empty());
    }

    #[test]
    fn subsidiaries_described_and_parents() {
        assert_eq!(rels("Omega Corp (OC), an indirectly wholly-owned subsidiary of Gamma Holdings, replied."), ["SUBSIDIARY_OF(Omega Corp, Gamma Holdings)"]);
        assert_eq!(rels("Beta Ltd, the plant-based foods subsidiary of Gamma Holdings, grew."), ["SUBSIDIARY_OF(Beta Ltd, Gamma Holdings)"]);
        assert_eq!(rels("Shares are held by Gamma Holdings through its wholly owned subsidiary Beta Ltd."), ["SUBSIDIARY_OF(Beta Ltd, Gamma Holdings)"]);
        assert_eq!(rels("Gamma Holdings is the parent company of wholly-owned Beta Ltd."), ["SUBSIDIARY_OF(Beta Ltd, Gamma Holdings)"]);
        assert_eq!(rels("Beta Ltd's parent company, Gamma Holdings, declined."), ["SUBSIDIARY_OF(Beta Ltd, Gamma Holdings)"]);
        // A space before the comma (as text from PDF or tokenised text has it).
        assert_eq!(rels("It means Gamma Holdings and its wholly owned subsidiary , Beta Ltd."), ["SUBSIDIARY_OF(Beta Ltd, Gamma Holdings)"]);
    }

    #[test]
    fn acquisitions_completed_agreed_and_sold() {
        assert_eq!(rels("Acme Corp to acquire Beta Ltd | Company News"), ["ACQUIRED(Acme Corp, Beta Ltd)"]);
        assert_eq!(rels("In May, Acme Corp completed its acquisition of Beta Ltd from Gamma Holdings."), ["ACQUIRED(Acme Corp, Beta Ltd)"]);
        assert_eq!(rels("Acme Corp has entered into an agreement to acquire Beta Ltd, subject to approval."), ["ACQUIRED(Acme Corp, Beta Ltd)"]);
        assert_eq!(rels("After the acquisition of Beta Ltd by Acme Corp, costs fell."), ["ACQUIRED(Acme Corp, Beta Ltd)"]);
        assert_eq!(rels("Gamma Holdings sold Beta Ltd to a subsidiary of Acme Corp for $4 million."), ["ACQUIRED(Acme Corp, Beta Ltd)"]);
        assert_eq!(rels("Acme Corp, a maker of industrial pumps and valves, is acquiring Beta Ltd for $3 million."), ["ACQUIRED(Acme Corp, Beta Ltd)"]);
        assert_eq!(
            rels("Acme Corp acquired Beta Ltd, Gamma Holdings and Omega Corp, which are insurers."),
            ["ACQUIRED(Acme Corp, Beta Ltd)", "ACQUIRED(Acme Corp, Gamma Holdings)", "ACQUIRED(Acme Corp, Omega Corp)"]
        );
    }

    #[test]
    fn a_subject_stands_before_its_verb() {
        // Inside a relative clause, an organisation is not the main verb's subject.
        assert_eq!(rels("Beta Ltd, which is consolidated by Gamma Holdings, acquired Omega Corp."), ["ACQUIRED(Beta Ltd, Omega Corp)"]);
        // The writer's "we" is the subject, not the company named before it.
        assert!(rels("As part of the Gamma Holdings transaction, we acquired Omega Corp.").is_empty());
        // ", and" after an apposition ends it: the second organisation is not listed with the first.
        assert_eq!(rels("An agreement between Beta Ltd, a subsidiary of Gamma Holdings, and Omega Corp was filed."), ["SUBSIDIARY_OF(Beta Ltd, Gamma Holdings)"]);
        // A list needs its end: "and Omega Corp sued" starts a clause.
        assert_eq!(rels("Mr. John Doe worked for Beta Ltd and Omega Corp sued him."), ["EMPLOYED_BY(John Doe, Beta Ltd)"]);
        // An office held now, and an employer joined over it.
        let mut r = rels("Mr. John Doe, currently CEO of Beta Ltd, has joined Omega Corp as its treasurer.");
        r.sort();
        assert_eq!(r, ["EMPLOYED_BY(John Doe, Omega Corp)", "OFFICER_OF(John Doe, Beta Ltd)"]);
    }

    #[test]
    fn offices_listed_and_agreements_with_staff() {
        assert_eq!(
            rels("Mr. John Doe became Executive Vice President and General Counsel of Beta Ltd and Gamma Holdings in 2012."),
            ["OFFICER_OF(John Doe, Beta Ltd)", "OFFICER_OF(John Doe, Gamma Holdings)"]
        );
        assert_eq!(
            rels("Mr. John Doe has been a director of Beta Ltd since 2005 and a director of Gamma Holdings since its formation."),
            ["DIRECTOR_OF(John Doe, Beta Ltd)", "DIRECTOR_OF(John Doe, Gamma Holdings)"]
        );
        assert_eq!(rels("From 1994 to 1997, Mr. John Doe was President, Chief Executive Officer and a Director of Beta Ltd."), ["OFFICER_OF(John Doe, Beta Ltd)"]);
        assert_eq!(rels("Mr. John Doe, Beta Ltd s Chairman of the Board, signed."), ["OFFICER_OF(John Doe, Beta Ltd)"]);
        assert_eq!(rels("Employment Agreement, dated as of May 9, 2008, between Beta Ltd and Mr. John Doe."), ["EMPLOYED_BY(John Doe, Beta Ltd)"]);
        // Any other agreement between a company and a person says nothing of employment.
        assert!(rels("Loan Agreement, dated as of May 9, 2008, between Beta Ltd and Mr. John Doe.").is_empty());
    }

    #[test]
    fn enforcement_prose() {
        assert_eq!(rels("Merle Ferguson, its former President and Chief Executive Officer of World Homes, Inc., was enjoined."), ["OFFICER_OF(Merle Ferguson, World Homes, Inc.)"]);
        assert_eq!(rels("Danny Seibel, the former president and CEO of the now-defunct First Lindsay Bank, pleaded guilty."), ["OFFICER_OF(Danny Seibel, First Lindsay Bank)"]);
        assert_eq!(rels("World Homes, Inc., and Merle Ferguson, its President, were enjoined."), ["OFFICER_OF(Merle Ferguson, World Homes, Inc.)"]);
        assert_eq!(rels("Yudel Cayro, owner and operator of Courtesy Medical Group Inc., was sentenced."), ["OWNS(Yudel Cayro, Courtesy Medical Group Inc.)"]);
        assert_eq!(rels("Michael Porter, the founder and majority shareholder of St2ep LLC, forged it."), ["OWNS(Michael Porter, St2ep LLC)"]);
        assert_eq!(rels("Dr. Qing Wang, a former Cleveland Clinic Foundation employee, is charged."), ["EMPLOYED_BY(Qing Wang, Cleveland Clinic Foundation)"]);
        assert_eq!(rels("It followed Image Entry, Inc.'s 2001 acquisition by Sourcecorp, Inc. last year."), ["ACQUIRED(Sourcecorp, Inc., Image Entry, Inc.)"]);
        assert_eq!(
            rels("It sold stock of JB Stanley Group, LP's general partner, Cambridge Capital LLC, to investors."),
            ["CONTROLS(Cambridge Capital LLC, JB Stanley Group, LP)"]
        );
        assert_eq!(rels("Acme Holdings Ltd agreed to pay $5 million to Beta Bank plc."), ["PAID(Acme Holdings Ltd, Beta Bank plc)"]);
        // Employed with a company's division: not by the company.
        assert!(rels("While Mr. Lambach was employed with Atchison Corp's Foundry Group Inc, he stole.").is_empty());
    }

    #[test]
    fn a_compound_modifier_before_a_party_is_no_word_of_its_name() {
        assert_eq!(
            rels("Zarrin Falak LLC transferred $60 million to Hong Kong-registered Kingsway Sino Resources Limited."),
            ["TRANSFERRED(Zarrin Falak LLC, Kingsway Sino Resources Limited)"]
        );
        // Officers listed by their roles after their company.
        assert_eq!(
            rels(
                "The SEC charged Brightwater Partners LLC, a Texas company that sold solar farms; its founder and chief executive officer, Mr. John Doe, 49, of Houston; and its former vice president of sales, Ms. Jane Roe."
            ),
            ["OFFICER_OF(John Doe, Brightwater Partners LLC)", "OFFICER_OF(Jane Roe, Brightwater Partners LLC)"]
        );
        // A subsidiary acted through; a payee's account named where it is and in whose name;
        // an officer named in what the company admitted.
        assert_eq!(
            with_place("Acme Corp., acting through its Ecuadorian subsidiary, Acme Andina S.A., paid $2.7 million to Beta Ltd.", "Ecuadorian"),
            ["SUBSIDIARY_OF(Acme Andina S.A., Acme Corp.)", "PAID(Acme Andina S.A., Beta Ltd)"]
        );
        assert_eq!(
            with_place("Beta Ltd., in turn, wired $900,000 to a bank account in Zurich held in the name of Gamma Holdings Ltd.", "Zurich"),
            ["TRANSFERRED(Beta Ltd., Gamma Holdings Ltd)"]
        );
        assert_eq!(rels("Acme Corp. admitted that its former vice president for sales, Mr. Bruno Weber, approved the payments."), ["OFFICER_OF(Bruno Weber, Acme Corp.)"]);
        // A payee named as a co-defendant.
        assert_eq!(rels("Mr. John Doe transferred $61,000 to co-defendant Mr. Kofi Roe."), ["TRANSFERRED(John Doe, Kofi Roe)"]);
        // An office in apposition after the person.
        assert_eq!(rels("Prosecutors charged Mr. Stefan Brandt, Zorblat Logistics Inc.'s former chief executive."), ["OFFICER_OF(Stefan Brandt, Zorblat Logistics Inc.)"]);
        assert_eq!(without_modifier("paid Hong Kong-registered ", "Organization"), "paid ");
        assert_eq!(without_modifier("paid Istanbul-based ", "Organization"), "paid ");
        assert_eq!(without_modifier("paid Coca-Cola ", "Organization"), "paid Coca-Cola ");
    }

    #[test]
    fn companies_listed_with_the_law_they_share() {
        assert_eq!(
            with_place("Funds went through Bluestone Corp. and Meridian Sourcing Inc., both Nevada corporations, to Acme.", "Nevada"),
            ["REGISTERED_AT(Bluestone Corp., Nevada)", "REGISTERED_AT(Meridian Sourcing Inc., Nevada)"]
        );
        // A line of business between is where they work.
        assert!(with_place("Bluestone Corp. and Meridian Sourcing Inc., both Nevada trucking companies, paid.", "Nevada").is_empty());
    }

    #[test]
    fn payees_by_role_gerund_transfers_nominal_owners_employees_in_apposition() {
        // A payee named after what it is, the amount after its age and home.
        assert_eq!(rels("Mr. John Doe paid patient recruiter Mr. Tom Roe, 44, of Detroit, approximately $410,000 in cash."), ["PAID(John Doe, Tom Roe)"]);
        assert_eq!(rels("Acme Corp paid a foreign official, Mr. Tom Roe, $50,000."), ["PAID(Acme Corp, Tom Roe)"]);
        // A transfer in a gerund after "by": the clause's subject sent it.
        assert_eq!(
            rels("Mr. John Doe laundered the proceeds by transferring $3.4 million from his account at Gamma Bank Ltd. to Beta Holdings LLC."),
            ["TRANSFERRED(John Doe, Beta Holdings LLC)"]
        );
        // Owned in name by one party, controlled by another.
        assert_eq!(
            rels("Acme Corp paid Beta Holdings LLC, a company nominally owned by his sister, Ms. Jane Doe, but controlled by Mr. John Doe."),
            ["PAID(Acme Corp, Beta Holdings LLC)", "OWNS(Jane Doe, Beta Holdings LLC)", "CONTROLS(John Doe, Beta Holdings LLC)"]
        );
        // An employee described by the place of work.
        assert_eq!(rels("Dr. Jane Roe, 49, a physician employed at Lakeshore Clinic LLC, pleaded guilty."), ["EMPLOYED_BY(Jane Roe, Lakeshore Clinic LLC)"]);
        assert_eq!(rels("Mr. Tom Roe, who was employed by Acme Corp, pleaded guilty."), ["EMPLOYED_BY(Tom Roe, Acme Corp)"]);
    }
}
