//! The clause of a sentence that carries a relation: how the source holds a claim
//! (modality) and when it held (validity date) are read there, not from the whole sentence,
//! so "Acme issued releases that falsely portrayed its finances, and its CEO, Jane Roe, …"
//! does not deny what the second clause says of Jane Roe.
//!
//! The rule (docs/EXTRACTION.md, "Clauses"): start from the span between the relation's
//! arguments (its subject, object and amounts) and widen it to the nearest clause
//! boundaries on each side —
//! - on both sides: `;`, and a comma before a coordinating or contrasting word (`, and`,
//!   `, but`, `, or`, `, while`, `, whereas`, `, although`, `, though`, `, yet`) or before a
//!   relative pronoun (`, which`, `, who`, `, whom`, `, whose`);
//! - after the arguments only: a relative or complement `that` / `which` / `who` (what follows
//!   says something else of the last argument), and a clause of purpose or cause (`, to
//!   sign …`, `in order to`, `so that`, `because`).
//!
//! Asides inside the span set off by commas and opened by a relative pronoun (`X, who
//! falsely claimed …, paid Y`) are blanked out. The text before the clause is its *frame*:
//! when the clause continues a complement (`…, and that …`, `…, or whether …`) or the
//! sentence opens with `According to`, the frame's attribution, hedge or denial governs the
//! clause too ("The complaint alleges that A paid B, and that B paid C": both reported).
//! Attribution and open questions in the frame govern every later clause in any case
//! (`modality::governing`: "… alleged that A, B, and C …"); denials and hedges stay local.

use std::sync::LazyLock;

use regex::Regex;

/// Clause boundaries on either side: the match's start is where one clause ends.
static BOTH: LazyLock<Regex> = LazyLock::new(|| super::entities::re(r"(?i);|,\s+(?:and|but|or|while|whereas|although|though|yet|which|who|whom|whose)\b"));
/// Boundaries that end a clause after its arguments: a relative or complement clause opens,
/// or one of purpose or cause (", to sign plans for patients he had never examined",
/// "because …": what it says is of another act).
static AFTER: LazyLock<Regex> =
    LazyLock::new(|| super::entities::re(r"(?i)\b(?:that|which|who|whom|whose)\b|,\s+(?:in\s+order\s+)?to\s+[a-z]|\b(?:in\s+order\s+to|so\s+that|because)\b"));
/// An aside opened by a relative pronoun and closed by a comma: `, who falsely claimed …,`.
static ASIDE: LazyLock<Regex> = LazyLock::new(|| super::entities::re(r"(?i),\s+(?:who|which|whom|whose)\b[^,;]*,"));
/// A clause that continues a complement of the frame: `and that …`, `or whether …`.
static CONTINUES: LazyLock<Regex> = LazyLock::new(|| super::entities::re(r"(?i)^[,;]?\s*(?:and|or|but)?\s*(?:that|whether|if)\b"));

/// A relation's clause in a sentence: offsets into `sentence`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clause {
    /// Start of the clause.
    pub start: usize,
    /// End of the clause.
    pub end: usize,
    /// Whether the text before the clause (its frame) governs its modality.
    pub framed: bool,
}

/// The clause carrying arguments that lie within `args` (offsets into `sentence`).
pub fn clause(sentence: &str, args: (usize, usize)) -> Clause {
    let (a, b) = (args.0.min(sentence.len()), args.1.min(sentence.len()));
    let mut start = 0;
    let mut end = sentence.len();
    for m in BOTH.find_iter(sentence) {
        if m.end() <= a {
            start = m.start();
        } else if m.start() >= b {
            end = end.min(m.start());
            break;
        }
    }
    if let Some(m) = AFTER.find_at(sentence, b) {
        end = end.min(m.start());
    }
    let framed = start > 0 && CONTINUES.is_match(&sentence[start..]) || sentence.trim_start().to_ascii_lowercase().starts_with("according to");
    Clause { start, end, framed }
}

/// The clause's text for modality: asides between the arguments blanked out (same length,
/// so offsets stay valid).
pub fn modality_text(sentence: &str, c: Clause, args: (usize, usize)) -> String {
    let mut t = sentence[c.start..c.end].to_string();
    for m in ASIDE.find_iter(&sentence[c.start..c.end]) {
        let (s, e) = (c.start + m.start(), c.start + m.end());
        if s >= args.0 && e <= args.1 {
            let blank: String = sentence[s..e].chars().map(|ch| if ch.is_ascii() { ' ' } else { ch }).collect();
            t.replace_range(m.start()..m.end(), &blank);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clause_of(s: &str, a: &str, b: &str) -> String {
        let (i, j) = (s.find(a).unwrap_or(0), s.find(b).map_or(0, |j| j + b.len()));
        let c = clause(s, (i, j));
        modality_text(s, c, (i, j)).trim().to_string()
    }

    #[test]
    fn clauses_by_boundaries() {
        let s = "Acme Corp. issued press releases that falsely portrayed its finances, and its CEO, Jane Roe, sold shares.";
        assert_eq!(clause_of(s, "its CEO", "Jane Roe"), ", and its CEO, Jane Roe, sold shares.");
        // A relative clause after the arguments is another clause.
        assert_eq!(clause_of("Acme paid Beta USD 5 that was never returned.", "Acme", "Beta"), "Acme paid Beta USD 5");
        // Nor is one of purpose: what it denies is of another act.
        assert_eq!(
            clause_of("Doe paid Dr. Roe $2,500 a month, disguised as a salary, to sign plans for patients he had never examined.", "Doe", "$2,500"),
            "Doe paid Dr. Roe $2,500 a month, disguised as a salary"
        );
        // A complement before them is not: the denial governs it.
        assert_eq!(clause_of("Marek Novak denied that he controls Gamma LLC.", "he", "Gamma LLC"), "Marek Novak denied that he controls Gamma LLC.");
        // An aside between the arguments is blanked.
        let t = clause_of("Acme, which never filed accounts, paid Beta.", "Acme", "Beta");
        assert!(t.starts_with("Acme ") && t.ends_with(" paid Beta.") && !t.contains("never"), "{t}");
        // A continued complement is framed.
        let s = "The complaint alleges that Acme paid Beta, and that Beta paid Gamma.";
        let i = s.find("Beta paid").unwrap_or(0);
        let c = clause(s, (i, i + 15));
        assert!(c.framed && &s[c.start..c.end] == ", and that Beta paid Gamma.", "{c:?}");
    }
}
