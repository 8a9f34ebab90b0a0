"""History: decide(), corrections(), history import (pure core and store), the CLI."""

from __future__ import annotations

import json
import os
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

import research_radar.history.decide as history
from research_radar.cli import app
from research_radar.errors import ConfigError, InputError
from research_radar.history.decide import corrections, decide, is_doc_only_commit
from research_radar.history.imports import import_reports, load_projects
from research_radar.history.plan import build_history
from research_radar.models import Claim, ClaimKind, Finding, Novelty, Project, Snapshot
from research_radar.report.parse import split_reports
from research_radar.store.store import Store

SHARED = Path(os.environ.get("RADAR_SHARED", Path(__file__).resolve().parents[2] / "shared"))
SEEDS = SHARED / "seeds-examples" / "research-index-issue-2026-10-27_to_11-02.md"
ON = date(2026, 11, 3)
PROJECT = Project(key="gh:acme/turbo", name="turbo")


def _finding(day: date, key: str = PROJECT.key, **extra: object) -> Finding:
    return Finding(project_key=key, name="turbo", date=day, **extra)  # type: ignore[arg-type]


def _at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=UTC)


def test_public_api_is_listed() -> None:
    assert len(set(history.__all__)) == len(history.__all__)
    assert all(hasattr(history, name) for name in history.__all__)


def test_new_when_first_seen_and_created_recently() -> None:
    decision = decide(PROJECT, [], [], on=ON, created_at=_at("2026-11-01"))
    assert (decision.status, decision.novelty, decision.last_reported) == (
        "new",
        Novelty.NEW_RELEASE,
        None,
    )


@pytest.mark.parametrize("created", [_at("2026-08-20"), None], ids=["old", "unknown"])
def test_old_or_undated_first_discovery_is_historical(created: datetime | None) -> None:
    decision = decide(PROJECT, [], [], on=ON, created_at=created)
    assert decision.status == "historical" and decision.novelty == Novelty.HISTORICAL
    assert decision.reported


def test_first_discovered_policy_never_reports_again() -> None:
    snaps = [
        Snapshot(
            source_key=PROJECT.key, version="a" * 40, tag="v0.2.8", version_date=_at("2026-11-02")
        )
    ]
    decision = decide(PROJECT, snaps, [_finding(date(2026, 10, 30))], on=ON)
    assert decision.status == "seen" and decision.novelty is None
    assert decision.last_reported == date(2026, 10, 30)
    assert any(change.startswith("new release/tag v0.2.8") for change in decision.changes)


@pytest.mark.parametrize(
    ("snapshots", "commits", "docs", "status"),
    [
        pytest.param(
            [
                Snapshot(
                    source_key="gh:acme/turbo",
                    version="b" * 40,
                    tag="v1.2",
                    version_date=_at("2026-11-02"),
                )
            ],
            None,
            0,
            "update",
            id="new-tag",
        ),
        pytest.param(
            [
                Snapshot(
                    source_key="gh:acme/turbo",
                    version="b" * 40,
                    tag="v1.1",
                    version_date=_at("2026-11-02"),
                )
            ],
            None,
            0,
            "seen",
            id="same-tag",
        ),
        pytest.param(
            [Snapshot(source_key="arxiv:2409.10516", version="v3")],
            None,
            0,
            "update",
            id="arxiv-v3",
        ),
        pytest.param(
            [Snapshot(source_key="arxiv:2409.10516", version="v2")], None, 0, "seen", id="arxiv-v2"
        ),
        pytest.param([], 25, 5, "update", id="commits"),
        pytest.param([], 25, 20, "seen", id="mostly-docs"),
        pytest.param([], None, 0, "seen", id="nothing"),
    ],
)
def test_substantive_updates_policy(
    snapshots: list[Snapshot], commits: int | None, docs: int, status: str
) -> None:
    before = _finding(
        date(2026, 10, 28), snapshot=Snapshot(source_key=PROJECT.key, version="v2", tag="v1.1")
    )
    decision = decide(
        PROJECT, snapshots, [before], on=ON, policy="substantive-updates",
        commits_since=commits, doc_only_commits=docs,
    )  # fmt: skip
    assert decision.status == status
    assert (decision.novelty == Novelty.NEW_PROGRESS) == (status == "update")


def test_ordinary_fork_is_never_a_finding_but_a_derivative_is() -> None:
    fork = Project(key="gh:someone/ninfer", name="ninfer", fork_of="gh:neroued/ninfer")
    assert decide(fork, [], [], on=ON, created_at=_at("2026-11-02")).status == "seen"
    derived = fork.model_copy(update={"key": "gh:zhongpei/ninfer-4090", "derivative": True})
    decision = decide(derived, [], [], on=ON, created_at=_at("2026-11-02"))
    assert decision.status == "new" and "gh:neroued/ninfer" in decision.reason


def test_decide_ignores_other_projects_and_same_day_findings() -> None:
    others = [_finding(date(2026, 10, 1), key="gh:other/x"), _finding(ON)]
    assert decide(PROJECT, [], others, on=ON, created_at=_at("2026-11-02")).status == "new"


def test_unknown_policy_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        decide(PROJECT, [], [], on=ON, policy="everything")


def test_doc_only_commits() -> None:
    assert is_doc_only_commit("docs: fix typo")
    assert is_doc_only_commit("Update README.md")
    assert not is_doc_only_commit("fix: race in expert table swap")
    assert is_doc_only_commit("anything", ["README.md", "docs/perf.md"])
    assert not is_doc_only_commit("docs and code", ["docs/a.md", "src/engine.cu"])


def test_corrections_of_earlier_conclusions() -> None:
    prior = [
        _finding(date(2026, 10, 28), claims=[Claim(kind=ClaimKind.PERFORMANCE, text="+9.32 pp")])
    ]
    current = [
        _finding(
            date(2026, 10, 30),
            claims=[
                Claim(kind=ClaimKind.STATUS, text="v3 corrected +9.32 pp to +0.66 pp"),
                Claim(kind=ClaimKind.NEGATIVE, text="default routing reverted on 10-29"),
                Claim(kind=ClaimKind.PERFORMANCE, text="retracted? no, a number"),
            ],
            flags=["closed-unmerged"],
        ),
        _finding(
            date(2026, 10, 30),
            key="gh:new/one",
            claims=[Claim(kind=ClaimKind.STATUS, text="reverted")],
        ),
    ]
    found = corrections(prior, current)
    assert [c.text for c in found] == [
        "v3 corrected +9.32 pp to +0.66 pp",
        "default routing reverted on 10-29",
        "turbo: closed-unmerged",
    ]
    assert {c.supersedes for c in found} == {"2026-10-28"}
    repeated = current[0].model_copy(update={"date": date(2026, 10, 31)})
    assert corrections(prior + current[:1], [repeated]) == []


REPORT_A = """\
## 2026-10-28｜Research Radar 日报

证据截止：北京时间 2026-10-28 08:30:00；宿主 main `0123456789abcdef0123456789abcdef01234567`。

### 值得验证
| 分类 / 项目与目标模型 | 新增机制及 prior art | 关键证据 / 缺口 | 成熟度 / 推荐级别 | 时效版本 | 宿主接点 / 优先级 | 来源 |
|---|---|---|---|---|---|---|
| **NInfer**<br>负载：LLM | 机制：Cache、投机；GDN 状态回滚 | 作者报告 | Code available / 值得验证；未独立复现 | 新发布 · `1882c6ad` | P1 · Next | [S1] |
| Model-specific · Maya / DeepSeek | 专家分层与 SSD 预取；CPU 执行未缓存专家 | 作者报告 | 代码可用 / 值得验证 | v1.1.34 | P1 | [S2] |

### 证据索引
S1 **NInfer** — `Neroued/ninfer@1882c6adbc98043fcf89f3589aa5addb3742777a`（2026-10-29）
来源：https://github.com/Neroued/ninfer/tree/1882c6adbc98043fcf89f3589aa5addb3742777a https://arxiv.org/abs/2608.20359v2
S2 **Maya** — 来源 1
"""

REPORT_B = """\
## 2026-10-30｜Research Radar 日报

| 分类 / 项目 | 实质变化与 prior art | 证据与限制 | 等级 / 接点 |
|---|---|---|---|
| Model-specific / Maya 1.1.39（原 maya-engine） | 默认开启 SSD 专家流式读取 | 作者对照 | 值得验证 / Next |
| Speech / SpecSpeechX 0.2 | 语音流式 CTC draft | 单次运行 | 观察 |

## 2026-10-30 纠偏｜只报告首次发现的新 repo

今日原清单中的 Maya 不再作为当前推荐。
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _counts(store: Store) -> dict[str, int]:
    return {
        "findings": len(store.load_findings()),
        "aliases": len(store.load_aliases()),
        "projects": len(load_projects(store)),
        "sources": len(store.load_sources()),
    }


def test_build_history_resolves_names_across_dates() -> None:
    findings = build_history(split_reports(REPORT_A) + split_reports(REPORT_B))
    by_day: dict[str, set[str]] = {}
    for finding in findings:
        by_day.setdefault(finding.project_key, set()).add(finding.date.isoformat())
    assert by_day["gh:neroued/ninfer"] == {"2026-10-28"}
    assert by_day["name:maya"] == {"2026-10-28", "2026-10-30"}
    ninfer = next(f for f in findings if f.project_key == "gh:neroued/ninfer")
    assert (
        ninfer.snapshot is not None
        and ninfer.snapshot.version == "1882c6adbc98043fcf89f3589aa5addb3742777a"
    )
    assert ninfer.novelty == Novelty.NEW_RELEASE and "unverified" in ninfer.flags
    maya_later = next(
        f for f in findings if f.project_key == "name:maya" and f.date == date(2026, 10, 30)
    )
    assert maya_later.novelty == Novelty.NEW_PROGRESS
    assert all(f.family for f in findings)


def test_import_is_idempotent_and_keeps_aliases(store: Store, tmp_path: Path) -> None:
    paths = [_write(tmp_path, "a.md", REPORT_A), _write(tmp_path, "b.md", REPORT_B)]
    summary = import_reports(store, paths)
    assert (summary.reports, summary.entries, summary.corrections) == (3, 4, 1)
    assert summary.new_findings == summary.findings == 4 and summary.new_corrections == 1
    assert summary.new_projects == summary.projects and summary.new_aliases == summary.aliases
    first = _counts(store)
    again = import_reports(store, paths)
    assert again.as_dict() == {
        **summary.as_dict(),
        "new_projects": 0,
        "new_aliases": 0,
        "new_findings": 0,
        "new_corrections": 0,
    }
    assert _counts(store) == first
    aliases = store.load_aliases()
    assert aliases["Maya 1.1.39"] == aliases["Maya"] == aliases["maya-engine"] == "name:maya"
    assert aliases["Neroued/ninfer"] == "gh:neroued/ninfer"
    rows = {row["key"]: row for row in load_projects(store)}
    assert rows["name:maya"]["reported_on"] == ["2026-10-28", "2026-10-30"]
    assert rows["name:maya"]["corrections"][0]["date"] == "2026-10-30"
    assert {s["key"] for s in rows["gh:neroued/ninfer"]["sources"]} == {
        "gh:neroued/ninfer",
        "arxiv:2608.20359",
    }
    origins = {row["origin"] for row in store.load_finding_rows()}
    assert origins == {"import:a.md", "import:b.md"}


def test_import_of_unreadable_file_is_an_input_error(store: Store, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        import_reports(store, [tmp_path / "missing.md"])


@pytest.mark.skipif(not SEEDS.exists(), reason="../shared/seeds-examples not present")
def test_import_of_the_seeds_file(store: Store) -> None:
    summary = import_reports(store, [SEEDS])
    assert summary.reports == 10 and summary.findings >= 40
    first = _counts(store)
    import_reports(store, [SEEDS])
    assert _counts(store) == first
    aliases = store.load_aliases()
    assert aliases["Maya"] == aliases["Project Maya"] == aliases["Maya 1.1.39"]
    assert aliases["Strata"] == aliases["Strata 0.2.8"]
    assert aliases["Atrex"] == aliases["Atrex Kernel Agent #125"]
    assert aliases["DwarfStar"] == aliases["ds4"]
    assert aliases["SpecSpeech"] != aliases.get("faster-cosyvoice")
    assert aliases["InferenceBench"] != aliases["RSI-Inference Bench"]
    rows = {row["key"]: row for row in load_projects(store)}
    several = {key for key, row in rows.items() if len(row["reported_on"]) > 1}
    assert {aliases["Maya"], aliases["Strata"], aliases["JustGoal"]} <= several
    assert "gh:acupof-ai/cachedmoe" in rows and "gh:kindlingai/gr8" in rows
    for key in several:
        later = date.fromisoformat(rows[key]["reported_on"][-1])
        verdict = decide(
            Project(key=key, name=key), [], store.load_findings(before=later), on=later
        )
        assert verdict.status == "seen"


def test_cli_import_list_show(db_url: str, tmp_path: Path) -> None:
    runner = CliRunner()
    path = _write(tmp_path, "a.md", REPORT_A)
    result = runner.invoke(app, ["history", "import", str(path), "--db", db_url])
    assert result.exit_code == 0, result.output
    assert "1 reports, 2 entries: 2 new findings, 0 already known" in result.output
    result = runner.invoke(app, ["history", "list", "--json", "--db", db_url])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert {row["key"] for row in rows} == {"gh:neroued/ninfer", "name:maya"}
    assert set(rows[0]) >= {"key", "name", "aliases", "sources", "fork_of", "family", "reported_on"}
    result = runner.invoke(app, ["history", "list", "--db", db_url])
    assert result.exit_code == 0 and "NInfer" in result.output
    result = runner.invoke(
        app, ["history", "show", "https://github.com/Neroued/ninfer", "--db", db_url]
    )
    assert result.exit_code == 0 and "gh:neroued/ninfer" in result.output
    result = runner.invoke(app, ["history", "show", "Project Maya", "--json", "--db", db_url])
    assert result.exit_code == 0 and json.loads(result.output)["key"] == "name:maya"
    result = runner.invoke(app, ["history", "show", "nothing-like-it", "--db", db_url])
    assert result.exit_code == 1 and "Error:" in result.output


def test_cli_import_with_a_bad_aliases_file(db_url: str, tmp_path: Path) -> None:
    bad = _write(tmp_path, "aliases.toml", "[aliases]\nx = \n")
    path = _write(tmp_path, "a.md", REPORT_A)
    result = CliRunner().invoke(
        app, ["history", "import", str(path), "--aliases", str(bad), "--db", db_url]
    )
    assert result.exit_code == 1 and "aliases.toml:2" in result.output


def test_cli_history_commands_have_help() -> None:
    for command in ("import", "list", "show"):
        result = CliRunner().invoke(app, ["history", command, "--help"])
        assert result.exit_code == 0 and len(result.output) > 80


def test_cli_import_again_says_nothing_was_new(db_url: str, tmp_path: Path) -> None:
    args = ["history", "import", str(_write(tmp_path, "a.md", REPORT_A)), "--db", db_url]
    assert CliRunner().invoke(app, args).exit_code == 0
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "0 new findings, 2 already known" in result.output
    assert "0 new projects, 0 new aliases, 0 new corrections" in result.output
    data = json.loads(CliRunner().invoke(app, [*args, "--json"]).output)
    assert data["findings"] == 2 and data["new_findings"] == 0


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("neroued/ninfer-old", id="former-name"),
        pytest.param("https://github.com/Neroued/ninfer-old", id="former-url"),
        pytest.param("gh:neroued/ninfer-old", id="former-key"),
        pytest.param("Neroued/ninfer", id="repo"),
        pytest.param("gh:neroued/ninfer", id="key"),
    ],
)
def test_cli_show_finds_a_project_by_its_former_name(
    name: str, store: Store, db_url: str, tmp_path: Path
) -> None:
    """A rename is stored as the alias key gh:old/name; its name and URL resolve too."""
    import_reports(store, [_write(tmp_path, "a.md", REPORT_A)])
    with store.transaction() as conn:
        store.save_alias(conn, "gh:neroued/ninfer-old", "gh:neroued/ninfer", "same-as", "resolve")
    result = CliRunner().invoke(app, ["history", "show", name, "--json", "--db", db_url])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["key"] == "gh:neroued/ninfer"


def test_cli_import_help_shows_the_aliases_section() -> None:
    result = CliRunner().invoke(app, ["history", "import", "--help"], terminal_width=200)
    assert result.exit_code == 0 and "[aliases]" in result.output
