"""Loads tg's exports into the real consumers and checks counts and one cited edge.

Usage: exports.py DIR   (DIR holds graph.json, g.cypher, csv/, g.graphml, g.turtle, g.jsonld)

Expected counts come from tg's own canonical JSON export (graph.json), computed here
independently of the exporters. Prints one line per consumer; exits non-zero on the
first mismatch (an AssertionError with both sides).
"""
import json
import os
import sys
import tempfile

d = sys.argv[1]
g = json.load(open(os.path.join(d, "graph.json"), encoding="utf-8"))

claims = {}
for f in g["facts"]:
    if f["relation"] == "claim":
        claims.setdefault(f["args"][0], f)
entities = {f["args"][0] for f in g["facts"] if f["relation"] == "entity"}
for f in claims.values():
    a = f["args"]
    entities.update([a[2], a[4]])
    if a[7] != "document":
        entities.add(a[7])
same = set()
for f in g["facts"] + g["derived"]:
    if f["relation"] == "same_as" and f["args"][0] != f["args"][1]:
        same.add(tuple(sorted(f["args"][:2])))
        entities.update(f["args"][:2])
derived = {f["id"] for f in g["derived"]}
derived_same = {f["id"] for f in g["derived"] if f["relation"] == "same_as"}
docs = len(g["documents"])

# The cited edge: the wire WT-1004 from Acme Trading Ltd to Beta Holdings SA (wire-log.csv).
edge = [f for f in claims.values() if f["args"][3] == "TRANSFERRED" and "WT-1004" in f["citations"][0]["quote"]]
assert len(edge) == 1, edge
edge = edge[0]
cid, cdoc, subj, rel, obj, modality, polarity, asserter = edge["args"]
cite = edge["citations"][0]
citation = f"[{cite['doc']}:{cite['start']}-{cite['end']}]"
want = {"claims": len(claims), "entities": len(entities), "derived": len(derived), "documents": docs, "same_as": len(same)}
print("expected", json.dumps(want, sort_keys=True), "edge", cid, citation)


def eq(what, got, exp):
    assert got == exp, f"{what}: got {got!r}, expected {exp!r}"


def kuzu_checks(conn, name):
    one = lambda q, p=None: conn.execute(q, p or {}).get_next()
    eq(f"{name} Claim", one("MATCH (c:Claim) RETURN count(*)")[0], want["claims"])
    eq(f"{name} Entity", one("MATCH (e:Entity) RETURN count(*)")[0], want["entities"])
    eq(f"{name} Derived", one("MATCH (x:Derived) RETURN count(*)")[0], want["derived"])
    eq(f"{name} Document", one("MATCH (x:Document) RETURN count(*)")[0], want["documents"])
    eq(f"{name} CLAIMED", one("MATCH ()-[r:CLAIMED]->() RETURN count(*)")[0], want["claims"])
    eq(f"{name} SAME_AS", one("MATCH ()-[r:SAME_AS]->() RETURN count(*)")[0], want["same_as"])
    eq(f"{name} same_as by rule", one("MATCH (x:Derived)-[:BY_RULE]->(r:Rule) WHERE x.relation = 'same_as' AND size(r.rule_text) > 0 RETURN count(*)")[0], len(derived_same))
    row = one("MATCH (a:Entity)-[r:CLAIMED]->(b:Entity) WHERE r.claim = $id RETURN a.id, b.id, r.relation, r.modality, r.quote, r.citation", {"id": cid})
    eq(f"{name} cited edge", row, [subj, obj, rel, modality, cite["quote"], citation])
    row = one(
        "MATCH (c:Claim {id: $id})-[:SUBJECT]->(s:Entity), (c)-[:OBJECT]->(o:Entity), (c)-[k:CITES]->(d:Document) "
        "RETURN s.id, o.id, d.id, k.start_byte, k.end_byte, k.quote, c.modality, c.asserter, c.tag",
        {"id": cid},
    )
    eq(f"{name} reified claim", row, [subj, obj, cite["doc"], cite["start"], cite["end"], cite["quote"], modality, asserter, edge["tag"]])
    print(f"ok {name}: counts and the cited edge {cid} {citation}")


import kuzu

with tempfile.TemporaryDirectory() as tmp:
    db = kuzu.Database(os.path.join(tmp, "cypher.kz"))
    conn = kuzu.Connection(db)
    n = 0
    for line in open(os.path.join(d, "g.cypher"), encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("//"):
            conn.execute(line)
            n += 1
    print(f"kuzu ran {n} Cypher statements")
    kuzu_checks(conn, "kuzu (Cypher script)")
    db2 = kuzu.Database(os.path.join(tmp, "csv.kz"))
    conn2 = kuzu.Connection(db2)
    here = os.getcwd()
    os.chdir(os.path.join(d, "csv"))
    try:
        for line in open("schema.cypher", encoding="utf-8"):
            line = line.strip()
            if line and not line.startswith("//"):
                conn2.execute(line)
    finally:
        os.chdir(here)
    kuzu_checks(conn2, "kuzu (CSV COPY)")

import networkx as nx

G = nx.read_graphml(os.path.join(d, "g.graphml"))
labels = {}
for _, data in G.nodes(data=True):
    labels[data["label"]] = labels.get(data["label"], 0) + 1
eq("networkx Claim", labels.get("Claim", 0), want["claims"])
eq("networkx Entity", labels.get("Entity", 0), want["entities"])
eq("networkx Derived", labels.get("Derived", 0), want["derived"])
eq("networkx Document", labels.get("Document", 0), want["documents"])
claimed = [(a, b, e) for a, b, e in G.edges(data=True) if e["label"] == "CLAIMED"]
eq("networkx CLAIMED", len(claimed), want["claims"])
hit = [(a, b, e) for a, b, e in claimed if e["claim"] == cid]
eq("networkx cited edge", [(a, b, e["relation"], e["quote"], e["citation"]) for a, b, e in hit], [("entity:" + subj, "entity:" + obj, rel, cite["quote"], citation)])
cites = [e for a, b, e in G.edges("claim:" + cid, data=True) if e["label"] == "CITES"]
eq("networkx CITES", [(e["start_byte"], e["end_byte"]) for e in cites], [(cite["start"], cite["end"])])
print(f"ok networkx: {G.number_of_nodes()} nodes, {G.number_of_edges()} edges, the cited edge {citation}")

import rdflib
from rdflib.namespace import RDF

TG = rdflib.Namespace("urn:textgraph:vocab#")
graphs = {}
for fmt, file in (("turtle", "g.turtle"), ("json-ld", "g.jsonld")):
    r = rdflib.Graph()
    r.parse(os.path.join(d, file), format=fmt)
    graphs[fmt] = r
    count = lambda t: len(set(r.subjects(RDF.type, t)))
    eq(f"rdflib {fmt} rdf:Statement", count(RDF.Statement), want["claims"])
    eq(f"rdflib {fmt} Entity", count(TG.Entity), want["entities"])
    eq(f"rdflib {fmt} DerivedFact", count(TG.DerivedFact), want["derived"])
    eq(f"rdflib {fmt} Document", count(TG.Document), want["documents"])
    eq(f"rdflib {fmt} owl:sameAs", len(list(r.triples((None, rdflib.OWL.sameAs, None)))), want["same_as"])
    q = """
    PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
    PREFIX tg: <urn:textgraph:vocab#>
    SELECT ?skey ?p ?okey ?mod ?quote ?cit ?start ?end ?tag WHERE {
      ?c a rdf:Statement ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ;
         tg:modality ?mod ; tg:quote ?quote ; tg:citation ?cit ; tg:start ?start ; tg:end ?end ; tg:tag ?tag .
      ?s tg:key ?skey . ?o tg:key ?okey .
      FILTER(STRENDS(STR(?c), $id))
    }"""
    rows = [tuple(x.toPython() if hasattr(x, "toPython") else x for x in row) for row in r.query(q.replace("$id", json.dumps(":" + cid)))]
    eq(f"rdflib {fmt} cited statement", rows, [(subj, "urn:textgraph:relation#" + rel, obj, modality, cite["quote"], citation, cite["start"], cite["end"], edge["tag"])])
    print(f"ok rdflib {fmt}: {len(r)} triples, the cited statement {citation}")
a, b = set(graphs["turtle"]), set(graphs["json-ld"])
eq("turtle and json-ld triples differ", (len(a - b), len(b - a)), (0, 0))
print("ok turtle and json-ld hold the same triples")
