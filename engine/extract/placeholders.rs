//! What a template's placeholders allow: an exact gate before a relation pattern's regex.
//!
//! A relation or enforcement pattern yields a relation only from a match in which each of
//! its argument groups (the unnamed capture groups, `«O(\d+)»`, `«[OP](\d+)»`, …) reads a
//! placeholder's index, each a different placeholder. A template without placeholders of
//! those kinds (two organisations, a person and an organisation, …) cannot give such a
//! match, so the pattern's regex is not run on it: the output is the same, and most of
//! the templates that pass the cue-word gates fail this one (a sentence with one party and
//! a date, or two people where an organisation is needed).

/// The bit of a placeholder letter (`O`, `P`, `M`, `D`, `A`, `L`, `R`, `X`); 0 for any
/// other byte.
fn bit(letter: u8) -> u8 {
    match letter {
        b'O' => 1,
        b'P' => 2,
        b'M' => 4,
        b'D' => 8,
        b'A' => 16,
        b'L' => 32,
        b'R' => 64,
        b'X' => 128,
        _ => 0,
    }
}

/// How many placeholders of each letter a template has (an upper bound: a `«` written in
/// the sentence itself before a capital letter counts too, which only lets more patterns run).
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts([u16; 8]);

impl Counts {
    /// Counts the `«`-letter pairs of a template.
    pub fn of(template: &str) -> Counts {
        let mut n = [0u16; 8];
        let b = template.as_bytes();
        // `«` is U+00AB, the bytes C2 AB.
        let mut i = 0;
        while let Some(k) = memchr_ab(&b[i..]) {
            let at = i + k;
            if at > 0 && b[at - 1] == 0xC2 {
                let m = b.get(at + 1).map_or(0, |&c| bit(c));
                if m != 0 {
                    n[m.trailing_zeros() as usize] = n[m.trailing_zeros() as usize].saturating_add(1);
                }
            }
            i = at + 1;
        }
        Counts(n)
    }

    /// How many placeholders have a letter in `mask`.
    fn with(&self, mask: u8) -> u32 {
        (0..8).filter(|k| mask & (1 << k) != 0).map(|k| u32::from(self.0[k])).sum()
    }
}

/// The byte 0xAB's first position in `b`.
fn memchr_ab(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == 0xAB)
}

/// The placeholder kinds a pattern's argument groups read, in order ([`Needs::of`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Needs(Option<Vec<u8>>);

impl Needs {
    /// The argument groups of a regex source: each unnamed capture group must be `(\d+)`
    /// right after a placeholder's opening (`«O`, `«P`, `«[OP]`, …); its letters are what
    /// it reads. Any other unnamed group, or a source this reading does not follow, gives
    /// no needs (the pattern always runs).
    pub fn of(pattern: &str) -> Needs {
        let b = pattern.as_bytes();
        let mut out = vec![];
        let (mut i, mut class) = (0usize, 0usize);
        while i < b.len() {
            match b[i] {
                b'\\' => {
                    i += 2;
                    continue;
                }
                b'[' => class += 1,
                b']' if class > 0 => class -= 1,
                b'(' if class == 0 && b.get(i + 1) != Some(&b'?') => {
                    if !pattern[i + 1..].starts_with(r"\d+)") {
                        return Needs(None);
                    }
                    let before = &pattern[..i];
                    let letters: &str = if let Some(rest) = before.strip_suffix(']') {
                        match rest.rfind("«[") {
                            Some(k) => &rest[k + "«[".len()..],
                            None => return Needs(None),
                        }
                    } else {
                        match before.char_indices().next_back() {
                            Some((k, c)) if c.is_ascii_uppercase() && before[..k].ends_with('«') => &before[k..],
                            _ => return Needs(None),
                        }
                    };
                    let mut mask = 0u8;
                    for l in letters.bytes() {
                        if bit(l) == 0 {
                            return Needs(None);
                        }
                        mask |= bit(l);
                    }
                    out.push(mask);
                }
                _ => {}
            }
            i += 1;
        }
        Needs(Some(out))
    }

    /// How many argument groups the pattern has (`None`: not read).
    pub fn arity(&self) -> Option<usize> {
        self.0.as_ref().map(Vec::len)
    }

    /// Whether a template with these placeholders may give a match in which every argument
    /// group reads a different placeholder of its kinds. Exact for one or two groups;
    /// more (none of the patterns has them) always may.
    pub fn may_match(&self, c: &Counts) -> bool {
        match self.0.as_deref() {
            Some([a]) => c.with(*a) >= 1,
            Some([a, b]) => {
                let (na, nb, both) = (c.with(*a), c.with(*b), c.with(a & b));
                na >= 1 && nb >= 1 && !(na == 1 && nb == 1 && both == 1)
            }
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_groups_are_read_from_the_source() {
        assert_eq!(Needs::of(r"«O(\d+)»\s+v\.\s+(?:Mr\.?\s+)?«[OP](\d+)»"), Needs(Some(vec![1, 3])));
        assert_eq!(Needs::of(r"«A(\d+)»[^«»]{0,25}?\bheld by «P(\d+)»(?P<m>x)"), Needs(Some(vec![16, 2])));
        // A group that is no placeholder's index, or a class holding a parenthesis.
        assert_eq!(Needs::of(r"«O(\d+)»\s+(a|b)"), Needs(None));
        assert_eq!(Needs::of(r"«O(\d+)»(?:\s*\([^()«»]*\))?,\s+«P(\d+)»"), Needs(Some(vec![1, 2])));
    }

    #[test]
    fn the_gate_wants_distinct_placeholders_of_each_kind() {
        let two_orgs = Needs(Some(vec![1, 1]));
        let party_org = Needs(Some(vec![3, 1]));
        assert!(!two_orgs.may_match(&Counts::of("«O0» paid «P1» on «D2».")));
        assert!(two_orgs.may_match(&Counts::of("«O0» paid «O1».")));
        assert!(!party_org.may_match(&Counts::of("«O0» paid «D1».")));
        assert!(party_org.may_match(&Counts::of("«P0» paid «O1».")));
        assert!(party_org.may_match(&Counts::of("«O0» paid «O1».")));
        assert!(!party_org.may_match(&Counts::of("«P0» paid «P1».")));
        assert!(Needs(None).may_match(&Counts::of("no placeholders")));
        // A quotation mark of the sentence itself only lets more run.
        assert!(two_orgs.may_match(&Counts::of("«O0» said «Oui».")));
    }
}
