//! Authorities as organisation mentions: regulators, prosecutors and courts named in
//! enforcement prose ("the Securities and Exchange Commission", "the SEC", "FinCEN", "the
//! United States Attorney's Office for the District of New Jersey", "the U.S. District
//! Court for the Southern District of New York"), which have no legal-form word for the
//! organisation finder to see.
//!
//! A precise rule layer: a closed lexicon of agency names and acronyms (each variant keyed
//! to one canonical name, so "SEC" and "Securities and Exchange Commission" are one
//! entity) plus two shapes with a district (U.S. Attorneys, federal courts). Later uses
//! such as "the Commission" or "the Court" are coreference's job (`extract::mod`).
//!
//! The same pass finds the public health-benefit programs (Medicare, Medicaid, …) as
//! organisations that are no authorities: the victims health-care fraud names most.

use std::sync::LazyLock;

use regex::Regex;

use super::entities::{Mention, collapse, resolve_overlaps};
use tg_text::document::Span;

/// Agency names and acronyms as written (case-sensitive), with the canonical name that keys them.
const LEXICON: &[(&str, &str)] = &[
    ("Securities and Exchange Commission", "securities and exchange commission"),
    ("U.S. Securities and Exchange Commission", "securities and exchange commission"),
    ("United States Securities and Exchange Commission", "securities and exchange commission"),
    ("SECURITIES AND EXCHANGE COMMISSION", "securities and exchange commission"),
    ("SEC", "securities and exchange commission"),
    ("Commodity Futures Trading Commission", "commodity futures trading commission"),
    ("CFTC", "commodity futures trading commission"),
    ("Department of Justice", "department of justice"),
    ("U.S. Department of Justice", "department of justice"),
    ("United States Department of Justice", "department of justice"),
    ("Justice Department", "department of justice"),
    ("DOJ", "department of justice"),
    ("Financial Crimes Enforcement Network", "financial crimes enforcement network"),
    ("FinCEN", "financial crimes enforcement network"),
    ("Financial Industry Regulatory Authority", "financial industry regulatory authority"),
    ("FINRA", "financial industry regulatory authority"),
    ("National Association of Securities Dealers", "national association of securities dealers"),
    ("NASD", "national association of securities dealers"),
    ("Federal Bureau of Investigation", "federal bureau of investigation"),
    ("FBI", "federal bureau of investigation"),
    ("Internal Revenue Service", "internal revenue service"),
    ("IRS", "internal revenue service"),
    ("Office of Foreign Assets Control", "office of foreign assets control"),
    ("OFAC", "office of foreign assets control"),
    ("Federal Trade Commission", "federal trade commission"),
    ("FTC", "federal trade commission"),
    ("Federal Reserve Board", "federal reserve board"),
    ("Board of Governors of the Federal Reserve System", "federal reserve board"),
    ("Office of the Comptroller of the Currency", "office of the comptroller of the currency"),
    ("OCC", "office of the comptroller of the currency"),
    ("Federal Deposit Insurance Corporation", "federal deposit insurance corporation"),
    ("FDIC", "federal deposit insurance corporation"),
    ("Consumer Financial Protection Bureau", "consumer financial protection bureau"),
    ("CFPB", "consumer financial protection bureau"),
    ("Financial Conduct Authority", "financial conduct authority"),
    ("Serious Fraud Office", "serious fraud office"),
    ("Drug Enforcement Administration", "drug enforcement administration"),
    ("Homeland Security Investigations", "homeland security investigations"),
    ("U.S. Postal Inspection Service", "united states postal inspection service"),
    ("United States Postal Inspection Service", "united states postal inspection service"),
    ("Postal Inspection Service", "united states postal inspection service"),
    ("Public Company Accounting Oversight Board", "public company accounting oversight board"),
    ("PCAOB", "public company accounting oversight board"),
    ("Department of the Treasury", "department of the treasury"),
    ("U.S. Department of the Treasury", "department of the treasury"),
    ("United States Department of the Treasury", "department of the treasury"),
    ("Treasury Department", "department of the treasury"),
    ("U.S. Treasury Department", "department of the treasury"),
    ("U.S. Treasury", "department of the treasury"),
    ("Department of State", "department of state"),
    ("U.S. Department of State", "department of state"),
    ("United States Department of State", "department of state"),
    ("State Department", "department of state"),
    ("U.S. State Department", "department of state"),
];

/// More investigating agencies, authorities as the lexicon's are (searched with [`BODIES`]:
/// each automaton stays small enough for a packed searcher).
const INVESTIGATORS: &[(&str, &str)] = &[
    ("Immigration and Customs Enforcement", "immigration and customs enforcement"),
    ("U.S. Immigration and Customs Enforcement", "immigration and customs enforcement"),
    ("United States Immigration and Customs Enforcement", "immigration and customs enforcement"),
    ("Secret Service", "united states secret service"),
    ("U.S. Secret Service", "united states secret service"),
    ("United States Secret Service", "united states secret service"),
    ("Department of Health and Human Services", "department of health and human services"),
    ("U.S. Department of Health and Human Services", "department of health and human services"),
    ("United States Department of Health and Human Services", "department of health and human services"),
];

/// Public and international bodies the documents name beside the authorities — standard
/// setters, international organisations, legislatures — whose names are English words the
/// name finders refuse alone ("the Financial Action Task Force", "the United Nations",
/// "Congress"): organisations, keyed to one name per body, no authority (they charge no
/// one; "Federal Reserve" alone takes the key of the Board, an authority of the lexicon).
/// Found only as a name of their own: no
/// capitalised word just before or after ("Texas Senate", "Senate Judiciary Committee",
/// "Federal Reserve Bank of New York", "Indian National Congress" are other bodies), nor
/// "of" after ("the Senate of Pakistan").
const BODIES: &[(&str, &str)] = &[
    ("Financial Action Task Force", "financial action task force"),
    ("FATF", "financial action task force"),
    ("United Nations", "united nations"),
    ("U.N.", "united nations"),
    ("United Nations Security Council", "united nations security council"),
    ("U.N. Security Council", "united nations security council"),
    ("UN Security Council", "united nations security council"),
    ("International Monetary Fund", "international monetary fund"),
    ("World Bank", "world bank"),
    ("Interpol", "interpol"),
    ("INTERPOL", "interpol"),
    ("Europol", "europol"),
    ("European Union", "european union"),
    ("European Commission", "european commission"),
    ("Organisation for Economic Co-operation and Development", "organisation for economic co-operation and development"),
    ("Organization for Economic Cooperation and Development", "organisation for economic co-operation and development"),
    ("OECD", "organisation for economic co-operation and development"),
    ("Egmont Group", "egmont group"),
    ("Congress", "united states congress"),
    ("U.S. Congress", "united states congress"),
    ("United States Congress", "united states congress"),
    ("Senate", "united states senate"),
    ("U.S. Senate", "united states senate"),
    ("United States Senate", "united states senate"),
    ("House of Representatives", "united states house of representatives"),
    ("U.S. House of Representatives", "united states house of representatives"),
    ("Federal Reserve", "federal reserve board"),
];

/// Public health-benefit programs, the victims named most often in health-care fraud
/// ("a scheme to defraud Medicare"): organisations, not authorities (they charge no one),
/// whose names have no word that tells the name finders so (the tagger read "Medicare" as
/// a place or a person as often as not).
const PROGRAMS: &[(&str, &str)] = &[("Medicare", "medicare"), ("Medicaid", "medicaid"), ("Medi-Cal", "medi-cal"), ("TRICARE", "tricare"), ("CHAMPVA", "champva")];

/// The canonical key of a name: lower case, whitespace collapsed, "U.S." as "united states".
fn canonical(name: &str) -> String {
    let c = collapse(name);
    let c = c.strip_prefix("U.S. ").map_or(c.clone(), |r| format!("United States {r}"));
    let c = c.replace(" U.S. ", " United States ");
    c.trim_end_matches('.').to_lowercase()
}

/// Whether an entity key names a public health-benefit program ([`PROGRAMS`]): a victim,
/// never a party charged.
pub fn is_program(key: &str) -> bool {
    key.strip_prefix("Organization:").is_some_and(|name| PROGRAMS.iter().any(|(_, k)| *k == name))
}

/// Whether an entity key names an authority: a lexicon agency, a U.S. Attorney's Office or
/// a court found by [`find`].
pub fn is_authority(key: &str) -> bool {
    let Some(name) = key.strip_prefix("Organization:") else { return false };
    LEXICON.iter().chain(INVESTIGATORS).any(|(_, k)| *k == name)
        || ["united states attorney's office for ", "united states district court for ", "united states bankruptcy court for ", "bankruptcy court for "]
            .iter()
            .any(|p| name.starts_with(p))
        || (name.contains("court of appeals") || name.contains("supreme court")) && name.contains("united states")
}

/// Whether the authority keyed `key` brings charges or enforcement actions itself: a
/// prosecutor (the Department of Justice, a United States Attorney's office) or a
/// regulator that sues or charges (the SEC, the CFTC, the FTC, FINRA …). Not the courts,
/// the investigators (FBI, IRS, DEA, HSI, the Postal Inspection Service), nor FinCEN or
/// OFAC, whose penalties are assessed, not charged: an indictment the sentence names
/// without its prosecutor is none of theirs.
pub fn brings_charges(key: &str) -> bool {
    const NOT: &[&str] = &[
        "federal bureau of investigation",
        "internal revenue service",
        "drug enforcement administration",
        "homeland security investigations",
        "united states postal inspection service",
        "financial crimes enforcement network",
        "office of foreign assets control",
        "department of the treasury",
        "department of state",
        "immigration and customs enforcement",
        "united states secret service",
        "department of health and human services",
    ];
    is_authority(key) && !key.contains("court") && key.strip_prefix("Organization:").is_some_and(|n| !NOT.contains(&n))
}

/// Whether the authority keyed `key` designates parties under a sanctions program (OFAC, the
/// Treasury, the State Department) or, as FinCEN does, finds them a primary money
/// laundering concern: the subject of a DESIGNATED claim.
pub fn designates(key: &str) -> bool {
    matches!(
        key.strip_prefix("Organization:"),
        Some("office of foreign assets control" | "department of the treasury" | "department of state" | "financial crimes enforcement network")
    )
}

/// Whether the authority keyed `key` prosecutes crimes: the Department of Justice or a
/// United States Attorney's office (an indictment or a criminal complaint is theirs).
pub fn prosecutes(key: &str) -> bool {
    key == "Organization:department of justice" || key.starts_with("Organization:united states attorney's office for ")
}

/// The authority that publishes at a web address, by its host ("https://www.justice.gov/opa/pr/…"
/// → the Department of Justice; a subdomain counts as its domain): the authority whose
/// press release a record of an archive is, so the party of last resort for a plea, a
/// charge or a settlement the release reports without naming one. Its entity key.
pub fn publisher(url: &str) -> Option<&'static str> {
    const SITES: &[(&str, &str)] = &[
        ("justice.gov", "Organization:department of justice"),
        ("sec.gov", "Organization:securities and exchange commission"),
        ("cftc.gov", "Organization:commodity futures trading commission"),
        ("ftc.gov", "Organization:federal trade commission"),
        ("finra.org", "Organization:financial industry regulatory authority"),
        ("fincen.gov", "Organization:financial crimes enforcement network"),
        ("treasury.gov", "Organization:department of the treasury"),
    ];
    let rest = url.trim().split_once("://")?.1;
    let host = rest.split(['/', '?', '#', ':']).next()?.to_ascii_lowercase();
    SITES.iter().find(|(site, _)| host == *site || host.strip_suffix(site).is_some_and(|h| h.ends_with('.'))).map(|(_, k)| *k)
}

/// Authority mentions in `text[sentence]`, merged into `found` (overlaps: the longest wins).
pub fn with_authorities(text: &str, sentence: Span, found: Vec<Mention>) -> Vec<Mention> {
    let t = &text[sentence.0..sentence.1];
    let mut more = find(t, sentence.0);
    if more.is_empty() {
        return found;
    }
    more.extend(found);
    resolve_overlaps(more)
}

/// Authority mentions in `t` (which starts at `base` in the document), and mentions of the
/// public programs ([`PROGRAMS`]) and bodies ([`BODIES`]).
pub fn find(t: &str, base: usize) -> Vec<Mention> {
    // Two automata: a set of up to 64 names is searched by a packed (SIMD) searcher, which
    // the lists together outgrow (a byte-at-a-time automaton: +2 % of the extractor's
    // instructions).
    static AC: LazyLock<Option<aho_corasick::AhoCorasick>> =
        LazyLock::new(|| aho_corasick::AhoCorasick::builder().match_kind(aho_corasick::MatchKind::LeftmostLongest).build(LEXICON.iter().chain(PROGRAMS).map(|(n, _)| *n)).ok());
    static BODIES_AC: LazyLock<Option<aho_corasick::AhoCorasick>> =
        LazyLock::new(|| aho_corasick::AhoCorasick::builder().match_kind(aho_corasick::MatchKind::LeftmostLongest).build(INVESTIGATORS.iter().chain(BODIES).map(|(n, _)| *n)).ok());
    // "United States Attorney's Office for the District of New Jersey", "U.S. Attorney
    // for the Southern District of New York"; federal courts by district or circuit.
    static DISTRICT: &str = r"(?:(?:Northern|Southern|Eastern|Western|Middle|Central)\s+)?District\s+of\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2}";
    static SHAPES: LazyLock<Regex> = LazyLock::new(|| {
        let p = format!(
            r"(?:United\s+States|U\.S\.)\s+Attorney(?:['’]s\s+Office)?\s+for\s+the\s+{DISTRICT}|(?:(?:United\s+States|U\.S\.|[Ff]ederal)\s+)?(?:District|Bankruptcy)\s+Court\s+for\s+the\s+{DISTRICT}|(?:United\s+States|U\.S\.)\s+Court\s+of\s+Appeals\s+for\s+the\s+(?:[A-Z][a-z]+|District\s+of\s+Columbia)\s+Circuit|(?:United\s+States|U\.S\.)\s+Supreme\s+Court|Supreme\s+Court\s+of\s+the\s+United\s+States"
        );
        tg_text::pattern::constant(&p)
    });
    let mut out = vec![];
    let boundary = |s: usize, e: usize| {
        let before = t[..s].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let after = t[e..].chars().next().is_none_or(|c| !c.is_alphanumeric());
        before && after
    };
    if let Some(ac) = AC.as_ref() {
        for m in ac.find_iter(t) {
            if !boundary(m.start(), m.end()) {
                continue;
            }
            let Some(&(_, key)) = LEXICON.iter().chain(PROGRAMS).nth(m.pattern().as_usize()) else { continue };
            out.push(mention(t, base, (m.start(), m.end()), key.to_string()));
        }
    }
    if let Some(ac) = BODIES_AC.as_ref() {
        for m in ac.find_iter(t) {
            // (A body's name inside an agency's, "Federal Reserve" of "Federal Reserve Board",
            // is never alone: a capitalised word follows it.)
            let i = m.pattern().as_usize();
            let body = i >= INVESTIGATORS.len();
            if !boundary(m.start(), m.end()) || (body && !alone(t, m.start(), m.end())) || out.iter().any(|a| a.span.0 - base < m.end() && m.start() < a.span.1 - base) {
                continue;
            }
            let Some(&(_, key)) = INVESTIGATORS.iter().chain(BODIES).nth(i) else { continue };
            out.push(mention(t, base, (m.start(), m.end()), key.to_string()));
        }
        out.sort_by_key(|m| m.span);
    }
    if t.contains("Court") || t.contains("Attorney") {
        for m in SHAPES.find_iter(t) {
            let mut key = canonical(m.as_str());
            // The office and its head are one party: "U.S. Attorney for …" is the office's.
            if let Some(rest) = key.strip_prefix("united states attorney for ") {
                key = format!("united states attorney's office for {rest}");
            }
            if let Some(rest) = key.strip_prefix("federal district court ") {
                key = format!("united states district court {rest}");
            }
            if let Some(rest) = key.strip_prefix("district court ") {
                key = format!("united states district court {rest}");
            }
            key = key.replace('’', "'");
            out.push(mention(t, base, (m.start(), m.end()), key));
        }
    }
    out
}

/// The key of the office a press release's heading names on two lines, "U.S. Attorney's
/// Office" and then its district ("Eastern District of New York"): the office for that
/// district. `line` and `next` are the two lines (sentences) as written.
pub fn heading_office(line: &str, next: &str) -> Option<String> {
    static OFFICE: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(r"^(?:United\s+States|U\.S\.)\s+Attorney['’]s\s+Office$"));
    static DISTRICT_LINE: LazyLock<Regex> =
        LazyLock::new(|| tg_text::pattern::constant(r"^(?:(?:Northern|Southern|Eastern|Western|Middle|Central)\s+)?District\s+of\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2}$"));
    let (line, next) = (line.trim(), next.trim());
    (OFFICE.is_match(line) && DISTRICT_LINE.is_match(next)).then(|| format!("Organization:united states attorney's office for the {}", collapse(next).to_lowercase()))
}

/// Whether `t[s..e]` is a name of its own: no capitalised word just before it (a
/// sentence's "The" aside) or just after it, and no "of" after it ([`BODIES`]).
fn alone(t: &str, s: usize, e: usize) -> bool {
    let before = t[..s].trim_end_matches([' ', '\n']);
    let prev = before.rsplit(|c: char| c.is_whitespace()).next().unwrap_or_default();
    let capital_before = before.len() < s && prev.starts_with(char::is_uppercase) && prev != "The" && !prev.ends_with([',', ';', ':', ')', '"', '”']);
    let after = t[e..].trim_start_matches([' ', '\n']);
    let next = after.split(|c: char| c.is_whitespace()).next().unwrap_or_default();
    let capital_after = after.len() < t.len() - e && (next.starts_with(char::is_uppercase) || next == "of");
    !capital_before && !capital_after
}

fn mention(t: &str, base: usize, (s, e): Span, key: String) -> Mention {
    Mention { span: (base + s, base + e), kind: "Organization", key: format!("Organization:{key}"), surface: collapse(&t[s..e]), attrs: vec![] }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(t: &str) -> Vec<(String, String)> {
        find(t, 0).into_iter().map(|m| (m.surface, m.key)).collect()
    }

    #[test]
    fn agencies_keyed_to_one_name() {
        let k = keys("The Securities and Exchange Commission (SEC) and FinCEN, with the U.S. Department of Justice; not SECURE or FINRAX.");
        assert_eq!(
            k,
            [
                ("Securities and Exchange Commission".to_string(), "Organization:securities and exchange commission".to_string()),
                ("SEC".into(), "Organization:securities and exchange commission".into()),
                ("FinCEN".into(), "Organization:financial crimes enforcement network".into()),
                ("U.S. Department of Justice".into(), "Organization:department of justice".into()),
            ]
        );
    }

    /// Health-benefit programs are organisations, but no authority.
    #[test]
    fn programs_are_organisations_not_authorities() {
        let k = keys("A scheme to defraud Medicare and Medicaid, not Medicareless.");
        assert_eq!(k, [("Medicare".to_string(), "Organization:medicare".to_string()), ("Medicaid".into(), "Organization:medicaid".into())]);
        assert!(!is_authority("Organization:medicare"));
    }

    /// Public and international bodies are organisations keyed to one name, no authority,
    /// and found only as names of their own.
    #[test]
    fn bodies_alone_keyed_to_one_name() {
        let k = keys("The Financial Action Task Force (FATF) and the U.N. warned banks; Congress acted after the Senate voted.");
        let got: Vec<(&str, &str)> = k.iter().map(|(s, key)| (s.as_str(), key.as_str())).collect();
        assert_eq!(
            got,
            [
                ("Financial Action Task Force", "Organization:financial action task force"),
                ("FATF", "Organization:financial action task force"),
                ("U.N.", "Organization:united nations"),
                ("Congress", "Organization:united states congress"),
                ("Senate", "Organization:united states senate"),
            ]
        );
        assert!(!is_authority("Organization:financial action task force"));
        // Other bodies whose names hold these words.
        for t in
            ["The Texas Senate voted.", "the Senate Judiciary Committee", "the Indian National Congress said", "the Federal Reserve Bank of New York", "the Senate of Pakistan"]
        {
            assert!(find(t, 0).iter().all(|m| !m.key.contains("senate") && !m.key.contains("congress") && m.key != "Organization:federal reserve board"), "{t}: {:?}", find(t, 0));
        }
        // Investigators: authorities that bring no charges.
        let k = keys("investigated by U.S. Immigration and Customs Enforcement and the U.S. Secret Service");
        assert_eq!(k.len(), 2, "{k:?}");
        assert!(is_authority(&k[0].1) && !brings_charges(&k[0].1) && !brings_charges(&k[1].1));
    }

    #[test]
    fn prosecutors_and_courts_by_district() {
        let k = keys(
            "The United States Attorney for the Eastern District of Michigan filed in the United States\nDistrict Court for the Southern District of New York and the federal District Court for the District of Columbia.",
        );
        let got: Vec<&str> = k.iter().map(|(_, key)| key.as_str()).collect();
        assert_eq!(
            got,
            [
                "Organization:united states attorney's office for the eastern district of michigan",
                "Organization:united states district court for the southern district of new york",
                "Organization:united states district court for the district of columbia",
            ]
        );
    }

    #[test]
    fn an_office_named_in_a_heading_over_two_lines() {
        assert_eq!(
            heading_office("U.S. Attorney's Office", "Eastern District of New York").as_deref(),
            Some("Organization:united states attorney's office for the eastern district of new york")
        );
        assert_eq!(heading_office("U.S. Attorney's Office", "Eastern District of New York, Brooklyn"), None);
        assert_eq!(heading_office("The U.S. Attorney's Office said", "District of Utah"), None);
    }

    #[test]
    fn a_web_sites_publisher() {
        assert_eq!(super::publisher("https://www.justice.gov/opa/pr/x"), Some("Organization:department of justice"));
        assert_eq!(super::publisher("http://SEC.gov/litigation"), Some("Organization:securities and exchange commission"));
        assert_eq!(super::publisher("https://notjustice.gov/x"), None);
        assert_eq!(super::publisher("https://www.uspis.gov/news"), None);
        assert_eq!(super::publisher("justice.gov"), None);
    }
}
