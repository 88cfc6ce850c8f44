#!/usr/bin/env python3
"""Run the shared Datalog workloads on tg and its peers, one machine, one run.

Normally started by scripts/bench.sh, which builds tg and the reference
engines first.  Standard library only.

For every workload and engine it runs the whole process (start, read TSV,
evaluate, write every output tuple) N times, takes the median wall time and
the median peak RSS, checks the output tuple count and digest against
<shared>/bench/expected/<bench>.txt and prints one line per engine with the
ratio of tg's time and memory to that engine's.

Wall time is measured here (time.perf_counter around the child).  Peak RSS
comes from `/usr/bin/time -f %M` when it exists, otherwise from os.wait4's
rusage of the child (same number: the maximum resident set of the process).
"""
import argparse
import datetime
import hashlib
import os
import platform
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

WORKLOADS = ["tc_chain_1000", "tc_chain_2000", "tc_random", "sg_tree", "andersen", "negagg"]
# workload -> (program kind used by the reference binaries, program file)
KIND = {
    "tc_chain_1000": ("tc", "tc.dl"),
    "tc_chain_2000": ("tc", "tc.dl"),
    "tc_random": ("tc", "tc.dl"),
    "sg_tree": ("sg", "sg.dl"),
    "andersen": ("andersen", "andersen.dl"),
    "negagg": ("negagg", "negagg.dl"),
}
REFERENCES = ["souffle", "crepe", "ascent", "datafrog"]
ENGINES = ["tg"] + REFERENCES
GNU_TIME = "/usr/bin/time"
# Targets of the provenance issue: tg --provenance vs plain tg run.
PROV_TIME_TARGET = 1.3
PROV_MEM_TARGET = 1.5


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="scripts/bench.sh", allow_abbrev=False,
        description="Benchmark tg against Soufflé and compiled Rust Datalog peers.")
    ap.add_argument("workloads", nargs="*", metavar="WORKLOAD",
                    help="subset of: %s (default: all)" % " ".join(WORKLOADS))
    ap.add_argument("--runs", type=int, default=1, help="runs per engine and workload; medians are reported (default 1)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per run before it is killed (default 300)")
    ap.add_argument("--provenance", action="store_true",
                    help="also run `tg run --provenance` and compare it with plain `tg run`")
    ap.add_argument("--engines", default=",".join(ENGINES),
                    help="comma-separated subset of %s (default: all available)" % ",".join(ENGINES))
    ap.add_argument("--mem-limit-mib", type=int, default=16384,
                    help="address-space limit (RLIMIT_AS) per run, 0 = none (default 16384)")
    ap.add_argument("--markdown", action="store_true", help="also print a Markdown table at the end")
    ap.add_argument("--no-build", action="store_true", help="(bench.sh) use the binaries already built")
    ap.add_argument("--check-args", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    a.workloads = a.workloads or list(WORKLOADS)
    if a.workloads == ["all"]:
        a.workloads = list(WORKLOADS)
    bad = [w for w in a.workloads if w not in KIND]
    if bad:
        ap.error("unknown workload(s): %s; known: %s" % (" ".join(bad), " ".join(WORKLOADS)))
    a.engines = [e.strip() for e in a.engines.split(",") if e.strip()]
    bad = [e for e in a.engines if e not in ENGINES]
    if bad:
        ap.error("unknown engine(s): %s; known: %s" % (" ".join(bad), " ".join(ENGINES)))
    if a.runs < 1:
        ap.error("--runs must be >= 1")
    if a.timeout <= 0:
        ap.error("--timeout must be > 0")
    return a


# ---------------------------------------------------------------------------
# measuring one run
# ---------------------------------------------------------------------------
class Run:
    def __init__(self, status, wall=None, rss_kib=None, detail=""):
        self.status = status      # "ok", "timeout", "fail"
        self.wall = wall          # seconds
        self.rss_kib = rss_kib    # peak resident set, KiB
        self.detail = detail      # stderr tail on failure


def measure(cmd, timeout, mem_limit_mib, log_path):
    """Run cmd once; return a Run. The child gets its own session so that a
    timeout kills it together with any /usr/bin/time wrapper."""
    use_time = os.access(GNU_TIME, os.X_OK)
    tfile = None
    if use_time:
        fd, tfile = tempfile.mkstemp(prefix="bench-time-")
        os.close(fd)
        cmd = [GNU_TIME, "-f", "%e %M", "-o", tfile] + cmd

    def limit():
        if mem_limit_mib > 0:
            b = mem_limit_mib * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (b, b))

    timed_out = threading.Event()
    with open(log_path, "wb") as log:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                             start_new_session=True, preexec_fn=limit)

        def kill():
            timed_out.set()
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, wstatus, ru = os.wait4(p.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(wstatus)
    # make sure nothing of the group survives (e.g. time killed, child alive)
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass

    rss = ru.ru_maxrss  # KiB on Linux
    note = ""
    if use_time:
        try:
            with open(tfile) as f:
                lines = [l for l in f.read().splitlines() if l.strip()]
            # on failure GNU time first writes e.g. "Command terminated by signal 6"
            if len(lines) > 1:
                note = lines[0].strip()
            rss = int(lines[-1].split()[1])
        except (OSError, IndexError, ValueError):
            pass
        finally:
            os.unlink(tfile)
    if timed_out.is_set():
        return Run("timeout", wall, rss, "killed after %gs" % timeout)
    if p.returncode != 0:
        with open(log_path, "rb") as f:
            tail = f.read()[-600:].decode("utf-8", "replace").strip()
        how = note or ("exit %d" % p.returncode if p.returncode > 0 else "signal %d" % -p.returncode)
        lines = tail.splitlines() or [""]
        keys = ("memory allocation", "panicked", "error", "Error")
        msg = next((l for l in reversed(lines) if any(k in l for k in keys)), lines[-1])
        return Run("fail", wall, rss, "%s: %s; log %s" % (how, msg.strip(), log_path))
    return Run("ok", wall, rss)


# ---------------------------------------------------------------------------
# checking an output directory against expected/<bench>.txt
# ---------------------------------------------------------------------------
def read_expected(path):
    exp = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3:
                exp[parts[0]] = (int(parts[1]), parts[2])
    return exp


def count_and_digest(path):
    """Tuple count and md5 of the C-locale-sorted lines, as reference.py and
    `LC_ALL=C sort f | md5sum` compute them."""
    env = dict(os.environ, LC_ALL="C")
    tmpdir = os.path.dirname(os.path.abspath(path))
    sort = subprocess.Popen(["sort", "-T", tmpdir, path], stdout=subprocess.PIPE, env=env)
    h = hashlib.md5()
    n = 0
    tail = b""
    while True:
        chunk = sort.stdout.read(1 << 20)
        if not chunk:
            break
        h.update(chunk)
        n += chunk.count(b"\n")
        tail = chunk[-1:]
    if sort.wait() != 0:
        raise RuntimeError("sort failed on %s" % path)
    if tail and tail != b"\n":  # last line without newline (sort adds one anyway)
        n += 1
    return n, h.hexdigest()


def verify(out_dir, expected):
    """Return (ok, message)."""
    problems = []
    for rel, (n_exp, d_exp) in sorted(expected.items()):
        f = os.path.join(out_dir, rel + ".csv")
        if not os.path.exists(f):
            problems.append("%s.csv missing" % rel)
            continue
        n, d = count_and_digest(f)
        if n != n_exp:
            problems.append("%s: %d tuples, expected %d" % (rel, n, n_exp))
        elif d != d_exp:
            problems.append("%s: digest %s, expected %s (count matches)" % (rel, d, d_exp))
    return (not problems), "; ".join(problems)


# ---------------------------------------------------------------------------
def engine_cmd(engine, env, bench, data, out):
    kind, prog = KIND[bench]
    prog = os.path.join(env["programs"], prog)
    if engine == "tg":
        return [env["tg"], "run", prog, "-F", data, "-D", out]
    if engine == "tg-prov":
        return [env["tg"], "run", "--provenance", prog, "-F", data, "-D", out]
    if engine == "souffle":
        return [env["souffle"], "-F", data, "-D", out, prog]
    return [os.path.join(env["ref_bin"], engine + "_bench"), kind, data, out]


def fmt_ratio(a, b):
    if a is None or b is None or b == 0:
        return "n/a"
    return "%.2f" % (a / b)


def mib(kib):
    return None if kib is None else kib / 1024.0


def main():
    a = parse_args(sys.argv[1:])
    if a.check_args:
        return 0
    env = {
        "shared": os.environ["BENCH_SHARED"],
        "programs": os.path.join(os.environ["BENCH_SHARED"], "programs"),
        "tg": os.environ["BENCH_TG"],
        "ref_bin": os.environ.get("BENCH_REF_BIN", ""),
        "data": os.environ["BENCH_DATA"],
        "out": os.environ["BENCH_OUT"],
        "souffle": shutil.which("souffle"),
    }

    engines = []
    for e in a.engines:
        if e == "tg":
            if not os.access(env["tg"], os.X_OK):
                sys.exit("bench: tg binary %s not found" % env["tg"])
        elif e == "souffle":
            if not env["souffle"]:
                print("bench: souffle not on PATH, skipping it")
                continue
        else:
            b = os.path.join(env["ref_bin"], e + "_bench")
            if not os.access(b, os.X_OK):
                print("bench: %s not built (%s), skipping it" % (e, b))
                continue
        engines.append(e)
    if a.provenance and "tg" in engines:
        engines.insert(engines.index("tg") + 1, "tg-prov")

    print("# date: %s" % datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"))
    print("# machine: %s, %d cores; tg %s" % (platform.machine(), os.cpu_count() or 0,
                                           os.environ.get("BENCH_TG_VERSION", "?")))
    print("# runs per engine: %d (median), timeout %gs, RSS via %s" % (
        a.runs, a.timeout, GNU_TIME if os.access(GNU_TIME, os.X_OK) else "wait4 rusage"))
    hdr = "%-14s %-9s %9s %9s %9s %9s  %s" % ("workload", "engine", "wall_s", "rss_MiB",
                                               "tg/x time", "tg/x mem", "check")
    print(hdr)
    print("-" * len(hdr))
    sys.stdout.flush()

    rows = []          # (bench, engine, wall, rss_mib, tratio, mratio, check)
    any_bad = False
    prov_lines = []
    for bench in a.workloads:
        data = os.path.join(env["data"], bench)
        expected = read_expected(os.path.join(env["shared"], "expected", bench + ".txt"))
        results = {}
        for engine in engines:
            out = os.path.join(env["out"], bench, engine)
            runs = []
            check = None
            for i in range(a.runs):
                shutil.rmtree(out, ignore_errors=True)
                os.makedirs(out)
                r = measure(engine_cmd(engine, env, bench, data, out), a.timeout,
                            a.mem_limit_mib, os.path.join(env["out"], bench, engine + ".log"))
                runs.append(r)
                if r.status != "ok":
                    break
                if i == 0:  # outputs are checked once, from the first run
                    ok, msg = verify(out, expected)
                    check = "OK" if ok else "MISMATCH " + msg
            bad = [r for r in runs if r.status != "ok"]
            if bad:
                r = bad[0]
                where = "after %.1f s, peak RSS %.0f MiB" % (r.wall, mib(r.rss_kib) or 0)
                check = ("TIMEOUT (%s, %s)" % (r.detail, where) if r.status == "timeout"
                         else "FAILED (%s, %s)" % (where, r.detail))
                wall = rss = None
            else:
                wall = statistics.median(r.wall for r in runs)
                rss = mib(statistics.median(r.rss_kib for r in runs))
            if check != "OK":
                any_bad = True
                check = "*** " + check + " ***"
            results[engine] = (wall, rss, check)
        tg = results.get("tg", (None, None, None))
        for engine in engines:
            wall, rss, check = results[engine]
            if engine in ("tg", "tg-prov"):
                tr = mr = "-"
            else:
                tr, mr = fmt_ratio(tg[0], wall), fmt_ratio(tg[1], rss)
            line = "%-14s %-9s %9s %9s %9s %9s  %s" % (
                bench, engine,
                "%.3f" % wall if wall is not None else "-",
                "%.1f" % rss if rss is not None else "-",
                tr, mr, check)
            print(line)
            rows.append((bench, engine, wall, rss, tr, mr, check))
        if "tg-prov" in results:
            pw, pr, _ = results["tg-prov"]
            if pw is None or tg[0] is None:
                verdict = "n/a"
            else:
                okt = pw / tg[0] <= PROV_TIME_TARGET
                okm = pr / tg[1] <= PROV_MEM_TARGET
                verdict = "time %s, memory %s" % ("within target" if okt else "OVER TARGET",
                                                  "within target" if okm else "OVER TARGET")
            pl = "%-14s provenance/plain: time %s (target <= %.1f), memory %s (target <= %.1f): %s" % (
                bench, fmt_ratio(pw, tg[0]), PROV_TIME_TARGET, fmt_ratio(pr, tg[1]),
                PROV_MEM_TARGET, verdict)
            print(pl)
            prov_lines.append((bench, fmt_ratio(pw, tg[0]), fmt_ratio(pr, tg[1]), verdict))
        sys.stdout.flush()

    if a.markdown:
        print()
        print("| workload | engine | wall s | peak RSS MiB | tg time / engine | tg memory / engine | output check |")
        print("|---|---|---:|---:|---:|---:|---|")
        for bench, engine, wall, rss, tr, mr, check in rows:
            print("| %s | %s | %s | %s | %s | %s | %s |" % (
                bench, engine, "%.3f" % wall if wall is not None else "-",
                "%.1f" % rss if rss is not None else "-", tr, mr, check.replace("|", "/")))
        if prov_lines:
            print()
            print("| workload | provenance / plain time | provenance / plain memory | verdict |")
            print("|---|---:|---:|---|")
            for p in prov_lines:
                print("| %s | %s | %s | %s |" % p)
    if any_bad:
        print("\nbench: *** some runs failed, timed out or produced wrong output (see above) ***")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
