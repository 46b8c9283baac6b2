"""xs-security.json: xsappname, scopes referenced by role templates, scope names."""

from __future__ import annotations

import json
from pathlib import Path

from sap_devs.doctor.project.model import Detection, Finding, shorten_path
from sap_devs.doctor.project.mta import mta_file, mta_folders
from sap_devs.doctor.project.reader import Reader, as_list, is_str, line_of, quoted


def _xsappname_elsewhere(root: Path, reader: Reader, det: Detection) -> bool:
    """xsappname set where the service instance is created: an MTA xsuaa resource's parameters.config,
    or the Helm values of a Kyma deployment."""
    for folder in mta_folders(root, reader) if "MTA" in det.types else []:
        data = reader.yaml(mta_file(folder, reader))
        for resource in as_list(data.get("resources")) if isinstance(data, dict) else []:
            params = resource.get("parameters") if isinstance(resource, dict) else None
            config = params.get("config") if isinstance(params, dict) else None
            if isinstance(config, dict) and config.get("xsappname"):
                return True
    return any("xsappname" in (reader.text(values) or "") for values in reader.markers().get("values.yaml", []))


def xsuaa_findings(root: Path, reader: Reader, det: Detection) -> list[Finding]:
    data = reader.json(root / "xs-security.json")
    if data is None:
        return []
    out = []
    if not data.get("xsappname") and not _xsappname_elsewhere(root, reader, det):
        out.append(
            Finding(
                "security",
                "error",
                "xs-security.json has no 'xsappname', and no MTA resource or Helm value sets one: "
                "creating the XSUAA service instance fails.",
                fix='Add a unique "xsappname" (or set it in the mta.yaml xsuaa resource under parameters.config).',
                file="xs-security.json",
            )
        )
    scopes = {s.get("name") for s in as_list(data.get("scopes")) if isinstance(s, dict) and is_str(s.get("name"))}
    xsappname = data.get("xsappname", "")
    for template in as_list(data.get("role-templates")):
        if not isinstance(template, dict):
            continue
        for ref in as_list(template.get("scope-references")):
            if len(out) >= reader.limits.max_findings:
                break
            if isinstance(ref, str) and ref not in scopes and not ref.startswith("uaa."):
                suffix = shorten_path(ref.split(".")[-1], 60)
                out.append(
                    Finding(
                        "security",
                        "error",
                        f"Role template {quoted(template.get('name'))} references scope {quoted(ref)}, "
                        "which is not defined.",
                        fix=f"Define the scope under 'scopes' (usually '$XSAPPNAME.{suffix}').",
                        file="xs-security.json",
                        line=line_of(reader.text(root / "xs-security.json"), json.dumps(ref)),
                    )
                )
    if scopes and xsappname and not any(str(s).startswith("$XSAPPNAME") for s in scopes):
        out.append(
            Finding(
                "security",
                "warning",
                "Scopes are not prefixed with $XSAPPNAME, so they will not be unique to this application.",
                fix="Name scopes '$XSAPPNAME.<Scope>'.",
                file="xs-security.json",
            )
        )
    return out
