#!/usr/bin/env python3
"""Generated inputs for the memory benchmark (docs/BENCHMARKS.md, "Ingest of large tables").

    gen_wires.py tsv N FILE     # a wire table: header + N rows, 7 columns
    gen_wires.py dense MB FILE  # entity-dense text of about MB megabytes
    gen_wires.py json N FILE    # the wire table's N rows as a JSON array of objects

The table's columns are date, reference, originator, beneficiary, amount, currency, memo;
names are drawn from 10 organisations and 6 people, so every row is a TRANSFERRED claim.
The dense text repeats "A wired $N to B on D. C, the CEO of D, approved the transfer."
with names from the same lists. Both are deterministic (seed 7).
"""
import json
import random
import sys

ORGS = ["Acme Holdings Ltd", "Beta Trading Inc", "Gamma LLC", "Delta Shipping Corp",
        "Epsilon Partners LLP", "Zeta Capital SA", "Eta Logistics GmbH", "Theta Metals Ltd",
        "Iota Ventures Inc", "Kappa Finance AG"]
PEOPLE = ["John Smith", "Maria Garcia", "Wei Zhang", "Olga Petrova", "Ahmed Khan", "Laura Rossi"]
NAMES = ORGS + PEOPLE


def rows(n):
    """The table's rows: date, reference, originator, beneficiary, amount, currency, memo."""
    r = random.Random(7)
    for i in range(n):
        a, b = r.sample(NAMES, 2)
        date = "2024-%02d-%02d" % (r.randint(1, 12), r.randint(1, 28))
        amount = r.randint(1000, 999999)
        cur = r.choice(["USD", "EUR", "GBP"])
        memo = "invoice %d for services" % r.randint(10000, 99999)
        yield date, "W%07d" % i, a, b, amount, cur, memo


def tsv(n, out):
    out.write("date\treference\toriginator\tbeneficiary\tamount\tcurrency\tmemo\n")
    for date, ref, a, b, amount, cur, memo in rows(n):
        out.write("\t".join([date, ref, a, b, "%d.00" % amount, cur, memo]) + "\n")


def json_rows(n, out):
    out.write("[\n")
    for i, (date, ref, a, b, amount, cur, memo) in enumerate(rows(n)):
        row = {"date": date, "reference": ref, "originator": a, "beneficiary": b, "amount": amount, "currency": cur, "memo": memo}
        out.write(" " + json.dumps(row) + (",\n" if i + 1 < n else "\n"))
    out.write("]\n")


def dense(mb, out):
    r = random.Random(7)
    want = int(mb * 1_000_000)
    written = 0
    while written < want:
        a, b = r.sample(NAMES, 2)
        c = r.choice(PEOPLE)
        d = r.choice(ORGS)
        day = "%s %d, 2024" % (r.choice(["January", "March", "June", "October"]), r.randint(1, 28))
        s = "%s wired $%d to %s on %s. %s, the CEO of %s, approved the transfer.\n" % (a, r.randint(1000, 999999), b, day, c, d)
        out.write(s)
        written += len(s.encode())


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("tsv", "dense", "json"):
        sys.exit(__doc__)
    with open(sys.argv[3], "w", encoding="utf-8", newline="\n") as out:
        if sys.argv[1] == "tsv":
            tsv(int(sys.argv[2]), out)
        elif sys.argv[1] == "json":
            json_rows(int(sys.argv[2]), out)
        else:
            dense(float(sys.argv[2]), out)


if __name__ == "__main__":
    main()
