"""The questions developers ask of each documentation page, indexed beside the page.

Developers and agents search in their own words ("destination to on-prem returns 503"), the
documentation titles its pages in SAP's ("Troubleshooting the Cloud Connector"). For every bundled
page a few such questions were written by reading it (its title, outline and opening text); the
index holds them in a column of their own, so a page is also found by what it answers.

One file per source in ``questions/`` (``owner+name.tsv``): ``path<TAB>question | question`` for a
page, ``path<TAB>heading path<TAB>question | question`` for one section of a long page (its headings
joined by " > ", as read_doc shows them), so a question a later section answers leads to that section.
SAP-docs publishes some pages in two guides under the same file name (a ``loio`` id), so their
questions are found by file name too. The OpenUI5 API reference (``UI5+openui5.tsv``) files them under
the symbol's name, its page path, and only for the symbols developers look for by what they do (controls,
the classes and enums they name). A page added upstream after the file was written simply has none until
the file is updated; it is still found by its own text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only named in annotations: searching the index needs no reader
    from sap_devs.docs.ingest import Page

QUESTIONS_DIR = Path(__file__).resolve().parent / "questions"
MAX_CHARS = 1000  # per line: a few short questions; longer lines are cut, not trusted to stay small


@dataclass(frozen=True)
class Questions:
    by_path: dict[str, str]
    by_section: dict[tuple[str, str], str]  # (path, heading path) -> questions
    by_file_name: bool

    def key(self, path: str) -> str:
        """What the questions of the page at ``path`` are filed under (its loio file name on SAP-docs)."""
        return path.rsplit("/", 1)[-1] if self.by_file_name else path

    def of(self, path: str, heading: str | None = None) -> str:
        """The questions of the page at ``path``, or of its section ``heading``, one per line ("" when none)."""
        if heading is None:
            return self.by_path.get(self.key(path), "")
        return self.by_section.get((self.key(path), heading), "")

    def stale(self, pages: Iterable[Page]) -> list[str]:
        """The lines that name a page or section the source's ``pages`` do not have (``path`` or
        ``path<TAB>heading path``): left behind when a page moved or went upstream."""
        pages = list(pages)
        known = {self.key(p.path) for p in pages}
        headings = {(self.key(p.path), " > ".join(s.heading)) for p in pages for s in p.sections}
        gone = [path for path in self.by_path if path not in known]
        return gone + [f"{path}\t{heading}" for path, heading in self.by_section if (path, heading) not in headings]


def file_for(repo: str) -> Path:
    return QUESTIONS_DIR / (repo.replace("/", "+") + ".tsv")


def for_source(repo: str) -> Questions:
    """The questions written for one source (none when its file is absent)."""
    found = Questions({}, {}, by_file_name=repo.split("/", 1)[0] == "SAP-docs")
    path = file_for(repo)
    if not path.is_file():
        return found
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        questions = [q.strip() for q in fields[-1][:MAX_CHARS].split("|") if q.strip()]
        if len(fields) not in (2, 3) or not questions:
            continue
        page = found.key(fields[0].strip())
        text = "\n".join(questions)
        if len(fields) == 2:
            found.by_path[page] = text
        else:
            found.by_section[(page, fields[1].strip())] = text
    return found
