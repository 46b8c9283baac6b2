"""Checks of an SAP project folder, one module per technology over one bounded reader.

- ``reader.Reader`` reads every project file (bounded, never following a link out of the project);
  ``model`` holds what checks return (``Finding``, ``Detection``, ``ProjectReport``, ``Limits``).
- ``detect`` says what the folder is; each technology module (``cap``, ``cap_java``, ``mta``,
  ``xsuaa``, ``approuter``, ``ui5``, ``abap``, ``secrets``, ``workspaces``) returns findings for it.
- ``check.check_project`` runs them in order. A new check goes into its technology's module (or a
  new module beside them) and gets one line in ``check_project``.
"""

from __future__ import annotations

from sap_devs.doctor.project.check import check_project
from sap_devs.doctor.project.detect import detect
from sap_devs.doctor.project.model import Cancelled, Detection, Finding, Limits, ProjectReport, Severity, shorten_path
from sap_devs.doctor.project.mta import mta_file, mta_folders
from sap_devs.doctor.project.reader import Reader

__all__ = [
    "Cancelled",
    "Detection",
    "Finding",
    "Limits",
    "ProjectReport",
    "Reader",
    "Severity",
    "check_project",
    "detect",
    "mta_file",
    "mta_folders",
    "shorten_path",
]
