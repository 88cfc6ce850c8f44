//! How a sentence holds what it says: modality, polarity, and corrections.
//!
//! Cue lexicons, checked inside the claim's own quote span only, so an attribution
//! elsewhere in the document never changes a claim.

use std::sync::LazyLock;

use regex::Regex;

/// How the source holds a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Modality {
    /// Stated as fact.
    Assertion,
    /// Attributed to someone ("according to", "X said that", "reportedly").
    Reported,
    /// Hedged ("may", "appears to", "suspected").
    Hedged,
    /// Denied ("did not", "denied that", "no evidence that").
    Denied,
    /// Left open ("unclear whether", "could not determine").
    Undecided,
    /// Asked.
    Question,
}

impl Modality {
    /// The lower-case name stored in facts.
    pub fn name(self) -> &'static str {
        match self {
            Modality::Assertion => "assertion",
            Modality::Reported => "reported",
            Modality::Hedged => "hedged",
            Modality::Denied => "denied",
            Modality::Undecided => "undecided",
            Modality::Question => "question",
        }
    }

    /// Parses a stored name.
    pub fn parse(s: &str) -> Option<Modality> {
        Some(match s {
            "assertion" => Modality::Assertion,
            "reported" => Modality::Reported,
            "hedged" => Modality::Hedged,
            "denied" => Modality::Denied,
            "undecided" => Modality::Undecided,
            "question" => Modality::Question,
            _ => return None,
        })
    }
}

fn re(p: &str) -> Regex {
    // ASCII word boundaries: the cue words are English, and a Unicode `\b` sends the
    // regex engine from its DFA to a slower search on any non-ASCII text.
    super::entities::re(p)
}

static UNDECIDED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:unclear|not clear|unknown|not known|undetermined|uncertain)\s+(?:whether|if)\b|\b(?:could|can|did)\s+not\s+(?:determine|establish|confirm|verify)\b|\bremains?\s+(?:unclear|to be determined|open)\b",
    )
});
static DENIED: LazyLock<Regex> = LazyLock::new(|| {
    // Case matters: "May" is a month, "States" a country's name, "Never" rarely starts a claim.
    re(
        r"\b(?:[Dd]id|[Dd]oes|[Dd]o|[Hh]as|[Hh]ave|[Hh]ad|[Ww]as|[Ww]ere|[Ii]s|[Aa]re)\s+not\b|\b(?:didn't|doesn't|don't|hasn't|haven't|wasn't|weren't|isn't|aren't|never|[Nn]ever)\b|\bdenied\b|\bdenies\b|\b[Nn]o evidence\b|\bfalsely\b|\brejected the claim\b|\b(?i:acquisition|merger|takeover|purchase|deal|sale)\b[^.;]{0,60}?\b(?:cancell?ed|called off|abandoned|scrapped|terminated|blocked|collapsed)\b",
    )
});
static HEDGED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:may|might|could|possibly|[Pp]ossibly|perhaps|[Pp]erhaps|probably|likely|apparently|[Aa]pparently|presumably|suspected|suspect|suspects|allegedly|[Aa]llegedly|seems?|seemed|appears?|appeared|believed|potentially|purportedly|purported\s+(?:to|owners?|officers?|directors?|president|chief|ceo|head|founders?|partners?|subsidiary|affiliates?|parent|agents?|employees?|managers?|members?|principals?|beneficial|controller|sole)|[Ii]f|[Uu]nless)\b",
    )
});
static REPORTED: LazyLock<Regex> = LazyLock::new(|| {
    // "claims", "reports" and "states" are nouns as often as verbs ("false claims against
    // the United States", "suspicious activity reports"): verbs only before "that".
    re(
        r"\b[Aa]ccording to\b|\b[Rr]eportedly\b|\b(?:said|says|stated|told|alleged|alleges|claimed|reported|testified|wrote|asserted|asserts|informed|indicated)\b(?:\s+(?:that|to))?|\b(?:claims|reports|states)\s+that\b",
    )
});
static CORRECTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:corrected|correction|restated|restates|should read|amends|amended|is hereby withdrawn|hereby withdraws?|withdrawn|supersedes?|superseded|replaces|the correct (?:total|amount|figure) is)\b",
    )
});

/// `text` without a settlement's formula "without admitting or denying the allegations (of
/// the complaint)", blanked to spaces: its "alleged" and "denying" attribute or deny nothing.
/// So is "the conduct alleged in the complaint", a judgment's name for what it remedies.
fn without_formula(text: &str) -> std::borrow::Cow<'_, str> {
    static FORMULA: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)\bwithout\s+(?:admitting\s+or\s+denying|denying\s+or\s+admitting)\b[^,;.]*|\b(?:conduct|facts|violations?|misconduct|scheme|acts)\s+(?:as\s+)?alleged\s+(?:in|by)\b",
        )
    });
    if !text.contains("admitting") && !text.contains("Admitting") && !text.contains("ADMITTING") && !text.contains("alleged") {
        return std::borrow::Cow::Borrowed(text);
    }
    FORMULA.replace_all(text, |c: &regex::Captures| " ".repeat(c[0].len()))
}

/// The modality of a quote: the first matching class in the order undecided, question,
/// denied, hedged, reported, else assertion.
pub fn modality(quote: &str) -> Modality {
    let quote = &*without_formula(quote);
    if UNDECIDED.is_match(quote) {
        Modality::Undecided
    } else if quote.trim_end().ends_with('?') {
        Modality::Question
    } else if DENIED.is_match(quote) {
        Modality::Denied
    } else if HEDGED.is_match(quote) {
        Modality::Hedged
    } else if REPORTED.is_match(quote) {
        Modality::Reported
    } else {
        Modality::Assertion
    }
}

/// The modality a sentence's earlier text imposes on a later clause: undecided ("unclear
/// whether …") or reported (attribution words, "according to"), which scope to the end of the
/// sentence; `None` when it imposes none (denials and hedges govern only their own clause).
pub fn governing(prefix: &str) -> Option<Modality> {
    let prefix = &*without_formula(prefix);
    if UNDECIDED.is_match(prefix) {
        Some(Modality::Undecided)
    } else if REPORTED.is_match(prefix) {
        Some(Modality::Reported)
    } else {
        None
    }
}

/// Whether the text before a relation asks for it ("The complaint seeks an order …", "the
/// Commission asked the court to order …"): relief sought, not granted.
pub fn sought(prefix: &str) -> bool {
    static SOUGHT: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:seeks?|sought|seeking|requests?|requested|requesting|asks?|asked|asking|moved\s+for|moves\s+for)\b"));
    SOUGHT.is_match(prefix)
}

/// Whether the text of a sentence up to a wrongdoing's claim charges it without a finding:
/// "X was indicted today for his role in a conspiracy to defraud Y" alleges the fraud (the
/// charge is the authority's claim, not a fact the document states), where "X pleaded
/// guilty to …", "X was convicted of …" or "X was sentenced for …" state it as found.
pub fn charged_not_found(prefix: &str) -> bool {
    static CHARGE: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:charged|charges|charging|indicted|indictment|accused|arrested|complaint)\b"));
    static FOUND: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:pleaded|pled|convicted|sentenced|guilty|admitted|admits|consented|agreed)\b"));
    CHARGE.is_match(prefix) && !FOUND.is_match(prefix)
}

/// Whether the attribution before a charge's party is the charging paper's own: "the
/// complaint alleges that X …", "according to the complaint, X …", "filed a complaint,
/// which alleged that X …", "the Commission's action … alleged that X …". Its allegation is the charge, so the charge itself (who was
/// charged, who with whom) is stated, not reported; what it says the party did stays
/// reported.
pub fn charging_paper(prefix: &str) -> bool {
    static PAPER: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"\b(?:[Cc]omplaints?|[Ii]ndictments?|[Ii]nformation|(?:[Cc]ommission|SEC|CFTC|FTC)['’]s\s+(?:civil\s+)?(?:action|lawsuit|suit))\b[^.;]{0,120}\b(?:alleges|alleged|alleging|charges|charged|names|named)\b|\b[Aa]ccording\s+to\s+(?:the\s+)?[^.;,]{0,60}\b(?:complaint|indictment)\b",
        )
    });
    PAPER.is_match(prefix)
}

/// The span (relative to the quote) of a correction cue, if the quote has one.
pub fn correction(quote: &str) -> Option<(usize, usize)> {
    CORRECTION.find(quote).map(|m| (m.start(), m.end()))
}

/// The span (relative to the quote) of a denial's verb ("denied", "denies"): the denier
/// is the party named just before it.
pub fn denial(quote: &str) -> Option<(usize, usize)> {
    static DENIAL: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:denied|denies)\b"));
    DENIAL.find(quote).map(|m| (m.start(), m.end()))
}

/// The span (relative to the quote) of the words that attribute it ("according to",
/// "said"), to find the asserter next to them.
pub fn attribution(quote: &str) -> Option<(usize, usize)> {
    REPORTED.find(quote).map(|m| (m.start(), m.end()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_modalities() {
        assert_eq!(modality("Acme wired USD 1m to Beta."), Modality::Assertion);
        assert_eq!(modality("According to Reuters, Acme wired USD 1m to Beta."), Modality::Reported);
        assert_eq!(modality("Acme may have wired USD 1m to Beta."), Modality::Hedged);
        // A condition states nothing done.
        assert_eq!(modality("If Acme wired USD 1m to Beta, it would have violated the rules."), Modality::Hedged);
        assert_eq!(modality("Unless Acme wires USD 1m to Beta, the deal lapses."), Modality::Hedged);
        // "Purported" hedges a role or what follows "to", not the thing a payment bought.
        assert_eq!(modality("Acme paid Beta $3.1 million in purported consulting fees."), Modality::Assertion);
        assert_eq!(modality("Doe, the purported owner of Acme, wired USD 1m to Beta."), Modality::Hedged);
        assert_eq!(modality("Doe purported to act for Acme."), Modality::Hedged);
        assert_eq!(modality("Doe purportedly wired USD 1m to Beta."), Modality::Hedged);
        assert_eq!(modality("Acme did not wire USD 1m to Beta."), Modality::Denied);
        // A deal called off was not done.
        assert_eq!(modality("Nvidia's acquisition of Arm cancelled due to regulatory challenges"), Modality::Denied);
        assert_eq!(modality("The merger of Acme and Beta was terminated in May."), Modality::Denied);
        assert_eq!(modality("Acme terminated its CFO, John Doe."), Modality::Assertion);
        assert_eq!(modality("It is unclear whether Acme wired USD 1m to Beta."), Modality::Undecided);
        assert_eq!(modality("Did Acme wire USD 1m to Beta?"), Modality::Question);
        // Months and countries are not cues.
        assert_eq!(modality("In May 2024 the United States Attorney charged Acme."), Modality::Assertion);
        // A settlement's formula attributes nothing.
        assert_eq!(modality("Without admitting or denying the facts alleged in the complaint, Doe agreed to pay $5,000."), Modality::Assertion);
        assert_eq!(governing("Without admitting or denying the facts alleged in the complaint, "), None);
        assert_eq!(modality("The complaint alleged that Doe, without admitting or denying it, paid."), Modality::Reported);
        assert_eq!(modality("It is ordered that Doe is liable for disgorgement of $5,000, the profits of the conduct alleged in the Complaint."), Modality::Assertion);
        assert!(sought("The amended complaint seeks a court order requiring "));
        assert!(!sought("The court entered an order requiring "));
        assert_eq!(correction("The amount restated for Beta is USD 1,940,000."), Some((11, 19)));
        // "claims", "reports", "states": nouns unless "that" follows.
        assert_eq!(modality("A jury found Doe guilty of making false claims against the United States."), Modality::Assertion);
        assert_eq!(modality("Acme filed suspicious activity reports on Beta."), Modality::Assertion);
        assert_eq!(modality("Doe claims that Acme wired USD 1m to Beta."), Modality::Reported);
        assert_eq!(modality("The memo states that Acme wired USD 1m to Beta."), Modality::Reported);
    }
}
