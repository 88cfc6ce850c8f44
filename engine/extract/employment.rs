//! Employment and office stated in biography and enforcement prose, over the same typed
//! templates as [`super::relations`] (`«O0»` an organisation, `«P1»` a person, `«D2»` a date):
//! where a person worked, as the career sentences of releases, filings and press releases
//! put it.
//!
//! - `EMPLOYED_BY`: "X served as Assistant Controller of Y", "X was at Y, where he …",
//!   "X was with Y from 1998 to 2005", "while at Y, X …", "during his 28 years with Y, X …",
//!   "X, formerly with Y", "X, who was a partner with Y", "X … prior to joining Y",
//!   "X was hired by Y", "an employment agreement between Y and X".
//! - `OFFICER_OF` (with the role): "X was promoted to / named / appointed president of Y",
//!   "X, formerly the CFO of Y", "Y founder and CEO X".
//! - `DIRECTOR_OF`: "X has been a director on the boards of (both) Y and Z".
//! - `ASSOCIATED_WITH`: "X, a registered representative associated with Y" (the securities
//!   laws' "associated person": a tie weaker than employment).
//!
//! A pair that another pattern already relates as employee, officer or director gets no
//! second claim from here. Every pattern lists cue words one of which any match contains
//! (any case); a template without them is not searched.

use std::sync::LazyLock;

use regex::Regex;

use super::relations::{AN_AGE, Found, HOME};

/// A person, a title allowed before the name; the subject.
const PER: &str = r"(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+)?«P(?P<s>\d+)»";
/// The organisation; the object.
const ORG: &str = r"«O(?P<o>\d+)»";
/// A second organisation of a list ("Y and Z").
const ORG2: &str = r"«O(?P<o2>\d+)»";
/// Text without a placeholder.
const GAP: &str = r"[^«»]{0,60}?";
/// Text with no placeholder but dates and organisations ("who was a partner with «O1»
/// prior to joining «O2»").
const WIDE: &str = r"(?:[^«»]|«[OD]\d+»){0,100}?";

/// Role words of an office, as `relations` reads them.
const OFFICE: &str = r"(?P<role>(?:(?i:principal vice president|chief [a-z]+ officer|chief executive officer|chief executive|chief financial officer|chief operating officer|chief accounting officer|chairman of the board|chairman|chairwoman|senior vice president|executive vice president|vice president|president|secretary|treasurer|general counsel|managing director|compliance officer|controller)|CEO|CFO|COO)(?:(?:\s*,\s*|\s*,?\s+(?:and|&)\s+)(?:(?i:chief executive officer|chief executive|chief financial officer|chief operating officer|chairman|president|secretary|treasurer|vice president)|CEO|CFO|COO)){0,3})";

/// A job title in capitals ("Assistant Controller", "International Subsidiaries Manager",
/// "Vice President of Operations"): capitalised words, with "of", "and", "&" between them.
const TITLE: &str = r"(?P<title>(?:[A-Z][\w&.-]*|of|and|&|,)(?:\s+(?:[A-Z][\w&.-]*|of|and|&)){0,7})";

/// Title words of a role that is no employment by the organisation named: a court's
/// receiver or monitor, a trustee, outside counsel, an auditor, an agent.
const NOT_EMPLOYED: &[&str] = &["receiver", "trustee", "monitor", "examiner", "counsel", "auditor", "auditors", "agent", "adviser", "advisor", "consultant"];

struct Pattern {
    rel: &'static str,
    cues: &'static [&'static str],
    re: Regex,
}

fn pat(rel: &'static str, cues: &'static [&'static str], p: &str) -> Pattern {
    let p = p.replace(r"\b", r"(?-u:\b)");
    Pattern { rel, cues, re: tg_text::pattern::constant(&p) }
}

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    // (A role's words may be wrapped over lines: "chief financial⏎officer".)
    let office = OFFICE.replace(' ', r"\s+");
    let has_been = r"(?:is|was|has\s+been|had\s+been|have\s+been|will\s+be)\s+(?:also\s+|previously\s+|recently\s+|since\s+)?";
    vec![
        // X served as Assistant Controller of Y / serves as EVP and COO for Y
        pat(
            "EMPLOYED_BY",
            &["serve", "serving"],
            &format!(
                r"{PER}{GAP}\b(?:served|serves|serving|will\s+serve)\s+as\s+(?:the\s+|an?\s+|its\s+|our\s+)?(?:former\s+|interim\s+|acting\s+)?{TITLE}\s+(?:of|for|at|with)\s+(?:the\s+)?{ORG}"
            ),
        ),
        // X was at Y, where he served … / X was with Y from April 1998 (to …)
        pat(
            "EMPLOYED_BY",
            &["where", "from", "since", "between", "until"],
            &format!(
                r"{PER}\s*,?\s+(?:was|had\s+been|has\s+been)\s+(?:previously\s+|also\s+|formerly\s+)?(?:at|with)\s+(?:the\s+)?{ORG}(?:\s*,\s*where\s+(?:he|she)\s+(?:served|was|worked|held)\b|\s+(?:from|since|between|until)\s+(?:(?:19|20)\d\d\b|«D\d+»))"
            ),
        ),
        // While (he was) at Y, X … / During his 28 years with Y (and then Z), X …
        pat("EMPLOYED_BY", &["while", "during"], &format!(r"\b(?i:while)\s+(?:(?:he|she)\s+was\s+)?(?:at|with|employed\s+(?:at|by|with))\s+(?:the\s+)?{ORG}\s*,\s*{PER}")),
        pat(
            "EMPLOYED_BY",
            &["while", "during"],
            &format!(
                r"\b(?i:during)\s+(?:his|her)\s+(?:[\w-]+\s+){{0,3}}?(?:years?|tenure|time|employment|career)\s+(?:at|with)\s+(?:the\s+)?{ORG}(?:\s*,?\s+and\s+(?:then\s+|later\s+)?{ORG2})?\s*,\s*{PER}"
            ),
        ),
        // X, formerly with Y / X, previously of Y
        pat("EMPLOYED_BY", &["formerly", "previously"], &format!(r"{PER}\s*,\s+(?:formerly|previously)\s+(?:of|with|at)\s+(?:the\s+)?{ORG}")),
        // X, who was a partner with (the accounting firm of) Y / X is a CPA who was a partner at Y
        pat(
            "EMPLOYED_BY",
            &["partner", "employee", "broker", "banker", "analyst", "accountant", "associate", "trader", "manager", "engineer"],
            &format!(
                r"{PER}{GAP}\bwho\s+(?:is|was|had\s+been|has\s+been)\s+(?:also\s+|previously\s+|formerly\s+)?(?:a|an)\s+(?:[\w-]+\s+){{0,3}}?(?i:partner|employee|stockbroker|broker|banker|analyst|accountant|associate|trader|manager|engineer)\s+(?:with|at|for|of)\s+(?:the\s+(?:[\w-]+\s+){{0,3}}?(?:firm|company|bank)\s+of\s+)?{ORG}"
            ),
        ),
        // X … prior to joining Y (the organisations between allowed: the earlier employers)
        pat("EMPLOYED_BY", &["joining"], &format!(r"{PER}{WIDE}\b(?i:prior\s+to|before|until)\s+joining\s+(?:the\s+)?{ORG}")),
        // X was hired (as a broker) by Y
        pat("EMPLOYED_BY", &["hired"], &format!(r"{PER}{GAP}\b(?:was|were|had\s+been|has\s+been)\s+hired\s+(?:as\s+{GAP}\s+)?by\s+(?:the\s+)?{ORG}")),
        // an employment agreement (dated …) between Y and X / by and between X and Y
        pat("EMPLOYED_BY", &["employment"], &format!(r"\b(?i:employment)\s+(?i:agreement)\b{WIDE}\bbetween\s+{ORG}\s*,?\s+and\s+{PER}")),
        pat("EMPLOYED_BY", &["employment"], &format!(r"\b(?i:employment)\s+(?i:agreement)\b{WIDE}\bbetween\s+{PER}\s*,?\s+and\s+{ORG}")),
        // X was promoted to / named / appointed (as) president of Y
        pat(
            "OFFICER_OF",
            &["promoted", "named", "appointed", "elected"],
            &format!(
                r"{PER}{GAP}\b{has_been}(?:promoted|named|appointed|elected)\s+(?:to\s+(?:the\s+(?:position|post|role|office)\s+of\s+)?|as\s+)?(?:the\s+|an?\s+|its\s+)?(?:new\s+|interim\s+|acting\s+)?{office}\s+(?:of|at|for)\s+(?:the\s+)?{ORG}"
            ),
        ),
        // X, formerly the CFO of Y
        pat("OFFICER_OF", &["formerly", "previously"], &format!(r"{PER}\s*,\s+(?:formerly|previously)\s+(?:the\s+|an?\s+|its\s+)?{office}\s+(?:of|at)\s+(?:the\s+)?{ORG}")),
        // Y founder and CEO X
        pat("OFFICER_OF", &["founder"], &format!(r"{ORG}(?:['’]s?)?\s+(?i:co-?founder|founder)\s*,?\s+(?:and|&)\s+{office},?\s+{PER}")),
        // X has been a director on the boards of (both) Y and Z
        pat(
            "DIRECTOR_OF",
            &["board"],
            &format!(
                r"{PER}{GAP}\b(?:is|was|has\s+been|had\s+been|serves|served)\s+(?:also\s+)?(?:as\s+)?(?:a\s+)?(?:director|member)\s+(?:on|of)\s+the\s+boards?\s+(?:of\s+directors\s+)?of\s+(?:both\s+)?{ORG}(?:\s*,?\s+and\s+{ORG2})?"
            ),
        ),
        // X, a registered representative associated with Y / X was associated with Y / X, 45,
        // of «L», «L», was a registered representative associated with Y
        pat(
            "ASSOCIATED_WITH",
            &["associated"],
            &format!(
                r"{PER}{AN_AGE}?{HOME}\s*,?\s+(?:(?:is|was|were|had\s+been|has\s+been)\s+)?(?:(?:a|an)\s+(?:[\w-]+\s+){{0,3}}?)?(?:formerly\s+|previously\s+)?associated\s+with\s+(?:the\s+)?{ORG}"
            ),
        ),
    ]
});

/// The cue groups of the patterns: bit `i` for pattern `i` (shared with
/// [`super::relations`], which finds every module's cues in one pass).
pub(super) fn cue_groups() -> Vec<super::entities::CueGroup> {
    PATTERNS.iter().enumerate().map(|(i, p)| super::entities::CueGroup { bits: 1u128 << i, exact: false, whole: false, words: p.cues }).collect()
}

static CUES: LazyLock<super::entities::CueSet> = LazyLock::new(|| super::entities::CueSet::with_lanes(&[&cue_groups()]));

fn group(c: &regex::Captures, name: &str) -> Option<usize> {
    c.name(name).and_then(|m| m.as_str().parse().ok())
}

/// The employment relations of one sentence's template that `already` (the other
/// patterns' findings) does not state for the same pair.
pub fn find(template: &str, already: &[Found]) -> Vec<Found> {
    find_with(template, already, None)
}

/// [`find`] with the template's cue groups ([`cue_groups`]) when already found.
pub(super) fn find_with(template: &str, already: &[Found], present: Option<u128>) -> Vec<Found> {
    let mut out: Vec<Found> = vec![];
    if !template.contains("«P") || !template.contains("«O") {
        return out;
    }
    let present = present.unwrap_or_else(|| CUES.present(template));
    let related = |out: &[Found], s: usize, o: usize| {
        already.iter().chain(out.iter()).any(|f| f.subject == s && f.object == o && matches!(f.rel, "EMPLOYED_BY" | "OFFICER_OF" | "DIRECTOR_OF"))
    };
    for (i, p) in PATTERNS.iter().enumerate() {
        if present & (1u128 << i) == 0 || !p.re.is_match(template) {
            continue;
        }
        for c in p.re.captures_iter(template) {
            let Some(s) = group(&c, "s") else { continue };
            // A title that names no employment ("Receiver for Y", "Counsel to Y").
            if let Some(t) = c.name("title")
                && t.as_str().split(|ch: char| !ch.is_alphanumeric()).any(|w| NOT_EMPLOYED.iter().any(|n| w.eq_ignore_ascii_case(n)))
            {
                continue;
            }
            let role = c.name("role").map(|r| r.as_str().split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase());
            for o in [group(&c, "o"), group(&c, "o2")].into_iter().flatten() {
                if s == o || related(&out, s, o) {
                    continue;
                }
                out.push(Found { rel: p.rel, subject: s, object: o, money: None, date: None, role: role.clone(), extra: vec![] });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{entities, relations};

    /// The employment relations of a sentence, by the rule finders' mentions.
    fn rels(s: &str) -> Vec<String> {
        let ms = entities::find(s, (0, s.len()), None);
        let t = relations::template(s, 0, &ms);
        super::find(&t, &[]).into_iter().map(|f| format!("{}({}, {})", f.rel, ms[f.subject].surface, ms[f.object].surface)).collect()
    }

    #[test]
    fn career_sentences() {
        assert_eq!(rels("Mr. John Doe served as Assistant Controller of Omega Corp from 2001 to 2004."), ["EMPLOYED_BY(John Doe, Omega Corp)"]);
        assert_eq!(rels("Mr. John Doe was at Omega Corp, where he served in sales."), ["EMPLOYED_BY(John Doe, Omega Corp)"]);
        assert_eq!(rels("While at Omega Corp, Mr. John Doe sold notes."), ["EMPLOYED_BY(John Doe, Omega Corp)"]);
        assert_eq!(
            rels("During his ten years with Omega Corp and then Beta Ltd, Mr. John Doe sold notes."),
            ["EMPLOYED_BY(John Doe, Omega Corp)", "EMPLOYED_BY(John Doe, Beta Ltd)"]
        );
        assert_eq!(rels("Mr. John Doe, formerly with Omega Corp, was charged."), ["EMPLOYED_BY(John Doe, Omega Corp)"]);
        assert_eq!(rels("Mr. John Doe, who was a partner with the accounting firm of Omega LLP, resigned."), ["EMPLOYED_BY(John Doe, Omega LLP)"]);
        assert_eq!(rels("Mr. John Doe worked in audit prior to joining Omega Corp in 2005."), ["EMPLOYED_BY(John Doe, Omega Corp)"]);
        assert_eq!(rels("Mr. John Doe was hired as a broker by Omega Securities LLC in 2010."), ["EMPLOYED_BY(John Doe, Omega Securities LLC)"]);
        assert_eq!(rels("Employment Agreement, dated as of May 1, 2001, between Omega Corp and Mr. John Doe."), ["EMPLOYED_BY(John Doe, Omega Corp)"]);
    }

    #[test]
    fn offices_boards_and_associations() {
        assert_eq!(rels("Mr. John Doe was promoted to president of Omega Corp last year."), ["OFFICER_OF(John Doe, Omega Corp)"]);
        assert_eq!(rels("Mr. John Doe, formerly the CFO of Omega Corp, pleaded guilty."), ["OFFICER_OF(John Doe, Omega Corp)"]);
        assert_eq!(
            rels("Mr. John Doe has been a director on the boards of both Omega Corp and Beta Ltd since 2011."),
            ["DIRECTOR_OF(John Doe, Omega Corp)", "DIRECTOR_OF(John Doe, Beta Ltd)"]
        );
        assert_eq!(rels("Mr. John Doe, a registered representative associated with Omega Securities LLC, churned accounts."), ["ASSOCIATED_WITH(John Doe, Omega Securities LLC)"]);
        assert_eq!(rels("Mr. John Doe, 45, was a registered representative associated with Omega Securities LLC."), ["ASSOCIATED_WITH(John Doe, Omega Securities LLC)"]);
    }

    #[test]
    fn what_is_no_employment() {
        // A receiver, a trustee, outside counsel serve the organisation from outside.
        assert!(rels("Mr. John Doe served as Receiver for Omega Corp.").is_empty());
        assert!(rels("Mr. John Doe served as Trustee of the Omega Trust.").is_empty());
        // Visiting is not working there; nor is a meeting with it.
        assert!(rels("Mr. John Doe was at Omega Corp on Monday.").is_empty());
        assert!(rels("Mr. John Doe met with Omega Corp in May 2020.").is_empty());
    }
}
