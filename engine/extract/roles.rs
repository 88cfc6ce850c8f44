//! Literal prefilters for the role patterns of `mark_roles` (judges and the authority's
//! staff): the words one of which every match of each pattern contains. A sentence without
//! them is not searched; one with them is searched exactly as before, so the prefilter
//! changes how fast, never what is found.

use std::sync::LazyLock;

/// Which of the role patterns may match somewhere in a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoleWords {
    /// "Judge", "Justice", "Honorable", "Hon." (case as written: the pattern is case-sensitive).
    pub judge: bool,
    /// Any case: "attorney", "staff", "prosecutor", "conducted", "led" (also in "handled"),
    /// "supervised", "assisted", "litigated".
    pub staff_before: bool,
    /// "Enforcement" or "Office" (case as written).
    pub staff_after: bool,
}

/// The words of the case-insensitive staff pattern.
const STAFF_WORDS: &[&str] = &["attorney", "staff", "prosecutor", "conducted", "led", "supervised", "assisted", "litigated"];

static STAFF: LazyLock<Option<aho_corasick::AhoCorasick>> = LazyLock::new(|| aho_corasick::AhoCorasick::builder().ascii_case_insensitive(true).build(STAFF_WORDS).ok());

impl RoleWords {
    /// The role words of sentence `sent` of `text`. When in doubt (a span that is not the
    /// text's, a character that Unicode case folding makes an ASCII letter: the Kelvin
    /// sign, the long s) every pattern may match.
    pub fn of(text: &str, sent: (usize, usize)) -> RoleWords {
        const ALL: RoleWords = RoleWords { judge: true, staff_before: true, staff_after: true };
        let Some(t) = text.get(sent.0..sent.1) else { return ALL };
        let folds = !t.is_ascii() && (t.contains('\u{212A}') || t.contains('\u{17F}'));
        let staff_before = folds || STAFF.as_ref().is_none_or(|ac| ac.is_match(t));
        RoleWords { judge: t.contains("Judge") || t.contains("Justice") || t.contains("Hon"), staff_before, staff_after: t.contains("Enforcement") || t.contains("Office") }
    }
}

#[cfg(test)]
mod tests {
    use super::RoleWords;

    #[test]
    fn words_of_each_pattern() {
        let of = |t: &str| RoleWords::of(t, (0, t.len()));
        assert_eq!(of("Acme Ltd paid Beta Ltd."), RoleWords { judge: false, staff_before: false, staff_after: false });
        assert_eq!(of("Before U.S. District Judge John Doe."), RoleWords { judge: true, staff_before: false, staff_after: false });
        assert!(of("The case is being HANDLED by Jane Roe.").staff_before);
        assert!(of("Jane Roe of the Division of Enforcement.").staff_after);
        // A Kelvin sign folds to k: any case-insensitive pattern may match.
        assert!(of("\u{212A}").staff_before);
        assert_eq!(RoleWords::of("abc", (2, 9)), RoleWords { judge: true, staff_before: true, staff_after: true });
    }
}
