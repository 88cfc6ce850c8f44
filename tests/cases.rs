//! Data-driven `tg run` cases, discovered from `tests/cases/**/program.dl`.
//!
//! A case directory holds `program.dl`, optionally `facts/` (inputs), `args`
//! (extra command-line arguments, one per line), and what must come out:
//! `expected/<rel>.csv` (every output file, nothing more), `expected.stdout`,
//! or `expected.err` (the run must fail with exactly this standard error).
//! `tg` runs inside the case directory, so messages name `program.dl:line:col`.
//! `UPDATE_EXPECT=1 cargo test --test cases` rewrites the expectations; review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

use libtest_mimic::{Arguments, Failed, Trial};

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut dirs = vec![];
    find_cases(&root, &mut dirs);
    dirs.sort();
    let trials = dirs
        .into_iter()
        .map(|d| {
            let name = d.strip_prefix(&root).unwrap_or(&d).display().to_string();
            Trial::test(name, move || run_case(&d))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

fn find_cases(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.join("program.dl").is_file() {
                out.push(p);
            } else {
                find_cases(&p, out);
            }
        }
    }
}

fn read(p: &Path) -> Option<String> {
    std::fs::read_to_string(p).ok()
}

fn run_case(dir: &Path) -> Result<(), Failed> {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let out = tempdir(dir)?;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tg"));
    cmd.current_dir(dir).arg("run").arg("program.dl").arg("-F").arg("facts").arg("-D").arg(&out);
    if let Some(extra) = read(&dir.join("args")) {
        cmd.args(extra.lines().filter(|l| !l.trim().is_empty()));
    }
    let res = cmd.output().map_err(|e| format!("cannot run tg: {e}"))?;
    let stdout = String::from_utf8_lossy(&res.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&res.stderr).into_owned();
    let code = res.status.code();
    if code == Some(101) {
        return Err(format!("tg panicked:\n{stderr}").into());
    }
    let err_path = dir.join("expected.err");
    if update {
        if code == Some(0) {
            let _ = std::fs::remove_file(&err_path);
            let exp = dir.join("expected");
            let _ = std::fs::remove_dir_all(&exp);
            for f in list(&out) {
                std::fs::create_dir_all(&exp).map_err(|e| e.to_string())?;
                std::fs::copy(out.join(&f), exp.join(&f)).map_err(|e| e.to_string())?;
            }
            write_or_remove(&dir.join("expected.stdout"), &stdout)?;
        } else {
            std::fs::write(&err_path, &stderr).map_err(|e| e.to_string())?;
        }
        let _ = std::fs::remove_dir_all(&out);
        return Ok(());
    }
    let result = check(dir, &out, code, &stdout, &stderr);
    let _ = std::fs::remove_dir_all(&out);
    result
}

fn check(dir: &Path, out: &Path, code: Option<i32>, stdout: &str, stderr: &str) -> Result<(), Failed> {
    if let Some(expected_err) = read(&dir.join("expected.err")) {
        if code == Some(0) {
            return Err(format!("expected failure, but tg succeeded; stderr:\n{stderr}").into());
        }
        if stderr != expected_err {
            return Err(format!("stderr differs\n--- expected\n{expected_err}\n--- actual\n{stderr}").into());
        }
        return Ok(());
    }
    if code != Some(0) {
        return Err(format!("tg exited with {code:?}:\n{stderr}").into());
    }
    let expected_stdout = read(&dir.join("expected.stdout")).unwrap_or_default();
    if stdout != expected_stdout {
        return Err(format!("stdout differs\n--- expected\n{expected_stdout}\n--- actual\n{stdout}").into());
    }
    let exp_dir = dir.join("expected");
    let want = list(&exp_dir);
    let got = list(out);
    if want != got {
        return Err(format!("output files differ: expected {want:?}, got {got:?}").into());
    }
    for f in want {
        let a = read(&exp_dir.join(&f)).unwrap_or_default();
        let b = read(&out.join(&f)).unwrap_or_default();
        if a != b {
            return Err(format!("{f} differs\n--- expected\n{a}\n--- actual\n{b}").into());
        }
    }
    Ok(())
}

fn write_or_remove(p: &Path, text: &str) -> Result<(), Failed> {
    if text.is_empty() {
        let _ = std::fs::remove_file(p);
        Ok(())
    } else {
        std::fs::write(p, text).map_err(|e| e.to_string().into())
    }
}

fn list(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).map(|rd| rd.flatten().filter(|e| e.path().is_file()).map(|e| e.file_name().to_string_lossy().into_owned()).collect()).unwrap_or_default();
    v.sort();
    v
}

fn tempdir(case: &Path) -> Result<PathBuf, Failed> {
    let name: String = case.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let p = std::env::temp_dir().join(format!("tg-case-{}-{}", std::process::id(), name));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).map_err(|e| format!("cannot create {}: {e}", p.display()))?;
    Ok(p)
}
