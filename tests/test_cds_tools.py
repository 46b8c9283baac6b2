"""search_cds_model and check_cds with SAP's real cds-compiler on SAP's sample projects, checked against
CAP itself, and on projects built to hurt.

The expected definitions and endpoints are not typed here: a Node script loads each project with
``@sap/cds``'s own loader (what ``cds compile '*' --to csn`` runs) and asks CAP's protocol module for each
service's endpoints. Tests skip loudly when the pinned tools cannot be installed (tests/sap_tools).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from sap_devs.toolchain.cds import CdsCompileError, Limits, compile_project
from tests.sap_tools import ensure_installed
from tests.tools.test_knowledge_tools import call, ok

pytestmark = pytest.mark.anyio
FIXTURES = Path(__file__).parent / "fixtures" / "cap"
PROJECTS = [
    "cap-sflight",
    "cloud-cap-samples/bookshop",
    "cloud-cap-samples/reviews",
    "cloud-cap-samples/orders",
    "cloud-cap-samples/bookstore",
]

# Run by the test only, in a copy of SAP's sample (no node_modules, no plugins): CAP's loader and
# protocol rules are the reference sap-devs must agree with.
TRUTH = r"""
const cds = require(process.argv[1]);
const protocols = require(process.argv[1] + '/lib/srv/protocols');
cds.load('*').then((csn) => {
  const out = {};
  for (const [name, d] of Object.entries(csn.definitions)) {
    if (d.kind === 'service') out[name] = { kind: d.kind, endpoints: protocols.endpoints4({ definition: d, name }) };
    else if (d.kind === 'entity') out[name] = { kind: d.kind };
  }
  process.stdout.write(JSON.stringify(out));
});
"""

SEED = r"""
const compiler = require(process.argv[1]);
compiler.compile([process.argv[3]], process.argv[4], { messages: [], cdsHome: process.argv[2] })
  .then(() => process.stdout.write('[]'), (err) => process.stdout.write(JSON.stringify((err.messages || []).map((m) => ({
    severity: m.severity, id: m.messageId, message: m.message, file: m.$location.file, line: m.$location.line, col: m.$location.col,
  })))));
"""


@pytest.fixture(scope="module")
def tools() -> Path:
    return ensure_installed(("node", "@sap/cds-compiler", "@sap/cds"))


@pytest.fixture(autouse=True)
def toolchain(tools: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SAP_DEVS_TOOLCHAIN_DIR", str(tools))
    return tools


def _node(tools: Path, script: str, *args: str, cwd: Path) -> Any:
    node = tools / "node_modules" / ".bin" / "node"
    proc = subprocess.run(
        [str(node), "-e", script, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def _copy(name: str, tmp_path: Path) -> Path:
    """A copy of the sample project; a monorepo's packages linked into its node_modules as npm
    workspaces link them (``@capire/common`` -> ``common/``)."""
    repo, _, sub = name.partition("/")
    target = tmp_path / repo
    shutil.copytree(FIXTURES / repo, target)
    for package in sorted(target.glob("*/package.json")):
        meta = json.loads(package.read_text(encoding="utf-8"))
        link = target / "node_modules" / meta["name"]
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(package.parent, target_is_directory=True)
    return target / sub if sub else target


@pytest.mark.parametrize("project", PROJECTS)
async def test_every_entity_and_service_cap_loads_is_found_with_its_endpoints(
    project: str, tools: Path, bundled_ctx, tmp_path: Path
) -> None:
    root = _copy(project, tmp_path)
    truth = _node(tools, TRUTH, str(tools / "node_modules" / "@sap" / "cds"), cwd=root)
    assert any(v["kind"] == "service" for v in truth.values()), "the sample defines services"
    listing = await ok(
        "search_cds_model", {"query": "*", "kind": "entity", "path": str(root), "limit": 50}, bundled_ctx
    )
    assert listing["total"] == sum(1 for v in truth.values() if v["kind"] == "entity")
    for name, expected in truth.items():
        out = await ok("search_cds_model", {"query": name, "path": str(root), "limit": 1}, bundled_ctx)
        [hit] = out["results"]
        assert hit["name"] == name
        assert hit["file"] and hit["line"], f"{name} has a source location"
        if expected["kind"] == "service":
            assert hit["kind"] == "service"
            assert [(e["protocol"], e["path"]) for e in hit["endpoints"]] == [
                (e["kind"], e["path"]) for e in expected["endpoints"]
            ]
            served = [n for n, v in truth.items() if v["kind"] == "entity" and n.startswith(name + ".")]
            resource_endpoints = [e for e in hit["endpoints"] if e["protocol"] != "hcql"]
            assert len(hit["urls"]) == len(served) * len(resource_endpoints), "every entity's URL"
        else:
            assert hit["kind"] in ("entity", "view", "projection")
            if hit.get("service"):
                paths = [e["path"] for e in truth[hit["service"]]["endpoints"]]
                assert hit["urls"] and all(any(u.startswith(p + "/") for p in paths) for u in hit["urls"])


async def test_sflight_travel_details(bundled_ctx, tmp_path: Path) -> None:
    root = _copy("cap-sflight", tmp_path)
    out = await ok("search_cds_model", {"query": "TravelService.Travel", "path": str(root)}, bundled_ctx)
    travel = out["results"][0]
    assert (travel["kind"], travel["file"], travel["line"]) == ("projection", "srv/travel-service.cds", 11)
    assert travel["source"] == "sap.fe.cap.travel.Travel"
    assert travel["urls"] == ["/processor/Travel"]
    assert "@odata.draft.enabled" in travel["annotations"]
    by = {e["name"]: e for e in travel["elements"]}
    assert by["TravelUUID"]["key"] and by["TravelUUID"]["type"] == "cds.UUID"
    assert (by["to_Booking"]["relation"], by["to_Booking"]["cardinality"], by["to_Booking"]["target"]) == (
        "composition",
        "many",
        "TravelService.Booking",
    )
    assert sorted(travel["actions"]) == ["acceptTravel", "createTravelByTemplate", "deductDiscount", "rejectTravel"]
    assert "Compiled 15 model file(s) with @sap/cds-compiler 7.1.1 under Node's permission model" in out["hint"]
    common = await ok("search_cds_model", {"query": "cuid", "kind": "aspect", "path": str(root)}, bundled_ctx)
    assert common["results"][0]["file"] == "@sap/cds/common.cds"
    fuzzy = await ok("search_cds_model", {"query": "flight connection", "path": str(root)}, bundled_ctx)
    assert "sap.fe.cap.travel.FlightConnection" in [r["name"] for r in fuzzy["results"][:3]]


async def test_check_cds_reports_a_seeded_error_as_cds_compiler_words_it(
    tools: Path, bundled_ctx, tmp_path: Path
) -> None:
    root = _copy("cloud-cap-samples/bookshop", tmp_path)
    service = root / "srv" / "cat-service.cds"
    lines = service.read_text(encoding="utf-8").splitlines()
    lines.insert(12, "  entity Broken as projection on my.NoSuchThing;")  # becomes line 13
    service.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = _node(
        tools,
        SEED,
        str(tools / "node_modules" / "@sap" / "cds-compiler"),
        str(tools / "node_modules" / "@sap" / "cds"),
        "srv/cat-service.cds",
        str(root),
        cwd=root,
    )
    first = next(m for m in expected if m["severity"] == "Error")
    assert (first["file"], first["line"]) == ("srv/cat-service.cds", 13)
    out = await ok("check_cds", {"path": str(root)}, bundled_ctx)
    [got] = [m for m in out["results"] if m["severity"] == "Error"]
    assert (got["message_id"], got["message"], got["file"], got["line"], got["column"]) == (
        first["id"],
        first["message"],
        first["file"],
        first["line"],
        first["col"],
    )
    assert got["message"] == "Artifact “sap.capire.bookshop.NoSuchThing” has not been found"
    assert got["known_error"]["id"] == "cap/cds-compiler-artifact-not-found"
    assert got["formatted"].startswith("srv/cat-service.cds:13:")
    assert out["hint"].startswith("1 error(s)")
    search = await call("search_cds_model", {"query": "Books", "path": str(root)}, bundled_ctx)
    assert search.is_error and "does not compile (1 error(s))" in search.text and "check_cds" in search.text


async def test_a_clean_model_and_the_cache(bundled_ctx, tmp_path: Path) -> None:
    root = _copy("cloud-cap-samples/reviews", tmp_path)
    first = await ok("check_cds", {"path": str(root)}, bundled_ctx)
    assert not [m for m in first["results"] if m["severity"] == "Error"]
    assert "from the cache" not in first["hint"]
    again = await ok("search_cds_model", {"query": "Reviews", "path": str(root)}, bundled_ctx)
    assert "from the cache (no model file changed)" in again["hint"]
    # a new file in srv/ is a new root; the cache sees it
    (root / "srv" / "more.cds").write_text("entity sap.capire.reviews.Extra { key ID : Integer; }\n", encoding="utf-8")
    found = await ok("search_cds_model", {"query": "Extra", "path": str(root)}, bundled_ctx)
    assert found["results"][0]["name"] == "sap.capire.reviews.Extra" and "from the cache" not in found["hint"]
    # an edit to a file read through `using` changes its size and time
    schema = root / "db" / "schema.cds"
    schema.write_text(schema.read_text(encoding="utf-8") + "\nentity Later { key ID : Integer; }\n")
    later = await ok("search_cds_model", {"query": "Later", "path": str(root)}, bundled_ctx)
    assert later["results"][0]["name"] == "sap.capire.reviews.Later"
    # a name `using` looked for and did not find appears: the model changes
    (root / "srv" / "more.cds").write_text("using from './missing';\n", encoding="utf-8")
    broken = await ok("check_cds", {"path": str(root)}, bundled_ctx)
    assert [m["message_id"] for m in broken["results"] if m["severity"] == "Error"] == ["file-unknown-package"] or any(
        "missing" in m["message"] for m in broken["results"]
    )
    (root / "srv" / "missing.cds").write_text(
        "entity sap.capire.reviews.Found { key ID : Integer; }\n", encoding="utf-8"
    )
    fixed = await ok("search_cds_model", {"query": "Found", "path": str(root)}, bundled_ctx)
    assert fixed["results"][0]["name"] == "sap.capire.reviews.Found"


# -- hostile projects -----------------------------------------------------------------------------


def _project(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


async def test_nothing_of_the_project_runs(bundled_ctx, tmp_path: Path) -> None:
    marker = tmp_path / "MARKER"
    payload = f"require('fs').writeFileSync({json.dumps(str(marker))}, 'ran');\n"
    root = _project(
        tmp_path / "evil",
        {
            "package.json": json.dumps({"dependencies": {"evil-plugin": "*", "@sap/cds": "*"}, "cds": {}}),
            ".cdsrc.js": payload,
            "node_modules/evil-plugin/package.json": json.dumps({"name": "evil-plugin", "main": "index.js"}),
            "node_modules/evil-plugin/cds-plugin.js": payload,
            "node_modules/evil-plugin/index.js": payload,
            # the project's own @sap/cds: its model files are read as text, its code never loaded
            "node_modules/@sap/cds/package.json": json.dumps(
                {"name": "@sap/cds", "version": "10.1.1", "main": "lib/index.js"}
            ),
            "node_modules/@sap/cds/lib/index.js": payload,
            "node_modules/@sap/cds/common.cds": "aspect cuid { key ID : UUID; }\n",
            "node_modules/@sap/cds/srv/outbox.cds": "",
            "node_modules/@sap/cds-compiler/package.json": json.dumps(
                {"name": "@sap/cds-compiler", "main": "lib/main.js"}
            ),
            "node_modules/@sap/cds-compiler/lib/main.js": payload,
            "srv/service.cds": "using { cuid } from '@sap/cds/common';\nservice S { entity E : cuid { name : String; } }\n",
        },
    )
    found = await ok("search_cds_model", {"query": "S.E", "path": str(root)}, bundled_ctx)
    assert found["results"][0]["name"] == "S.E"
    cuid = await ok("search_cds_model", {"query": "cuid", "kind": "aspect", "path": str(root)}, bundled_ctx)
    assert cuid["results"][0]["file"] == "node_modules/@sap/cds/common.cds"  # the project's copy, read as text
    (root / "srv" / "uses.cds").write_text("using from 'evil-plugin';\n", encoding="utf-8")
    out = await ok("check_cds", {"path": str(root)}, bundled_ctx)
    [error] = [m for m in out["results"] if m["severity"] == "Error"]
    assert error["message"] == "Can't find package ‘evil-plugin’", "index.js is no model file: the package has none"
    assert not marker.exists()
    assert compile_project(root).sandboxed, "Node 22.22 runs the compiler under its permission model"


async def test_a_100_mb_file_is_refused_by_its_size(bundled_ctx, tmp_path: Path) -> None:
    root = _project(tmp_path / "big", {"srv/ok.cds": "entity Small { key ID : Integer; }\n"})
    with open(root / "srv" / "huge.cds", "wb") as fh:
        fh.truncate(100 << 20)  # sparse: 100 MB by its size, nothing on disk
    started = time.perf_counter()
    out = await ok("check_cds", {"path": str(root)}, bundled_ctx)
    elapsed = time.perf_counter() - started
    [refused] = [m for m in out["results"] if m["origin"] == "sap-devs"]
    assert refused["file"] == "srv/huge.cds" and "104857600 bytes" in refused["message"]
    print(f"100 MB file refused in {elapsed:.1f} s")


def _loop(srv: Path) -> None:
    (srv / "bad.cds").symlink_to(srv / "bad.cds")


def _fifo(srv: Path) -> None:
    os.mkfifo(srv / "bad.cds")  # reading it would block for ever


def _outside(srv: Path) -> None:
    secret = srv.parent.parent / "outside" / "secret.cds"
    secret.parent.mkdir()
    secret.write_text("entity Secret { key ID : Integer; }\n", encoding="utf-8")
    (srv / "bad.cds").symlink_to(secret)


@pytest.mark.skipif(os.name == "nt", reason="symlinks and FIFOs")
@pytest.mark.parametrize(
    ("make", "words"),
    [
        (_loop, "ELOOP"),
        (_fifo, "is not a regular file (a pipe or a device); sap-devs does not read it"),
        (_outside, "sap-devs reads model files only inside the project and the CDS toolchain"),
    ],
)
async def test_link_loops_fifos_and_links_out_of_the_project(make, words: str, bundled_ctx, tmp_path: Path) -> None:
    root = _project(tmp_path / "p", {"srv/a.cds": "using from './bad';\nentity A { key ID : Integer; }\n"})
    (root / "db").symlink_to(root)  # a folder loop as a root folder
    make(root / "srv")
    for via in ("using", "root"):  # read through `using`, then as a root file of srv/
        if via == "root":
            (root / "srv" / "a.cds").write_text("entity A { key ID : Integer; }\n", encoding="utf-8")
        out = await ok("check_cds", {"path": str(root)}, bundled_ctx)
        refused = [m for m in out["results"] if m["origin"] == "sap-devs"]
        if via == "root":  # not even handed to the compiler, and said so
            note = "outside the project (through a link); not read" if make is _outside else "not a regular file"
            assert not refused and note in out["hint"]
        else:
            assert len(refused) == 1 and words in refused[0]["message"] and refused[0]["file"] == "srv/bad.cds"
        search = await call("search_cds_model", {"query": "Secret", "path": str(root)}, bundled_ctx)
        assert search.is_error == bool(refused)  # an unread file makes the model incomplete
        assert "Secret" not in [r["name"] for r in (search.structured or {}).get("results", [])]


def test_a_model_that_takes_too_long_is_stopped(tmp_path: Path) -> None:
    chain = ["entity E0 { key ID : Integer; }"] + [f"entity E{i} as projection on E{i - 1};" for i in range(1, 4000)]
    root = _project(tmp_path / "slow", {"srv/chain.cds": "\n".join(chain)})
    started = time.perf_counter()
    # the chain takes the compiler about 1.3 s on an idle 2-core machine: a limit of 0.3 s leaves room for a
    # faster machine (1 s once let it finish in time)
    with pytest.raises(CdsCompileError, match=r"took longer than 0\.3 s and was stopped"):
        compile_project(root, limits=Limits(timeout=0.3))
    assert time.perf_counter() - started < 30
