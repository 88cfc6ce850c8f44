"""End-to-end test of `tg mcp` with the official MCP Python client (package `mcp`).

Usage: mcp_client.py TG DB
Starts `TG mcp --db DB` over stdio through mcp.client.stdio, lists the tools and calls
each one, checking typed, bounded, ranked and cited answers; records one verbatim claim
and has one paraphrase refused; reads the store with another `tg` while the server runs.
Prints one `ok …` line per check; any failure raises.
"""
import asyncio
import json
import re
import subprocess
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

TG, DB = sys.argv[1], sys.argv[2]
CITE = re.compile(r"^\[[^\]]+:\d+-\d+\]$")
TOOLS = ["communities", "contradictions", "explain", "gql", "neighbors", "path", "record_claim", "search", "timeline", "why"]


def structured(r):
    s = getattr(r, "structuredContent", None)
    if s is None:
        s = getattr(r, "structured_content", None)
    if s is None:
        s = json.loads(r.content[0].text)
    return s


def is_error(r):
    v = getattr(r, "isError", None)
    return v if v is not None else getattr(r, "is_error", False)


async def call(s, name, args):
    r = await s.call_tool(name, args)
    assert not is_error(r), f"{name} {args}: {r.content[0].text}"
    return structured(r)


async def main():
    params = StdioServerParameters(command=TG, args=["mcp", "--db", DB])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            init = await s.initialize()
            info = getattr(init, "serverInfo", None) or getattr(init, "server_info")
            print(f"ok initialize: {info.name} {getattr(init, 'protocolVersion', None) or getattr(init, 'protocol_version')}")
            tools = (await s.list_tools()).tools
            assert sorted(t.name for t in tools) == TOOLS, [t.name for t in tools]
            for t in tools:
                schema = getattr(t, "inputSchema", None) or getattr(t, "input_schema")
                assert schema["type"] == "object" and schema["additionalProperties"] is False, t.name
            print(f"ok tools/list: {len(tools)} typed tools")

            r = await call(s, "search", {"query": "wire transfer Beta Holdings", "limit": 3})
            hits = r["items"]
            assert r["shown"] == len(hits) == 3 and [h["rank"] for h in hits] == [1, 2, 3], r
            assert all(CITE.match(h["citation"]) and h["text"] for h in hits), hits
            scores = [float(h["score"]) for h in hits]
            assert scores == sorted(scores, reverse=True), scores
            print(f"ok search: ranked {scores}, first {hits[0]['citation']}")
            small = await call(s, "search", {"query": "wire transfer Beta Holdings", "limit": 20, "max_bytes": 1000})
            assert small["truncated"] and small["shown"] < small["total"], small
            print(f"ok search budget: {small['shown']} of {small['total']} hits within 1000 bytes")

            r = await call(s, "neighbors", {"entity": "beta holdings", "limit": 1})
            assert r["entity"] == "Organization:beta holdings sa" and r["shown"] == 1 and r["total"] > 1 and r["truncated"], r
            assert CITE.match(r["items"][0]["citation"]), r
            print(f"ok neighbors: {r['total']} neighbours, most claims first: {r['items'][0]['other']} ({len(r['items'][0]['claims'])} claims)")

            r = await call(s, "why", {"entity": "Marek Novak"})
            assert r["entity"] == "Person:marek novak" and r["total"] >= 3, r
            assert all(CITE.match(e["claim"]["citation"]) for e in r["items"]), r
            assert r["contradictions"] and r["contradictions"][0]["kind"] == "asserted vs denied", r
            print(f"ok why: {r['total']} claims about {r['entity']}, {len(r['contradictions'])} contradiction")

            r = await call(s, "path", {"from": "Acme Trading Ltd", "to": "Orion Nominees Ltd"})
            assert r["found"] and r["total"] >= 2, r
            assert all(CITE.match(h["claim"]["citation"]) for h in r["items"]), r
            print(f"ok path: {r['total']} hops " + " ".join(h["claim"]["citation"] for h in r["items"]))
            r = await call(s, "path", {"from": "Acme Trading Ltd", "to": "Orion Nominees Ltd", "modality": ["question"]})
            assert not r["found"] and r["total"] == 0, r
            print("ok path with modality filter: no path of questions")

            r = await call(s, "timeline", {"entity": "Beta Holdings SA"})
            assert r["total"] >= 5 and any(e["superseded_by"] for e in r["items"]), r
            print(f"ok timeline: {r['total']} claims")

            r = await call(s, "contradictions", {})
            assert r["total"] == 1 and r["items"][0]["kind"] == "asserted vs denied", r
            first, second = r["items"][0]["first"], r["items"][0]["second"]
            assert CITE.match(first["citation"]) and CITE.match(second["citation"])
            print(f"ok contradictions: {first['citation']} vs {second['citation']}")

            r = await call(s, "communities", {})
            assert r["total"] == 3 and r["items"][0]["id"] == 1, r
            print(f"ok communities: {r['total']}, first labelled {r['items'][0]['label']}")

            r = await call(s, "gql", {"query": "MATCH ()-[r]->() RETURN type(r) AS relation, count(*) AS n ORDER BY n DESC, relation", "limit": 2})
            assert r["columns"] == ["relation", "n"] and r["shown"] == 2 and r["total"] > 2, r
            print(f"ok gql: {r['items']}")
            w = await s.call_tool("gql", {"query": "CREATE (:X {a: 1})"})
            assert is_error(w), w
            print(f"ok gql is read-only: {w.content[0].text[:80]}")

            fact = f'contradicts("{first["id"]}", "{second["id"]}", "asserted vs denied")'
            r = await call(s, "explain", {"fact": fact})
            assert r["holds"] and "registry-notes.txt" in r["explanation"], r
            print(f"ok explain: {len(r['explanation'])} bytes")

            claim = {"doc": "registry-notes.txt", "subject": "Marek Novak", "relation": "CONTROLS", "object": "Orion Nominees Ltd", "modality": "assertion"}
            bad = await s.call_tool("record_claim", dict(claim, quote="Marek Novak runs Orion."))
            assert is_error(bad) and "quote_not_found" in bad.content[0].text, bad
            print(f"ok record_claim refuses a paraphrase: {bad.content[0].text[:60]}")
            r = await call(s, "record_claim", dict(claim, quote="Orion Nominees Ltd is controlled by Marek Novak."))
            assert r["ok"] and r["id"].startswith("gen-") and (r["start"], r["end"]) == (170, 218), r
            print(f"ok record_claim: {r['id']} [registry-notes.txt:{r['start']}-{r['end']}]")

            # The server does not hold the store: another tg reads it meanwhile.
            o = subprocess.run([TG, "claim", "list", "--db", DB], capture_output=True, text=True)
            assert o.returncode == 0 and r["id"] in o.stdout, (o.returncode, o.stdout, o.stderr)
            print("ok another tg reads the store while the server runs")

            try:
                u = await s.call_tool("nope", {})
                assert is_error(u), u
            except Exception as e:  # an unknown tool is a JSON-RPC error
                assert "unknown tool" in str(e), e
            print("ok unknown tool refused")


asyncio.run(main())
print("ok all")
