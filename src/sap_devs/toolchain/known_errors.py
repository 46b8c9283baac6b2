"""The known error (from the content packs) that matches a linter or compiler finding, if one does.

A finding gets a known error only when the match is specific: the known error names the rule
(``rule `no-globals```) or the finding's message contains the known error's own wording. The search
behind get_known_errors always returns its best guesses; a guess attached to every finding would
be noise.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sap_devs.knowledge.models import KnownError


def _words(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9_]+", text.lower()))


def known_error_for(kb: object, rule_id: str, message: str, *, memo: dict | None = None) -> KnownError | None:
    """The known error for ``rule_id`` / ``message``, or None."""
    from sap_devs.knowledge.error_text import strip_variable_parts
    from sap_devs.knowledge.queries import find_known_errors

    key = (rule_id, strip_variable_parts(message))
    if memo is not None and key in memo:
        return memo[key]
    found = None
    said = _words(message)
    rule = rule_id.lower()
    for _pack, entry in find_known_errors(kb, f"{rule_id} {message}")[:8]:  # type: ignore[arg-type]
        text = f"{entry.pattern} {entry.cause} {' '.join(entry.tags)}".lower()
        names_rule = bool(rule) and re.search(rf"(?<![\w-]){re.escape(rule)}(?![\w-])", text) is not None
        wording = _words(strip_variable_parts(entry.pattern))
        if names_rule or (len(wording) > 12 and wording in said):
            found = entry
            break
    if memo is not None:
        memo[key] = found
    return found
