"""Mutation testing of sap-devs' safety boundaries: does the suite notice one small wrong change?

For each safety-critical module (the ABAP safety policy and SQL checking, the HTTP allow-list and
redirects, atomic file writes and the cache, pack layering and trust, the inject markers, error-code
matching) this makes one small change at a time (a comparison flipped, ``and`` for ``or``, a
``not`` dropped, a constant changed, a refusing ``if`` disabled, a statement removed), runs only
that module's test files against the changed copy, and counts the mutant killed when a test fails.
It prints the score per module and every survivor (file, line, change) for a test or an explanation.

The product tree is never touched: each worker copies ``src/`` to a temporary folder and the tests
import from there (``PYTHONPATH``); so this runs while others edit the tree. Not part of the normal
test run or CI, only the standard library::

    .venv/bin/python scripts/mutation.py                    # every module, 2 workers
    .venv/bin/python scripts/mutation.py adt/safety.py core/fs.py --workers 2 --budget 300
    .venv/bin/python scripts/mutation.py --list adt/safety.py   # the mutants, without running them

``--budget`` bounds the seconds per module (mutants are run in a fixed random order, so a module cut
short reports a fair sample and says how many ran), and each
mutant's test run is cut off after ``--timeout`` seconds (a hang counts as killed, as mutmut does).
Exit status 1 when a module scores below ``--min-score`` (default 90).
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

# module (under src/sap_devs) -> (test files, functions to mutate; None = the whole module)
TARGETS: dict[str, tuple[list[str], list[str] | None]] = {
    "adt/safety.py": (
        [
            "tests/test_abap_safety.py",
            "tests/test_refusals.py",
            "tests/test_abap_transports.py",
            "tests/test_abap_tools.py",
        ],
        None,
    ),
    "adt/abap_sql.py": (["tests/test_abap_sql_words.py", "tests/test_abap_sql.py", "tests/test_abap_data.py"], None),
    "core/http.py": (
        [
            "tests/test_http_policy.py",
            "tests/test_http_location_header.py",
            "tests/test_refusals.py",
            "tests/test_http_and_cache.py",
        ],
        ["redact", "check", "_origin", "_redirected", "_once", "_read_capped", "request", "_retry_after"],
    ),
    "core/fs.py": (["tests/test_refusals.py", "tests/test_fs_atomic_write.py", "tests/test_http_and_cache.py"], None),
    "core/cache.py": (["tests/test_cache.py", "tests/test_cache_rewrite.py", "tests/test_http_and_cache.py"], None),
    "knowledge/layers.py": (["tests/test_layer_rules.py", "tests/test_layers.py", "tests/test_hostile_packs.py"], None),
    "knowledge/trust.py": (
        ["tests/test_trust.py", "tests/test_hostile_packs.py", "tests/integrations/test_trust_cli.py"],
        None,
    ),
    "integrations/inject.py": (
        ["tests/integrations/test_inject.py", "tests/integrations/test_inject_markers.py"],
        ["find_block", "_written_by_us", "_meta", "_assembler", "_newline", "neutralise", "uninstall"],
    ),
    "integrations/agents_chain.py": (
        ["tests/integrations/test_agents_chain.py", "tests/integrations/test_inject.py"],
        None,
    ),
    "integrations/yaml_flow.py": (
        ["tests/integrations/test_yaml_flow_shapes.py", "tests/integrations/test_formats.py"],
        None,
    ),
    "knowledge/error_text.py": (
        ["tests/test_error_text.py", "tests/test_refusals.py", "tests/test_known_error_matching.py"],
        None,
    ),
    "knowledge/queries.py": (
        [
            "tests/test_error_text.py",
            "tests/test_refusals.py",
            "tests/test_known_error_matching.py",
            "tests/test_known_error_ranking.py",
        ],
        ["match_known_errors", "find_known_errors", "_share", "_facts_by_entry", "boost"],
    ),
    "knowledge/match_strength.py": (
        ["tests/test_known_error_strength.py", "tests/test_error_text.py"],
        None,
    ),
    "knowledge/error_lines.py": (["tests/test_pasted_traces.py"], None),
}

# The hand-written mutants of issue 19 (each survived the whole suite once): module, what, replacements.
ISSUE_MUTANTS: list[tuple[str, str, list[tuple[str, str]]]] = [
    (
        "adt/safety.py",
        "package allow-list also allows every $ package",
        [("return any(fnmatch", 'return name.startswith("$") or any(fnmatch')],
    ),
    (
        "adt/safety.py",
        "SAP_DEVS_ADT_WRITE=0 or false enables writes (any value)",
        [
            (
                'writes=allow_writes or on("SAP_DEVS_ADT_WRITE")',
                'writes=allow_writes or bool(env.get("SAP_DEVS_ADT_WRITE"))',
            )
        ],
    ),
    (
        "adt/safety.py",
        "SAP_DEVS_ADT_PACKAGES empty list means every package",
        [("packages=listed or DEFAULT_PACKAGES", 'packages=listed or ("*",)')],
    ),
    (
        "adt/safety.py",
        "SAP_DEVS_ADT_PACKAGES ignored",
        [("packages=listed or DEFAULT_PACKAGES", "packages=DEFAULT_PACKAGES")],
    ),
    (
        "adt/safety.py",
        "transports granted without writes",
        [("if not (self.writes and self.transports):", "if not self.transports:")],
    ),
    (
        "core/http.py",
        "https only, except loopback: rule deleted",
        [('if parts.scheme == "http" and host not in LOOPBACK:', "if False:")],
    ),
    (
        "adt/abap_sql.py",
        "SQL keyword checks case-sensitive",
        [
            (
                'return self.text.upper() if self.kind == "word" else ""',
                'return self.text if self.kind == "word" else ""',
            )
        ],
    ),
    (
        "knowledge/queries.py",
        "exact error-code boost removed",
        [("shared = len(wanted & codes)", "shared = 0")],
    ),
    (
        "knowledge/queries.py",
        "exact error-code boost removed and the codes field emptied",
        [
            ("shared = len(wanted & codes)", "shared = 0"),
            (""""codes": " ".join(error_codes(f"{rec[1].pattern} {' '.join(rec[1].tags)}")),""", '"codes": "",'),
        ],
    ),
    (
        "core/fs.py",
        "atomic_write_text writes the target in place first",
        [
            (
                "    mode = _existing_mode(path)\n",
                "    mode = _mode_for(path)\n    path.write_text(text, encoding=encoding)\n",
            )
        ],
    ),
    (
        "core/fs.py",
        "atomic_write_text writes the target in place only",
        [
            (
                "    mode = _existing_mode(path)\n",
                "    path.write_text(text, encoding=encoding, newline='')\n    return\n",
            )
        ],
    ),
    (
        "core/fs.py",
        "atomic_write_text: temp file not removed on failure",
        [("        tmp.unlink(missing_ok=True)\n", "        pass\n")],
    ),
]


# Surviving mutants that no test should kill, each with the reason: module -> (text in the original
# line and the one above it, change, [text in the mutant's changed line,] why). They are still run; a survivor listed here does not count against the score
# ("score"), while "raw" counts every mutant. A mutant is found by its line's text, not its number.
_SAME_LINE = "a line is a start or an end marker, never both, so the two line numbers are never equal"
EXPLAINED: dict[str, list[tuple[str, ...]]] = {
    "integrations/inject.py": [
        ("starts[0][0] > ends[0][0]", "Gt -> GtE", _SAME_LINE),
        ("n <= first_number", "LtE -> Lt", _SAME_LINE),
        ("ends[-1][0] < starts[-1][0]", "Lt -> LtE", _SAME_LINE),
        *(
            (
                "if len(starts) + len(ends) <= 2 or not ends:",
                change,
                "with two markers or fewer the recovery can "
                "only pick the one start and end marker the plain check takes anyway",
            )
            for change in ("Or: keep only operand 2", "LtE -> Lt")
        ),
        *(
            (
                "starts[0] if starts else (0, 0)",
                "0 -> 1",
                pair,
                "used only without a start marker; the next line then returns",
            )
            for pair in ("(1, 0)", "(0, 1)")
        ),
        (
            "splitlines()[1:4]",
            "4 -> 5",
            "how far below a start marker its header line may be is a tolerance; sap-devs writes it right below",
        ),
        *(
            (
                'None if match.group(1) == "all"',
                change,
                mutated,
                "profile 'all' and no profile load the same packs "
                "(layers.resolve_profile) and render the same header, so the block read back is the same",
            )
            for change, mutated in (("1 -> 2", "match.group(2) == 'all'"), ("'all' -> 'XXallXX'", "XXallXX"))
        ),
        (
            "delete = created and (not leftover or (front and leftover == front))",
            "And: keep only operand 2",
            "(not leftover or leftover == front)",
            "without front matter 'leftover == front' is 'not leftover', already the other side of the or",
        ),
    ],
    "core/fs.py": [
        ("st_mtime < cutoff", "Lt -> LtE", "differs only for a file exactly as old as the cutoff, to the nanosecond"),
        ("neither should stop the caller\ncontinue", "'continue' removed", "the last statement of the loop body"),
    ],
    "core/cache.py": [
        ("STALE_TEMP_AGE = 600.0", "600.0 -> 601.0", "a tuning constant: how old an orphan temp file must be"),
        ("seconds = max(0, ", "0 -> 1", "0 and 1 second both read '0 min'"),
    ],
    "core/http.py": [
        (
            'netloc = parts.hostname or ""',
            "Or: keep only operand 1",
            "urlunsplit reads None and '' alike, and a port (the next line) needs a host",
        ),
    ],
    "integrations/agents_chain.py": [
        *(
            ("return 0", change, "only a file that goes away between is_file() and stat() (a race) gets here")
            for change in ("return None", "0 -> 1")
        ),
        (
            "raw = handle.read(MAX_CONFIG_BYTES + 1)",
            "1 -> 2",
            "reading one byte more past the bound changes nothing: the size check rejects the file either way",
        ),
    ],
    "integrations/yaml_flow.py": [
        *(
            ("width=1 << 30", change, "any width this large keeps the item on one line")
            for change in ("1 -> 2", "30 -> 31")
        ),
        (
            "json.dumps(key, ensure_ascii=False)",
            "False -> True",
            "the keys sap-devs adds (mcpServers, name, version, schema) are ASCII",
        ),
        *(
            (
                "text[start : start + 1] == open_char and text[end - 1 : end] == close_char",
                change,
                "a node PyYAML parsed starts with its opening bracket exactly when it ends with the closing one",
            )
            for change in ("And -> Or", "And: keep only operand 1", "And: keep only operand 2")
        ),
        (
            'return bracketed(text, seq, "[", "]") and all(',
            "And: keep only operand 2",
            "its callers pass only flow-style lists, which are always in brackets",
        ),
        (
            "closing = node.end_mark.index - 1",
            "Sub -> Add",
            "the character after the closing bracket is on its line, so the same line start is compared",
        ),
        (
            "if tail is not None and tail.end() <= _line_start(text, closing):",
            "And: keep only operand 1",
            "a tail ends at the line break after the last item, so the closing bracket is on a later line",
        ),
        (
            "elif not tail.group(1):",
            "1 -> 2",
            "group(2) (a comment) is None in this branch, and after a comma on the item's line the next line "
            "cannot open with another comma",
        ),
        (
            "if after is not None and index < len(items) - 1:",
            "1 -> 2",
            "for the item before the last, the comma-before branch below cuts the same comma",
        ),
        (
            "if index > 0:",
            "Gt -> GtE",
            "for the first item the text from the last item's end to its start is empty: no comma is found",
        ),
    ],
    "knowledge/trust.py": [
        *(
            (snippet, "False -> True", "symlinks were taken by is_symlink() above, so nothing is followed here")
            for snippet in ("elif entry.is_dir(follow_symlinks=False):", "elif entry.is_file(follow_symlinks=False):")
        ),
        *(
            (
                "json.dumps(data, indent=1, sort_keys=True)",
                change,
                "the store file's layout; what it records is the same",
            )
            for change in ("1 -> 2", "True -> False")
        ),
        ("return False", "return None", "None is falsy, and the one caller (layers._trusted) tests truth"),
    ],
    "knowledge/queries.py": [
        (
            'Field("codes", 3.0)',
            "3.0 -> 4.0",
            "the codes field holds only codes that the pattern or tags field also holds (codes stripped from the "
            "pattern as variable parts are stripped from the paste too), and a shared code already multiplies the "
            "score through the exact-code boost: with this weight at 4.0, or even 0.0, none of the 105 real pastes "
            "of benchmarks/real_errors*.yaml changes its top three; a test would only pin the number",
        ),
    ],
}


def explanation(m: Mutant) -> str | None:
    for entry in EXPLAINED.get(m.module, []):
        snippet, change, why = entry[0], entry[1], entry[-1]
        mutated = entry[2] if len(entry) == 4 else ""
        line = m.code if "\n" in snippet else m.code.rsplit("\n", 1)[-1]  # the line above only when asked
        if snippet in line and change == m.what and (not mutated or mutated in _changed_text(m)):
            return why
    return None


def _changed_text(m: Mutant) -> str:
    """The mutant's lines that differ from the (unparsed) original."""
    import difflib

    before = ast.unparse(ast.parse(_original_source(m.module))).splitlines()
    diff = difflib.unified_diff(before, m.source.splitlines(), lineterm="", n=0)
    return "\n".join(line[1:] for line in diff if line.startswith("+") and not line.startswith("+++"))


def issue_mutants() -> list[Mutant]:
    out: list[Mutant] = []
    for module, what, replacements in ISSUE_MUTANTS:
        text = _original_source(module)
        for old, new in replacements:
            if text.count(old) != 1:
                raise SystemExit(f"issue mutant {what!r}: {old!r} occurs {text.count(old)} times in {module}")
            text = text.replace(old, new)
        out.append(Mutant(module, len(out), 0, what, text))
    return out


_SWAP_CMP = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Mult}


@dataclass(frozen=True)
class Mutant:
    module: str
    index: int
    line: int
    what: str
    source: str
    code: str = ""  # the original line and the one above, stripped: how EXPLAINED finds it when lines move


def _raises(body: list[ast.stmt]) -> bool:
    return any(isinstance(n, ast.Raise) for stmt in body for n in ast.walk(stmt))


def _docstring(node: ast.AST, parent: ast.AST | None) -> bool:
    return (
        isinstance(parent, ast.Expr)
        and isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and len(node.value) > 40
    )


def _sites(tree: ast.Module, functions: list[str] | None) -> list[tuple[ast.AST, ast.AST | None]]:
    """Nodes that may be mutated, with their parent; only inside ``functions`` when given."""
    found: list[tuple[ast.AST, ast.AST | None]] = []

    def walk(node: ast.AST, parent: ast.AST | None, inside: bool) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if not isinstance(node, ast.ClassDef):
                inside = functions is None or node.name in functions or inside
            # decorators and annotations are not behaviour
            for stmt in node.body:
                walk(stmt, node, inside)
            return
        if isinstance(node, ast.JoinedStr):  # message texts: mutating them only tests wording
            return
        if isinstance(node, ast.Expr):  # a log line, as a statement too: neither its removal nor its text
            node_call = node.value
            if (
                isinstance(node_call, ast.Call)
                and isinstance(node_call.func, ast.Attribute)
                and node_call.func.attr in _LOG_CALLS
            ):
                return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _LOG_CALLS:
            return
        if inside and not isinstance(node, ast.Module):
            found.append((node, parent))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr_context):
                continue
            if isinstance(node, ast.AnnAssign) and child is node.annotation:
                continue
            if isinstance(node, ast.arg | ast.arguments):
                continue
            walk(child, node, inside)

    walk(tree, None, functions is None)
    return found


_LOG_CALLS = {"debug", "info", "warning", "error", "exception"}


def _variants(node: ast.AST, parent: ast.AST | None) -> list[tuple[str, ast.AST | None]]:
    """(description, replacement) for one node; replacement None removes a statement."""
    out: list[tuple[str, ast.AST | None]] = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in _SWAP_CMP:
                new = copy.deepcopy(node)
                new.ops[i] = _SWAP_CMP[type(op)]()
                out.append((f"{type(op).__name__} -> {_SWAP_CMP[type(op)].__name__}", new))
    elif isinstance(node, ast.BoolOp):
        new = copy.deepcopy(node)
        new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        out.append((f"{type(node.op).__name__} -> {type(new.op).__name__}", new))
        if len(node.values) == 2:  # drop one side
            for i in (0, 1):
                out.append((f"{type(node.op).__name__}: keep only operand {i + 1}", copy.deepcopy(node.values[i])))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("drop 'not'", copy.deepcopy(node.operand)))
    elif isinstance(node, ast.BinOp) and type(node.op) in _SWAP_BIN:
        new = copy.deepcopy(node)
        new.op = _SWAP_BIN[type(node.op)]()
        out.append((f"{type(node.op).__name__} -> {type(new.op).__name__}", new))
    elif isinstance(node, ast.Constant) and not _docstring(node, parent):
        value = node.value
        if isinstance(value, bool):
            out.append((f"{value} -> {not value}", ast.Constant(not value)))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            out.append((f"{value!r} -> {value + 1!r}", ast.Constant(value + 1)))
        elif (
            isinstance(value, str)
            and len(value) <= 24
            and isinstance(parent, ast.Tuple | ast.Set | ast.List | ast.Compare)
        ):
            out.append((f"{value!r} -> 'XX{value}XX'", ast.Constant(f"XX{value}XX")))
        elif value is None and isinstance(parent, ast.Return):
            pass
    elif isinstance(node, ast.If):
        if _raises(node.body):
            new = copy.deepcopy(node)
            new.test = ast.Constant(False)
            out.append(("refusing 'if' disabled (condition -> False)", new))
        else:
            new = copy.deepcopy(node)
            new.test = ast.UnaryOp(ast.Not(), copy.deepcopy(node.test))
            out.append(("'if' condition negated", new))
    elif isinstance(node, ast.Raise | ast.Continue | ast.Break):
        out.append((f"'{type(node).__name__.lower()}' removed", None))
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call | ast.Await):
        out.append(("call statement removed", None))
    elif (
        isinstance(node, ast.Return)
        and node.value is not None
        and not (isinstance(node.value, ast.Constant) and node.value.value is None)
    ):
        out.append(("return None", ast.Return(ast.Constant(None))))
    return out


def mutants(module: str) -> list[Mutant]:
    path = SRC / "sap_devs" / module
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    functions = TARGETS[module][1]
    result: list[Mutant] = []
    for node, parent in _sites(tree, functions):
        for what, replacement in _variants(node, parent):
            source = _replaced(tree, node, replacement)
            if source is not None:
                line = getattr(node, "lineno", 0)
                code = "\n".join(t.strip() for t in lines[max(0, line - 2) : line]) if line > 0 else ""
                result.append(Mutant(module, len(result), line, what, source, code))
    return result


def _replaced(tree: ast.Module, target: ast.AST, replacement: ast.AST | None) -> str | None:
    """The module's source with ``target`` replaced (statements: removed, ``pass`` if alone)."""

    class Swap(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> ast.AST | None:
            if node is target:
                if replacement is None:
                    return ast.Pass()
                return replacement
            return self.generic_visit(node)

    mutated = Swap().visit(_clone_keeping(tree, target))
    try:
        return ast.unparse(ast.fix_missing_locations(mutated))
    except Exception:  # an unparsable mutant is simply skipped
        return None


def _clone_keeping(tree: ast.Module, target: ast.AST) -> ast.Module:
    """A deep copy of ``tree`` in which ``target`` is the very same object (so Swap finds it)."""
    memo: dict[int, object] = {id(target): target}
    return copy.deepcopy(tree, memo)


def _prepare_copy(workdir: Path) -> Path:
    dest = workdir / "src"
    shutil.copytree(SRC, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"), symlinks=True)
    return dest


def _run_tests(copy_src: Path, tests: list[str], timeout: float) -> tuple[bool, float]:
    env = {**os.environ, "PYTHONPATH": str(copy_src), "PYTHONDONTWRITEBYTECODE": "1"}
    started = time.monotonic()
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "--no-header", "-o", "addopts="]
    try:
        done = subprocess.run(
            [*cmd, *[t for t in tests if (ROOT / t).exists()]],
            cwd=ROOT,
            env=env,
            capture_output=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return False, time.monotonic() - started
    return done.returncode == 0, time.monotonic() - started


def _original_source(module: str) -> str:
    return (SRC / "sap_devs" / module).read_text(encoding="utf-8")


_STOP: list[int] = []


def _stop(signum: int, _frame: object) -> None:
    """SIGTERM/SIGINT: finish the running mutants, restore the copies, report what ran, clean up."""
    _STOP.append(signum)


def run_module(
    module: str, workers: list[Path], budget: float, timeout: float, all_mutants: list[Mutant] | None = None
) -> dict[str, object]:
    tests = TARGETS[module][0]
    all_mutants = mutants(module) if all_mutants is None else all_mutants
    original = _original_source(module)
    deadline = time.monotonic() + budget
    results: dict[int, str] = {}
    # the unmutated code must pass first, or every mutant would count as killed
    (workers[0] / "sap_devs" / module).write_text(original, encoding="utf-8")
    green, _ = _run_tests(workers[0], tests, timeout * 3)
    if not green:
        return {"module": module, "error": "the tests fail on the unmutated code", "total": len(all_mutants)}

    queue = list(all_mutants)
    random.Random(0).shuffle(queue)  # a run cut short by the budget is a fair sample, not the module's top

    def worker(copy_src: Path) -> None:
        target = copy_src / "sap_devs" / module
        try:
            while queue and time.monotonic() < deadline and not _STOP:
                mutant = queue.pop(0)
                target.write_text(mutant.source, encoding="utf-8")
                passed, _ = _run_tests(copy_src, tests, timeout)
                results[mutant.index] = "survived" if passed else "killed"
        finally:
            target.write_text(original, encoding="utf-8")

    with ThreadPoolExecutor(len(workers)) as pool:
        list(pool.map(worker, workers))
    killed = sum(1 for v in results.values() if v == "killed")
    survived = [m for m in all_mutants if results.get(m.index) == "survived"]
    explained = [(m, why) for m in survived if (why := explanation(m)) is not None]
    survivors = [m for m in survived if explanation(m) is None]
    counted = len(results) - len(explained)
    return {
        "module": module,
        "total": len(all_mutants),
        "run": len(results),
        "killed": killed,
        "raw_score": round(100.0 * killed / len(results), 1) if results else None,
        "score": round(100.0 * killed / counted, 1) if counted else None,
        "survivors": [{"line": m.line, "change": m.what, "index": m.index} for m in survivors],
        "explained": [{"line": m.line, "change": m.what, "index": m.index, "why": why} for m, why in explained],
        "not_run": len(all_mutants) - len(results),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="modules under src/sap_devs (default: all targets)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=float, default=600.0, help="seconds per module")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per mutant's test run")
    parser.add_argument("--min-score", type=float, default=90.0)
    parser.add_argument("--list", action="store_true", help="print the mutants and exit")
    parser.add_argument("--show", type=int, metavar="INDEX", help="print one mutant's source diff and exit")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument(
        "--only", type=lambda s: {int(i) for i in s.split(",")}, metavar="I,J", help="run only these mutant indices"
    )
    parser.add_argument("--issue", action="store_true", help="run only the hand-written mutants of issue 19")
    parser.add_argument(
        "--without", action="append", default=[], metavar="TEST_FILE", help="leave this test file out (before/after)"
    )
    args = parser.parse_args(argv)
    modules = args.modules or list(TARGETS)
    unknown = [m for m in modules if m not in TARGETS]
    if unknown:
        parser.error(f"unknown module(s) {', '.join(unknown)}; known: {', '.join(TARGETS)}")
    if args.list or args.show is not None:
        for module in modules:
            for m in mutants(module):
                if args.show is None:
                    print(f"{module}:{m.line} #{m.index} {m.what}")
                elif m.index == args.show:
                    import difflib

                    before = ast.unparse(ast.parse(_original_source(module))).splitlines()
                    print("\n".join(difflib.unified_diff(before, m.source.splitlines(), module, "mutant", lineterm="")))
        return 0
    for module in TARGETS:
        TARGETS[module] = ([t for t in TARGETS[module][0] if t not in args.without], TARGETS[module][1])
    report: list[dict[str, object]] = []
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    with tempfile.TemporaryDirectory(prefix="sap-devs-mutation-") as tmp:
        workers = [_prepare_copy(Path(tmp) / f"w{i}") for i in range(max(1, args.workers))]
        for module in modules:
            if _STOP:
                break
            started = time.monotonic()
            chosen = [m for m in issue_mutants() if m.module == module] if args.issue else None
            if args.only:  # re-check given survivors after adding tests
                chosen = [m for m in (chosen or mutants(module)) if m.index in args.only]
            if chosen == []:
                continue
            result = run_module(module, workers, args.budget, args.timeout, chosen)
            result["seconds"] = round(time.monotonic() - started, 1)
            report.append(result)
            if "error" in result:
                print(f"{module:28} ERROR: {result['error']}", flush=True)
                continue
            note = "" if result["run"] == result["total"] else f" (budget: {result['run']} of {result['total']} run)"
            explained = result["explained"]
            print(
                f"{module:28} {result['killed']:4}/{result['run']:<4} killed  {result['raw_score']:5}%  "
                f"{len(explained):3} explained  score {result['score']:5}%  {result['seconds']:6}s{note}",
                flush=True,
            )
            for s in [] if args.issue else result["survivors"]:
                print(f"    survived  line {s['line']:4}  #{s['index']:<4} {s['change']}", flush=True)
            for s in [] if args.issue else explained:
                print(f"    explained line {s['line']:4}  #{s['index']:<4} {s['change']}: {s['why']}", flush=True)
            if args.issue:
                names = {m.index: m.what for m in chosen or []}
                for i, what in names.items():
                    state = "survived" if any(s["index"] == i for s in result["survivors"]) else "killed"
                    print(f"    {state:8}  {what}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
    low = [r for r in report if "error" in r or (r.get("score") is not None and r["score"] < args.min_score)]
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
