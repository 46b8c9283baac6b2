"""The shape of every pack file, validated when a pack loads."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

PACK_ID = r"^[a-z][a-z0-9-]*$"
ITEM_ID = r"^[a-z][a-z0-9-]*/[a-z0-9][a-z0-9-]*$"


def _https(value: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    if parts.scheme != "https" or not parts.netloc or any(c.isspace() for c in value):
        raise ValueError(f"must be an absolute https:// URL, got {value!r}")
    return value


HttpsUrl = Annotated[str, AfterValidator(_https)]
Tag = Annotated[str, Field(min_length=1, max_length=40)]

ResourceType = Literal["official-docs", "sample", "community", "tutorial", "blog", "tool", "api", "video"]
EventScope = Literal["local", "regional", "global", "virtual"]
Os = Literal["windows", "macos", "linux", "all"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    _origin: tuple[str, str] | None = PrivateAttr(default=None)
    """(layer, file) for items that did not ship with sap-devs; None for bundled content."""


class PackMeta(_Strict):
    id: str = Field(pattern=PACK_ID, max_length=64)
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    tags: list[Tag] = Field(default_factory=list)
    profiles: list[str] = Field(default_factory=list)
    weight: int = 0
    base: bool = False
    overlaps: list[str] = Field(default_factory=list)
    additive: bool = False
    additive_position: Literal["before", "after"] = "after"
    versions: dict[str, str] = Field(default_factory=dict)
    changelog: list[str] = Field(default_factory=list)


class Resource(_Strict):
    id: str = Field(pattern=ITEM_ID, max_length=128)
    title: str = Field(min_length=1)
    url: HttpsUrl
    type: ResourceType
    tags: list[Tag] = Field(default_factory=list)
    description: str | None = None
    advocate: str | None = None


class KnownError(_Strict):
    id: str = Field(pattern=ITEM_ID, max_length=128)
    pattern: str = Field(min_length=3)
    cause: str = Field(min_length=3)
    fix: str = Field(min_length=3)
    docs: HttpsUrl | None = None
    tags: list[Tag] = Field(default_factory=list)


class Sample(_Strict):
    id: str = Field(pattern=ITEM_ID, max_length=128)
    label: str = Field(min_length=1)
    url: HttpsUrl
    description: str = Field(min_length=1)
    tags: list[Tag] = Field(min_length=1)
    inject: bool = False


class Detect(_Strict):
    command: str = Field(min_length=1)
    pattern: str = Field(min_length=1)

    @field_validator("pattern")
    @classmethod
    def _one_group(cls, value: str) -> str:
        import re

        try:
            compiled = re.compile(value)
        except re.error as exc:
            raise ValueError(f"not a valid regular expression: {exc}") from exc
        if compiled.groups < 1:
            raise ValueError("needs one capture group around the version")
        return value


class ToolDef(_Strict):
    id: str = Field(pattern=PACK_ID, max_length=64)
    name: str = Field(min_length=1)
    required: str = Field(pattern=r"^(latest|(>=|<=|>|<|=)?\s*v?\d+(\.\d+){0,2})$")
    detect: Detect
    install: dict[Os, str] = Field(default_factory=dict)
    docs: HttpsUrl | None = None


class McpInstall(_Strict):
    command: str = Field(min_length=1)
    args: list[str] = Field(default_factory=list)
    type: Literal["stdio", "sse", "http"] = "stdio"
    env: dict[str, str] = Field(default_factory=dict)


class McpServer(_Strict):
    id: str = Field(pattern=PACK_ID, max_length=64)
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    install: McpInstall
    hosts: list[str] = Field(default_factory=list)


class EventType(_Strict):
    id: str = Field(pattern=PACK_ID, max_length=64)
    name: str = Field(min_length=1)
    source: Literal["rss", "manual", "khoros"]
    default_scope: EventScope
    description: str | None = None
    rss_url: HttpsUrl | None = None
    khoros_board_id: str | None = Field(None, pattern=PACK_ID, max_length=64)
    tags: list[Tag] = Field(default_factory=list)


class EventInstance(_Strict):
    id: str = Field(min_length=1, max_length=128)
    type: str = Field(min_length=1)
    title: str = Field(min_length=1)
    date: dt.date
    end_date: dt.date | None = None
    location: str | None = None
    scope: EventScope
    url: HttpsUrl
    room: str | None = None
    speaker: str | None = None
    tags: list[Tag] = Field(default_factory=list)


class YouTubeSource(_Strict):
    id: str = Field(pattern=PACK_ID, max_length=64)
    type: Literal["playlist", "channel"]
    name: str = Field(min_length=1)
    playlist_id: str | None = Field(None, pattern=r"^[A-Za-z0-9_-]{10,64}$")
    channel_id: str | None = Field(None, pattern=r"^UC[A-Za-z0-9_-]{22}$")
    tags: list[Tag] = Field(default_factory=list)

    @model_validator(mode="after")
    def _id_for_type(self) -> YouTubeSource:
        if self.type == "playlist" and not self.playlist_id:
            raise ValueError("a playlist source needs playlist_id")
        if self.type == "channel" and not self.channel_id:
            raise ValueError("a channel source needs channel_id")
        return self

    def feed_path(self) -> str:
        if self.type == "playlist":
            return f"/feeds/videos.xml?playlist_id={self.playlist_id}"
        return f"/feeds/videos.xml?channel_id={self.channel_id}"


class TutorialRef(_Strict):
    slug: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=128)
    featured: bool = False


PROMPT_PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")


class PromptArgument(_Strict):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)
    description: str = Field(min_length=1, max_length=300)
    required: bool = False
    values: list[str] = Field(default_factory=list, max_length=100)
    """Known values, offered by argument completion; any other value is still accepted."""


class PackPrompt(_Strict):
    """A prompt (slash command) a pack adds, or guidance a pack adds to a built-in prompt of the same id.

    ``text`` is Markdown; ``{name}`` placeholders take the declared arguments' values (guidance takes the
    built-in prompt's arguments); a placeholder no argument fills stays as it is."""

    id: str = Field(pattern=PACK_ID, max_length=64)
    title: str | None = Field(None, min_length=1, max_length=80)
    description: str | None = Field(None, min_length=1, max_length=500)
    arguments: list[PromptArgument] = Field(default_factory=list, max_length=10)
    text: str = Field(min_length=1, max_length=20_000)

    @model_validator(mode="after")
    def _placeholders_declared(self) -> PackPrompt:
        names = [a.name for a in self.arguments]
        if len(set(names)) != len(names):
            raise ValueError("argument names must be unique")
        unknown = sorted(set(PROMPT_PLACEHOLDER.findall(self.text)) - set(names))
        if unknown and names:  # without arguments, the item is guidance for a built-in prompt and takes its arguments
            raise ValueError(f"text uses undeclared arguments: {', '.join(unknown)}")
        return self


class ProfilePack(_Strict):
    id: str = Field(pattern=PACK_ID, max_length=64)
    weight: int = 0


class Profile(_Strict):
    id: str = Field(pattern=PACK_ID, max_length=64)
    name: str = Field(min_length=1)
    description: str = ""
    packs: list[ProfilePack] = Field(default_factory=list)
    tip_tags: list[Tag] = Field(default_factory=list)


class Tip(BaseModel):
    title: str
    content: str
    tags: list[str] = Field(default_factory=list)
    pack: str = ""
    _origin: tuple[str, str] | None = PrivateAttr(default=None)
