"""Real error messages, pasted the way developers paste them, find the bundled entry first."""

from __future__ import annotations

import pytest

from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.queries import find_known_errors
from tests.conftest import bundled_layer

KB = KnowledgeBase.load(layers=[bundled_layer()])

PASTED = [
    (
        "[cds] - Error: SqliteError: no such table: sap_capire_bookshop_Books in: SELECT Books.ID FROM "
        "sap_capire_bookshop_Books as Books",
        "cap/sqlite-no-such-table",
    ),
    (
        "Error: Cannot find module '@sap/cds'\nRequire stack:\n- /home/user/bookshop/server.js",
        "cap/cannot-find-module-sap-cds",
    ),
    (
        "SAP DBTech JDBC: [258]: insufficient privilege: Detailed info for this error can be found with guid '9A2B'",
        "cap/hana-insufficient-privilege-258",
    ),
    ("SQL error 258 insufficient privilege", "cap/hana-insufficient-privilege-258"),
    ("No service definitions found in loaded models. Waiting for some to arrive...", "cap/no-service-definitions"),
    ("Error: listen EADDRINUSE: address already in use :::4004", "cap/eaddrinuse-4004"),
    (
        "Category ABAP programming error Runtime Errors ITAB_LINE_NOT_FOUND Except. CX_SY_ITAB_LINE_NOT_FOUND",
        "abap/itab-line-not-found",
    ),
    ("Short dump COMPUTE_INT_ZERODIVIDE in program ZMY_REPORT", "abap/compute-int-zerodivide"),
    (
        "Statement COMMIT WORK is not allowed with this status BEHAVIOR_ILLEGAL_STATEMENT",
        "abap/behavior-illegal-statement",
    ),
    ("The use of Class CL_GUI_ALV_GRID is not permitted.", "abap/use-not-permitted"),
    (
        "You have exceeded your organization's memory limit: app requested more memory than available",
        "btp/cf-org-memory-limit",
    ),
    ("2026-11-29T10:00:00.00+0000 [APP/PROC/WEB/0] OUT Exited with status 137 (out of memory)", "btp/cf-exit-137-oom"),
    ("error: You must be logged in to the server (Unauthorized)", "btp/kubectl-unauthorized"),
    ("bash: mbt: command not found", "btp/mbt-command-not-found"),
    ("The redirect_uri has an invalid domain.", "btp/xsuaa-redirect-uri-invalid-domain"),
    ("Back-off restarting failed container CrashLoopBackOff", "btp/k8s-crashloopbackoff"),
    ("npm ERR! code E401 npm ERR! Unable to authenticate, need: Basic realm", "base/npm-e401-sap-scope"),
]


@pytest.mark.parametrize(("message", "expected"), PASTED, ids=[e for _, e in PASTED])
def test_pasted_message_finds_its_entry_first(message: str, expected: str) -> None:
    hits = find_known_errors(KB, message)
    assert hits, f"nothing matched {message!r}"
    assert hits[0][1].id == expected, [e.id for _, e in hits[:3]]


def test_bundled_totals_cover_every_pack() -> None:
    per_pack = {p.id: len(p.known_errors) for p in KB.packs}
    assert all(per_pack[p] >= 4 for p in ("base", "cap", "abap", "btp"))
