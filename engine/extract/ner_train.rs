//! Training and cross-validating the name recogniser ([`super::ner`]) from public
//! annotated data: Re-DocRED's entity mentions (Wikipedia) and FIRE's entities (10-K
//! sentences). Used by `tg-train-ner`; reproducible byte for byte (one thread, a fixed
//! seed, examples in file order, weights written sorted by feature).
//!
//! Each gold sentence is rebuilt as natural text ([`detokenize`]) and tokenized as `tg`
//! tokenizes documents, so the tagger learns from what it will see. Label mapping and
//! clean-up (documented in `stdlib/models/README.md`): PER/ORG/LOC/MISC as they are
//! (TIME and NUM are left to the rule finders); FIRE Company → ORG cut before its `'s`
//! or parenthesised alias (the alias its own ORG), Person → PER, Location and
//! GeopoliticalEntity → LOC; a title before a person's name is not part of it.

use std::collections::BTreeMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::eval::FireItem;
use super::eval_docred::DocredDoc;
use super::ner::{self, Model, NC, O, Prepared};
use tg_text::document::Span;

/// An annotated sentence: natural text and its gold names as (byte span, group), where
/// group 1 = PER, 2 = ORG, 3 = LOC, 4 = MISC.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The text.
    pub text: String,
    /// Gold names.
    pub gold: Vec<(Span, usize)>,
}

/// A document: the unit cross-validation folds by (its sentences never straddle folds).
#[derive(Clone, Debug, Default)]
pub struct Doc {
    /// Where it comes from (`redocred:TITLE`, `fire:ID`).
    pub id: String,
    /// Its sentences.
    pub sentences: Vec<Sample>,
}

impl Doc {
    /// The document's text (sentences joined by one space) and its sentence spans: what
    /// the tagger's document context reads, as `tg eval docred` rebuilds it.
    pub fn joined(&self) -> (String, Vec<Span>) {
        let mut text = String::new();
        let mut spans = vec![];
        for s in &self.sentences {
            if !text.is_empty() {
                text.push(' ');
            }
            let a = text.len();
            text.push_str(&s.text);
            spans.push((a, text.len()));
        }
        (text, spans)
    }
}

/// A training file that is not of the expected shape.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct TrainError(pub String);

/// Tokens rebuilt as natural text: no space before closing punctuation or a possessive,
/// none after an opening bracket, straight double quotes alternately opening and closing.
/// Returns the text and each token's byte span.
pub fn detokenize<S: AsRef<str>>(tokens: &[S]) -> (String, Vec<Span>) {
    let mut text = String::new();
    let mut spans = Vec::with_capacity(tokens.len());
    let mut quote_open = false;
    let mut glue_next = false;
    for (n, t) in tokens.iter().enumerate() {
        let t = t.as_ref();
        // A hyphen between two words joins them ("Hispano - Suiza" is "Hispano-Suiza").
        let word_end = |w: &str| w.chars().last().is_some_and(char::is_alphanumeric);
        let word_start = |w: &str| w.chars().next().is_some_and(char::is_alphanumeric);
        let joining = t == "-" && n > 0 && word_end(tokens[n - 1].as_ref()) && tokens.get(n + 1).is_some_and(|x| word_start(x.as_ref()));
        let closing = matches!(t, "," | "." | ";" | ":" | "?" | "!" | ")" | "]" | "}" | "%" | "'s" | "’s" | "'" | "n't" | "'re" | "'ve" | "'ll" | "'d" | "'m");
        let is_quote = t == "\"";
        // Punctuation run together into one token, quotes among it (`("`, `"),` in the
        // loan-agreement files): glued before when it opens by closing something, after
        // when it ends by opening something.
        let mixed = !is_quote && t.len() > 1 && t.contains('"') && !t.chars().any(char::is_alphanumeric);
        let glue = if is_quote {
            quote_open
        } else if mixed {
            t.starts_with([',', '.', ';', ':', '?', '!', ')', ']', '}', '%']) || (t.starts_with('"') && quote_open)
        } else {
            closing || joining
        };
        if !text.is_empty() && !glue && !glue_next {
            text.push(' ');
        }
        let s = text.len();
        text.push_str(t);
        spans.push((s, text.len()));
        glue_next = matches!(t, "(" | "[" | "{" | "$" | "“") || (is_quote && !quote_open) || joining;
        if is_quote {
            quote_open = !quote_open;
        }
        if mixed {
            if t.matches('"').count() % 2 == 1 {
                quote_open = !quote_open;
            }
            glue_next = t.ends_with(['(', '[', '{', '$', '“']) || (t.ends_with('"') && quote_open);
        }
    }
    (text, spans)
}

fn group_of(t: &str) -> Option<usize> {
    Some(match t {
        "PER" => 1,
        "ORG" => 2,
        "LOC" => 3,
        "MISC" => 4,
        _ => return None,
    })
}

const TITLE_TOKENS: &[&str] = &["Mr.", "Mrs.", "Ms.", "Dr.", "Mr", "Mrs", "Ms", "Dr", "Prof.", "Sir"];

/// Token range `a..b` of a person's name without a leading title.
fn without_title(tokens: &[String], a: usize, b: usize) -> usize {
    let mut a = a;
    while a + 1 < b && TITLE_TOKENS.contains(&tokens[a].as_str()) {
        a += 1;
    }
    a
}

/// Reads Re-DocRED's JSON (a list of documents with `sents` and `vertexSet`).
pub fn read_redocred(json: &str) -> Result<Vec<Doc>, TrainError> {
    let docs: Vec<DocredDoc> = serde_json::from_str(json).map_err(|e| TrainError(format!("not a Re-DocRED file: {e}")))?;
    let mut out = vec![];
    for d in docs {
        let mut per_sent: Vec<Vec<(usize, usize, usize)>> = vec![vec![]; d.sents.len()];
        for v in &d.vertex_set {
            for m in v {
                let Some(g) = group_of(&m.kind) else { continue };
                if m.sent_id < d.sents.len() && m.pos[0] < m.pos[1] && m.pos[1] <= d.sents[m.sent_id].len() {
                    per_sent[m.sent_id].push((m.pos[0], m.pos[1], g));
                }
            }
        }
        let mut doc = Doc { id: format!("redocred:{}", d.title), sentences: vec![] };
        for (tokens, ents) in d.sents.iter().zip(per_sent) {
            let (text, spans) = detokenize(tokens);
            let mut gold: Vec<(Span, usize)> = ents
                .into_iter()
                .map(|(a, b, g)| {
                    let a = if g == 1 { without_title(tokens, a, b) } else { a };
                    ((spans[a].0, spans[b - 1].1), g)
                })
                .collect();
            gold.sort();
            gold.dedup();
            doc.sentences.push(Sample { text, gold });
        }
        out.push(doc);
    }
    Ok(out)
}

/// Reads FIRE's JSON (a list of sentences with `tokens` and `entities`); each sentence is
/// its own document.
pub fn read_fire(json: &str) -> Result<Vec<Doc>, TrainError> {
    let items: Vec<FireItem> = serde_json::from_str(json).map_err(|e| TrainError(format!("not a FIRE file: {e}")))?;
    let mut out = vec![];
    for (n, it) in items.into_iter().enumerate() {
        let (text, spans) = detokenize(&it.tokens);
        let mut gold = vec![];
        for e in &it.entities {
            if e.start >= e.end || e.end > it.tokens.len() {
                continue;
            }
            let g = match e.kind.as_str() {
                "Company" => 2,
                "Person" => 1,
                "Location" | "GeopoliticalEntity" => 3,
                _ => continue,
            };
            let (mut a, mut b) = (e.start, e.end);
            if g == 2 {
                // "Green River Collieries , LLC 's ( " Green River " )": the name, then its alias.
                if let Some(open) = (a..b).find(|&i| it.tokens[i] == "(") {
                    let inner: Vec<usize> = (open + 1..b).filter(|&i| !matches!(it.tokens[i].as_str(), "\"" | "“" | "”" | ")" | "the")).collect();
                    if let (Some(&x), Some(&y)) = (inner.first(), inner.last())
                        && it.tokens[x].chars().next().is_some_and(char::is_uppercase)
                    {
                        gold.push(((spans[x].0, spans[y].1), 2));
                    }
                    b = open;
                }
                while b > a + 1 && matches!(it.tokens[b - 1].as_str(), "'s" | "’s" | "," | "'") {
                    b -= 1;
                }
            }
            if g == 1 {
                a = without_title(&it.tokens, a, b);
            }
            gold.push(((spans[a].0, spans[b - 1].1), g));
        }
        gold.sort();
        gold.dedup();
        let id = it.orig_id.map_or_else(|| n.to_string(), |v| v.to_string());
        out.push(Doc { id: format!("fire:{id}"), sentences: vec![Sample { text, gold }] });
    }
    Ok(out)
}

/// The gold class of each token: begin/inside of the gold name that contains it, else outside.
pub fn gold_classes(p: &Prepared, gold: &[(Span, usize)]) -> Vec<usize> {
    let mut out = vec![O; p.tokens.len()];
    for &((s, e), g) in gold {
        let mut first = true;
        for (i, t) in p.tokens.iter().enumerate() {
            if t.start >= s && t.end <= e {
                out[i] = if first { 2 * g - 1 } else { 2 * g };
                first = false;
            }
        }
    }
    out
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | *b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Map<V> = hashbrown::HashMap<u64, V, BuildHasherDefault<Identity>>;

/// One feature's weights, with the running sums averaging needs.
#[derive(Clone, Default)]
struct Weights {
    w: [f64; NC],
    total: [f64; NC],
    stamp: [u64; NC],
}

/// An averaged perceptron over the tagger's features.
#[derive(Default)]
pub struct Perceptron {
    weights: Map<Weights>,
    step: u64,
    min: i32,
}

impl Perceptron {
    fn scores(&self, feats: &[u64]) -> [i32; NC] {
        // Training scores in floating point, compared as the model's integers would be
        // compared only after quantisation; ties go to the lowest class as at run time.
        let mut s = [0f64; NC];
        for f in feats {
            if let Some(w) = self.weights.get(f) {
                for c in 0..NC {
                    s[c] += w.w[c];
                }
            }
        }
        // Order-preserving map to integers for `ner::best` (scaled, then rounded).
        s.map(|x| (x * 1024.0).round().clamp(i32::MIN as f64, i32::MAX as f64) as i32)
    }

    fn update(&mut self, feats: &[u64], truth: usize, guess: usize) {
        let now = self.step;
        for f in feats {
            let w = self.weights.entry(*f).or_default();
            for (c, delta) in [(truth, 1.0), (guess, -1.0)] {
                w.total[c] += (now - w.stamp[c]) as f64 * w.w[c];
                w.stamp[c] = now;
                w.w[c] += delta;
            }
        }
    }

    /// One pass over a sentence: tags greedily with the current weights, updating on
    /// each mistake. Returns the number of tokens scored.
    fn learn(&mut self, p: &Prepared, gold: &[usize], hist: &mut ner::History) -> usize {
        let mut feats = Vec::with_capacity(32);
        let (mut p1, mut p2) = (O, O);
        let mut n = 0;
        for i in 0..p.tokens.len() {
            let guess = if p.candidate(i, p1) {
                n += 1;
                // Every scored token is a step of the average, right or wrong.
                self.step += 1;
                let lw = p.word_hash(i);
                p.features(i, p1, p2, hist.of(lw), &mut feats);
                let guess = ner::best(&self.scores(&feats), p1, p.continuation_only(i));
                if !p.continuation_only(i) {
                    hist.note(lw, guess);
                }
                // The right move from the history the tagger actually has.
                let mut truth = gold[i];
                if truth != O && !ner::allowed(p1, truth) {
                    truth = if p.continuation_only(i) { O } else { truth - (1 - truth % 2) };
                }
                if truth != O && p.continuation_only(i) && truth % 2 == 1 {
                    truth = O;
                }
                if guess != truth {
                    self.update(&feats, truth, guess);
                }
                guess
            } else {
                O
            };
            p2 = p1;
            p1 = guess;
        }
        n
    }

    /// The averaged weights as 16-bit integers (the largest at 2^15 - 1; a sum of a few
    /// dozen stays far within 32 bits); features whose weights are all below `min` in
    /// absolute value are dropped (all-zero ones at least).
    fn finish(&self) -> Vec<(u64, [i32; NC])> {
        let now = self.step.max(1);
        let mut avg: BTreeMap<u64, [f64; NC]> = BTreeMap::new();
        let mut max = 0f64;
        for (k, w) in &self.weights {
            let mut a = [0f64; NC];
            for c in 0..NC {
                a[c] = (w.total[c] + (now - w.stamp[c]) as f64 * w.w[c]) / now as f64;
                max = max.max(a[c].abs());
            }
            avg.insert(*k, a);
        }
        let scale = if max > 0.0 { f64::from(i16::MAX) / max } else { 1.0 };
        avg.into_iter()
            .filter_map(|(k, a)| {
                let q = a.map(|x| (x * scale).round() as i32);
                q.iter().any(|x| x.abs() >= self.min.max(1)).then_some((k, q))
            })
            .collect()
    }
}

/// A small deterministic generator (xorshift64*) for shuffling.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Training settings.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Passes over the data.
    pub epochs: usize,
    /// Shuffling seed.
    pub seed: u64,
    /// Features whose every weight is below this (of 2^15 - 1 for the largest) are dropped.
    pub prune: i32,
    /// The decoding margin, in thousandths of the largest weight ([`Model::margin`]).
    pub margin_permille: i32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { epochs: 15, seed: 20261201, prune: 1, margin_permille: 0 }
    }
}

/// Trains on the sentences of `docs`: the quantised weights, sorted by feature.
pub fn train(docs: &[&Doc], settings: Settings) -> Vec<(u64, [i32; NC])> {
    let by_doc: Vec<Vec<(Prepared, Vec<usize>)>> = docs
        .iter()
        .map(|d| {
            let (text, spans) = d.joined();
            ner::prepare_document(&text, &spans)
                .into_iter()
                .zip(d.sentences.iter().zip(&spans))
                .map(|(p, (s, sp))| {
                    let gold: Vec<(Span, usize)> = s.gold.iter().map(|&((a, b), g)| ((a + sp.0, b + sp.0), g)).collect();
                    let g = gold_classes(&p, &gold);
                    (p, g)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let mut rng = Rng(settings.seed | 1);
    let mut model = Perceptron { min: settings.prune, ..Perceptron::default() };
    // Documents in shuffled order, each one's sentences in order: what the tagger said of
    // a word earlier in the document is a feature.
    let mut order: Vec<usize> = (0..by_doc.len()).collect();
    for _ in 0..settings.epochs {
        for i in (1..order.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        for &i in &order {
            let mut hist = ner::History::default();
            for (p, g) in &by_doc[i] {
                if p.any_capital() && !p.is_heading() {
                    model.learn(p, g, &mut hist);
                } else {
                    model.learn(p, g, &mut ner::History::default());
                }
            }
        }
    }
    model.finish()
}

/// The margin in model units.
pub fn margin(settings: Settings) -> i32 {
    (i16::MAX as i64 * settings.margin_permille as i64 / 1000) as i32
}

/// Words the documents write with a lower-case first letter at least twice, sorted: the
/// common-word list shipped with the model.
pub fn common_words(docs: &[&Doc]) -> Vec<String> {
    let mut n: BTreeMap<String, usize> = BTreeMap::new();
    for d in docs {
        for s in &d.sentences {
            for t in ner::tokenize(&s.text, (0, s.text.len())) {
                let w = &s.text[t.start..t.end];
                if w.chars().next().is_some_and(char::is_lowercase) && w.chars().all(char::is_alphabetic) && w.len() >= 2 {
                    *n.entry(w.to_string()).or_default() += 1;
                }
            }
        }
    }
    n.into_iter().filter(|(_, c)| *c >= 2).map(|(w, _)| w).collect()
}

/// A model from trained weights.
pub fn model(weights: &[(u64, [i32; NC])], about: &str, settings: Settings) -> Model {
    let mut m = Model::from_pairs(weights, about.to_string());
    m.margin = margin(settings);
    m
}

/// The fold of document `i` of `n` folds.
pub fn fold_of(i: usize, folds: usize) -> usize {
    i % folds.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punctuation_run_together_with_quotes_reads_naturally() {
        let toks = ["SILICON", "VALLEY", "BANK", "(\"", "Bank", "\"),", "a", "bank", "(the", "\"", "Issuer", "\")", "."];
        assert_eq!(detokenize(&toks).0, "SILICON VALLEY BANK (\"Bank\"), a bank (the \"Issuer\").");
    }

    #[test]
    fn detokenized_text_reads_naturally() {
        let (t, s) = detokenize(&["Green", "River", ",", "LLC", "'s", "(", "\"", "Green", "River", "\"", ")", "assets", "."]);
        assert_eq!(t, "Green River, LLC's (\"Green River\") assets.");
        assert_eq!(&t[s[3].0..s[3].1], "LLC");
        assert_eq!(&t[s[7].0..s[8].1], "Green River");
    }

    #[test]
    fn fire_companies_lose_their_alias_and_people_their_title() {
        let json = r#"[{"tokens":["Mr.","Barron","joined","Acme","Corp",".","(","\"","Acme","\"",")","."],
            "entities":[{"type":"Person","start":0,"end":2},{"type":"Company","start":3,"end":11}],"relations":[]}]"#;
        let docs = read_fire(json).unwrap_or_else(|e| panic!("{e}"));
        let s = &docs[0].sentences[0];
        let got: Vec<(&str, usize)> = s.gold.iter().map(|((a, b), g)| (&s.text[*a..*b], *g)).collect();
        assert_eq!(got, [("Barron", 1), ("Acme Corp.", 2), ("Acme", 2)]);
    }

    #[test]
    fn training_is_deterministic_and_learns() {
        let mk = |t: &str, names: &[(&str, usize)]| Sample {
            text: t.to_string(),
            gold: names.iter().map(|(n, g)| (t.find(n).map(|i| (i, i + n.len())).unwrap_or((0, 0)), *g)).collect(),
        };
        let doc = Doc {
            id: "t".into(),
            sentences: (0..20)
                .flat_map(|_| {
                    [
                        mk("Yesterday Hirsch paid Spera in Boston.", &[("Hirsch", 1), ("Spera", 1), ("Boston", 3)]),
                        mk("Microsoft hired Jones in Seattle.", &[("Microsoft", 2), ("Jones", 1), ("Seattle", 3)]),
                    ]
                })
                .collect(),
        };
        let a = train(&[&doc], Settings::default());
        let b = train(&[&doc], Settings::default());
        assert_eq!(a, b);
        let m = model(&a, "test", Settings::default());
        let t = "Yesterday Hirsch paid Spera in Boston.";
        let names: Vec<(&str, &str)> = m.names(t, (0, t.len())).into_iter().map(|(s, k)| (&t[s.0..s.1], k)).collect();
        assert_eq!(names, [("Hirsch", "Person"), ("Spera", "Person"), ("Boston", "Location")]);
    }
}
