"""Logging set-up: diagnostics go to stderr only, because stdout belongs to MCP or to command output."""

from __future__ import annotations

import logging
import os
import sys


def setup_logging() -> None:
    level = os.environ.get("SAP_DEVS_LOG_LEVEL", "WARNING").upper()
    logging.basicConfig(
        stream=sys.stderr, level=getattr(logging, level, logging.WARNING), format="sap-devs %(levelname)s %(message)s"
    )
