//! Terms of text for search and topic labels: lower-cased alphanumeric runs, English
//! stop words dropped, each stemmed with Snowball's English stemmer. Index and query
//! use the same function, so a query word matches every inflection the stemmer folds.

use rust_stemmers::{Algorithm, Stemmer};

/// Words too common to carry meaning in a query or a topic label.
const STOP: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "before", "being", "between", "both", "but", "by", "can", "could", "did", "do",
    "does", "each", "for", "from", "had", "has", "have", "he", "her", "his", "how", "i", "if", "in", "into", "is", "it", "its", "may", "more", "most", "no", "not", "of", "on",
    "or", "other", "our", "out", "over", "said", "she", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those",
    "through", "to", "under", "up", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your",
];

/// Longest term kept (longer runs are cut, so keys stay small).
const MAX_TERM: usize = 40;

/// The term analyser: one stemmer, reused.
pub struct Analyzer {
    stemmer: Stemmer,
}

impl Default for Analyzer {
    fn default() -> Self {
        Analyzer { stemmer: Stemmer::create(Algorithm::English) }
    }
}

impl Analyzer {
    /// The stemmed terms of `text` in order, stop words dropped.
    pub fn terms(&self, text: &str) -> Vec<String> {
        let mut out = vec![];
        for word in words(text) {
            if STOP.binary_search(&word.as_str()).is_ok() {
                continue;
            }
            out.push(self.stem(&word));
        }
        out
    }

    /// The stem of one lower-cased word (cut to [`MAX_TERM`] bytes on a character boundary).
    pub fn stem(&self, word: &str) -> String {
        let s = if word.chars().all(|c| c.is_ascii_alphabetic()) { self.stemmer.stem(word).into_owned() } else { word.to_string() };
        cut(&s)
    }
}

/// Lower-cased runs of letters and digits.
pub fn words(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            cur.extend(c.to_lowercase());
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Whether `word` is a stop word.
pub fn is_stop(word: &str) -> bool {
    STOP.binary_search(&word).is_ok()
}

fn cut(s: &str) -> String {
    if s.len() <= MAX_TERM {
        return s.to_string();
    }
    let mut end = MAX_TERM;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn inflections_share_a_stem() {
        let a = Analyzer::default();
        assert_eq!(a.terms("Laundering the funds"), a.terms("laundered fund"));
        assert_eq!(a.terms("Account 0042-7781"), vec!["account", "0042", "7781"]);
    }
}
