"""The fake ADT server's answers for the operations issue 26 added: console classes, class includes,
function groups and modules, transport checks, the pretty printer, code completion, element info,
F1 documentation and quick fixes.

No recording of these exists in the references, so every answer is hand-made in the shape
abap-adt-api 8.4.3 parses (build/api/*.js): the same root elements, child names and attributes.
Like a real system, the fake accepts the wildcard content types that client sends (``application/*``)
as well as the specific ones, and it is strict where systems are strict: include writes need the
class's lock from the same stateful session, a transportable package needs ``corrNr``, a quick fix
must echo the proposal's user content.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from tests.fake_adt import Obj, generated_metadata

AS_XML = "application/vnd.sap.as+xml"
KEYWORDS = frozenset(
    [
        "CLASS",
        "ENDCLASS",
        "METHOD",
        "ENDMETHOD",
        "METHODS",
        "DATA",
        "TYPE",
        "TYPES",
        "IF",
        "ELSE",
        "ELSEIF",
        "ENDIF",
        "LOOP",
        "AT",
        "INTO",
        "ENDLOOP",
        "SELECT",
        "FROM",
        "WHERE",
        "ENDSELECT",
        "WRITE",
        "REPORT",
        "FUNCTION",
        "ENDFUNCTION",
        "DO",
        "ENDDO",
        "CASE",
        "WHEN",
        "ENDCASE",
        "TRY",
        "CATCH",
        "ENDTRY",
        "RETURN",
        "PUBLIC",
        "SECTION",
        "DEFINITION",
        "IMPLEMENTATION",
        "FINAL",
        "CREATE",
        "INTERFACES",
        "VALUE",
    ]
)
OPENS = ("CLASS", "METHOD", "IF", "LOOP", "DO", "CASE", "TRY", "FUNCTION", "SELECT", "WHILE")
CLOSES = ("ENDCLASS", "ENDMETHOD", "ENDIF", "ENDLOOP", "ENDDO", "ENDCASE", "ENDTRY", "ENDFUNCTION", "ENDSELECT")
MIDDLES = ("ELSE", "ELSEIF", "WHEN", "CATCH", "PUBLIC", "PROTECTED", "PRIVATE")
DOCS = {
    "LOOP": "LOOP AT itab: reads the lines of an internal table one after another in a loop.",
    "DATA": "DATA: declares a variable with a type.",
    "WRITE": "WRITE: writes a data object to the list buffer.",
    "SELECT": "SELECT: reads data from database tables or CDS views into data objects.",
    "METHOD": "METHOD ... ENDMETHOD: implements a method declared in the class definition.",
}
QUICKFIX = "/sap/bc/adt/quickfixes/proposals/declare_local_variable"


@dataclass
class MoreState:
    """What tests may set or inspect; one per fake."""

    pretty_indent: bool = True
    pretty_style: str = "keywordUpper"
    pretty_settings: bool = True  # older releases have no settings resource (404)
    runs: list[str] = field(default_factory=list)  # console classes run
    transport_checks: list[str] = field(default_factory=list)  # bodies
    fix_requests: list[str] = field(default_factory=list)  # proposal request bodies


def more_state(fake: Any) -> MoreState:
    state = fake.__dict__.get("_more")
    if state is None:
        state = fake.__dict__["_more"] = MoreState()
    return state


def _ctype(headers: dict[str, str]) -> str:
    return headers.get("content-type", "").split(";")[0].strip().lower()


def _cursor(query: dict[str, list[str]]) -> tuple[str, int, int] | None:
    match = re.match(r"^([^#]+)#start=(\d+),(\d+)", query.get("uri", [""])[0])
    return (match.group(1), int(match.group(2)), int(match.group(3))) if match else None


def _source_exists(fake: Any, uri: str) -> bool:
    """An editor request's source URI as ADT's editor sends it: an object's ``/source/main`` (a
    function module under its group) or a class's local include ``/includes/<name>``; the object's
    own URI is taken too (abap-adt-api's F1 call names the object)."""
    uri = uri.lower()
    if uri in fake.objects:
        return True
    if uri.endswith("/source/main"):
        return uri[: -len("/source/main")] in fake.objects
    include = re.match(r"^(/sap/bc/adt/oo/classes/[^/]+)/includes/(\w+)$", uri)
    if include:
        obj = fake.objects.get(include.group(1))
        return obj is not None and (include.group(2) == "main" or include.group(2) in obj.includes)
    return False


def _word_at(source: str, line: int, column: int) -> tuple[str, str]:
    """(the identifier around the cursor, the part of it left of the cursor)."""
    lines = source.splitlines()
    if not 1 <= line <= len(lines):
        return "", ""
    text = lines[line - 1]
    left = re.search(r"[\w/]*$", text[:column]).group(0)
    right = re.match(r"[\w/]*", text[column:]).group(0)
    return left + right, left


def _declared(source: str, word: str) -> bool:
    w = re.escape(word)
    return bool(re.search(rf"\bDATA\s*(\(\s*{w}\s*\)|:?\s+{w}\b)", source, re.I))


def _pretty(source: str, state: MoreState) -> str:
    level, out = 0, []
    for raw in source.splitlines():
        text = raw.strip()
        first = text.split(" ", 1)[0].rstrip(".:").upper() if text else ""
        if first in CLOSES:
            level = max(0, level - 1)
        if state.pretty_style == "keywordUpper" and first in KEYWORDS and "'" not in text.split(" ", 1)[0]:
            text = first + text[len(first) :]
        indent = level - (1 if first in MIDDLES and level else 0)
        out.append(("  " * indent if state.pretty_indent else "") + text if text else "")
        deferred = first == "CLASS" and re.search(r"\bDEFINITION\s+(LOAD|DEFERRED)\b", text, re.I)
        if first in OPENS and not deferred:
            level += 1
    return "\n".join(out) + ("\n" if source.endswith("\n") else "")


def handle_more(
    fake: Any,
    method: str,
    path: str,
    query: dict[str, list[str]],
    headers: dict[str, str],
    body: bytes,
    ok: Callable[..., None],
    fail: Callable[[int, str, str], None],
    *,
    sid: str,
    stateful: bool,
) -> bool:
    """Answer the request if it is one of these operations; False lets the main fake go on."""
    state = more_state(fake)
    if path == "/sap/bc/adt/compatibility/graph" and method == "GET":  # abap-adt-api's logon request
        ok(
            '<?xml version="1.0" encoding="utf-8"?><compatibility:graph xmlns:compatibility="http://www.sap.com/adt/compatibility"/>'
        )
        return True
    if path.startswith("/sap/bc/adt/oo/classrun/") and method == "POST":
        _classrun(fake, state, path, ok, fail)
        return True
    if path == "/sap/bc/adt/cts/transportchecks" and method == "POST":
        _transport_check(fake, state, headers, body, ok, fail)
        return True
    if path == "/sap/bc/adt/abapsource/prettyprinter/settings" and method == "GET":
        if not state.pretty_settings:
            fail(404, "ExceptionResourceNotFound", f"Resource {path} does not exist")
        else:
            ok(
                '<?xml version="1.0" encoding="utf-8"?><abapformatter:PrettyPrinterSettings '
                'xmlns:abapformatter="http://www.sap.com/adt/prettyprintersettings" '
                f'abapformatter:indentation="{str(state.pretty_indent).lower()}" '
                f'abapformatter:style="{state.pretty_style}"/>'
            )
        return True
    if path == "/sap/bc/adt/abapsource/prettyprinter" and method == "POST":
        if _ctype(headers) not in ("text/plain", "application/*"):
            fail(415, "ExceptionResourceNotAcceptable", "Content type text/plain expected")
        else:
            ok(_pretty(body.decode("utf-8"), state), "text/plain")
        return True
    editor = {
        "/sap/bc/adt/abapsource/codecompletion/proposal": _completion,
        "/sap/bc/adt/abapsource/codecompletion/elementinfo": _element_info,
        "/sap/bc/adt/docu/abap/langu": _docu,
        "/sap/bc/adt/quickfixes/evaluation": _quickfix_evaluation,
    }
    if path in editor and method == "POST":
        where = _cursor(query)
        if where is None:
            fail(400, "ExceptionInvalidData", "Parameter uri with a #start fragment is required")
        elif not _source_exists(fake, where[0]):
            # a real system resolves the cursor's source: a URI that names no source is refused
            fail(404, "ExceptionResourceNotFound", f"Resource {where[0]} does not exist")
        else:
            editor[path](fake, body.decode("utf-8"), *where, ok, fail)
        return True
    if path == QUICKFIX and method == "POST":
        _quickfix_apply(state, body.decode("utf-8"), ok, fail)
        return True
    if method == "POST" and path == "/sap/bc/adt/functions/groups":
        _create_group(fake, query, headers, body, ok, fail)
        return True
    fm = re.match(r"^(/sap/bc/adt/functions/groups/[^/]+)/fmodules$", path)
    if method == "POST" and fm:
        _create_module(fake, fm.group(1), query, headers, body, ok, fail)
        return True
    # object names in ADT URIs are case-insensitive (abap-adt-api sends the class name as given)
    inc = re.match(r"^(/sap/bc/adt/oo/classes/[^/]+)/includes(?:/(\w+))?$", path)
    if inc and inc.group(1).lower() in fake.objects and method in ("POST", "PUT"):
        _include_change(fake, method, inc.group(1).lower(), inc.group(2), query, headers, body, sid, ok, fail)
        return True
    return False


def _classrun(fake: Any, state: MoreState, path: str, ok: Callable[..., None], fail: Callable[..., None]) -> None:
    name = path.rsplit("/", 1)[-1]
    obj = next((o for o in fake.objects.values() if o.type == "CLAS/OC" and o.name == name), None)
    if obj is None:  # the reference sends the name upper case; a lower-case name is not found either
        return fail(404, "ExceptionResourceNotFound", f"Class {name} does not exist")
    if "if_oo_adt_classrun" not in obj.source.lower():
        return fail(400, "ExceptionInvalidData", f"Class {name} does not implement IF_OO_ADT_CLASSRUN")
    state.runs.append(name)
    printed = re.findall(r"out->write\(\s*(?:data\s*=\s*)?[`'|]([^`'|]*)[`'|]", obj.source, re.I)
    ok("".join(f"{text}\n" for text in printed), "text/plain")


def _transport_check(fake, state, headers, body, ok, fail) -> None:  # type: ignore[no-untyped-def]
    if _ctype(headers) not in (AS_XML, "application/*") or (
        _ctype(headers) == AS_XML and "checkdata" not in headers.get("content-type", "").lower()
    ):
        return fail(415, "ExceptionResourceNotAcceptable", f"{AS_XML};dataname=com.sap.adt.transport.service.checkData")
    text = body.decode("utf-8")
    state.transport_checks.append(text)
    uri, package = _tag(text, "URI"), _tag(text, "DEVCLASS")
    obj = fake.objects.get(uri.split("/source/")[0])
    if obj is None and not package:
        return ok(_check_answer("", "", "", [], "", [("E", f"Object {uri} does not exist")]), AS_XML)
    package = obj.package if obj is not None else package.upper()
    name = obj.name if obj is not None else uri.rsplit("/", 1)[-1].upper()
    kind = {"CLAS": "CLAS", "PROG": "PROG", "INTF": "INTF", "FUGR": "FUGR"}.get((obj.type if obj else "")[:4], "R3TR")
    if package.startswith("$"):
        return ok(_check_answer(name, kind, package, [], "", []), AS_XML)
    requests = [("DEVK900123", "Sales order fixes", "DEVELOPER")]
    lock = ""
    if obj is not None and obj.uri in fake.locked_by_other:
        lock = (
            "<LOCKS><CTS_OBJECT_LOCK><OBJECT_KEY><PGMID>R3TR</PGMID><OBJECT>"
            f"{kind}</OBJECT><OBJ_NAME>{name}</OBJ_NAME></OBJECT_KEY><LOCK_HOLDER>"
            f"{_req('DEVK900200', 'Other work', 'OTHERUSER')}<TASK_HEADERS><CTS_TASK_HEADER>"
            f"{_req('DEVK900201', 'Other work', 'OTHERUSER', tag=None)}</CTS_TASK_HEADER></TASK_HEADERS>"
            "</LOCK_HOLDER></CTS_OBJECT_LOCK></LOCKS>"
        )
    return ok(_check_answer(name, kind, package, requests, lock, []), AS_XML)


def _tag(xml: str, name: str) -> str:
    found = re.search(rf"<{name}>([^<]*)</{name}>", xml)
    return found.group(1) if found else ""


def _req(number: str, text: str, owner: str, *, tag: str | None = "REQ_HEADER") -> str:
    inner = (
        f"<TRKORR>{number}</TRKORR><TRFUNCTION>K</TRFUNCTION><TRSTATUS>D</TRSTATUS><TARSYSTEM>QAS</TARSYSTEM>"
        f"<AS4USER>{owner}</AS4USER><AS4DATE>2026-11-30</AS4DATE><AS4TIME>10:00:00</AS4TIME>"
        f"<AS4TEXT>{escape(text)}</AS4TEXT><CLIENT>100</CLIENT>"
    )
    return f"<{tag}>{inner}</{tag}>" if tag else inner


def _check_answer(name, kind, package, requests, lock, messages) -> str:  # type: ignore[no-untyped-def]
    reqs = "".join(f"<CTS_REQUEST>{_req(*r)}</CTS_REQUEST>" for r in requests)
    msgs = "".join(
        f"<CTS_MESSAGE><SEVERITY>{sev}</SEVERITY><SPRSL>E</SPRSL><ARBGB>TK</ARBGB><MSGNR>001</MSGNR>"
        f"<VARIABLES/><TEXT>{escape(text)}</TEXT></CTS_MESSAGE>"
        for sev, text in messages
    )
    recording = "X" if package and not package.startswith("$") else ""
    return (
        '<?xml version="1.0" encoding="utf-8"?><asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0">'
        f"<asx:values><DATA><PGMID>R3TR</PGMID><OBJECT>{kind}</OBJECT><OBJECTNAME>{name}</OBJECTNAME>"
        f"<OPERATION>I</OPERATION><DEVCLASS>{package}</DEVCLASS><CTEXT>Package</CTEXT><KORRFLAG>{recording}</KORRFLAG>"
        f"<AS4USER>DEVELOPER</AS4USER><PDEVCLASS/><DLVUNIT>HOME</DLVUNIT><NAMESPACE>/0CUST/</NAMESPACE>"
        f"<RESULT>S</RESULT><RECORDING>{recording}</RECORDING><EXISTING_REQ_ONLY/>"
        f"<REQUESTS>{reqs}</REQUESTS>{lock}{'<MESSAGES>' + msgs + '</MESSAGES>' if msgs else ''}"
        "</DATA></asx:values></asx:abap>"
    )


def _completion(fake, source, uri, line, column, ok, fail) -> None:  # type: ignore[no-untyped-def]
    _, prefix = _word_at(source, line, column)
    words = set(KEYWORDS) | {w.upper() for w in re.findall(r"\b[A-Za-z_]\w{2,}\b", source)}
    hits = sorted(w for w in words if prefix and w.startswith(prefix.upper()) and w != prefix.upper())
    items = "".join(
        f"<SCC_COMPLETION><KIND>{0 if w in KEYWORDS else 2}</KIND><IDENTIFIER>{w.lower()}</IDENTIFIER>"
        f"<ICON>0</ICON><SUBICON>0</SUBICON><BOLD>0</BOLD><COLOR>0</COLOR><QUICKINFO_EVENT>0</QUICKINFO_EVENT>"
        f"<INSERT_EVENT>0</INSERT_EVENT><IS_META>0</IS_META><PREFIXLENGTH>{len(prefix)}</PREFIXLENGTH><ROLE>0</ROLE>"
        f"<LOCATION>0</LOCATION><GRADE>0</GRADE><VISIBILITY>0</VISIBILITY><IS_INHERITED>0</IS_INHERITED>"
        f"<PROP1>0</PROP1><PROP2>0</PROP2><PROP3>0</PROP3><SYNTCNTXT>0</SYNTCNTXT></SCC_COMPLETION>"
        for w in hits
    )
    end = "<SCC_COMPLETION><KIND>0</KIND><IDENTIFIER>@end</IDENTIFIER></SCC_COMPLETION>"
    ok(
        '<?xml version="1.0" encoding="utf-8"?><asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0">'
        f"<asx:values><DATA>{items}{end}</DATA></asx:values></asx:abap>",
        AS_XML,
    )


def _element_info(fake, source, uri, line, column, ok, fail) -> None:  # type: ignore[no-untyped-def]
    word, _ = _word_at(source, line, column)
    obj = next((o for o in fake.objects.values() if o.name == word.upper()), None) if word else None
    ns = 'xmlns:abapsource="http://www.sap.com/adt/abapsource" xmlns:adtcore="http://www.sap.com/adt/core"'
    if obj is not None:
        methods = re.findall(r"^\s*METHODS:?\s+(\w+)", obj.source, re.I | re.M)
        parts = "".join(
            f'<abapsource:elementInfo adtcore:name="{m.upper()}" adtcore:type="method"><abapsource:properties>'
            '<abapsource:entry abapsource:key="visibility">public</abapsource:entry></abapsource:properties>'
            "</abapsource:elementInfo>"
            for m in methods
        )
        return ok(
            f'<?xml version="1.0" encoding="utf-8"?><abapsource:elementInfo {ns} adtcore:name="{obj.name}" '
            f'adtcore:type="{obj.type}"><atom:link xmlns:atom="http://www.w3.org/2005/Atom" '
            f'href="{obj.uri}" rel="http://www.sap.com/adt/relations/source"/>'
            f"<abapsource:documentation>{escape(f'{obj.name} in package {obj.package}')}</abapsource:documentation>"
            f"{parts}</abapsource:elementInfo>",
            "application/vnd.sap.adt.elementinfo+xml",
        )
    declared = re.search(rf"\bDATA\s*:?\s+{re.escape(word)}\s+TYPE\s+([\w/]+)", source, re.I) if word else None
    if declared is None:
        return fail(400, "ExceptionInvalidData", "No element information available at this position")
    return ok(
        f'<?xml version="1.0" encoding="utf-8"?><abapsource:elementInfo {ns} adtcore:name="{word.upper()}" '
        f'adtcore:type="variable"><abapsource:documentation>{escape("TYPE " + declared.group(1).upper())}'
        "</abapsource:documentation></abapsource:elementInfo>",
        "application/vnd.sap.adt.elementinfo+xml",
    )


def _docu(fake, source, uri, line, column, ok, fail) -> None:  # type: ignore[no-untyped-def]
    word, _ = _word_at(source, line, column)
    text = DOCS.get(word.upper())
    if text is None:
        return fail(404, "ExceptionResourceNotFound", f"No documentation for {word or 'this position'}")
    ok(
        f"<html><head><style>p {{}}</style></head><body><h2>{word.upper()}</h2><p>{escape(text)}</p></body></html>",
        "text/html",
    )


def _quickfix_evaluation(fake, source, uri, line, column, ok, fail) -> None:  # type: ignore[no-untyped-def]
    word, _ = _word_at(source, line, column)
    results = ""
    if re.match(r"^l[vst]_\w+$", word, re.I) and not _declared(source, word):
        results = (
            f'<evaluationResult><adtcore:objectReference adtcore:uri="{QUICKFIX}" adtcore:type="quickfix/proposal" '
            f'adtcore:name="Declare local variable" adtcore:description={quoteattr(f"Declare local variable {word}")}/>'
            f"<userContent>{escape(f'DECLARE:{word}:{line}')}</userContent></evaluationResult>"
        )
    ok(
        '<?xml version="1.0" encoding="utf-8"?><qf:evaluationResults xmlns:qf="http://www.sap.com/adt/quickfixes" '
        f'xmlns:adtcore="http://www.sap.com/adt/core">{results}</qf:evaluationResults>',
        "application/vnd.sap.adt.quickfixes.evaluation+xml",
    )


def _quickfix_apply(state: MoreState, body: str, ok: Callable[..., None], fail: Callable[..., None]) -> None:
    from html import unescape

    state.fix_requests.append(body)
    content = re.search(r"<content>(.*?)</content>", body, re.S)
    where = re.search(r'adtcore:uri="([^"#]+)#start=(\d+),(\d+)"', body)
    user = re.search(r"<userContent>(.*?)</userContent>", body, re.S)
    if not (content and where and user) or not unescape(user.group(1)).startswith("DECLARE:"):
        return fail(400, "ExceptionInvalidData", "Invalid quick fix request")
    _, word, line = unescape(user.group(1)).split(":")
    source_line = unescape(content.group(1)).splitlines()[int(line) - 1]
    indent = source_line[: len(source_line) - len(source_line.lstrip())]
    delta = (
        f'<unit><adtcore:objectReference adtcore:uri="{where.group(1)}#start={line},0;end={line},0" '
        f'adtcore:type="PROG/P" adtcore:name="{word}"/><content>{escape(f"{indent}DATA {word} TYPE string.")}\n'
        "</content></unit>"
    )
    ok(
        '<?xml version="1.0" encoding="utf-8"?><qf:proposalResult xmlns:qf="http://www.sap.com/adt/quickfixes" '
        f'xmlns:adtcore="http://www.sap.com/adt/core"><deltas>{delta}</deltas></qf:proposalResult>',
        "application/vnd.sap.adt.quickfixes.proposal+xml",
    )


def _new_name_package(body: bytes) -> tuple[str | None, str | None, str | None]:
    name = re.search(rb'adtcore:name="([^"]+)"', body)
    package = re.search(rb'<adtcore:packageRef adtcore:name="([^"]+)"', body)
    container = re.search(rb'<adtcore:containerRef\b[^>]*adtcore:name="([^"]+)"', body)
    return tuple(m.group(1).decode() if m else None for m in (name, package, container))  # type: ignore[return-value]


def _create_group(fake, query, headers, body, ok, fail) -> None:  # type: ignore[no-untyped-def]
    if _ctype(headers) not in (
        "application/vnd.sap.adt.functions.groups.v3+xml",
        "application/vnd.sap.adt.functions.groups.v2+xml",
        "application/*",
    ):
        return fail(
            415,
            "ExceptionResourceNotAcceptable",
            "Content type application/vnd.sap.adt.functions.groups.v3+xml expected",
        )
    name, package, _ = _new_name_package(body)
    if not name or not package or b"group:abapFunctionGroup" not in body:
        return fail(400, "ExceptionInvalidData", "A function group needs adtcore:name and adtcore:packageRef")
    uri = f"/sap/bc/adt/functions/groups/{name.lower()}"
    if uri in fake.objects:
        return fail(400, "ExceptionResourceAlreadyExists", f"{name} already exists")
    if not package.startswith("$") and not query.get("corrNr"):
        return fail(400, "ExceptionInvalidData", "A transport request is required")
    metadata = generated_metadata(
        "group:abapFunctionGroup", "http://www.sap.com/adt/functions/groups", name, "FUGR/F", package, "created"
    )
    with fake._lock:
        fake.objects[uri] = Obj(
            uri,
            name,
            "FUGR/F",
            package,
            ("application/vnd.sap.adt.functions.groups.v3+xml",),
            metadata,
            f"FUNCTION-POOL {name.lower()}.\n",
        )
        fake.created.append(uri)
        fake.create_bodies.append(body.decode())
    ok(metadata, "application/vnd.sap.adt.functions.groups.v3+xml")


def _create_module(fake, group_uri, query, headers, body, ok, fail) -> None:  # type: ignore[no-untyped-def]
    group = fake.objects.get(group_uri)
    if group is None:
        return fail(404, "ExceptionResourceNotFound", f"Function group {group_uri.rsplit('/', 1)[-1]} does not exist")
    if _ctype(headers) not in ("application/vnd.sap.adt.functions.fmodules+xml", "application/*"):
        return fail(
            415,
            "ExceptionResourceNotAcceptable",
            "Content type application/vnd.sap.adt.functions.fmodules+xml expected",
        )
    name, _, container = _new_name_package(body)
    if not name or (container or "").upper() != group.name:
        return fail(
            400, "ExceptionInvalidData", "A function module needs adtcore:name and the group as adtcore:containerRef"
        )
    uri = f"{group_uri}/fmodules/{name.lower()}"
    if uri in fake.objects:
        return fail(400, "ExceptionResourceAlreadyExists", f"{name} already exists")
    if not group.package.startswith("$") and not query.get("corrNr"):
        return fail(400, "ExceptionInvalidData", "A transport request is required")
    metadata = generated_metadata(
        "fmodule:abapFunctionModule",
        "http://www.sap.com/adt/functions/fmodules",
        name,
        "FUGR/FF",
        group.package,
        "created",
    ).replace(  # as recorded from a real system: the group's package on the containerRef, no packageRef
        f'<adtcore:packageRef adtcore:name="{group.package}" adtcore:type="DEVC/K"/>'.encode(),
        f'<adtcore:containerRef adtcore:uri="{group_uri}" adtcore:type="FUGR/F" adtcore:name="{group.name}" '
        f'adtcore:packageName="{group.package}"/>'.encode(),
    )
    with fake._lock:
        fake.objects[uri] = Obj(
            uri,
            name,
            "FUGR/FF",
            group.package,
            ("application/vnd.sap.adt.functions.fmodules.v3+xml", "application/xml"),
            metadata,
            f"FUNCTION {name.lower()}.\nENDFUNCTION.\n",
        )
        fake.created.append(uri)
        fake.create_bodies.append(body.decode())
    ok(metadata, "application/vnd.sap.adt.functions.fmodules+xml")


def _include_change(fake, method, class_uri, include, query, headers, body, sid, ok, fail) -> None:  # type: ignore[no-untyped-def]
    obj = fake.objects[class_uri]
    held = fake.locks.get(class_uri)
    if not held or held != (query.get("lockHandle", [""])[0], sid):
        return fail(423, "ExceptionResourceInvalidLockHandle", "Resource is not locked (invalid lock handle)")
    if not obj.package.startswith("$") and not query.get("corrNr"):
        return fail(400, "ExceptionInvalidData", "A transport request is required")
    if method == "POST" and include is None:
        if _ctype(headers) not in ("application/vnd.sap.adt.oo.classincludes+xml", "application/*"):
            return fail(415, "ExceptionResourceNotAcceptable", "application/vnd.sap.adt.oo.classincludes+xml expected")
        kind = re.search(rb'class:includeType="(\w+)"', body)
        if kind is None or kind.group(1) != b"testclasses":
            return fail(400, "ExceptionInvalidData", "Only the test classes include can be created")
        if "testclasses" in obj.includes:
            return fail(400, "ExceptionResourceAlreadyExists", "The test classes include already exists")
        obj.includes["testclasses"] = ""
        return ok(b"", "text/plain")
    if method == "PUT" and include is not None:
        if include == "testclasses" and include not in obj.includes:  # the others come with every class
            # what systems answer for a test include nobody created (CCAU)
            return fail(
                500, "ExceptionResourceSaveFailure", f"{obj.name} does not have any inactive version of {include}"
            )
        obj.includes[include] = body.decode("utf-8")
        return ok(b"", "text/plain")
    return fail(405, "ExceptionMethodNotSupported", f"{method} is not supported")
