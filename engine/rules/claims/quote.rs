//! Verbatim quotes: where a quote occurs in a canonical text, which occurrence a claim
//! means, and the smallest span that widens a quote to include named words.
//!
//! Matching is byte-exact: no case folding, no whitespace folding, no Unicode
//! normalisation. A quote that differs from the text by one byte does not occur.

use super::Refusal;

/// Every start of `quote` in `text`, overlapping occurrences included, in order.
pub fn occurrences(text: &str, quote: &str) -> Vec<usize> {
    if quote.is_empty() {
        return vec![];
    }
    let mut out = vec![];
    let mut from = 0;
    while let Some(i) = text.get(from..).and_then(|t| t.find(quote)) {
        out.push(from + i);
        // Next char boundary after this start: overlapping occurrences count.
        from += i + text[from + i..].chars().next().map_or(1, char::len_utf8);
    }
    out
}

/// Bytes of the longest prefix of `quote` (cut at a char boundary) that occurs in `text`.
pub fn longest_prefix(text: &str, quote: &str) -> usize {
    let cuts: Vec<usize> = quote.char_indices().map(|(i, _)| i).chain([quote.len()]).collect();
    // Occurrence of a prefix is monotone in its length: binary search the cuts.
    let (mut lo, mut hi) = (0, cuts.len() - 1);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if text.contains(&quote[..cuts[mid]]) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    cuts[lo]
}

/// Which occurrence a caller means: the n-th (from 1), or the one nearest a byte offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Choice {
    /// The n-th occurrence, from 1.
    pub occurrence: Option<usize>,
    /// The occurrence whose start is nearest this byte offset (ties: the earlier).
    pub near: Option<u64>,
}

/// The span `[start, end)` of the occurrence of `quote` in `doc`'s `text` that `choice`
/// names, or the refusal: empty, not found, ambiguous, occurrence out of range.
pub fn locate(doc: &str, text: &str, quote: &str, choice: Choice) -> Result<(usize, usize), Refusal> {
    if quote.is_empty() {
        return Err(Refusal::new("empty_quote", "the quote is empty"));
    }
    let at = occurrences(text, quote);
    let n = at.len();
    let start = match (n, choice.occurrence, choice.near) {
        (0, _, _) => {
            let p = longest_prefix(text, quote);
            return Err(Refusal::new("quote_not_found", format!("the quote does not occur verbatim in {doc} (its longest prefix that does is {p} of {} bytes)", quote.len())));
        }
        (_, Some(k), _) if k == 0 || k > n => {
            return Err(Refusal::new("bad_occurrence", format!("occurrence {k} is out of range: the quote occurs {n} time(s) in {doc}")));
        }
        (_, Some(k), _) => at[k - 1],
        (_, None, Some(off)) => at.iter().copied().min_by_key(|&s| ((s as u64).abs_diff(off), s)).unwrap_or(at[0]),
        (1, None, None) => at[0],
        (_, None, None) => {
            let list: Vec<String> = at.iter().take(10).map(usize::to_string).collect();
            let more = if n > 10 { ", …" } else { "" };
            return Err(Refusal::new(
                "quote_ambiguous",
                format!("the quote occurs {n} times in {doc} (at bytes {}{more}); choose one with occurrence (1 to {n}) or near (a byte offset)", list.join(", ")),
            ));
        }
    };
    Ok((start, start + quote.len()))
}

/// The smallest span of `text` that contains `quote` (the span given) and one occurrence
/// of each string of `must`, if one of at most `budget` bytes exists; otherwise the
/// refusal names the smallest size that would do (or the string that never occurs).
pub fn widen(doc: &str, text: &str, quote: (usize, usize), must: &[String], budget: usize) -> Result<(usize, usize), Refusal> {
    let mut lists: Vec<(&str, Vec<usize>)> = vec![];
    for m in must {
        if m.is_empty() {
            return Err(Refusal::new("empty_quote", "a --must-include string is empty"));
        }
        let at = occurrences(text, m);
        if at.is_empty() {
            return Err(Refusal::new("mention_not_found", format!("{m:?} does not occur verbatim in {doc}")));
        }
        lists.push((m.as_str(), at));
    }
    // The best span's left end is the quote's start or the start of a chosen occurrence;
    // for a given left end, each string's best occurrence is its first starting there or
    // later (all its occurrences have one length), so try every left end.
    let mut lefts: Vec<usize> = lists.iter().flat_map(|(_, at)| at.iter().copied()).filter(|&s| s <= quote.0).collect();
    lefts.push(quote.0);
    lefts.sort_unstable();
    lefts.dedup();
    let mut best: Option<(usize, usize)> = None;
    for &left in &lefts {
        let mut right = quote.1;
        let mut ok = true;
        for (m, at) in &lists {
            let i = at.partition_point(|&s| s < left);
            match at.get(i) {
                Some(&s) => right = right.max(s + m.len()),
                None => ok = false,
            }
        }
        if ok && best.is_none_or(|(a, b)| right - left < b - a) {
            best = Some((left, right));
        }
    }
    match best {
        Some((a, b)) if b - a <= budget => Ok((a, b)),
        Some((a, b)) => Err(Refusal::new(
            "no_span_within_budget",
            format!("no span of at most {budget} bytes contains the quote and {}; the smallest is {} bytes ({}-{})", names(must), b - a, a, b),
        )),
        None => Err(Refusal::new("no_span_within_budget", format!("no span contains the quote and {}", names(must)))),
    }
}

fn names(must: &[String]) -> String {
    must.iter().map(|m| format!("{m:?}")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The smallest span containing `q` and an occurrence of each of `must`, by brute force.
    fn brute(text: &str, q: (usize, usize), must: &[String]) -> Option<usize> {
        let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let mut best: Option<usize> = None;
        for &a in cuts.iter().filter(|&&a| a <= q.0) {
            for &b in cuts.iter().filter(|&&b| b >= q.1) {
                if must.iter().all(|m| text[a..b].contains(m.as_str())) && best.is_none_or(|x| b - a < x) {
                    best = Some(b - a);
                }
            }
        }
        best
    }

    proptest! {
        #[test]
        fn locate_and_widen_never_panic_and_widen_is_minimal(
            text in "[abé ]{0,24}",
            quote in "[abé]{1,3}",
            must in proptest::collection::vec("[abé]{1,2}", 0..3),
            occurrence in proptest::option::of(0usize..5),
            near in proptest::option::of(0u64..40),
            budget in 0usize..40,
        ) {
            if let Ok((a, b)) = locate("d", &text, &quote, Choice { occurrence, near }) {
                prop_assert_eq!(&text[a..b], quote.as_str());
                match widen("d", &text, (a, b), &must, budget) {
                    Ok((x, y)) => {
                        prop_assert!(x <= a && b <= y && y - x <= budget);
                        prop_assert!(must.iter().all(|m| text[x..y].contains(m.as_str())));
                        prop_assert_eq!(Some(y - x), brute(&text, (a, b), &must));
                    }
                    Err(r) => {
                        let smallest = brute(&text, (a, b), &must);
                        prop_assert!(smallest.is_none_or(|n| n > budget), "{:?} {:?}", r, smallest);
                    }
                }
            }
        }
    }

    #[test]
    fn occurrences_overlap_and_respect_char_boundaries() {
        assert_eq!(occurrences("aaa", "aa"), [0, 1]);
        assert_eq!(occurrences("é é", "é"), [0, 3]);
        assert_eq!(occurrences("abc", ""), Vec::<usize>::new());
    }

    #[test]
    fn the_longest_prefix_is_found() {
        assert_eq!(longest_prefix("Acme sent money", "Acme sent monkeys"), 13);
        assert_eq!(longest_prefix("abc", "xyz"), 0);
        assert_eq!(longest_prefix("abc", "abc"), 3);
    }

    #[test]
    fn widen_takes_the_nearest_mention_on_either_side() {
        let t = "Acme Ltd is here. Noise noise. It paid Beta. Acme Ltd again.";
        let q = (31, 44);
        assert_eq!(&t[q.0..q.1], "It paid Beta.");
        assert_eq!(widen("d", t, q, &["Acme Ltd".into()], 400), Ok((31, 53)));
        assert_eq!(widen("d", t, q, &["Acme Ltd".into(), "here".into()], 400), Ok((12, 53)));
        let w = widen("d", t, q, &["Acme Ltd".into()], 20);
        assert_eq!(w.err().map(|r| r.message), Some("no span of at most 20 bytes contains the quote and \"Acme Ltd\"; the smallest is 22 bytes (31-53)".to_string()));
    }
}
