"""Which AGENTS.md files Codex reads with the project's own, and the limit they share: the
behaviour ``inject`` fits the block into (mutants scripts/mutation.py found in agents_chain.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.integrations import agents_chain
from sap_devs.integrations.agents_chain import DEFAULT_LIMIT, chain, describe_before, global_hidden_by, settings


def _config(home: Path, text: str | bytes) -> None:
    folder = home / ".codex"
    folder.mkdir(exist_ok=True)
    target = folder / "config.toml"
    target.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))


@pytest.mark.parametrize(
    ("config", "limit"),
    [
        ("project_doc_max_bytes = 1\n", 1),
        ("project_doc_max_bytes = 0\n", DEFAULT_LIMIT),
        ("project_doc_max_bytes = -5\n", DEFAULT_LIMIT),
        ("project_doc_max_bytes = true\n", DEFAULT_LIMIT),
        ('project_doc_max_bytes = "16384"\n', DEFAULT_LIMIT),
        ("project_doc_max_bytes = 16384.0\n", DEFAULT_LIMIT),
        ("project_doc_max_bytes = [\n", DEFAULT_LIMIT),  # not TOML: Codex's defaults
        (b"project_doc_max_bytes = 100 # \xff\n", DEFAULT_LIMIT),  # not UTF-8
        ('model = "o3"\n', DEFAULT_LIMIT),
    ],
)
def test_the_limit_from_the_config_or_the_default(home: Path, config: str | bytes, limit: int) -> None:
    _config(home, config)
    assert settings(home).limit == limit


def test_no_config_gives_the_defaults(home: Path) -> None:
    assert settings(home) == agents_chain.Settings(DEFAULT_LIMIT, ())


def test_codex_home_moves_the_config(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = home / "codex-home"
    elsewhere.mkdir()
    (elsewhere / "config.toml").write_text("project_doc_max_bytes = 4096\n", encoding="utf-8")
    _config(home, "project_doc_max_bytes = 100\n")
    monkeypatch.setenv("CODEX_HOME", str(elsewhere))
    assert settings(home).limit == 4096


def test_fallback_names_keep_only_non_empty_strings(home: Path) -> None:
    _config(home, 'project_doc_fallback_filenames = ["TEAM.md", "", 3, "CLAUDE.md"]\n')
    assert settings(home).fallbacks == ("TEAM.md", "CLAUDE.md")
    _config(home, 'project_doc_fallback_filenames = "TEAM.md"\n')
    assert settings(home).fallbacks == ()


@pytest.fixture
def repo(project: Path) -> Path:
    """A repository root (it holds .git) with the project folder one level down."""
    (project.parent / ".git").mkdir()
    return project.parent


def test_the_files_above_the_project_are_counted_from_the_root_down(home: Path, repo: Path, project: Path) -> None:
    (repo.parent / "AGENTS.md").write_text("above the repository\n", encoding="utf-8")  # not read by Codex
    (repo / "AGENTS.md").write_text("root\n", encoding="utf-8")
    found = chain(project / "AGENTS.md", home)
    assert found.before == [(repo / "AGENTS.md", 5)] and found.bytes_before == 5
    assert found.limit == 32_768 and found.hidden_by is None  # Codex's default project_doc_max_bytes
    assert describe_before(found) == f"5 bytes of {repo / 'AGENTS.md'} that Codex reads first"


def test_without_a_repository_only_the_projects_own_folder_counts(home: Path, project: Path) -> None:
    (project.parent / "AGENTS.md").write_text("x" * 500, encoding="utf-8")
    found = chain(project / "AGENTS.md", home)
    assert found.before == [] and found.bytes_before == 0 and describe_before(found) == ""


def test_an_override_beats_agents_md_and_a_fallback_name_counts(home: Path, repo: Path, project: Path) -> None:
    nested = project / "app"
    nested.mkdir()
    (repo / "AGENTS.md").write_text("a" * 100, encoding="utf-8")
    (repo / "AGENTS.override.md").write_text("o" * 7, encoding="utf-8")
    (project / "TEAM.md").write_text("t" * 30, encoding="utf-8")
    _config(home, 'project_doc_fallback_filenames = ["TEAM.md"]\n')
    found = chain(nested / "AGENTS.md", home)
    assert found.before == [(repo / "AGENTS.override.md", 7), (project / "TEAM.md", 30)]
    assert found.bytes_before == 37
    assert describe_before(found).startswith("37 bytes of ")


def test_empty_files_above_are_not_listed(home: Path, repo: Path, project: Path) -> None:
    (repo / "AGENTS.md").write_text("", encoding="utf-8")
    assert chain(project / "AGENTS.md", home).before == []


def test_a_folder_named_like_the_file_is_not_read(home: Path, repo: Path, project: Path) -> None:
    (repo / "AGENTS.override.md").mkdir()
    (repo / "AGENTS.md").write_text("root\n", encoding="utf-8")
    assert chain(project / "AGENTS.md", home).before == [(repo / "AGENTS.md", 5)]


def test_the_file_codex_reads_instead_of_ours(home: Path, project: Path) -> None:
    ours = project / "AGENTS.md"
    ours.write_text("mine\n", encoding="utf-8")
    assert chain(ours, home).hidden_by is None, "our own file is not hiding itself"
    (project / "AGENTS.override.md").write_text("", encoding="utf-8")
    assert chain(ours, home).hidden_by == project / "AGENTS.override.md"


def test_the_global_override_hides_only_when_it_holds_text(home: Path) -> None:
    folder = home / ".codex"
    folder.mkdir()
    assert global_hidden_by(home) is None
    override = folder / "AGENTS.override.md"
    override.write_text(" \n\n", encoding="utf-8")
    assert global_hidden_by(home) is None
    override.write_text("My global rules\n", encoding="utf-8")
    assert global_hidden_by(home) == override
    override.write_bytes(b"\xff\xfe rules")
    assert global_hidden_by(home) is None


def _project_config(folder: Path, limit: int) -> None:
    (folder / ".codex").mkdir(exist_ok=True)
    (folder / ".codex" / "config.toml").write_text(f"project_doc_max_bytes = {limit}\n", encoding="utf-8")


def test_a_trusted_projects_own_config_sets_the_limit(home: Path, repo: Path, project: Path) -> None:
    """Measured with Codex 0.171: the repository's .codex/config.toml counts once the user trusts the
    repository, also when Codex starts in a folder below it; a deeper folder's config wins."""
    _project_config(repo, 100)
    assert chain(project / "AGENTS.md", home).limit == DEFAULT_LIMIT  # not trusted: Codex ignores it
    _config(home, f'[projects."{repo.as_posix()}"]\ntrust_level = "untrusted"\n')
    assert chain(project / "AGENTS.md", home).limit == DEFAULT_LIMIT
    _config(home, f'project_doc_max_bytes = 9000\n[projects."{repo.as_posix()}"]\ntrust_level = "trusted"\n')
    assert chain(project / "AGENTS.md", home).limit == 100
    _project_config(project, 50)
    assert chain(project / "AGENTS.md", home).limit == 50


def test_a_config_in_a_folder_between_the_trusted_root_and_the_project_counts(
    home: Path, repo: Path, project: Path
) -> None:
    """Codex 0.171, trusted root, started in root/mid/app: root/mid/.codex/config.toml sets the limit."""
    app = project / "app"
    app.mkdir()
    _project_config(project, 77)  # project is the folder between the repository root and app
    _config(home, f'[projects."{repo.as_posix()}"]\ntrust_level = "trusted"\n')
    assert chain(app / "AGENTS.md", home).limit == 77


def test_trust_comes_from_the_nearest_listed_folder(home: Path, repo: Path, project: Path) -> None:
    """With only the subfolder trusted, the repository root's config is not read, the subfolder's is."""
    _project_config(repo, 100)
    _config(home, f'[projects."{project.as_posix()}"]\ntrust_level = "trusted"\n')
    assert chain(project / "AGENTS.md", home).limit == DEFAULT_LIMIT
    _project_config(project, 50)
    assert chain(project / "AGENTS.md", home).limit == 50


def test_an_oversized_project_config_is_not_parsed(home: Path, repo: Path, project: Path) -> None:
    """A repository's .codex/config.toml is untrusted input: up to 1 MiB it is parsed, past it Codex's default stays."""
    (project / ".codex").mkdir()
    _config(home, f'[projects."{repo.as_posix()}"]\ntrust_level = "trusted"\n')
    head = "project_doc_max_bytes = 50\n# "
    for size, limit in ((1024 * 1024, 50), (1024 * 1024 + 1, DEFAULT_LIMIT)):  # the promised bound, 1 MiB
        text = head + "x" * (size - len(head) - 1) + "\n"
        assert len(text.encode()) == size
        (project / ".codex" / "config.toml").write_text(text, encoding="utf-8")
        assert chain(project / "AGENTS.md", home).limit == limit, size
