//! The closed vocabulary: which entity types and relations claims may use.
//!
//! One TOML file (`stdlib/vocab/finance.toml` by default, embedded in the binary; a case
//! may supply its own) is the single source of truth for the extractor, for refusing
//! outside claims, and for the instructions printed to outside extractors
//! ([`Vocabulary::prompt`]), so the three cannot drift apart.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Deserialize;

/// The default vocabulary, embedded.
pub const DEFAULT_VOCAB: &str = include_str!("../../stdlib/vocab/finance.toml");

/// An entity type.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TypeDef {
    /// What the type covers.
    pub description: String,
}

/// A relation claims may use.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RelationDef {
    /// Entity types allowed as subject.
    pub subject: Vec<String>,
    /// Entity types allowed as object.
    pub object: Vec<String>,
    /// Extra values a claim may carry (amount, date, …).
    #[serde(default)]
    pub attributes: Vec<String>,
    /// What the relation means.
    pub description: String,
}

/// A loaded vocabulary.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Vocabulary {
    /// Entity types by name.
    pub types: BTreeMap<String, TypeDef>,
    /// Relations by name.
    pub relations: BTreeMap<String, RelationDef>,
}

/// Why a vocabulary file or a claim was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum VocabError {
    /// The file is not a valid vocabulary.
    #[error("vocabulary {file}: {detail}")]
    File {
        /// The file.
        file: String,
        /// What is wrong.
        detail: String,
    },
    /// A relation outside the vocabulary.
    #[error("relation {rel} is not in the vocabulary; allowed relations: {allowed}")]
    UnknownRelation {
        /// The relation.
        rel: String,
        /// The allowed relations, comma-separated.
        allowed: String,
    },
    /// A subject or object whose type the relation does not allow.
    #[error("{rel} does not allow a {side} of type {found}; allowed {side} types: {allowed}")]
    WrongType {
        /// The relation.
        rel: String,
        /// `subject` or `object`.
        side: &'static str,
        /// The type given.
        found: String,
        /// The allowed types, comma-separated.
        allowed: String,
    },
    /// An attribute the relation does not carry.
    #[error("{rel} has no attribute {attr}; its attributes: {allowed}")]
    UnknownAttribute {
        /// The relation.
        rel: String,
        /// The attribute given.
        attr: String,
        /// The allowed attributes.
        allowed: String,
    },
}

impl Vocabulary {
    /// Parses a vocabulary file's text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Vocabulary, VocabError> {
        let v: Vocabulary = toml::from_str(text).map_err(|e| VocabError::File { file: file.into(), detail: e.to_string().trim().to_string() })?;
        for (name, r) in &v.relations {
            for t in r.subject.iter().chain(&r.object) {
                if !v.types.contains_key(t) {
                    return Err(VocabError::File { file: file.into(), detail: format!("relation {name} names type {t}, which [types] does not declare") });
                }
            }
            if r.subject.is_empty() || r.object.is_empty() {
                return Err(VocabError::File { file: file.into(), detail: format!("relation {name} needs at least one subject and one object type") });
            }
        }
        Ok(v)
    }

    /// The embedded default vocabulary.
    pub fn default_vocab() -> Vocabulary {
        // The embedded file is checked by a test; an error here is a build defect.
        Vocabulary::parse("stdlib/vocab/finance.toml", DEFAULT_VOCAB).unwrap_or(Vocabulary { types: BTreeMap::new(), relations: BTreeMap::new() })
    }

    /// The embedded default vocabulary, parsed once.
    pub fn builtin() -> &'static Vocabulary {
        static V: std::sync::LazyLock<Vocabulary> = std::sync::LazyLock::new(Vocabulary::default_vocab);
        &V
    }

    /// Checks a claim's relation, subject type and object type.
    pub fn check(&self, rel: &str, subject_type: &str, object_type: &str) -> Result<(), VocabError> {
        let Some(r) = self.relations.get(rel) else {
            return Err(VocabError::UnknownRelation { rel: rel.into(), allowed: self.relations.keys().cloned().collect::<Vec<_>>().join(", ") });
        };
        for (side, found, allowed) in [("subject", subject_type, &r.subject), ("object", object_type, &r.object)] {
            if !allowed.iter().any(|t| t == found) {
                return Err(VocabError::WrongType { rel: rel.into(), side, found: found.into(), allowed: allowed.join(", ") });
            }
        }
        Ok(())
    }

    /// Checks that a relation carries an attribute.
    pub fn check_attribute(&self, rel: &str, attr: &str) -> Result<(), VocabError> {
        let Some(r) = self.relations.get(rel) else {
            return Err(VocabError::UnknownRelation { rel: rel.into(), allowed: self.relations.keys().cloned().collect::<Vec<_>>().join(", ") });
        };
        if r.attributes.iter().any(|a| a == attr) {
            Ok(())
        } else {
            Err(VocabError::UnknownAttribute { rel: rel.into(), attr: attr.into(), allowed: if r.attributes.is_empty() { "(none)".into() } else { r.attributes.join(", ") } })
        }
    }

    /// The instructions for an outside extractor, generated from this vocabulary.
    pub fn prompt(&self) -> String {
        let mut out = String::from(
            "Extract claims from the document below as JSON lines, one object per claim:\n\
             {\"subject\": NAME, \"subject_type\": TYPE, \"relation\": RELATION, \"object\": NAME, \"object_type\": TYPE,\n \
             \"modality\": MODALITY, \"polarity\": \"positive\"|\"negative\", \"asserter\": NAME or \"document\",\n \
             \"quote\": EXACT TEXT, \"attributes\": {NAME: VALUE}}\n\n\
             Rules:\n\
             - \"quote\" must be copied verbatim from the document and must contain the claim; a claim whose quote is not found verbatim is refused.\n\
             - Use only the relations and entity types listed below, with the subject and object types each allows; anything else is refused.\n\
             - modality is how the document holds the claim: assertion (stated as fact), reported (attributed to someone: \"according to\", \"X said\"),\n  \
             hedged (\"may\", \"appears to\", \"suspected\"), denied (\"did not\", \"denied that\"), undecided (\"unclear whether\"), question.\n\
             - asserter is the party the quote attributes the claim to, or \"document\" when the document states it itself.\n\
             - Do not infer facts that the text does not state.\n\nEntity types:\n",
        );
        for (name, t) in &self.types {
            let _ = writeln!(out, "- {name}: {}", t.description);
        }
        out.push_str("\nRelations (subject types -> object types):\n");
        for (name, r) in &self.relations {
            let _ = write!(out, "- {name} ({} -> {}): {}", r.subject.join("|"), r.object.join("|"), r.description);
            if !r.attributes.is_empty() {
                let _ = write!(out, "; attributes: {}", r.attributes.join(", "));
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_vocabulary_parses() {
        let v = Vocabulary::parse("finance.toml", DEFAULT_VOCAB).unwrap_or_else(|e| panic!("{e}"));
        assert!(v.relations.contains_key("TRANSFERRED") && v.types.contains_key("Organization"));
    }

    #[test]
    fn refusals_list_what_is_allowed() {
        let v = Vocabulary::default_vocab();
        let e = v.check("LAUNDERED", "Person", "Organization").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.starts_with("relation LAUNDERED is not in the vocabulary; allowed relations: ACQUIRED, ALIAS_OF, ASSOCIATED_WITH, BENEFICIAL_OWNER_OF,"), "{e}");
        let e = v.check("DIRECTOR_OF", "Organization", "Organization").err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(e, "DIRECTOR_OF does not allow a subject of type Organization; allowed subject types: Person");
        assert!(v.check("SUBSIDIARY_OF", "Organization", "Organization").is_ok());
    }

    #[test]
    fn a_bad_file_is_refused_with_its_name() {
        let e = Vocabulary::parse("case.toml", "[types.A]\ndescription = \"a\"\n[relations.R]\nsubject = [\"A\"]\nobject = [\"B\"]\ndescription = \"r\"\n").err();
        assert_eq!(e.map(|e| e.to_string()).unwrap_or_default(), "vocabulary case.toml: relation R names type B, which [types] does not declare");
    }
}
