"""ABAP Unit runs over ADT, with statement coverage when asked.

POST /sap/bc/adt/abapunit/testruns with an ``aunit:runConfiguration``; the ``options`` block is
required (without it systems answer an empty ``aunit:runResult``: green because nothing ran). With
coverage on, the result names a measurement, which answers a POST of a ``cov:query`` (GET is 405)
with a tree of nodes carrying statement, branch and procedure counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element
from xml.sax.saxutils import quoteattr

from sap_devs.adt.client import AdtClient
from sap_devs.adt.objects import ADTCORE, ATOM
from sap_devs.core.xml import parse_xml

AUNIT = "{http://www.sap.com/adt/aunit}"
COV = "{http://www.sap.com/adt/cov}"
RISK_LEVELS = ("harmless", "dangerous", "critical")
DURATIONS = ("short", "medium", "long")
RUN_TYPE = "application/vnd.sap.adt.abapunit.testruns.config.v4+xml"
RESULT_TYPES = (
    "application/vnd.sap.adt.abapunit.testruns.result.v2+xml, "
    "application/vnd.sap.adt.abapunit.testruns.result.v1+xml;q=0.9, application/xml;q=0.8"
)
_LINE = re.compile(r"#start=(\d+)")
MEASUREMENTS = "/sap/bc/adt/runtime/traces/coverage/measurements/"
COVERAGE_RESULTS = "/sap/bc/adt/runtime/traces/coverage/results/"


@dataclass
class StackEntry:
    name: str
    description: str
    line: int | None


@dataclass
class Alert:
    kind: str
    severity: str
    title: str
    details: list[str]
    stack: list[StackEntry]


@dataclass
class Method:
    name: str
    status: str  # passed, failed, warning, skipped
    seconds: float | None
    alerts: list[Alert]


@dataclass
class TestClass:
    program: str
    name: str
    risk_level: str | None
    duration: str | None
    methods: list[Method]
    alerts: list[Alert]


@dataclass
class Coverage:
    name: str
    type: str
    statement: tuple[int, int] | None  # (executed, total)
    branch: tuple[int, int] | None
    procedure: tuple[int, int] | None
    methods: list[Coverage] = field(default_factory=list)  # from the nodes' rel=next children
    next_uris: list[tuple[str, str]] = field(default_factory=list)  # (child link, the node's name)


@dataclass
class UnitResult:
    classes: list[TestClass] = field(default_factory=list)
    program_alerts: list[tuple[str, Alert]] = field(default_factory=list)  # (program, alert)
    run_alerts: list[Alert] = field(default_factory=list)
    coverage_uri: str | None = None
    coverage: list[Coverage] = field(default_factory=list)


def run_configuration(
    uris: list[str], *, coverage: bool, risk_levels: tuple[str, ...], durations: tuple[str, ...]
) -> str:
    risks = " ".join(f'{r}="{str(r in risk_levels).lower()}"' for r in RISK_LEVELS)
    times = " ".join(f'{d}="{str(d in durations).lower()}"' for d in DURATIONS)
    refs = "".join(f"<adtcore:objectReference adtcore:uri={quoteattr(u)}/>" for u in uris)
    return (
        '<?xml version="1.0" encoding="UTF-8"?><aunit:runConfiguration xmlns:aunit="http://www.sap.com/adt/aunit">'
        f'<external><coverage active="{str(coverage).lower()}"/></external><options><uriType value="semantic"/>'
        '<testDeterminationStrategy sameProgram="true" assignedTests="false" appendAssignedTestsPreview="true"/>'
        f'<testRiskLevels {risks}/><testDurations {times}/><withNavigationUri enabled="false"/></options>'
        '<adtcore:objectSets xmlns:adtcore="http://www.sap.com/adt/core"><objectSet kind="inclusive">'
        f"<adtcore:objectReferences>{refs}</adtcore:objectReferences></objectSet></adtcore:objectSets>"
        "</aunit:runConfiguration>"
    )


def _alerts(parent: Element) -> list[Alert]:
    found = []
    container = parent.find("alerts")
    for alert in container.findall("alert") if container is not None else []:
        details = [d.get("text", "") for d in alert.iter("detail") if d.get("text")]
        stack = []
        for entry in alert.iter("stackEntry"):
            match = _LINE.search(entry.get(f"{ADTCORE}uri", ""))
            stack.append(
                StackEntry(
                    name=entry.get(f"{ADTCORE}name", ""),
                    description=entry.get(f"{ADTCORE}description", ""),
                    line=int(match.group(1)) if match else None,
                )
            )
        title = " ".join("".join(alert.find("title").itertext()).split()) if alert.find("title") is not None else ""
        found.append(Alert(alert.get("kind", ""), alert.get("severity", ""), title, details, stack))
    return found


def _status(alerts: list[Alert]) -> str:
    if not alerts:
        return "passed"
    if any(a.severity in ("critical", "fatal") for a in alerts):
        return "failed"
    if all(a.kind == "abortion" for a in alerts):
        return "skipped"  # cl_abap_unit_assert=>skip: "Missing Prerequisites"
    return "warning"


def _seconds(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def parse_run_result(xml: bytes) -> UnitResult:
    root = parse_xml(xml, source="ABAP Unit result")
    result = UnitResult(run_alerts=_alerts(root))
    cov = root.find("external/coverage")
    if cov is not None:
        result.coverage_uri = cov.get(f"{ADTCORE}uri")
    for program in root.findall("program"):
        prog_name = program.get(f"{ADTCORE}name", "")
        result.program_alerts.extend((prog_name, a) for a in _alerts(program))
        for test_class in program.iter("testClass"):
            methods = [
                Method(
                    name=m.get(f"{ADTCORE}name", ""),
                    status=_status(alerts := _alerts(m)),
                    seconds=_seconds(m.get("executionTime")),
                    alerts=alerts,
                )
                for m in test_class.iter("testMethod")
            ]
            result.classes.append(
                TestClass(
                    program=prog_name,
                    name=test_class.get(f"{ADTCORE}name", ""),
                    risk_level=test_class.get("riskLevel"),
                    duration=test_class.get("durationCategory"),
                    methods=methods,
                    alerts=_alerts(test_class),
                )
            )
    return result


def _counts(node: Element) -> dict[str, tuple[int, int]]:
    out = {}
    for c in node.findall("coverages/coverage"):
        try:
            out[c.get("type", "")] = (int(c.get("executed", "0")), int(c.get("total", "0")))
        except ValueError:
            continue
    return out


NEXT_TYPE = "application/xml+scov"
_NEXT_MAX = 50  # child measurements followed per run: one request each


def _coverage(node: Element) -> Coverage:
    ref = node.find(f"{ADTCORE}objectReference")
    counts = _counts(node)
    name = ref.get(f"{ADTCORE}name", "") if ref is not None else ""
    nexts = []
    for inner in node.iter("node"):  # the node itself and the classes inside a class pool
        inner_ref = inner.find(f"{ADTCORE}objectReference")
        for link in inner.findall(f"{ATOM}link"):
            if link.get("rel") == "next" and link.get("type") == NEXT_TYPE and link.get("href"):
                label = inner_ref.get(f"{ADTCORE}name", "") if inner_ref is not None else ""
                nexts.append((link.get("href", ""), label))
    return Coverage(
        name=name,
        type=ref.get(f"{ADTCORE}type", "") if ref is not None else "",
        statement=counts.get("statement"),
        branch=counts.get("branch"),
        procedure=counts.get("procedure"),
        next_uris=nexts,
    )


def parse_children(xml: bytes) -> list[Coverage]:
    """The nodes of a child measurement (a class's methods), each with its own counts."""
    root = parse_xml(xml, source="coverage measurement")
    nodes = root.find("nodes")
    return [_coverage(node) for node in (nodes.findall("node") if nodes is not None else [])]


async def follow_children(client: AdtClient, found: list[Coverage]) -> None:
    """Fetch the rel=next child measurements (what sapcli follows) and add them as methods; a local
    class's methods are named CLASS=>METHOD."""
    budget = _NEXT_MAX
    for cov in found:
        for href, label in cov.next_uris:
            if budget == 0 or not href.startswith(COVERAGE_RESULTS):
                continue
            budget -= 1
            answer = await client.request(
                "GET", href, accept="application/vnd.sap.adt.coverage.measurements.v1+xml, application/xml"
            )
            for method in parse_children(answer.content):
                if label and label != cov.name:
                    method.name = f"{label}=>{method.name}"
                cov.methods.append(method)


def parse_coverage(xml: bytes) -> list[Coverage]:
    """Coverage per tested object: the nodes below the root, looking through package nodes."""
    root = parse_xml(xml, source="coverage measurement")
    found: list[Coverage] = []

    def walk(nodes: Element | None) -> None:
        for node in nodes.findall("node") if nodes is not None else []:
            ref = node.find(f"{ADTCORE}objectReference")
            kind = ref.get(f"{ADTCORE}type", "") if ref is not None else ""
            if kind == "DEVC/K":
                walk(node.find("nodes"))
                continue
            found.append(_coverage(node))

    walk(root.find("nodes"))
    return found


async def run_unit_tests(
    client: AdtClient,
    uris: list[str],
    *,
    coverage: bool = False,
    risk_levels: tuple[str, ...] = ("harmless",),
    durations: tuple[str, ...] = DURATIONS,
) -> UnitResult:
    body = run_configuration(uris, coverage=coverage, risk_levels=risk_levels, durations=durations)
    response = await client.request(
        "POST", "/sap/bc/adt/abapunit/testruns", content_type=RUN_TYPE, accept=RESULT_TYPES, body=body
    )
    result = parse_run_result(response.content)
    if coverage and result.coverage_uri and result.coverage_uri.startswith(MEASUREMENTS):
        refs = "".join(f"<adtcore:objectReference adtcore:uri={quoteattr(u)}/>" for u in uris)
        query = (
            '<?xml version="1.0" encoding="UTF-8"?><cov:query xmlns:cov="http://www.sap.com/adt/cov">'
            '<adtcore:objectSets xmlns:adtcore="http://www.sap.com/adt/core"><objectSet kind="inclusive">'
            f"<adtcore:objectReferences>{refs}</adtcore:objectReferences></objectSet></adtcore:objectSets></cov:query>"
        )
        measured = await client.request(
            "POST", result.coverage_uri, content_type="application/xml", accept="application/xml", body=query
        )
        result.coverage = parse_coverage(measured.content)
        await follow_children(client, result.coverage)
    return result
