"""What sap-devs may change on an ABAP system: nothing, unless the user says so, and then only where allowed."""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass

from sap_devs.adt.errors import AdtError

_TRUE = ("1", "true", "yes", "on")
DEFAULT_PACKAGES = ("$TMP", "Z*")


class PolicyError(AdtError):
    pass


@dataclass(frozen=True)
class SafetyPolicy:
    writes: bool = False
    packages: tuple[str, ...] = DEFAULT_PACKAGES
    transports: bool = False  # creating and releasing transport requests
    data: bool = False  # table contents and SELECT queries: business data leaves the system
    cross_client: bool = False  # SELECTs with USING CLIENT / CLIENT SPECIFIED: other clients' data
    execute: bool = False  # running code on the system (console classes): a separate opt-in on top of writes

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, *, allow_writes: bool = False) -> SafetyPolicy:
        env = dict(os.environ) if env is None else env

        def on(name: str) -> bool:
            return (env.get(name) or "").strip().lower() in _TRUE

        listed = tuple(p.strip().upper() for p in (env.get("SAP_DEVS_ADT_PACKAGES") or "").split(",") if p.strip())
        return cls(
            writes=allow_writes or on("SAP_DEVS_ADT_WRITE"),
            packages=listed or DEFAULT_PACKAGES,  # a list without entries means the default, never "everything"
            transports=on("SAP_DEVS_ADT_TRANSPORTS"),
            data=on("SAP_DEVS_ADT_DATA"),
            cross_client=on("SAP_DEVS_ADT_CROSS_CLIENT"),
            execute=on("SAP_DEVS_ADT_EXECUTE"),
        )

    def package_allowed(self, package: str) -> bool:
        name = package.strip().upper()
        return any(fnmatch.fnmatchcase(name, pattern.upper()) for pattern in self.packages)

    def check_write(self, package: str | None, name: str) -> None:
        if not self.writes:
            raise PolicyError(
                f"Changing {name} is refused: ABAP writes are off.",
                hint="Start the server with --allow-writes (or SAP_DEVS_ADT_WRITE=1) to enable them.",
            )
        if not package:
            raise PolicyError(f"Changing {name} is refused: its package could not be determined.")
        if not self.package_allowed(package):
            raise PolicyError(
                f"Changing {name} is refused: package {package} is not in the allowed packages "
                f"({', '.join(self.packages)}).",
                hint="Allow it with SAP_DEVS_ADT_PACKAGES if this is intended.",
            )

    def check_execute_on(self, name: str) -> None:
        """Running code needs writes and its own opt-in; checked before anything is asked of the system."""
        if not (self.writes and self.execute):
            raise PolicyError(
                f"Running {name} is refused: executing code on the system is off.",
                hint="Start the server with --allow-writes and SAP_DEVS_ADT_EXECUTE=1 to enable it.",
            )

    def check_execute(self, package: str | None, name: str) -> None:
        """Running code needs writes, its own opt-in, and the code in an allowed package."""
        self.check_execute_on(name)
        if not package or not self.package_allowed(package):
            raise PolicyError(
                f"Running {name} is refused: package {package or '(unknown)'} is not in the allowed packages "
                f"({', '.join(self.packages)}).",
                hint="Allow it with SAP_DEVS_ADT_PACKAGES if this is intended.",
            )

    def check_transports(self, action: str) -> None:
        if not (self.writes and self.transports):
            raise PolicyError(
                f"{action} is refused: creating and releasing transport requests is off.",
                hint="Start the server with --allow-writes and SAP_DEVS_ADT_TRANSPORTS=1 to enable it.",
            )


def is_local(package: str) -> bool:
    """Local packages ($TMP, $...) need no transport request."""
    return package.startswith("$")
