"""sap-devs: SAP developer knowledge and ABAP system access for AI coding agents, over MCP."""

from __future__ import annotations


def package_version() -> str:
    """The installed distribution's version; read lazily so importing the package stays cheap."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sap-devs")
    except PackageNotFoundError:
        return "0.0.0+unknown"
