//! Host functors: functions tg provides to rules as `@name(args)`, written in Rust.
//!
//! Soufflé binds `.functor` declarations to C++ libraries; tg binds a fixed set of its own
//! instead (entity-resolution features, date arithmetic, logarithms), so the rule library
//! can measure names and dates while the rules stay the only place that decides. A
//! `.functor` declaration of one of these names is accepted (and checked); any other is an
//! error. Every host functor is pure, so witnesses replay exactly.

use super::logic::Kind;
use super::value::Values;
use crate::resolve::names;

/// A host functor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostFn {
    /// `@tg_er_name(key)`: the name part of an entity key.
    ErName,
    /// `@tg_er_core(name)`: identifying words, legal forms dropped.
    ErCore,
    /// `@tg_er_sorted(name)`: the core's words sorted ("" for one word).
    ErSorted,
    /// `@tg_er_acronym(name)`: acronym of a long name, or a short name itself ("" if none).
    ErAcronym,
    /// `@tg_er_prefix(name)`: first three letters of the first and last words.
    ErPrefix,
    /// `@tg_er_first(name)`: the first identifying word.
    ErFirst,
    /// `@tg_er_last(name)`: the last identifying word.
    ErLast,
    /// `@tg_er_discriminator(name)`: the parenthesised part ("" if none).
    ErDiscriminator,
    /// `@tg_er_org_core(name)`: an organisation string's organisation part, abbreviations
    /// expanded, departments and places set aside.
    ErOrgCore,
    /// `@tg_er_org_place(name)`: the place an organisation string names after it ("" if none).
    ErOrgPlace,
    /// `@tg_er_legal_form(name)`: the legal form a name ends with, normalised ("" if none).
    ErLegalForm,
    /// `@tg_er_identifier_kind(attribute)`: the registry identifier an attribute names ("" if none).
    ErIdentifierKind,
    /// `@tg_er_identifier_value(value)`: an identifier as compared (upper case, alphanumerics).
    ErIdentifierValue,
    /// `@tg_er_word_at(core, i)`: the i-th word of a core ("" past its end).
    ErWordAt,
    /// `@tg_er_extension(a, b)`: the first extra word when one name extends the other.
    ErExtension,
    /// `@tg_jaro_winkler(a, b)`: Jaro-Winkler of two cores, 0–1000.
    JaroWinkler,
    /// `@tg_token_overlap(a, b)`: Jaccard of two cores' words, 0–1000.
    TokenOverlap,
    /// `@tg_word_similarity(a, b)`: least word-by-word Jaro-Winkler of two cores, 0–1000.
    WordSimilarity,
    /// `@tg_value_distance(a, b)`: single-character edits between two attribute values.
    ValueDistance,
    /// `@tg_values_agree(a, b)`: 1 when two attribute values could describe the same thing, else 0.
    ValuesAgree,
    /// `@tg_date_number(iso)`: 2024-03-04 → 20240304 (0 if not a date).
    DateNumber,
    /// `@tg_ln(x)`: natural logarithm of a float.
    Ln,
}

const ALL: &[(&str, HostFn)] = &[
    ("tg_date_number", HostFn::DateNumber),
    ("tg_er_acronym", HostFn::ErAcronym),
    ("tg_er_core", HostFn::ErCore),
    ("tg_er_discriminator", HostFn::ErDiscriminator),
    ("tg_er_extension", HostFn::ErExtension),
    ("tg_er_first", HostFn::ErFirst),
    ("tg_er_last", HostFn::ErLast),
    ("tg_er_identifier_kind", HostFn::ErIdentifierKind),
    ("tg_er_identifier_value", HostFn::ErIdentifierValue),
    ("tg_er_legal_form", HostFn::ErLegalForm),
    ("tg_er_name", HostFn::ErName),
    ("tg_er_org_core", HostFn::ErOrgCore),
    ("tg_er_org_place", HostFn::ErOrgPlace),
    ("tg_er_prefix", HostFn::ErPrefix),
    ("tg_er_sorted", HostFn::ErSorted),
    ("tg_er_word_at", HostFn::ErWordAt),
    ("tg_jaro_winkler", HostFn::JaroWinkler),
    ("tg_ln", HostFn::Ln),
    ("tg_token_overlap", HostFn::TokenOverlap),
    ("tg_value_distance", HostFn::ValueDistance),
    ("tg_values_agree", HostFn::ValuesAgree),
    ("tg_word_similarity", HostFn::WordSimilarity),
];

impl HostFn {
    /// The host functor called `name`, if tg provides one.
    pub fn by_name(name: &str) -> Option<HostFn> {
        ALL.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
    }

    /// Every host functor's name, sorted (for messages).
    pub fn names() -> Vec<&'static str> {
        ALL.iter().map(|(n, _)| *n).collect()
    }

    /// Argument kinds.
    pub fn args(self) -> &'static [Kind] {
        use HostFn::*;
        match self {
            ErName | ErCore | ErSorted | ErAcronym | ErPrefix | ErFirst | ErLast | ErDiscriminator | ErOrgCore | ErOrgPlace | ErLegalForm | ErIdentifierKind | ErIdentifierValue | DateNumber => &[Kind::Symbol],
            ErWordAt => &[Kind::Symbol, Kind::Number],
            ErExtension | JaroWinkler | TokenOverlap | WordSimilarity | ValueDistance | ValuesAgree => &[Kind::Symbol, Kind::Symbol],
            Ln => &[Kind::Float],
        }
    }

    /// Result kind.
    pub fn result(self) -> Kind {
        use HostFn::*;
        match self {
            ErName | ErCore | ErSorted | ErAcronym | ErPrefix | ErFirst | ErLast | ErDiscriminator | ErOrgCore | ErOrgPlace | ErLegalForm | ErIdentifierKind | ErIdentifierValue | ErWordAt | ErExtension => Kind::Symbol,
            JaroWinkler | TokenOverlap | WordSimilarity | DateNumber | ValueDistance | ValuesAgree => Kind::Number,
            Ln => Kind::Float,
        }
    }

    /// The declared type names Soufflé would write for this signature (`symbol`, `number`, `float`).
    pub fn signature(self) -> String {
        let t = |k: &Kind| match k {
            Kind::Symbol => "symbol",
            Kind::Float => "float",
            Kind::Unsigned => "unsigned",
            _ => "number",
        };
        let args: Vec<&str> = self.args().iter().map(t).collect();
        format!("({}):{}", args.join(", "), t(&self.result()))
    }

    /// Applies the functor to argument words of the kinds [`HostFn::args`] names.
    pub fn call(self, a: &[u32], values: &mut Values) -> u32 {
        use HostFn::*;
        let sym = |i: usize, values: &Values| values.symbol(a.get(i).copied().unwrap_or(0)).to_string();
        match self {
            ErName => {
                let s = sym(0, values);
                values.intern(names::name_of_key(&s))
            }
            ErWordAt => {
                let w = names::word_at(values.symbol(a.first().copied().unwrap_or(0)), a.get(1).copied().unwrap_or(0) as i32);
                values.intern(&w)
            }
            ErIdentifierKind => {
                let k = names::identifier_kind(values.symbol(a.first().copied().unwrap_or(0)));
                values.intern(k)
            }
            ErIdentifierValue => {
                let v = names::identifier_value(values.symbol(a.first().copied().unwrap_or(0)));
                values.intern(&v)
            }
            ErCore | ErSorted | ErAcronym | ErPrefix | ErFirst | ErLast | ErDiscriminator | ErOrgCore | ErOrgPlace | ErLegalForm => {
                // A name, not an entity key: "Erratum: A Model" keeps its first word.
                let s = sym(0, values);
                let s = s.as_str();
                let out = match self {
                    ErCore => names::core(s),
                    ErSorted => names::sorted_core(s),
                    ErAcronym => names::acronym(s),
                    ErPrefix => names::prefix_key(s),
                    ErFirst => names::core_words(s).into_iter().next().unwrap_or_default(),
                    ErLast => names::core_words(s).pop().unwrap_or_default(),
                    ErOrgCore => names::org_core(s),
                    ErOrgPlace => names::org_place(s),
                    ErLegalForm => names::legal_form(s),
                    _ => names::discriminator(s),
                };
                values.intern(&out)
            }
            ErExtension => {
                let arg = |i: usize| values.symbol(a.get(i).copied().unwrap_or(0));
                let e = names::extension(arg(0), arg(1));
                values.intern(&e)
            }
            JaroWinkler | TokenOverlap | WordSimilarity | ValueDistance | ValuesAgree => {
                // Numbers out: the symbols are read in place, nothing is interned.
                let arg = |i: usize| values.symbol(a.get(i).copied().unwrap_or(0));
                let (x, y) = (arg(0), arg(1));
                match self {
                    JaroWinkler => names::jaro_winkler(x, y) as u32,
                    TokenOverlap => names::token_overlap(x, y) as u32,
                    WordSimilarity => names::word_similarity(x, y) as u32,
                    ValuesAgree => names::values_agree(x, y) as u32,
                    _ => names::value_distance(x, y) as u32,
                }
            }
            DateNumber => names::date_number(&sym(0, values)) as u32,
            Ln => f32::from_bits(a.first().copied().unwrap_or(0)).ln().to_bits(),
        }
    }
}
