//! Cross-validates the name recogniser alone on Re-DocRED dev, for diagnosis: the tagger's
//! names after the rules that join, retype and filter its runs (`ner::Model::document`),
//! or with `--raw` its runs as tagged, scored by exact span and type against the gold
//! mentions of held-out documents. `tg-train-ner --cv 5` scores the whole extractor (rule
//! finders too); this separates what the tagger finds from what the span rules keep.
//!
//! ```text
//! cargo run --release -p tg-extract --example tagger_cv -- [--raw] [--fit] [--shared ../shared]
//! ```
//!
//! `--errors FILE` writes every organisation missed (FN) or wrongly found (FP), why (the
//! same span with another type, a boundary, …), the name and its sentence, and prints the
//! counts of each reason.
//!
//! `--fit` trains on every document and scores on the same ones: how well the model fits
//! its own training data, an upper bound of what held-out documents can score.

use std::process::ExitCode;

use tg_extract::ner::{self, History, Model, Prepared};
use tg_extract::ner_train::{Doc, Settings, fold_of, model, read_fire, read_redocred, train};

/// Exact-span hits, false alarms and misses per group (1 PER, 2 ORG, 3 LOC).
type Counts = [[usize; 3]; 4];

fn group_of(kind: &str) -> usize {
    match kind {
        "Person" => 1,
        "Organization" => 2,
        "Location" => 3,
        _ => 0,
    }
}

/// The tagger's runs as tagged: each begin tag and the inside tags of its type after it.
fn raw_runs(p: &Prepared, tags: &[usize]) -> Vec<((usize, usize), &'static str)> {
    let mut out = vec![];
    let mut i = 0;
    while i < tags.len() {
        let c = tags[i];
        if c != ner::O && c % 2 == 1 {
            let mut j = i + 1;
            while j < tags.len() && tags[j] == c + 1 {
                j += 1;
            }
            if let Some(t) = ner::class_type(c) {
                out.push(((p.tokens[i].start, p.tokens[j - 1].end), t));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Why an organisation was missed or wrongly found: the same span with another group, an
/// overlapping span of the same group (a boundary), an overlapping span of another group,
/// or nothing there at all.
fn why(x: &((usize, usize), usize), other: &[((usize, usize), usize)]) -> &'static str {
    let overlaps = |o: &&((usize, usize), usize)| o.0.0 < x.0.1 && x.0.0 < o.0.1;
    if let Some(o) = other.iter().find(|o| o.0 == x.0) {
        ["same span, other type", "same span, PER", "same span, ORG", "same span, LOC", "same span, MISC"].get(o.1).copied().unwrap_or("same span, other type")
    } else if other.iter().filter(overlaps).any(|o| o.1 == x.1) {
        "boundary"
    } else if other.iter().any(|o| overlaps(&o)) {
        "overlaps other type"
    } else {
        "nothing there"
    }
}

fn score(m: &Model, d: &Doc, raw: bool, n: &mut Counts, errors: &mut Vec<String>) {
    let (text, spans) = d.joined();
    let found: Vec<Vec<((usize, usize), &'static str)>> = if raw {
        let mut hist = History::default();
        ner::prepare_document(&text, &spans).iter().map(|p| if p.any_capital() && !p.is_heading() { raw_runs(p, &m.tag(p, &mut hist)) } else { vec![] }).collect()
    } else {
        m.document(&text, &spans)
    };
    for ((s, sp), found) in d.sentences.iter().zip(&spans).zip(found) {
        let gold: Vec<((usize, usize), usize)> = s.gold.iter().filter(|g| g.1 <= 3).map(|&((a, b), g)| ((a + sp.0, b + sp.0), g)).collect();
        let pred: Vec<((usize, usize), usize)> = found.into_iter().map(|(sp, k)| (sp, group_of(k))).filter(|x| x.1 != 0).collect();
        let all_gold: Vec<((usize, usize), usize)> = s.gold.iter().map(|&((a, b), g)| ((a + sp.0, b + sp.0), g)).collect();
        for p in pred.iter().filter(|p| p.1 == 2 && !gold.contains(p)) {
            errors.push(format!("FP\t{}\t{}\t{}", why(p, &all_gold), &text[p.0.0..p.0.1], &text[sp.0..sp.1]));
        }
        for g in gold.iter().filter(|g| g.1 == 2 && !pred.contains(g)) {
            errors.push(format!("FN\t{}\t{}\t{}", why(g, &pred), &text[g.0.0..g.0.1], &text[sp.0..sp.1]));
        }
        for p in &pred {
            n[p.1][usize::from(!gold.contains(p))] += 1;
        }
        for g in gold.iter().filter(|g| !pred.contains(g)) {
            n[g.1][2] += 1;
        }
    }
}

fn run() -> Result<(), String> {
    let (mut raw, mut fit, mut shared) = (false, false, std::path::PathBuf::from("../shared"));
    let mut errors_to: Option<std::path::PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--raw" => raw = true,
            "--fit" => fit = true,
            "--shared" => shared = args.next().ok_or("--shared needs a directory")?.into(),
            "--errors" => errors_to = Some(args.next().ok_or("--errors needs a file")?.into()),
            _ => return Err(format!("unknown argument {a}; usage: tagger_cv [--raw] [--fit] [--errors FILE] [--shared DIR]")),
        }
    }
    let read = |p: &str| {
        let path = shared.join(p);
        std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let redocred = read_redocred(&read("data/re_redocred/dev_revised.json")?).map_err(|e| e.to_string())?;
    let fire = read_fire(&read("data/re_fire_financial/fire_dev.json")?).map_err(|e| e.to_string())?;
    // The settings the shipped model is trained with (`tg-train-ner --margin 300`, stdlib/models/README.md).
    let settings = Settings { margin_permille: 300, ..Settings::default() };
    let folds = 5;
    let mut n: Counts = [[0; 3]; 4];
    let mut errors = vec![];
    for k in 0..folds {
        let held = |i: usize| fit || fold_of(i, folds) == k;
        let training: Vec<&Doc> =
            redocred.iter().enumerate().filter(|(i, _)| fit || !held(*i)).chain(fire.iter().enumerate().filter(|(i, _)| fit || fold_of(*i, folds) != k)).map(|(_, d)| d).collect();
        let m = model(&train(&training, settings), "diagnosis", settings);
        for d in redocred.iter().enumerate().filter(|(i, _)| held(*i)).map(|(_, d)| d) {
            score(&m, d, raw, &mut n, &mut errors);
        }
        if fit {
            break;
        }
    }
    println!(
        "# Re-DocRED dev, {}, {}",
        if fit { "trained and scored on every document" } else { "5-fold cross-validation" },
        if raw { "tagger runs as tagged" } else { "after the span rules" }
    );
    for (g, name) in [(1, "PER"), (2, "ORG"), (3, "LOC")] {
        let [tp, fp, fn_] = n[g];
        let p = tp as f64 / (tp + fp).max(1) as f64;
        let r = tp as f64 / (tp + fn_).max(1) as f64;
        let f = if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 };
        println!("{name} P {p:.3} R {r:.3} F1 {f:.3} ({tp} {fp} {fn_})");
    }
    if let Some(path) = errors_to {
        let mut why: std::collections::BTreeMap<(&str, &str), usize> = std::collections::BTreeMap::new();
        for e in &errors {
            let mut f = e.split('\t');
            *why.entry((f.next().unwrap_or(""), f.next().unwrap_or(""))).or_default() += 1;
        }
        for ((kind, reason), count) in why {
            println!("ORG {kind} {reason}: {count}");
        }
        std::fs::write(&path, errors.join("\n") + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tagger_cv: {e}");
            ExitCode::FAILURE
        }
    }
}
