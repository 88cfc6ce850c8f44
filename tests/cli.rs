//! `tg` as a user runs it: determinism, flags, bad input never panics.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tg(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tg")).current_dir(dir).args(args).output().unwrap_or_else(|e| panic!("cannot run tg: {e}"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tg-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
    d
}

fn case(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/datalog").join(name)
}

#[test]
fn two_runs_write_identical_bytes() {
    let out1 = scratch("det1");
    let out2 = scratch("det2");
    for (out, prov) in [(&out1, "--provenance"), (&out2, "--depth=3")] {
        let o = tg(&case("aggregates"), &["run", "program.dl", "-F", "facts", "-D", out.to_str().unwrap_or_default(), prov]);
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    }
    for f in ["sent.csv", "extremes.csv", "big_senders.csv"] {
        let a = std::fs::read(out1.join(f)).unwrap_or_default();
        let b = std::fs::read(out2.join(f)).unwrap_or_default();
        assert!(!a.is_empty(), "{f} is empty");
        assert_eq!(a, b, "{f} differs between runs");
    }
}

#[test]
fn explain_needs_provenance() {
    let o = tg(&case("transitive_closure"), &["run", "program.dl", "-F", "facts", "-D", "-", "--explain", "path(1,2)"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "tg: --explain needs --provenance (witnesses are only kept when asked for)\n");
}

#[test]
fn stdout_outputs_carry_headers() {
    let o = tg(&case("records"), &["run", "program.dl", "-D", "-"]);
    assert_eq!(o.status.code(), Some(0));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.starts_with("---------------\nsums\ns\n===============\n3\n7\n===============\n---------------\nout_list\nl\n"), "{s}");
}

#[test]
fn unreadable_program_is_an_error_not_a_panic() {
    let d = scratch("garbage");
    std::fs::write(d.join("bad.dl"), [0xffu8, 0xfe, b'(', b'.', 0]).unwrap_or_default();
    let o = tg(&d, &["run", "bad.dl"]);
    assert_eq!(o.status.code(), Some(2));
    let o = tg(&d, &["run", "missing.dl"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read program missing.dl"));
}

#[test]
fn show_plan_prints_join_orders_without_evaluating() {
    let o = tg(&case("transitive_closure"), &["run", "program.dl", "--show", "plan"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "stratum 0: edge\n\
         stratum 1: path (recursive)\n  \
           rule path(x, y) :- edge(x, y).\n    \
             round 0:\n      \
               for edge via [0, 1] key 0 bind [\"x\", \"y\"]\n  \
           rule path(x, z) :- path(x, y), edge(y, z).\n    \
             round 0:\n      \
               for path via [0, 1] key 0 bind [\"x\", \"y\"]\n        \
                 for edge via [0, 1] key 1 bind [\"z\"]\n    \
             version 0:\n      \
               for path (delta) via [0, 1] key 0 bind [\"x\", \"y\"]\n        \
                 for edge via [0, 1] key 1 bind [\"z\"]\n"
    );
}

#[test]
fn no_arguments_prints_help() {
    let o = tg(Path::new(env!("CARGO_MANIFEST_DIR")), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Usage: tg [OPTIONS] <COMMAND>"));
}
