#!/usr/bin/env python3
"""GQL speed: a seeded graph of Person nodes and KNOWS relationships, the same queries on
`tg-gql-bench` and (when the `kuzu` package imports) on Kuzu, cold and warm, with ratios.

    scripts/bench_gql.py [--nodes 100000] [--rels 1000000] [--seed 7] [--runs 5] [--processes 3]

tg's cold time is each query run first in a fresh process right after the load, so it pays
for every structure the query builds lazily (adjacency, property columns, indexes); warm is
the median of the next runs; both are the median over --processes processes. Kuzu builds its structures during COPY; its cold time is the
first run of each query after the load, in one connection. Builds tg-gql-bench (release)
first; writes the graph as CSV under target/bench-gql/.
"""
import argparse, os, random, shutil, statistics, subprocess, sys, tempfile, time

QUERIES = [
    ("1-hop", "MATCH (a:Person {id: 42})-[:KNOWS]->(b) RETURN count(b) AS c"),
    ("2-hop", "MATCH (a:Person {id: 42})-[:KNOWS]->()-[:KNOWS]->(c) RETURN count(c) AS c"),
    ("var-1..3", "MATCH (a:Person {id: 42})-[:KNOWS*1..3]->(c) RETURN count(c) AS c"),
    ("filter-all", "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.age < 20 AND b.age > 60 RETURN count(*) AS c"),
    ("aggregate", "MATCH (a:Person)-[k:KNOWS]->(b:Person) RETURN a.age % 10 AS bucket, count(*) AS n, sum(k.weight) AS w ORDER BY bucket"),
]


def generate(d, nodes, rels, seed):
    rng = random.Random(seed)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "nodes.csv"), "w") as f:
        f.write("id,age\n")
        for i in range(nodes):
            f.write(f"{i},{rng.randrange(0, 90)}\n")
    seen = set()
    with open(os.path.join(d, "rels.csv"), "w") as f:
        f.write("src,dst,weight\n")
        while len(seen) < rels:
            a, b = rng.randrange(nodes), rng.randrange(nodes)
            if a == b or (a, b) in seen:
                continue
            seen.add((a, b))
            f.write(f"{a},{b},{rng.randrange(1, 100)}\n")


def run_tg(root, d, runs, processes):
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "tg-gql-bench"], cwd=root, check=True)
    res, loads = {}, []
    for name, _ in QUERIES:
        colds, warms = [], []
        for _ in range(processes):
            out = subprocess.run([os.path.join(target, "release", "tg-gql-bench"), d, str(runs), name], capture_output=True, text=True, check=True).stdout
            for line in out.strip().splitlines():
                key, cold, warm, first = line.split("\t")
                if key == "load":
                    loads.append(float(cold))
                    res["load"] = (statistics.median(loads), None, first)
                else:
                    colds.append(float(cold))
                    warms.append(float(warm))
                    res[key] = (statistics.median(colds), statistics.median(warms), first)
    return res


def run_kuzu(d, runs):
    try:
        import kuzu
    except ImportError:
        return None
    db_dir = tempfile.mkdtemp(prefix="kuzu_bench_")
    try:
        t0 = time.perf_counter()
        db = kuzu.Database(os.path.join(db_dir, "db"))
        conn = kuzu.Connection(db)
        conn.execute("CREATE NODE TABLE Person(id INT64, age INT64, PRIMARY KEY(id))")
        conn.execute("CREATE REL TABLE KNOWS(FROM Person TO Person, weight INT64)")
        conn.execute(f"COPY Person FROM '{os.path.join(d, 'nodes.csv')}' (HEADER=true)")
        conn.execute(f"COPY KNOWS FROM '{os.path.join(d, 'rels.csv')}' (HEADER=true)")
        res = {"load": ((time.perf_counter() - t0) * 1e3, None, f"kuzu {kuzu.__version__}")}
        # openCypher's relationship uniqueness (trail semantics) for variable-length paths.
        try:
            conn.execute("CALL recursive_pattern_semantic='TRAIL'")
        except Exception:
            pass
        for name, q in QUERIES:
            times, first = [], ""
            for i in range(max(runs, 2)):
                t = time.perf_counter()
                r = conn.execute(q)
                rows = r.get_all()
                times.append((time.perf_counter() - t) * 1e3)
                if i == 0:
                    first = f"{rows[0][0] if rows else None} ({len(rows)} rows)"
            res[name] = (times[0], statistics.median(times[1:]), first)
        return res
    finally:
        shutil.rmtree(db_dir, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--rels", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--processes", type=int, default=3, help="tg processes per query (cold and warm: their medians)")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    d = os.path.join(root, "target", "bench-gql")
    generate(d, a.nodes, a.rels, a.seed)
    tg = run_tg(root, d, a.runs, a.processes)
    kz = run_kuzu(d, a.runs)
    print(f"graph: {a.nodes} nodes, {a.rels} relationships, seed {a.seed}; times in ms (warm: median of {max(a.runs, 2) - 1}; tg: medians over {a.processes} processes per query)")
    print(f"{'query':<11} {'tg cold':>9} {'tg warm':>9} {'kuzu cold':>10} {'kuzu warm':>10} {'cold ratio':>10} {'warm ratio':>10}  results (tg | kuzu)")
    for name in ["load"] + [n for n, _ in QUERIES]:
        t = tg.get(name)
        k = kz.get(name) if kz else None
        fmt = lambda x: "-" if x is None else f"{x:.1f}"  # noqa: E731
        cold = f"{t[0] / k[0]:.2f}" if t and k and k[0] else "-"
        warm = f"{t[1] / k[1]:.2f}" if t and k and t[1] and k[1] else "-"
        print(f"{name:<11} {fmt(t and t[0]):>9} {fmt(t and t[1]):>9} {fmt(k and k[0]):>10} {fmt(k and k[1]):>10} {cold:>10} {warm:>10}  {t[2] if t else ''} | {k[2] if k else 'kuzu not installed'}")


if __name__ == "__main__":
    sys.exit(main())
