"""manifest.json ``sap.app.id`` against the namespace the app's Component declares.

The SAPUI5 documentation ("Descriptor for Applications, Components, and Libraries", ``sap.app/id``):
for an app or a reuse component the id "must match the namespace provided in the corresponding
Component.js". The launchpad and the HTML5 application repository address the app by its id, so a
Component class named for another namespace (``UIComponent.extend("<ns>.Component")`` in JavaScript,
``@namespace <ns>`` in TypeScript, which the UI5 transpiler turns into the same) looks for its
views and texts under a path they never registered. A local preview whose index.html maps the
Component's namespace still works, which is why this is a warning: it hurts once deployed.
"""

from __future__ import annotations

import re
from pathlib import Path

from sap_devs.doctor.project import Detection, Finding, _Reader, _show

_EXTEND = re.compile(r"""\.extend\(\s*["']([\w.$-]{1,200})\.Component["']""")
_TS_NAMESPACE = re.compile(r"@namespace\s+([\w.$-]{1,200})")


def _declared(component: Path, reader: _Reader) -> tuple[str, int] | None:
    """The namespace the Component declares and its line, when it declares one plainly."""
    text = reader.text(component)
    if not text:
        return None
    pattern = _TS_NAMESPACE if component.suffix == ".ts" else _EXTEND
    match = pattern.search(text[:200_000])
    if not match:
        return None
    return match.group(1), text.count("\n", 0, match.start()) + 1


def namespace_findings(root: Path, reader: _Reader, det: Detection) -> list[Finding]:
    out: list[Finding] = []
    for app in det.ui5_apps:
        webapp = (root / app) / "webapp"
        manifest = reader.json(webapp / "manifest.json") if reader.is_file(webapp / "manifest.json") else None
        sap_app = manifest.get("sap.app") if manifest is not None else None
        app_id = sap_app.get("id") if isinstance(sap_app, dict) else None
        if not isinstance(app_id, str) or not app_id:
            continue  # a missing id is its own finding
        sap_ui5 = manifest.get("sap.ui5") if manifest is not None else None
        # an app variant names the component it varies in sap.ui5/componentName
        variant_of = sap_ui5.get("componentName") if isinstance(sap_ui5, dict) else None
        for name in ("Component.ts", "Component.js"):
            component = webapp / name
            if not reader.is_file(component):
                continue
            declared = _declared(component, reader)
            if declared is None or declared[0] in (app_id, variant_of):
                break
            namespace, line = declared
            what = f"@namespace {namespace}" if name.endswith(".ts") else f"'{namespace}.Component'"
            out.append(
                Finding(
                    "ui5",
                    "warning",
                    f"{reader.show(component)} declares {_show(what)[1:-1]}, but manifest.json sap.app.id is "
                    f"{_show(app_id)}; UI5 requires the two to match: the launchpad and the HTML5 application "
                    f"repository address the app as '{app_id}' and do not find the resources of "
                    f"'{namespace}'.",
                    fix=f"Use one name for both: set sap.app.id to '{namespace}', or rename the Component (and the "
                    f"namespace of its views and controllers) to '{app_id}'.",
                    file=reader.rel(component),
                    line=line,
                )
            )
            break
    return out
