//! Helpers the CLI test files share: run `tg` as a user does, make scratch folders,
//! read output. Each test file uses some of them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty folder for one test: `tg-<suite>-<pid>-<name>` in the temp folder.
/// Folders of test processes that have ended are removed first (once per process), so runs
/// do not pile up scratch stores in the temp folder.
pub fn scratch(suite: &str, name: &str) -> PathBuf {
    static SWEEP: std::sync::Once = std::sync::Once::new();
    SWEEP.call_once(sweep_ended);
    let d = std::env::temp_dir().join(format!("tg-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
    d
}

/// Removes the temp folder's `tg-<suite>-<pid>-…` scratch folders whose process has ended
/// (on systems with `/proc`; elsewhere it leaves them).
fn sweep_ended() {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix("tg-") else { continue };
        // The first all-digit part after the suite is the process id.
        let Some(pid) = rest.split('-').skip(1).find(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())) else { continue };
        if e.path().is_dir() && !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Runs `tg` in `dir` (without a `TG_DB` from the environment).
pub fn tg(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tg")).current_dir(dir).env_remove("TG_DB").args(args).output().unwrap_or_else(|e| panic!("cannot run tg: {e}"))
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Writes `text` to `root/rel`, creating folders.
pub fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(p, text).unwrap_or_else(|e| panic!("{e}"));
}

/// Copies a folder tree (a fixture corpus into a scratch folder).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{e}"));
    for e in std::fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())).flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
