//! The rule library's commands: `tg rules`, `resolve`, `contradictions`, `timeline`,
//! `path`, `why`, `neighbors`, `predict`.

use std::io::Write as _;
use std::process::ExitCode;

use textgraph::limits::exit;

use super::args::*;
use super::{emit, open_store, with_prefix};

/// The commands of this module.
pub enum LibraryCommand {
    /// `tg rules`.
    Rules(RulesArgs),
    /// `tg resolve`.
    Resolve(ResolveArgs),
    /// `tg contradictions`.
    Contradictions(ContradictionsArgs),
    /// `tg timeline`.
    Timeline(TimelineArgs),
    /// `tg path`.
    Path(PathArgs),
    /// `tg why`.
    Why(WhyArgs),
    /// `tg neighbors`.
    Neighbors(NeighborsArgs),
    /// `tg predict`.
    Predict(PredictArgs),
}

/// The rule library's commands: `tg rules`, `resolve`, `contradictions`, `timeline`, `path`, `predict`.
pub fn run(command: LibraryCommand) -> Result<ExitCode, ExitCode> {
    use textgraph::rules::resolve::{render, standalone, views};
    use textgraph::rules::rulebook;
    let fail = |e: String| {
        eprintln!("tg: {e}");
        ExitCode::from(exit::ERROR)
    };
    match command {
        LibraryCommand::Rules(RulesArgs { action: RulesAction::Add { file, db } }) => {
            let store = open_store(&db)?;
            let name = rulebook::add(&store, &file).map_err(|e| {
                eprint!("{}", with_prefix(&e.to_string()));
                ExitCode::from(exit::ERROR)
            })?;
            println!("added {name} ({}); run tg derive to apply it", file.display());
        }
        LibraryCommand::Rules(RulesArgs { action: RulesAction::List { db } }) => {
            let store = open_store(&db)?;
            for (p, t) in rulebook::STDLIB {
                println!("stdlib\t{p}\t{} rules", t.matches(":-").count());
            }
            for f in rulebook::registered(&store).map_err(|e| fail(e.to_string()))? {
                println!("{}\t{}\t{} rules", f.name, f.path, f.text.matches(":-").count());
            }
        }
        LibraryCommand::Rules(RulesArgs { action: RulesAction::Remove { name, db } }) => {
            let store = open_store(&db)?;
            rulebook::remove(&store, &name).map_err(|e| fail(e.to_string()))?;
            println!("removed {name}; run tg derive to apply it");
        }
        LibraryCommand::Resolve(ResolveArgs { names: Some(path), format, distinct_within, .. }) => {
            let text = std::fs::read(&path).map_err(|e| fail(format!("cannot read {}: {e}", path.display())))?;
            let (rows, problems) = standalone::read_rows(&String::from_utf8_lossy(&text));
            for p in &problems {
                eprintln!("warning: {}: {p}", path.display());
            }
            for column in &distinct_within {
                if !rows.iter().any(|r| r.attributes.iter().any(|(k, _)| k == column)) {
                    return Err(fail(format!("--distinct-within {column}: no record of {} has a value in a column of that name", path.display())));
                }
            }
            let clusters = standalone::resolve_rows(&rows, &distinct_within).map_err(|e| fail(e.to_string()))?;
            let mut out = String::new();
            if format == "json" {
                let v: Vec<serde_json::Value> = clusters.iter().map(|(i, c)| serde_json::json!({"id": i, "cluster": c})).collect();
                out = serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
            } else {
                out.push_str("id,cluster\n");
                let q = |s: &str| if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() };
                for (i, c) in &clusters {
                    out.push_str(&format!("{},{}\n", q(i), q(c)));
                }
            }
            let _ = std::io::stdout().lock().write_all(out.as_bytes());
        }
        LibraryCommand::Resolve(ResolveArgs { db, accept, reject, format, .. }) => {
            let store = open_store(&db)?;
            if let Some((pair, verdict)) = accept.map(|p| (p, "accept")).or_else(|| reject.map(|p| (p, "reject"))) {
                let a = views::find_raw_entity(&store, &pair[0]).map_err(|e| fail(e.to_string()))?;
                let b = views::find_raw_entity(&store, &pair[1]).map_err(|e| fail(e.to_string()))?;
                if a == b {
                    return Err(fail(format!("{} and {} are the same entity ({a})", pair[0], pair[1])));
                }
                rulebook::judge(&store, &a, &b, verdict).map_err(|e| fail(e.to_string()))?;
                println!("recorded: {verdict} {} {}; run tg derive to apply it", pair[0], pair[1]);
                return Ok(ExitCode::from(exit::OK));
            }
            if format == "csv" {
                return Err(fail("--format csv needs --names FILE.csv".into()));
            }
            let v = views::resolve(&store).map_err(|e| fail(e.to_string()))?;
            emit(&format, &v, render::resolve);
        }
        LibraryCommand::Contradictions(ContradictionsArgs { db, format }) => {
            let v = views::contradictions(&open_store(&db)?).map_err(|e| fail(e.to_string()))?;
            emit(&format, &v, |v| render::contradictions(v));
        }
        LibraryCommand::Timeline(TimelineArgs { entity, db, format }) => {
            let (class, v) = views::timeline(&open_store(&db)?, &entity).map_err(|e| fail(e.to_string()))?;
            let json = serde_json::json!({"entity": class, "claims": v});
            emit(&format, &json, |_| render::timeline(&class, &v));
        }
        LibraryCommand::Path(PathArgs { from, to, db, modality, max_hops, format }) => {
            let v = views::path(&open_store(&db)?, &from, &to, &modality, max_hops).map_err(|e| fail(e.to_string()))?;
            let found = !v.hops.is_empty() || v.from == v.to;
            emit(&format, &v, |v| render::path(v, &modality));
            if !found {
                return Ok(ExitCode::from(exit::NO));
            }
        }
        LibraryCommand::Why(WhyArgs { entity, db, format }) => {
            let v = textgraph::rules::resolve::entity::why(&open_store(&db)?, &entity).map_err(|e| fail(e.to_string()))?;
            emit(&format, &v, textgraph::rules::resolve::entity::render_why);
        }
        LibraryCommand::Neighbors(NeighborsArgs { entity, db, format }) => {
            use textgraph::rules::resolve::entity;
            let (key, v) = entity::neighbours(&open_store(&db)?, &entity).map_err(|e| fail(e.to_string()))?;
            if format == "tsv" || format == "csv" {
                let rows: Vec<Vec<String>> = v
                    .iter()
                    .map(|n| vec![n.direction.clone(), n.relation.clone(), n.other.clone(), n.claims.len().to_string(), n.modalities.join(" "), n.citation.clone()])
                    .collect();
                print!("{}", super::table::render(&format, &["direction", "relation", "entity", "claims", "modalities", "citation"], &rows));
            } else {
                let json = serde_json::json!({"entity": key, "neighbours": v});
                emit(&format, &json, |_| entity::render_neighbours(&key, &v));
            }
        }
        LibraryCommand::Predict(PredictArgs { db, method, top, format }) => {
            let v = textgraph::rules::resolve::predict::predict(&open_store(&db)?, method.as_deref(), top).map_err(|e| fail(e.to_string()))?;
            emit(&format, &v, |v| textgraph::rules::resolve::predict::render(v));
        }
    }
    Ok(ExitCode::from(exit::OK))
}
