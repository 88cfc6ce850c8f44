#!/usr/bin/env python3
"""Entity-resolution quality of `tg resolve --names` on the ER sets in ../shared/data, scored
with ../shared/tools/er_metrics.py, next to a plain baseline measured in the same run:
records whose names are equal after lower-casing and dropping punctuation share a cluster.

    scripts/er_eval.py [--tg target/release/tg] [--shared ../shared]

Prints one line per data set and method: pairwise P/R/F1 and B-cubed P/R/F1.
Records are resolved by name (the `name` column tg reads): person records use
"given surname", bibliographic records their title. Where a set has them, the same
records are resolved again with attribute columns (`+attributes`: date of birth and
social security number on Febrl, the birth date on RLdata, the year and authors on
DBLP-ACM with its two files as a duplicate-free `source` (`--distinct-within`), the year
on Cora), against a baseline that also requires equal attributes (the source aside).
The company pair list is also scored over its labelled pairs only (`(labelled)`). The fixture sets
of the repository (`fixtures/er/*.csv`, exact expected clusters) come first: legal entities
(legal forms, defined terms, discriminators) and affiliation strings.
"""
import argparse, csv, html, io, os, re, subprocess, sys, tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--tg", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "tg"))
ap.add_argument("--shared", default=os.environ.get("TG_SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared")))
a = ap.parse_args()
data = os.path.join(a.shared, "data")
sys.path.insert(0, os.path.join(a.shared, "tools"))
import er_metrics  # noqa: E402

def uf_clusters(ids, pairs):
    parent = {i: i for i in ids}
    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for x, y in pairs:
        if x in parent and y in parent:
            rx, ry = find(x), find(y)
            if rx != ry:
                parent[max(rx, ry)] = min(rx, ry)
    return {i: find(i) for i in ids}

LABELLED = {}  # data set name -> {(id, id): True/False}: a gold that labels pairs, not clusters

def company_pairs():
    rows, pairs, names, labelled = [], [], {}, {}
    with open(os.path.join(data, "er_company_name_pairs", "test_data_pairs.csv"), encoding="utf-8-sig") as fh:
        for r in csv.DictReader(fh):
            for n in (r["Name_x"], r["Name_y"]):
                if n not in names:
                    names[n] = f"c{len(names)}"
                    rows.append((names[n], n, "Organization", {}))
            pair = tuple(sorted((names[r["Name_x"]], names[r["Name_y"]])))
            labelled[pair] = r["Targets"].strip() == "1"
            if labelled[pair]:
                pairs.append(pair)
    LABELLED["er_company_name_pairs"] = labelled
    return rows, uf_clusters([r[0] for r in rows], pairs)

def febrl(n):
    path = os.path.join(data, "er_febrl", f"dataset{n}.csv")
    rows, gold = [], {}
    with open(path, encoding="utf-8") as fh:
        rd = csv.reader(fh, skipinitialspace=True)
        next(rd)
        for r in rd:
            rid = r[0].strip()
            rows.append((rid, f"{r[1].strip()} {r[2].strip()}".strip(), "Person", {"date_of_birth": r[9].strip(), "soc_sec_id": r[10].strip()}))
            m = re.match(r"rec-(\d+)-", rid)
            gold[rid] = m.group(1) if m else rid
    return rows, gold

def rldata():
    rows, gold = [], {}
    with open(os.path.join(data, "er_rldata_synthetic", "RLdata500.tsv"), encoding="utf-8") as fh, \
         open(os.path.join(data, "er_rldata_synthetic", "identity.RLdata500.tsv"), encoding="utf-8") as ih:
        rd = csv.reader(fh, delimiter="\t"); next(rd)
        ids = [l.strip() for l in ih][1:]
        for i, (r, ident) in enumerate(zip(rd, ids)):
            name = " ".join(x for x in (r[0], r[1], r[2], r[3]) if x and x != "NA")
            birth = f"{r[4]}{int(r[5]):02d}{int(r[6]):02d}" if all(x.isdigit() for x in r[4:7]) else ""
            rows.append((f"r{i}", name, "Person", {"birth": birth}))
            gold[f"r{i}"] = ident
    return rows, gold

def dblp_acm():
    rows = []
    d = os.path.join(data, "er_benchmarks_leipzig_jedai", "dblp_acm")
    for f, pre in (("DBLP2.csv", "d:"), ("ACM.csv", "a:")):
        # UTF-8 (read as Latin-1 it turns "Jörg" into "JÃ¶rg"); ACM writes some letters as
        # HTML character references ("Kr&#246;ger"), which are decoded.
        with open(os.path.join(d, f), encoding="utf-8") as fh:
            for r in csv.DictReader(fh):
                attrs = {"year": r["year"].strip(), "authors": html.unescape(r["authors"]).strip(), "source": f}
                rows.append((pre + r["id"], html.unescape(r["title"]), "Publication", attrs))
    pairs = []
    with open(os.path.join(d, "DBLP-ACM_perfectMapping.csv"), encoding="latin-1") as fh:
        for r in csv.DictReader(fh):
            pairs.append(("d:" + r["idDBLP"], "a:" + r["idACM"]))
    return rows, uf_clusters([r[0] for r in rows], pairs)

def cora():
    d = os.path.join(data, "er_benchmarks_leipzig_jedai", "cora_dirty")
    rows = []
    with open(os.path.join(d, "cora.csv"), encoding="latin-1") as fh:
        rd = csv.reader(fh, delimiter="|"); hdr = next(rd); ti = hdr.index("title"); yi = hdr.index("year")
        for r in rd:
            if len(r) > ti:
                year = re.search(r"\b(1[89]\d\d|20\d\d)\b", r[yi] if len(r) > yi else "")
                rows.append((r[0], r[ti].strip(" '\".,"), "Publication", {"year": year.group(1) if year else ""}))
    pairs = []
    with open(os.path.join(d, "cora_gt.csv"), encoding="latin-1") as fh:
        for line in fh:
            p = line.strip().split("|")
            if len(p) == 2:
                pairs.append((p[0], p[1]))
    return rows, uf_clusters([r[0] for r in rows], pairs)

# Attribute columns that name a duplicate-free source (`--distinct-within`): DBLP and ACM
# each list a paper once, so two records of one source are two papers.
DISTINCT = {"source"}

def baseline(rows, attrs=False):
    key = lambda n: re.sub(r"[\W_]+", " ", n.lower()).strip()  # Unicode letters and digits
    first = {}
    extra = lambda a: "\0".join(f"{k}={key(v)}" for k, v in sorted(a.items()) if k not in DISTINCT) if attrs else ""
    return {rid: first.setdefault(key(n) + "\0" + t + "\0" + extra(a), rid) for rid, n, t, a in rows}

def tg(rows, attrs=False):
    cols = sorted({k for r in rows for k in r[3]}) if attrs else []
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, encoding="utf-8") as fh:
        w = csv.writer(fh); w.writerow(["id", "name", "type"] + cols)
        w.writerows([rid, n, t] + [a.get(c, "") for c in cols] for rid, n, t, a in rows)
    distinct = [x for c in cols if c in DISTINCT for x in ("--distinct-within", c)]
    out = subprocess.run([a.tg, "resolve", "--names", fh.name] + distinct, capture_output=True, text=True, check=True).stdout
    os.unlink(fh.name)
    return {r["id"]: r["cluster"] for r in csv.DictReader(io.StringIO(out))}

def score(gold, pred):
    pp = er_metrics.pairs_of({r: pred.get(r, r) for r in gold})
    gp = er_metrics.pairs_of(gold)
    pw = er_metrics.prf(len(pp & gp), len(pp), len(gp))
    bc = er_metrics.bcubed(pred, gold)
    return pw, bc

def fixture(name):
    """A fixture set of the repository (fixtures/er/NAME.csv: id,name[,type][,attribute...],expected), its exact clusters."""
    rows, gold = [], {}
    with open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "er", name + ".csv"), encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            attrs = {k: v for k, v in r.items() if k not in ("id", "name", "type", "expected") and v}
            rows.append((r["id"], r["name"], r.get("type") or "Organization", attrs))
            gold[r["id"]] = r["expected"]
    return rows, gold

sets = [("legal entities (fixture)", lambda: fixture("legal_entities")), ("affiliations (fixture)", lambda: fixture("affiliations")),
        ("identifiers (fixture)", lambda: fixture("identifiers")),
        ("er_company_name_pairs", company_pairs), ("febrl dataset1", lambda: febrl(1)), ("febrl dataset2", lambda: febrl(2)),
        ("RLdata500", rldata), ("DBLP-ACM (titles)", dblp_acm), ("Cora (titles)", cora)]
print(f"{'data set':24} {'method':19} {'records':>7}  pairwise P/R/F1        B-cubed P/R/F1")
for name, load in sets:
    try:
        rows, gold = load()
    except FileNotFoundError as e:
        print(f"{name:24} missing ({e.filename})"); continue
    methods = [("baseline", lambda: baseline(rows)), ("tg", lambda: tg(rows))]
    if any(r[3] for r in rows):
        methods += [("baseline+attributes", lambda: baseline(rows, True)), ("tg+attributes", lambda: tg(rows, True))]
    for method, run in methods:
        pred = run()
        (p, r, f), (bp, br, bf) = score(gold, pred)
        print(f"{name:24} {method:19} {len(rows):7}  {p:.3f} {r:.3f} {f:.3f}    {bp:.3f} {br:.3f} {bf:.3f}")
        if name in LABELLED:
            # The pairs gold is a list of labelled pairs, not a partition: two names no pair
            # mentions together ("IBM" / "IBM Corporation") count as different above though
            # nobody said so. Scored on the labelled pairs only: precision over the labelled
            # pairs put in one cluster, recall over the positive ones.
            lab = LABELLED[name]
            merged = [v for (x, y), v in lab.items() if pred.get(x, x) == pred.get(y, y)]
            tp, pos = sum(merged), sum(lab.values())
            (p, r, f) = er_metrics.prf(tp, len(merged), pos)
            print(f"{name:24} {method + ' (labelled)':19} {len(lab):7}  {p:.3f} {r:.3f} {f:.3f}    (over labelled pairs)")
