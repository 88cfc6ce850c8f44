//! Stated totals: "sent four wires totalling USD 1,940,000", "transfers in an aggregate of
//! USD 2m", "USD 1.9m in total". Such an amount sums transfers that are (or may be) claimed
//! one by one elsewhere — a wire log, a bank statement — so a transfer claim carries it as
//! `total_amount` (with `transfers`, the count, when the sentence states it), never as
//! `amount`: summing `amount` over TRANSFERRED edges counts every wire once, and the
//! memo's total stays visible, cited, for a rule to compare with the wires (rules/aml.dl).

use std::sync::LazyLock;

use regex::Regex;

/// What the words around an amount say about it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Total {
    /// The amount is a total of several transfers.
    pub total: bool,
    /// How many transfers the sentence says it sums, when it says (digits).
    pub count: Option<u32>,
}

/// Words just before an amount that make it a total, with an optional count before them.
static BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    tg_text::pattern::constant(
        r"(?i)(?:\b(?P<n>\d{1,4}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several|multiple|numerous)\s+(?:[a-z-]+\s+){0,2}?(?:wires?|wire\s+transfers?|transfers?|payments?|transactions?|remittances?|deposits?)\s*,?\s+)?(?:totall?(?:ing|ed)|that\s+totall?ed|which\s+totall?ed|aggregating|(?:for|of|in)\s+an\s+aggregate\s+(?:amount\s+)?of|in\s+(?:the\s+)?aggregate(?:\s+amount)?(?:\s+of)?|an\s+aggregate\s+of|(?:for\s+|of\s+)?a\s+(?:combined\s+)?total\s+(?:amount\s+)?of)\s*(?:approximately\s+|about\s+|some\s+|more\s+than\s+|over\s+)?$",
    )
});

/// Words just after an amount that make it a total.
static AFTER: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(r"(?i)^\s*(?:in\s+total|in\s+(?:the\s+)?aggregate|combined|altogether)\b"));

/// Whether the amount at `money` in `text` is stated as a total: `before` is the text of the
/// clause before it, `after` the text after it.
pub fn total(before: &str, after: &str) -> Total {
    // Only the last stretch before the amount speaks about it.
    let cut = before.char_indices().rev().nth(120).map_or(0, |(i, _)| i);
    let near = &before[cut..];
    if let Some(c) = BEFORE.captures(near) {
        let count = c.name("n").and_then(|n| number(n.as_str()));
        return Total { total: true, count };
    }
    Total { total: AFTER.is_match(after), count: None }
}

fn number(word: &str) -> Option<u32> {
    const WORDS: [&str; 11] = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
    let w = word.to_ascii_lowercase();
    w.parse().ok().or_else(|| WORDS.iter().position(|x| *x == w).map(|i| i as u32 + 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(before: &str, after: &str) -> (bool, Option<u32>) {
        let x = total(before, after);
        (x.total, x.count)
    }

    #[test]
    fn totals_and_their_counts() {
        assert_eq!(t("Acme Trading Ltd (\"Acme\") sent four wires totalling ", " to Beta"), (true, Some(4)));
        assert_eq!(t("made 12 cash deposits that totaled ", "."), (true, Some(12)));
        assert_eq!(t("wired a total of ", " to"), (true, None));
        assert_eq!(t("sent transfers in an aggregate amount of approximately ", ""), (true, None));
        assert_eq!(t("transferred ", " in total to Beta"), (true, None));
        assert_eq!(t("received several wire transfers aggregating ", ""), (true, None));
    }

    #[test]
    fn single_amounts_are_not_totals() {
        assert_eq!(t("Acme wired ", " to Beta on 1 March"), (false, None));
        assert_eq!(t("a payment of ", " to Beta"), (false, None));
        assert_eq!(t("the total was not disclosed; Acme then sent ", " to Beta"), (false, None));
        assert_eq!(t("four wires were sent, the first of ", ""), (false, None));
    }
}
