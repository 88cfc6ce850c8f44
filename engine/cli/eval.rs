//! `tg eval …`: extraction scored against public gold (FIRE, KPI-EDGAR, Re-DocRED, CoNLL).

use std::io::Write as _;
use std::process::ExitCode;

use textgraph::limits::exit;

use super::args::EvalCommand;

/// The header `tg eval` prints above its scores.
const EVAL_COLUMNS: &str = "score precision recall f1 (tp fp fn)";

/// Runs `tg eval …`.
pub fn run(what: EvalCommand) -> ExitCode {
    use textgraph::extract::eval;
    let (path, format, errors, which) = match what {
        EvalCommand::Fire { path, format, errors } => (path, format, errors, "fire"),
        EvalCommand::Conll { path, format, errors } => (path, format, errors, "conll"),
        EvalCommand::Kpi { path, format, errors } => (path, format, errors, "kpi"),
        EvalCommand::Docred { path, format, errors } => (path, format, errors, "docred"),
    };
    let report = if which == "kpi" {
        eval::read_xlsx(&path).and_then(|sheets| eval::kpi(&sheets))
    } else {
        let text = match std::fs::read(&path) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                eprintln!("tg: cannot read {}: {e}", path.display());
                return ExitCode::from(exit::ERROR);
            }
        };
        // The built-in name recogniser learned from Re-DocRED's and FIRE's dev files: scores on
        // them are training scores. Say so; held-out scores come from `tg-train-ner --cv`.
        let hash = blake3::hash(text.as_bytes()).to_hex().to_string();
        if textgraph::extract::ner::BUILTIN.about.contains(&hash) {
            eprintln!(
                "tg: note: {} is part of the built-in name recogniser's training data; entity scores on it are training scores (held-out: tg-train-ner --cv 5, docs/BENCHMARKS.md)",
                path.display()
            );
        }
        let vocab = textgraph::extract::vocab::Vocabulary::builtin();
        match which {
            "fire" => eval::fire(&text, vocab),
            "docred" => textgraph::extract::eval_docred::docred(&text, vocab, &textgraph::extract::ner::BUILTIN, &|_| true),
            _ => eval::conll(&text),
        }
    };
    let report = match report {
        Ok(r) => r,
        Err(e) => {
            eprintln!("tg: {}: {e}", path.display());
            return ExitCode::from(exit::ERROR);
        }
    };
    let out = if format == "json" {
        let mut v = serde_json::to_value(&report).unwrap_or_default();
        if let Some(h) = report.hallucinated_edge_rate() {
            v["hallucinated_edge_rate"] = serde_json::json!(h);
        }
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    } else {
        // The column names first (issue 20): every score row reads `NAME P R F1 (tp fp fn)`.
        let errs: String = if errors { report.errors.iter().map(|e| format!("{e}\n")).collect() } else { String::new() };
        format!("{EVAL_COLUMNS}\n{}{errs}", report.to_text())
    };
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    ExitCode::from(exit::OK)
}
