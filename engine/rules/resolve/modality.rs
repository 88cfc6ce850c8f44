//! Words for claim modalities in the auditor's views (issue 20): a contradiction's
//! heading says what each side actually does — "reported vs denied", not the rule's
//! generic "asserted vs denied".

/// A modality as the views write it: `assertion` → `asserted`, the others as they are.
pub fn word(modality: &str) -> &str {
    match modality {
        "assertion" => "asserted",
        other => other,
    }
}

/// A contradiction's heading from the rule's kind and the two claims' modalities: the
/// kind that opposes modalities names them (`reported vs denied`); any other kind gets
/// them after it (`different values (asserted vs reported)`, `opposite polarity (both asserted)`).
pub fn contradiction_label(kind: &str, first: &str, second: &str) -> String {
    let (a, b) = (word(first), word(second));
    if kind == "asserted vs denied" {
        return format!("{a} vs {b}");
    }
    if a == b { format!("{kind} (both {a})") } else { format!("{kind} ({a} vs {b})") }
}

#[cfg(test)]
mod tests {
    use super::contradiction_label;

    #[test]
    fn labels_name_the_actual_modalities() {
        assert_eq!(contradiction_label("asserted vs denied", "reported", "denied"), "reported vs denied");
        assert_eq!(contradiction_label("asserted vs denied", "assertion", "denied"), "asserted vs denied");
        assert_eq!(contradiction_label("different values", "assertion", "reported"), "different values (asserted vs reported)");
        assert_eq!(contradiction_label("opposite polarity", "assertion", "assertion"), "opposite polarity (both asserted)");
    }
}
