//! `tg derive [FILE.dl] [--dry-run]`: runs the case's rule library — with a one-off rule
//! file added to it, never instead of it — stores the result (unless `--dry-run`), and
//! prints the counts, what changed in the derived layer relation by relation, what was
//! found, and the commands to look.

use std::path::PathBuf;

use textgraph::app::reason::{self, layer};
use textgraph::rules::resolve::findings;
use textgraph::rules::rulebook::{self, oneoff};
use textgraph::store::Store;

/// What `tg derive` was asked.
pub struct Args {
    /// A one-off rule file added to the case's program for this run.
    pub rules: Option<PathBuf>,
    /// Evaluate everything even when maintenance would do.
    pub full: bool,
    /// Evaluate and report, store nothing.
    pub dry_run: bool,
    /// `text` or `json`.
    pub format: String,
}

/// Runs the derivation; returns what to print on standard output.
pub fn run(store: &Store, args: &Args) -> Result<String, String> {
    let started = std::time::Instant::now();
    let before = layer::snapshot(store).map_err(|e| e.to_string())?;
    let (compiled, label, note) = match &args.rules {
        Some(path) => {
            let o = oneoff::program_with(store, path).map_err(|e| e.to_string())?;
            let shown = path.display();
            let note = if o.registered {
                format!("{shown} is registered: its current text replaces the registered copy for this run")
            } else {
                format!("{shown} is added for this run only: the next `tg derive` drops its conclusions; `tg rules add {shown}` keeps it")
            };
            (o.compiled, o.label, Some(note))
        }
        None => {
            let (c, label) = rulebook::program(store).map_err(|e| e.to_string())?;
            (c, label, None)
        }
    };
    let given = rulebook::judgements(store).map_err(|e| e.to_string())?;
    let heads = oneoff::case_heads(&compiled);
    let json = args.format == "json";
    let mut out = String::new();
    let (report, after) = if args.dry_run {
        let (report, facts) = reason::preview_compiled(store, &compiled, &given).map_err(|e| e.to_string())?;
        (report, layer::snapshot_of(&facts))
    } else {
        let mut after = before.clone();
        let report = reason::derive_tracked(store, &compiled, &label, &given, args.full, started, Some(&mut after)).map_err(|e| e.to_string())?;
        (report, after)
    };
    let changes = layer::diff(&before, &after);
    let found = if args.dry_run { vec![] } else { findings::findings(store, &heads, &after).map_err(|e| e.to_string())? };
    if json {
        let v = serde_json::json!({
            "rules": label,
            "dry_run": args.dry_run,
            "mode": report.mode,
            "inputs": report.inputs,
            "changes_in": report.changes,
            "derived": report.derived,
            "written": report.written,
            "removed": report.removed,
            "changed": changes,
            "found": found,
        });
        return Ok(serde_json::to_string_pretty(&v).unwrap_or_default() + "\n");
    }
    if args.dry_run {
        out.push_str(&format!("dry run of {label}: {} input facts, {} derived; nothing stored\n", report.inputs, report.derived));
    } else if report.mode == "incremental" {
        out.push_str(&format!(
            "incremental: {} input changes; strata {} skipped, {} maintained, {} recomputed; {} written, {} removed\n",
            report.changes, report.strata_skipped, report.strata_maintained, report.strata_recomputed, report.written, report.removed
        ));
    } else {
        out.push_str(&format!("{} input facts, {} derived ({} written, {} removed)\n", report.inputs, report.derived, report.written, report.removed));
    }
    if let Some(n) = note {
        out.push_str(&format!("note: {n}\n"));
    }
    out.push_str(if args.dry_run { "would change:\n" } else { "changed:\n" });
    out.push_str(&layer::render(&changes));
    out.push_str(&findings::render(&found));
    Ok(out)
}
