"""Which package may import which (imports point down only, DESIGN.md): content packs stand apart from
the live sources, domain code knows nothing about its faces, and fetch code stays off the query path.

Every import statement counts, the ones inside functions and under TYPE_CHECKING too: a lazy import
is still a dependency. (tests/test_layer_rules.py is about content layers, not these.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "sap_devs"


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Absolute names of every module the file imports; ``from a import b`` counts as both a and a.b."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def modules_under(package: str) -> dict[str, set[str]]:
    folder = SRC.joinpath(*package.split("."))
    return {module_name(p): imports_of(p) for p in sorted(folder.rglob("*.py"))}


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def is_sync_side(name: str) -> bool:
    """The fetching half of a live source, the sync framework and the registry of sources."""
    live_sync = within(name, "sap_devs.live") and (name.endswith(".sync") or name == "sap_devs.live.sources")
    return live_sync or name == "sap_devs.docs.sync"


def test_the_scanner_sees_lazy_and_type_checking_imports() -> None:
    # without this, an empty scan would make every rule below pass
    videos_sync = imports_of(PACKAGE / "live" / "videos" / "sync.py")
    assert "sap_devs.knowledge.base" in videos_sync, "imported under TYPE_CHECKING"
    registry = imports_of(PACKAGE / "live" / "sources.py")
    assert {"sap_devs.docs.sync", "sap_devs.live.tutorials.sync"} <= registry, "imported inside a function"


def test_the_content_packs_import_no_live_source_and_no_docs() -> None:
    offending = {
        module: sorted(n for n in names if within(n, "sap_devs.live") or within(n, "sap_devs.docs"))
        for module, names in modules_under("sap_devs.knowledge").items()
    }
    assert {m: n for m, n in offending.items() if n} == {}, (
        "knowledge/ is the packs and their queries: pass live data in from the tool instead"
    )


@pytest.mark.parametrize("package", ["sap_devs.knowledge", "sap_devs.live", "sap_devs.docs", "sap_devs.search"])
def test_domain_code_knows_nothing_about_its_faces(package: str) -> None:
    faces = ("sap_devs.mcp", "sap_devs.cli", "sap_devs.http", "sap_devs.integrations")
    offending = {
        module: sorted(n for n in names if any(within(n, face) for face in faces))
        for module, names in modules_under(package).items()
    }
    assert {m: n for m, n in offending.items() if n} == {}


def test_only_the_sync_command_and_the_sync_side_reach_the_fetch_code() -> None:
    # tools answer from the cache or the bundled baseline; fetching belongs to `sap-devs sync`
    allowed = {"sap_devs.cli.sync_cmd"}
    offending = {
        module: sorted(n for n in names if is_sync_side(n))
        for module, names in modules_under("sap_devs").items()
        if module not in allowed and not is_sync_side(module)
    }
    offending = {m: n for m, n in offending.items() if n}
    assert offending == {}
    assert is_sync_side("sap_devs.live.sync") and is_sync_side("sap_devs.live.news.sync")
    assert not is_sync_side("sap_devs.live.news.detail") and not is_sync_side("sap_devs.live.snapshot")
