"""The cases scripts/capture_real_messages.py provokes: a project, a command, where the message is."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass
class Case:
    tool: str  # the fixture file (tests/data/real_messages/<tool>.yaml)
    scenario: str  # unique within the tool
    cmd: str  # shell command, run in the project folder
    package: str  # whose version the fixture records
    files: dict[str, str] = field(default_factory=dict)
    start: str = r"\S"  # the message starts at the first line matching this
    lines: int = 1  # and runs this many lines (or to a blank line)
    skip: int = 0  # or: starts this many non-blank lines below that line and runs over blank lines
    link: tuple[str, ...] = ()  # scratch-install packages the project gets in its node_modules
    env: dict[str, str] = field(default_factory=dict)
    timeout: int = 90
    base: str = "tools"  # where linked packages come from: "tools", "cache" or "cds-only" (see Run.base)
    command: str = ""  # what a developer would type, when cmd differs
    names: list[str] | None = None
    each: str = ""  # instead: every output line matching this is a message (a linter's findings)
    rule: str = r"(\S+)\s*$"  # in `each` mode, the finding's rule id, which names the scenario
    strip: str = ""  # in `each` mode, what to cut off a finding (a probe's own prefix, a timestamp)
    where: str = r"^\S*\d+:\d+\S*\s+"  # and the position, without which two findings may be the same

    def commands(self) -> list[str]:
        return [self.command or self.cmd]


@dataclass
class HttpCase:
    tool: str
    scenario: str
    cmd: str  # starts the server on {port}
    package: str
    requests: list[tuple[str, str, str | None, dict[str, str]]]
    names: list[str] | None = None
    files: dict[str, str] = field(default_factory=dict)
    link: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    base: str = "tools"
    from_log: str = ""  # take the message from the server log instead of the bodies
    strip: str = ""  # what to cut off the logged line (a log format's timestamps and ids)
    lines: int = 1
    timeout: int = 60
    command: str = ""

    def commands(self) -> list[str]:
        server = self.command or self.cmd.replace("{port}", "4004")
        return [f"{server}; {m} {p}" + (f" {b}" if b else "") for m, p, b, _ in self.requests]


CASES: list[Case | HttpCase] = []


def _pkg(deps: dict[str, str] | None = None, cds: dict | None = None, **extra: object) -> str:
    body: dict[str, object] = {"name": "demo", "version": "1.0.0", "dependencies": deps or {"@sap/cds": "^10"}}
    if cds is not None:
        body["cds"] = cds
    body.update(extra)
    return json.dumps(body, indent=2)


# --- CDS compiler: `cds compile` prints the compiler's messages with a code excerpt ----------------


def compile_case(scenario: str, source: str, to: str = "csn", start: str = r"^\[(ERROR|WARNING|INFO)\]", **kw) -> None:
    CASES.append(
        Case(
            "cds-compiler",
            scenario,
            f"cds compile srv/cat-service.cds --to {to}",
            "@sap/cds-compiler",
            files={"srv/cat-service.cds": source, "package.json": _pkg()},
            start=start,
            lines=kw.pop("lines", 1),
            link=("@sap/cds",),
            **kw,
        )
    )


compile_case(
    "duplicate-entity",
    "namespace my;\nentity Books { key ID : Integer; }\nentity Books { key ID : Integer; title : String; }\n",
)
compile_case("duplicate-element", "entity Books { key ID : Integer; title : String; title : String(100); }\n")
compile_case("duplicate-service", "service CatalogService {}\nservice CatalogService {}\n")
compile_case("unknown-type", "entity Books { key ID : Integer; price : Money; }\n")
compile_case("unknown-projection-source", "service CatalogService { entity Books as projection on my.Books; }\n")
compile_case("extend-unknown", "extend my.Books with { stock : Integer; }\n")
compile_case("annotate-unknown", "annotate CatalogService.Books with @readonly;\n", start=r"^\[WARNING\]")
compile_case(
    "unknown-element-projection",
    "entity Books { key ID : Integer; title : String; }\nentity V as projection on Books { ID, titel };\n",
)
compile_case(
    "on-condition-unknown-element",
    "entity Authors { key ID : Integer; books : Association to many Books on books.writer = $self; }\n"
    "entity Books { key ID : Integer; author : Association to Authors; }\n",
)
compile_case(
    "to-many-without-on",
    "entity Authors { key ID : Integer; books : Association to many Books; }\nentity Books { key ID : Integer; }\n",
    to="sql",
)
compile_case(
    "composition-of-many-without-on",
    "entity Orders { key ID : Integer; items : Composition of many OrderItems; }\n"
    "entity OrderItems { key ID : Integer; }\n",
    to="sql",
)
compile_case("missing-key-odata", "service CatalogService { entity Books { title : String; } }\n", to="edmx")
compile_case(
    "syntax-missing-semicolon",
    "entity Books { key ID : Integer\n  title : String; }\n",
)
compile_case("syntax-typo-keyword", "entitty Books { key ID : Integer; }\n")
compile_case("reserved-word", "entity Books { key ID : Integer; select : String; }\n")
compile_case(
    "double-quoted-string", 'entity Books { key ID : Integer; title : String default "none"; }\n', start=r"^\[ERROR\]"
)
compile_case("circular-include", "entity A : B { key ID : Integer; }\nentity B : A { x : Integer; }\n")
compile_case(
    "ambiguous-element",
    "entity A { key ID : Integer; }\nentity B { key ID : Integer; }\nentity V as select from A, B { ID };\n",
)
compile_case("decimal-precision", "entity Books { key ID : Integer; price : Decimal(40, 2); }\n", to="sql")
compile_case(
    "unmanaged-key",
    "entity A { key ID : Integer; key b : Association to many B on b.a = $self; }\n"
    "entity B { key ID : Integer; a : Association to A; }\n",
)
compile_case("using-no-string", "using { my.Books } from db;\nentity X { key ID : Integer; }\n", start=r"^\[ERROR\]")
compile_case(
    "using-file-not-found",
    "using { my.Books } from '../db/nothere';\nservice CatalogService { entity Books as projection on my.Books; }\n",
    start=r"(Error|ERR|not found|Cannot)",
)
compile_case(
    "enum-undefined-symbol",
    "type Status : String enum { open; closed; }\nentity Tasks { key ID : Integer; status : Status default #done; }\n",
)
compile_case(
    "virtual-key",
    "entity Books { key ID : Integer; virtual key extra : String; }\n",
)
compile_case("redirect-unknown-target", "service S { entity Books as projection on Nope.Books; }\n")
compile_case(
    "cardinality-on-self",
    "entity Books { key ID : Integer; genre : Association to Genres on genre.ID = genre_ID; }\n"
    "entity Genres { key ID : Integer; }\n",
)


# --- cds build and other cds-dk commands -------------------------------------------------------------

CASES.append(
    Case(
        "cds-dk",
        "build-compile-error",
        "cds build --production",
        "@sap/cds-dk",
        files={
            "package.json": _pkg(),
            "db/schema.cds": "namespace my;\nentity Books { key ID : Integer; author : Association to Authors; }\n",
            "srv/cat-service.cds": "using my from '../db/schema';\nservice S { entity Books as projection on my.Books; }\n",
        },
        start=r"(CompilationError|\[ERROR\]|Error)",
        lines=3,
        link=("@sap/cds",),
    )
)
CASES.append(
    Case(
        "cds-dk",
        "build-unknown-task",
        "cds build --production",
        "@sap/cds-dk",
        files={
            "package.json": _pkg(cds={"build": {"tasks": [{"for": "nodejs-typo", "src": "srv"}]}}),
            "srv/cat-service.cds": "service S { entity Books { key ID : Integer; } }\n",
        },
        start=r"(ERROR|Error|Unknown|unknown)",
        lines=2,
        link=("@sap/cds",),
    )
)
CASES.append(
    Case(
        "cds-dk",
        "build-task-src-missing",
        "cds build --production",
        "@sap/cds-dk",
        files={
            "package.json": _pkg(cds={"build": {"tasks": [{"for": "hana", "src": "database"}]}}),
            "srv/cat-service.cds": "service S { entity Books { key ID : Integer; } }\n",
        },
        start=r"(ERROR|Error|error)",
        lines=2,
        link=("@sap/cds",),
    )
)
CASES.append(
    Case(
        "cds-dk",
        "add-unknown-facet",
        "cds add nosuchfacet",
        "@sap/cds-dk",
        files={"package.json": _pkg()},
        start=r"(Error|ERROR|Unknown|unknown|not)",
        lines=2,
        link=("@sap/cds",),
    )
)


# --- CAP runtime: what the OData adapter answers, and what the server prints at start ----------------

_RUNTIME_LINK = ("@sap/cds", "@cap-js/sqlite", "@cap-js/db-service")
_CATALOG = """namespace my;
service CatalogService {
  entity Books {
    key ID : Integer;
    @mandatory title : String(10);
    @assert.range: [0, 100] stock : Integer;
    @assert.format: '^[A-Z]+$' code : String;
    @assert.range genre : String enum { fiction; poetry };
    @assert.target author : Association to Authors;
    published : Date;
  }
  entity Authors { key ID : Integer; name : String; }
  @readonly entity Genres { key ID : Integer; }
  @insertonly entity Logs { key ID : Integer; }
  action restock(book : Integer) returns String;
  function topBook() returns String;
}
"""
_B = "/odata/v4/catalog/Books"

CASES.append(
    HttpCase(
        "cap-runtime",
        "odata",
        "cds-serve",
        "@sap/cds",
        files={"package.json": _pkg({"@sap/cds": "^10", "@cap-js/sqlite": "^3"}), "srv/cat-service.cds": _CATALOG},
        link=_RUNTIME_LINK,
        command="cds watch",
        requests=[
            ("POST", "/odata/v4/catalog/restock", '{"book":1}', {}),
            ("GET", "/odata/v4/catalog/topBook()", None, {}),
            ("POST", _B, '{"ID":1,"title":"x","foo":1}', {}),
            ("GET", "/odata/v4/catalog/Bookz", None, {}),
            ("POST", _B, '{"ID":2}', {}),
            ("POST", _B, '{"ID":3,"title":"x","stock":500}', {}),
            ("POST", _B, '{"ID":4,"title":"x","code":"abc"}', {}),
            ("POST", _B, '{"ID":5,"title":"x","genre":"drama"}', {}),
            ("POST", _B, '{"ID":6,"title":"x","stock":"many"}', {}),
            ("POST", _B, '{"ID":7,"title":"x","author_ID":99}', {}),
            ("POST", _B, '{"ID":8,"title":"this is far too long"}', {}),
            ("POST", _B, '{"ID":9,"title":"x"}', {}),  # created, so that the next one is a duplicate
            ("POST", _B, '{"ID":9,"title":"x"}', {}),
            ("POST", "/odata/v4/catalog/Genres", '{"ID":1}', {}),
            ("GET", _B + "(999)", None, {}),
            ("GET", _B + "?$filter=title%20eqq%20'x'", None, {}),
            ("GET", _B + "?$expand=reviews", None, {}),
            ("GET", _B + "('abc')", None, {}),
            ("POST", _B, '{"ID":10,', {}),
            ("GET", _B + "?$select=titel", None, {}),
            ("GET", _B + "?$top=abc", None, {}),
            ("POST", _B, '{"ID":11,"title":"x","published":"yesterday"}', {}),
            ("GET", "/odata/v4/catalog/Logs", None, {}),
            ("POST", _B, '{"ID":"thirteen","title":"x"}', {}),
            ("GET", _B + "?$filter=ID%20gt", None, {}),
            ("GET", _B + "?$filter=substringof('x',title)", None, {}),
        ],
        names=[
            "action-no-handler",
            "function-no-handler",
            "unknown-property-post",
            "invalid-resource-path",
            "assert-not-null",
            "assert-range",
            "assert-format",
            "assert-enum",
            "assert-data-type-integer",
            "assert-target",
            "assert-max-length",
            "_created",
            "entity-already-exists",
            "readonly-entity",
            "entity-not-found",
            "filter-syntax",
            "expand-unknown-navigation",
            "key-wrong-type",
            "invalid-json-body",
            "select-unknown-property",
            "top-not-integer",
            "assert-data-type-date",
            "insertonly-read",
            "assert-data-type-key",
            "filter-incomplete",
            "filter-unknown-function",
        ],
    )
)


def serve_start(scenario: str, files: dict[str, str], start: str, lines: int = 3, link=_RUNTIME_LINK, **kw) -> None:
    """A server that fails while starting: the message is what it printed."""
    CASES.append(
        Case(
            "cap-runtime",
            scenario,
            kw.pop("cmd", "timeout 25 cds-serve"),
            "@sap/cds",
            files=files,
            start=start,
            lines=lines,
            link=link,
            command=kw.pop("command", "cds watch"),
            **kw,
        )
    )


_SRV = "service CatalogService { entity Books { key ID : Integer; title : String; } }\n"
_PKG_SQLITE = _pkg({"@sap/cds": "^10", "@cap-js/sqlite": "^3"})
serve_start(
    "impl-syntax-error",
    {"package.json": _PKG_SQLITE, "srv/cat-service.cds": _SRV, "srv/cat-service.js": "module.exports = (srv => {\n"},
    r"(Failed loading|SyntaxError)",
    lines=4,
)
serve_start(
    "impl-missing-module",
    {
        "package.json": _PKG_SQLITE,
        "srv/cat-service.cds": _SRV,
        "srv/cat-service.js": "const axios = require('axios-nothere')\nmodule.exports = srv => {}\n",
    },
    r"(Failed loading|Cannot find module)",
    lines=4,
)
serve_start(
    "impl-throws-at-load",
    {
        "package.json": _PKG_SQLITE,
        "srv/cat-service.cds": _SRV,
        "srv/cat-service.js": "const cfg = undefined\nconst url = cfg.url\nmodule.exports = srv => {}\n",
    },
    r"(Failed loading|TypeError)",
    lines=4,
)
serve_start(
    "hana-not-bound",
    {"package.json": _pkg(cds={"requires": {"db": "hana"}}), "srv/cat-service.cds": _SRV},
    r"^Error:",
    lines=1,
    base="cache",
    link=("@sap/cds",),
)
serve_start(
    "no-configuration-requires",
    {
        "package.json": _PKG_SQLITE,
        "srv/cat-service.cds": _SRV,
        "srv/cat-service.js": "const cds = require('@sap/cds')\nmodule.exports = async srv => { await cds.connect.to('API_BUSINESS_PARTNER') }\n",
    },
    r"(No configuration found|Error)",
    lines=2,
)
serve_start(
    "compile-error-at-start",
    {
        "package.json": _PKG_SQLITE,
        "srv/cat-service.cds": "service CatalogService { entity Books { key ID : Integer; title String; } }\n",
    },
    r"^CompilationError",
    lines=2,
)
serve_start(
    "node-engine-too-old",
    {"package.json": _PKG_SQLITE, "srv/cat-service.cds": _SRV},
    r"(Node|node|engine|version)",
    lines=3,
    env={"PATH": "{tools}/node_modules/.bin:/usr/bin:/bin"},
    command="cds watch   # with Node.js 20",
)
serve_start(
    "unknown-db-kind",
    {
        "package.json": _pkg({"@sap/cds": "^10"}, cds={"requires": {"db": {"kind": "postgres"}}}),
        "srv/cat-service.cds": _SRV,
    },
    r"(Error|Cannot find|postgres)",
    lines=4,
    link=("@sap/cds",),
)
serve_start(
    "auth-jwt-no-binding",
    {
        "package.json": _pkg({"@sap/cds": "^10", "@cap-js/sqlite": "^3"}, cds={"requires": {"auth": "jwt"}}),
        "srv/cat-service.cds": _SRV,
    },
    r"^Error:",
    lines=1,
)


def cdsc_case(scenario: str, source: str, command: str = "toCsn", lines: int = 6) -> None:
    """The compiler's own CLI (and `cds compile` in a terminal with colours) prints a code excerpt."""
    CASES.append(
        Case(
            "cds-compiler",
            scenario,
            f"cdsc {command} srv/cat-service.cds",
            "@sap/cds-compiler",
            files={"srv/cat-service.cds": source},
            start=r"^(Error|Warning|Info)\[",
            lines=lines,
        )
    )


cdsc_case(
    "cdsc-duplicate-definition",
    "namespace my;\nentity Books { key ID : Integer; }\nentity Books { key ID : Integer; title : String; }\n",
)
cdsc_case("cdsc-unknown-type", "entity Books { key ID : Integer; author : Association to Writers; }\n")
cdsc_case(
    "cdsc-to-many-without-on",
    "entity Authors { key ID : Integer; books : Association to many Books; }\nentity Books { key ID : Integer; }\n",
    "toSql",
)
cdsc_case("cdsc-missing-key", "service CatalogService { entity Books { title : String; } }\n", "toOdata")
cdsc_case("cdsc-syntax", "entity Books { key ID : Integer\n  title String; }\n")


# --- @ui5/linter: one project that breaks every rule the linter can see in JS, XML, HTML, manifest ---

_UI5_FILES = {
    "package.json": '{"name": "demo.app", "version": "1.0.0"}\n',
    "ui5.yaml": (
        'specVersion: "4.0"\nmetadata:\n  name: demo.app\ntype: application\nframework:\n  name: SAPUI5\n'
        '  version: "1.120.0"\n  libraries:\n    - name: sap.m\n    - name: sap.ui.commons\n'
    ),
    "webapp/manifest.json": json.dumps(
        {
            "_version": "1.12.0",
            "sap.app": {"id": "demo.app", "type": "application", "applicationVersion": {"version": "1.0.0"}},
            "sap.ui5": {
                "dependencies": {"minUI5Version": "1.60.0", "libs": {"sap.m": {}, "sap.ui.commons": {}}},
                "rootView": {"viewName": "demo.app.view.Main", "type": "XML", "async": False},
                "routing": {"config": {"async": False}},
                "resources": {"js": [{"uri": "lib/x.js"}]},
                "models": {"": {"type": "sap.ui.model.odata.ODataModel", "settings": {}}},
            },
            "sap.ui": {"technology": "UI5"},
        },
        indent=2,
    ),
    "webapp/Component.js": (
        'sap.ui.define(["sap/ui/core/UIComponent"], function (UIComponent) {\n  "use strict";\n'
        '  return UIComponent.extend("demo.app.Component", {\n    metadata: { manifest: "json", async: true }\n  });\n});\n'
    ),
    "webapp/controller/Main.controller.js": (
        'sap.ui.define(["sap/ui/core/mvc/Controller", "sap/ui/core/library"], function (Controller, coreLib) {\n'
        '  "use strict";\n  jQuery.sap.require("sap.m.MessageToast");\n'
        '  return Controller.extend("demo.app.controller.Main", {\n    onInit: function () {\n'
        "      var oModel = new sap.ui.model.json.JSONModel();\n      jQuery.sap.log.info('x');\n"
        "      sap.ui.getCore().attachInit(function () {});\n      sap.ui.getCore().byId('x');\n"
        "      jQuery.sap.delayedCall(10, this, function () {});\n      var s = jQuery.sap.encodeHTML('<b>');\n"
        "    },\n    onPress: function () {}\n  });\n});\n"
    ),
    "webapp/view/Main.view.xml": (
        '<mvc:View controllerName="demo.app.controller.Main" xmlns:mvc="sap.ui.core.mvc" xmlns="sap.m" '
        'xmlns:c="sap.ui.commons">\n  <Page title="x">\n    <Button text="a" press="onPress" />\n'
        '    <c:Button text="b" />\n  </Page>\n</mvc:View>\n'
    ),
    "webapp/view/Broken.view.xml": '<mvc:View xmlns:mvc="sap.ui.core.mvc" xmlns="sap.m">\n  <Button text="a\n</mvc:View>\n',
    "webapp/index.html": (
        '<!DOCTYPE html>\n<html><head>\n<script id="sap-ui-bootstrap" src="resources/sap-ui-core.js" '
        'data-sap-ui-theme="sap_bluecrystal" data-sap-ui-libs="sap.m" data-sap-ui-xx-bindingSyntax="complex" '
        'data-sap-ui-compatVersion="edge"></script>\n<script>sap.ui.getCore().attachInit(function(){ });</script>\n'
        "</head><body></body></html>\n"
    ),
    "webapp/test/testsuite.qunit.html": (
        '<!DOCTYPE html><html><head><script src="../resources/sap/ui/qunit/qunit-redirect.js"></script>'
        "</head><body></body></html>\n"
    ),
    "webapp/MyControl.js": (
        'sap.ui.define(["sap/ui/core/Control"], function (Control) {\n  return Control.extend("demo.app.MyControl", '
        '{ metadata: {}, renderer: function (oRm, oControl) { oRm.write("<div>"); } });\n});\n'
    ),
    "webapp/Pseudo.js": (
        'sap.ui.define(["sap/m/ButtonType", "sap/ui/core/BusyIndicator"], function (ButtonType, BusyIndicator) '
        "{ return ButtonType.Accept; });\n"
    ),
    "webapp/Bad.js": "sap.ui.define([], function () { var x = ; });\n",
}
CASES.append(
    Case(
        "ui5-linter",
        "lint",
        "ui5lint",
        "@ui5/linter",
        files=_UI5_FILES,
        each=r"^\s+\d+:\d+\s+(error|warning|fatal)\s",
        rule=r"\s([a-z0-9]+(?:-[a-z0-9]+)+)\s*$",
        timeout=300,
    )
)


# --- abaplint with the ABAP Cloud rule set (what `abaplint` prints for code that is not cloud-ready) ---

_ABAPLINT = json.dumps(
    {
        "global": {"files": "/src/**/*.*"},
        "syntax": {"version": "Cloud", "errorNamespace": "^(Z|Y|LCL_|TY_|LIF_)"},
        "rules": {
            "cloud_types": True,
            "strict_sql": True,
            "obsolete_statement": True,
            "parser_error": True,
            "check_syntax": True,
            "unknown_types": True,
            "downport": False,
            "exporting": True,
            "keyword_case": True,
            "line_length": {"length": 120},
            "prefer_inline": False,
            "use_new": True,
            "functional_writing": True,
            "sql_escape_host_variables": True,
            "select_add_order_by": True,
            "unused_variables": True,
            "form_no_dash": True,
            "preferred_compare_operator": True,
            "method_length": True,
            "no_public_attributes": True,
            "avoid_use": True,
            "empty_statement": True,
            "local_variable_names": {
                "expectedData": "^L._.+$",
                "expectedConstant": "^LC_.+$",
                "expectedFS": "^<L._.+>$",
            },
        },
    },
    indent=2,
)
_ABAP_CLASS = """CLASS zcl_demo DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    DATA counter TYPE i.
    METHODS run.
ENDCLASS.

CLASS zcl_demo IMPLEMENTATION.
  METHOD run.
    DATA lt_mara TYPE STANDARD TABLE OF mara.
    DATA lv_unused TYPE string.
    DATA o TYPE REF TO zcl_demo.
    SELECT * FROM mara INTO TABLE lt_mara WHERE matnr = counter.
    CALL FUNCTION 'BAPI_USER_GET_DETAIL' EXPORTING username = sy-uname.
    WRITE / 'hello'.
    MOVE 1 TO counter.
    CREATE OBJECT o.
    CALL METHOD o->run.
    IF counter EQ 1. ENDIF.
    SUBMIT zreport AND RETURN.
    DATA(lv_x) = cl_gui_frontend_services=>get_platform( ).
    ..
    COMMIT WORK AND WAIT.
    data lv_low type i.
  ENDMETHOD.
ENDCLASS.
"""
CASES.append(
    Case(
        "abaplint",
        "cloud",
        "abaplint",
        "@abaplint/cli",
        files={
            "abaplint.json": _ABAPLINT,
            "src/zcl_demo.clas.abap": _ABAP_CLASS,
            "src/zcl_demo.clas.xml": (
                '<?xml version="1.0" encoding="utf-8"?>\n<abapGit version="v1.0.0" serializer="LCL_OBJECT_CLAS" '
                'serializer_version="v1.0.0">\n <asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0">\n'
                "  <asx:values>\n   <VSEOCLASS>\n    <CLSNAME>ZCL_DEMO</CLSNAME>\n    <LANGU>E</LANGU>\n"
                "    <DESCRIPT>demo</DESCRIPT>\n    <STATE>1</STATE>\n    <CLSCCINCL>X</CLSCCINCL>\n"
                "    <FIXPT>X</FIXPT>\n    <UNICODE>X</UNICODE>\n   </VSEOCLASS>\n  </asx:values>\n </asx:abap>\n"
                "</abapGit>\n"
            ),
        },
        each=r"\.abap\[\d+, \d+\]",
        rule=r"\(([a-z_]+)\)\s*\[[EWI]\]\s*$",
        where=r"^.*?\]\s+-\s+",
        timeout=300,
    )
)


# --- @sap/xssec and the SAP Cloud SDK: small probes (scripts/real_messages_*.js) call the libraries as an
# app would and print each error as `ERR|<scenario>|<name>: <message>` --------------------------------

for _tool, _pkg_name, _probe in (
    ("xssec", "@sap/xssec", "real_messages_xssec.js"),
    ("cloud-sdk", "@sap-cloud-sdk/connectivity", "real_messages_cloud_sdk.js"),
):
    CASES.append(
        Case(
            _tool,
            "probe",
            "node probe.js",
            _pkg_name,
            files={"probe.js": (HERE / _probe).read_text(encoding="utf-8")},
            link=("@sap/xssec", "@sap-cloud-sdk", "@sap/cds"),
            each=r"^ERR\|",
            rule=r"^ERR\|([a-z-]+)\|",
            strip=r"^ERR\|[a-z-]+\|",
            where=r"^ERR\|[a-z-]+\|",
            command=f"node -e '<{_pkg_name} call>'",
        )
    )
CASES.append(
    Case(
        "cloud-sdk",
        "log",
        "node probe.js",
        "@sap-cloud-sdk/connectivity",
        files={"probe.js": (HERE / "real_messages_cloud_sdk.js").read_text(encoding="utf-8")},
        link=("@sap-cloud-sdk",),
        each=r"(WARN|ERROR)\s+\(",
        rule=r"\(([a-z-]+)\)",
        strip=r"^\[[^\]]+\]\s+",
        where=r"^\[[^\]]+\]\s+",
        command="node -e '<@sap-cloud-sdk/connectivity call>'   # the library's log lines",
    )
)


# --- @sap/approuter: what it prints when xs-app.json or the environment is wrong ---------------------


def approuter_case(scenario: str, xs_app: str, env: dict[str, str] | None = None) -> None:
    CASES.append(
        Case(
            "approuter",
            scenario,
            "timeout 20 node node_modules/@sap/approuter/approuter.js",
            "@sap/approuter",
            files={
                "xs-app.json": xs_app,
                "package.json": '{"name": "approuter", "dependencies": {"@sap/approuter": "^21"}}',
            },
            start=r"^VError",
            link=("@sap/approuter",),
            env={"PORT": "5123", **(env or {})},
            command="npm start   # node node_modules/@sap/approuter/approuter.js",
        )
    )


_ROUTE = '"source": "^/(.*)$"'
approuter_case("xs-app-invalid-json", '{"routes": [ { "source": "^/(.*)$", } ]}')
approuter_case("xs-app-additional-property", '{"routes": [ { ' + _ROUTE + ', "destinaton": "srv" } ]}')
approuter_case(
    "unknown-destination", '{"authenticationMethod": "none", "routes": [ { ' + _ROUTE + ', "destination": "srv" } ]}'
)
approuter_case("authentication-method-enum", '{"authenticationMethod": "basic", "routes": []}')
approuter_case(
    "destinations-env-not-json",
    '{"authenticationMethod": "none", "routes": [ { ' + _ROUTE + ', "destination": "srv" } ]}',
    {"destinations": "notjson"},
)
approuter_case(
    "destination-without-url",
    '{"authenticationMethod": "none", "routes": [ { ' + _ROUTE + ', "destination": "srv" } ]}',
    {"destinations": '[{"name": "srv"}]'},
)
approuter_case(
    "route-invalid-regex", '{"authenticationMethod": "none", "routes": [ { "source": "^/((.*$", "localDir": "." } ]}'
)
approuter_case("welcome-file-type", '{"authenticationMethod": "none", "welcomeFile": 5, "routes": []}')
approuter_case("route-missing-source", '{"authenticationMethod": "none", "routes": [ { "localDir": "." } ]}')
approuter_case(
    "route-localdir-and-destination",
    '{"authenticationMethod": "none", "routes": [ { ' + _ROUTE + ', "localDir": ".", "destination": "srv" } ]}',
    {"destinations": '[{"name": "srv", "url": "http://127.0.0.1:1"}]'},
)
_OK_ROUTES = '{"authenticationMethod": "none", "routes": [ { "source": "^/(.*)$", "localDir": "." } ]}'
for _var in ("SESSION_TIMEOUT", "httpHeaders", "CORS", "COOKIES", "WS_ALLOWED_ORIGINS"):
    approuter_case(f"env-{_var.lower()}-not-json", _OK_ROUTES, {_var: "notjson"})
approuter_case("destination-url-not-absolute", _OK_ROUTES, {"destinations": '[{"name": "srv", "url": "srv-api"}]'})
approuter_case("vcap-services-not-json", _OK_ROUTES, {"VCAP_SERVICES": "notjson"})
approuter_case("jwt-refresh-negative", _OK_ROUTES, {"JWT_REFRESH": "-5"})
approuter_case(
    "local-dir-missing", '{"authenticationMethod": "none", "routes": [ { "source": "^/(.*)$", "localDir": "dist" } ]}'
)
approuter_case(
    "logout-endpoint-type", '{"authenticationMethod": "none", "logout": { "logoutEndpoint": 5 }, "routes": []}'
)
approuter_case(
    "html5-repo-not-bound",
    '{"authenticationMethod": "none", "routes": [ { "source": "^/(.*)$", "service": "html5-apps-repo-rt" } ]}',
)
CASES.append(
    HttpCase(
        "approuter",
        "no-uaa-service",
        "node node_modules/@sap/approuter/approuter.js",
        "@sap/approuter",
        files={"xs-app.json": '{"routes": [ { "source": "^/(.*)$", "localDir": "." } ]}', "index.html": "hi"},
        link=("@sap/approuter",),
        requests=[("GET", "/index.html", None, {})],
        from_log=r"completed with status 500",
        strip=r"^#2\.0#.*?#PLAIN##|#$",
        command="npm start; GET /index.html",
    )
)


# --- npm: installing CAP and its plugins (resolution only: --package-lock-only) ---------------------


def npm_case(scenario: str, deps: dict[str, str], start: str = r"^npm (error|warn) code", lines: int = 1, **kw) -> None:
    CASES.append(
        Case(
            "npm",
            scenario,
            kw.pop("cmd", "npm install --package-lock-only --no-audit --no-fund"),
            "npm",
            files={"package.json": _pkg(deps, **kw.pop("extra", {}))},
            start=start,
            lines=lines,
            command=kw.pop("command", "npm install"),
            timeout=240,
            **kw,
        )
    )


npm_case("eresolve-cds8-sqlite3", {"@sap/cds": "^8", "@cap-js/sqlite": "^3"}, start=r"^npm error", lines=14)
npm_case("etarget-cds-99", {"@sap/cds": "^99"}, start=r"^npm error", lines=3)
npm_case("e404-misspelt-package", {"@sap/cdsx-nothere": "^1"}, start=r"^npm error (code|404)", lines=3)
npm_case(
    "ebadengine-strict",
    {"@sap/cds": "^10"},
    start=r"^npm error",
    lines=6,
    cmd="npm install --package-lock-only --no-audit --no-fund --engine-strict",
    env={"PATH": "{tools}/node_modules/.bin:/usr/bin:/bin"},
    command="npm install --engine-strict   # with Node.js 20",
)
npm_case(
    "ebadengine-warn",
    {"@sap/cds": "^10"},
    start=r"^npm warn EBADENGINE",
    lines=4,
    env={"PATH": "/usr/bin:/bin"},
    command="npm install   # with Node.js 20",
)
npm_case("eresolve-hana-cds10", {"@sap/cds": "^10", "@cap-js/hana": "^1"}, start=r"^npm error", lines=14)
npm_case("eresolve-cds9-sqlite3", {"@sap/cds": "^9", "@cap-js/sqlite": "^3"}, start=r"^npm error", lines=14)
npm_case("etarget-sqlite-9", {"@sap/cds": "^10", "@cap-js/sqlite": "^9"}, start=r"^npm error", lines=3)


# --- @ui5/cli: ui5.yaml and framework problems ---------------------------------------------------------


def ui5_case(
    scenario: str,
    ui5_yaml: str | None,
    cmd: str = "ui5 build",
    start: str = r"^Error Message:",
    lines: int = 3,
    files=None,
) -> None:
    project = {
        "package.json": '{"name": "demo.app", "version": "1.0.0"}\n',
        **(files if files is not None else {"webapp/manifest.json": '{"sap.app": {"id": "demo.app"}}'}),
    }
    if ui5_yaml is not None:
        project["ui5.yaml"] = ui5_yaml
    CASES.append(
        Case(
            "ui5-cli",
            scenario,
            f"{cmd} --log-level error",
            "@ui5/cli",
            files=project,
            start=start,
            skip=1,
            lines=lines,
            command=cmd,
            timeout=240,
        )
    )


_Y = 'specVersion: "4.0"\nmetadata:\n  name: demo.app\ntype: application\n'
ui5_case("yaml-unknown-property", _Y + "resources:\n  configurations:\n    paths:\n      webapp: webapp\n")
ui5_case("yaml-missing-metadata", 'specVersion: "4.0"\ntype: application\n')
ui5_case("yaml-bad-type", 'specVersion: "4.0"\nmetadata:\n  name: demo.app\ntype: app\n')
ui5_case("yaml-syntax", 'specVersion: "4.0"\nmetadata:\n  name: demo.app\n type: application\n')
ui5_case(
    "framework-unknown-version",
    _Y + "framework:\n  name: SAPUI5\n  version: 1.999.0\n  libraries:\n    - name: sap.m\n",
    cmd="ui5 serve",
)
ui5_case(
    "framework-unknown-library",
    _Y + "framework:\n  name: OpenUI5\n  version: 1.120.0\n  libraries:\n    - name: sap.nothere\n",
    cmd="ui5 serve",
)
ui5_case("framework-bad-name", _Y + "framework:\n  name: UI5\n  version: 1.120.0\n")
ui5_case("no-ui5-yaml", None)
ui5_case("missing-manifest", _Y, files={"webapp/index.html": "<html></html>"})
ui5_case("manifest-not-json", _Y, files={"webapp/manifest.json": '{"sap.app": {"id": '})
ui5_case("missing-webapp", _Y, files={})
ui5_case("unknown-command", _Y, cmd="ui5 biuld", start=r"^Command Failed", lines=1)
ui5_case(
    "unknown-custom-task",
    _Y + "builder:\n  customTasks:\n    - name: ui5-task-zipper\n      afterTask: generateVersionInfo\n",
)


# --- @sap/hdi-deploy: the db module's deployer, run without a reachable SAP HANA -------------------

_HANA_BINDING = json.dumps(
    {
        "hana": [
            {
                "name": "bookshop-db",
                "label": "hana",
                "tags": ["hana"],
                "plan": "hdi-shared",
                "credentials": {
                    "host": "127.0.0.1",
                    "port": "1",
                    "user": "U",
                    "password": "P",
                    "schema": "S",
                    "hdi_user": "HU",
                    "hdi_password": "HP",
                    "certificate": "",
                },
            }
        ]
    }
)
_HDICONFIG = '{"file_suffixes": {"hdbtable": {"plugin_name": "com.sap.hana.di.table"}}}\n'


def hdi_case(scenario: str, vcap: str | None, start: str, files: dict[str, str] | None = None) -> None:
    CASES.append(
        Case(
            "hdi-deploy",
            scenario,
            "timeout 120 node node_modules/@sap/hdi-deploy/deploy.js",
            "@sap/hdi-deploy",
            files={
                "package.json": '{"name": "deployer", "dependencies": {"@sap/hdi-deploy": "^5"}}',
                **(files or {"src/.hdiconfig": _HDICONFIG}),
            },
            start=start,
            link=("@sap/hdi-deploy",),
            env={"VCAP_SERVICES": vcap} if vcap is not None else {},
            command="npm start   # in db/ (node node_modules/@sap/hdi-deploy/deploy.js)",
            timeout=180,
        )
    )


hdi_case("no-service-binding", None, r"^Error:")
hdi_case("vcap-not-json", "{bad", r"^Error:")
hdi_case("hana-unreachable", _HANA_BINDING, r"^Detection of server version failed")
hdi_case("hana-unreachable-final", _HANA_BINDING, r"^Error:")


# --- a project that has @sap/cds but forgot its plugins (node_modules with @sap/cds alone) -----------

serve_start(
    "missing-cap-js-sqlite",
    {"package.json": _pkg(cds={"requires": {"db": "sqlite"}}), "srv/cat-service.cds": _SRV},
    r"^Error: Failed loading",
    lines=4,
    link=("@sap/cds",),
    base="cds-only",
    cmd="timeout 25 node node_modules/@sap/cds/bin/serve.js",
)
serve_start(
    "missing-cap-js-hana",
    {"package.json": _pkg(cds={"requires": {"db": "hana"}}), "srv/cat-service.cds": _SRV},
    r"^Error: Failed loading",
    lines=4,
    link=("@sap/cds",),
    base="cds-only",
    cmd="timeout 25 node node_modules/@sap/cds/bin/serve.js",
)
serve_start(
    "missing-sap-xssec",
    {"package.json": _pkg(cds={"requires": {"auth": "xsuaa"}}), "srv/cat-service.cds": _SRV},
    r"^Error: Cannot find '@sap/xssec'",
    lines=2,
    link=("@sap/cds",),
    base="cds-only",
    cmd="timeout 25 node node_modules/@sap/cds/bin/serve.js",
)

CASES.append(
    Case(
        "cds-dk",
        "cds-dk-10-with-cds-8",
        "timeout 60 cds watch",
        "@sap/cds-dk",
        files={"package.json": _pkg({"@sap/cds": "^8"}), "srv/cat-service.cds": _SRV},
        start=r"This application uses '@sap/cds' version",
        lines=4,
        link=("@sap/cds",),
        base="cds8",
        command="cds watch",
    )
)

# A token that is not a JWT, sent to a CAP service protected by XSUAA (the binding is a stand-in; the
# token is rejected before any key is fetched)
_XSUAA_VCAP = json.dumps(
    {
        "xsuaa": [
            {
                "name": "bookshop-auth",
                "label": "xsuaa",
                "tags": ["xsuaa"],
                "credentials": {
                    "clientid": "sb-bookshop!t1",
                    "clientsecret": "secret",
                    "url": "https://demo.authentication.eu10.hana.ondemand.com",
                    "uaadomain": "authentication.eu10.hana.ondemand.com",
                    "xsappname": "bookshop!t1",
                },
            }
        ]
    }
)
for _scenario, _log in (("xsuaa-invalid-token-response", ""), ("xsuaa-invalid-token-log", r"(Jwt|JWT|401)")):
    CASES.append(
        HttpCase(
            "cap-runtime",
            _scenario,
            "cds-serve",
            "@sap/cds",
            files={
                "package.json": _pkg({"@sap/cds": "^10", "@sap/xssec": "^4"}, cds={"requires": {"auth": "xsuaa"}}),
                "srv/cat-service.cds": _SRV,
            },
            link=("@sap/cds", "@sap/xssec"),
            env={"VCAP_SERVICES": _XSUAA_VCAP},
            requests=[("GET", "/odata/v4/catalog/Books", None, {"Authorization": "Bearer not-a-jwt"})],
            from_log=_log,
            lines=2,
            command="cds watch",
        )
    )


# A second UI5 project: an app already on manifest version 2 and UI5 1.136 that still uses what UI5 2.x drops
_UI5_FILES_2 = {
    "package.json": '{"name":"demo.two","version":"1.0.0"}\n',
    "ui5.yaml": 'specVersion: "4.0"\nmetadata:\n  name: demo.two\ntype: application\nframework:\n  name: SAPUI5\n  version: "1.136.0"\n  libraries:\n    - name: sap.m\n',
    "webapp/Component.js": 'sap.ui.define(["sap/ui/core/UIComponent"], function (UIComponent) {\n  "use strict";\n  return UIComponent.extend("demo.two.Component", {\n    metadata: { interfaces: ["sap.ui.core.IAsyncContentCreation"], manifest: "json", async: true }\n  });\n});\n',
    "webapp/Other.js": 'sap.ui.define(["sap/ui/core/mvc/View", "sap/ui/model/json/JSONModel", "sap/m/Text", "sap/ui/core/CSSSize", "sap/ui/core/Component", "sap/ui/core/theming/Parameters", "sap/ui/core/routing/Router"], function (View, JSONModel, Text, CSSSize, Component, Parameters, Router) {\n  "use strict";\n  View.create({ viewName: "demo.two.view.X", type: "HTML" });\n  var m = new JSONModel();\n  m.loadData("x.json", {}, false);\n  new Text({ text: { path: "/a", formatter: "demo.two.format" } });\n  Component.create({ name: "demo.two", async: false });\n  Parameters.get("sapUiBaseColor");\n  new Router([], { async: false });\n  return CSSSize;\n});\n',
    "webapp/control/MyControl.js": 'sap.ui.define(["sap/ui/core/Control"], function (Control) {\n  return Control.extend("demo.two.control.MyControl", { metadata: {}, rerender: function () {}, renderer: "demo.two.control.MyControlRenderer" });\n});\n',
    "webapp/control/NoRenderer.js": 'sap.ui.define(["sap/ui/core/Control"], function (Control) {\n  return Control.extend("demo.two.control.NoRenderer", { metadata: {} });\n});\n',
    "webapp/index.html": '<!DOCTYPE html>\n<html><head>\n<script id="sap-ui-bootstrap" src="resources/sap-ui-core.js" data-sap-ui-async="true" data-sap-ui-theme="sap_horizon" data-sap-ui-preload="sync" data-sap-ui-xx-waitForTheme="true" data-sap-ui-theme="sap_horizon" data-sap-ui-manifestFirst="true"></script>\n</head><body></body></html>\n',
    "webapp/manifest.json": '{\n  "_version": "2.0.0",\n  "sap.app": {"id": "demo.two", "type": "application", "applicationVersion": {"version": "1.0.0"}},\n  "sap.ui5": {\n    "dependencies": {"minUI5Version": "1.136.0", "libs": {"sap.m": {}}},\n    "rootView": {"viewName": "demo.two.view.Main", "type": "XML", "async": true},\n    "resources": {"js": [{"uri": "lib/x.js"}]},\n    "models": {"": {"type": "sap.ui.model.odata.v2.ODataModel", "settings": {"synchronizationMode": "None"}}}\n  }\n}\n',
    "webapp/view/Main.view.xml": '<mvc:View xmlns:mvc="sap.ui.core.mvc" xmlns="sap.m" xmlns:html="http://www.w3.org/1999/xhtml" xmlns:svg="http://www.w3.org/2000/svg">\n  <Page title="x" navButtonText="back">\n    <html:div>native</html:div>\n    <svg:svg><svg:circle r="1"/></svg:svg>\n    <Text text="{= odata.compare(${a}, ${b}) }" />\n  </Page>\n</mvc:View>\n',
}
CASES.append(
    Case(
        "ui5-linter",
        "lint2",
        "ui5lint",
        "@ui5/linter",
        files=_UI5_FILES_2,
        each=r"^\s+\d+:\d+\s+(error|warning|fatal)\s",
        rule=r"\s([a-z0-9]+(?:-[a-z0-9]+)+)\s*$",
        timeout=300,
    )
)


# --- more compiler messages: redirection, OData names, association targets ---------------------------

compile_case(
    "redirection-target-ambiguous",
    "entity A { key ID : Integer; b : Association to B; }\nentity B { key ID : Integer; }\n"
    "service S { entity A1 as projection on A; entity B1 as projection on B; entity B2 as projection on B; }\n",
    to="edmx",
)
compile_case("association-to-type", "type T : String;\nentity A { key ID : Integer; b : Association to T; }\n")
compile_case("odata-name-invalid", "service S { entity ![Sales-Orders] { key ID : Integer; } }\n", to="edmx")
compile_case("array-as-key", "entity A { key ID : Integer; key tags : many String; }\n", to="sql")
compile_case("localized-key", "entity A { key ID : localized String; }\n", to="sql")
compile_case("function-returns-unknown", "service S { function top() returns Bestseller; }\n")
compile_case("calculated-element-unknown", "entity A { key ID : Integer; total = price * 2; }\n")
compile_case("numeric-enum-no-value", "type Level : Integer enum { low; high = 2; }\n")

_SECURED = """service AdminService @(requires: 'admin') {
  entity Books { key ID : Integer; title : String; }
}
@odata.draft.enabled
entity AdminService.Drafts { key ID : UUID; title : String; }
service CatalogService {
  @restrict: [{ grant: 'READ', where: 'createdBy = $user' }]
  entity Orders { key ID : Integer; createdBy : String; }
}
"""
CASES.append(
    HttpCase(
        "cap-runtime",
        "security-and-draft",
        "cds-serve",
        "@sap/cds",
        files={"package.json": _PKG_SQLITE, "srv/admin-service.cds": _SECURED},
        link=_RUNTIME_LINK,
        command="cds watch",
        requests=[
            ("GET", "/odata/v4/admin/Books", None, {}),
            ("GET", "/odata/v4/admin/Books", None, {"Authorization": "Basic Ym9iOg=="}),
            ("GET", "/odata/v4/admin/Books", None, {"Authorization": "Basic YWxpY2U6d3Jvbmc="}),
            ("POST", "/odata/v4/admin/Drafts", '{"title": "x"}', {"Authorization": "Basic YWxpY2U6"}),
            (
                "PATCH",
                "/odata/v4/admin/Drafts(ID=1,IsActiveEntity=true)",
                '{"title": "y"}',
                {"Authorization": "Basic YWxpY2U6"},
            ),
            (
                "GET",
                "/odata/v4/admin/Drafts(ID=99999999-9999-9999-9999-999999999999,IsActiveEntity=false)",
                None,
                {"Authorization": "Basic YWxpY2U6"},
            ),
            (
                "POST",
                "/odata/v4/admin/Drafts(ID=99999999-9999-9999-9999-999999999999,IsActiveEntity=false)/AdminService.draftActivate",
                "{}",
                {"Authorization": "Basic YWxpY2U6"},
            ),
        ],
        names=[
            "_requires-unauthenticated",  # "Unauthorized", the same as xsuaa-invalid-token-response
            "requires-wrong-role",
            "_mocked-any-password",  # mocked users accept any password: no message
            "_draft-created",
            "_draft-patch-active",  # "Not Found", the same as entity-not-found
            "_draft-not-found",
            "draft-activate-not-found",
        ],
    )
)


# abaplint over a report and a class that use what ABAP Cloud does not have
_ABAPLINT_2 = {
    "abaplint.json": '{\n  "global": {\n    "files": "/src/**/*.*"\n  },\n  "syntax": {\n    "version": "Cloud",\n    "errorNamespace": "^(Z|Y|LCL_|TY_|LIF_)"\n  },\n  "rules": {\n    "cloud_types": true,\n    "obsolete_statement": true,\n    "parser_error": true,\n    "check_syntax": true,\n    "unknown_types": true,\n    "exporting": true,\n    "check_text_elements": true,\n    "sql_escape_host_variables": true,\n    "strict_sql": true,\n    "avoid_use": true,\n    "check_ddic": true,\n    "release_in_name": true,\n    "forbidden_identifier": true,\n    "method_implemented_twice": true,\n    "unused_types": true,\n    "superclass_final": true,\n    "implement_methods": true,\n    "cyclic_oo": true,\n    "identical_form_names": true,\n    "msag_consistency": true,\n    "definitions_top": true,\n    "try_without_catch": true,\n    "select_single_full_key": true,\n    "dangerous_statement": true,\n    "db_operation_in_loop": true,\n    "no_inline_in_optional_branches": true,\n    "allowed_object_types": true,\n    "check_include": true,\n    "sy_modification": true,\n    "uncaught_exception": true,\n    "omit_parameter_name": true,\n    "prefer_returning_to_exporting": true,\n    "prefer_xsdbool": true,\n    "use_line_exists": true,\n    "use_bool_expression": true,\n    "unnecessary_return": true\n  }\n}',
    "src/zcl_demo2.clas.abap": "CLASS zcl_demo2 DEFINITION PUBLIC FINAL CREATE PUBLIC INHERITING FROM cl_nothere.\n  PUBLIC SECTION.\n    METHODS run RAISING cx_static_check.\n    METHODS missing.\nENDCLASS.\n\nCLASS zcl_demo2 IMPLEMENTATION.\n  METHOD run.\n    DATA lt_tab TYPE STANDARD TABLE OF i WITH DEFAULT KEY.\n    DATA lv_unknown TYPE zdoes_not_exist.\n    DATA lv_lines TYPE i.\n    DATA ls_t000 TYPE t000.\n    DESCRIBE TABLE lt_tab LINES lv_lines.\n    REFRESH lt_tab.\n    SELECT SINGLE * FROM t000 INTO @ls_t000.\n    LOOP AT lt_tab INTO DATA(lv_x).\n      SELECT SINGLE mandt FROM t000 INTO @DATA(lv_m).\n    ENDLOOP.\n    sy-subrc = 4.\n    TRY.\n      lv_lines = 1.\n    ENDTRY.\n    CALL TRANSACTION 'SE38'.\n    RAISE EXCEPTION TYPE cx_sy_zerodivide.\n  ENDMETHOD.\nENDCLASS.\n",
    "src/zcl_demo2.clas.xml": '<?xml version="1.0" encoding="utf-8"?>\n<abapGit version="v1.0.0" serializer="LCL_OBJECT_CLAS" serializer_version="v1.0.0">\n <asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0">\n  <asx:values>\n   <VSEOCLASS>\n    <CLSNAME>ZCL_DEMO2</CLSNAME>\n    <LANGU>E</LANGU>\n    <DESCRIPT>demo</DESCRIPT>\n    <STATE>1</STATE>\n    <CLSCCINCL>X</CLSCCINCL>\n    <FIXPT>X</FIXPT>\n    <UNICODE>X</UNICODE>\n   </VSEOCLASS>\n  </asx:values>\n </asx:abap>\n</abapGit>\n',
    "src/zdemo_report.prog.abap": "REPORT zdemo_report.\nWRITE 'x'.\n",
    "src/zdemo_report.prog.xml": '<?xml version="1.0" encoding="utf-8"?>\n<abapGit version="v1.0.0" serializer="LCL_OBJECT_PROG" serializer_version="v1.0.0">\n <asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0">\n  <asx:values>\n   <PROGDIR><NAME>ZDEMO_REPORT</NAME><SUBC>1</SUBC><RLOAD>E</RLOAD><FIXPT>X</FIXPT><UCCHECK>X</UCCHECK></PROGDIR>\n  </asx:values>\n </asx:abap>\n</abapGit>\n',
}
CASES.append(
    Case(
        "abaplint",
        "cloud2",
        "abaplint",
        "@abaplint/cli",
        files=_ABAPLINT_2,
        each=r"\.(abap|xml)\[\d+, \d+\]",
        rule=r"\(([a-z_]+)\)\s*\[[EWI]\]\s*$",
        where=r"^.*?\]\s+-\s+",
        timeout=300,
    )
)


# --- other cds-dk commands run where something is missing -------------------------------------------


def dk_case(scenario: str, cmd: str, start: str, files: dict[str, str] | None = None, lines: int = 1, **kw) -> None:
    CASES.append(
        Case(
            "cds-dk",
            scenario,
            f"timeout 90 {cmd}",
            "@sap/cds-dk",
            files=files if files is not None else {"package.json": _pkg(), "srv/cat-service.cds": _SRV},
            start=start,
            lines=lines,
            link=kw.pop("link", ("@sap/cds",)),
            command=cmd,
            **kw,
        )
    )


dk_case("deploy-hana-without-db-folder", "cds deploy --to hana", r"BuildError")
dk_case("import-missing-file", "cds import srv/external/API_BUSINESS_PARTNER.edmx", r"^Error:")
dk_case(
    "init-broken-package-json",
    "cds init bookshop",
    r"SyntaxError",
    files={"bookshop/package.json": '{\n  "name": "bookshop",\n}\n'},
    lines=2,
    link=(),
)
dk_case("compile-unknown-target", "cds compile srv --to hdbtablex", r"Unknown model processor")
dk_case("watch-unknown-folder", "cds watch bookshop", r"^Error: No such folder")
dk_case("compile-file-not-found", "cds compile srv/catalog-service.cds", r"Couldn't find a CDS model")
dk_case(
    "deploy-sqlite-folder-missing",
    "cds deploy --to sqlite:db/data/bookshop.sqlite",
    r"^Error: unable to open database file",
    files={"package.json": _PKG_SQLITE, "srv/cat-service.cds": _SRV},
    link=_RUNTIME_LINK,
    lines=3,
)


# --- npm scripts and Node.js module loading (CAP projects are Node.js projects) -----------------------

npm_case(
    "missing-script", {"@sap/cds": "^10"}, start=r"^npm error Missing script", cmd="npm run start", command="npm start"
)
CASES.append(
    Case(
        "npm",
        "no-package-json",
        "npm run start",
        "npm",
        start=r"^npm error enoent Could not read package.json",
        command="npm start   # in a folder without package.json",
    )
)
CASES.append(
    Case(
        "npm",
        "ejsonparse",
        "npm install --package-lock-only --no-audit --no-fund",
        "npm",
        files={"package.json": '{\n  "name": "bookshop",\n  "dependencies": { "@sap/cds": "^10", }\n}\n'},
        start=r"^npm error code EJSONPARSE",
        lines=3,
        command="npm install",
    )
)
npm_case(
    "ci-without-lockfile",
    {"@sap/cds": "^10"},
    start=r"^npm error The `npm ci`",
    lines=3,
    cmd="npm ci",
    command="npm ci",
)


def node_case(scenario: str, files: dict[str, str], start: str, lines: int = 1) -> None:
    CASES.append(
        Case(
            "node",
            scenario,
            "node srv/server.js",
            "node",
            files=files,
            start=start,
            lines=lines,
            command="cds watch   # srv/server.js",
        )
    )


node_case(
    "esm-package-not-found",
    {"package.json": '{"type": "module"}', "srv/server.js": "import cds from '@sap/cds-nothere'\n"},
    r"^Error \[ERR_MODULE_NOT_FOUND\]",
)
node_case(
    "esm-relative-without-extension",
    {
        "package.json": '{"type": "module"}',
        "srv/server.js": "import { handlers } from './handlers'\n",
        "srv/handlers.js": "export const handlers = 1\n",
    },
    r"^Error \[ERR_MODULE_NOT_FOUND\]",
)
node_case(
    "require-in-esm",
    {"package.json": '{"type": "module"}', "srv/server.js": "const cds = require('@sap/cds')\n"},
    r"^ReferenceError: require is not defined",
    lines=2,
)
ui5_case("use-unknown-version", _Y, cmd="ui5 use sapui5@1.999.0")
ui5_case("add-without-framework", _Y, cmd="ui5 add sap.m")
ui5_case("future-spec-version", 'specVersion: "5.9"\nmetadata:\n  name: demo.app\ntype: application\n', lines=2)
ui5_case(
    "custom-middleware-not-installed",
    _Y + "server:\n  customMiddleware:\n    - name: fiori-tools-proxy\n      afterMiddleware: compression\n",
    cmd="ui5 serve",
    lines=1,
)
ui5_case("library-without-src", 'specVersion: "4.0"\nmetadata:\n  name: demo.lib\ntype: library\n', lines=1)


_MORE = """using { cuid } from '@sap/cds/common';
service S {
  entity Books : cuid { title : String; author : Association to Authors; }
  entity Authors : cuid { name : String; }
  @Capabilities.DeleteRestrictions.Deletable: false
  @Capabilities.InsertRestrictions.Insertable: false
  entity Locked : cuid { name : String; }
}
"""
_S = "/odata/v4/s"
CASES.append(
    HttpCase(
        "cap-runtime",
        "odata-more",
        "cds-serve",
        "@sap/cds",
        files={"package.json": _PKG_SQLITE, "srv/s.cds": _MORE},
        link=_RUNTIME_LINK,
        command="cds watch",
        requests=[
            ("PUT", _S + "/Books", '{"title": "x"}', {}),
            ("POST", _S + "/Books", '{"title": "x", "author": {"name": "Emily"}}', {}),
            ("POST", _S + "/Locked", '{"name": "x"}', {}),
            ("DELETE", _S + "/Locked(11111111-1111-1111-1111-111111111111)", None, {}),
            ("GET", _S + "/Books?$apply=sum(x)", None, {}),
            ("GET", _S + "/Books?$count=maybe", None, {}),
            ("POST", _S + "/Books", '[{"title": "a"}, {"title": "b"}]', {}),
            ("GET", "/odata/v2/s/Books", None, {}),
            ("GET", _S + "/Books?$expand=author($select=fullName)", None, {}),
        ],
        names=[
            "put-on-collection",
            "deep-insert-association",
            "not-insertable",
            "not-deletable",
            "apply-unknown-transformation",
            "count-not-boolean",
            "post-array",
            "odata-v2-not-served",
            "expand-select-unknown",
        ],
    )
)
compile_case("annotation-assigned-twice", "@title: 'Books' @title: 'All books'\nentity Books { key ID : Integer; }\n")
compile_case("cuid-without-using", "entity Books : cuid, managed { title : String; }\n")
compile_case("calculated-key", "entity Books { key ID : Integer = 1; }\n")
compile_case(
    "view-without-key",
    "entity Books { key ID : Integer; title : String; }\nservice S { entity Titles as select from Books { title }; }\n",
    to="edmx",
)
compile_case(
    "default-not-constant",
    'entity Books { key ID : Integer; stock : Integer default "none"; }\n',
    start=r"constant expression",
)
compile_case(
    "view-unknown-parameter",
    "entity Books { key ID : Integer; }\nentity V(p : Integer) as select from Books { ID } where ID = :q;\n",
)
compile_case(
    "array-in-odata-v2",
    "type Tag { name : String; }\nservice S { entity Books { key ID : Integer; tags : many Tag; } }\n",
    to="edmx-v2",
    start=r"^\[WARNING\]",
)
# @sap/approuter 23.0.0 pins @sap/logging 9.2.1, which npm does not have (seen while installing the tools)
npm_case("etarget-approuter-23-logging", {"@sap/approuter": "23.0.0"}, start=r"^npm error", lines=3)
