//! tg's host functors: functions the rule library calls as `@name(args)`, written in Rust.
//!
//! Entity-resolution features, date arithmetic and logarithms, so the rule library can
//! measure names and dates while the rules stay the only place that decides. The Datalog
//! engine knows none of them: [`HOSTS`] is handed to its compiler by every tg command that
//! compiles rules ([`crate::rulebook::compiler`]). Every functor is pure, so witnesses
//! replay exactly.

use tg_datalog::host::{HostFn, HostTable};
use tg_datalog::logic::Kind;
use tg_datalog::value::Values;
use tg_text::names;

/// One of tg's host functors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum TgFn {
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

const ALL: [(&str, TgFn); 22] = [
    ("tg_date_number", TgFn::DateNumber),
    ("tg_er_acronym", TgFn::ErAcronym),
    ("tg_er_core", TgFn::ErCore),
    ("tg_er_discriminator", TgFn::ErDiscriminator),
    ("tg_er_extension", TgFn::ErExtension),
    ("tg_er_first", TgFn::ErFirst),
    ("tg_er_last", TgFn::ErLast),
    ("tg_er_identifier_kind", TgFn::ErIdentifierKind),
    ("tg_er_identifier_value", TgFn::ErIdentifierValue),
    ("tg_er_legal_form", TgFn::ErLegalForm),
    ("tg_er_name", TgFn::ErName),
    ("tg_er_org_core", TgFn::ErOrgCore),
    ("tg_er_org_place", TgFn::ErOrgPlace),
    ("tg_er_prefix", TgFn::ErPrefix),
    ("tg_er_sorted", TgFn::ErSorted),
    ("tg_er_word_at", TgFn::ErWordAt),
    ("tg_jaro_winkler", TgFn::JaroWinkler),
    ("tg_ln", TgFn::Ln),
    ("tg_token_overlap", TgFn::TokenOverlap),
    ("tg_value_distance", TgFn::ValueDistance),
    ("tg_values_agree", TgFn::ValuesAgree),
    ("tg_word_similarity", TgFn::WordSimilarity),
];

impl TgFn {
    /// Argument kinds.
    const fn args(self) -> &'static [Kind] {
        use TgFn::*;
        match self {
            ErName | ErCore | ErSorted | ErAcronym | ErPrefix | ErFirst | ErLast | ErDiscriminator | ErOrgCore | ErOrgPlace | ErLegalForm | ErIdentifierKind
            | ErIdentifierValue | DateNumber => &[Kind::Symbol],
            ErWordAt => &[Kind::Symbol, Kind::Number],
            ErExtension | JaroWinkler | TokenOverlap | WordSimilarity | ValueDistance | ValuesAgree => &[Kind::Symbol, Kind::Symbol],
            Ln => &[Kind::Float],
        }
    }

    /// Result kind.
    const fn result(self) -> Kind {
        use TgFn::*;
        match self {
            ErName | ErCore | ErSorted | ErAcronym | ErPrefix | ErFirst | ErLast | ErDiscriminator | ErOrgCore | ErOrgPlace | ErLegalForm | ErIdentifierKind
            | ErIdentifierValue | ErWordAt | ErExtension => Kind::Symbol,
            JaroWinkler | TokenOverlap | WordSimilarity | DateNumber | ValueDistance | ValuesAgree => Kind::Number,
            Ln => Kind::Float,
        }
    }

    /// Applies the functor to argument words of the kinds [`TgFn::args`] names.
    fn call(self, a: &[u32], values: &mut Values) -> u32 {
        use TgFn::*;
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

/// Calls the `I`-th functor of [`ALL`]: a plain function for the engine's table.
fn call<const I: usize>(a: &[u32], values: &mut Values) -> u32 {
    ALL[I].1.call(a, values)
}

/// The table entry of the `I`-th functor of [`ALL`].
const fn entry<const I: usize>() -> HostFn {
    let (name, f) = ALL[I];
    HostFn { name, args: f.args(), result: f.result(), function: call::<I> }
}

/// Every host functor tg provides, sorted by name.
static TABLE: [HostFn; 22] = [
    entry::<0>(),
    entry::<1>(),
    entry::<2>(),
    entry::<3>(),
    entry::<4>(),
    entry::<5>(),
    entry::<6>(),
    entry::<7>(),
    entry::<8>(),
    entry::<9>(),
    entry::<10>(),
    entry::<11>(),
    entry::<12>(),
    entry::<13>(),
    entry::<14>(),
    entry::<15>(),
    entry::<16>(),
    entry::<17>(),
    entry::<18>(),
    entry::<19>(),
    entry::<20>(),
    entry::<21>(),
];

/// tg's host functors, for [`tg_datalog::driver::Compiler::hosts`].
pub const HOSTS: HostTable = &TABLE;
