//! A document's facts held compactly (issue 19, bounded memory).
//!
//! A [`CitedFact`] owns its relation name and every symbol as a `String` and its spans as
//! a vector: ~700 bytes for a claim of eight arguments, most of them copies of the same
//! few strings (the document id, the relation, an entity key). [`PackedFacts`] keeps the
//! same facts in the same order with every string once in one arena (relation names and
//! symbols alike, found again by hash), a fact as three 32-bit words and its arguments
//! (a 32-bit word each) and spans in flat arrays, and gives them back as [`CitedFact`]s a
//! piece at a time ([`FactSource`]): the store reads exactly what a vector of the facts
//! would give it.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use super::{CitedFact, FactSource, StoreError, Tag, Value};

/// Facts handed out at once by [`PackedFacts`]' [`FactSource::each`].
pub const PIECE: usize = 4096;

/// An argument as given to [`PackedFacts::push`]: a symbol (borrowed) or a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg<'a> {
    /// A symbol.
    Sym(&'a str),
    /// A number.
    Num(i32),
}

impl<'a> From<&'a Value> for Arg<'a> {
    fn from(v: &'a Value) -> Arg<'a> {
        match v {
            Value::Sym(s) => Arg::Sym(s),
            Value::Num(n) => Arg::Num(*n),
        }
    }
}

/// A stored argument, one 32-bit word: below [`NUM`], the number of a string of the
/// arena; from it, [`NUM`] plus the index of a number in `nums` (numbers are few: a
/// section's or a chunk's ordinal), so an argument costs 4 bytes, not an enum's 8.
type Word = u32;

/// The first [`Word`] that names a number (see [`Word`]).
const NUM: u32 = 1 << 31;

/// Relation numbers fit the 24 bits of [`Packed::rel_tag`] below its tag byte.
const REL_LIMIT: u32 = 1 << 24;

/// One fact, 12 bytes: its relation (a string of the arena, shifted left 8) with its tag
/// (the low byte), and where its arguments and spans end.
#[derive(Clone, Copy, Debug)]
struct Packed {
    rel_tag: u32,
    args_end: u32,
    spans_end: u32,
}

impl Packed {
    fn rel(self) -> u32 {
        self.rel_tag >> 8
    }

    fn tag(self) -> Tag {
        // (Only `Tag::byte`s are ever stored.)
        Tag::from_byte((self.rel_tag & 0xff) as u8).unwrap_or(Tag::Structural)
    }
}

/// A document's facts in order, compactly (see the module doc). Strings are shared by
/// hash while the facts are being added; a string whose hash another holds is stored
/// again, so sharing never changes a fact.
#[derive(Debug, Default)]
pub struct PackedFacts {
    /// Every string, one after another.
    arena: String,
    /// Where each string ends in `arena`.
    ends: Vec<usize>,
    /// A string's hash → its number (the first string with that hash).
    seen: HashMap<u64, u32>,
    facts: Vec<Packed>,
    args: Vec<Word>,
    /// The numbers the arguments name (see [`Word`]).
    nums: Vec<i32>,
    /// `[start, end)`, as 32-bit offsets.
    spans: Vec<[u32; 2]>,
    /// Facts that do not fit the packed form (an offset past 4 GiB), whole, by position.
    whole: Vec<(usize, CitedFact)>,
}

fn hash_of(s: &str) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

impl PackedFacts {
    /// No facts.
    pub fn new() -> PackedFacts {
        PackedFacts::default()
    }

    /// The number of facts.
    pub fn len(&self) -> usize {
        self.facts.len() + self.whole.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The string numbered `i`.
    fn string(&self, i: u32) -> &str {
        let i = i as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.arena[start..self.ends[i]]
    }

    /// The number of `s`, adding it when no string of its hash is there yet (or one of its
    /// hash is a different string). `None` past 2³¹ strings (a [`Word`] names them).
    fn intern(&mut self, s: &str) -> Option<u32> {
        let h = hash_of(s);
        if let Some(&i) = self.seen.get(&h)
            && self.string(i) == s
        {
            return Some(i);
        }
        let i = u32::try_from(self.ends.len()).ok().filter(|i| *i < NUM)?;
        self.arena.push_str(s);
        self.ends.push(self.arena.len());
        self.seen.entry(h).or_insert(i);
        Some(i)
    }

    /// Adds a fact after the others.
    pub fn push(&mut self, rel: &str, args: &[Arg], tag: Tag, spans: &[(u64, u64)]) {
        if !self.try_push(rel, args, tag, spans) {
            let args = args
                .iter()
                .map(|a| match a {
                    Arg::Sym(s) => Value::Sym((*s).to_string()),
                    Arg::Num(n) => Value::Num(*n),
                })
                .collect();
            self.whole.push((self.len(), CitedFact { rel: rel.to_string(), args, tag, spans: spans.to_vec() }));
        }
    }

    /// Adds a fact in the packed form; false (nothing added) when it does not fit it.
    fn try_push(&mut self, rel: &str, args: &[Arg], tag: Tag, spans: &[(u64, u64)]) -> bool {
        let fits = |n: usize| u32::try_from(n).is_ok();
        let numbers = args.iter().filter(|a| matches!(a, Arg::Num(_))).count();
        if !fits(self.args.len() + args.len())
            || !fits(self.spans.len() + spans.len())
            || self.nums.len() + numbers > NUM as usize
            || spans.iter().any(|&(a, b)| a > u64::from(u32::MAX) || b > u64::from(u32::MAX))
        {
            return false;
        }
        let (args_at, nums_at, arena_at, ends_at) = (self.args.len(), self.nums.len(), self.arena.len(), self.ends.len());
        let undo = |p: &mut PackedFacts| {
            // A relation past 2²⁴ strings or an argument past 2³¹: undo what this fact added.
            p.args.truncate(args_at);
            p.nums.truncate(nums_at);
            p.arena.truncate(arena_at);
            p.ends.truncate(ends_at);
            p.seen.retain(|_, i| (*i as usize) < ends_at);
        };
        let Some(rel) = self.intern(rel).filter(|r| *r < REL_LIMIT) else {
            undo(self);
            return false;
        };
        for a in args {
            match a {
                Arg::Sym(s) => match self.intern(s) {
                    Some(i) => self.args.push(i),
                    None => {
                        undo(self);
                        return false;
                    }
                },
                Arg::Num(n) => {
                    self.args.push(NUM + self.nums.len() as u32);
                    self.nums.push(*n);
                }
            }
        }
        self.spans.extend(spans.iter().map(|&(a, b)| [a as u32, b as u32]));
        self.facts.push(Packed { rel_tag: rel << 8 | u32::from(tag.byte()), args_end: (args_at + args.len()) as u32, spans_end: self.spans.len() as u32 });
        true
    }

    /// Adds a fact after the others.
    pub fn push_fact(&mut self, f: &CitedFact) {
        let args: Vec<Arg> = f.args.iter().map(Arg::from).collect();
        self.push(&f.rel, &args, f.tag, &f.spans);
    }

    /// Adds facts after the others, in order.
    pub fn extend_from_slice(&mut self, facts: &[CitedFact]) {
        for f in facts {
            self.push_fact(f);
        }
    }

    /// Adds another's facts after these, in order.
    pub fn append(&mut self, other: &PackedFacts) -> Result<(), StoreError> {
        other.each(&mut |piece| {
            self.extend_from_slice(piece);
            Ok(())
        })
    }

    /// Drops the table that shares strings (facts added later are not shared with these)
    /// and the spare capacity: call when the facts are complete.
    pub fn seal(&mut self) {
        self.seen = HashMap::new();
        self.arena.shrink_to_fit();
        self.ends.shrink_to_fit();
        self.facts.shrink_to_fit();
        self.args.shrink_to_fit();
        self.nums.shrink_to_fit();
        self.spans.shrink_to_fit();
    }

    /// The packed fact `i` as a [`CitedFact`].
    fn fact(&self, i: usize) -> CitedFact {
        let p = self.facts[i];
        let (a0, s0) = match i {
            0 => (0, 0),
            _ => (self.facts[i - 1].args_end as usize, self.facts[i - 1].spans_end as usize),
        };
        let args =
            self.args[a0..p.args_end as usize].iter().map(|&w| if w < NUM { Value::Sym(self.string(w).to_string()) } else { Value::Num(self.nums[(w - NUM) as usize]) }).collect();
        let spans = self.spans[s0..p.spans_end as usize].iter().map(|&[a, b]| (u64::from(a), u64::from(b))).collect();
        CitedFact { rel: self.string(p.rel()).to_string(), args, tag: p.tag(), spans }
    }

    /// Every fact, in order, as one vector (for tests and small documents).
    pub fn to_vec(&self) -> Vec<CitedFact> {
        let mut out = Vec::with_capacity(self.len());
        let _ = self.each(&mut |piece| {
            out.extend_from_slice(piece);
            Ok(())
        });
        out
    }
}

impl From<Vec<CitedFact>> for PackedFacts {
    fn from(facts: Vec<CitedFact>) -> PackedFacts {
        let mut p = PackedFacts::new();
        p.extend_from_slice(&facts);
        p
    }
}

/// The facts in the order they were added, [`PIECE`] at a time.
impl FactSource for PackedFacts {
    fn each(&self, emit: &mut dyn FnMut(&[CitedFact]) -> Result<(), StoreError>) -> Result<(), StoreError> {
        let mut piece: Vec<CitedFact> = Vec::with_capacity(PIECE.min(self.len()));
        let mut whole = self.whole.iter().peekable();
        let mut packed = 0;
        for at in 0..self.len() {
            match whole.peek() {
                Some((w, f)) if *w == at => {
                    piece.push(f.clone());
                    whole.next();
                }
                _ => {
                    piece.push(self.fact(packed));
                    packed += 1;
                }
            }
            if piece.len() >= PIECE {
                emit(&piece)?;
                piece.clear();
            }
        }
        if !piece.is_empty() {
            emit(&piece)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(rel: &str, args: &[&str], n: i32, spans: &[(u64, u64)]) -> CitedFact {
        let mut a: Vec<Value> = args.iter().map(|s| Value::Sym(s.to_string())).collect();
        a.push(Value::Num(n));
        CitedFact { rel: rel.into(), args: a, tag: Tag::Extracted, spans: spans.to_vec() }
    }

    #[test]
    fn gives_back_the_facts_in_order() {
        let mut want = vec![];
        for i in 0..(PIECE as i32 * 2 + 7) {
            want.push(fact(if i % 3 == 0 { "claim" } else { "mention" }, &["doc", &format!("k{}", i % 11), ""], i, &[(i as u64, i as u64 + 3)]));
        }
        // A fact past 4 GiB is kept whole, in its place; one with no spans and no arguments too.
        want.insert(5, fact("chunk", &["doc"], 1, &[(1, 1 << 33)]));
        want.insert(9, CitedFact { rel: "document".into(), args: vec![], tag: Tag::Structural, spans: vec![] });
        // Every tag, and numbers at both ends of their range, come back as they were.
        for (i, tag) in [Tag::Structural, Tag::Extracted, Tag::Inferred, Tag::Generated].into_iter().enumerate() {
            want.insert(11 + i, CitedFact { rel: "section".into(), args: vec![Value::Num(i32::MIN + i as i32), Value::Num(i32::MAX)], tag, spans: vec![(0, 2)] });
        }
        let mut p = PackedFacts::from(want.clone());
        assert_eq!(p.len(), want.len());
        assert_eq!(p.to_vec(), want);
        let mut sizes = vec![];
        p.each(&mut |piece| {
            sizes.push(piece.len());
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sizes, [PIECE, PIECE, want.len() - 2 * PIECE]);
        p.seal();
        p.push_fact(&want[0]);
        let mut more = PackedFacts::new();
        more.append(&p).unwrap_or_else(|e| panic!("{e}"));
        want.push(want[0].clone());
        assert_eq!(more.to_vec(), want);
    }

    #[test]
    fn strings_are_stored_once() {
        let mut p = PackedFacts::new();
        for i in 0..1000 {
            p.push("mention", &[Arg::Sym("a-long-document-id.tsv"), Arg::Sym("Organization:acme holdings ltd"), Arg::Num(i)], Tag::Extracted, &[(0, 1)]);
        }
        assert_eq!(p.ends.len(), 3);
        assert_eq!(p.arena.len(), "mention".len() + "a-long-document-id.tsv".len() + "Organization:acme holdings ltd".len());
    }
}
