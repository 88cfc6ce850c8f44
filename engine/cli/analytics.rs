//! `tg search`, `tg central` and `tg communities` (the logic is `textgraph::analytics`).

use std::io::Write as _;
use std::process::ExitCode;

use textgraph::limits::exit;

use super::args::{CentralArgs, CommunitiesArgs, SearchArgs};
use super::open_store;

/// The commands of this module.
pub enum AnalyticsCommand {
    /// `tg search`.
    Search(SearchArgs),
    /// `tg central`.
    Central(CentralArgs),
    /// `tg communities`.
    Communities(CommunitiesArgs),
}

/// Runs `tg search`, `tg central` and `tg communities` (the logic is `textgraph::analytics`).
pub fn run(command: AnalyticsCommand) -> ExitCode {
    use textgraph::analytics::{central, communities, search};
    let fail = |e: String| {
        eprintln!("tg: {e}");
        ExitCode::from(exit::ERROR)
    };
    let json = |v: &dyn erased::Json| v.json();
    let out = match command {
        AnalyticsCommand::Search(SearchArgs { query, db, k, mode, format }) => {
            let Ok(store) = open_store(&db) else { return ExitCode::from(exit::ERROR) };
            let mode = search::Mode::parse(&mode).unwrap_or(search::Mode::Bm25);
            match search::search(&store, &query, mode, k) {
                Ok(r) if format == "json" => search::to_json(&r),
                Ok(r) => search::render(&r),
                Err(e) => return fail(e.to_string()),
            }
        }
        AnalyticsCommand::Central(CentralArgs { db, top, format, live }) => {
            let Ok(store) = open_store(&db) else { return ExitCode::from(exit::ERROR) };
            match analysis(&store, live) {
                Ok(a) if format == "json" => json(&a.central),
                Ok(a) => central::render(&a.central, top),
                Err(e) => return fail(e.to_string()),
            }
        }
        AnalyticsCommand::Communities(CommunitiesArgs { db, entity, topic, format, live }) => {
            let Ok(store) = open_store(&db) else { return ExitCode::from(exit::ERROR) };
            let a = match analysis(&store, live) {
                Ok(a) => a,
                Err(e) => return fail(e.to_string()),
            };
            match communities::select(&a.graph, &a.communities, entity.as_deref(), topic) {
                Err(e) => return fail(e.to_string()),
                Ok(sel) if format == "json" => json(&sel),
                Ok(sel) => communities::render(&sel, topic.is_some()),
            }
        }
    };
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    ExitCode::from(exit::OK)
}

/// The analysis `tg central` / `tg communities` show: the stored facts while current
/// (textgraph::analytics::stored), else (or with `--live`) computed now.
fn analysis(store: &textgraph::store::Store, live: bool) -> Result<textgraph::analytics::facts::Analysis, textgraph::store::StoreError> {
    if live {
        return textgraph::analytics::facts::analyse(store);
    }
    Ok(textgraph::analytics::stored::current_or_computed(store)?.0)
}

/// Pretty JSON of any serializable value, for the analytics commands.
mod erased {
    /// A value printed as pretty JSON.
    pub trait Json {
        /// The JSON text, with a final newline.
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
        }
    }
}
