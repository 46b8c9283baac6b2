"""The questions developers ask of each documentation page, indexed beside the page.

Developers and agents search in their own words ("destination to on-prem returns 503"), the
documentation titles its pages in SAP's ("Troubleshooting the Cloud Connector"). For every bundled
page a few such questions were written by reading it (its title, outline and opening text); the
index holds them in a column of their own, so a page is also found by what it answers.

One file per source in ``questions/`` (``owner+name.tsv``): ``path<TAB>question | question``.
SAP-docs publishes some pages in two guides under the same file name (a ``loio`` id), so their
questions are found by file name too. A page added upstream after the file was written simply has
none until the file is updated; it is still found by its own text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

QUESTIONS_DIR = Path(__file__).resolve().parent / "questions"
MAX_CHARS = 600  # per page: a few short questions; longer lines are cut, not trusted to stay small


@dataclass(frozen=True)
class Questions:
    by_path: dict[str, str]
    by_name: dict[str, str]

    def of(self, path: str) -> str:
        """The questions of the page at ``path``, one per line ("" when none were written)."""
        found = self.by_path.get(path)
        if found is None:
            found = self.by_name.get(path.rsplit("/", 1)[-1], "")
        return found


def file_for(repo: str) -> Path:
    return QUESTIONS_DIR / (repo.replace("/", "+") + ".tsv")


def for_source(repo: str, *, by_file_name: bool) -> Questions:
    """The questions written for one source (none when its file is absent)."""
    path = file_for(repo)
    by_path: dict[str, str] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            page, _, asked = line.partition("\t")
            questions = [q.strip() for q in asked[:MAX_CHARS].split("|") if q.strip()]
            if questions:
                by_path[page.strip()] = "\n".join(questions)
    by_name = {p.rsplit("/", 1)[-1]: q for p, q in by_path.items()} if by_file_name else {}
    return Questions(by_path, by_name)
