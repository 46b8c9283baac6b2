"""Real error messages, pasted the way developers paste them, find the bundled entry first."""

from __future__ import annotations

import pytest

from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.layer_paths import Layer
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


# Pastes shaped like the ones in benchmarks/real_errors_tuning.yaml, where the ranking used to pick
# a neighbour: the identifying file name sat in a URL or path, the tool's name was quoted, stack
# frames or a wrapping error outweighed the message itself.
PASTED_WITH_NOISE = [
    (
        "Failed to load resource: the server responded with a status of 404 (Not Found) "
        "http://localhost:8080/Component-preload.js",
        "fiori-ui5/component-preload-404",
    ),
    (
        "Uncaught (in promise) ModuleError: failed to load 'zapp/ext/Component.js' from "
        "/sap/bc/ui5_ui5/sap/zapp/ext/Component.js: 404\n"
        "    at Object.load (https://ui5.sap.com/1.120.0/resources/sap-ui-core.js:10:6645)\n"
        "Caused by: XHRLoadError: 404",
        "fiori-ui5/component-script-load-error",
    ),
    (
        "'cds' is not recognized as an internal or external command,\noperable program or batch file.\n"
        "npm ERR! code ELIFECYCLE\nnpm ERR! errno 1\nnpm ERR! Failed at the bookshop@1.0.0 build script.",
        "cap/cds-command-not-found",
    ),
    (
        'Creating service "bookshop-uaa" from MTA resource "bookshop-uaa"...\n'
        'Service operation failed: Controller operation failed: 404 Updating service "bookshop-uaa" failed: '
        'Not Found: Error creating service "bookshop-uaa" from offering "xsuaa" and plan "broker": '
        "Service plan broker not found.",
        "btp/service-plan-not-found",
    ),
]


@pytest.mark.parametrize(("message", "expected"), PASTED_WITH_NOISE, ids=[e for _, e in PASTED_WITH_NOISE])
def test_the_message_itself_decides_not_its_surroundings(message: str, expected: str) -> None:
    hits = find_known_errors(KB, message)
    assert hits, f"nothing matched {message!r}"
    assert hits[0][1].id == expected, [e.id for _, e in hits[:3]]


NEIGHBOURS = """
- id: demo/internal-error
  pattern: "TypeError: Cannot read properties of undefined"
  cause: The runtime hit an unexpected JavaScript exception.
  fix: Update the runtime.
- id: demo/deploy-package-update
  pattern: "Deployment failed while updating package.json of the deployer"
  cause: The deploy step could not update package.json; the deployer object is out of date.
  fix: Update the deployer.
- id: demo/broker-rejected
  pattern: "Service operation failed: Controller operation failed: 502 Bad Gateway: Service broker error: ..."
  cause: The service broker rejected the request; the text after the broker error is the reason.
  fix: Read the broker's reason.
- id: demo/plan-missing
  pattern: "Service plan ... not found."
  cause: The space has no entitlement for the plan.
  fix: Add the entitlement.
"""


@pytest.fixture
def neighbours(make_pack) -> KnowledgeBase:
    root = make_pack("demo", {"known_errors.yaml": NEIGHBOURS})
    return KnowledgeBase.load(layers=[Layer("bundled", root)])


def test_stack_frames_do_not_outvote_the_error_line(neighbours: KnowledgeBase) -> None:
    message = (
        "TypeError: Cannot read properties of undefined (reading 'db')\n"
        "    at update_package_json (/usr/lib/node_modules/@sap/cds-dk/bin/deploy/index.js:117:15)\n"
        "    at async Object.deploy (/usr/lib/node_modules/@sap/cds-dk/bin/deploy/index.js:100:27)\n"
        "    at async Deployer.updatePackage (/usr/lib/node_modules/@sap/cds-dk/lib/deployer/package.js:9:3)\n"
        "    at async Deployment.failedWhileUpdating (/usr/lib/node_modules/@sap/cds-dk/lib/deployment.js:4:1)"
    )
    assert [e.id for _, e in find_known_errors(neighbours, message)][:1] == ["demo/internal-error"]


def test_the_entry_whose_whole_wording_is_in_the_paste_beats_one_that_shares_the_wrapper(
    neighbours: KnowledgeBase,
) -> None:
    message = (
        "Service operation failed: Controller operation failed: 404 Updating service failed: "
        'Not Found: Error creating service from offering "portal" and plan "standard": Service plan standard not found.'
    )
    assert [e.id for _, e in find_known_errors(neighbours, message)][:1] == ["demo/plan-missing"]
