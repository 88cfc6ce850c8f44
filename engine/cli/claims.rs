//! `tg claim …` and `tg audit …`: claims from outside extractors through the verbatim gate,
//! and audit samples (the logic is `textgraph::rules::claims`).

use std::io::Write as _;
use std::process::ExitCode;

use textgraph::limits::exit;

use super::args::{AuditAction, AuditArgs, ClaimAction, ClaimArgs};
use super::{load_vocab, open_store};

/// The commands of this module.
pub enum ClaimsCommand {
    /// `tg claim …`.
    Claim(ClaimArgs),
    /// `tg audit …`.
    Audit(AuditArgs),
}

/// Runs `tg claim …` and `tg audit …` (the logic is `textgraph::rules::claims`).
pub fn run(command: ClaimsCommand) -> ExitCode {
    use textgraph::rules::claims::{self, render};
    let opts = match &command {
        ClaimsCommand::Claim(ClaimArgs { action }) => match action.as_ref() {
            ClaimAction::Record { opts, .. } | ClaimAction::Import { opts, .. } | ClaimAction::Widen { opts, .. } | ClaimAction::List { opts } => opts,
        },
        ClaimsCommand::Audit(AuditArgs { action: AuditAction::Emit { opts, .. } | AuditAction::Ingest { opts, .. } }) => opts,
    };
    let json = opts.format == "json";
    let vocab = match load_vocab(opts.vocab.as_deref()) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(exit::ERROR);
        }
    };
    let store = match open_store(&opts.db) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let read = |p: &std::path::Path| std::fs::read_to_string(p).map_err(|e| format!("tg: cannot read {}: {e}", p.display()));
    let reply: Result<render::Reply, String> = match command {
        ClaimsCommand::Claim(ClaimArgs { action }) => match *action {
            ClaimAction::Record {
                opts: _,
                doc,
                subject,
                subject_type,
                relation,
                object,
                object_type,
                quote,
                modality,
                polarity,
                asserter,
                asserter_type,
                occurrence,
                near,
                attrs,
                source,
            } => {
                let mut attributes = std::collections::BTreeMap::new();
                let mut bad = None;
                for a in attrs {
                    match a.split_once('=') {
                        Some((k, v)) => {
                            attributes.insert(k.trim().to_string(), v.to_string());
                        }
                        None => bad = Some(claims::Refusal::new("bad_attribute", format!("--attr {a:?} is not KEY=VALUE"))),
                    }
                }
                let p = claims::Proposal {
                    doc,
                    subject,
                    subject_type,
                    relation,
                    object,
                    object_type,
                    quote: Some(quote),
                    modality,
                    polarity,
                    asserter,
                    asserter_type,
                    occurrence,
                    near,
                    attributes,
                    source: Some(source),
                };
                match bad {
                    Some(r) => Ok(render::refusal(&r, json)),
                    None => match claims::record(&store, &vocab, &p, "cli") {
                        Ok(r) => Ok(render::recorded(&r, json)),
                        Err(claims::Error::Refused(r)) => Ok(render::refusal(&r, json)),
                        Err(e) => Err(format!("tg: {e}")),
                    },
                }
            }
            ClaimAction::Import { file, opts: _, source, doc } => read(&file)
                .and_then(|text| claims::import(&store, &vocab, &text, doc.as_deref(), &source).map(|lines| render::imported(&lines, json)).map_err(|e| format!("tg: {e}"))),
            ClaimAction::Widen { opts: _, doc, quote, must_include, budget, occurrence, near } => {
                match claims::widen(&store, &doc, &quote, claims::quote::Choice { occurrence, near }, &must_include, budget) {
                    Ok(w) => Ok(render::widened(&doc, &w, json)),
                    Err(claims::Error::Refused(r)) => Ok(render::refusal(&r, json)),
                    Err(e) => Err(format!("tg: {e}")),
                }
            }
            ClaimAction::List { opts: _ } => claims::list(&store).map(|l| render::listed(&l, json)).map_err(|e| format!("tg: {e}")),
        },
        ClaimsCommand::Audit(AuditArgs { action }) => match action {
            AuditAction::Emit { opts: _, sample, seed, generated_only, output, force } => {
                match claims::audit::emit(&store, &vocab, &claims::audit::Sample { size: sample, seed, generated_only }) {
                    Err(e) => Err(format!("tg: {e}")),
                    Ok(batch) => {
                        let text = serde_json::to_string_pretty(&batch).unwrap_or_default() + "\n";
                        let n = batch["sample"].as_u64().unwrap_or(0);
                        let pop = batch["population"].as_u64().unwrap_or(0);
                        if output.as_os_str() == "-" {
                            Ok(render::Reply { stdout: text, ..Default::default() })
                        } else {
                            textgraph::store::output::write_output(store.path(), &output, text.as_bytes(), force)
                                .map(|_| render::Reply { stdout: format!("{n} of {pop} claims written to {} (seed {seed})\n", output.display()), ..Default::default() })
                                .map_err(|e| format!("tg: {e}"))
                        }
                    }
                }
            }
            AuditAction::Ingest { file, opts: _ } => read(&file).and_then(|text| match claims::audit::ingest(&store, &text) {
                Ok(Ok(r)) => Ok(render::ingested(&r, json)),
                Ok(Err(r)) => Ok(render::refusal(&r, json)),
                Err(e) => Err(format!("tg: {e}")),
            }),
        },
    };
    match reply {
        Ok(r) => {
            let _ = std::io::stdout().lock().write_all(r.stdout.as_bytes());
            eprint!("{}", r.stderr);
            ExitCode::from(r.code)
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(exit::ERROR)
        }
    }
}
