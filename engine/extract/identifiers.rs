//! Registry identifiers stated beside a name: "Rio Tinto plc (LEI: 529900T8BM49AURSDO55)",
//! "Acme Ltd, company number 01234567,", "Jane Roe (CRD No. 1234567)".
//!
//! Each becomes an `entity_attr(entity, kind, value)` fact citing the name and the
//! identifier together, so an auditor reads both in one quote. The rule library treats a
//! shared identifier as evidence that two records are one entity and different ones as
//! two (stdlib/identity.dl, `er_shared_identifier`). The kinds and their spellings are
//! [`tg_text::names::identifier_kind`]'s, so text and `tg resolve --names` columns
//! agree on what an identifier is.

use std::sync::LazyLock;

use regex::Regex;

use super::entities::Mention;
use tg_text::document::Span;
use tg_text::names::{identifier_kind, identifier_value};

/// An identifier the text states for one named party.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stated {
    /// The party's entity key.
    pub entity: String,
    /// The identifier's kind (`lei`, `registration number`, `tax id`, `vat number`, `cik`, `crd`).
    pub kind: &'static str,
    /// The value as compared (upper case, letters and digits).
    pub value: String,
    /// From the name's first byte to the identifier's last.
    pub span: Span,
}

/// The identifiers stated right after a person's or organisation's name in one sentence:
/// in brackets or after a comma, a label then the value ("(LEI: X)", ", company number X,").
/// Referring mentions (a pronoun, a surname; those with an antecedent) state none.
pub fn sentence(text: &str, sent: Span, mentions: &[(Mention, Option<Span>)]) -> Vec<Stated> {
    static AFTER: LazyLock<Regex> = LazyLock::new(|| {
        tg_text::pattern::constant(
            r"(?i)^\s*[(,]\s*(?:(?:its|with)\s+)?(?P<label>LEI(?:\s+code)?|Legal\s+Entity\s+Identifier|(?:company|registration|registered|incorporation|business\s+registration|commercial\s+register)\s+(?:number|no\.?)|Reg\.\s*No\.?|CRN|F?EIN|Employer\s+Identification\s+(?:Number|No\.?)|TIN|Tax(?:payer)?\s+(?:Identification\s+)?(?:Number|No\.?|ID)|VAT(?:\s+(?:registration\s+)?(?:number|no\.?|ID))?|CIK(?:\s+(?:No\.?|number))?|CRD(?:\s+(?:No\.?|number|#))?)\s*[:#]?\s*(?P<value>[A-Z0-9](?:[A-Z0-9]|[ ./-][A-Z0-9]){2,34})\s*(?:[),;]|\.(?:\s|$)|$)",
        )
    });
    let mut out = vec![];
    for (m, _) in mentions.iter().filter(|(m, ante)| ante.is_none() && matches!(m.kind, "Organization" | "Person")) {
        let (start, end) = m.span;
        if end >= sent.1 || start < sent.0 {
            continue;
        }
        let rest = &text[end..sent.1];
        let Some(c) = AFTER.captures(rest) else { continue };
        let (Some(label), Some(value)) = (c.name("label"), c.name("value")) else { continue };
        let kind = identifier_kind(label.as_str());
        // A value is a number or a code with digits, never a word ("(the Company)").
        if kind.is_empty() || !value.as_str().chars().any(|ch| ch.is_ascii_digit()) {
            continue;
        }
        out.push(Stated { entity: m.key.clone(), kind, value: identifier_value(value.as_str()), span: (start, end + value.end()) });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn org(text: &str, name: &str) -> Mention {
        let s = text.find(name).unwrap_or(0);
        Mention { span: (s, s + name.len()), kind: "Organization", key: format!("Organization:{}", name.to_lowercase()), surface: name.into(), attrs: vec![] }
    }

    #[test]
    fn labels_after_a_name() {
        for (text, name, kind, value) in [
            ("Rio Tinto plc (LEI: 529900T8BM49AURSDO55) paid.", "Rio Tinto plc", "lei", "529900T8BM49AURSDO55"),
            ("Acme Ltd, company number 01234567, was struck off.", "Acme Ltd", "registration number", "01234567"),
            ("Beta LLC (EIN 12-3456789) filed.", "Beta LLC", "tax id", "123456789"),
            ("Gamma Securities (CRD No. 7059) was censured.", "Gamma Securities", "crd", "7059"),
        ] {
            let ms = [(org(text, name), None)];
            let got = sentence(text, (0, text.len()), &ms);
            assert_eq!(got.len(), 1, "{text}");
            assert_eq!((got[0].kind, got[0].value.as_str()), (kind, value), "{text}");
            assert!(text[got[0].span.0..got[0].span.1].starts_with(name));
        }
    }

    #[test]
    fn no_identifier_without_a_label_and_a_digit() {
        for text in ["Acme Ltd (the Company) paid.", "Acme Ltd (No. 5) paid.", "Acme Ltd, VAT free, paid.", "Acme Ltd (LEI pending) paid."] {
            let ms = [(org(text, "Acme Ltd"), None)];
            assert!(sentence(text, (0, text.len()), &ms).is_empty(), "{text}");
        }
    }
}
