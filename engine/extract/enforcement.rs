//! Enforcement prose: who charged whom, who defrauded or stole from whom, who paid whom,
//! and what a party settled or was ordered to pay — over the same typed templates as
//! [`super::relations`] (`«O0»` an organisation, `«P1»` a person, `«M2»` money).
//!
//! Relations (declared in `stdlib/vocab/finance.toml`):
//! - `CHARGED` authority → party: "the SEC charged X", "the Commission filed a complaint
//!   (in «court») against X", "X was charged/sued by Y", "the Commission's complaint alleges
//!   that X", "SEC v. X". The subject must be an authority ([`super::authorities`]).
//! - `DEFRAUDED` party → victim: "X defrauded Y", "a scheme to defraud Y", "Y was defrauded by X".
//! - `MISAPPROPRIATED_FROM` party → victim: "X misappropriated/stole/embezzled/diverted $N from Y",
//!   "X misappropriated Y's funds".
//! - `ORDERED_TO_PAY` party → orderer: "the court ordered X to pay …", "X was ordered to
//!   disgorge $N" (the orderer implied: see [`IMPLIED`]).
//! - `SETTLED_WITH` party → authority: "X agreed/consented to pay a $N civil penalty",
//!   "X consented to the entry of a final judgment", "X settled with the SEC".
//! - `CO_DEFENDANT` party ↔ party: the members of one list of charged parties ("X and Y
//!   were charged", "against X, Y and Z", "defendants X, Y and Z").
//! - `PAID` gains "X gave Y $N", "X made payments of $N to Y", "X paid bribes to Y", "X
//!   conspired to pay kickbacks to Y" (how the source holds it is the modality's: "According
//!   to court documents" reports it).
//!
//! Amounts of ORDERED_TO_PAY and SETTLED_WITH carry their kind as the attribute name
//! (`penalty`, `disgorgement`, `prejudgment_interest`, `restitution`, `fine`,
//! `forfeiture`; `amount` when no kind word stands next to it).
//!
//! Every pattern lists cue words one of which any match contains; the patterns whose cues
//! are absent from a template are skipped (an exact gate, as in `relations`).

use std::sync::LazyLock;

use regex::Regex;

use super::entities::Mention;
use super::relations::{AN_AGE, Found, GAP, HOME, IMPLIED, LIVES_IN, ORG, SHORT};

/// A party, a title allowed before a person.
const PARTY: &str = r"(?:(?:Mr|Mrs|Ms|Miss|Dr)\.?\s+)?«[OP](\d+)»";

/// What a pattern's captures mean.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Subject then object, in order of the two capture groups.
    Pair,
    /// Object then subject.
    Swapped,
    /// One party, the subject; the object is implied ([`IMPLIED`]). For `CHARGED` the party
    /// is the one charged, and the implied authority becomes the subject once found
    /// (`lib.rs` swaps them).
    Implied,
    /// A list of parties charged together: every pair of its members.
    CoDefendants,
}

struct Pattern {
    rel: &'static str,
    cues: &'static [&'static str],
    re: Regex,
    shape: Shape,
    /// Whether the object (or, for `Swapped`, the subject)'s list companions share the relation.
    list: bool,
    /// The placeholders its argument groups read ([`super::placeholders`]): a cheap test
    /// before the regex.
    needs: super::placeholders::Needs,
    /// Whether a match needs an organisation placeholder (a cheap test before the regex).
    needs_org: bool,
    /// The cues are whole words as written (every match has one between `\b`s or spaces,
    /// case as written): "sues" is no cue in "issues", "charged" none in "discharged".
    whole: bool,
    /// The first party is a clause's subject, which no preposition governs (see
    /// [`heads_its_clause`]); a caption's ("in SEC v. Doe") is not.
    clause: bool,
}

/// `p` with whole-word cues ([`Pattern::whole`]).
fn whole_words(mut p: Pattern, cues: &'static [&'static str]) -> Pattern {
    p.cues = cues;
    p.whole = true;
    p
}

fn pat(rel: &'static str, cues: &'static [&'static str], p: &str, shape: Shape, list: bool) -> Pattern {
    let needs_org = p.contains(ORG);
    let p = p.replace(r"\b", r"(?-u:\b)");
    // A relation comes only from a match whose argument groups are as many as the shape
    // reads; with another number of groups, the pattern always runs.
    let needs = super::placeholders::Needs::of(&p);
    let wanted = if shape == Shape::Implied { 1 } else { 2 };
    let needs = if needs.arity() == Some(wanted) { needs } else { super::placeholders::Needs::of("(") };
    Pattern { rel, cues, re: tg_text::pattern::constant(&p), shape, list, needs, needs_org, whole: false, clause: true }
}

/// Words a charging verb may have between it and the party: numbers, determiners, kinds of party.
const PARTY_WORDS: &str = r"(?:(?:«L\d+»-based|[A-Za-z]+-based|also|today|yesterday|separately|two|three|four|five|six|seven|eight|nine|ten|\d+|several|the|a|an|its|his|her|their|former|individual|corporate|related|defendants?|brokers?|executives?|officers?|individuals?|compan(?:y|ies)|firms?|entit(?:y|ies)|people|persons|men|women|others|investment|advisers?|advisors?|promoters?|traders?|accountants?|attorneys?|lawyers?|insiders?|employees?|and)\s*,?\s+){0,5}";

/// A professional degree written after a person's name ("Jane Roe, M.D., 58, pleaded").
const DEGREE: &str = r"(?:M\.\s?D\.|D\.\s?O\.|Ph\.\s?D\.|D\.D\.S\.|D\.M\.D\.|D\.P\.M\.|D\.C\.|R\.N\.|N\.P\.|P\.A\.|CPA|Esq\.)";

/// A judge or the court that passed a sentence ("U.S. District Judge «P1» … sentenced …",
/// "The court sentenced …").
const SENTENCER: &str = r"(?:\b(?:Judge|Justice)\s+«P\d+»(?:\s+Jr\.)?|\b[Tt]he\s+(?:[Cc]ourt|[Jj]udge)\b)";

/// What may stand between a party and its verb: adverbs and auxiliaries, an aside that
/// names a place or two ("Roe, both «L2» nationals, were charged"; one kept apart from the
/// others, whose bounded gaps over placeholders would grow the lazy DFA), and up to two
/// asides set off by commas ("UBS, without admitting or denying the allegations,
/// consented").
const ADV: &str = r"(?:\s*,\s*[^«»,]{0,80}?«L\d+»(?:[^«»,]{0,40}?«L\d+»)?[^«»,]{0,60}?,)?(?:\s*,\s*[^«»,]{1,90}?,){0,2}(?:\s+(?:has|have|had|also|each|further|both|later|subsequently|simultaneously|previously|then|jointly|thereafter|ultimately|allegedly|today|yesterday|separately|additionally))*\s+";

/// The victim of a scheme to defraud: a party, or a government named by its country with
/// "the" ("a conspiracy to defraud the United States", the federal offence's own words);
/// [`find_with`] keeps a place only so.
const VICTIM: &str = r"(?:the\s+)?(?:(?:Mr|Mrs|Ms|Miss|Dr)\.?\s+)?«[OPL](\d+)»";

/// A defined term or an alias in brackets after a name: `("Acme")`, `(the "Fund")`,
/// `(a.k.a. «P1»)`, `(formerly «O1»)`: words that name the same party.
const TERM: &str = r#"(?:\s*\((?:[^()«»]{0,40}|[^()«»]{0,24}«[PO]\d+»[^()«»]{0,3})\))?"#;

/// An order's own verb ("IT IS HEREBY ORDERED … that", "it is further ordered that").
const AN_ORDER: &str = r"\b(?:ORDERED|DECREED|[Oo]rdered|[Dd]ecreed)\b";
/// The side an order names its party by, before the name ("Respondent Acme", "Defendant Doe").
const PARTY_ROLE: &str = r"(?:(?:[Rr]espondents?|[Dd]efendants?|RESPONDENTS?|DEFENDANTS?)\s+)?";

/// A party's side after its name in a court's caption: ", Plaintiff,".
const SIDE: &str = r"(?:\s*,\s*(?:Plaintiffs?|PLAINTIFFS?|Petitioners?|PETITIONERS?)\s*,?)?";

/// Any words up to the next part of a pattern within the clause's sentence part (no
/// semicolon), over places, dates and organisations (a court: "entered in the «O1» a final
/// judgment"), not over a person or money. Unbounded: a bounded gap over placeholders
/// grows the lazy DFA (docs/BENCHMARKS.md).
const ACROSS: &str = r"(?:[^«»;]|«[LDO]\d+»)*?";
/// What a judgment or an order "imposed" or "requires" of a party: a payment, with or
/// without its verb ("imposed a $10,000 civil penalty", "requires him to disgorge $N",
/// "ordering him to pay $N"; the pronoun may be a placeholder, coreference's reading of it,
/// `payer`, which must be the party's); the amounts are read from the verb on (`v`). The patterns
/// let an injunction come first: "a final judgment against X that permanently enjoins him
/// from violating … and orders him to pay disgorgement of $N".
const IMPOSES: &str = r"(?P<v>imposed|imposes|requires|required|requiring|orders|ordered|ordering|directs|directed|directing)\s+(?:(?:him|her|it|them|«[OP](?P<payer>\d+)»)\s+to\s+(?:pay|disgorge|forfeit)\b|(?:an?\s+|the\s+)?(?:civil\s+(?:monetary\s+|money\s+)?penalt|disgorgement|restitution|«M))";
/// The cue words of [`IMPOSES`]: its verbs.
const IMPOSES_CUES: &[&str] = &["imposed", "imposes", "requires", "required", "requiring", "orders", "ordered", "ordering", "directs", "directed", "directing"];
/// The paper an authority charges in, named by itself ("the complaint alleges …").
const CHARGING_PAPER: &str = r"(?:(?:amended|civil|criminal|superseding|original)\s+){0,2}(?:[Cc]omplaint|[Ii]ndictment)";
/// An aside between "alleges" and "that": ", among other things,".
const ALLEGED_ASIDE: &str = r"(?:\s*,\s*among\s+other\s+things\s*,)?";
/// A time between "that" and the clause's subject: "between «D1» and «D2»,", "from 1998
/// until 2003,", "on «D1»,".
const WHEN: &str = r"(?:\s*,)?(?:\s*(?:from|between|in|on|during|until|beginning|starting|through|since|by)\b(?:[^«»,.;]|«D\d+»)*?,)?";

const SETTLED_CHARGES_CUES: &[&str] = &["settled", "settles", "resolved", "resolves"];
const CHARGE_CUES: &[&str] = &["charged", "charges", "sued", "sues", "indicted"];
const ACTION_CUES: &[&str] = &["against"];
const DEFRAUD_CUES: &[&str] = &["defraud", "swindl", "cheat", "dupe"];
/// The theft verbs of the first MISAPPROPRIATED_FROM pattern (whole words; the second has a few of them).
const STEAL_CUES: &[&str] = &[
    "misappropriated",
    "misappropriating",
    "misappropriate",
    "embezzled",
    "embezzling",
    "embezzle",
    "stole",
    "stealing",
    "steal",
    "diverted",
    "divert",
    "converted",
    "siphoned",
    "looted",
];
const ORDER_CUES: &[&str] = &["ordered", "orders", "ordering", "required", "requires", "requiring", "directed", "directs", "directing"];
/// [`ORDER_CUES`] and the plural verbs of judgments ("The final judgments … order X to pay").
const ORDERS_CUES: &[&str] = &["ordered", "orders", "ordering", "order", "required", "requires", "requiring", "require", "directed", "directs", "directing", "direct"];
const SETTLE_CUES: &[&str] = &["agreed", "agrees", "consented", "consents", "settled", "settles", "settle", "settlement"];
const DESIGNATE_CUES: &[&str] = &["designated", "sanctioned", "re-designated", "redesignated", "designating", "sanctioning"];

/// The words of a charge, a plea, a verdict or a sentence, whose authority may be implied.
const CRIMINAL_CUES: &[&str] = &["charging", "charged", "indicted", "pleaded", "pled", "convicted", "sentenced", "guilty"];

/// Whether a sentence that names one party only may still state a relation with an implied
/// authority ("Moss consented to the entry of a final judgment.", "Roe was ordered to pay
/// $5,000.", "An indictment was unsealed charging Roe.", "Roe pleaded guilty to wire
/// fraud.", "Roe is being designated pursuant to E.O. 14024."): it has a settlement, order,
/// charging, plea or designation word.
pub fn may_imply_authority(sentence: &str) -> bool {
    static WORDS: LazyLock<Option<aho_corasick::AhoCorasick>> = LazyLock::new(|| {
        aho_corasick::AhoCorasick::builder().ascii_case_insensitive(true).build(SETTLE_CUES.iter().chain(ORDER_CUES).chain(CRIMINAL_CUES).chain(DESIGNATE_CUES)).ok()
    });
    WORDS.as_ref().is_some_and(|w| w.is_match(sentence))
}

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    let was = r"(?:was|were|is|are|has\s+been|have\s+been|had\s+been)\s+(?:also\s+|further\s+|additionally\s+|previously\s+|each\s+|jointly\s+and\s+severally\s+)?";
    // What a party may pay: an amount, its kind, "a total of".
    // ("Return" and "repay" only before an amount: "agreed to return $640,000", not "agreed
    // to return to the United States".)
    let pay = r"(?P<v>(?:pay|disgorge|forfeit|remit)\b|(?:return|repay)\s+(?:(?:a\s+total\s+of|approximately|about|more\s+than|over|at\s+least|nearly)\s+)?«M\d+»)";
    // A party's degree, age and where it lives, after its name: ", M.D., 57, of «L1», «L2»".
    let who = format!(r"(?:\s*,\s*{DEGREE})?{AN_AGE}?{HOME}");
    // "The Commission settled its charges against X" (a charge and a settlement).
    // "… against X that (permanently enjoins him … and) orders him to pay …": what a
    // judgment or an order against X imposes on X.
    // (The party may be called a defendant and described in brackets, "against defendant
    // «P2» (former Vice President of «O4») that imposed …"; the judgment's terms may be
    // numbered, "against «P2» 1) permanently enjoining him …, and 3) ordering him to pay".)
    let against_imposing = format!(
        r"\bagainst\s+(?:defendants?\s+)?{PARTY}(?:\s*\([^()]{{1,80}}\))?\s*(?:,?\s+(?:that|which)\s+(?:also\s+)?|,\s+|:?\s+\(?(?:\d|[a-z])\)\s+)(?:[^«»;]*?\s+and\s+(?:\(?(?:\d|[a-z])\)\s+)?)?{IMPOSES}"
    );
    // "X agreed to pay $N to resolve (parallel) investigations by ": the authorities follow.
    let resolves = format!(
        r"{PARTY}{TERM}{ADV}(?:has\s+|have\s+)?(?:agreed|agrees)\s+to\s+pay\b(?:[^«»;]|«M\d+»){{0,60}}?\bto\s+(?:resolve|settle)\s+(?:[\w-]+\s+){{0,3}}?(?:investigations?|charges|claims|allegations|probes?|inquir(?:y|ies)|cases?|actions?)\s+(?:by|of|brought\s+by)\s+(?:the\s+)?"
    );
    let settled_charges = format!(
        r"{ORG}{TERM}{ADV}(?:{was})?(?:filed\s+and\s+(?:simultaneously\s+)?)?(?:settled|settles|resolved|resolves)\s+(?:its|the|all)?\s*(?:[\w-]+\s+){{0,2}}?(?:charges|claims|case|action|lawsuit)\s+against\s+{PARTY_WORDS}{PARTY}"
    );
    vec![
        // The SEC (today) charged X / sued X / indicted X.
        whole_words(pat("CHARGED", &[], &format!(r"{ORG}{TERM}{ADV}(?:charged|charges|sued|sues|indicted)\s+{PARTY_WORDS}{PARTY}"), Shape::Pair, true), CHARGE_CUES),
        // A (federal) grand jury (in Miami) indicted X and Y: the prosecutor's charge, implied.
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(r"\b[Gg]rand\s+[Jj]ury(?:\s+(?:in|for|of)\s+(?:the\s+)?«[LO]\d+»(?:\s*,\s*«L\d+»)?)?{ADV}(?:has\s+|had\s+)?(?:indicted|charged)\s+{PARTY_WORDS}{PARTY}"),
                Shape::Implied,
                false,
            ),
            &["indicted", "charged"],
        ),
        // Charged / named / indicted in the indictment (or the complaint) are X, Y and Z: the
        // parties listed after the verb, charged by the authority implied. (Not those named
        // "as relief defendants": no words but an aside between the paper and the verb.)
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"\b(?:[Cc]harged|[Nn]amed|[Ii]ndicted)\s+(?:as\s+defendants?\s+)?(?:in|by)\s+(?:the|an?|this)\s+(?:[\w-]+\s+){{0,3}}?(?:indictment|complaint|information)\b(?:\s*,[^«»;:]{{1,100}}?,)?\s+(?:are|is|were|was)\s*:?\s+{PARTY}"
                ),
                Shape::Implied,
                true,
            ),
            &["charged", "named", "indicted", "Charged", "Named", "Indicted"],
        ),
        // OFAC (also) designated X / sanctioned X; X, which was designated by OFAC.
        whole_words(
            pat(
                "DESIGNATED",
                &[],
                &format!(r"{ORG}{TERM}{ADV}(?:designated|sanctioned|re-designated|redesignated|(?:is|are)\s+(?:also\s+)?(?:designating|sanctioning))\s+{PARTY_WORDS}{PARTY}"),
                Shape::Pair,
                true,
            ),
            DESIGNATE_CUES,
        ),
        // X (and Y) are being designated pursuant to an executive order (the designating
        // authority implied: the one the document names).
        whole_words(
            pat(
                "DESIGNATED",
                &[],
                &format!(
                    r"{PARTY}{TERM}\s+(?:is|are|was|were|has\s+been|have\s+been)\s+(?:also\s+)?(?:being\s+)?(?:designated|sanctioned)\s+(?:today\s+)?(?:pursuant\s+to|under|for)\b"
                ),
                Shape::Implied,
                false,
            ),
            DESIGNATE_CUES,
        ),
        // A state designated as a jurisdiction of primary money laundering concern or a
        // state sponsor of terrorism ("FinCEN has designated the DPRK as a jurisdiction of
        // …"): a place designated, as a state is one.
        whole_words(
            pat(
                "DESIGNATED",
                &[],
                &format!(r"{ORG}{TERM}{ADV}(?:designated|re-designated|redesignated)\s+(?:the\s+)?«L(\d+)»\s+(?:as|to\s+be)\s+an?\s+(?:jurisdiction|state\s+sponsor)\b"),
                Shape::Pair,
                false,
            ),
            DESIGNATE_CUES,
        ),
        // A finding of primary money laundering concern (section 311 of the USA PATRIOT Act:
        // "FinCEN found Banca Privada d'Andorra to be of “primary money laundering concern”",
        // "FinCEN issued a notice of proposed rulemaking finding the Bank of Dandong to be a
        // “foreign financial institution of primary money laundering concern”"): a designation.
        pat(
            "DESIGNATED",
            &["primary"],
            &format!(
                r#"{ORG}{TERM}{ADV}(?:found|finds|determined|determines|identified|identifies|issued\s+[^«».;]{{0,80}}?(?:«O\d+»[^«».;]{{0,30}}?)?\s+finding)\s+(?:that\s+)?(?:the\s+)?«[OPL](\d+)»{TERM}(?:\s*,\s+(?:an?|the)\s+[^«»,;]{{0,60}}?(?:«L\d+»[^«»,;]{{0,20}}?)?,)?\s+(?:to\s+be|is|was|as)\s+(?:an?\s+)?["“]?(?:[\w-]+\s+){{0,4}}?of\s+["“]?primary\s+money\s+laundering\s+concern"#
            ),
            Shape::Pair,
            false,
        ),
        // (The party designated may stand after a preposition: "payments for «O1», which was
        // designated by OFAC".)
        Pattern {
            clause: false,
            ..whole_words(
                pat(
                    "DESIGNATED",
                    &[],
                    &format!(
                        r"{PARTY}{TERM}\s*,?\s+(?:which|who)?\s*(?:(?:an?\s+)?(?:[a-z-]+\s+){{0,2}}?(?:company|entity|individual|person|bank|firm|vessel|network|businessman|financier)\s+(?:that\s+|which\s+|who\s+)?)?(?:{was})?(?:previously\s+)?(?:designated|sanctioned)\s+(?:in\s+«D\d+»\s+|on\s+«D\d+»\s+)?by\s+(?:the\s+)?{ORG}"
                    ),
                    Shape::Swapped,
                    false,
                ),
                DESIGNATE_CUES,
            )
        },
        // The Commission filed a complaint (in the District Court …) against X.
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"{ORG}{TERM}{GAP}\b(?:filed|brought|instituted|initiated|commenced|files|brings|unsealed|unseals|obtained|obtains)\s+(?:a|an|its|civil|criminal|settled|\s)*(?:[\w-]+\s+){{0,3}}?(?i:complaint|action|lawsuit|suit|charges|case|proceedings?|indictment)\b{GAP}(?:\bin\s+(?:the\s+)?«O\d+»{GAP})?\bagainst\s+{PARTY_WORDS}{PARTY}"
                ),
                Shape::Pair,
                true,
            ),
            ACTION_CUES,
        ),
        // The Commission announced (the filing of) charges against X.
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"{ORG}{TERM}{GAP}\b(?:announced|announces)\s+(?:today\s+)?(?:the\s+(?:filing|institution|commencement|unsealing|return)\s+of\s+)?(?:a|an|its|civil|criminal|settled|\s)*(?:[\w-]+\s+){{0,3}}?(?i:complaint|action|lawsuit|charges|case|proceedings?|indictments?)\b(?:\s+today)?\s+against\s+{PARTY_WORDS}{PARTY}"
                ),
                Shape::Pair,
                true,
            ),
            ACTION_CUES,
        ),
        // X (, 52, of «place», «place»,) was charged / sued / indicted by the SEC.
        whole_words(
            pat("CHARGED", &[], &format!(r"{PARTY}{TERM}{who}\s*,?{ADV}{was}(?:charged|sued|indicted)\b{GAP}\bby\s+(?:the\s+)?{ORG}"), Shape::Swapped, true),
            &["charged", "sued", "indicted"],
        ),
        // X was charged by (an) information / by indictment / in a criminal complaint: the
        // prosecutor's paper, the prosecutor implied.
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"{PARTY}{TERM}{who}\s*,?{ADV}{was}(?:charged|indicted)\s+(?:(?:by|in)\s+(?:an?\s+)?(?:(?:criminal|federal|superseding)\s+)?(?:information|indictment|complaint)|by\s+(?:a\s+)?(?:federal\s+)?grand\s+jury)\b"
                ),
                Shape::Implied,
                true,
            ),
            &["charged", "indicted"],
        ),
        // The Commission's complaint alleges that X … / names X.
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"{ORG}(?:['’]s?)\s+(?:[\w-]+\s+){{0,2}}?(?i:complaint|action|indictment|information|amended\s+complaint)(?:\s*\([^()«»]{{0,20}}\))?(?:\s*,\s*filed\s+(?:[^«»,]|«[LDO]\d+»)*?,)?\s+(?:also\s+|further\s+)?(?:alleges|alleged|charges|charged|names|named)\b{ALLEGED_ASIDE}(?:\s+that)?{WHEN}\s+(?:the\s+)?(?:defendants?\s+)?{PARTY}"
                ),
                Shape::Pair,
                true,
            ),
            &["alleges", "alleged", "charges", "charged", "names", "named"],
        ),
        // The complaint alleges that X (and Y) violated … / charges X with …: the charge of
        // the authority whose complaint it is, implied (the one the sentence or the document
        // names before). Only a violation or a charge: what else the complaint alleges may be
        // of anyone ("… alleges that Acme and Beta conducted merger negotiations in secret").
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"\b[Tt]he\s+{CHARGING_PAPER}\s+(?:also\s+|further\s+)?(?:alleges|alleged)\b{ALLEGED_ASIDE}(?:\s+that)?{WHEN}\s+(?:the\s+)?(?:defendants?\s+)?{PARTY}(?:[^«»;.]|«[OPL]\d+»){{0,120}}?\s+(?:(?:also|each|have|has|had|knowingly|willfully)\s+)*(?:violated|aided\s+and\s+abetted)\b"
                ),
                Shape::Implied,
                true,
            ),
            &["violated", "abetted"],
        ),
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(r"\b[Tt]he\s+{CHARGING_PAPER}\s+(?:also\s+|further\s+)?(?:charges|charged)\s+{PARTY_WORDS}{PARTY}(?:[^«»;.]|«[OPL]\d+»){{0,120}}?\s+with\b"),
                Shape::Implied,
                true,
            ),
            &["charges", "charged"],
        ),
        // According to the Commission's complaint, X …; in its complaint, the Commission alleges that X …
        Pattern {
            clause: false,
            ..whole_words(
                pat(
                    "CHARGED",
                    &[],
                    &format!(
                        r"\b[Aa]ccording\s+to\s+(?:the\s+)?{ORG}(?:['’]s?)\s+(?:[\w-]+\s+){{0,2}}?(?i:complaint|indictment|amended\s+complaint)\s*,{WHEN}\s+(?:the\s+)?(?:defendants?\s+)?{PARTY}"
                    ),
                    Shape::Pair,
                    true,
                ),
                &["According", "according"],
            )
        },
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"\b[Ii]n\s+its\s+(?:[\w-]+\s+)?complaint\s*,\s*(?:the\s+)?{ORG}\s+(?:also\s+|further\s+)?(?:alleges|alleged|charges|charged)\s+that{WHEN}\s+(?:the\s+)?(?:defendants?\s+)?{PARTY}"
                ),
                Shape::Pair,
                true,
            ),
            &["alleges", "alleged", "charges", "charged"],
        ),
        // The Commission filed a complaint (in … on …), which alleged that X … / alleging that X …
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"{ORG}{TERM}{GAP}\b(?:filed|brought|instituted|initiated|commenced|files|brings)\s+(?:a|an|its|civil|settled|\s)*(?:[\w-]+\s+){{0,3}}?(?i:complaint|action|lawsuit|suit|case|indictment)\b{ACROSS}(?:,\s*(?:which|that)\s+(?:also\s+)?(?:alleges|alleged|charges|charged)|,?\s+alleging)\s+that{WHEN}\s+(?:the\s+)?(?:defendants?\s+)?{PARTY}"
                ),
                Shape::Pair,
                true,
            ),
            &["alleges", "alleged", "alleging", "charges", "charged"],
        ),
        // The Commission obtained a (final, default) judgment, an asset freeze, a restraining
        // order or an injunction against X: its action's.
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"{ORG}{TERM}{ADV}(?:{was})?(?:obtained|obtains|won|secured)\s+(?:a|an|the)?\s*(?:(?:(?:final|default|permanent|summary|consent|partial)\s+)*judgments?|(?:emergency\s+)?asset\s+freeze|(?:(?:a|an)\s+)?(?:temporary\s+restraining|freeze)\s+order|(?:preliminary|permanent)\s+injunction)\s+(?:(?:on|by)\s+consent\s+)?against\s+{PARTY_WORDS}{PARTY}"
                ),
                Shape::Pair,
                true,
            ),
            &["obtained", "obtains", "won", "secured"],
        ),
        // The Commission settled its charges against X: X was charged, and settled.
        whole_words(pat("CHARGED", &[], &settled_charges, Shape::Pair, true), SETTLED_CHARGES_CUES),
        whole_words(pat("SETTLED_WITH", &[], &settled_charges, Shape::Swapped, true), SETTLED_CHARGES_CUES),
        // X (, 39, of «place»,) was charged / indicted / is charged in an indictment: by the
        // authority implied (a bare "was charged" only by one the sentence names).
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"{PARTY}{TERM}{who}\s*,?{ADV}(?:was|were|is|are|(?:has|have|had)(?:\s+(?:each|also|previously))?\s+been)\s+(?:also\s+|each\s+|previously\s+|further\s+)?(?:charged|indicted)\b"
                ),
                Shape::Implied,
                true,
            ),
            &["charged", "indicted"],
        ),
        // The last of a list of described parties, its own description naming a place or a
        // person, before a plural verb ("…; and Z LLP, a «L» partnership of which «P» is
        // general director, are charged"): the list's, by the authority implied.
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"{PARTY}{TERM}\s*,\s+(?:an?|the|its|his|her|their)\s+(?:[^«»;,]|«[LP]\d+»){{1,120}}?,\s+(?:are|were|have\s+been)\s+(?:also\s+|each\s+|all\s+)?(?:charged|indicted)\b"
                ),
                Shape::Implied,
                true,
            ),
            &["charged", "indicted"],
        ),
        // The SEC's complaint (the government's indictment) against X: X is its defendant.
        whole_words(
            pat("CHARGED", &[], &format!(r"{ORG}['’]s?\s+(?:[\w-]+\s+){{0,3}}?(?:complaint|indictment|lawsuit|information)\s+against\s+{PARTY_WORDS}{PARTY}"), Shape::Pair, true),
            &["complaint", "indictment", "lawsuit", "information"],
        ),
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"\b(?:(?:[Tt]he\s+)?(?:government|prosecution)['’]s\s+(?:[\w-]+\s+){{0,3}}?(?:complaint|indictment|case)|(?:[Tt]he|[Aa]n?)\s+(?:[\w-]+\s+){{0,3}}?indictment)\s+against\s+{PARTY_WORDS}{PARTY}"
                ),
                Shape::Implied,
                true,
            ),
            &["complaint", "indictment", "case"],
        ),
        // X (, 39, of «place»,) pleaded guilty / was convicted / was sentenced: a plea, a
        // verdict and a sentence follow a prosecutor's charge, whose authority is implied
        // (one the sentence names, announcing it).
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r#"{PARTY}{TERM}{who}\s*,?["”]?{ADV}(?:(?:has\s+|have\s+|had\s+)?(?:pleaded|pled)\s+guilty|(?:has\s+|have\s+)?(?:agreed|agrees)\s+to\s+plead\s+guilty|(?:has\s+|have\s+)?entered\s+(?:(?:a|his|her|their)\s+)?(?:guilty\s+pleas?|pleas?\s+of\s+guilty)|(?:was|were|has\s+been|have\s+been)\s+(?:also\s+|each\s+)?(?:convicted|sentenced|found\s+guilty)|(?:is|are)\s+(?:scheduled|set|due)\s+to\s+be\s+sentenced)\b"#
                ),
                Shape::Implied,
                true,
            ),
            &["pleaded", "pled", "convicted", "sentenced", "guilty"],
        ),
        // The Commission seeks a judgment enjoining X / disgorgement from X / relief against
        // X: X is its defendant (a relief defendant is named with that word, which no
        // pattern here reads).
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(
                    r"{ORG}{TERM}{ADV}(?:also\s+)?(?:seeks|sought|is\s+seeking|are\s+seeking)\s+(?:[^«»;]*?\b(?:enjoining|against|from|requiring|directing|barring|ordering)\s+){PARTY_WORDS}{PARTY}"
                ),
                Shape::Pair,
                true,
            ),
            &["seeks", "sought", "seeking"],
        ),
        // A court entered (the entry of) a judgment or an injunction against X: a party to the
        // action of the authority the sentence or the document names. (X is the object of
        // "against": no clause's subject.)
        Pattern {
            clause: false,
            ..whole_words(
                pat(
                    "CHARGED",
                    &[],
                    &format!(
                        r"\b(?:entered|enters|issued|issues|granted|entry)\b{ACROSS}\b(?:[Jj]udgments?|[Ii]njunctions?|[Oo]rder\s+of\s+[Pp]ermanent\s+[Ii]njunction)\b{ACROSS}\bagainst\s+{PARTY_WORDS}{PARTY}"
                    ),
                    Shape::Implied,
                    true,
                ),
                &["entered", "enters", "issued", "issues", "granted", "entry"],
            )
        },
        // An indictment / a complaint (was returned, unsealed, filed …) charging X: the
        // authority whose paper it is, implied (the one the sentence or the document names).
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(r"\b(?:[Ii]ndictment|[Cc]omplaint|[Ii]nformation|[Aa]ction|[Ll]awsuit|[Pp]roceedings?)\b{ACROSS}\bcharging\s+{PARTY_WORDS}{PARTY}"),
                Shape::Implied,
                true,
            ),
            &["charging"],
        ),
        // A judge (the court) sentenced X: the prosecutor's charge, implied as for a verdict.
        // (X is the verb's object: no clause's subject.)
        Pattern {
            clause: false,
            ..whole_words(pat("CHARGED", &[], &format!(r"{SENTENCER}{ACROSS}\b(?P<v>sentenced)\s+{PARTY_WORDS}{PARTY}"), Shape::Implied, true), &["sentenced"])
        },
        // A jury convicted X / found X (and Y) guilty: the prosecutor's charge, implied as for a plea.
        whole_words(pat("CHARGED", &[], &format!(r"\b(?:[Jj]ury|[Jj]urors)\b{ACROSS}\bconvicted\s+{PARTY_WORDS}{PARTY}"), Shape::Implied, true), &["convicted"]),
        whole_words(
            pat(
                "CHARGED",
                &[],
                &format!(r"\b(?:[Jj]ury|[Jj]urors)\b{ACROSS}\bfound\s+{PARTY_WORDS}{PARTY}(?:\s*,?\s*(?:and\s+)?«[PO]\d+»)*(?:\s*,\s*[^«»,]{{1,60}},)?\s+guilty\b"),
                Shape::Implied,
                true,
            ),
            &["found"],
        ),
        // United States v. X: a federal criminal case's caption, the prosecutor's charge
        // (implied: the U.S. Attorney the document names, else the Department of Justice);
        // the place must be the United States (`us`), no state's prosecution ("Texas v. X").
        // (A court's caption stacks its parties on lines of their own, each with its side:
        // "UNITED STATES OF AMERICA, Plaintiff, ⏎ v. ⏎ JOHN DOE, Defendant.")
        Pattern { clause: false, ..pat("CHARGED", &["v.", "vs."], &format!(r"«L(?P<us>\d+)»{SIDE}\s+(?:v|V|vs|VS)\.\s+{PARTY}"), Shape::Implied, true) },
        // SEC v. X (a caption; "V." in one written in capitals, "vs.").
        Pattern { clause: false, ..pat("CHARGED", &["v.", "vs."], &format!(r"{ORG}{SIDE}\s+(?:v|V|vs|VS)\.\s+{PARTY}"), Shape::Pair, true) },
        // X and Y were charged / sued / indicted / named as defendants.
        whole_words(
            pat(
                "CO_DEFENDANT",
                &[],
                &format!(r"{PARTY}{TERM}\s*,?\s+and\s+{PARTY}{TERM}\s*,?\s+(?:who\s+)?{was}(?:charged|sued|indicted|named|consented|enjoined)\b"),
                Shape::CoDefendants,
                false,
            ),
            &["charged", "sued", "indicted", "named", "consented", "enjoined"],
        ),
        // X (, who was) charged along with Y / indicted together with Y: one case's parties.
        whole_words(
            pat(
                "CO_DEFENDANT",
                &[],
                &format!(r"{PARTY}{TERM}{who}\s*,?\s+(?:who\s+)?{was}(?:charged|indicted|sued|prosecuted)\s+(?:along\s+with|alongside|together\s+with|jointly\s+with)\s+{PARTY}"),
                Shape::Pair,
                true,
            ),
            &["charged", "indicted", "sued", "prosecuted"],
        ),
        // X's co-defendant, Y (charged in the same case)
        pat("CO_DEFENDANT", &["defendant"], &format!(r"{PARTY}\s?['’]s?\s+(?:former\s+)?co-?defendants?\s*,?\s+{PARTY}"), Shape::Pair, false),
        // (the) defendants X, Y and Z
        pat("CO_DEFENDANT", &["defendants"], &format!(r"\b[Dd]efendants\s*,?\s+{PARTY}{TERM}\s*,?\s+(?:and\s+)?{PARTY}"), Shape::CoDefendants, false),
        // X defrauded Y / X's scheme to defraud Y / Y was defrauded by X
        pat("DEFRAUDED", DEFRAUD_CUES, &format!(r"{PARTY}{TERM}{SHORT}\b(?:defrauded|defrauds|defrauding|swindled|cheated|duped)\s+(?:the\s+)?{PARTY}"), Shape::Pair, true),
        pat("DEFRAUDED", DEFRAUD_CUES, &format!(r"{PARTY}{TERM}{GAP}\b(?:scheme|plan|conspiracy|conspired|attempt(?:ed)?|intent)\s+to\s+defraud\s+{VICTIM}"), Shape::Pair, true),
        // X was sentenced / pleaded guilty / was convicted … for (his role in) a scheme to
        // defraud Y, or for defrauding Y: a court's finding or the party's own admission, so the verb may stand
        // further from the scheme than above, over places and dates ("pleaded guilty today
        // in Detroit to participating in a conspiracy to defraud …"). (Only these verbs: a
        // charge is no finding. The court it stands before may be named: "pleaded guilty
        // today in U.S. District Court in Detroit to …".)
        pat(
            "DEFRAUDED",
            DEFRAUD_CUES,
            &format!(
                r"{PARTY}{TERM}(?:\s+{LIVES_IN})?\s*,?{ADV}(?:{was})?(?:sentenced|convicted|pleaded\s+guilty|pled\s+guilty|found\s+guilty|admitted)\b(?:[^«»]{{0,20}}?\b(?:in|before)\s+(?:the\s+)?«O\d+»)?(?:[^«»]|«[LD]\d+»){{0,150}}?\b(?:(?:scheme|plan|conspiracy|conspiring|attempt(?:ing)?)\s+to\s+defraud|defrauding)\s+{VICTIM}"
            ),
            Shape::Pair,
            true,
        ),
        pat("DEFRAUDED", DEFRAUD_CUES, &format!(r"{PARTY}{TERM}{SHORT}\b{was}(?:defrauded|swindled|cheated|duped)\b{SHORT}\bby\s+{PARTY}"), Shape::Swapped, false),
        // X misappropriated ($N) from (his employer,) Y / X misappropriated $N of Y's funds
        whole_words(
            pat(
                "MISAPPROPRIATED_FROM",
                &[],
                &format!(
                    r"{PARTY}{TERM}{SHORT}\b(?:misappropriated|misappropriating|misappropriate|embezzled|embezzling|embezzle|stole|stealing|steal|diverted|divert|converted|siphoned|looted)\b{GAP}(?:«M(?P<m>\d+)»{GAP})?\bfrom\s+(?:the\s+)?(?:(?:his|her|its|their)\s+(?:former\s+)?(?:employer|clients?|customers?|company|firm|investors?|church|charity)\s*,\s*)?{PARTY}"
                ),
                Shape::Pair,
                false,
            ),
            STEAL_CUES,
        ),
        whole_words(
            pat(
                "MISAPPROPRIATED_FROM",
                &[],
                &format!(
                    r"{PARTY}{TERM}{SHORT}\b(?:misappropriated|embezzled|stole|diverted|converted|looted)\s+(?:(?:at\s+least|approximately|about|over|more\s+than|nearly)\s+)?(?:«M(?P<m>\d+)»\s+(?:of|in|from)\s+)?{PARTY}['’]s?\s+(?:[a-z-]+\s+)?(?:funds|money|monies|assets|accounts?|cash|proceeds|securities|shares)\b"
                ),
                Shape::Pair,
                false,
            ),
            &["misappropriated", "embezzled", "stole", "diverted", "converted", "looted"],
        ),
        // The court ordered X to pay … (the orderer named)
        whole_words(
            pat(
                "ORDERED_TO_PAY",
                &[],
                &format!(r"{ORG}{TERM}{ADV}(?:ordered|orders|ordering|required|requires|requiring|directed|directs|directing)\s+{PARTY}\s+(?:to\s+)?{pay}"),
                Shape::Swapped,
                false,
            ),
            ORDER_CUES,
        ),
        // X was ordered to pay / disgorge … ; a judgment requiring X to pay …
        whole_words(
            pat("ORDERED_TO_PAY", &[], &format!(r"{PARTY}{TERM}{ADV}{was}(?:ordered|required|directed)\s+to\s+(?:jointly\s+and\s+severally\s+)?{pay}"), Shape::Implied, false),
            &["ordered", "required", "directed"],
        ),
        // A judgment's own words: "IT IS HEREBY ORDERED … that Defendant X is liable for
        // disgorgement of $N, … and a civil penalty of $N" (the orderer implied).
        whole_words(
            pat(
                "ORDERED_TO_PAY",
                &[],
                &format!(
                    r"{AN_ORDER}{ACROSS}\bthat\s+(?:(?:[Dd]efendants?|DEFENDANTS?)\s+)?{PARTY}{TERM}\s+(?:is|are|shall\s+be)\s+(?:jointly\s+and\s+severally\s+)?(?P<v>liable)\s+for\s+(?:the\s+)?(?:disgorgement|(?:a\s+)?civil\s+(?:money\s+)?penalt(?:y|ies)|restitution|forfeiture|prejudgment)"
                ),
                Shape::Implied,
                false,
            ),
            &["liable"],
        ),
        // An order's own words: "it is hereby ordered that X shall pay disgorgement of $N …,
        // and that Y shall pay a civil money penalty of $N" (the orderer implied).
        whole_words(
            pat("ORDERED_TO_PAY", &[], &format!(r"{AN_ORDER}{ACROSS}\bthat\s+{PARTY_ROLE}{PARTY}{TERM}\s+shall\s+(?:jointly\s+and\s+severally\s+)?{pay}"), Shape::Implied, false),
            &["shall"],
        ),
        whole_words(
            pat("ORDERED_TO_PAY", &[], &format!(r"\band\s+that\s+{PARTY_ROLE}{PARTY}{TERM}\s+shall\s+(?:jointly\s+and\s+severally\s+)?{pay}"), Shape::Implied, false),
            &["ordered", "ORDERED"],
        ),
        // The court / the Commission entered / issued a judgment or an order against X that
        // imposed a $N penalty / requires him to disgorge $N: named or implied orderer.
        whole_words(
            pat(
                "ORDERED_TO_PAY",
                &[],
                &format!(r"{ORG}{TERM}{ADV}(?:also\s+)?(?:entered|enters|issued|issues){ACROSS}\b(?:[Jj]udgments?|[Oo]rders?|[Dd]ecree){ACROSS}{against_imposing}"),
                Shape::Swapped,
                false,
            ),
            IMPOSES_CUES,
        ),
        // An authority assessed / imposed a $N civil money penalty against / on X (FinCEN's,
        // a banking regulator's, a court's wording): the amounts from the verb on.
        whole_words(
            pat(
                "ORDERED_TO_PAY",
                &[],
                &format!(
                    r"{ORG}{TERM}{ADV}(?:{was})?(?P<v>assessed|assesses|imposed|imposes|levied|levies|announced|announces)\s+(?:a|an)\s+(?:«M\d+»\s+)?(?:[\w-]+\s+){{0,3}}?(?:penalty|penalties|fine)\s+(?:of\s+«M\d+»\s+)?(?:against|on|upon)\s+(?:«[OP]\d+»['’]s\s+(?:[a-z-]+\s+){{0,4}}?[a-z-]+\s*,\s*)?{PARTY}"
                ),
                Shape::Swapped,
                false,
            ),
            &["assessed", "assesses", "imposed", "imposes", "levied", "levies", "announced", "announces"],
        ),
        // (X is the object of "against": no clause's subject.)
        Pattern {
            clause: false,
            ..whole_words(pat("ORDERED_TO_PAY", &[], &format!(r"\b(?:[Jj]udgments?|[Oo]rders?|[Dd]ecree){ACROSS}{against_imposing}"), Shape::Implied, false), IMPOSES_CUES)
        },
        // A judgment or a court holds X liable for disgorgement of $N / to pay $N (a finding of
        // liability for violations alone orders no payment): the amounts from "liable" on.
        Pattern {
            clause: false,
            ..whole_words(
                pat(
                    "ORDERED_TO_PAY",
                    &[],
                    &format!(
                        r"\b(?:holds|held|finds|found)\s+{PARTY}\s+(?:jointly\s+and\s+severally\s+)?(?P<v>liable)\s+(?:to\s+pay\b|for\s+(?:the\s+)?(?:payment\s+of\s+)?(?:disgorgement|restitution|(?:civil\s+)?penalt|prejudgment|«M))"
                    ),
                    Shape::Implied,
                    false,
                ),
                &["holds", "held", "finds", "found"],
            )
        },
        // X was sentenced to … and ordered to pay … (over the judge who sentenced); … and
        // assessed a $N fine, and fined $N; "sentenced by Judge Roe, who also ordered him to
        // pay …".
        whole_words(
            pat(
                "ORDERED_TO_PAY",
                &[],
                &format!(
                    r"{PARTY}{TERM}{who}\s*,?{ADV}(?:(?:pleaded|pled)\s+guilty\b[^«»;]{{0,80}}?\s+and\s+)?{was}sentenced\b(?:[^«»;]|«[LDO]\d+»|(?:Judge|Justice)\s+«P\d+»(?:\s+Jr\.)?)*?(?:,?\s+and\s+(?:was\s+)?(?:also\s+)?(?:ordered\s+to\s+(?:jointly\s+and\s+severally\s+)?)?|,\s+who\s+(?:also\s+)?ordered\s+(?:him|her|them)\s+to\s+)(?P<v>pay|disgorge|forfeit|assessed|fined)\b"
                ),
                Shape::Implied,
                false,
            ),
            &["ordered", "assessed", "fined"],
        ),
        // A judge (the court) sentenced X … and ordered him to pay … (the orderer implied; X
        // the verb's object, no clause's subject).
        Pattern {
            clause: false,
            ..whole_words(
                pat(
                    "ORDERED_TO_PAY",
                    &[],
                    &format!(
                        r"{SENTENCER}{ACROSS}\bsentenced\s+{PARTY_WORDS}{PARTY}(?:[^«»;]|«[LDM]\d+»)*?\band\s+(?:also\s+|further\s+)?ordered\s+(?:him|her|them|it)\s+to\s+(?:jointly\s+and\s+severally\s+)?{pay}"
                    ),
                    Shape::Implied,
                    false,
                ),
                &["ordered"],
            )
        },
        // A settlement (a settlement, plea, prosecution or consent agreement) requires X to
        // pay …; under the terms of the settlement X will pay … (the authority implied). Not
        // any agreement: "the license agreement obligates X to pay royalties" is a contract's.
        whole_words(
            pat(
                "SETTLED_WITH",
                &[],
                &format!(
                    r"\b(?:[Ss]ettlements?|(?:[Ss]ettlement|[Pp]lea|[Pp]rosecution|[Cc]onsent)\s+[Aa]greements?)\b[^«»;]{{0,60}}?\b(?:requires|required|requiring|obligates|obligated)\s+{PARTY}\s+to\s+(?:jointly\s+and\s+severally\s+)?{pay}"
                ),
                Shape::Implied,
                false,
            ),
            &["requires", "required", "requiring", "obligates", "obligated"],
        ),
        whole_words(
            pat(
                "SETTLED_WITH",
                &[],
                &format!(
                    r"\b(?:[Uu]nder|[Aa]s\s+part\s+of|[Pp]ursuant\s+to)\s+(?:the\s+terms\s+of\s+)?(?:the|its|his|her|their|this)\s+(?:proposed\s+|partial\s+)?(?:settlements?|(?:settlement|plea|(?:deferred|non)[- ]prosecution|consent)\s+agreement)\b[^«»;]{{0,40}}?,\s*{PARTY}{TERM}{ADV}(?:will|shall|must|has\s+agreed\s+to|agreed\s+to|is\s+to|would)\s+{pay}"
                ),
                Shape::Implied,
                false,
            ),
            &["settlement", "settlements", "agreement"],
        ),
        // "Under the agreement, X will pay a criminal penalty of $N": an agreement named by
        // its kind in a sentence before is a settlement where what it makes X pay is a
        // penalty, a fine, a forfeiture, disgorgement or restitution (a contract's royalties
        // are none).
        whole_words(
            pat(
                "SETTLED_WITH",
                &[],
                &format!(
                    r"\b(?:[Uu]nder|[Aa]s\s+part\s+of|[Pp]ursuant\s+to)\s+(?:the\s+terms\s+of\s+)?(?:the|that|this)\s+(?:agreements?|resolution|DPA|NPA)\s*,\s*{PARTY}{TERM}{ADV}(?:will|shall|must|has\s+agreed\s+to|agreed\s+to|is\s+to|would)\s+{pay}\s+(?:an?\s+|the\s+)?(?:(?:total|combined|additional)\s+)?(?:«M\d+»\s+)?(?:(?:criminal|civil|financial)\s+(?:monetary\s+|money\s+)?(?:penalty|penalties|fine)|(?:criminal\s+|administrative\s+)?(?:fine|forfeiture|disgorgement|restitution))\b"
                ),
                Shape::Implied,
                false,
            ),
            &["agreement", "agreements", "resolution", "DPA", "NPA"],
        ),
        // The order finds that X violated … and imposes a penalty (orders disgorgement …).
        whole_words(
            pat(
                "ORDERED_TO_PAY",
                &[],
                &format!(
                    r"\b(?:[Oo]rders?|[Jj]udgments?)\b{SHORT}\bfinds\s+that\s+{PARTY}{TERM}[^«»;]*?\band\s+(?P<v>imposes|imposed|orders|ordered|requires|required)\s+(?:an?\s+|the\s+)?(?:«M\d+»\s+)?(?:civil\s+(?:monetary\s+|money\s+)?penalt|disgorgement|restitution|fine|«M)"
                ),
                Shape::Implied,
                false,
            ),
            &["finds"],
        ),
        // An authority entered into a deferred (non-) prosecution agreement with X: a
        // settlement of the authority's case (X's own wording is read below).
        whole_words(
            pat(
                "SETTLED_WITH",
                &[],
                &format!(
                    r"{ORG}{TERM}{ADV}(?:has\s+|have\s+)?(?:entered|enters)\s+into\s+(?:an?\s+)?(?:[\w-]+\s+){{0,2}}?(?:[Dd]eferred|[Nn]on)[- ][Pp]rosecution\s+[Aa]greement\s+(?:\([^()«»]{{0,10}}\)\s+)?with\s+{PARTY}"
                ),
                Shape::Swapped,
                false,
            ),
            &["entered", "enters"],
        ),
        // An authority announced (reached, entered into) a $N settlement with X (OFAC's wording).
        whole_words(
            pat(
                "SETTLED_WITH",
                &[],
                &format!(r"{ORG}{TERM}{ADV}(?:announced|announces|reached|reaches|entered\s+into)\s+(?:an?\s+)?«M(?P<m>\d+)»\s+(?:civil\s+)?settlement\s+with\s+{PARTY}"),
                Shape::Swapped,
                false,
            ),
            &["announced", "announces", "reached", "reaches", "entered"],
        ),
        // An authority fined X $N (FINRA's wording): an order to pay a fine.
        whole_words(pat("ORDERED_TO_PAY", &[], &format!(r"{ORG}{TERM}{ADV}(?:{was})?(?P<v>fined|fines)\s+{PARTY}\s+«M\d+»"), Shape::Swapped, false), &["fined", "fines"]),
        // X was fined $N by an authority (and barred …).
        whole_words(pat("ORDERED_TO_PAY", &[], &format!(r"{PARTY}{TERM}{who}\s*,?{ADV}{was}(?P<v>fined)\s+«M\d+»\s+by\s+(?:the\s+)?{ORG}"), Shape::Pair, false), &["fined"]),
        // A penalty (a fine, disgorgement, restitution) of $N to be paid by X.
        whole_words(
            pat(
                "ORDERED_TO_PAY",
                &[],
                &format!(
                    r"\b(?P<v>(?:civil\s+(?:money\s+|monetary\s+)?)?(?:penalty|fine|disgorgement|restitution))\s+of\s+«M\d+»\s+(?:is\s+|was\s+|will\s+be\s+)?(?:to\s+be\s+)?paid\s+by\s+{PARTY}"
                ),
                Shape::Implied,
                false,
            ),
            &["paid"],
        ),
        // A judgment, an order, a sentence, the court or the judge (Judge Roe, "Judge Roe of
        // the «L»"; "The judgment, entered by the «O» on «D», orders") ordered X (and Y)
        // (jointly and severally) (to serve …, and) to pay … (the orderer implied: the court
        // the document names).
        whole_words(
            pat(
                "ORDERED_TO_PAY",
                &[],
                &format!(
                    r"(?:\b(?:[Jj]udgments?|[Oo]rders?|[Dd]ecree|[Ss]entence|[Tt]he\s+(?:[Cc]ourt|[Jj]udge))\b|\bJudge\s+«P\d+»(?:\s*,?\s+(?:of|for|in)\s+the\s+«[LO]\d+»\s*,?)?)(?:\s*,\s*(?:entered|issued|signed)\b(?:[^«»,;]|«[OPLD]\d+»){{0,90}}?,)?{SHORT}\b(?:orders|order|ordered|ordering|requires|require|required|requiring|directs|direct|directed|directing)\s+{PARTY}(?:\s*,?\s*(?:and\s+)?«[PO]\d+»)*(?:\s*,\s*jointly\s+and\s+severally\s*,)?\s+to\s+(?:serve\b[^«»;]{{0,80}}?,\s+(?:and\s+)?to\s+)?{pay}"
                ),
                Shape::Implied,
                false,
            ),
            ORDERS_CUES,
        ),
        // X agreed / consented to pay … (to be ordered to pay …, to plead guilty … and to pay a
        // fine, to be barred … and to pay a penalty); X consented to (the entry of) a
        // judgment, to final judgments, to a bar or a censure; X settled with the SEC
        pat(
            "SETTLED_WITH",
            SETTLE_CUES,
            &format!(
                r"{PARTY}{TERM}(?:\s*,\s*(?:which|who)\b)?{ADV}(?:agreed|agrees|consented|consents)(?:\s*,\s*[^«»,]{{1,90}}?,)?\s+(?:\([a-z0-9]+\)\s+)?(?:to\s+)?(?:\([a-z0-9]+\)\s+)?(?:(?:be\s+(?:ordered|required)\s+to\s+|(?:plead\s+guilty|be)\b[^«»;]*?\band\s+(?:to\s+)?)?{pay}|settle\b|the\s+(?:entry|issuance)\b|entry\b|(?:(?:a|an|the)\s+)?(?:(?:final|proposed|stipulated)\s+)?(?:judgments?|orders?)\b|(?:the\s+)?«O\d+»['’]s?\s+(?:[\w-]+\s+){{0,2}}?(?:judgments?|orders?|settlement)\b|(?:a|an|the)\s+(?:[\w-]+\s+){{0,2}}?settlement\b|(?:a|the)\s+(?:permanent\s+|preliminary\s+)?injunction\b|(?:an?|the)\s+(?:[\w-]+\s+){{0,3}}?(?:bars?|censure|suspension)\b)"
            ),
            Shape::Implied,
            false,
        ),
        pat(
            "SETTLED_WITH",
            SETTLE_CUES,
            &format!(r"{PARTY}{TERM}{ADV}(?:settled|settles|agreed\s+to\s+settle|reached\s+(?:a|an)\s+(?:[\w-]+\s+)?settlement)\b{GAP}\bwith\s+(?:the\s+)?{ORG}"),
            Shape::Pair,
            false,
        ),
        // X agreed to pay $N to resolve (parallel) investigations by Y and Z: a settlement with each.
        pat("SETTLED_WITH", SETTLE_CUES, &format!(r"{resolves}{ORG}"), Shape::Pair, true),
        // (… by Y and the Z: the second authority too.)
        pat("SETTLED_WITH", SETTLE_CUES, &format!(r"{resolves}«O\d+»(?:\s*\([^()«»]{{0,20}}\))?\s*,?\s+and\s+(?:the\s+)?{ORG}"), Shape::Pair, false),
        // X entered into a settlement / a deferred prosecution agreement / a plea agreement
        // with the DOJ (an agreement of another kind, a merger's, is none).
        whole_words(
            pat(
                "SETTLED_WITH",
                &[],
                &format!(
                    r"{PARTY}{TERM}\s*,?{ADV}(?:{was})?(?:entered|enters|entering)\s+into\s+(?:a|an|the)\s+(?:[\w-]+\s+){{0,2}}?(?:settlement(?:\s+agreement)?|(?:deferred|non)[- ]prosecution\s+agreement|plea\s+agreement|consent\s+(?:decree|order))\b(?:\s*\([^()«»]{{0,12}}\))?\s+with\s+(?:the\s+)?{ORG}"
                ),
                Shape::Pair,
                false,
            ),
            &["entered", "enters", "entering"],
        ),
        // X gave Y $N / X gave $N to Y / X made payments of $N to Y / X paid bribes to Y
        pat(
            "PAID",
            &["gave", "handed", "kicked", "funnel"],
            &format!(r"{PARTY}{SHORT}\b(?:gave|handed|kicked\s+back|funneled|funnelled)\s+{PARTY}\s*«M(?P<m>\d+)»"),
            Shape::Pair,
            false,
        ),
        pat(
            "PAID",
            &["gave", "handed", "kicked", "funnel"],
            &format!(r"{PARTY}{SHORT}\b(?:gave|handed|kicked\s+back|funneled|funnelled)\s+«M(?P<m>\d+)»{GAP}\bto\s+(?:the\s+)?{PARTY}"),
            Shape::Pair,
            false,
        ),
        pat(
            "PAID",
            &["payment", "bribe", "kickback"],
            &format!(
                r"{PARTY}{who}{SHORT}\b(?:paid|made|offered|gave|pay|paying)\s+(?:[a-z-]+\s+){{0,3}}?(?:payments?|bribes?|kickbacks?)\b{SHORT}(?:«M(?P<m>\d+)»{SHORT})?\bto\s+(?:the\s+)?{PARTY}"
            ),
            Shape::Pair,
            false,
        ),
    ]
});

/// The cue groups of the patterns: bit `i` for pattern `i` (shared with
/// [`super::relations`], which finds every module's cues in one pass).
pub(super) fn cue_groups() -> Vec<super::entities::CueGroup> {
    PATTERNS.iter().enumerate().map(|(i, p)| super::entities::CueGroup { bits: 1u128 << i, exact: p.whole, whole: p.whole, words: p.cues }).collect()
}

static CUES: LazyLock<super::entities::CueSet> = LazyLock::new(|| super::entities::CueSet::with_lanes(&[&cue_groups()]));

/// A placeholder of the template: byte span, type letter, mention index.
fn placeholders(template: &str) -> Vec<(usize, usize, u8, usize)> {
    let mut out = vec![];
    let mut i = 0;
    while let Some(k) = template[i..].find('«') {
        let s = i + k;
        let Some(len) = template[s..].find('»') else { break };
        let e = s + len + '»'.len_utf8();
        let inner = &template[s + '«'.len_utf8()..s + len];
        if let (Some(&letter), Ok(n)) = (inner.as_bytes().first(), inner[1..].parse::<usize>()) {
            out.push((s, e, letter, n));
        }
        i = e;
    }
    out
}

/// How the text between two list members joins them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Join {
    /// The gap has "and".
    and: bool,
    /// The member after it is the list's last ("A, B and C"), unless more follow the same
    /// way ("A and his firm, B, and C": an apposition's "and" ends nothing).
    ends: bool,
    /// The member after it is another name of the one before it ("Magnum LLC dba Stratos
    /// LLC"): no member of its own.
    alias: bool,
    /// Where in the gap an apposition before the member opens ("; his firm, ", "; the pool
    /// «P6» operated, ", "; and «P8»'s business partner, "): the placeholders after it are
    /// words of the apposition, not members.
    apposition: Option<usize>,
}

/// How the text between two list members joins them, if it does: a comma (a semicolon
/// where the members hold commas: "Acme, Ltd.; Beta, Inc.; and John Doe"), "and" ("AND" in
/// a caption in capitals), or both, after an optional defined term, the member's age and
/// where the member lives ("X, 63, of «L1», «L2», and Y"), before an optional title; a possessive apposition
/// after them ("Colt and his firm, Geneva Ltd.", "and its president, John Doe"); or an
/// alias cue ("dba", "a/k/a", one opening a parenthesis: "(f/k/a").
fn list_gap(gap: &str) -> Option<Join> {
    // (A quoted alias's comma inside its quotes, "a/k/a "Alex Roe," of «L1»": the comma is
    // the list's, read as if after the quote.)
    let moved;
    let gap = match gap.strip_prefix(",\"").or_else(|| gap.strip_prefix(",”")) {
        Some(rest) => {
            moved = format!("\",{rest}");
            moved.as_str()
        }
        None => gap,
    };
    static G: LazyLock<Regex> = LazyLock::new(|| {
        tg_text::pattern::constant(
            r#"^["”]?(?:\s*\([^()«»]{0,40}\))?(?:\s*,\s*(?:age\s+|aged\s+)?\d{1,3})?(?:\s*,\s*(?:(?:both|all|each)\s+)?(?:of|an?\s+residents?\s+of|residents\s+of)\s+«L\d+»(?:\s*,\s*(?:«L\d+»\.?|[A-Z][a-z]{1,4}\.))?)?\s*(?:[,;]["”]?\s*(?P<a>(?:and|AND)\s+)?|[,;]?\s+(?P<b>and|AND)\s+)(?P<ap>(?:his|her|its|their|the|«P\d+»['’]s)\s+(?:(?:[a-z-]+|«[OP]\d+»)\s+){0,3}?[a-z-]+\s*,\s+)?(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?$"#,
        )
    });
    static ALIAS: LazyLock<Regex> =
        LazyLock::new(|| tg_text::pattern::constant(&format!(r#"^(?:\s*,\s*\d{{1,3}})?\s*,?\s*\(?{LIST_ALIAS_CUES}\s+(?:["“]|(?:Mr|Mrs|Ms|Dr)\.?\s+)?$"#)));
    if ALIAS.is_match(gap) {
        return Some(Join { and: false, ends: false, alias: true, apposition: None });
    }
    // A member's description up to the semicolon that lists the next ("«P1», its former chief
    // financial officer; and «P2», who served as treasurer").
    static DESCRIBED: LazyLock<Regex> = LazyLock::new(|| {
        tg_text::pattern::constant(
            r"^(?:\s*\([^()«»]{0,40}\))?\s*,\s+(?:[^«»;]|«L\d+»){1,160};\s*(?P<a>(?:and|AND)\s+)?(?:(?:his|her|its|their)\s+(?:[a-z-]+\s+){0,8}?[a-z-]+\s*,\s+)?(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?$",
        )
    });
    if let Some(c) = DESCRIBED.captures(gap) {
        let and = c.name("a").is_some();
        return Some(Join { and, ends: and, alias: false, apposition: None });
    }
    // Each member's term after it, in a sentence's list ("sentenced «P1» to 120 months in
    // prison, «P2» to 87 months in prison and «P3» to 87 months").
    static TERM_EACH: LazyLock<Regex> = LazyLock::new(|| {
        tg_text::pattern::constant(
            r"^,?\s+to\s+(?:\d+|[a-z]+(?:-[a-z]+)?)\s+(?:years?|months?|days?)\b[^«»;,]{0,60}(?:,\s+(?P<a>and\s+)?|\s+(?P<b>and)\s+)(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?$",
        )
    });
    if let Some(c) = TERM_EACH.captures(gap) {
        let and = c.name("a").is_some() || c.name("b").is_some();
        return Some(Join { and, ends: and, alias: false, apposition: None });
    }
    G.captures(gap).map(|c| {
        let and = c.name("a").is_some() || c.name("b").is_some();
        Join { and, ends: and && c.name("ap").is_none(), alias: false, apposition: c.name("ap").map(|m| m.start()) }
    })
}

/// The alias cues between a list's member and its alias ("dba", "a/k/a", "F/K/A").
const LIST_ALIAS_CUES: &str =
    r"(?:dba|d/b/a|DBA|D/B/A|aka|a/k/a|AKA|A/K/A|f/k/a|F/K/A|n/k/a|N/K/A|(?i:a\.k\.a|f\.k\.a|n\.k\.a|d\.b\.a)\.|(?:also|formerly|now)\s+known\s+as|doing\s+business\s+as)";

/// An alias cue opening a parenthesis before a name: "(f/k/a ", "(d/b/a ".
static ALIAS_CUE: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(&format!(r"^\s*\({LIST_ALIAS_CUES}\s+$")));

/// The parties listed with mention `idx` ("A, B and C"): the whole list when it ends in
/// "and", else `idx` alone.
fn list_of(template: &str, idx: usize) -> Vec<usize> {
    let ph = placeholders(template);
    match list_around(template, &ph, idx) {
        Some(l) => l.members(&ph).collect(),
        None => vec![idx],
    }
}

/// A list of parties in a template's placeholders: the range `lo..=hi` of them, less the
/// aliases and the places in it (`aliases`).
struct List {
    lo: usize,
    hi: usize,
    aliases: Vec<usize>,
}

impl List {
    /// The mention indices of the list's members.
    fn members<'a>(&'a self, ph: &'a [(usize, usize, u8, usize)]) -> impl Iterator<Item = usize> + 'a {
        (self.lo..=self.hi).filter(|j| !self.aliases.contains(j)).map(|j| ph[j].3)
    }
}

/// The list ("A, B and C", ending in "and") that holds mention `idx`, in `ph` (the
/// template's [`placeholders`]); `None` when it stands alone.
fn list_around(template: &str, ph: &[(usize, usize, u8, usize)], idx: usize) -> Option<List> {
    let at = ph.iter().position(|p| p.3 == idx)?;
    let party = |p: &(usize, usize, u8, usize)| matches!(p.2, b'O' | b'P');
    if !party(&ph[at]) {
        return None;
    }
    // The party placeholders next to `j` on either side, nearest first, over places (where a
    // member lives, which the gap's text then holds): up to three, since an apposition
    // before a member may hold a person ("; and «P4»'s business partner, «P5»").
    // (A possessive is no member: "and «P8»'s business partner, «P9»".)
    let possessive = |k: usize| template[ph[k].1..].starts_with("'s ") || template[ph[k].1..].starts_with("’s ");
    let after = |j: usize| (j + 1..ph.len()).filter(|&k| ph[k].2 != b'L').take_while(|&k| party(&ph[k])).take(3).filter(|&k| !possessive(k));
    let before = |j: usize| (0..j).rev().filter(|&k| ph[k].2 != b'L').take_while(|&k| party(&ph[k])).take(3).filter(|&k| !possessive(k));
    // The text between placeholders `a` and `b`; after an alias in parentheses ("«O3» (f/k/a
    // «O4»), «P5»", a caption's list), without the parenthesis that closes it.
    let gap = |a: usize, b: usize| {
        let g = &template[ph[a].1..ph[b].0];
        let in_alias = a > 0 && template[ph[a - 1].1..ph[a].0].trim_start().starts_with('(') && ALIAS_CUE.is_match(&template[ph[a - 1].1..ph[a].0]);
        if in_alias { g.trim_start().strip_prefix(')').unwrap_or(g) } else { g }
    };
    let (mut lo, mut hi) = (at, at);
    let mut has_and = false;
    let mut aliases = vec![];
    let mut places = vec![];
    let mut ended = false;
    // The list's next member from `a` to `b`: the nearest party whose gap joins them, the
    // parties passed over all inside the gap's apposition.
    let joined = |a: usize, b: usize, j: &Join| {
        let from = ph[a].1 + j.apposition.unwrap_or(usize::MAX - ph[a].1);
        (a + 1..b).all(|x| ph[x].2 == b'L' || ph[x].0 >= from)
    };
    let step_back = |lo: usize| before(lo).find_map(|k| list_gap(gap(k, lo)).filter(|j| joined(k, lo, j)).map(|j| (k, j)));
    let step_on = |hi: usize| after(hi).find_map(|k| list_gap(gap(hi, k)).filter(|j| joined(hi, k, j)).map(|j| (k, j)));
    while let Some((k, j)) = step_back(lo) {
        has_and |= j.and;
        if j.alias && lo != at {
            aliases.push(lo);
        }
        places.extend(k + 1..lo);
        lo = k;
    }
    while let Some((k, j)) = step_on(hi) {
        // (After the list's last member, only its alias or an apposition on it: "…, and
        // Magnum LLC dba Stratos LLC, and its president, John Doe".)
        if ended && !j.alias && (!j.and || j.ends) {
            break;
        }
        // An alias's "and" with no comma names another alias ("Talashia Hinton, aka LayLay
        // and LaLa"); after a comma, another member ("X, aka Mac, and Roe").
        let more_aliases = j.and && aliases.last() == Some(&hi) && gap(hi, k).trim() == "and";
        has_and |= j.and && !more_aliases;
        places.extend(hi + 1..k);
        hi = k;
        if j.alias || more_aliases {
            aliases.push(hi);
        }
        ended |= j.ends && !more_aliases;
    }
    aliases.extend(places);
    // (A caption's list may end in the word for its members instead of an "and": "«P1»,
    // «P2», «O3» A/K/A «O4», Defendants, AND «O5», Relief Defendant".)
    let closed = || {
        let after = template[ph[hi].1..].trim_start_matches([',', ' ']);
        ["Defendants", "DEFENDANTS"].iter().any(|d| after.strip_prefix(d).is_some_and(|r| !r.starts_with(char::is_alphanumeric)))
    };
    ((has_and || closed()) && lo < hi).then_some(List { lo, hi, aliases })
}

/// The parties a coordinated subject ending in mention `idx` names ("«P0» and «P1» pleaded
/// guilty to conspiring to defraud «L2»": both did), or `idx` alone. The list must end in
/// "and" right before `idx` and open its clause: at the start of the sentence or after a
/// comma, a colon or "that", with no preposition governing its first member ("According to
/// «P0», «P1» and «P2» defrauded …" names no list of fraudsters).
pub(super) fn subject_list(template: &str, idx: usize) -> Vec<usize> {
    let ph = placeholders(template);
    let Some(list) = list_around(template, &ph, idx) else { return vec![idx] };
    let (lo, hi) = (list.lo, list.hi);
    let (head, last) = (&ph[lo], &ph[hi]);
    let before_last = (lo..hi).rev().find(|&j| matches!(ph[j].2, b'O' | b'P')).unwrap_or(lo);
    let joined = list_gap(&template[ph[before_last].1..last.0]).is_some_and(|j| j.and);
    // (The text before the first member, without the member's title: "Mr. «P0»".)
    let before = template[..head.0].trim_end();
    let before = ["Mr.", "Mrs.", "Ms.", "Dr.", "Mr", "Mrs", "Ms", "Dr"].iter().find_map(|t| before.strip_suffix(t)).unwrap_or(before).trim_end();
    let opens = before.is_empty() || before.ends_with([',', ':', ';']) || before.ends_with(" that") || before == "that";
    if last.3 == idx && joined && opens && heads_its_clause(template, head.0, head.1) { list.members(&ph).collect() } else { vec![idx] }
}

/// The kind of an amount from the words next to it in the template: the kind word just
/// before ("a civil penalty of «M1»", "disgorge «M1»") or just after ("«M1» civil penalty",
/// "«M1» in prejudgment interest").
fn amount_kind(before: &str, after: &str) -> &'static str {
    fn kind(w: &str) -> Option<&'static str> {
        let w = w.to_ascii_lowercase();
        if w.contains("prejudgment") || w.contains("pre-judgment") || w.contains("interest") {
            Some("prejudgment_interest")
        } else if w.contains("disgorg") {
            Some("disgorgement")
        } else if w.contains("penalt") {
            Some("penalty")
        } else if w.contains("restitution") {
            Some("restitution")
        } else if w.contains("forfeit") {
            Some("forfeiture")
        } else if w.contains("fine") {
            Some("fine")
        } else {
            None
        }
    }
    // Just after: up to three words ("civil money penalty", "in disgorgement") of the same
    // phrase; a comma or semicolon starts the next item ("disgorge «M1», pay prejudgment
    // interest of «M2»": the interest is «M2»'s, not «M1»'s).
    let after = after.split([',', ';', '(']).next().unwrap_or_default();
    let after_words: Vec<&str> = after.split(char::is_whitespace).filter(|w| !w.is_empty()).take(4).collect();
    // (A sum of several kinds is no one kind: "a combined $750,000 in disgorgement and
    // penalties".)
    let combined = before.split_whitespace().next_back().is_some_and(|w| matches!(w, "combined" | "aggregate" | "collectively" | "together"));
    if combined && after_words.iter().filter_map(|w| kind(w)).count() > 1 {
        return "amount";
    }
    // Nor is "«M1» in disgorgement and interest", two kinds joined after one amount — unless
    // the second has its own ("«M1» in disgorgement and prejudgment interest of «M2»").
    // (A verb after "and" pays its own: "«M1» in restitution and forfeit «M2»".)
    let joined_kinds = after_words.windows(3).any(|w| kind(w[0]).is_some() && w[1] == "and" && kind(w[2]).is_some() && !matches!(w[2], "forfeit" | "disgorge"));
    if joined_kinds && !after.trim_end().ends_with(" of") {
        return "amount";
    }
    if let Some(k) = after_words.iter().take_while(|w| !matches!(**w, "and" | "plus")).find_map(|w| kind(w)) {
        return k;
    }
    // Just before: the last kind word of the few words before, over "in the amount of" and
    // "thereon" ("prejudgment interest thereon in the amount of «M2»").
    let filler = |w: &str| matches!(w, "in" | "the" | "an" | "a" | "amount" | "amounts" | "sum" | "of" | "thereon" | "thereof");
    // (Within its item: a comma or a semicolon closes the one before, "disgorgement of «M0»
    // plus prejudgment interest, but payment of all but «M1» has been waived".)
    // (Unless the item is only "in the amount of": "restitution, in the amount of «M1»".)
    let mut items = before.rsplit([',', ';']);
    let mut before_words: Vec<&str> = items.next().unwrap_or_default().split_whitespace().filter(|w| !filler(w)).collect();
    if before_words.is_empty() {
        before_words = items.next().unwrap_or_default().split_whitespace().filter(|w| !filler(w)).collect();
    }
    for w in before_words.iter().rev().take(5) {
        if matches!(*w, "and" | "plus") {
            break;
        }
        if let Some(k) = kind(w) {
            return k;
        }
    }
    "amount"
}

/// The amounts of a payment clause: every money placeholder after `from` up to the next
/// party ([`Payer::passes`] lets the payer's own and an authority by before the first amount,
/// only the payer's own after it) or the end of the template, each
/// with its kind. Amounts stated "respectively" of several parties are nobody's alone and
/// are skipped.
fn amounts(template: &str, from: usize, payer: &Payer) -> Vec<(&'static str, usize)> {
    let ph = placeholders(template);
    let mut out = vec![];
    let mut prev_end = from;
    for p in ph.iter().filter(|p| p.0 >= from) {
        // (Once the amounts have begun, any party but the payer named again ends them:
        // "liable for disgorgement of «M1», the full amount sought in «O2»'s complaint, but
        // waives payment of all but «M3»"; "fined «O1» «M2» and ordered «O3» [it] to pay «M4»".)
        if matches!(p.2, b'O' | b'P') {
            // (The words before a party let by still name the next amount's kind: "fined «O1»
            // «M2»" is a fine.)
            if payer.passes(p.3) && (out.is_empty() || payer.is_named(p.3)) {
                continue;
            }
            break;
        }
        if p.2 == b'M' {
            let before = &template[prev_end..p.0];
            let after_end = ph.iter().find(|q| q.0 >= p.1).map_or(template.len(), |q| q.0);
            let after = &template[p.1..after_end];
            if before.contains("respective") || after.starts_with(", respectively") {
                return vec![];
            }
            let k = amount_kind(before, after);
            // "…, for a total of $N" after amounts of their kinds is their sum, no more paid.
            if k == "amount" && !out.is_empty() && before.contains("total") {
                prev_end = p.1;
                continue;
            }
            if !out.iter().any(|(kk, _)| *kk == k) {
                out.push((k, p.3));
            }
        }
        prev_end = p.1;
    }
    out
}

/// Amounts stated "respectively" of a list of `n` parties ("… consented to disgorge «M3»,
/// «M4» and «M5», respectively"): the i-th amount after `from` is the i-th party's, of the
/// kind the words around the amounts say. None unless there are as many amounts as parties,
/// with only commas and "and" between them and "respectively" after the last.
fn respective_amounts(template: &str, ph: &[(usize, usize, u8, usize)], from: usize, n: usize) -> Option<Vec<(&'static str, usize)>> {
    if n < 2 || !template[from.min(template.len())..].contains("respectively") {
        return None;
    }
    let ms: Vec<&(usize, usize, u8, usize)> = ph.iter().filter(|p| p.0 >= from).take_while(|p| !matches!(p.2, b'O' | b'P')).filter(|p| p.2 == b'M').collect();
    let (first, last) = (ms.first()?, ms.last()?);
    let after = &template[last.1..];
    if ms.len() != n || !after.trim_start_matches(',').trim_start().starts_with("respectively") {
        return None;
    }
    if !ms.windows(2).all(|w| matches!(template[w[0].1..w[1].0].trim(), "," | "and" | ", and")) {
        return None;
    }
    let kind = amount_kind(&template[from..first.0], after);
    Some(ms.iter().map(|p| (kind, p.3)).collect())
}

/// Whether the place placeholder whose index starts at `at` of `template` names a
/// government: "the «L1»" not followed by a word for people ("the «L1» taxpayers").
fn government_victim(template: &str, at: usize) -> bool {
    const PEOPLE: &[&str] =
        &["taxpayers", "residents", "citizens", "investors", "consumers", "customers", "companies", "businesses", "banks", "people", "victims", "patients", "veterans", "seniors"];
    let start = template[..at].rfind('«').unwrap_or(at);
    let before = template[..start].trim_end();
    let after = template[at..].split_once('»').map_or("", |(_, r)| r).trim_start();
    let next = after.split(|c: char| !c.is_alphanumeric()).next().unwrap_or_default();
    before.ends_with(" the") && !PEOPLE.contains(&next)
}

/// The amount a victim was defrauded of, stated right after the victim's placeholder, whose
/// number ends at `at`: "«O1» of approximately «M2»", "«O1» out of more than «M2»", "the
/// «O1» program of «M2»".
fn defrauded_of(template: &str, at: usize) -> Option<usize> {
    static OF: LazyLock<Regex> = LazyLock::new(|| {
        tg_text::pattern::constant(
            r"^»(?:\s+(?:program|programs|plan|fund))?\s+(?:out\s+)?of\s+(?:(?:approximately|about|roughly|nearly|almost|some|over|more\s+than|at\s+least|in\s+excess\s+of)\s+)?«M(\d+)»",
        )
    });
    OF.captures(template.get(at..)?).and_then(|c| c.get(1)).and_then(|m| m.as_str().parse().ok())
}

/// The party whose payment a settlement or an order states, as the words after its verb
/// are read for amounts ([`payment_start`], [`amounts`]).
struct Payer<'a> {
    mentions: &'a [Mention],
    /// The payer's mention.
    party: usize,
}

impl Payer<'_> {
    /// Whether the party placeholder of mention `idx` may stand between the payer's verb and
    /// what the payer pays: the payer named again ("a final judgment that requires «O1» to
    /// pay", "permanently enjoins «O1» … and orders it to pay"), or an authority, which
    /// pays nothing ("enjoining him from violating orders issued in «O2»'s administrative
    /// proceeding and ordering him to disgorge «M3»"). Any other party's name ends the
    /// payer's clause: what follows may be that party's to pay.
    fn passes(&self, idx: usize) -> bool {
        self.is_named(idx) || self.key(idx).is_some_and(super::authorities::is_authority)
    }

    /// Whether mention `idx` is the payer named again.
    fn is_named(&self, idx: usize) -> bool {
        self.key(idx).is_some() && self.key(idx) == self.key(self.party)
    }

    /// The entity key of mention `i`.
    fn key(&self, i: usize) -> Option<&str> {
        self.mentions.get(i).map(|m| m.key.as_str())
    }
}

/// Where, from `from` on, the first word of paying ("pay", "disgorge", "disgorgement",
/// "penalty", "restitution", "forfeit") stands that states the payer's payment: before any
/// other party's placeholder ([`Payer::passes`]), or after the payer's own that follows
/// one ("… require «P1» to disgorge «M2», and (c) require «P3» to disgorge «M4»": «P3»'s
/// payment is read from «P3» on).
fn payment_start(template: &str, from: usize, payer: &Payer) -> Option<usize> {
    static PAY: LazyLock<Regex> =
        LazyLock::new(|| tg_text::pattern::constant(r"(?-u:\b)(?:pay|paying|disgorge|disgorging|disgorgement|penalty|penalties|restitution|forfeit|forfeiture)(?-u:\b)|«[OP]\d+»"));
    let mut at = from;
    while let Some(m) = PAY.find_at(template, at) {
        let Some(idx) = m.as_str().strip_prefix('«').and_then(|r| r[1..].trim_end_matches('»').parse::<usize>().ok()) else {
            return Some(m.start());
        };
        at = m.end();
        if payer.passes(idx) {
            continue;
        }
        // Another party: the payer's payment is stated, if at all, after the payer's name.
        let own = placeholders(&template[at..]).into_iter().find(|p| matches!(p.2, b'O' | b'P') && payer.is_named(p.3))?;
        at += own.1;
    }
    None
}

/// The enforcement relations of one sentence's template.
pub fn find(template: &str, mentions: &[Mention]) -> Vec<Found> {
    find_with(template, mentions, CUES.present(template), &super::placeholders::Counts::of(template))
}

/// [`find`] with the template's cue groups already found ([`cue_groups`]).
pub(super) fn find_with(template: &str, mentions: &[Mention], present: u128, counts: &super::placeholders::Counts) -> Vec<Found> {
    let has_org = template.contains("«O");
    let mut out = vec![];
    let found = |rel: &'static str, subject: usize, object: usize, money: Option<usize>, extra: Vec<(&'static str, usize)>| Found {
        rel,
        subject,
        object,
        money,
        date: None,
        role: None,
        extra,
    };
    for (i, p) in PATTERNS.iter().enumerate() {
        if present & (1u128 << i) == 0 || (p.needs_org && !has_org) || !p.needs.may_match(counts) || !p.re.is_match(template) {
            continue;
        }
        for c in p.re.captures_iter(template) {
            // An action to enforce a subpoena or an order ("filed an action to enforce a
            // subpoena against X") makes X answer a demand, not a charge.
            // (An "enforcement action" is a charge.)
            if p.rel == "CHARGED" && c.get(0).is_some_and(|m| m.as_str().contains("to enforce ") && (m.as_str().contains("subpoena") || m.as_str().contains(" order"))) {
                continue;
            }
            // (A caption's plaintiff place is the United States: [`PATTERNS`].)
            if let Some(us) = c.name("us")
                && us.as_str().parse::<usize>().ok().and_then(|i| mentions.get(i)).is_none_or(|m| m.key != "Location:united states")
            {
                continue;
            }
            let names: Vec<Option<&str>> = p.re.capture_names().collect();
            let groups: Vec<regex::Match> = (1..c.len()).filter(|&g| names.get(g).copied().flatten().is_none()).filter_map(|g| c.get(g)).collect();
            // (Whom an order requires to pay, where coreference read the pronoun, is the party
            // it is against: "a judgment against «O1», ordering «O2» [it] to pay".)
            if let Some(payer) = c.name("payer") {
                let key = |g: Option<&regex::Match>| g.and_then(|g| g.as_str().parse::<usize>().ok()).and_then(|i| mentions.get(i)).map(|m| m.key.as_str());
                let party = if p.shape == Shape::Swapped { groups.get(1) } else { groups.first() };
                if key(Some(&payer)) != key(party) {
                    continue;
                }
            }
            // A charged (settling, paying) party written as a possessor or a modifier is none
            // ("settled its charges against «P0»'s friends", "a penalty against «O0»'s
            // subsidiary" unless the apposition names the subsidiary, "the complaint alleges that «O0»'s conduct …",
            // "an indictment charging «L0»-based associates"): the word after it is.
            let possessor =
                |g: &regex::Match| template.get(g.end()..).is_some_and(|r| r.strip_prefix('»').is_some_and(|r| r.starts_with("'s") || r.starts_with("’s") || r.starts_with('-')));
            let authority = |g: &regex::Match| g.as_str().parse::<usize>().ok().and_then(|i| mentions.get(i)).is_some_and(|m| super::authorities::is_authority(&m.key));
            if matches!(p.rel, "CHARGED" | "SETTLED_WITH" | "ORDERED_TO_PAY") && groups.iter().any(|g| possessor(g) && !authority(g)) {
                continue;
            }
            let mut args: Vec<usize> = groups.iter().filter_map(|m| m.as_str().parse().ok()).collect();
            // A pair's (or a lone party's) first party may close an aside on the one before
            // it ("«P0», owner of «O1», defrauded «O2»", "«P0», former officer of «O1», was
            // charged"): the verb is that one's.
            if matches!(p.shape, Shape::Pair | Shape::Swapped | Shape::Implied)
                && let (Some(g), Some(first)) = (groups.first(), args.first_mut())
            {
                let at = g.start().saturating_sub('«'.len_utf8() + 1);
                if let Some(h) = super::relations::apposition_head(template, at) {
                    *first = h;
                } else if p.clause && !heads_its_clause(template, at, g.end() + '»'.len_utf8()) {
                    continue;
                }
            }
            let money = c.name("m").and_then(|m| m.as_str().parse().ok());
            // Amounts are read from the paying verb on ("to pay a $N civil penalty").
            // (After the payer, where the order names it again: "ordering «O2» to pay …".)
            let end = c.name("payer").map(|m| m.end()).unwrap_or_else(|| c.name("v").or_else(|| c.get(0)).map_or(0, |m| if m.as_str().is_empty() { m.end() } else { m.start() }));
            match (p.shape, &args[..]) {
                (Shape::Implied, [s]) => {
                    // A settlement that names no payment in its own words ("consented to the
                    // entry of a final judgment") pays what the sentence goes on to require of
                    // the party: the amounts after the next paying word ("… requiring him to
                    // pay disgorgement of $N"), if one follows before another party.
                    let from_for = |party: usize| {
                        let payer = Payer { mentions, party };
                        if c.name("v").is_some() { end } else { c.get(0).and_then(|m| payment_start(template, m.end(), &payer)).unwrap_or(template.len()) }
                    };
                    let from = from_for(*s);
                    // Parties listed together settle, are ordered or charged alike ("Doe and
                    // Roe consented to …"); charged together, they are co-defendants.
                    let ph = placeholders(template);
                    let list = list_around(template, &ph, *s);
                    // (Nor is a list the subject whose first member a preposition governs:
                    // "a shipbuilder that constructs vessels for «O1» and «O2», pleaded guilty".)
                    if p.clause && list.as_ref().is_some_and(|l| !heads_its_clause(template, ph[l.lo].0, ph[l.lo].1)) {
                        continue;
                    }
                    let members: Vec<usize> = list.as_ref().map_or_else(|| vec![*s], |l| l.members(&ph).collect());
                    if p.rel == "CHARGED" {
                        for (x, &m) in members.iter().enumerate() {
                            for &n in &members[x + 1..] {
                                out.push(found("CO_DEFENDANT", m, n, None, vec![]));
                            }
                        }
                    }
                    // (Amounts "respectively" of the members are each one's.)
                    let respective = respective_amounts(template, &ph, from, members.len());
                    for (k, m) in members.into_iter().enumerate() {
                        let payer = Payer { mentions, party: m };
                        // (A charge carries no amounts: what follows it is a sentence's or an order's.)
                        let extra = if p.rel == "CHARGED" {
                            vec![]
                        } else {
                            respective.as_ref().and_then(|r| r.get(k)).map_or_else(|| amounts(template, from_for(m), &payer), |a| vec![*a])
                        };
                        out.push(found(p.rel, m, IMPLIED, None, extra));
                    }
                }
                (Shape::CoDefendants, [a, b]) => {
                    let mut members = list_of(template, *a);
                    if !members.contains(b) {
                        members = vec![*a, *b];
                    }
                    for (x, &m) in members.iter().enumerate() {
                        for &n in &members[x + 1..] {
                            out.push(found(p.rel, m, n, None, vec![]));
                        }
                    }
                }
                (Shape::Pair | Shape::Swapped, [a, b]) => {
                    let (s, o) = if p.shape == Shape::Swapped { (*b, *a) } else { (*a, *b) };
                    // A place is a victim only as a government: "defraud the United States",
                    // not "defraud the Florida taxpayers" (the people are).
                    if mentions.get(o).is_some_and(|m| m.kind == "Location") && !government_victim(template, groups.get(1).map_or(0, regex::Match::start)) {
                        continue;
                    }
                    // What the victim was defrauded of is the fraud's amount ("to defraud «O1»
                    // of approximately «M2»", "out of more than «M2»").
                    let money = match (p.rel, money) {
                        ("DEFRAUDED", None) => (if p.shape == Shape::Swapped { groups.first() } else { groups.get(1) }).and_then(|g| defrauded_of(template, g.end())),
                        _ => money,
                    };
                    // An order's amounts follow its verb; a settlement with a named authority
                    // pays what the sentence goes on to state of the party ("… entered into a
                    // deferred prosecution agreement with «O1» pursuant to which «O0» will pay
                    // an additional «M2» in disgorgement").
                    let extra_for = |party: usize| {
                        let payer = Payer { mentions, party };
                        match p.rel {
                            "ORDERED_TO_PAY" => amounts(template, end, &payer),
                            "SETTLED_WITH" if money.is_none() => {
                                c.get(0).and_then(|m| payment_start(template, m.end(), &payer)).map_or_else(Vec::new, |from| amounts(template, from, &payer))
                            }
                            _ => vec![],
                        }
                    };
                    let listed: Vec<(usize, usize)> = if !p.list {
                        vec![(s, o)]
                    } else if p.shape == Shape::Swapped {
                        list_of(template, s).into_iter().map(|x| (x, o)).collect()
                    } else {
                        list_of(template, o).into_iter().map(|x| (s, x)).collect()
                    };
                    // A coordinated subject acts as one: "«P0» and «P1» pleaded guilty to
                    // conspiring to defraud «L2»" is each one's.
                    let subjects = if p.shape == Shape::Pair && p.rel != "CHARGED" { subject_list(template, s) } else { vec![s] };
                    let listed: Vec<(usize, usize)> = subjects.iter().flat_map(|&x| listed.iter().map(move |&(_, o)| (x, o))).collect();
                    // Charged together: the list's members are co-defendants.
                    if p.rel == "CHARGED" && listed.len() > 1 {
                        for (x, &(_, m)) in listed.iter().enumerate() {
                            for &(_, n) in &listed[x + 1..] {
                                out.push(found("CO_DEFENDANT", m, n, None, vec![]));
                            }
                        }
                    }
                    for (s, o) in listed {
                        out.push(found(p.rel, s, o, money, extra_for(s)));
                    }
                }
                _ => {}
            }
        }
    }
    // Charges and orders come from authorities only ("Acme charged its clients fees" is no
    // charge); authorities neither settle with nor are ordered to pay anyone; nobody is
    // related to themself.
    let authority = |i: usize| mentions.get(i).is_some_and(|m| super::authorities::is_authority(&m.key));
    // (Nor is a public program charged, with anyone: it is the victim, "a scheme, which
    // impacted private insurers, Medicare and TRICARE, …".)
    let program = |i: usize| mentions.get(i).is_some_and(|m| super::authorities::is_program(&m.key));
    out.retain(|f| match f.rel {
        "CHARGED" => (authority(f.subject) || f.object == IMPLIED) && !program(f.subject) && !program(f.object),
        // (A designation is a sanctions authority's: "the FTO designated by the State
        // Department", not "the account designated by the customer".)
        "DESIGNATED" => {
            if f.object == IMPLIED {
                !authority(f.subject)
            } else {
                mentions.get(f.subject).is_some_and(|m| super::authorities::designates(&m.key)) && !authority(f.object)
            }
        }
        "CO_DEFENDANT" => !program(f.subject) && !program(f.object),
        "ORDERED_TO_PAY" | "SETTLED_WITH" => !authority(f.subject) && !program(f.subject) && (f.object == IMPLIED || authority(f.object)),
        _ => true,
    });
    // A party charged or ordered by an authority the sentence names needs no implied one
    // ("X was charged by the SEC", "the Commission issued an order against X that requires
    // him to pay …").
    let named: Vec<(&str, usize)> = out
        .iter()
        .filter(|f| f.object != IMPLIED)
        .filter_map(|f| match f.rel {
            "CHARGED" => Some(("CHARGED", f.object)),
            "ORDERED_TO_PAY" => Some(("ORDERED_TO_PAY", f.subject)),
            _ => None,
        })
        .collect();
    out.retain(|f| !(f.object == IMPLIED && named.contains(&(f.rel, f.subject))));
    out.retain(|f| f.subject != f.object && (f.object == IMPLIED || mentions.get(f.subject).map(|m| &m.key) != mentions.get(f.object).map(|m| &m.key)));
    out
}

/// Whether the placeholder at `start..end` of `template` may be the party its clause's verb
/// is about: not the object of a preposition ("an agreement with «O0» to resolve a charge
/// of a conspiracy to defraud «O1»"), nor a word describing a person after it ("«O0»
/// captain", "an «L0» man").
fn heads_its_clause(template: &str, start: usize, end: usize) -> bool {
    const PREPOSITIONS: &[&str] = &[
        "with",
        "to",
        "for",
        "from",
        "against",
        "at",
        "into",
        "on",
        "about",
        "between",
        "among",
        "under",
        "of",
        "in",
        "than",
        "by",
        "via",
        "through",
        "including",
        "involving",
        "like",
        "regarding",
        "concerning",
    ];
    const PEOPLE: &[&str] = &[
        "man",
        "woman",
        "men",
        "women",
        "resident",
        "residents",
        "captain",
        "soldier",
        "employee",
        "employees",
        "executive",
        "executives",
        "official",
        "officials",
        "officer",
        "officers",
        "agent",
        "agents",
        "worker",
        "workers",
        "contractor",
        "manager",
        "director",
        "supervisor",
        "doctor",
        "physician",
        "nurse",
        "attorney",
        "lawyer",
        "accountant",
        "broker",
        "banker",
        "clerk",
        "teller",
        "owner",
        "national",
        "citizen",
        "businessman",
        "businesswoman",
    ];
    let (Some(before), Some(after)) = (template.get(..start), template.get(end..)) else { return true };
    let mut back = before.split_whitespace().rev();
    let prev = match back.next() {
        Some("the" | "The") => back.next(),
        w => w,
    };
    let next = after.strip_prefix(' ').and_then(|a| a.split(|c: char| !c.is_alphabetic()).next());
    // (An authority's staff act for it: "Prosecutors from the «O0» unsealed an indictment".)
    let staff = prev.is_some_and(|w| matches!(w, "from" | "with" | "of" | "at"))
        && back.next().is_some_and(|w| {
            matches!(
                w,
                "Prosecutors"
                    | "prosecutors"
                    | "Attorneys"
                    | "attorneys"
                    | "Lawyers"
                    | "lawyers"
                    | "Officials"
                    | "officials"
                    | "Investigators"
                    | "investigators"
                    | "Regulators"
                    | "regulators"
            )
        });
    (staff || !prev.is_some_and(|w| PREPOSITIONS.contains(&w))) && !next.is_some_and(|w| PEOPLE.contains(&w))
}

/// The object of a relation the sentence leaves implied (`IMPLIED`): for SETTLED_WITH the
/// authority (not a court) named in the sentence, else the first one the document names
/// before it (the authority whose action the document reports); for ORDERED_TO_PAY a court
/// so found, else a prosecutor or regulator (below) so found (not the IRS the restitution
/// is paid to), else any authority so found; for CHARGED (whose subject it becomes) a
/// prosecutor or a regulator that brings actions so found, not an investigator, a court
/// or a victim ("an indictment charging X with conspiring to defraud the IRS"), and for a
/// criminal paper a prosecutor only; a bare "X was charged" (no paper, no action named)
/// only one the sentence names as announcing it; a criminal one the document names no
/// prosecutor for before is the first prosecutor it names after, else the Department of
/// Justice where federal words place the case. `text` is the sentence. `sentence` are the
/// sentence's mentions; `named` the document's authority mentions before and after it and
/// the federal prosecutor ([`Named`]). Returns an index into `sentence`, or a mention of
/// `named`.
pub fn implied_object<'a>(rel: &str, subject: usize, text: &str, sentence: &[Mention], named: Named<'a>) -> Option<Result<usize, &'a Mention>> {
    let Named { before, after, federal, publisher } = named;
    let court = |m: &Mention| m.key.contains("court");
    // (A criminal paper — an indictment, an information, a criminal complaint, its counts
    // ("charged with one count of wire fraud") — is a prosecutor's: not the SEC's, whose
    // release may report it.)
    static CRIMINAL: LazyLock<Regex> = LazyLock::new(|| {
        super::entities::re(
            r"(?i)\b(?:indict\w*|(?:an|criminal|by)\s+information|criminal|grand\s+jury|guilty|convicted|sentenced|counts?\s+of|conspiracy|conspiring)\b|\bUnited\s+States(?:\s+of\s+America)?\s+v\.\s",
        )
    });
    let criminal = rel == "CHARGED" && CRIMINAL.is_match(text);
    // (A charge the sentence names no paper, action or defendants for — "X was charged with
    // fraud" — is one of an authority it names: the document's may have brought another
    // case.)
    static PAPER: LazyLock<Regex> = LazyLock::new(|| super::entities::re(r"(?i)\b(?:complaints?|actions?|lawsuits?|suits?|judgments?|injunctions?|proceedings?|defendants?)\b"));
    let here_only = rel == "CHARGED" && !criminal && !PAPER.is_match(text);
    // (… and only where the sentence announces it: "…, the Justice Department announced";
    // "X was charged with making a false statement to the Commission" is no charge of the
    // Commission's.)
    if here_only && !text.contains("announc") {
        return None;
    }
    let charges = |m: &Mention| if criminal { super::authorities::prosecutes(&m.key) } else { super::authorities::brings_charges(&m.key) };
    let wanted: [&dyn Fn(&Mention) -> bool; 3] = match rel {
        "ORDERED_TO_PAY" => [&court, &charges, &|_| true],
        "CHARGED" => [&charges, &|_| false, &|_| false],
        // (OFAC before the department it is part of: "the Department of the Treasury's Office
        // of Foreign Assets Control (OFAC) designated …; X is being designated for …".)
        "DESIGNATED" => [&|m: &Mention| m.key == "Organization:office of foreign assets control", &|m: &Mention| super::authorities::designates(&m.key), &|_| false],
        _ => [&|m| !court(m), &|_| false, &|_| false],
    };
    for want in wanted {
        let ok = |m: &Mention| super::authorities::is_authority(&m.key) && want(m);
        if let Some(i) = sentence.iter().enumerate().position(|(i, m)| i != subject && ok(m)) {
            return Some(Ok(i));
        }
        if let Some(m) = before.iter().map(|(_, m)| m).find(|m| ok(m)).filter(|_| !here_only) {
            return Some(Err(m));
        }
    }
    // A plea, verdict or sentence the document reports before it names its prosecutor (a
    // press release names the U.S. Attorney's office at its end) is that prosecutor's; a
    // federal one whose prosecutor the document never names is the Department of Justice's.
    // So is what a court orders the party to pay where the document names no authority but
    // places the case in a federal court ("was sentenced to 87 months in prison and ordered
    // to pay $3.2 million in restitution", "was also ordered to forfeit $1.1 million"), and
    // what a plea or prosecution agreement makes it pay ("as part of his plea agreement,
    // Roe agreed to pay …"): the case is the prosecutor's.
    let criminal_case = criminal
        || match rel {
            "ORDERED_TO_PAY" => true,
            "SETTLED_WITH" => CRIMINAL.is_match(text) || text.contains("plea agreement") || text.contains("prosecution agreement"),
            _ => false,
        };
    if criminal_case {
        if let Some((_, m)) = after.iter().find(|(_, m)| super::authorities::prosecutes(&m.key)) {
            return Some(Err(m));
        }
        if federal.is_some() {
            return federal.map(Err);
        }
    }
    // Last, the authority whose press release the document is (its web address): the one
    // that charged, prosecuted or settled what it reports, as for one named.
    let published = |m: &Mention| match rel {
        "CHARGED" => charges(m) && !here_only,
        "ORDERED_TO_PAY" | "SETTLED_WITH" => super::authorities::brings_charges(&m.key),
        _ => false,
    };
    publisher.filter(|m| published(m)).map(Err)
}

/// The authorities a sentence's implied party may be, besides those it names: the
/// document's authority mentions `before` and `after` the sentence, in order, and the
/// Department of Justice as implied by the sentence's or the document's federal words
/// ([`federal_words`]), cited at those words.
#[derive(Clone, Copy, Default)]
pub struct Named<'a> {
    /// The document's authority mentions before the sentence, in order, with their
    /// sentences' indices.
    pub before: &'a [(usize, Mention)],
    /// The document's authority mentions after the sentence, likewise.
    pub after: &'a [(usize, Mention)],
    /// The Department of Justice, cited at the federal words that imply it.
    pub federal: Option<&'a Mention>,
    /// The authority that published the document (its web address), the last resort.
    pub publisher: Option<&'a Mention>,
}

/// Where a text places a criminal case ([`federal_words`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaseIn {
    /// A federal court: the span of the words that say so.
    Federal(usize, usize),
    /// A state's court, charges or prosecutor.
    State,
    /// Neither.
    Unsaid,
}

/// Where `text` places a criminal case: in a federal court where it names a federal (grand)
/// jury, prison, indictment or charges, federal prosecutors, a U.S. Attorney, and with
/// `in_sentence` also a U.S. District or Magistrate Court or Judge, a federal court or
/// judge (said of the plea's own sentence: a civil action in a district court elsewhere in
/// the document places no criminal case); in a state's where the sentence names a state's
/// court, charges or prosecutor. Every federal prosecution is brought by the Department of
/// Justice (its U.S. Attorneys prosecute "all offenses against the United States", 28
/// U.S.C. § 547), so these words name the authority a plea, a verdict or a sentence
/// implies when the document names no prosecutor.
pub fn federal_words(text: &str, in_sentence: bool) -> CaseIn {
    static CRIMINAL: LazyLock<Regex> = LazyLock::new(|| {
        super::entities::re(
            r"(?i)\bfederal\s+(?:grand\s+jury|jury|prison|indictment|(?:criminal\s+)?charges|prosecutors?)\b|\b(?:assistant\s+)?(?:U\.\s?S\.|United\s+States)\s+Attorney\b|\bUnited\s+States(?:\s+of\s+America)?\s+v\.\s",
        )
    });
    static COURT: LazyLock<Regex> =
        LazyLock::new(|| super::entities::re(r"(?i)\b(?:U\.\s?S\.|United\s+States)\s+(?:District|Magistrate)\s+(?:Court|Judge)\b|\bfederal\s+(?:district\s+)?(?:court|judge)\b"));
    static STATE: LazyLock<Regex> = LazyLock::new(|| {
        super::entities::re(
            r"(?i)\b(?:state(?:\s+(?:supreme|district|circuit|criminal))?|superior|county|municipal|chancery|family)\s+court\b|\bcourt\s+of\s+common\s+pleas\b|\bstate\s+(?:charges|prison|jury|prosecutors?)\b|\b(?:district|county)\s+attorney\b|\bstate['’]s\s+attorney\b",
        )
    });
    if in_sentence && STATE.is_match(text) {
        return CaseIn::State;
    }
    let first = |re: &Regex| re.find(text).map(|m| (m.start(), m.end()));
    let found = match (first(&CRIMINAL), if in_sentence { first(&COURT) } else { None }) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    found.map_or(CaseIn::Unsaid, |(a, b)| CaseIn::Federal(a, b))
}

impl CaseIn {
    /// The span of the federal words, if the case is federal.
    pub fn federal(self) -> Option<(usize, usize)> {
        match self {
            CaseIn::Federal(a, b) => Some((a, b)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{authorities, entities, relations};

    /// Every pattern's argument groups are read by the placeholder gate: as many as its
    /// shape reads, and they are the regex's unnamed groups.
    #[test]
    fn every_pattern_has_the_argument_groups_the_gate_reads() {
        for p in super::PATTERNS.iter() {
            let unnamed = p.re.capture_names().skip(1).filter(Option::is_none).count();
            let wanted = if p.shape == super::Shape::Implied { 1 } else { 2 };
            assert_eq!(p.needs.arity(), Some(wanted), "{}", p.re.as_str());
            assert_eq!(unnamed, wanted, "{}", p.re.as_str());
        }
    }

    /// A pattern's cue bit is one of 128: no more patterns than that.
    #[test]
    fn the_patterns_fit_the_cue_bits() {
        assert!(super::PATTERNS.len() <= 128, "{} patterns", super::PATTERNS.len());
    }

    fn rels(s: &str) -> Vec<String> {
        let ms = authorities::with_authorities(s, (0, s.len()), entities::find(s, (0, s.len()), None));
        let t = relations::template(s, 0, &ms);
        let name = |i: usize| if i == relations::IMPLIED { "?".to_string() } else { ms[i].surface.clone() };
        super::find(&t, &ms)
            .into_iter()
            .map(|f| {
                let extra: Vec<String> = f.extra.iter().map(|(k, m)| format!(" {k}={}", ms[*m].key)).collect();
                format!("{}({}, {}){}", f.rel, name(f.subject), name(f.object), extra.concat())
            })
            .collect()
    }

    #[test]
    fn charges_by_authorities() {
        assert_eq!(rels("The Securities and Exchange Commission today charged Acme Corp. with fraud."), ["CHARGED(Securities and Exchange Commission, Acme Corp.)"]);
        assert_eq!(
            rels("The Securities and Exchange Commission announced today the filing of a civil action against Acme Corp. and Beta LLC in the District Court."),
            ["CO_DEFENDANT(Acme Corp., Beta LLC)", "CHARGED(Securities and Exchange Commission, Acme Corp.)", "CHARGED(Securities and Exchange Commission, Beta LLC)"]
        );
        assert!(rels("The Securities and Exchange Commission announced its charges in a statement against fraud.").is_empty());
        // A party described by where it is based.
        assert_eq!(
            rels("The SEC today announced fraud charges against a Florida-based investment adviser, Acme Advisors LLC, and its owner, Mr. John Doe."),
            ["CO_DEFENDANT(Acme Advisors LLC, John Doe)", "CHARGED(SEC, Acme Advisors LLC)", "CHARGED(SEC, John Doe)"]
        );
        // (The age and home before "was charged by": fixtures/extraction/enforcement/settlement-terms.txt,
        // whose places only the tagger finds.)
        // A grand jury's indictment: the prosecutor's charge (implied), of each party listed.
        assert_eq!(
            rels("A federal grand jury today indicted Mr. John Doe and Mr. Carl Roe on wire fraud charges."),
            ["CO_DEFENDANT(John Doe, Carl Roe)", "CHARGED(John Doe, ?)", "CHARGED(Carl Roe, ?)"]
        );
        // Parties listed together settle alike; an injunction or a settlement agreed to is a settlement.
        assert_eq!(rels("Acme Corp. and Beta LLC agreed to a permanent injunction."), ["SETTLED_WITH(Acme Corp., ?)", "SETTLED_WITH(Beta LLC, ?)"]);
        assert_eq!(rels("Acme Corp., without admitting or denying the allegations of the Commission's complaint, agreed to a settlement."), ["SETTLED_WITH(Acme Corp., ?)"]);
        assert_eq!(rels("Acme Corp. also consented, without admitting or denying the allegations, to the issuance of a final judgment."), ["SETTLED_WITH(Acme Corp., ?)"]);
        assert_eq!(rels("The SEC filed a complaint in the U.S. District Court for the District of New Jersey against Mr. John Doe."), ["CHARGED(SEC, John Doe)"]);
        assert_eq!(
            rels("The SEC sued Acme Corp., Beta LLC and Mr. John Doe."),
            [
                "CO_DEFENDANT(Acme Corp., Beta LLC)",
                "CO_DEFENDANT(Acme Corp., John Doe)",
                "CO_DEFENDANT(Beta LLC, John Doe)",
                "CHARGED(SEC, Acme Corp.)",
                "CHARGED(SEC, Beta LLC)",
                "CHARGED(SEC, John Doe)"
            ]
        );
        assert_eq!(rels("Acme Corp. was charged by the SEC."), ["CHARGED(SEC, Acme Corp.)"]);
        // An action to enforce a subpoena is no charge; an enforcement action is one.
        assert!(rels("The SEC today filed an action to enforce a subpoena against Mr. John Doe, a former broker.").is_empty());
        assert_eq!(rels("The SEC today filed an enforcement action in the order of its cases against Mr. John Doe."), ["CHARGED(SEC, John Doe)"]);
        // A company charging fees is no charge.
        assert!(rels("Acme Corp. charged Beta LLC a fee.").is_empty());
        // The verb after an aside is the party's before it ("X, owner of Y, defrauded Z").
        assert_eq!(rels("Mr. John Doe, owner of Beta LLC, ran a scheme to defraud Gamma Fund LP."), ["DEFRAUDED(John Doe, Gamma Fund LP)"]);
        assert_eq!(rels("Gamma Fund LP, a client of Beta LLC, was defrauded by Mr. John Doe."), ["DEFRAUDED(John Doe, Gamma Fund LP)"]);
        // A finding or an admission reaches a scheme further on; a charge alone does not.
        assert_eq!(
            rels("Mr. John Doe was sentenced today to 14 years in prison for his role in a wide-ranging conspiracy to defraud Gamma Fund LP."),
            ["CHARGED(John Doe, ?)", "DEFRAUDED(John Doe, Gamma Fund LP)"]
        );
        // (Both patterns find this one; `relations::find` keeps one.)
        let r = rels("Mr. John Doe pleaded guilty today to conspiring to defraud Gamma Fund LP.");
        assert!(
            r.contains(&"DEFRAUDED(John Doe, Gamma Fund LP)".to_string()) && r.iter().all(|x| x == "DEFRAUDED(John Doe, Gamma Fund LP)" || x == "CHARGED(John Doe, ?)"),
            "{r:?}"
        );
        assert!(
            rels("Mr. John Doe was indicted today on 14 counts of wire fraud for his role in a wide-ranging conspiracy to defraud Gamma Fund LP.")
                .iter()
                .all(|r| !r.starts_with("DEFRAUDED"))
        );
        assert_eq!(
            rels("Mr. John Doe was sentenced today to four years in prison and three years of supervised release for defrauding Gamma Fund LP of $2 million."),
            ["CHARGED(John Doe, ?)", "DEFRAUDED(John Doe, Gamma Fund LP)"]
        );
        assert!(
            rels("Mr. John Doe was indicted today on 14 counts of wire fraud and money laundering for defrauding Gamma Fund LP of $2 million.")
                .iter()
                .all(|r| !r.starts_with("DEFRAUDED"))
        );
        let r = rels("Mr. John Doe, former chief financial officer of Beta LLC, pleaded guilty today to conspiring to defraud Gamma Fund LP.");
        assert_eq!(r, ["CHARGED(John Doe, ?)", "DEFRAUDED(John Doe, Gamma Fund LP)"]);
        // (Over places and after where the party lives: `lib.rs`'s test, whose finders see places.)
        // A settlement or a prosecution agreement entered into with an authority; not a merger's.
        assert_eq!(
            rels("Acme Corp., one of the largest marketing companies in the world, has entered into a settlement with the Department of Justice to resolve a charge."),
            ["SETTLED_WITH(Acme Corp., Department of Justice)"]
        );
        assert_eq!(rels("Acme Corp. entered into a deferred prosecution agreement (DPA) with the Department of Justice."), ["SETTLED_WITH(Acme Corp., Department of Justice)"]);
        assert!(rels("Acme Corp. entered into a merger agreement with Beta LLC.").is_empty());
        // The government a country names is a victim; its people are, a place alone is not.
        let m = |a: usize, b: usize, kind: &'static str, s: &str| super::Mention {
            span: (a, b),
            kind,
            key: format!("{kind}:{}", &s[a..b]),
            surface: s[a..b].to_string(),
            attrs: vec![],
        };
        let t = "«P0» pleaded guilty to a conspiracy to defraud the «L1».";
        let ms = [m(0, 1, "Person", "x"), m(0, 1, "Location", "y")];
        // (The plea's implied charge aside.)
        let victims = |t: &str| super::find(t, &ms).iter().filter(|f| f.rel != "CHARGED").map(|f| (f.rel, f.subject, f.object)).collect::<Vec<_>>();
        let mut got = victims(t);
        got.dedup();
        assert_eq!(got, [("DEFRAUDED", 0, 1)]);
        assert!(victims("«P0» pleaded guilty to a conspiracy to defraud the «L1» taxpayers.").is_empty());
        assert!(victims("«P0» pleaded guilty to a conspiracy to defraud «L1».").is_empty());
        // Also where the aside is a title written with capitals.
        assert_eq!(
            rels("Mr. John Doe, former Chief Operations Officer of Beta LLC, was charged today for defrauding Gamma Fund LP of over $1 million."),
            ["CHARGED(John Doe, ?)", "DEFRAUDED(John Doe, Gamma Fund LP)"]
        );
        // A party after a preposition or before a word for a person is not the one who acts.
        assert!(rels("Acme Corp. entered into an agreement with Beta LLC to resolve a charge of a conspiracy to defraud Gamma Fund LP.").is_empty());
        assert!(rels("A Delta Holdings Inc. employee took part in a scheme to defraud Gamma Fund LP.").is_empty());
        assert_eq!(rels("Judgment was entered in SEC v. Delta Holdings Inc., et al."), ["CHARGED(SEC, Delta Holdings Inc.)"]);
        // A caption in capitals joins its list with "AND" (its names are found by the known
        // names' capitals, `extract_with`); "And" joins nothing.
        assert_eq!(super::list_of("«O0» v. «P1», «P2» AND «O3», Civil Action No. «R4»", 2), [1, 2, 3]);
        assert_eq!(super::list_of("«O0» v. «P1» And «O3»", 1), [1]);
        // A list's member with an alias in parentheses ("«O3» (f/k/a «O4»), «P5»") goes on
        // after the parenthesis; the alias is no member.
        assert_eq!(super::list_of("«O0» v. «P1», «O2» (f/k/a «O3»), «P4» and «P5», Civil Action No. 98CV01533", 1), [1, 2, 4, 5]);
        // A caption's list closed by the word for its members, before its relief defendant.
        assert_eq!(super::list_of("«O0» V. «P1», «P2», «O3» A/K/A «O4», Defendants, AND «O5», Relief Defendant, Civil Action No. 1:02", 1), [1, 2, 3]);
        assert_eq!(super::list_of("«O0» V. «P1», «P2», «O3», Relief Defendant", 1), [1]);
        assert_eq!(super::list_of("«O0» v. «P1», «P2», «O3», Defendants.", 2), [1, 2, 3]);
        // Members described before their names, the descriptions holding a person or a
        // company ("the pool «P5» operated", "«P7»'s business partner"): the described is
        // the member; a possessive is none.
        let t = "«O0» filed an action charging «P1», a/k/a \"«P2»,\" of «L3», «L4»; his firm, «O5»; the pool «P6» operated, «O7»; and «P8»'s business partner, «P9», of «L10», with fraud.";
        assert_eq!(super::list_of(t, 1), [1, 5, 7, 9]);
        assert_eq!(super::list_of(t, 9), [1, 5, 7, 9]);
        // An alias after the member's age ("«P1», 41, a/k/a "«P2»," of «L3»; and «P4»").
        assert_eq!(super::list_of("«P0», 38, of «L1»; «P2», 41, a/k/a \"«P3»,\" of «L4»; and «P5», 52, of «L6», are charged.", 5), [0, 2, 5]);
        // A list that a preposition governs is no subject, even where its last member
        // stands right before the verb.
        assert!(
            rels("Acme LLC, a shipbuilder that builds vessels for Beta Corp. and Gamma Corp., pleaded guilty, the Department of Justice announced.")
                .iter()
                .all(|r| !r.contains("Beta") && !r.contains("Gamma"))
        );
        // Designations are a sanctions authority's, active or passive; a customer's are none.
        assert_eq!(rels("OFAC designated Acme Trading LLC and Mr. John Doe."), ["DESIGNATED(OFAC, Acme Trading LLC)", "DESIGNATED(OFAC, John Doe)"]);
        assert_eq!(rels("Payments went to Beta Holdings Ltd., which was designated by OFAC."), ["DESIGNATED(OFAC, Beta Holdings Ltd.)"]);
        assert_eq!(rels("The Treasury Department sanctioned Beta Holdings Ltd. in May."), ["DESIGNATED(Treasury Department, Beta Holdings Ltd.)"]);
        assert!(rels("Acme Trading LLC designated Beta Holdings Ltd. as its agent; the SEC designated Mr. John Doe.").is_empty());
        // A finding of primary money laundering concern is a designation.
        assert_eq!(rels("In May, FinCEN found Delta Bank SA to be of “primary money laundering concern” for serving as a gateway."), ["DESIGNATED(FinCEN, Delta Bank SA)"]);
        assert_eq!(
            rels("In 2017, FinCEN issued a notice of proposed rulemaking finding the Delta Bank SA to be a “foreign financial institution of primary money laundering concern”."),
            ["DESIGNATED(FinCEN, Delta Bank SA)"]
        );
        assert!(rels("Acme Holdings LLC found Delta Bank SA to be of primary money laundering concern.").is_empty());
        // (Over the bank's description.)
        assert_eq!(
            rels(
                "FinCEN today issued a finding that Delta Bank SA, a privately owned bank in the Dominican Republic, is a financial institution of primary money laundering concern."
            ),
            ["DESIGNATED(FinCEN, Delta Bank SA)"]
        );
        // A jury's verdict follows a prosecutor's charge.
        assert_eq!(rels("A federal jury in Charlotte convicted Mr. John Doe yesterday of wire fraud."), ["CHARGED(John Doe, ?)"]);
        assert_eq!(rels("The jury found Mr. John Doe guilty of all counts."), ["CHARGED(John Doe, ?)"]);
        // A party named with an alias is the name the sentence gives first.
        assert_eq!(rels("Mr. John Doe, aka Mr. Jack Doe, 37, was sentenced to 75 months in prison."), ["CHARGED(John Doe, ?)"]);
        // A plea before the sentence leaves the sentence's order to pay the party's.
        assert_eq!(
            rels("Mr. John Doe previously pleaded guilty and was sentenced to 36 months in prison and ordered to pay $4.1 million in restitution."),
            ["CHARGED(John Doe, ?)", "ORDERED_TO_PAY(John Doe, ?) restitution=Money:USD 4100000"]
        );
        // A public program is a victim, never a defendant.
        assert!(rels("The owner of a pharmacy whose scheme hit private insurers, Medicare and TRICARE, pleaded guilty.").is_empty());
        // A member's age after it does not end the list.
        assert_eq!(super::list_of("«P0», 63, «P1», 40, and «P2», 46, were sentenced", 2), [0, 1, 2]);
        // Members that hold commas are kept apart by semicolons.
        assert_eq!(super::list_of("«O0» v. «O1»; «O2» (\"MSA\"); «P3»; and «P4».", 1), [1, 2, 3, 4]);
    }

    /// A consent to a judgment carries the amounts the sentence then requires of the party.
    #[test]
    fn a_consent_to_a_judgment_carries_what_it_requires_to_pay() {
        assert_eq!(
            rels(
                "Mr. John Doe consented to the entry of a final judgment enjoining him from violating Section 10(b) and requiring him to pay disgorgement of $25,625, pre-judgment interest of $7,442, and a civil monetary penalty of $25,625, for a total of $58,692."
            ),
            ["SETTLED_WITH(John Doe, ?) disgorgement=Money:USD 25625 prejudgment_interest=Money:USD 7442 penalty=Money:USD 25625"]
        );
        // A sum of several kinds is an amount.
        assert_eq!(
            rels("Acme Corp. and Mr. John Doe agreed to pay a combined $750,000 in disgorgement and penalties."),
            ["SETTLED_WITH(Acme Corp., ?) amount=Money:USD 750000", "SETTLED_WITH(John Doe, ?) amount=Money:USD 750000"]
        );
        // Money the sentence names for another reason is not the settlement's.
        assert_eq!(rels("Mr. John Doe consented to the entry of a final judgment; he had taken $2,000,000 from investors."), ["SETTLED_WITH(John Doe, ?)"]);
        // Amounts "respectively" of a list are each member's; with as many amounts only.
        assert_eq!(
            rels("Mr. John Doe and Mr. Carl Roe each also consented to be ordered to disgorge $5,000 and $6,000, respectively, plus interest."),
            ["SETTLED_WITH(John Doe, ?) disgorgement=Money:USD 5000", "SETTLED_WITH(Carl Roe, ?) disgorgement=Money:USD 6000"]
        );
        assert_eq!(
            rels("Mr. John Doe and Mr. Carl Roe consented to disgorge $5,000, $6,000 and $7,000, respectively."),
            ["SETTLED_WITH(John Doe, ?)", "SETTLED_WITH(Carl Roe, ?)"]
        );
        // Consent to judgments in the plural; a plea agreed to with a fine.
        assert_eq!(
            rels("Without admitting or denying the allegations, Mr. John Doe and Mr. Carl Roe consented to final judgments that enjoin them."),
            ["SETTLED_WITH(John Doe, ?)", "SETTLED_WITH(Carl Roe, ?)"]
        );
        // A settlement of any kind agreed to.
        assert_eq!(rels("Mr. John Doe has agreed to a bifurcated settlement, subject to court approval."), ["SETTLED_WITH(John Doe, ?)"]);
        let r = rels("Acme Corp. has agreed to plead guilty to one count of bribery and to pay a $2 million fine.");
        assert!(r.contains(&"SETTLED_WITH(Acme Corp., ?) fine=Money:USD 2000000".to_string()), "{r:?}");
    }

    /// What a victim was defrauded of is the fraud's amount.
    #[test]
    fn defrauded_of_an_amount() {
        let ms_of = |s: &str| {
            let ms = authorities::with_authorities(s, (0, s.len()), entities::find(s, (0, s.len()), None));
            let t = relations::template(s, 0, &ms);
            super::find(&t, &ms)
                .into_iter()
                .filter(|f| f.rel == "DEFRAUDED")
                .map(|f| f.money.map(|m| ms[m].key.clone()))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
        };
        assert_eq!(ms_of("Mr. John Doe pleaded guilty to conspiring to defraud the Medicare program of approximately $15.3 million."), [Some("Money:USD 15300000".to_string())]);
        assert_eq!(ms_of("Mr. John Doe pleaded guilty to a scheme to defraud Acme Bank out of more than $2 million."), [Some("Money:USD 2000000".to_string())]);
        // Money elsewhere in the sentence is not what the victim lost.
        assert_eq!(ms_of("Mr. John Doe pleaded guilty to conspiring to defraud Medicare and was ordered to pay $15,000."), [None]);
    }

    /// What a settlement requires of the party is read past the party named again and past
    /// an authority; another party's name ends it, unless the party is named after it; a
    /// settlement with a named authority pays what the sentence states of the party.
    #[test]
    fn a_settlements_payment_named_past_the_party_and_the_authority() {
        // The party named again.
        assert_eq!(
            rels(
                "Acme Corp. has consented to the entry of a final judgment that requires Acme Corp. to pay $20 million in disgorgement and enjoins Acme Corp. from violating Section 13(a)."
            ),
            ["ORDERED_TO_PAY(Acme Corp., ?) disgorgement=Money:USD 20000000", "SETTLED_WITH(Acme Corp., ?) disgorgement=Money:USD 20000000"]
        );
        // An authority between the consent and the payment.
        assert_eq!(
            rels(
                "Mr. John Doe consented to a final judgment enjoining him from violating orders issued in the SEC's administrative proceeding and ordering him to disgorge $50,000 and pay a civil penalty of $120,000."
            ),
            ["SETTLED_WITH(John Doe, ?) disgorgement=Money:USD 50000 penalty=Money:USD 120000"]
        );
        // Each listed party's payment after its own name; another's name ends the clause.
        assert_eq!(
            rels(
                "Mr. John Doe and Mr. Carl Roe consented to final judgments that (a) enjoin them, (b) require Mr. John Doe to disgorge $134,999 plus $16,845 in prejudgment interest, and (c) require Mr. Carl Roe to disgorge $32,995."
            ),
            ["SETTLED_WITH(John Doe, ?) disgorgement=Money:USD 134999 prejudgment_interest=Money:USD 16845", "SETTLED_WITH(Carl Roe, ?) disgorgement=Money:USD 32995"]
        );
        assert_eq!(
            rels("Mr. John Doe consented to a final judgment, and Acme Corp. agreed to disgorge $5,000."),
            ["SETTLED_WITH(John Doe, ?)", "SETTLED_WITH(Acme Corp., ?) disgorgement=Money:USD 5000"]
        );
        // By paying or disgorging.
        assert_eq!(rels("Acme Corp. agreed to settle the action by disgorging the $35,000 received in the sale."), ["SETTLED_WITH(Acme Corp., ?) disgorgement=Money:USD 35000"]);
        // One amount of two kinds is an amount; each kind with its own amount is that kind.
        assert_eq!(rels("Acme Corp. agreed to pay $4.5 million in disgorgement and interest."), ["SETTLED_WITH(Acme Corp., ?) amount=Money:USD 4500000"]);
        assert_eq!(
            rels("Acme Corp. agreed to pay $4.5 million in disgorgement and prejudgment interest of $500,000."),
            ["SETTLED_WITH(Acme Corp., ?) disgorgement=Money:USD 4500000 prejudgment_interest=Money:USD 500000"]
        );
        assert_eq!(
            rels("Mr. John Doe agreed to pay $4,500 in restitution and forfeit $9,000."),
            ["SETTLED_WITH(John Doe, ?) restitution=Money:USD 4500 forfeiture=Money:USD 9000"]
        );
        // A settlement that requires the party to pay; under the terms of the settlement; to be
        // barred and to pay.
        assert_eq!(
            rels("The settlement, which is subject to court approval, requires Acme Corp. to pay a $3 million penalty."),
            ["SETTLED_WITH(Acme Corp., ?) penalty=Money:USD 3000000"]
        );
        assert_eq!(rels("Under the terms of the settlement, Acme Corp. will pay $450,000 in disgorgement."), ["SETTLED_WITH(Acme Corp., ?) disgorgement=Money:USD 450000"]);
        // "The agreement" that makes a party pay a penalty or a forfeiture is a settlement; one
        // that makes it pay royalties is a contract.
        assert_eq!(
            rels("Under the agreement, Acme Corp. will pay a criminal penalty of $78.5 million and administrative forfeiture of $17.6 million."),
            ["SETTLED_WITH(Acme Corp., ?) penalty=Money:USD 78500000 forfeiture=Money:USD 17600000"]
        );
        assert!(rels("Under the agreement, Acme Corp. will pay royalties of $2 million.").is_empty());
        // A deferred prosecution agreement entered into, either way round.
        assert_eq!(
            rels("The Serious Fraud Office has entered into a Deferred Prosecution Agreement with Acme Corp. to resolve the case."),
            ["SETTLED_WITH(Acme Corp., Serious Fraud Office)"]
        );
        assert_eq!(
            rels("Acme Corp. entered into a three-year deferred prosecution agreement with the Department of Justice."),
            ["SETTLED_WITH(Acme Corp., Department of Justice)"]
        );
        // An order's "shall pay", for each party it names.
        assert_eq!(
            rels(
                "Accordingly, it is hereby ordered that Acme Corp. shall pay disgorgement of $2,310,000 and a civil money penalty of $500,000, and that Mr. John Doe shall pay a civil money penalty of $150,000."
            ),
            ["ORDERED_TO_PAY(Acme Corp., ?) disgorgement=Money:USD 2310000 penalty=Money:USD 500000", "ORDERED_TO_PAY(John Doe, ?) penalty=Money:USD 150000"]
        );
        assert_eq!(rels("Under the plea agreement, Acme Corp. will forfeit $3 million."), ["SETTLED_WITH(Acme Corp., ?) forfeiture=Money:USD 3000000"]);
        // A contract's terms are no settlement's.
        assert!(rels("Under the terms of the agreement, Acme Corp. will pay $10 per share to the shareholders of Beta LLC.").is_empty());
        assert!(rels("The license agreement obligates Acme Corp. to pay royalties of $200,000 a year.").is_empty());
        assert_eq!(rels("Mr. John Doe agreed to be barred from the securities industry and to pay a $75,000 penalty."), ["SETTLED_WITH(John Doe, ?) penalty=Money:USD 75000"]);
        // Terms numbered before "to pay".
        assert_eq!(
            rels("Acme Corp. agreed (1) to pay a total of $100 million and (2) to be enjoined from future violations."),
            ["SETTLED_WITH(Acme Corp., ?) amount=Money:USD 100000000"]
        );
        // A settlement with a named authority.
        assert_eq!(
            rels(
                "Acme Corp. entered into a deferred prosecution agreement with the Department of Justice pursuant to which Acme Corp. will pay an additional $180 million in disgorgement."
            ),
            ["SETTLED_WITH(Acme Corp., Department of Justice) disgorgement=Money:USD 180000000"]
        );
        // Once the amounts have begun, an authority's name ends them.
        assert_eq!(
            rels("The order holds Mr. John Doe liable for disgorgement of $105,999, the full amount sought in the SEC's complaint, but waives payment of all but $53,000."),
            ["ORDERED_TO_PAY(John Doe, ?) disgorgement=Money:USD 105999"]
        );
    }

    /// A judgment that holds X liable for a payment orders X to pay it; one that finds X
    /// liable for violations orders nothing.
    #[test]
    fn held_liable_for_a_payment() {
        assert_eq!(
            rels("The order holds Mr. John Doe liable for disgorgement of $105,999, the full amount sought."),
            ["ORDERED_TO_PAY(John Doe, ?) disgorgement=Money:USD 105999"]
        );
        assert_eq!(rels("The court found Mr. John Doe jointly and severally liable to pay $5,000."), ["ORDERED_TO_PAY(John Doe, ?) amount=Money:USD 5000"]);
        assert!(rels("A jury found Mr. John Doe liable for violations of the antifraud provisions.").is_empty());
        // The court ordered a list to pay, amounts respectively; "court" in a phrase is no orderer.
        assert_eq!(
            rels("The court ordered Mr. John Doe and Acme Corp. to pay disgorgement of $1.2 million and $300,000, respectively."),
            ["ORDERED_TO_PAY(John Doe, ?) disgorgement=Money:USD 1200000", "ORDERED_TO_PAY(Acme Corp., ?) disgorgement=Money:USD 300000"]
        );
        assert_eq!(
            rels("U.S. District Judge Jane Poe ordered Mr. John Doe to pay $4.1 million in restitution to Acme Bank."),
            ["ORDERED_TO_PAY(John Doe, ?) restitution=Money:USD 4100000"]
        );
        let r = rels("Acme Corp. consented to the entry of a final judgment, subject to court approval, that requires Acme Corp. to pay $20 million in disgorgement.");
        assert!(r.iter().all(|r| !r.starts_with("ORDERED_TO_PAY")), "{r:?}");
    }

    /// The charging paper's own words name the charged: "the complaint alleges (, among
    /// other things,) that (on a date,) X …", "according to the complaint, X …", "in its
    /// complaint, the SEC alleges that X …", "filed a complaint …, which alleged that X …";
    /// a judgment the authority obtained against X, charges it settled against X and relief it
    /// seeks against X are its action's. A possessor is no party ("X's friends", "X's conduct").
    #[test]
    fn the_charging_papers_words_name_the_charged() {
        assert_eq!(
            rels("The SEC's complaint alleges, among other things, that on May 2, 2001, Acme Corp. and Mr. John Doe overstated revenue."),
            ["CO_DEFENDANT(Acme Corp., John Doe)", "CHARGED(SEC, Acme Corp.)", "CHARGED(SEC, John Doe)"]
        );
        assert_eq!(rels("According to the SEC's complaint, Mr. John Doe sold the shares."), ["CHARGED(SEC, John Doe)"]);
        assert_eq!(rels("In its complaint, the SEC alleges that between 1998 and 2001, Mr. John Doe sold the shares."), ["CHARGED(SEC, John Doe)"]);
        assert_eq!(rels("The SEC filed a complaint in federal court on Monday, which alleged that Mr. John Doe sold the shares."), ["CHARGED(SEC, John Doe)"]);
        assert_eq!(rels("The SEC filed its complaint today, alleging that Acme Corp. sold the shares."), ["CHARGED(SEC, Acme Corp.)"]);
        assert_eq!(rels("The SEC obtained a final judgment against Acme Corp. last week."), ["CHARGED(SEC, Acme Corp.)"]);
        assert_eq!(rels("The SEC obtained an asset freeze against Acme Corp. on Monday."), ["CHARGED(SEC, Acme Corp.)"]);
        assert_eq!(rels("The SEC settled its charges against Acme Corp. in 1999."), ["CHARGED(SEC, Acme Corp.)", "SETTLED_WITH(Acme Corp., SEC)"]);
        assert!(rels("The SEC settled its charges against Mr. John Doe's friends.").is_empty());
        assert!(rels("The SEC's complaint alleges that Acme Corp.'s conduct harmed investors.").is_empty());
        // No authority, no charge: a company's own complaint.
        assert!(rels("Beta LLC's complaint alleges that Acme Corp. sold the shares.").is_empty());
        // The relief it seeks is against its defendants.
        assert_eq!(rels("The SEC seeks a final judgment permanently enjoining Acme Corp. from violating Section 17(a)."), ["CHARGED(SEC, Acme Corp.)"]);
        assert_eq!(rels("The SEC also seeks disgorgement, interest and penalties from Mr. John Doe."), ["CHARGED(SEC, John Doe)"]);
        assert!(rels("The SEC seeks disgorgement from relief defendant Mr. John Doe.").is_empty());
        // A judgment a court entered against X: X is a party the authority charged (implied;
        // here the party comes first, `lib.rs` makes the authority found the subject).
        assert_eq!(rels("The court entered a final judgment of permanent injunction against Mr. John Doe."), ["CHARGED(John Doe, ?)"]);
    }

    /// A list's members: over where each lives, over an apposition on one ("X and his firm,
    /// Y"), and not an alias of one ("Y dba Z"), which is no member of its own.
    #[test]
    fn lists_over_homes_appositions_and_aliases() {
        assert_eq!(super::list_of("«O0» sued «P1», of «L2», «L3», and «P4», of «L5», and others", 1), [1, 4]);
        assert_eq!(super::list_of("«O0» alleged that «O1», «P2» and his firm, «O3», and «O4» dba «O5», and its president, «P6», violated it", 2), [1, 2, 3, 4, 6]);
        assert_eq!(super::list_of("«O0» alleged that «O1» dba «O2» and «P3» violated it", 3), [1, 3]);
        // A list ends at its "and": what follows is another clause's.
        assert_eq!(super::list_of("«O0» sued «P1» and «P2», «P3» said", 1), [1, 2]);
        // A possessive apposition of four words ("and its former chief executive officer, Y").
        assert_eq!(super::list_of("«O0» today charged «O1» and its former chief executive officer, «P2», with fraud", 1), [1, 2]);
    }

    /// A judgment or an order against X "that imposed" a payment or "requires him to pay":
    /// X is ordered to pay it, by the authority that issued it or the one implied.
    #[test]
    fn a_judgment_that_imposed_a_penalty() {
        assert_eq!(
            rels("The SEC issued an order against Mr. John Doe that requires him to disgorge $1,000 and pay a $40,000 civil penalty."),
            ["ORDERED_TO_PAY(John Doe, SEC) disgorgement=Money:USD 1000 penalty=Money:USD 40000"]
        );
        let r = rels("On May 2, Judge Alan Poe entered final judgment against Mr. John Doe that imposed a civil monetary penalty of $50,000.");
        assert!(r.contains(&"ORDERED_TO_PAY(John Doe, ?) penalty=Money:USD 50000".to_string()), "{r:?}");
        // An order that finds that X violated the law and imposes a penalty.
        let r = rels("The SEC's order finds that Acme Corp. violated Section 17(a) of the Securities Act and imposes a $2 million civil penalty.");
        assert!(r.contains(&"ORDERED_TO_PAY(Acme Corp., ?) penalty=Money:USD 2000000".to_string()), "{r:?}");
        // Against a defendant described in brackets; the judgment's terms numbered.
        let r = rels(
            "On May 2, the Court entered final judgment by consent against defendant Mr. John Doe (former Vice President of Acme Corp.) that imposed a $30,000 civil penalty.",
        );
        assert!(r.contains(&"ORDERED_TO_PAY(John Doe, ?) penalty=Money:USD 30000".to_string()), "{r:?}");
        let r = rels(
            "On May 2, Judge Alan Poe signed a Final Judgment against Mr. John Doe 1) permanently enjoining him from violating Section 17(a) of the Securities Act, 2) barring him from acting as an officer of any public company, and 3) ordering him to pay a $20,000 civil penalty.",
        );
        assert!(r.contains(&"ORDERED_TO_PAY(John Doe, ?) penalty=Money:USD 20000".to_string()), "{r:?}");
        // An injunction first, then the payment ("that permanently enjoins him … and orders
        // him to pay", ", permanently enjoining him … and ordering him to pay").
        // (The judgment against him is also the charge it follows: `CHARGED(John Doe, ?)`.)
        let r = rels(
            "On May 2, the Court entered a final judgment against Mr. John Doe that permanently enjoins him from violating Section 10(b) of the Exchange Act and orders him to pay disgorgement of $250,000 and a civil penalty of $100,000.",
        );
        assert!(r.contains(&"ORDERED_TO_PAY(John Doe, ?) disgorgement=Money:USD 250000 penalty=Money:USD 100000".to_string()), "{r:?}");
        let r = rels(
            "The court entered a final judgment by consent against Mr. John Doe, permanently enjoining him from violating the antifraud provisions and ordering him to pay disgorgement of $1,512,000.",
        );
        assert!(r.contains(&"ORDERED_TO_PAY(John Doe, ?) disgorgement=Money:USD 1512000".to_string()), "{r:?}");
        // The payer named again (as coreference reads a pronoun): the party's own name only.
        let r = rels("The court entered a final judgment against Acme Corp., ordering Acme Corp. to pay disgorgement of $400,000.");
        assert!(r.contains(&"ORDERED_TO_PAY(Acme Corp., ?) disgorgement=Money:USD 400000".to_string()), "{r:?}");
        let r = rels("The court entered a final judgment against Acme Corp., ordering Beta LLC to pay disgorgement of $400,000.");
        assert!(r.iter().all(|r| !r.starts_with("ORDERED_TO_PAY")), "{r:?}");
        // A penalty an authority assessed against X.
        assert_eq!(
            rels("FinCEN assessed a $5,000,000 civil money penalty against Acme Bank LLC for willful violations of the Bank Secrecy Act."),
            ["ORDERED_TO_PAY(Acme Bank LLC, FinCEN) penalty=Money:USD 5000000"]
        );
        assert_eq!(rels("The OCC imposed a civil money penalty of $2 million on Acme Bank LLC."), ["ORDERED_TO_PAY(Acme Bank LLC, OCC) penalty=Money:USD 2000000"]);
        assert_eq!(rels("The OCC announced a $45 million penalty against Acme Bank LLC."), ["ORDERED_TO_PAY(Acme Bank LLC, OCC) penalty=Money:USD 45000000"]);
        // Against a possessor's officer or unit: the one the apposition names, not the possessor.
        assert_eq!(
            rels("FinCEN assessed a $1 million civil money penalty against Acme Holdings Inc.'s subsidiary, Beta Bank LLC."),
            ["ORDERED_TO_PAY(Beta Bank LLC, FinCEN) penalty=Money:USD 1000000"]
        );
        assert!(rels("The judge ordered Acme Holdings Inc.'s insurer to pay $5,000.").iter().all(|r| !r.starts_with("ORDERED_TO_PAY(Acme")));
        // An authority fined X $N, and ordered it (X again) to pay more.
        assert_eq!(
            rels("FINRA fined Acme Securities LLC $250,000 and ordered Acme Securities LLC to pay $75,000 in restitution to customers."),
            ["ORDERED_TO_PAY(Acme Securities LLC, FINRA) fine=Money:USD 250000 restitution=Money:USD 75000"]
        );
        // A settlement of $N an authority announced with X; X agreed to remit $N; X, which
        // agreed to pay; charges filed and settled at once.
        // (The amount is the pattern's own: `Found::money`.)
        assert_eq!(
            rels("OFAC announced a $2,132,000 settlement with Acme Lines Ltd. for apparent violations of the sanctions regulations."),
            ["SETTLED_WITH(Acme Lines Ltd., OFAC)"]
        );
        assert_eq!(rels("Acme Lines Ltd. has agreed to remit $2,132,000 to settle its potential civil liability."), ["SETTLED_WITH(Acme Lines Ltd., ?) amount=Money:USD 2132000"]);
        // A relief defendant returns what it received; returning home pays nothing.
        assert_eq!(rels("Mrs. Linda Doe agreed to return $640,000 of investor funds."), ["SETTLED_WITH(Linda Doe, ?) amount=Money:USD 640000"]);
        // An authority's fine in the passive; a company the authority designated.
        assert_eq!(
            rels("Ms. Olivia Brandt was fined $250,000 by the Federal Reserve and barred from banking."),
            ["ORDERED_TO_PAY(Olivia Brandt, Federal Reserve) fine=Money:USD 250000"]
        );
        assert_eq!(rels("It processed payments for Caspian Shipping Lines FZCO, a company designated by OFAC in 2012."), ["DESIGNATED(OFAC, Caspian Shipping Lines FZCO)"]);
        // An authority's own order, named as its possessor.
        assert_eq!(rels("Mr. John Doe consented to the SEC's order, which bars him from the securities industry."), ["SETTLED_WITH(John Doe, ?)"]);
        assert!(rels("Mr. John Doe agreed to return to the United States to face the charges.").is_empty());
        assert_eq!(
            rels("The CFTC today filed and simultaneously settled charges against Acme Energy LLC, which agreed to pay a $1 million civil monetary penalty."),
            ["CHARGED(CFTC, Acme Energy LLC)", "CHARGED(CFTC, Acme Energy LLC)", "SETTLED_WITH(Acme Energy LLC, CFTC) penalty=Money:USD 1000000"]
        );
        // An order that imposes no payment orders none.
        assert!(rels("The SEC issued an order against Mr. John Doe that imposed a bar.").iter().all(|r| !r.starts_with("ORDERED_TO_PAY")));
    }

    /// "X was sentenced to … and ordered to pay $N": ordered, over the judge who sentenced.
    #[test]
    fn sentenced_and_ordered_to_pay() {
        assert_eq!(
            rels("Mr. John Doe, 57, was sentenced by Judge Alan Poe to 24 months in prison, three years of supervised release, and ordered to pay $24,000 in restitution."),
            ["CHARGED(John Doe, ?)", "ORDERED_TO_PAY(John Doe, ?) restitution=Money:USD 24000"]
        );
        // Assessed a fine, fined.
        assert_eq!(
            rels("Mr. John Doe was sentenced by Judge Alan Poe to two years probation and assessed a $5,000 fine."),
            ["CHARGED(John Doe, ?)", "ORDERED_TO_PAY(John Doe, ?) fine=Money:USD 5000"]
        );
        // By a judge who also ordered the party to pay; a judge who ordered the party to serve
        // a term and to pay.
        assert_eq!(
            rels("Mr. John Doe was sentenced by Judge Alan Poe, who also ordered him to pay $6,218,440 in restitution."),
            ["CHARGED(John Doe, ?)", "ORDERED_TO_PAY(John Doe, ?) restitution=Money:USD 6218440"]
        );
        assert_eq!(
            rels("Judge Alan Poe ordered Mr. John Doe to serve three years of supervised release, to pay $4,106,520 in restitution."),
            ["ORDERED_TO_PAY(John Doe, ?) restitution=Money:USD 4106520"]
        );
        // A party sentenced under a quoted alias; one indicted along with another, over its age.
        assert_eq!(rels("Mr. John Doe, a/k/a \"Mr. Ike Doe,\" has been sentenced to eight years in prison."), ["CHARGED(John Doe, ?)"]);
        assert_eq!(rels("Mr. Kofi Roe, 41, who was indicted along with Mr. John Doe in June 2022, remains a fugitive."), ["CO_DEFENDANT(Kofi Roe, John Doe)"]);
        // Each sentenced to a term of their own, in one list.
        assert_eq!(
            rels("Judge Alan Poe sentenced Mr. Roberto Gonzalez to 120 months in prison, Ms. Olga Gonzalez to 87 months in prison and Mr. Fabian Gonzalez to 87 months."),
            [
                "CO_DEFENDANT(Roberto Gonzalez, Olga Gonzalez)",
                "CO_DEFENDANT(Roberto Gonzalez, Fabian Gonzalez)",
                "CO_DEFENDANT(Olga Gonzalez, Fabian Gonzalez)",
                "CHARGED(Roberto Gonzalez, ?)",
                "CHARGED(Olga Gonzalez, ?)",
                "CHARGED(Fabian Gonzalez, ?)"
            ]
        );
        // Charged along with another: co-defendants.
        assert_eq!(
            rels("Mr. Tom Roe and Ms. Jane Roe, who were charged along with Mr. John Doe in a 2023 indictment, pleaded guilty."),
            ["CO_DEFENDANT(Tom Roe, Jane Roe)", "CO_DEFENDANT(Tom Roe, John Doe)", "CO_DEFENDANT(Jane Roe, John Doe)"]
        );
        // Members described, then listed by semicolons.
        assert_eq!(
            rels(
                "The SEC filed a complaint against Mr. John Doe, its former chief executive; Ms. Jane Roe, its former chief financial officer; and Mr. Tom Poe, who served as treasurer."
            ),
            [
                "CO_DEFENDANT(John Doe, Jane Roe)",
                "CO_DEFENDANT(John Doe, Tom Poe)",
                "CO_DEFENDANT(Jane Roe, Tom Poe)",
                "CHARGED(SEC, John Doe)",
                "CHARGED(SEC, Jane Roe)",
                "CHARGED(SEC, Tom Poe)"
            ]
        );
        // Agreed to pay to resolve investigations by two authorities; a settlement reached.
        assert_eq!(
            rels("Acme Corp. has agreed to pay more than $34 million to resolve parallel investigations by the Department of Justice and the Securities and Exchange Commission."),
            [
                "SETTLED_WITH(Acme Corp., ?) amount=Money:USD 34000000",
                "SETTLED_WITH(Acme Corp., Department of Justice)",
                "SETTLED_WITH(Acme Corp., Securities and Exchange Commission)"
            ]
        );
        assert_eq!(
            rels("Acme Corp. reached a settlement with the Securities and Exchange Commission and agreed to pay $4 million in disgorgement."),
            ["SETTLED_WITH(Acme Corp., Securities and Exchange Commission) disgorgement=Money:USD 4000000"]
        );
        // A company described, then its officers by their roles, listed by semicolons.
        assert_eq!(
            rels(
                "The SEC charged Brightwater Partners LLC, a Texas company that sold solar farms; its founder and chief executive officer, Mr. John Doe, 49, of Houston; and its former vice president of sales, Ms. Jane Roe."
            ),
            [
                "CO_DEFENDANT(Brightwater Partners LLC, John Doe)",
                "CO_DEFENDANT(Brightwater Partners LLC, Jane Roe)",
                "CO_DEFENDANT(John Doe, Jane Roe)",
                "CHARGED(SEC, Brightwater Partners LLC)",
                "CHARGED(SEC, John Doe)",
                "CHARGED(SEC, Jane Roe)"
            ]
        );
        // A list member's alias spelled out ("also known as") is no member of its own.
        assert_eq!(
            rels("An indictment was unsealed today charging Mr. Andrei Moraru, Ms. Li Wen Zhou, also known as Ms. Wendy Zhou, and Ms. Yelena Sorokina with fraud."),
            [
                "CO_DEFENDANT(Andrei Moraru, Li Wen Zhou)",
                "CO_DEFENDANT(Andrei Moraru, Yelena Sorokina)",
                "CO_DEFENDANT(Li Wen Zhou, Yelena Sorokina)",
                "CHARGED(Andrei Moraru, ?)",
                "CHARGED(Li Wen Zhou, ?)",
                "CHARGED(Yelena Sorokina, ?)"
            ]
        );
        // Designations in the present, and parties "being designated for" acting for another,
        // by OFAC rather than the department it is part of.
        assert_eq!(
            rels(
                "The Department of the Treasury's Office of Foreign Assets Control (OFAC) is designating Acme Trading LLC. Mr. Tang Wei is being designated for having acted for Acme Trading LLC."
            ),
            ["DESIGNATED(Office of Foreign Assets Control, Acme Trading LLC)", "DESIGNATED(Tang Wei, ?)"]
        );
        // A judge who sentenced the party and ordered it to pay.
        assert_eq!(
            rels("Judge Alan Poe sentenced Mr. John Doe in June to 46 months in prison and ordered him to pay $1.2 million in restitution."),
            ["CHARGED(John Doe, ?)", "ORDERED_TO_PAY(John Doe, ?) restitution=Money:USD 1200000"]
        );
        // A judgment entered by a court orders parties jointly and severally.
        assert_eq!(
            rels(
                "The judgment, entered by the U.S. District Court for the Southern District of Texas on August 2, 2017, orders Mr. John Doe and Acme Capital LLC, jointly and severally, to pay disgorgement of $1,634,507."
            ),
            ["ORDERED_TO_PAY(John Doe, ?) disgorgement=Money:USD 1634507", "ORDERED_TO_PAY(Acme Capital LLC, ?) disgorgement=Money:USD 1634507"]
        );
        // Settled proceedings of a few words with the authority.
        assert_eq!(
            rels("Mr. John Doe has settled separate administrative proceedings with the Securities and Exchange Commission."),
            ["SETTLED_WITH(John Doe, Securities and Exchange Commission)"]
        );
        // Parties designated under an order, the designating authority implied.
        assert_eq!(
            rels("Mr. Levent Aydemir and Bosphorus Teknik Ltd are being designated pursuant to Executive Order (E.O.) 14024."),
            ["DESIGNATED(Levent Aydemir, ?)", "DESIGNATED(Bosphorus Teknik Ltd, ?)"]
        );
        assert_eq!(
            rels(
                "The final judgments, entered on October 8, 2025 by Judge Theresa M. Kowalczyk, order Mr. Gregory Amsel and Amsel Partners LLC, jointly and severally, to pay disgorgement of $3,100,000."
            ),
            ["ORDERED_TO_PAY(Gregory Amsel, ?) disgorgement=Money:USD 3100000", "ORDERED_TO_PAY(Amsel Partners LLC, ?) disgorgement=Money:USD 3100000"]
        );
        // A party's co-defendant.
        assert_eq!(rels("Mr. John Doe's co-defendant, Mr. Carl Roe, pleaded guilty."), ["CHARGED(Carl Roe, ?)", "CO_DEFENDANT(John Doe, Carl Roe)"]);
        // A penalty of $N to be paid by X.
        assert_eq!(rels("The civil penalty of $15,959.16 to be paid by Mr. John Doe equals his profits."), ["ORDERED_TO_PAY(John Doe, ?) penalty=Money:USD 15959.16"]);
        // Another person's sentence between them is not the party's order.
        assert!(
            rels("Mr. John Doe was sentenced to 24 months and Mr. Carl Roe was sentenced to 12 months and ordered to pay $24,000.")
                .iter()
                .all(|r| !(r.starts_with("ORDERED_TO_PAY") && r.contains("John Doe")))
        );
    }

    /// A coordinated subject acts as one, where the list opens its clause.
    #[test]
    fn a_list_of_subjects_each_acts() {
        assert_eq!(
            rels("Mr. John Doe and Mr. Carl Roe pleaded guilty today to conspiring to defraud Acme Holdings LLC."),
            // (A plea follows a prosecutor's charge: both were charged, together.)
            [
                "CO_DEFENDANT(John Doe, Carl Roe)",
                "CHARGED(John Doe, ?)",
                "CHARGED(Carl Roe, ?)",
                "DEFRAUDED(John Doe, Acme Holdings LLC)",
                "DEFRAUDED(Carl Roe, Acme Holdings LLC)"
            ]
        );
        assert_eq!(
            rels("The jury found that Mr. John Doe, Mr. Carl Roe and Mr. Dan Poe defrauded Acme Holdings LLC."),
            ["DEFRAUDED(John Doe, Acme Holdings LLC)", "DEFRAUDED(Carl Roe, Acme Holdings LLC)", "DEFRAUDED(Dan Poe, Acme Holdings LLC)"]
        );
        // Governed by a preposition, the names before the last are no subjects.
        assert_eq!(rels("According to Mr. John Doe, Mr. Carl Roe and Mr. Dan Poe defrauded Acme Holdings LLC."), ["DEFRAUDED(Dan Poe, Acme Holdings LLC)"]);
    }

    /// Kickbacks or bribes someone conspired or agreed to pay to a named party are paid to it.
    #[test]
    fn kickbacks_to_pay() {
        assert_eq!(rels("Mr. John Doe conspired to pay kickbacks to Dr. Alan Poe in exchange for patient referrals."), ["PAID(John Doe, Alan Poe)"]);
        // (An age after the payer's name.)
        assert_eq!(rels("Mr. John Doe, 55, paid kickbacks to Dr. Alan Poe in exchange for patient referrals."), ["PAID(John Doe, Alan Poe)"]);
        assert!(rels("Mr. John Doe was asked to pay the invoice to Dr. Alan Poe.").is_empty());
    }

    #[test]
    fn payments_orders_and_settlements() {
        assert_eq!(rels("Mr. Spera allegedly paid Mr. Hirsch $50,000."), Vec::<String>::new(), "PAID lives in relations.rs");
        assert_eq!(rels("Acme Corp. agreed to pay a $25,000 civil penalty."), ["SETTLED_WITH(Acme Corp., ?) penalty=Money:USD 25000"]);
        assert_eq!(
            rels("Mr. John Doe was ordered to pay disgorgement of $62,029 plus $9,511 in prejudgment interest and a civil penalty of $100,000."),
            ["ORDERED_TO_PAY(John Doe, ?) disgorgement=Money:USD 62029 prejudgment_interest=Money:USD 9511 penalty=Money:USD 100000"]
        );
        // A comma ends the phrase after an amount: the interest named in the next item is not the disgorgement's kind.
        assert_eq!(
            rels("Delta Holdings Inc. agreed to disgorge $1,200, pay prejudgment interest of $300 and pay a civil penalty of $5,000."),
            ["SETTLED_WITH(Delta Holdings Inc., ?) disgorgement=Money:USD 1200 prejudgment_interest=Money:USD 300 penalty=Money:USD 5000"]
        );
        assert_eq!(rels("Beta LLC misappropriated $2.4 million from Gamma Fund."), ["MISAPPROPRIATED_FROM(Beta LLC, Gamma Fund)"]);
        // From the party's employer (client, firm), named in an apposition.
        assert_eq!(rels("Mr. John Doe embezzled approximately $800,000 from his employer, Gamma Bank LLC."), ["MISAPPROPRIATED_FROM(John Doe, Gamma Bank LLC)"]);
        assert_eq!(rels("Beta LLC ran a scheme to defraud Gamma Fund."), ["DEFRAUDED(Beta LLC, Gamma Fund)"]);
    }

    /// The words that place a criminal case in a federal court; a court's only in the
    /// sentence itself, and none where the sentence names a state's court or prosecutor.
    #[test]
    fn federal_words_place_a_case() {
        let words = |t: &str, s: bool| super::federal_words(t, s).federal().map(|(a, b)| t[a..b].to_string());
        assert_eq!(words("Roe was indicted by a federal grand jury in Tampa.", false).as_deref(), Some("federal grand jury"));
        assert_eq!(words("Roe faces 20 years in Federal Prison.", false).as_deref(), Some("Federal Prison"));
        assert_eq!(words("announced U.S. Attorney Jane Doe.", false).as_deref(), Some("U.S. Attorney"));
        assert_eq!(words("Roe pleaded guilty before U.S. District Judge Jane Doe.", true).as_deref(), Some("U.S. District Judge"));
        assert_eq!(words("Roe pleaded guilty before U.S. District Judge Jane Doe.", false), None);
        assert_eq!(words("Roe pleaded guilty in federal court in Boston.", true).as_deref(), Some("federal court"));
        assert_eq!(super::federal_words("Roe pleaded guilty in Superior Court to charges a federal jury heard.", true), super::CaseIn::State);
        assert_eq!(words("The District Attorney said Roe pleaded guilty.", true), None);
        assert_eq!(super::federal_words("Roe pleaded guilty in New York State Supreme Court and faces federal prison.", true), super::CaseIn::State);
        assert_eq!(words("Roe pleaded guilty to wire fraud.", true), None);
        assert_eq!(words("See United States v. Roe, No. 19-cr-1.", false).as_deref(), Some("United States v. "));
    }
}
