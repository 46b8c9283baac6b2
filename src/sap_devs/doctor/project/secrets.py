"""Credentials in the repository: local service credentials files and service keys that git would carry."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sap_devs.doctor.project.cap import cds_configs
from sap_devs.doctor.project.model import Finding, shorten_path
from sap_devs.doctor.project.reader import Reader, ignored_by_git, line_of, tracked_by_git

_SECRET_KEY = re.compile(r"(PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|CLIENTSECRET|PRIVATE_?KEY|CREDENTIALS)", re.I)
PLACEHOLDER = re.compile(r"^(<.*>|\$\{.*\}|\$\w+|x+|\*+|changeme|change-me|todo|your[-_ ].*|\.\.\.|)$", re.I)
_JSON_SECRETS = ("clientsecret", "password", "certificate", "key", "secret", "token", "uaa")


def _holds_secrets(name: str, text: str) -> bool:
    """Does a credentials file hold real-looking values (not placeholders or empty ones)?"""
    if name == ".env":
        for line in text.splitlines():
            line = line.strip()
            if not line or line.startswith("#") or "=" not in line:
                continue
            key, _, value = line.removeprefix("export ").partition("=")
            value = value.strip().strip("'\"")
            if _SECRET_KEY.search(key) and not PLACEHOLDER.match(value):
                return True
            if key.strip() == "VCAP_SERVICES" and "credentials" in value:
                return True
        return False
    lowered = text.lower()
    return any(f'"{k}"' in lowered for k in _JSON_SECRETS) or '"credentials"' in lowered


def secret_findings(root: Path, reader: Reader) -> list[Finding]:
    out = []
    for name in ("default-env.json", ".cdsrc-private.json", ".env"):
        if not reader.is_file(root / name):
            continue
        tracked = tracked_by_git(root, reader, name)
        if not tracked and ignored_by_git(root, reader, name):
            continue
        text = reader.text(root / name)
        if text is None or not _holds_secrets(name, text):
            continue  # only placeholders (a template to copy): nothing leaks
        why = "is tracked by git" if tracked else "is not listed in .gitignore, so it gets committed"
        out.append(
            Finding(
                "security",
                "error",
                f"{name} holds credentials and {why}.",
                fix=(
                    f"git rm --cached {name}, add it to .gitignore and rotate the credentials."
                    if tracked
                    else f"Add '{name}' to .gitignore now; if it was ever committed, rotate the credentials."
                ),
                file=name,
            )
        )
    return out


_KEY_FILE = re.compile(r"\.json$", re.I)
_CLIENT_SECRET = re.compile(r'"clientsecret"\s*:\s*"([^"]{8,})"', re.I)
_SKIP_JSON = frozenset({"package.json", "package-lock.json", "tsconfig.json", "manifest.json", "xs-app.json"})
_SKIP_JSON |= {"xs-security.json", "default-env.json", ".cdsrc-private.json", ".cdsrc.json"}


def service_key_findings(root: Path, reader: Reader) -> list[Finding]:
    """A service key (XSUAA credentials with a client secret) saved as a JSON file in the project root or
    its top folders, and not ignored by git."""
    import itertools
    import os

    out: list[Finding] = []
    if not reader.check():
        return out
    folders = [root]
    try:
        with os.scandir(root) as listing:
            entries = list(itertools.islice(listing, 2_000))
    except OSError:
        return out
    skip = {"node_modules", "gen", "dist", "target", "mta_archives", "test", "tests"}
    folders += [
        Path(e.path)
        for e in entries
        if e.is_dir(follow_symlinks=False) and not e.name.startswith(".") and e.name not in skip
    ][:50]
    for folder in folders:
        if not reader.check():
            break
        try:
            with os.scandir(folder) as listing:
                names = sorted(
                    e.name
                    for e in itertools.islice(listing, 2_000)
                    if e.is_file(follow_symlinks=False) and _KEY_FILE.search(e.name) and e.name not in _SKIP_JSON
                )
        except OSError:
            continue
        for name in names[:50]:
            path = folder / name
            text = reader.text(path)
            match = _CLIENT_SECRET.search(text or "")
            if not match or PLACEHOLDER.match(match.group(1)) or ignored_by_git(folder, reader, name):
                continue
            out.append(
                Finding(
                    "security",
                    "error",
                    f"{reader.show(path)} holds a service key (a 'clientsecret') and is not listed in .gitignore, "
                    "so it gets committed.",
                    fix="Delete it or add it to .gitignore, and rotate the key (cf delete-service-key, then create "
                    "a new one); use 'cds bind' to get credentials at run time instead.",
                    file=reader.rel(path),
                    line=line_of(text, '"clientsecret"'),
                )
            )
    return out


_CREDENTIAL_FIELD = re.compile(
    r"^(password|passwd|clientsecret|client_secret|secret|token|apikey|api_key|key|certificate)$", re.I
)
_MAX_SERVICES = 200  # cds.requires entries looked at; a real project has a few dozen


def _plain_credentials(entry: Any, trail: str, depth: int = 0) -> list[tuple[str, str]]:
    """(path, field) of every credential field with a literal value below a cds.requires entry."""
    if depth > 4 or not isinstance(entry, dict):
        return []
    found = []
    for key, value in list(entry.items())[:_MAX_SERVICES]:
        if not isinstance(key, str) or (key == "users" and trail.endswith(".auth")):
            continue  # mocked users' passwords (alice, bob ...) are test logins by design
        here = f"{trail}.{key}"
        if isinstance(value, dict):
            found += _plain_credentials(value, here, depth + 1)
        elif _CREDENTIAL_FIELD.match(key) and isinstance(value, str) and not PLACEHOLDER.match(value.strip()):
            found.append((here, key))
    return found


def cds_credential_findings(root: Path, reader: Reader, pkg: dict[str, Any] | None) -> list[Finding]:
    """Passwords and client secrets written into cds.requires in package.json or .cdsrc.json: both files
    are committed, so the credential is in git (the CAP pack's first rule)."""
    out = []
    for file, config in cds_configs(root, reader, pkg):
        requires = config.get("requires")
        found: list[tuple[str, str]] = []
        for block, trail in ((requires, "cds.requires"), *_profiled_requires(config)):
            found += _plain_credentials(block, trail)
        text = reader.text(root / file)
        for path, key in found[:20]:
            local = any(f"[{p}]" in path for p in ("development", "test"))  # a local database, usually
            out.append(
                Finding(
                    "security",
                    "warning" if local else "error",
                    f"{file}: {shorten_path(path, 100)} holds a literal credential, and {file} is committed to git.",
                    fix="Remove the value and rotate it; let CAP read credentials from the service binding "
                    "(cds bind, VCAP_SERVICES) or from .cdsrc-private.json, which stays out of git.",
                    file=file,
                    line=line_of(text, f'"{key}"'),
                )
            )
    return out


def _profiled_requires(config: dict[str, Any]) -> list[tuple[Any, str]]:
    """cds.requires under a profile block ('[production]': {requires: ...})."""
    return [
        (block.get("requires"), f"cds.{name}.requires")
        for name, block in list(config.items())[:_MAX_SERVICES]
        if isinstance(name, str) and name.startswith("[") and isinstance(block, dict)
    ]
