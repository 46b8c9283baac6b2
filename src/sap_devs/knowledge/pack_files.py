"""Where a pack loader gets its files from: the disk, or a folder read once (``trust.Snapshot``).

Folders that need trust are read once into memory and parsed from there, so the bytes that were
checked against the trust store are the bytes that are parsed, and a link is followed only inside
the folder. The bundled and user layers are read from the disk as they are.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol


class PackFiles(Protocol):
    def is_file(self, path: Path) -> bool: ...

    def is_dir(self, path: Path) -> bool: ...

    def read(self, path: Path) -> bytes:
        """The whole file; OSError when it cannot be read."""
        ...

    def children(self, folder: Path) -> list[Path]:
        """The entries of ``folder``, sorted by name."""
        ...


class Disk:
    def is_file(self, path: Path) -> bool:
        return path.is_file()

    def is_dir(self, path: Path) -> bool:
        return path.is_dir()

    def read(self, path: Path) -> bytes:
        return path.read_bytes()

    def children(self, folder: Path) -> list[Path]:
        return sorted(folder.iterdir()) if folder.is_dir() else []


DISK = Disk()
