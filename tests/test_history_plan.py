"""History import, the plan (issue #19): what the faster paths of `build_import` must still
find, on reports written to reach them."""

from __future__ import annotations

from research_radar.history.plan import build_import
from research_radar.report.parse import split_reports

HEADER = "| 分类 / 项目与目标模型 | 新增机制 | 来源 |\n|---|---|---|\n"


def _plan(rows: list[str], evidence: list[str]) -> dict[str, tuple[str, str, str]]:
    text = (
        "## 2026-10-01｜新仓库研究\n\n### 值得验证\n\n"
        + HEADER
        + "\n".join(rows)
        + "\n\n### 证据索引\n\n"
        + "\n".join(evidence)
    )
    plan = build_import([("import:a.md", report) for report in split_reports(text)])
    return plan.aliases


def test_the_written_name_is_found_after_a_longer_name_that_holds_the_key() -> None:
    """The repository as written (its case) is an alias, though the key first appears
    inside a longer name on an earlier line, and on its own line after another match."""
    aliases = _plan(
        ["| LLM｜Turbo | kv cache | [S1] |"],
        [
            "S1 Turbo — see xAcme/Turbo-old and Acme/TurboX",
            "pinned at `Acme/Turbo@" + "b" * 40 + "`",
        ],
    )
    assert aliases["Acme/Turbo"][:2] == ("gh:acme/turbo", "repo")


def test_no_written_name_when_the_key_only_appears_inside_longer_names() -> None:
    aliases = _plan(
        ["| LLM｜Turbo | kv cache | https://github.com/acme/turbo |"],
        ["S1 Turbo — mirrors xacme/turbo and acme/turbo2"],
    )
    assert [alias for alias, (_, kind, _) in aliases.items() if kind == "repo"] == ["acme/turbo"]


def test_meanwhile_sees_the_plans_identities_before_its_findings() -> None:
    """`build_import` calls `meanwhile` once, with the sources, links and aliases final and
    no findings yet; the plan is the one built without it."""
    text = (
        "## 2026-10-01｜新仓库研究\n\n### 值得验证\n\n"
        + HEADER
        + "| LLM｜Turbo | kv cache offload | https://github.com/acme/turbo |\n"
        + "| LLM｜Speedy | kv cache offload tier | https://github.com/acme/speedy |\n"
    )
    reports = [("import:a.md", report) for report in split_reports(text)]
    seen: list[tuple[int, set[str], set[str]]] = []
    plan = build_import(
        reports,
        meanwhile=lambda plan: seen.append(
            (len(plan.findings), set(plan.sources), set(plan.aliases))
        ),
    )
    assert seen == [(0, set(plan.sources), set(plan.aliases))]
    assert {"gh:acme/turbo", "gh:acme/speedy"} <= set(plan.sources)
    assert plan == build_import(reports)
