//! `tg derive [FILE.dl] [--dry-run]`: runs the case's rule library — with a one-off rule
//! file added to it, never instead of it — stores the result (unless `--dry-run`), and
//! prints the counts, what changed in the derived layer relation by relation, what was
//! found, and the commands to look.

use std::path::PathBuf;

use textgraph::analytics::stored;
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
        // A dry run evaluates the rules only: the stored analytics stay as they are.
        let mut after = layer::snapshot_of(&facts);
        after.extend(before.iter().filter(|(rel, _)| stored::is_stored(rel)).map(|(r, f)| (r.clone(), f.clone())));
        (report, after)
    } else {
        let mut after = before.clone();
        let report = reason::derive_tracked(store, &compiled, &label, &given, args.full, started, Some(&mut after)).map_err(|e| e.to_string())?;
        (report, after)
    };
    let all_changes = layer::diff(&before, &after);
    // The analytics relations change with every graph change: one line, not ten.
    let (analytics_changes, changes): (Vec<_>, Vec<_>) = all_changes.into_iter().partition(|c| stored::is_stored(&c.relation));
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
            "analytics_changed": analytics_changes,
            "analytics": report.analytics,
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
    if !changes.is_empty() || analytics_changes.is_empty() {
        out.push_str(&layer::render(&changes));
    }
    if !analytics_changes.is_empty() {
        let (added, removed): (usize, usize) = analytics_changes.iter().fold((0, 0), |(a, r), c| (a + c.added, r + c.removed));
        let sign = match (added, removed) {
            (a, 0) => format!("+{a}"),
            (0, r) => format!("-{r}"),
            (a, r) => format!("+{a} -{r}"),
        };
        out.push_str(&format!("  {sign} in {} analytics relation(s) (pagerank, community, …; --format json lists each)\n", analytics_changes.len()));
    }
    out.push_str(&findings::render(&found));
    if let Some(a) = &report.analytics
        && a.nodes > 0
    {
        out.push_str(&format!(
            "analytics stored: {} entities ranked, {}, {}, {}, {} (tg central, tg communities)\n",
            a.nodes,
            counted(a.communities, "community", "communities"),
            counted(a.god_nodes, "god node", "god nodes"),
            counted(a.bridges, "bridge", "bridges"),
            counted(a.orphans, "orphan", "orphans"),
        ));
    }
    Ok(out)
}

/// `1 community`, `2 communities`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
