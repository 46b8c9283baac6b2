"""Pooled relevance judgments for the documentation query sets (the TREC method).

The query sets name the one or two pages their writer found by grepping the sources; a sibling page
that answers as well counts as a miss, for sap-devs and for plain BM25 alike. This script pools the
top 10 pages of both systems for every query, leaves out the pages already judged, and writes them
as judging packets: each query once, its candidates shuffled and named only by an opaque id, so a
judge cannot tell which system found a page or at which rank. Two controls are mixed in, unmarked:
the pages the set already names (how often does the judge agree with the set's writer?) and one
random page of the same product (how often does the judge call an unrelated page an answer?).

    python benchmarks/docs_pool.py packets OUT_DIR --parts 6   # write OUT_DIR/part-N.md and key.json
    python benchmarks/docs_pool.py packets OUT_DIR --new       # only pages nobody judged yet
    python benchmarks/docs_pool.py packets OUT_DIR --sets heldout_new  # other query sets (default tuning,heldout)
    python benchmarks/docs_pool.py packets OUT_DIR --new --ours 3  # only sap-devs' top 3, no baseline (tuning sets)
    python benchmarks/docs_pool.py read OUT_DIR CANDIDATE_ID [OFFSET]  # a candidate's page, for a judge
    python benchmarks/docs_pool.py collect OUT_DIR               # judged parts -> docs_judgments_pooled.yaml

Every grade, with the judge's reason, is kept in docs_judgments_pooled_grades.tsv: a later engine's
top 10 can be checked for pages nobody judged (docs_relevance.py counts them). A judge writes one line per candidate into OUT_DIR/part-N.judged: ``<id> <grade> <reason>``, grade 2
(the page answers the question: a developer could do or know what was asked from it), 1 (on the
topic, does not answer) or 0. ``collect`` keeps grade 2 for the non-control candidates and prints the
controls' agreement. The pool is frozen: a page a later engine finds that nobody judged counts as
not relevant, which can only understate a later engine.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import tempfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_relevance as rel
from sap_devs.docs.store import current

DEPTH = 10
OPENING_CHARS = 1500
OUTLINE_MAX = 30
READ_CHARS = 60000
JUDGMENTS = Path(__file__).resolve().parent / "docs_judgments_pooled.yaml"
GRADES = Path(__file__).resolve().parent / "docs_judgments_pooled_grades.tsv"


def _page_text(page_row: int) -> tuple[dict, str, list[str]]:
    doc = current().read(page_row)
    info = {"title": doc.title, "url": doc.url, "source": doc.source.repo, "path": doc.path}
    text = "\n\n".join(body for _, _, body in doc.sections)
    outline = [heading for heading, _, _ in doc.sections if heading]
    return info, text, outline


def _row(source: str, path: str) -> int | None:
    found = current().find_page(page_id=f"{source}:{path}")
    return found[0] if found else None


def packets(
    out: Path,
    parts: int,
    new_only: bool = False,
    sets: tuple[str, ...] = ("tuning", "heldout"),
    ours: int | None = None,
) -> None:
    """Judging packets; with ``new_only``, only the pages nobody judged yet (a later engine's top 10), with
    the same controls, for the questions that have such pages. With ``ours``, only sap-devs' top ``ours``
    pages are pooled (no baseline): a cheaper pool of the ranks that decide MRR, for tuning sets."""
    graded = rel.graded() if new_only else {}
    index = current()
    rng = random.Random(19)
    out.mkdir(parents=True, exist_ok=True)
    con_pages = sqlite3.connect(f"{index.path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    by_product: dict[str, list[tuple[str, str]]] = {}
    by_source: dict[str, list[tuple[str, str]]] = {}
    for source, path, product in con_pages.execute("SELECT source, path, product FROM pages"):
        by_product.setdefault(product, []).append((source, path))
        by_source.setdefault(source, []).append((source, path))
    items: list[dict] = []
    key: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        baseline = None
        if ours is None:
            base_path = Path(tmp) / "baseline.sqlite"
            rel.build_baseline(index.path, base_path)
            baseline = sqlite3.connect(base_path)
        for set_name in sets:
            for q in rel.load(set_name):
                named = {rel._page_key(*rel._resolved(r)): rel._resolved(r) for r in q["relevant"]}
                found = [(h.source, h.path) for h in index.search(q["query"], limit=ours or DEPTH)[0]]
                theirs = rel.baseline_search(baseline, q["query"])[:DEPTH] if baseline is not None else []
                pool: dict[tuple[str, str], tuple[str, str, str]] = {}
                for source, path in found + theirs:
                    k = rel._page_key(source, path)
                    if k not in named and (set_name, q["query"], k) not in graded:
                        pool.setdefault(k, (source, path, "pool"))
                if new_only and not pool:
                    continue
                for k, (source, path) in named.items():
                    pool.setdefault(k, (source, path, "named"))
                # the decoy: a page of the same product that neither system returned (the new sources' sets
                # label questions by service, not by index product: there, a page of the named page's source)
                same = by_product.get(q["product"]) or [
                    p for p in by_source.get(next(iter(named.values()))[0], []) if rel._page_key(*p) not in pool
                ]
                while same:
                    source, path = rng.choice(same)
                    if rel._page_key(source, path) not in pool:
                        pool[rel._page_key(source, path)] = (source, path, "decoy")
                        break
                cands = list(pool.values())
                rng.shuffle(cands)
                entry = {"query": q["query"], "product": q["product"], "candidates": []}
                for source, path, kind in cands:
                    row = _row(source, path)
                    if row is None:
                        continue
                    cid = f"c{len(key) + 1:05d}"
                    key[cid] = {"set": set_name, "query": q["query"], "source": source, "path": path, "kind": kind}
                    entry["candidates"].append((cid, row))
                items.append(entry)
    rng.shuffle(items)  # tuning and held-out queries mixed, so no judge works on one set alone
    size = -(-len(items) // parts)
    for n in range(parts):
        lines = [
            f"# Judging packet {n + 1} of {parts}",
            "",
            "For each question, grade every candidate page: 2 = the page answers the question (a developer "
            "could do or know what was asked from this page), 1 = on the topic but does not answer it, "
            "0 = not relevant. Write one line per candidate into the .judged file: `<id> <grade> <short reason>`.",
            "",
        ]
        for entry in items[n * size : (n + 1) * size]:
            lines += [f"## Q: {entry['query']}  (product: {entry['product']})", ""]
            for cid, row in entry["candidates"]:
                info, text, outline = _page_text(row)
                opening = text[:OPENING_CHARS].strip()
                more = (
                    f" (page continues, {len(text)} chars: read it with `read {cid}`)"
                    if len(text) > OPENING_CHARS
                    else ""
                )
                lines += [
                    f"### {cid}: {info['title']}",
                    f"url: {info['url']}",
                    "outline: " + " | ".join(outline[:OUTLINE_MAX]) + (" | ..." if len(outline) > OUTLINE_MAX else ""),
                    "",
                    "```text",
                    opening.replace("```", "'''"),
                    "```" + more,
                    "",
                ]
        (out / f"part-{n + 1}.md").write_text("\n".join(lines), encoding="utf-8")
    (out / "key.json").write_text(json.dumps(key, indent=1), encoding="utf-8")
    kinds = [v["kind"] for v in key.values()]
    print(
        f"{len(items)} queries, {len(key)} candidates ({kinds.count('pool')} pooled, "
        f"{kinds.count('named')} named, {kinds.count('decoy')} decoys) in {parts} packets under {out}"
    )


def read(out: Path, cid: str, offset: int = 0) -> None:
    """A candidate's page from ``offset``: the cheat sheets run past 300,000 characters, and a judge who
    sees only their start grades a later section from the outline alone."""
    key = json.loads((out / "key.json").read_text(encoding="utf-8"))
    if cid not in key:
        sys.exit(f"no candidate {cid}")
    row = _row(key[cid]["source"], key[cid]["path"])
    info, text, _ = _page_text(row)
    print(f"# {info['title']}\n{info['url']}\n")
    end = offset + READ_CHARS
    print(text[offset:end])
    if len(text) > end:
        print(
            f"\n[... cut at {end:,} of {len(text):,} characters: read on with `python benchmarks/docs_pool.py read {out} {cid} {end}`]"
        )


def collect(out: Path) -> None:
    """Adds this round's grades to docs_judgments_pooled_grades.tsv (a page judged before keeps its first
    grade) and writes docs_judgments_pooled.yaml from all of them."""
    key = json.loads((out / "key.json").read_text(encoding="utf-8"))
    rows = rel.graded()
    this_round: dict[str, int] = {}
    for judged in sorted(out.glob("part-*.judged")):
        for line in judged.read_text(encoding="utf-8").splitlines():
            fields = line.split(maxsplit=2)
            if len(fields) < 2 or fields[0] not in key or fields[1] not in {"0", "1", "2"}:
                continue
            this_round[fields[0]] = int(fields[1])
            e = key[fields[0]]
            reason = (fields[2] if len(fields) > 2 else "").replace("\t", " ")
            row = [e["kind"], fields[1], e["set"], e["source"], e["path"], e["query"], reason]
            rows.setdefault((e["set"], e["query"], rel._page_key(e["source"], e["path"])), row)
    by_kind: dict[str, list[int]] = {}
    for cid, grade in this_round.items():
        by_kind.setdefault(key[cid]["kind"], []).append(grade)
    for kind, values in sorted(by_kind.items()):
        share = sum(1 for g in values if g == 2) / len(values)
        print(f"{kind:6s} {len(values):5d} judged this round, graded 2 (answers): {share:.1%}")
    print(f"not judged: {sum(1 for c in key if c not in this_round)}")
    ordered = sorted(rows.values(), key=lambda r: r[2:6])
    header = "kind\tgrade\tset\tsource\tpath\tquery\treason\n"
    GRADES.write_text(header + "".join("\t".join(r) + "\n" for r in ordered), encoding="utf-8")
    found: dict[tuple[str, str], list[dict]] = {}
    for r in ordered:
        if r[0] == "pool" and r[1] == "2":
            found.setdefault((r[2], r[5]), []).append({"source": r[3], "path": r[4]})
    doc = [{"set": s, "query": q, "also_relevant": pages} for (s, q), pages in sorted(found.items())]
    header = (
        "# Pooled judgments for the docs query sets (docs_queries_<set>.yaml): pages among the top 10\n"
        "# of sap-devs and of plain BM25 that a blind judge graded as answering the question.\n"
        "# Written by benchmarks/docs_pool.py collect; see its docstring for the method.\n"
    )
    JUDGMENTS.write_text(header + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")
    print(f"{sum(len(d['also_relevant']) for d in doc)} more relevant pages for {len(doc)} queries -> {JUDGMENTS}")


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    command, out = sys.argv[1], Path(sys.argv[2])
    if command == "packets":
        parts = int(sys.argv[sys.argv.index("--parts") + 1]) if "--parts" in sys.argv else 6
        sets = (
            tuple(sys.argv[sys.argv.index("--sets") + 1].split(",")) if "--sets" in sys.argv else ("tuning", "heldout")
        )
        depth = int(sys.argv[sys.argv.index("--ours") + 1]) if "--ours" in sys.argv else None
        packets(out, parts, new_only="--new" in sys.argv, sets=sets, ours=depth)
    elif command == "read" and len(sys.argv) > 3:
        read(out, sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4].isdigit() else 0)
    elif command == "collect":
        collect(out)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
