#!/usr/bin/env python3
"""Speed of entity resolution: `tg resolve --names` on N generated names (seeded), reporting
wall time and peak memory. Names are organisations and people drawn from word lists, with
legal-form variants, re-ordered person names and one-letter typos, so blocks and merges
happen at realistic rates.

    scripts/bench_er.py 100000 1000000 [--tg target/release/tg]
"""
import argparse, os, random, resource, subprocess, sys, tempfile, time

ap = argparse.ArgumentParser()
ap.add_argument("sizes", nargs="+", type=int)
ap.add_argument("--tg", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "tg"))
a = ap.parse_args()
syll = ["ka", "lo", "mi", "ra", "ten", "vor", "sal", "bri", "dun", "el", "fa", "gor", "hal", "ix", "jun", "ker", "lum", "mor", "nex", "ost"]
forms = ["Ltd", "Limited", "LLC", "Inc", "Corp", "GmbH", "SA", "PLC", ""]
nouns = ["Trading", "Holdings", "Capital", "Shipping", "Partners", "Ventures", "Logistics", "Group", "Energy", "Bank"]

def word(rng, n):
    return "".join(rng.choice(syll) for _ in range(n)).capitalize()

def typo(rng, s):
    i = rng.randrange(1, len(s))
    return s[:i] + rng.choice("aeiou") + s[i + 1:]

for n in a.sizes:
    rng = random.Random(42)
    bases = max(1, n // 3)
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as fh:
        fh.write("id,name,type\n")
        for i in range(n):
            b = rng.randrange(bases)
            r = random.Random(b)
            if b % 2:
                name = f"{word(r, 2)} {r.choice(nouns)} {r.choice(forms)}".strip()
                ty = "Organization"
                if rng.random() < 0.3:
                    name = name.rsplit(" ", 1)[0] + " " + rng.choice(forms)
            else:
                first, last = word(r, 2), word(r, 3)
                name = f"{first} {last}" if rng.random() < 0.7 else f"{last}, {first}"
                ty = "Person"
            if rng.random() < 0.1:
                name = typo(rng, name)
            fh.write(f'{i},"{name.strip()}",{ty}\n')
    t = time.time()
    p = subprocess.run([a.tg, "resolve", "--names", fh.name], capture_output=True, text=True)
    dt = time.time() - t
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    os.unlink(fh.name)
    if p.returncode != 0:
        print(p.stderr, file=sys.stderr); sys.exit(1)
    clusters = len({l.split(",")[-1] for l in p.stdout.splitlines()[1:]})
    print(f"{n:>9} names  {dt:7.2f} s  {n / dt:9.0f} names/s  {clusters} clusters  peak RSS so far {rss:.0f} MiB")
