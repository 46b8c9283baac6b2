"""Credentials in the repository: local service credentials files and service keys that git would carry."""

from __future__ import annotations

import re
from pathlib import Path

from sap_devs.doctor.project.model import Finding
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
