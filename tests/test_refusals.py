"""What sap-devs refuses or gets right at its safety boundaries, each written so that one small
wrong change in the product code fails a test (these tests were checked against such mutants with
scripts/mutation.py): plain http to an allowed host, the exact error code deciding which known
error comes first, and a file write interrupted between writing and replacing."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sap_devs.core import fs
from sap_devs.core.http import FetchError, Http, Policy, _redirected
from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.layer_paths import Layer
from sap_devs.knowledge.queries import find_known_errors
from tests.loopback import Loopback

pytestmark = pytest.mark.anyio

# ---- https only, except loopback ----------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    ["http://community.sap.com/t5/x", "http://COMMUNITY.sap.com:80/x", "http://community.sap.com:8080/x"],
)
async def test_plain_http_to_an_allowed_internet_host_is_refused(url: str) -> None:
    async with Http(Policy(allowed_hosts=frozenset({"community.sap.com"}))) as http:
        with pytest.raises(FetchError, match="only https is allowed") as caught:
            await http.get(url)
    assert caught.value.retryable is False


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
async def test_plain_http_to_an_allowed_loopback_host_is_fetched(host: str) -> None:
    with Loopback().running() as server:
        server.add("/x", body=b"ok")
        url = server.base.replace("127.0.0.1", host) + "/x"
        async with Http(Policy(allowed_hosts=frozenset({host}))) as http:
            assert (await http.get(url)).content == b"ok"


def test_a_redirect_from_https_to_plain_http_on_an_allowed_host_is_refused() -> None:
    with pytest.raises(FetchError, match="https to http"):
        _redirected(302, "https://community.sap.com/a", "http://community.sap.com/b", "GET", None, {})


def test_a_same_origin_redirect_keeps_the_credentials_and_another_port_drops_them() -> None:
    sent = {"Authorization": "Basic eA==", "Accept": "application/json"}
    _, _, same = _redirected(302, "https://h.example/a", "https://H.example:443/b", "GET", None, sent)
    assert same == sent
    _, _, other = _redirected(302, "https://h.example/a", "https://h.example:8443/b", "GET", None, sent)
    assert other == {"Accept": "application/json"}


def test_a_redirect_of_a_head_request_stays_a_head_request() -> None:
    assert _redirected(301, "https://h.example/a", "https://h.example/b", "HEAD", None, {})[0] == "HEAD"
    assert _redirected(301, "https://h.example/a", "https://h.example/b", "POST", b"x", {})[:2] == ("GET", None)
    assert _redirected(307, "https://h.example/a", "https://h.example/b", "POST", b"x", {})[:2] == ("POST", b"x")


# ---- the error code decides which known error comes first ------------------------------------

KNOWN_ERRORS = """
- id: demo/hana-258
  pattern: "SAP DBTech JDBC: [258]: insufficient privilege"
  cause: The technical user lacks a privilege on the object.
  fix: Grant the privilege to the HDI container's object owner.
  tags: [hana]
- id: demo/hana-259
  pattern: "SAP DBTech JDBC: [259]: invalid table name: Could not find table/view in schema"
  cause: The table or view does not exist in the schema the user works in.
  fix: Deploy the table or qualify its schema.
  tags: [hana]
- id: demo/itab-line
  pattern: "Runtime error ITAB_LINE_NOT_FOUND: table line not found in internal table"
  cause: A table expression found no line.
  fix: Use a default or check with line_exists.
  tags: [abap]
- id: demo/itab-dup
  pattern: "Runtime error ITAB_DUPLICATE_KEY: duplicate key in internal table"
  cause: A line with the same unique key was inserted twice.
  fix: Check the key before inserting.
  tags: [abap]
"""


@pytest.fixture
def kb(make_pack) -> KnowledgeBase:
    root = make_pack("demo", {"known_errors.yaml": textwrap.dedent(KNOWN_ERRORS)})
    return KnowledgeBase.load(layers=[Layer("bundled", root)])


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # the words are those of [259]; the code is 258
        ("SAP DBTech JDBC: [258]: invalid table name", "demo/hana-258"),
        ("SAP DBTech JDBC: [258]: could not find table", "demo/hana-258"),
        ("SAP DBTech JDBC: [259]: insufficient privilege", "demo/hana-259"),
        ("Runtime error ITAB_DUPLICATE_KEY: table line not found in internal table", "demo/itab-dup"),
        ("Runtime error ITAB_LINE_NOT_FOUND: duplicate key in internal table", "demo/itab-line"),
    ],
)
def test_the_pasted_error_code_outranks_the_wording(kb: KnowledgeBase, message: str, expected: str) -> None:
    hits = find_known_errors(kb, message)
    assert [e.id for _, e in hits][:1] == [expected], [e.id for _, e in hits]


def test_a_code_alone_finds_its_entry(kb: KnowledgeBase) -> None:
    assert [e.id for _, e in find_known_errors(kb, "[258]")][:1] == ["demo/hana-258"]
    assert [e.id for _, e in find_known_errors(kb, "SQL error 259")][:1] == ["demo/hana-259"]


# ---- atomic_write_text: the old file survives a write that does not finish ---------------------


def _only(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("failure", [OSError("disk gone"), KeyboardInterrupt()])
def test_a_failure_between_writing_and_replacing_leaves_the_old_file(tmp_path, monkeypatch, failure) -> None:
    target = tmp_path / "config.json"
    target.write_text("old", encoding="utf-8")
    seen: list[str] = []

    def replace_fails(src, dst) -> None:
        seen.append(Path(src).read_text(encoding="utf-8"))  # the new text is complete in the temp file
        assert target.read_text(encoding="utf-8") == "old", "the target must not be touched before the replace"
        raise failure

    monkeypatch.setattr(os, "replace", replace_fails)
    with pytest.raises(type(failure)):
        fs.atomic_write_text(target, "new text " * 1000)
    assert seen == ["new text " * 1000]
    assert target.read_text(encoding="utf-8") == "old"
    assert _only(tmp_path) == ["config.json"], "the temporary file is removed"


def test_a_failure_while_writing_leaves_the_old_file(tmp_path, monkeypatch) -> None:
    target = tmp_path / "config.json"
    target.write_text("old", encoding="utf-8")

    def fsync_fails(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", fsync_fails)
    with pytest.raises(OSError, match="No space left"):
        fs.atomic_write_text(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert _only(tmp_path) == ["config.json"]


def test_a_process_killed_between_writing_and_replacing_leaves_the_old_file(tmp_path) -> None:
    target = tmp_path / "mcp.json"
    target.write_text('{"old": true}', encoding="utf-8")
    child = textwrap.dedent(
        f"""
        import os, sys
        from pathlib import Path
        from sap_devs.core import fs
        os.replace = lambda src, dst: os._exit(9)  # killed right before the rename
        fs.atomic_write_text(Path({str(target)!r}), '{{"new": true}}')
        sys.exit(0)
        """
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60)
    assert done.returncode == 9, done.stderr
    assert target.read_text(encoding="utf-8") == '{"old": true}'
    leftovers = [p for p in tmp_path.iterdir() if p != target]
    assert len(leftovers) == 1 and leftovers[0].read_text(encoding="utf-8") == '{"new": true}'
    os.utime(leftovers[0], (0, 0))
    assert fs.remove_stale_temp_files(tmp_path) == 1
    assert _only(tmp_path) == ["mcp.json"]


def test_a_successful_write_replaces_and_keeps_the_permissions(tmp_path) -> None:
    target = tmp_path / "secret.yaml"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o600)
    fs.atomic_write_text(target, "new\r\nline")
    assert target.read_bytes() == b"new\r\nline", "no newline translation"
    assert target.stat().st_mode & 0o777 == 0o600
    assert _only(tmp_path) == ["secret.yaml"]
    fresh = tmp_path / "sub" / "new.txt"
    fs.atomic_write_text(fresh, "x")
    assert fresh.read_text(encoding="utf-8") == "x"
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_only_old_unfinished_temp_files_are_swept(tmp_path) -> None:
    (tmp_path / "a").mkdir()
    old = tmp_path / "a" / ".x.json.abc.tmp"
    fresh = tmp_path / ".y.json.def.tmp"
    visible = tmp_path / "z.tmp"
    hidden_other = tmp_path / ".z.json"
    for p in (old, fresh, visible, hidden_other):
        p.write_text("{")
    for p in (old, visible, hidden_other):
        os.utime(p, (1000, 1000))
    assert fs.remove_stale_temp_files(tmp_path, older_than=600) == 1
    assert not old.exists() and fresh.exists() and visible.exists() and hidden_other.exists()


# ---- a tool context that was given no policy is read-only --------------------------------------


def test_a_context_without_a_policy_refuses_writes_transports_data_and_other_clients(tmp_path) -> None:
    from sap_devs.adt.abap_sql import QueryRefused, check_select
    from sap_devs.adt.safety import PolicyError
    from sap_devs.mcp.framework import ToolContext

    policy = ToolContext(cwd=tmp_path).policy()
    with pytest.raises(PolicyError, match="ABAP writes are off"):
        policy.check_write("$TMP", "ZREPORT")
    with pytest.raises(PolicyError, match="is refused"):
        policy.check_transports("Releasing a transport request")
    assert policy.data is False, "business data stays on the system unless SAP_DEVS_ADT_DATA=1"
    with pytest.raises(QueryRefused, match="SAP_DEVS_ADT_CROSS_CLIENT"):
        check_select("SELECT * FROM sflight USING CLIENT '200'", cross_client=policy.cross_client)
    assert policy.packages == ("$TMP", "Z*")


def test_the_sweep_says_what_it_removed_and_is_silent_otherwise(tmp_path, caplog) -> None:
    import logging

    orphan = tmp_path / ".x.json.abc.tmp"
    orphan.write_text("{")
    os.utime(orphan, (1000, 1000))
    with caplog.at_level(logging.INFO, logger="sap_devs.core.fs"):
        assert fs.remove_stale_temp_files(tmp_path) == 1
        assert fs.remove_stale_temp_files(tmp_path) == 0
    assert [r.getMessage() for r in caplog.records] == [f"removed 1 unfinished temporary file(s) under {tmp_path}"]
