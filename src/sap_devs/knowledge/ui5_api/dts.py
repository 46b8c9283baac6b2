"""A reader for the TypeScript declaration files UI5 ships (``@openui5/types``, ``@sapui5/types``).

It understands the subset of TypeScript those generated files use: ``declare module "x" { ... }``
blocks holding imports, classes, interfaces, enums, type aliases, functions, constants and
namespaces, each with its JSDoc comment. It never evaluates anything. Every loop advances through
the text, comments and strings are closed with ``str.find`` (an unterminated one ends the file),
and a deadline is checked as it goes, so a hostile file costs at most its size and the time given.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

# One pass of the C regex engine. Every alternative is linear: a comment or string that never
# closes runs to the end of the file instead of being retried at each later position.
TOKEN = re.compile(
    r"(?P<doc>/\*\*[^*]*(?:\*+(?!/)[^*]*)*(?:\*+/|$))"
    r"|(?P<cmt>/\*[^*]*(?:\*+(?!/)[^*]*)*(?:\*+/|$)|//[^\n]*)"
    r"|(?P<s>\"[^\"\\\n]*(?:\\.[^\"\\\n]*)*\"?|'[^'\\\n]*(?:\\.[^'\\\n]*)*'?|`[^`\\]*(?:\\.[^`\\]*)*`?)"
    r"|(?P<p>=>|[{}()\[\];,:=?<>|&.*])"
    r"|(?P<w>[^\s{}()\[\];,:=?<>|&.*\"'`/]+|/)"
)
DEADLINE_EVERY = 20000  # tokens between clock checks


class DtsTimeout(Exception):
    """The file took longer than the time it was given."""


class DtsTooDeep(Exception):
    """Namespaces nest deeper than any real declaration file (UI5's nest three or four levels)."""


NEST_MAX = 32


Tok = tuple[str, str, int, int]
"""kind ("p" punctuation, "w" word, "s" string, "doc" JSDoc comment), text, start, end."""
T = TypeVar("T")
KIND, TEXT, START, END = 0, 1, 2, 3


def tokenize(text: str, deadline: float | None = None) -> list[Tok]:
    """The tokens of ``text``; plain comments are dropped, JSDoc comments kept."""
    toks: list[Tok] = []
    append = toks.append
    for count, m in enumerate(TOKEN.finditer(text)):
        kind = m.lastgroup
        if kind != "cmt":
            append((kind, m.group(), m.start(), m.end()))  # type: ignore[arg-type]
        if deadline is not None and count % DEADLINE_EVERY == 0 and time.monotonic() > deadline:
            raise DtsTimeout
    return toks


@dataclass(slots=True)
class Param:
    name: str
    type: str
    optional: bool = False
    rest: bool = False

    def render(self) -> str:
        return f"{'...' if self.rest else ''}{self.name}{'?' if self.optional else ''}: {self.type}"


@dataclass(slots=True)
class Member:
    kind: str  # "method", "property", "constructor", "index"
    name: str
    doc: str | None = None
    static: bool = False
    optional: bool = False
    type: str | None = None  # a property's type, a method's return type
    params: list[Param] = field(default_factory=list)
    generics: str = ""

    def signature(self) -> str:
        params = ", ".join(p.render() for p in self.params)
        return f"{self.name}{self.generics}({params}): {self.type or 'void'}"


@dataclass(slots=True)
class Decl:
    kind: str  # "class", "interface", "enum", "type", "function", "const", "namespace", "module", "import"
    name: str
    doc: str | None = None
    exported: bool = False
    default: bool = False
    abstract: bool = False
    extends: list[str] = field(default_factory=list)
    implements: list[str] = field(default_factory=list)
    members: list[Member] = field(default_factory=list)
    type: str | None = None  # a type alias's or a constant's type, a function's return type
    params: list[Param] = field(default_factory=list)
    generics: str = ""
    children: list[Decl] = field(default_factory=list)
    imports: dict[str, tuple[str, str]] = field(default_factory=dict)  # local name -> (module, export)
    values: list[tuple[str, str | None, str | None]] = field(default_factory=list)  # enum: name, value, doc

    def signature(self) -> str:
        params = ", ".join(p.render() for p in self.params)
        return f"{self.name}{self.generics}({params}): {self.type or 'void'}"


_SPACES = re.compile(r"\s+")
_INLINE_COMMENT = re.compile(r"/\*.*?\*/", re.S)
MODIFIERS = frozenset({"static", "readonly", "abstract", "protected", "private", "public", "declare", "override"})
OPEN = {"(": ")", "[": "]", "{": "}"}


class Parser:
    def __init__(self, text: str, deadline: float | None = None) -> None:
        self.text = text
        self.deadline = deadline
        self.toks = tokenize(text, deadline)
        self.i = 0
        self.steps = 0
        self.depth = 0

    # -- helpers ------------------------------------------------------------------------------

    def _tick(self) -> None:
        self.steps += 1
        if self.deadline is not None and self.steps % DEADLINE_EVERY == 0 and time.monotonic() > self.deadline:
            raise DtsTimeout

    def peek(self, ahead: int = 0) -> Tok | None:
        j = self.i + ahead
        return self.toks[j] if j < len(self.toks) else None

    def is_(self, value: str, ahead: int = 0) -> bool:
        tok = self.peek(ahead)
        return tok is not None and tok[KIND] != "s" and tok[KIND] != "doc" and tok[TEXT] == value

    def source(self, first: int, last: int) -> str:
        """The source text of tokens first..last-1, comments dropped and white space collapsed."""
        if first >= last:
            return ""
        raw = self.text[self.toks[first][START] : self.toks[last - 1][END]]
        return _SPACES.sub(" ", _INLINE_COMMENT.sub("", raw)).strip()

    def skip_balanced(self) -> None:
        """Past the bracket that opens at the current token and everything up to its closing one."""
        stack = [OPEN[self.toks[self.i][TEXT]]]
        self.i += 1
        while self.i < len(self.toks) and stack:
            self._tick()
            tok = self.toks[self.i]
            if tok[KIND] == "p":
                if tok[TEXT] in OPEN:
                    stack.append(OPEN[tok[TEXT]])
                elif tok[TEXT] == stack[-1]:
                    stack.pop()
                elif tok[TEXT] in (")", "]", "}"):
                    stack.pop()  # unbalanced input: close what is open rather than loop
            self.i += 1

    def skip_to(self, stops: tuple[str, ...] = (";",)) -> int:
        """Advance to the first depth-0 token in ``stops`` or a closing bracket; return its index.
        Type arguments count as depth too (``=>`` is its own token, so ``>`` only closes them)."""
        angles = 0
        while self.i < len(self.toks):
            self._tick()
            tok = self.toks[self.i]
            if tok[KIND] == "p":
                if tok[TEXT] == "<":
                    angles += 1
                elif tok[TEXT] == ">" and angles:
                    angles -= 1
                elif tok[TEXT] in stops and (not angles or tok[TEXT] == ";"):
                    return self.i
                if tok[TEXT] in OPEN:
                    self.skip_balanced()
                    continue
                if tok[TEXT] in (")", "]", "}"):
                    return self.i
            self.i += 1
        return self.i

    def skip_generics(self) -> str:
        if not self.is_("<"):
            return ""
        first, depth = self.i, 0
        while self.i < len(self.toks):
            self._tick()
            tok = self.toks[self.i]
            if tok[KIND] == "p" and tok[TEXT] == "<":
                depth += 1
            elif tok[KIND] == "p" and tok[TEXT] == ">":
                depth -= 1
                if depth == 0:
                    self.i += 1
                    break
            elif tok[KIND] == "p" and tok[TEXT] in OPEN:
                self.skip_balanced()
                continue
            elif tok[KIND] == "p" and tok[TEXT] in (";", ")", "]", "}"):
                break
            self.i += 1
        return self.source(first, self.i)

    def type_until(self, stops: tuple[str, ...]) -> str:
        first = self.i
        self.skip_to(stops)
        return self.source(first, self.i)

    def eat(self, value: str) -> bool:
        if self.is_(value):
            self.i += 1
            return True
        return False

    # -- declarations -------------------------------------------------------------------------

    def parse_file(self) -> list[Decl]:
        out: list[Decl] = []
        while self.i < len(self.toks):
            before = self.i
            out.extend(self.statements())
            if self.i < len(self.toks) and self.is_("}"):
                self.i += 1  # a stray closing brace at file level
            if self.i == before:
                self.i += 1
        return out

    def block(self, item: Callable[[str | None], T | None], separators: tuple[str, ...] = ()) -> list[T]:
        """The items ``item`` reads up to (not past) the ``}`` that closes the current block, each given the
        doc comment right before it; ``separators`` between items are passed over. A token no item starts
        with is stepped over, so a malformed block still ends."""
        out: list[T] = []
        doc: str | None = None
        while self.i < len(self.toks):
            self._tick()
            tok = self.toks[self.i]
            if tok[KIND] == "doc":
                doc = tok[TEXT]
                self.i += 1
                continue
            if tok[KIND] == "p" and tok[TEXT] == "}":
                break
            if tok[KIND] == "p" and tok[TEXT] in separators:
                self.i += 1
                continue
            before = self.i
            found = item(doc)
            doc = None
            if found is not None:
                out.append(found)
            if self.i == before:
                self.i += 1
        return out

    def statements(self) -> list[Decl]:
        """Declarations up to (not past) the ``}`` that closes the current block."""
        return self.block(self.statement)

    def statement(self, doc: str | None) -> Decl | None:
        exported = default = abstract = False
        while True:
            tok = self.peek()
            if tok is None or tok[KIND] != "w":
                break
            if tok[TEXT] == "export":
                exported = True
            elif tok[TEXT] == "default":
                default = True
            elif tok[TEXT] == "abstract":
                abstract = True
            elif tok[TEXT] != "declare":
                break
            self.i += 1
        tok = self.peek()
        if tok is None:
            return None
        word = tok[TEXT] if tok[KIND] == "w" else ""
        if word == "import":
            return self.import_()
        if word in ("class", "interface"):
            self.i += 1
            return self.class_(word, doc, exported, default, abstract)
        if word == "enum" or (word == "const" and self.is_("enum", 1)):
            self.i += 2 if word == "const" else 1
            return self.enum(doc, exported, default)
        if word in ("namespace", "module"):
            self.i += 1
            return self.namespace(word, doc, exported)
        if word == "type" and self.peek(1) is not None and self.peek(1)[KIND] == "w":  # type: ignore[union-attr]
            self.i += 1
            return self.type_alias(doc, exported)
        if word == "function":
            self.i += 1
            return self.function(doc, exported, default)
        if word in ("const", "let", "var"):
            self.i += 1
            return self.constant(doc, exported)
        if default and tok[KIND] == "w":
            self.i += 1
            self.eat(";")
            return Decl("default", tok[TEXT])
        self.skip_to()
        self.eat(";")
        return None

    def import_(self) -> Decl:
        self.i += 1
        self.eat("type")
        names: dict[str, str] = {}
        while self.i < len(self.toks) and not self.is_("from") and not self.is_(";"):
            self._tick()
            tok = self.toks[self.i]
            if tok[KIND] == "s":  # import "module" with no names
                break
            if tok[KIND] == "p" and tok[TEXT] == "{":
                self.i += 1
                while self.i < len(self.toks) and not self.is_("}"):
                    self._tick()
                    t = self.toks[self.i]
                    if t[KIND] == "w" and t[TEXT] != "type":
                        export = t[TEXT]
                        local = export
                        if self.is_("as", 1) and self.peek(2) is not None:
                            local = self.peek(2)[TEXT]  # type: ignore[union-attr]
                            self.i += 2
                        names[local] = export
                    self.i += 1
                self.eat("}")
                continue
            if tok[KIND] == "p" and tok[TEXT] == "*" and self.is_("as", 1) and self.peek(2) is not None:
                names[self.peek(2)[TEXT]] = "*"  # type: ignore[union-attr]
                self.i += 3
                continue
            if tok[KIND] == "w":
                names[tok[TEXT]] = "default"
            self.i += 1
        module = ""
        if self.eat("from") and self.peek() is not None and self.peek()[KIND] == "s":  # type: ignore[union-attr]
            module = self.peek()[TEXT][1:-1]  # type: ignore[union-attr]
            self.i += 1
        self.skip_to()
        self.eat(";")
        return Decl("import", module, imports={local: (module, export) for local, export in names.items()})

    def _name(self) -> str:
        tok = self.peek()
        if tok is None:
            return ""
        self.i += 1
        return tok[TEXT][1:-1] if tok[KIND] == "s" else tok[TEXT]

    def class_(self, kind: str, doc: str | None, exported: bool, default: bool, abstract: bool) -> Decl:
        decl = Decl(kind, self._name(), doc=doc, exported=exported, default=default, abstract=abstract)
        decl.generics = self.skip_generics()
        while self.i < len(self.toks) and not self.is_("{"):
            self._tick()
            if self.eat("extends"):
                decl.extends = self._heritage_list()
            elif self.eat("implements"):
                decl.implements = self._heritage_list()
            elif self.is_(";") or self.is_("}"):
                return decl
            else:
                self.i += 1
        if self.eat("{"):
            decl.members = self.members()
            self.eat("}")
        return decl

    def _heritage_list(self) -> list[str]:
        out: list[str] = []
        while self.i < len(self.toks):
            self._tick()
            first = self.i
            while self.i < len(self.toks):
                tok = self.toks[self.i]
                if tok[KIND] == "p" and tok[TEXT] in (",", "{", ";", "}"):
                    break
                if tok[KIND] == "w" and tok[TEXT] in ("implements", "extends") and self.i > first:
                    break
                if tok[KIND] == "p" and tok[TEXT] == "<":
                    self.skip_generics()
                    continue
                if tok[KIND] == "p" and tok[TEXT] in OPEN:
                    self.skip_balanced()
                    continue
                self.i += 1
            text = self.source(first, self.i)
            if text:
                out.append(text)
            if not self.eat(","):
                break
        return out

    def members(self) -> list[Member]:
        return self.block(self.member, (";", ","))

    def member(self, doc: str | None) -> Member | None:
        static = False
        while (
            self.peek() is not None
            and self.peek()[KIND] == "w"  # type: ignore[union-attr]
            and self.peek()[TEXT] in MODIFIERS  # type: ignore[union-attr]
            and not (self.is_(":", 1) or self.is_("(", 1) or self.is_("?", 1) or self.is_(";", 1))
        ):
            static = static or self.peek()[TEXT] == "static"  # type: ignore[union-attr]
            self.i += 1
        if self.is_("["):  # an index signature or a computed name: kept as text only
            first = self.i
            self.skip_to()
            return Member("index", self.source(first, self.i), doc=doc)
        if self.is_("(") or self.is_("<"):  # a call signature
            name = ""
        else:
            tok = self.peek()
            if tok is None or tok[KIND] not in ("w", "s"):
                self.skip_to()
                return None
            name = self._name()
        optional = self.eat("?")
        if self.is_("(") or self.is_("<"):
            generics = self.skip_generics()
            params = self.params()
            returns = None
            if self.eat(":"):
                returns = self.type_until((";", ","))
            kind = "constructor" if name == "constructor" else "method"
            return Member(kind, name, doc, static, optional, returns, params, generics)
        type_ = None
        if self.eat(":"):
            type_ = self.type_until((";", ","))
        else:
            self.skip_to((";", ","))
        return Member("property", name, doc, static, optional, type_)

    def params(self) -> list[Param]:
        if not self.is_("("):
            return []
        self.i += 1
        out: list[Param] = []
        while self.i < len(self.toks) and not self.is_(")"):
            self._tick()
            tok = self.toks[self.i]
            if tok[KIND] == "doc" or (tok[KIND] == "p" and tok[TEXT] == ","):
                self.i += 1
                continue
            rest = False
            if self.is_(".") and self.is_(".", 1) and self.is_(".", 2):
                rest = True
                self.i += 3
            if self.is_("{") or self.is_("["):  # a destructured parameter
                first = self.i
                self.skip_balanced()
                name = self.source(first, self.i)
            else:
                name = self._name()
            optional = self.eat("?")
            type_ = "any"
            if self.eat(":"):
                type_ = self.type_until((",", ")"))
            else:
                self.skip_to((",", ")"))
            out.append(Param(name, type_, optional, rest))
        self.eat(")")
        return out

    def enum(self, doc: str | None, exported: bool, default: bool) -> Decl:
        decl = Decl("enum", self._name(), doc=doc, exported=exported, default=default)
        if not self.eat("{"):
            return decl
        value_doc: str | None = None
        while self.i < len(self.toks) and not self.is_("}"):
            self._tick()
            tok = self.toks[self.i]
            if tok[KIND] == "doc":
                value_doc = tok[TEXT]
                self.i += 1
                continue
            if tok[KIND] == "p" and tok[TEXT] == ",":
                self.i += 1
                continue
            if tok[KIND] not in ("w", "s"):
                self.i += 1
                continue
            name = self._name()
            value = None
            if self.eat("="):
                value = self.type_until((",", "}"))
            decl.values.append((name, value, value_doc))
            value_doc = None
        self.eat("}")
        return decl

    def namespace(self, word: str, doc: str | None, exported: bool) -> Decl:
        name = self._name()
        while self.eat("."):  # namespace a.b.c
            name += "." + self._name()
        decl = Decl(word, name, doc=doc, exported=exported)
        if self.eat("{"):
            self.depth += 1
            if self.depth > NEST_MAX:
                raise DtsTooDeep
            decl.children = self.statements()
            self.depth -= 1
            self.eat("}")
        else:
            self.eat(";")
        return decl

    def type_alias(self, doc: str | None, exported: bool) -> Decl:
        decl = Decl("type", self._name(), doc=doc, exported=exported)
        decl.generics = self.skip_generics()
        if self.eat("="):
            decl.type = self.type_until((";",))
        self.eat(";")
        return decl

    def function(self, doc: str | None, exported: bool, default: bool) -> Decl:
        decl = Decl("function", self._name() if not self.is_("(") else "default", doc=doc, exported=exported)
        decl.default = default
        decl.generics = self.skip_generics()
        decl.params = self.params()
        if self.eat(":"):
            decl.type = self.type_until((";",))
        self.eat(";")
        return decl

    def constant(self, doc: str | None, exported: bool) -> Decl:
        decl = Decl("const", self._name(), doc=doc, exported=exported)
        if self.eat(":"):
            decl.type = self.type_until((";", "="))
        self.skip_to()
        self.eat(";")
        return decl


def parse(text: str, *, deadline: float | None = None) -> list[Decl]:
    """The top-level declarations of a ``.d.ts`` text (``DtsTimeout`` past ``deadline``)."""
    return Parser(text, deadline).parse_file()
