#!/usr/bin/env python3
"""Scores `tg-extract-bench --dump` output against a written set's GOLD.tsv.

    target/release/tg-extract-bench --repeat 1 --dump /tmp/set.dump fixtures/extraction/written/set-3
    python3 scripts/score_written.py fixtures/extraction/written/set-3 /tmp/set.dump [-v]

The sets (fixtures/extraction/written/set-{1,2,3,4,5,6}) are enforcement texts and their gold
claims, each written by a helper that saw none of the project's code, fixtures or data
(docs/BENCHMARKS.md, "Texts written for the extractor by others", and the fifteenth and
sixteenth sessions' sections after it). Names are compared
lower-cased without periods, commas and quotes; the authorities by one name each (SEC, DOJ,
a U.S. Attorney's Office, OFAC); CO_DEFENDANT, ASSOCIATED_WITH and ALIAS_OF either way
round; RECEIVED_FROM as the PAID it reverses, TRANSFERRED as PAID; ORDERED_TO_PAY by its
subject only (the gold names a judge, a court or an authority as the orderer). Prints true
and false positives and misses, precision, recall, and how many matched claims agree on
modality; `-v` lists each file's false positives and misses.
"""
import collections
import os
import re
import sys

SYMMETRIC = {"CO_DEFENDANT", "ASSOCIATED_WITH", "ALIAS_OF"}


def norm(n):
    n = n.lower().replace("’", "'")
    n = re.sub(r"^(person|organization|location):", "", n)
    n = re.sub(r'[.,"“”]', "", n)
    n = re.sub(r"\s+", " ", n).strip()
    n = re.sub(r"^the ", "", n)
    if n in ("securities and exchange commission", "sec", "commission"):
        return "SEC"
    if n in ("justice department", "department of justice", "doj", "us department of justice", "united states department of justice"):
        return "DOJ"
    if "attorney's office" in n or "attorneys office" in n:
        return "USAO"
    if n in ("office of foreign assets control", "ofac"):
        return "OFAC"
    return n.replace("united states", "us")


def key(s, r, o):
    s, o = norm(s), norm(o)
    if r == "RECEIVED_FROM":
        r, s, o = "PAID", o, s
    if r == "TRANSFERRED":
        r = "PAID"
    if r in SYMMETRIC and s > o:
        s, o = o, s
    if r == "ORDERED_TO_PAY":
        o = "*"
    return (s, r, o)


def main():
    folder, dump = sys.argv[1], sys.argv[2]
    verbose = "-v" in sys.argv
    # (The bench reads every file of the folder but .md and .json, GOLD.tsv too, in sorted
    # order: a document's index is its place among them.)
    read = sorted(f for f in os.listdir(folder) if not f.endswith((".md", ".json")))
    files = [f for f in read if f.endswith(".txt")]
    gold, modality = collections.defaultdict(set), {}
    for line in open(os.path.join(folder, "GOLD.tsv"), encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        if len(f) < 5 or f[0] in ("file", "") or f[0].startswith("#"):
            continue
        k = key(f[1], f[2], f[3])
        gold[f[0]].add(k)
        modality[(f[0], k)] = f[4]
    ours = collections.defaultdict(dict)
    for line in open(dump, encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        if len(f) < 4 or f[2] != "review":
            continue
        m = re.match(r"(\w+)\((.*?), (.*?)\) (\w+)", f[3])
        if m:
            ours[read[int(f[1])]][key(m.group(2), m.group(1), m.group(3))] = m.group(4)
    tp = fp = fn = agree = 0
    for name in files:
        g, o = gold[name], ours.get(name, {})
        hits = [k for k in o if k in g]
        false = [k for k in o if k not in g]
        missed = [k for k in g if k not in o]
        tp, fp, fn = tp + len(hits), fp + len(false), fn + len(missed)
        agree += sum(1 for k in hits if o[k] == modality[(name, k)])
        if verbose:
            print(f"== {name} {len(hits)} {len(false)} {len(missed)}")
            for k in false:
                print("  FP", k, o[k])
            for k in missed:
                print("  FN", k, modality[(name, k)])
    print(f"TP {tp} FP {fp} FN {fn} P {tp / max(1, tp + fp):.2f} R {tp / max(1, tp + fn):.2f} modality agree {agree}/{tp}")


if __name__ == "__main__":
    main()
