"""The failures of SAP's Node tools that a user can fix with one command."""

from __future__ import annotations

from sap_devs.core.errors import SapDevsError


class ToolchainMissing(SapDevsError):
    """A package or a Node binary the tool needs is not installed.

    ``str(exc)`` is one line naming what is missing and the exact command that installs it; tools
    turn it into an isError result as it stands.
    """

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


class ToolchainFailed(SapDevsError):
    """The tool ran but gave no usable answer (it crashed, timed out or printed something unreadable)."""
