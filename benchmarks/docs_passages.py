"""Does the passage an agent reads answer the question? Blind judgments of search_docs' top 5 passages.

The page-level sets (docs_relevance.py) ask whether the right page is found; an agent reads the passage
search_docs points to (the best section and its neighbour when the match spans two, as read_doc returns
them for the hit's ``sections``). This script takes a question set (benchmarks/docs_passage_questions.yaml,
written blind to the engine), runs search_docs through the MCP tool exactly as an agent calls it, reads
each of the top 5 hits' passages with read_doc, and writes judging packets: each question once with its
judge's notes, the passages shuffled and named by opaque ids, no rank, system, page title or URL shown.
One control is mixed in per question, unmarked: a random section of the same product (how often does a
judge call an unrelated passage an answer?).

    python benchmarks/docs_passages.py packets OUT_DIR [--parts 2]   # OUT_DIR/part-N.md and key.json
    python benchmarks/docs_passages.py score OUT_DIR                 # judged parts -> figures
    python benchmarks/docs_passages.py carry OUT_DIR                 # today's top 5, graded as judged there

A judge writes one line per passage into OUT_DIR/part-N.judged: ``<id> <grade> <reason>``, grade 2
(the passage answers: a developer could do or know what was asked from it alone), 1 (on the topic, does
not answer) or 0. ``score`` prints the share of questions with an answering passage in the top 5 and in
the top 1, per topic and per origin, the share with a relevant one (grade 1 or 2) in the top 5, and the
controls' grades.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

import yaml

from sap_devs.core import paths
from sap_devs.docs.store import current
from sap_devs.knowledge.layer_paths import Layer
from sap_devs.mcp.dispatch import invoke
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry

HERE = Path(__file__).resolve().parent
QUESTIONS = Path(__import__("os").environ.get("SAP_DEVS_PASSAGE_QUESTIONS", HERE / "docs_passage_questions.yaml"))
DEPTH = 5
PASSAGE_CHARS = 4000  # what a judge reads of a passage; read_doc returns more, an agent reads the start first
SEED = 20261201


def _context() -> ToolContext:
    return ToolContext(cwd=Path.cwd(), layers=[Layer("bundled", paths.bundled_root(), strict=True)])


async def _passages(query: str, registry: Registry, ctx: ToolContext) -> list[dict]:
    found = await invoke(registry.get("search_docs"), {"query": query, "limit": DEPTH}, ctx)
    if found.is_error or not found.structured:
        raise SystemExit(f"search_docs failed for {query!r}: {found.text[:300]}")
    out = []
    for rank, hit in enumerate(found.structured["results"][:DEPTH], 1):
        read = await invoke(registry.get("read_doc"), {"id": hit["id"], "sections": hit["sections"]}, ctx)
        if read.is_error or not read.structured:
            raise SystemExit(f"read_doc failed for {hit['id']}: {read.text[:300]}")
        out.append(
            {
                "rank": rank,
                "id": hit["id"],
                "sections": hit["sections"],
                "match": hit["match"],
                "text": read.structured["content"][:PASSAGE_CHARS],
            }
        )
    return out


def _decoy(product: str, avoid: set[str], rng: random.Random) -> dict:
    index = current()
    with index._lock:  # a benchmark reads the pages table directly: the index has no API for "all pages of"
        rows = [r for (r,) in index._con.execute("SELECT id FROM pages WHERE product = ?", (product,))]
    while True:
        doc = index.read(rng.choice(rows))
        if f"{doc.source.repo}:{doc.path}" in avoid or not doc.sections:
            continue
        heading, _, body = rng.choice(doc.sections)
        if len(body) > 200:
            return {
                "rank": None,
                "id": f"{doc.source.repo}:{doc.path}",
                "sections": [heading],
                "text": body[:PASSAGE_CHARS],
            }


TOPIC_PRODUCT = {"fiori-tools": "fiori-tools"}


def packets(out: Path, parts: int) -> None:
    questions = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    registry, ctx, rng = Registry.default(), _context(), random.Random(SEED)
    out.mkdir(parents=True, exist_ok=True)
    key: dict[str, dict] = {}
    texts: list[list[str]] = [[] for _ in range(parts)]
    for qn, q in enumerate(questions):
        passages = asyncio.run(_passages(q["query"], registry, ctx))
        decoy = _decoy(TOPIC_PRODUCT.get(q["topic"], "ui5"), {p["id"] for p in passages}, rng)
        candidates = [*passages, decoy | {"control": "decoy"}]
        rng.shuffle(candidates)
        lines = [
            f"## Question Q{qn + 1}\n\n{q['query'].strip()}\n\nWhat an answer must contain: {q['answer_notes'].strip()}\n"
        ]
        for c in candidates:
            cid = f"P{rng.randrange(16**6):06x}"
            key[cid] = {
                "question": qn,
                "rank": c["rank"],
                "page": c["id"],
                "sections": c["sections"],
                "control": c.get("control"),
            }
            lines.append(f"### Passage {cid}\n\n````text\n{c['text'].strip()}\n````\n")
        texts[qn % parts].append("\n".join(lines))
    for n, chunk in enumerate(texts, 1):
        head = (
            "# Judging packet: passages for developer questions about SAP Fiori and UI5\n\n"
            "For each passage write one line into the matching .judged file: `<passage id> <grade> <reason>`.\n"
            "Grade 2: the passage alone answers the question (a developer could do or know what was asked from it);\n"
            "1: on the topic but does not answer; 0: unrelated. Judge each passage on its own text.\n\n"
        )
        (out / f"part-{n}.md").write_text(head + "\n".join(chunk), encoding="utf-8")
    (out / "key.json").write_text(json.dumps(key, indent=1), encoding="utf-8")
    print(f"{len(questions)} questions, {len(key)} passages in {parts} packets under {out}")


def _grades(out: Path, key: dict[str, dict]) -> dict[str, int]:
    """passage id -> grade, from the judges' part-N.judged files of ``out`` (lines of other ids are ignored)."""
    grades: dict[str, int] = {}
    for judged in sorted(out.glob("part-*.judged")):
        for line in judged.read_text(encoding="utf-8").splitlines():
            fields = line.split(maxsplit=2)
            if len(fields) >= 2 and fields[0] in key and fields[1] in ("0", "1", "2"):
                grades[fields[0]] = int(fields[1])
    return grades


def score(out: Path) -> None:
    questions = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    key = json.loads((out / "key.json").read_text(encoding="utf-8"))
    grades = _grades(out, key)
    missing = [cid for cid in key if cid not in grades]
    if missing:
        print(f"warning: {len(missing)} of {len(key)} passages not judged (counted as not answering)")
    best: dict[int, list[tuple[int, int]]] = defaultdict(list)  # question -> (rank, grade)
    decoys = []
    for cid, entry in key.items():
        grade = grades.get(cid, 0)
        if entry["control"] == "decoy":
            decoys.append(grade)
        else:
            best[entry["question"]].append((entry["rank"], grade))

    def share(qs: list[int], test) -> str:
        hits = sum(1 for q in qs if test(best[q]))
        return f"{hits}/{len(qs)} ({hits / len(qs):.0%})" if qs else "-"

    groups: dict[str, list[int]] = defaultdict(list)
    for qn, q in enumerate(questions):
        groups["all"].append(qn)
        groups[f"topic {q['topic']}"].append(qn)
        groups["origin real" if str(q.get("origin", "")).startswith("real") else "origin written"].append(qn)
    print(f"{'set':<28} {'answer in top 5':>16} {'answer at 1':>14} {'relevant in top 5':>18}")
    for name, qs in groups.items():
        print(
            f"{name:<28} {share(qs, lambda g: any(x == 2 for _, x in g)):>16} "
            f"{share(qs, lambda g: any(r == 1 and x == 2 for r, x in g)):>14} "
            f"{share(qs, lambda g: any(x >= 1 for _, x in g)):>18}"
        )
    print(f"decoys graded 2: {decoys.count(2)}/{len(decoys)}, 1: {decoys.count(1)}/{len(decoys)}")


def carry(out: Path) -> None:
    """Without judging again: today's top 5 per question, each passage graded as the judges of ``out`` graded
    the same page and sections (a passage they never saw counts as not answering, so the share is a floor)."""
    questions = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    key = json.loads((out / "key.json").read_text(encoding="utf-8"))
    grades = _grades(out, key)
    known = {(e["question"], e["page"], tuple(e["sections"])): grades.get(cid, 0) for cid, e in key.items()}
    registry, ctx = Registry.default(), _context()
    answered = unseen = changed = 0
    by_source: dict[str, int] = defaultdict(int)
    for qn, q in enumerate(questions):
        passages = asyncio.run(_passages(q["query"], registry, ctx))
        then = sorted((e["rank"], e["page"]) for e in key.values() if e["question"] == qn and e["rank"])
        changed += [(p["rank"], p["id"]) for p in passages] != then
        found = [known.get((qn, p["id"], tuple(p["sections"]))) for p in passages]
        unseen += sum(1 for g in found if g is None)
        answered += any(g == 2 for g in found)
        for p in passages:
            by_source[p["id"].split(":", 1)[0]] += 1
    print(
        f"{len(questions)} questions: a passage judged as answering in the top 5 for {answered} "
        f"({answered / len(questions):.0%}, a floor); top 5 pages not as judged for {changed}; "
        f"{unseen} of {DEPTH * len(questions)} passages never judged"
    )
    print(
        "top-5 passages by source: " + ", ".join(f"{s} {n}" for s, n in sorted(by_source.items(), key=lambda x: -x[1]))
    )


def main() -> None:
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == "packets":
        parts = int(args[args.index("--parts") + 1]) if "--parts" in args else 2
        packets(Path(args[1]), parts)
    elif len(args) == 2 and args[0] == "score":
        score(Path(args[1]))
    elif len(args) == 2 and args[0] == "carry":
        carry(Path(args[1]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
