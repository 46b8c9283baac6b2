"""Keep the questions indexed beside each documentation page in step with the bundled sources.

After a tarball in data/docs/ is refreshed, some pages are new (no questions yet) and some lines
name pages that are gone; tests/test_docs_questions.py fails when more than 5% of a source's pages
have no questions or any line is stale (the OpenUI5 API reference only when a line is stale: only the
symbols developers look for have questions). This script says which, and writes the new pages in the
form the questions were written from (title, outline, opening text), one file per source:

    python scripts/docs_questions.py check        # counts per source; exit 1 when the test would fail
    python scripts/docs_questions.py stale        # the stale lines, to delete from questions/*.tsv
    python scripts/docs_questions.py packet OUT   # OUT/<owner+name>.md: the pages without questions

Whoever writes the questions reads each entry and appends ``path<TAB>question | question`` lines to
src/sap_devs/docs/questions/<owner+name>.tsv (the header of those files says how they were written);
then reinstall (``pip install -e .``) to rebuild the index.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from sap_devs.docs import questions, store
from sap_devs.docs.ingest import Page
from sap_devs.docs.sources import API_REFERENCE, SOURCES

COVERAGE = 0.95
LEAD_CHARS = 450
OUTLINE_MAX = 14
_CODE = re.compile(r"```.*?```", re.S)


def _state() -> list[tuple[str, list[Page], questions.Questions, list[str]]]:
    """Per source: its pages, its questions and the stale keys (page lines and section lines)."""
    index = store.current()
    found = []
    for source in (*SOURCES, API_REFERENCE):
        pages, _ = index.pages_of(source.repo)
        asked = questions.for_source(source.repo)
        found.append((source.repo, pages, asked, asked.stale(pages)))
    return found


def check() -> int:
    failing = 0
    for repo, pages, asked, stale in _state():
        if not pages:
            continue
        have = sum(1 for p in pages if asked.of(p.path))
        covered = repo == API_REFERENCE.repo or have >= COVERAGE * len(pages)
        bad = not covered or bool(stale)
        failing += bad
        print(
            f"{'FAIL' if bad else 'ok  '} {repo}: {have:,} of {len(pages):,} pages have questions, {len(stale)} stale"
        )
    return 1 if failing else 0


def stale() -> int:
    for repo, _, _, keys in _state():
        for key in keys:
            print(f"{questions.file_for(repo).name}\t{key}")
    return 0


def _entry(page: Page) -> str:
    headings = list(dict.fromkeys(s.heading[-1] for s in page.sections[1:]))
    outline = "; ".join(headings[:OUTLINE_MAX]) + (" ..." if len(headings) > OUTLINE_MAX else "")
    lead = next(
        (" ".join(_CODE.sub(" [code] ", s.text).split())[:LEAD_CHARS] for s in page.sections if len(s.text) > 40), ""
    )
    return f"### {page.path}\n[{page.product}] {page.title}\noutline: {outline or '-'}\ntext: {lead}\n"


def packet(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    for repo, pages, asked, _ in _state():
        missing = {asked.key(p.path): p for p in pages if not asked.of(p.path)}  # one entry per SAP-docs loio
        if not missing:
            continue
        target = out / (repo.replace("/", "+") + ".md")
        target.write_text("\n".join(_entry(p) for p in missing.values()), encoding="utf-8")
        print(f"{target}: {len(missing)} pages without questions")
    return 0


def main() -> int:
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "check":
        return check()
    if command == "stale":
        return stale()
    if command == "packet" and len(sys.argv) > 2:
        return packet(Path(sys.argv[2]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
