"""Whole stack traces and build logs, pasted as they come (up to 64 KB), are matched on the lines
that carry the error (issue 28, item 4)."""

from __future__ import annotations

import anyio
import pytest

from sap_devs import tools
from sap_devs.knowledge.error_lines import MAX_CHARS, SHORT_PASTE, error_lines
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.tools._bounds import PASTED_LOG_MAX
from sap_devs.mcp.tools.knowledge.get_known_errors import Input, handle


def spring_log(lines: int) -> str:
    """Start-up noise of a CAP Java application: INFO lines that name beans, ports and classes."""
    return "\n".join(
        f"2026-12-01T10:{i // 60 % 60:02d}:{i % 60:02d}.{i % 1000:03d}Z  INFO 4711 --- [  restartedMain] "
        f"c.s.c.s.impl.runtime.CdsRuntimeImpl{i}   : Registered handler for event READ on service "
        f"CatalogService.Books{i} (com.sap.cds.services.impl.handlers.ApplicationHandler{i})"
        for i in range(lines)
    )


JAVA_TRACE = """org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'dataSource' defined in class path resource [com/sap/cds/framework/spring/config/runtime/CdsRuntimeConfig.class]
\tat org.springframework.beans.factory.support.AbstractAutowireCapableBeanFactory.initializeBean(AbstractAutowireCapableBeanFactory.java:1806)
\tat org.springframework.beans.factory.support.AbstractAutowireCapableBeanFactory.doCreateBean(AbstractAutowireCapableBeanFactory.java:600)
\tat org.springframework.boot.SpringApplication.run(SpringApplication.java:1352)
Caused by: com.sap.db.jdbc.exceptions.JDBCDriverException: SAP DBTech JDBC: [258]: insufficient privilege: Detailed info for this error can be found with guid 'C5D9A2B1E4F3A7B8C9D0E1F2A3B4C5D6'
\tat com.sap.db.jdbc.exceptions.SQLExceptionSapDB._newInstance(SQLExceptionSapDB.java:191)
\tat com.sap.db.jdbc.exceptions.SQLExceptionSapDB.newInstance(SQLExceptionSapDB.java:42)
\t... 42 more"""

NPM_LOG = """npm ERR! code E401
npm ERR! Unable to authenticate, need: Basic realm="Artifactory Realm"
npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/2026-12-01T10_00_00_000Z-debug-0.log"""


def sixty_kb(error: str, *, at: float = 0.7) -> str:
    noise = spring_log(400)
    while len(noise) < 60_000:
        noise += "\n" + spring_log(100)
    noise = noise[:60_000]
    cut = noise.rfind("\n", 0, int(len(noise) * at))
    return f"{noise[:cut]}\n{error}\n{noise[cut + 1 :]}"


def test_a_short_paste_is_used_whole() -> None:
    text = (
        "Error: listen EADDRINUSE: address already in use :::4004\n    at Server.setupListenHandle (node:net:1817:16)"
    )
    assert len(text) <= SHORT_PASTE and error_lines(text) == text


def test_the_error_lines_of_a_java_trace_are_its_message_and_causes() -> None:
    picked = error_lines(sixty_kb(JAVA_TRACE)).splitlines()
    assert picked[0].startswith("org.springframework.beans.factory.BeanCreationException: Error creating bean")
    assert picked[1].startswith("Caused by: com.sap.db.jdbc.exceptions.JDBCDriverException: SAP DBTech JDBC: [258]")
    assert len(picked) == 2, "stack frames and INFO lines are left out"


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("[ERROR] Failed to execute goal com.sap.cds:cds-maven-plugin:3.4.0:cds (cds.build) on project srv", "maven"),
        ("npm ERR! code ERESOLVE", "npm"),
        ("Error[ref-undefined-def]: Artifact “Authors” has not been found", "cds-compiler"),
        ("Runtime Errors         ITAB_LINE_NOT_FOUND", "abap dump"),
        ("Except.                CX_SY_ITAB_LINE_NOT_FOUND", "abap dump"),
        ("   3:10 error Component is not configured for asynchronous loading.  async-component-flags", "ui5lint"),
        ("TypeError: Cannot read properties of undefined (reading 'entities')", "node"),
    ],
)
def test_each_tools_error_marker_is_picked(line: str, kind: str) -> None:
    picked = error_lines(sixty_kb(line, at=0.5))
    assert line.strip() in picked.splitlines(), kind


def test_the_first_line_of_a_node_trace_is_picked_even_without_a_marker() -> None:
    trace = "something odd happened in srv/cat-service.js\n    at Object.<anonymous> (/home/dev/srv/cat-service.js:3:9)"
    assert "something odd happened in srv/cat-service.js" in error_lines(sixty_kb(trace))


def test_what_is_matched_stays_bounded_on_a_log_of_errors() -> None:
    log = "\n".join(f"npm ERR! line {i} of a very noisy failure with words of its own" for i in range(3000))
    picked = error_lines(log)
    assert len(picked) <= MAX_CHARS and picked.startswith("npm ERR! line 0 ")


def test_a_log_that_never_says_error_is_matched_on_its_head_and_tail() -> None:
    log = spring_log(600)
    picked = error_lines(log)
    assert picked.startswith(log[:100]) and picked.endswith(log[-100:]) and len(picked) <= SHORT_PASTE + 1


def call(message: str, ctx: ToolContext):
    return anyio.run(handle, Input(query=message), ctx)


@pytest.mark.parametrize(
    ("error", "expected", "line"),
    [
        (
            JAVA_TRACE,
            "cap/hana-insufficient-privilege-258",
            "Caused by: com.sap.db.jdbc.exceptions.JDBCDriverException",
        ),
        (NPM_LOG, "base/npm-e401-sap-scope", "npm ERR! code E401"),
    ],
)
def test_a_60_kb_trace_is_matched_by_its_error_line(
    bundled_ctx: ToolContext, error: str, expected: str, line: str
) -> None:
    pasted = sixty_kb(error)
    assert 60_000 <= len(pasted) <= PASTED_LOG_MAX
    out = call(pasted, bundled_ctx)
    assert out.results[0].id == expected
    assert out.results[0].strength in ("exact", "likely")
    assert out.matched_on is not None and line in out.matched_on and "INFO" not in out.matched_on


def test_more_than_64_kb_is_refused_with_the_bound() -> None:
    with pytest.raises(tools.ToolCallError, match="65536"):
        tools.call("get_known_errors", query="x" * (PASTED_LOG_MAX + 1))
