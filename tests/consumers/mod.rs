//! Finding the Python that has the real consumers of tg's output (Kuzu, networkx, rdflib,
//! the MCP client): `$TG_CONSUMER_PYTHON`, else the venv `scripts/consumers.sh` makes,
//! else `python3`. With `TG_REQUIRE_CONSUMERS=1` (set by `.ci/run` after installing them)
//! a missing consumer fails the test instead of skipping it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The interpreter to use if it imports `modules`; `None` (after printing why) to skip.
pub fn python(root: &Path, modules: &str) -> Option<PathBuf> {
    let venv = root.join("target/consumers-venv/bin/python");
    let py = std::env::var_os("TG_CONSUMER_PYTHON").map(PathBuf::from).unwrap_or_else(|| if venv.exists() { venv } else { PathBuf::from("python3") });
    let ok = Command::new(&py).args(["-c", &format!("import {modules}")]).output().is_ok_and(|o| o.status.success());
    if ok {
        return Some(py);
    }
    let why = format!("{} cannot import {modules}; run scripts/consumers.sh (it installs them into target/consumers-venv)", py.display());
    if std::env::var("TG_REQUIRE_CONSUMERS").as_deref() == Ok("1") {
        panic!("TG_REQUIRE_CONSUMERS=1 but {why}");
    }
    eprintln!("SKIPPED: {why}");
    None
}
