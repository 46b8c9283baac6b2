"""Conventional help: the metavars developers know from other CLIs (TEXT, INTEGER, PATH, [a|b]).

typer 0.29 prints Python type names (``<str>``, ``<list[str]>``, ``<bool>`` beside every flag) and
``{NAME}`` for a required argument; setting each parameter's metavar once, before the command runs,
gives the usual click look without repeating a metavar on every option. typer's own parameters
describe their type with a ``type_descriptor`` (its Python annotation), click's with ``type``; both
are read. tests/test_cli_help.py fails if a typer release brings the Python type names back.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any, get_args, get_origin

NUMBERS = {int: "INTEGER", float: "NUMBER"}


def _annotation_metavar(annotation: Any) -> str:
    if get_origin(annotation) in (list, tuple):
        args = [a for a in get_args(annotation) if a is not Ellipsis]
        return _annotation_metavar(args[0]) if args else "TEXT"
    if isinstance(annotation, type) and issubclass(annotation, PurePath):
        return "PATH"
    return NUMBERS.get(annotation, "TEXT")


def _metavar(param: Any) -> str:
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""  # a flag takes no value: show none
    if getattr(param, "param_type_name", "") == "argument":
        return str(getattr(param, "name", None) or "value").upper()
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None:
        choices = descriptor.choices
        if choices:
            return "[" + "|".join(str(getattr(c, "value", c)) for c in choices) + "]"
        if descriptor.is_path:
            return "PATH"
        return _annotation_metavar(descriptor.annotation)
    kind = getattr(param, "type", None)
    choices = getattr(kind, "choices", None)
    if choices:
        return "[" + "|".join(str(c) for c in choices) + "]"
    name = str(getattr(kind, "name", "text")).upper()
    return {"INTEGER": "INTEGER", "FLOAT": "NUMBER", "PATH": "PATH"}.get(name, "TEXT")


def _conventional(param: Any) -> Any:
    if param.metavar is None:
        param.metavar = _metavar(param)
    metavar = param.metavar
    # typer shows its own type label beside the name even when a metavar is set; show the metavar
    param.display_type_rich = lambda ctx=None, _m=metavar: (
        _m if getattr(param, "param_type_name", "") == "option" else ""
    )
    if getattr(param, "param_type_name", "") == "argument" and hasattr(param, "_usage_display_name"):
        param._usage_display_name = lambda _p=param: _p.metavar if _p.required else f"[{_p.metavar}]"
    return param


def apply(command: Any) -> Any:
    """Give every parameter of ``command`` and its sub-commands a conventional metavar (in place)."""
    for param in getattr(command, "params", ()):
        _conventional(param)
    make_help = getattr(command, "get_help_option", None)
    if make_help is not None:  # --help is made per invocation, after apply() has run

        def help_option(ctx: Any, _make: Any = make_help) -> Any:
            option = _make(ctx)
            return _conventional(option) if option is not None else None

        command.get_help_option = help_option
    for sub in (getattr(command, "commands", None) or {}).values():
        apply(sub)
    return command
