"""HTML turned into simple blocks (headings, paragraphs, list items) with their links.

Enough structure to read SAP Community posts without a browser: scripts, styles and navigation
chrome are dropped, entities decoded, whitespace collapsed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

_SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head", "nav", "footer"})
_BLOCK = {"p": "para", "li": "item", "h1": "h1", "h2": "h2", "h3": "h3", "h4": "h4", "h5": "h5", "h6": "h6"}
_BREAKS = frozenset({"div", "section", "article", "ul", "ol", "table", "tr", "pre", "blockquote"})


@dataclass
class Block:
    kind: str  # para, item, h1..h6
    text: str
    links: list[tuple[str, str]] = field(default_factory=list)  # (text, href)
    all_bold: bool = False

    @property
    def is_heading(self) -> bool:
        return self.kind.startswith("h")

    def markdown(self) -> str:
        if self.is_heading:
            return "#" * int(self.kind[1]) + " " + self.text
        if self.kind == "item":
            return "- " + self.text
        return f"**{self.text}**" if self.all_bold else self.text


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.title = ""
        self._skip = 0
        self._in_title = False
        self._kind: str | None = None
        self._text: list[str] = []
        self._bold_text: list[str] = []
        self._bold = 0
        self._links: list[tuple[str, str]] = []
        self._href: str | None = None
        self._link_text: list[str] = []

    def _flush(self) -> None:
        text = " ".join("".join(self._text).split())
        if text:
            bold = " ".join("".join(self._bold_text).split())
            self.blocks.append(Block(self._kind or "para", text, self._links, all_bold=bool(bold) and bold == text))
        self._kind, self._text, self._bold_text, self._links = None, [], [], []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skip += 1
            return
        if tag == "title":
            self._in_title = True
        if self._skip:
            return
        if tag in _BLOCK:
            self._flush()
            self._kind = _BLOCK[tag]
        elif tag in _BREAKS:
            self._flush()
        elif tag == "br":
            self._text.append(" ")
        elif tag in ("strong", "b"):
            self._bold += 1
        elif tag == "a":
            self._href = dict(attrs).get("href")
            self._link_text = []

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
            return
        if tag == "title":
            self._in_title = False
        if self._skip:
            return
        if tag in _BLOCK or tag in _BREAKS:
            self._flush()
        elif tag in ("strong", "b"):
            self._bold = max(0, self._bold - 1)
        elif tag == "a" and self._href:
            self._links.append((" ".join("".join(self._link_text).split()), self._href))
            self._href = None

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        if self._skip:
            return
        self._text.append(data)
        if self._bold:
            self._bold_text.append(data)
        if self._href is not None:
            self._link_text.append(data)

    def close(self) -> None:
        super().close()
        self._flush()


def parse_html(html: str) -> tuple[str, list[Block]]:
    """(page title, blocks)."""
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return " ".join(parser.title.split()), parser.blocks


_YOUTUBE_ID = re.compile(r"youtube\.com(?:/|%2F)(?:embed(?:/|%2F)|watch(?:\?v=|%3Fv%3D))([A-Za-z0-9_-]{11})")


def youtube_url(html: str) -> str | None:
    match = _YOUTUBE_ID.search(html)
    return f"https://www.youtube.com/watch?v={match.group(1)}" if match else None
