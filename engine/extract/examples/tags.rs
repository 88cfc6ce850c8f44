//! Prints what the shipped name recogniser makes of one sentence, for diagnosis: each
//! token's class, each scored token's class scores less the outside class's, and the names
//! after the rules that join, retype and filter the tagger's runs.
//!
//! ```text
//! cargo run --release -p tg-extract --example tags -- "He was paid by the Federal Housing Administration."
//! cargo run --release -p tg-extract --example tags -- --document memo.txt
//! ```
//!
//! With `--document FILE`, each non-empty line of the file is read as a sentence of one
//! document (the tagger's document context and history apply) and its names are printed.

use tg_extract::ner::{self, CLASSES, History};

fn main() {
    let t = std::env::args().nth(1).unwrap_or_default();
    if t == "--document" {
        let text = std::env::args().nth(2).and_then(|f| std::fs::read_to_string(f).ok()).unwrap_or_default();
        let mut lines = vec![];
        let mut at = 0;
        for l in text.split_inclusive('\n') {
            let body = l.trim_end();
            if !body.trim().is_empty() {
                lines.push((at, at + body.len()));
            }
            at += l.len();
        }
        for (line, names) in lines.iter().zip(ner::BUILTIN.document(&text, &lines)) {
            let names: Vec<String> = names.into_iter().map(|(s, k)| format!("{k}:{}", &text[s.0..s.1])).collect();
            println!("{} | {names:?}", &text[line.0..line.1]);
        }
        return;
    }
    let p = ner::prepare(&t, (0, t.len()));
    let m = &*ner::BUILTIN;
    let tags = m.tag(&p, &mut History::default());
    let word = |k: &ner::Token| &t[k.start..k.end];
    let classes: Vec<String> = p.tokens.iter().zip(&tags).map(|(k, &c)| if c == ner::O { word(k).to_string() } else { format!("{}/{}", word(k), CLASSES[c]) }).collect();
    println!("{}", classes.join(" "));
    let mut features = vec![];
    let (mut p1, mut p2) = (ner::O, ner::O);
    let mut scored = vec![];
    for (i, k) in p.tokens.iter().enumerate() {
        if p.candidate(i, p1) {
            p.features(i, p1, p2, 0, &mut features);
            let s = m.scores(&features);
            scored.push(format!("{}[{}]", word(k), s.iter().map(|x| (x - s[0]).to_string()).collect::<Vec<_>>().join(",")));
        }
        (p1, p2) = (tags[i], p1);
    }
    println!("scores less O's, in the order {}: {}", CLASSES.join(","), scored.join(" "));
    let names: Vec<String> = m.names(&t, (0, t.len())).into_iter().map(|(s, k)| format!("{k}:{}", &t[s.0..s.1])).collect();
    println!("names: {names:?}");
}
