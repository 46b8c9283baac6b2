"""Errors that carry a message a user (or an agent) can act on."""

from __future__ import annotations


class SapDevsError(Exception):
    """A failure worth showing to the user as-is: the message says what went wrong and what to do."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} {self.hint}" if self.hint else self.message


class ContentError(SapDevsError):
    """A content pack or profile file that cannot be used, naming the file and the field."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.detail = message
