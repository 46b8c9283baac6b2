"""YAML parsing with a bound on what aliases can expand to.

PyYAML's safe loader shares the object an alias points to, so a 600-byte "billion laughs" file
parses fast; the cost comes later, when anything walks the result (validation, an error label, a
JSON dump) and meets 10^9 nodes. Every YAML file sap-devs reads may come from a cloned repository,
so each goes through ``load``: the node graph is measured before it is constructed, and a document
whose expansion would exceed ``max_nodes`` (or that refers to itself) is refused.
"""

from __future__ import annotations

from typing import Any

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_NODES = 200_000
"""Far above any real pack, mta.yaml or client config (the largest bundled pack file has ~3,000)."""


class YamlBombError(yaml.YAMLError):
    """The document's aliases expand beyond the limit or form a cycle."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.problem_mark = None


def expanded_size(node: yaml.Node, *, limit: int = MAX_NODES) -> int:
    """Nodes the document has once every alias is expanded; raises YamlBombError above ``limit``.

    Linear in the number of distinct nodes: each node's size is computed once and reused for every
    alias that points at it.
    """
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    # iterative post-order walk: deep nesting must not hit Python's recursion limit
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    while stack:
        current, children_done = stack.pop()
        key = id(current)
        if children_done:
            on_path.discard(key)
            total = 1 + sum(sizes[id(child)] for child in _children(current))
            if total > limit:
                raise YamlBombError(f"aliases expand to more than {limit:,} nodes; refusing to load it")
            sizes[key] = total
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise YamlBombError("an alias refers to the node that contains it (a cycle); refusing to load it")
        on_path.add(key)
        stack.append((current, True))
        stack.extend((child, False) for child in _children(current) if id(child) not in sizes)
    return sizes[id(node)]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def load(text: str | bytes, *, max_nodes: int = MAX_NODES) -> Any:
    """Parse one YAML document like ``yaml.safe_load``, refusing alias bombs and cycles.

    Raises ``yaml.YAMLError`` (``YamlBombError`` for a bomb), which callers already handle.
    """
    loader = LOADER(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        expanded_size(node, limit=max_nodes)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def compose(text: str | bytes, *, max_nodes: int = MAX_NODES) -> yaml.Node | None:
    """The node graph of one document, with the same bound as ``load``."""
    loader = LOADER(text)
    try:
        node = loader.get_single_node()
        if node is not None:
            expanded_size(node, limit=max_nodes)
        return node
    finally:
        loader.dispose()


def shorten(value: object, limit: int = 80) -> str:
    """``repr`` of a value for an error message, cut to ``limit`` characters without walking all of it."""
    if isinstance(value, str):
        text = repr(value[: limit + 1])
    elif isinstance(value, int | float | bool) or value is None:
        text = repr(value)
    else:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"
