"""Where sap-devs keeps configuration, caches and user data.

Each folder can be redirected with an environment variable, which tests and
sandboxed CI runs rely on to keep away from the real home folder.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "sap-devs"


def _dir(env_var: str, kind: str) -> Path:
    override = os.environ.get(env_var)
    if override:
        return Path(override).expanduser()
    import platformdirs

    getter = {
        "config": platformdirs.user_config_dir,
        "cache": platformdirs.user_cache_dir,
        "data": platformdirs.user_data_dir,
    }[kind]
    return Path(getter(APP_NAME, appauthor=False))


def config_dir() -> Path:
    return _dir("SAP_DEVS_CONFIG_DIR", "config")


def cache_dir() -> Path:
    return _dir("SAP_DEVS_CACHE_DIR", "cache")


def data_dir() -> Path:
    return _dir("SAP_DEVS_DATA_DIR", "data")


def bundled_root() -> Path:
    """The folder holding the packs and profiles shipped inside the package."""
    return Path(__file__).resolve().parent.parent
