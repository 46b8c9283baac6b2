"""A project's ``ui5lint.config.js`` / ``.mjs`` / ``.cjs``, read as text and never run.

The UI5 linter loads its configuration by importing it, which would run the project's JavaScript.
sap-devs reads the file's default export (``export default {...}`` or ``module.exports = {...}``)
statically instead: ``ignores`` and ``files`` when they are literal arrays of strings, ``ui5Config``
when it is a literal string. Anything that would need the code to run (a variable, a call, a
spread) is not used, and the note says so in one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sap_devs.core.errors import SapDevsError
from sap_devs.toolchain.paths import relative_patterns

# The names @ui5/linter 1.23 looks for (its ConfigManager), in the order sap-devs takes the first.
CONFIG_FILES = ("ui5lint.config.js", "ui5lint.config.mjs", "ui5lint.config.cjs")
NOT_CONFIG_FILES = ("ui5lint.config.yaml", "ui5lint.config.yml", "ui5lint.config.json")
MAX_BYTES = 256 << 10
MAX_TOKENS = 50_000
MAX_DEPTH = 20


@dataclass
class Ui5LintConfig:
    file: str | None = None
    """The config file found in the project root, if any."""
    ignores: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    ui5_config: str | None = None
    notes: list[str] = field(default_factory=list)
    """What was found but not used, one line each."""


class _Opaque:
    """A value that only running the code would give."""


OPAQUE = _Opaque()

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<template>`(?:[^`\\$]|\\.|\$(?!\{))*`)
  | (?P<number>-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<name>[A-Za-z_$][\w$]*)
  | (?P<punct>\.\.\.|[{}\[\](),:;=.])
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


class _Unreadable(Exception):
    pass


def _unquote(text: str) -> str:
    body = text[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in "ux":
                raise _Unreadable  # escapes that spell characters: not worth guessing for a glob
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _tokens(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "other"
        if kind in ("ws", "comment"):
            continue
        tokens.append((kind, match.group()))
        if len(tokens) > MAX_TOKENS:
            raise _Unreadable
    return tokens


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("end", "")

    def take(self) -> tuple[str, str]:
        token = self.peek()
        self.pos += 1
        return token

    def skip_expression(self) -> _Opaque:
        """Past an expression that is not a literal, up to the ``,`` or closing bracket that ends it."""
        depth = 0
        while True:
            kind, text = self.peek()
            if kind == "end":
                raise _Unreadable
            if depth == 0 and text in (",", "}", "]", ")", ";"):
                return OPAQUE
            if text in ("{", "[", "("):
                depth += 1
            elif text in ("}", "]", ")"):
                depth -= 1
            self.take()

    def value(self, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise _Unreadable
        kind, text = self.peek()
        start = self.pos
        if text == "{":
            result: Any = self.obj(depth)
        elif text == "[":
            result = self.array(depth)
        elif kind == "string" or kind == "template":
            self.take()
            result = _unquote(text)
        elif kind == "number":
            self.take()
            result = float(text) if any(c in text for c in ".eE") else int(text)
        elif kind == "name" and text in ("true", "false", "null"):
            self.take()
            result = {"true": True, "false": False, "null": None}[text]
        else:
            return self.skip_expression()
        nxt = self.peek()[1]
        if nxt not in (",", "}", "]", ")", ";", ""):  # a literal followed by more: `[...].concat(x)`
            self.pos = start
            return self.skip_expression()
        return result

    def obj(self, depth: int) -> dict[str, Any] | _Opaque:
        self.take()  # {
        out: dict[str, Any] = {}
        opaque = False
        while self.peek()[1] != "}":
            kind, text = self.take()
            if kind == "end":
                raise _Unreadable
            if kind in ("name", "string", "number") and self.peek()[1] == ":":
                self.take()
                key = _unquote(text) if kind == "string" else text
                out[key] = self.value(depth + 1)
            elif kind == "name" and self.peek()[1] in (",", "}"):
                out[text] = OPAQUE  # shorthand `{ ignores }`: a variable
            else:
                self.pos -= 1
                self.skip_expression()  # a spread, a computed key, a method
                opaque = True
            if self.peek()[1] == ",":
                self.take()
            elif self.peek()[1] != "}":
                raise _Unreadable
        self.take()  # }
        if opaque:
            out["..."] = OPAQUE
        return out

    def array(self, depth: int) -> list[Any]:
        self.take()  # [
        out: list[Any] = []
        while self.peek()[1] != "]":
            if self.peek()[0] == "end":
                raise _Unreadable
            out.append(self.value(depth + 1))
            if self.peek()[1] == ",":
                self.take()
            elif self.peek()[1] != "]":
                raise _Unreadable
        self.take()  # ]
        return out


def default_export(text: str) -> Any:
    """The literal a JS module exports by default (``export default``, ``module.exports =``), with
    OPAQUE for every part that is not a literal; OPAQUE when there is no such export or it cannot be read."""
    try:
        tokens = _tokens(text)
        for i in range(len(tokens)):
            words = [t[1] for t in tokens[i : i + 3]]
            if words[:2] == ["export", "default"]:
                start = i + 2
            elif words == ["module", ".", "exports"] and len(tokens) > i + 3 and tokens[i + 3][1] == "=":
                start = i + 4
            else:
                continue
            if i > 0 and tokens[i - 1][1] == ".":
                continue  # `foo.module.exports`
            parser = _Parser(tokens)
            parser.pos = start
            return parser.value()
    except (_Unreadable, RecursionError, ValueError):
        return OPAQUE
    return OPAQUE


def _strings(value: Any) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def read_config(root: Path) -> Ui5LintConfig:
    """The project's linter configuration, as far as it can be read without running it."""
    config = Ui5LintConfig()
    found = [name for name in CONFIG_FILES if (root / name).is_file()]
    if not found:
        for name in NOT_CONFIG_FILES:
            if (root / name).is_file():
                config.notes.append(
                    f"{name} is not a file the UI5 linter reads (it reads {', '.join(CONFIG_FILES)}); it was not used"
                )
        return config
    name = config.file = found[0]
    path = root / name
    try:
        if not path.resolve().is_relative_to(root.resolve()):
            config.notes.append(f"{name} links outside the project and was not read")
            return config
        if path.stat().st_size > MAX_BYTES:
            config.notes.append(f"{name} is larger than {MAX_BYTES >> 10} KB and was not read")
            return config
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, RuntimeError) as exc:
        config.notes.append(f"{name} could not be read ({type(exc).__name__}); the linter ran without it")
        return config
    exported = default_export(text)
    if not isinstance(exported, dict):
        config.notes.append(
            f"{name} was not used: sap-devs never runs project code, and its default export is not a literal object"
        )
        return config
    unused: list[str] = []
    for key in ("ignores", "files"):
        if key not in exported:
            continue
        patterns = _strings(exported[key])
        try:
            cleaned = relative_patterns(patterns) if patterns is not None else None
        except SapDevsError:
            cleaned = None
        if cleaned is None:
            unused.append(key)
        else:
            setattr(config, key, cleaned)
    if "ui5Config" in exported:
        value = exported["ui5Config"]
        try:
            config.ui5_config = relative_patterns([value])[0] if isinstance(value, str) else None
        except SapDevsError:
            config.ui5_config = None
        if config.ui5_config is None:
            unused.append("ui5Config")
    if "..." in exported:
        unused.append("what its spreads or computed keys add")
    if unused:
        config.notes.append(
            f"{name}: {' and '.join(unused)} not used, as only literal values (arrays of strings) are read and "
            "sap-devs never runs project code"
        )
    return config
