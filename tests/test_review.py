"""review: every rule positive and negative, our own format clean, JSON shape, CLI, robustness."""

from __future__ import annotations

import json
import logging
import os
import re
from datetime import date
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from research_radar.classify.profile import load_taxonomy
from research_radar.cli import app
from research_radar.config import DEFAULT_DB
from research_radar.github import GitHubClient
from research_radar.models import Finding, Source, SourceKind
from research_radar.replay.server import serve_replay
from research_radar.report.parse import parse_report
from research_radar.review.entries import build_findings, family_of, project_key
from research_radar.review.findings import RULES, Review, Severity
from research_radar.review.run import render_review, review_report
from research_radar.review.verifiers import GitHubVerifier
from research_radar.review.vocab import MECHANISM, RSI_STAGE, SYSTEM_LEVEL, WORKLOAD
from research_radar.sources.http import RetryPolicy
from research_radar.store.store import Store, open_store

GOLDEN = Path(__file__).parent / "golden"
SHARED = Path(os.environ.get("RADAR_SHARED", Path(__file__).parents[2] / "shared"))
SEEDS = SHARED / "seeds-examples" / "research-index-issue-2026-10-27_to_11-02.md"
runner = CliRunner()
TARGET = "example-org/inferhost#126"

HEADER = (
    "## 2026-11-30｜Research Radar 日报\n\n"
    "证据截止：北京时间 2026-11-30 08:30:00；宿主 example-org/inferhost 默认分支 main "
    "`0123456789abcdef0123456789abcdef01234567`（发布前复核未变）。\n"
    "所有性能数字均为作者报告；未运行测试、模型、GPU或付费实验。\n\n"
)
COLUMNS = (
    "| 分类 / 项目与目标模型 | 新增机制及 prior art | 关键证据 / 缺口 | 成熟度 / 推荐级别 | 时效版本 "
    "| 宿主接点 / 优先级 | 来源 |\n|---|---|---|---|---|---|---|\n"
)
GOOD_ROW = (
    "| **NInfer**<br>负载：LLM 与 Agentic；层级：模型执行；RSI：独立验证（engine） "
    "| 机制：Cache。KV 回滚；prior art：投机解码 "
    "| 作者报告：922.4 tok/s（RTX 5090 · Qwen3-27B · NVFP4 · vs llama.cpp） "
    "| Code available / 值得验证；未独立复现 | 新发布 · `1882c6ad`（2026-10-29） "
    "| 可扩展缺口：`docs/kv-cache-offload.md`、#112；P1 · Next | [S1] |\n"
)
PROPOSAL = (
    "\n### 建议验证（仅建议，不执行）\n\n"
    "1. **NInfer** — 假设：回滚一致；基线：关闭投机；指标：logits；预算：2 GPU 小时；"
    "停止条件：首次不一致即停（未执行）\n\n### 证据索引\n\n"
    "S1 **NInfer** — `Neroued/ninfer@1882c6adbc98043fcf89f3589aa5addb3742777a`（2026-10-29）\n"
)


def report(row: str = GOOD_ROW, header: str = HEADER, tail: str = PROPOSAL) -> str:
    return header + "### 值得验证\n\n" + COLUMNS + row + tail


def rules(text: str, **kwargs: object) -> list[str]:
    return [item.rule for item in review_report(text, **kwargs).findings]  # type: ignore[arg-type]


def test_rule_ids_are_stable() -> None:
    assert RULES[:3] == ("header-cutoff-missing", "header-sha-missing", "dimension-missing")
    assert len(RULES) == 17 and len(set(RULES)) == 17


def test_clean_report_in_our_format_has_no_findings() -> None:
    assert review_report(report()).findings == []


@pytest.mark.parametrize("name", ["report-zh.md", "report-en.md"])
def test_rendered_golden_reports_have_no_blocking_finding(name: str) -> None:
    result = review_report((GOLDEN / name).read_text(encoding="utf-8"))
    assert not result.blocking, [f.problem for f in result.findings]


def test_header_cutoff_missing_and_not_beijing() -> None:
    no_cutoff = HEADER.replace("证据截止：北京时间 2026-11-30 08:30:00；", "")
    findings = review_report(report(header=no_cutoff)).findings
    assert [(f.rule, f.severity) for f in findings] == [
        ("header-cutoff-missing", Severity.BLOCKING)
    ]
    utc = HEADER.replace("北京时间 ", "")
    [finding] = review_report(report(header=utc)).findings
    assert finding.severity is Severity.WARNING and "Beijing" in finding.problem


def test_header_sha_missing_and_recheck() -> None:
    no_sha = HEADER.replace(
        "宿主 example-org/inferhost 默认分支 main `0123456789abcdef0123456789abcdef01234567`（发布前复核未变）",
        "",
    )
    findings = review_report(report(header=no_sha)).findings
    assert [(f.rule, f.severity) for f in findings] == [("header-sha-missing", Severity.BLOCKING)]
    unchecked = HEADER.replace("（发布前复核未变）", "")
    [finding] = review_report(report(header=unchecked)).findings
    assert finding.rule == "header-sha-missing" and finding.severity is Severity.INFO


def test_diffusion_is_no_kernel_fusion() -> None:
    """`Diffusion` names a workload; only a mechanism word of its own states a mechanism."""
    vague = (
        GOOD_ROW.replace(
            "机制：Cache。KV 回滚；prior art：投机解码", "机制：未判定。Diffusion 图像生成"
        )
        .replace("`docs/kv-cache-offload.md`、", "")
        .replace("NVFP4", "BF16")
    )
    plain = PROPOSAL.replace("关闭投机", "原版").replace("预算", "上限")
    [finding] = review_report(report(vague, tail=plain)).findings
    assert (finding.rule, finding.dimension) == ("dimension-missing", "mechanism")
    fused = vague.replace("Diffusion 图像生成", "Diffusion 图像生成，kernel fusion")
    assert review_report(report(fused, tail=plain)).findings == []


def test_dimension_missing_names_the_dimension() -> None:
    """With a level field in the table, the row that leaves it out is named."""
    other = GOOD_ROW.replace("NInfer", "Strata").replace("层级：模型执行；", "")
    [finding] = review_report(report(GOOD_ROW + other)).findings
    assert (finding.rule, finding.dimension, finding.entry) == (
        "dimension-missing",
        "system_level",
        "Strata",
    )


def test_a_table_without_a_system_level_field_gets_one_report_wide_finding() -> None:
    rows = "".join(
        GOOD_ROW.replace("NInfer", name).replace("层级：模型执行；", "")
        for name in ("NInfer", "Strata", "Maya")
    )
    [finding] = review_report(report(rows)).findings
    assert (finding.rule, finding.dimension, finding.entry) == (
        "dimension-missing",
        "system_level",
        None,
    )
    assert "3 entries" in finding.problem


@pytest.mark.parametrize(
    ("cell", "missing"),
    [
        pytest.param(
            "RSI / kernel · KernelAgent；层级：单算子；RSI：候选生成", "workload", id="rsi-kernel"
        ),
        pytest.param(
            "RSI / kernel→模型 · KernelAgent；层级：单算子；RSI：候选生成", "workload", id="arrow"
        ),
        pytest.param(
            "负载：LLM 与 Agentic；层级：kernel；RSI：独立验证", "system_level", id="kernel"
        ),
        pytest.param(
            "负载：LLM 与 Agentic；层级：非 serving；RSI：独立验证", "system_level", id="negated"
        ),
    ],
)
def test_dimensions_are_read_strictly(cell: str, missing: str) -> None:
    row = GOOD_ROW.replace("负载：LLM 与 Agentic；层级：模型执行；RSI：独立验证（engine）", cell)
    found = [f.dimension for f in review_report(report(row)).findings]
    assert found == [missing]


def test_rsi_stage_used_as_workload_is_flagged() -> None:
    row = GOOD_ROW.replace("**NInfer**<br>负载：LLM 与 Agentic；", "RSI / kernel｜NInfer<br>")
    found = [f for f in review_report(report(row)).findings if f.dimension == "workload"]
    assert found and "rsi_stage" in found[0].problem


def test_host_mapping_generic() -> None:
    row = GOOD_ROW.replace("可扩展缺口：`docs/kv-cache-offload.md`、#112", "复用现有 harness")
    findings = review_report(report(row)).findings
    assert [f.rule for f in findings] == ["host-mapping-generic"]
    assert "generic" in findings[0].problem
    assert "host-mapping-generic" not in rules(
        report(GOOD_ROW.replace("#112", "methods/x/SKILL.md"))
    )


def _past(name: str, key: str, day: date, mechanism: str = "") -> Finding:
    return Finding(
        project_key=key, name=name, date=day, mechanism=mechanism, family=family_of(mechanism)
    )


def test_family_not_differentiated() -> None:
    row = GOOD_ROW.replace("机制：Cache。KV 回滚；prior art：投机解码", "GDN 状态回滚与重放")
    past = [_past("ReaDy", "name:ready", date(2026, 10, 28), "Gated DeltaNet 状态回滚")]
    findings = review_report(report(row), history=past).findings
    assert [f.rule for f in findings] == ["family-not-differentiated"]
    assert "ReaDy" in findings[0].problem
    stated = row.replace("GDN 状态回滚与重放", "GDN 状态回滚与重放；同族：ReaDy；差异：KDA")
    assert rules(report(stated), history=past) == []


def test_already_reported_with_history_and_aliases() -> None:
    past = [_past("Old name", "gh:neroued/ninfer", date(2026, 10, 1))]
    assert rules(report(), history=past) == []  # different name, no alias: not matched
    aliases = {"NInfer": "gh:neroued/ninfer"}
    assert rules(report(), history=past, aliases=aliases) == ["already-reported"]
    assert rules(report(), history=past, aliases=aliases, policy="substantive-updates") == []
    unchanged = GOOD_ROW.replace("新发布 · `1882c6ad`（2026-10-29）", "历史补发现 · 无变化")
    assert "already-reported" in rules(
        report(unchanged, tail=""), history=past, aliases=aliases, policy="substantive-updates"
    )


def test_version_unpinned() -> None:
    row = GOOD_ROW.replace("`1882c6ad`（2026-10-29）", "最近")
    assert rules(report(row, tail=PROPOSAL.split("### 证据索引")[0])) == ["version-unpinned"]


def test_conditions_missing_and_author_unmarked() -> None:
    row = GOOD_ROW.replace(
        "作者报告：922.4 tok/s（RTX 5090 · Qwen3-27B · NVFP4 · vs llama.cpp）", "922.4 tok/s"
    )
    header = HEADER.replace("所有性能数字均为作者报告；", "")
    findings = review_report(report(row, header=header)).findings
    assert [f.rule for f in findings] == ["conditions-missing", "author-number-unmarked"]
    assert "hardware" in findings[0].problem
    assert "baseline" not in findings[0].problem, "an absolute number is not a comparison"
    ratio = row.replace("922.4 tok/s", "1.8×")
    [first, _] = review_report(report(ratio, header=header)).findings
    assert "baseline" in first.problem


def test_quality_metrics_are_not_performance_numbers() -> None:
    row = GOOD_ROW.replace(
        "作者报告：922.4 tok/s（RTX 5090 · Qwen3-27B · NVFP4 · vs llama.cpp）", "WER 15–22%"
    )
    assert rules(report(row)) == []


def test_cross_condition_ranking_and_negation() -> None:
    tail = PROPOSAL + "\nNInfer 在 RTX 5090 上比 Maya 在 H100 上最快。\n"
    assert "cross-condition-ranking" in rules(
        report(tail=tail).replace(
            "| [S1] |\n",
            "| [S1] |\n| **Maya**<br>负载：LLM；层级：模型执行；RSI：独立验证 | 机制：Cache | 作者报告 | Code available | 新发布 `abc1234f` | `docs/x.md` | [S1] |\n",
        )
    )
    fine = PROPOSAL + "\nNInfer 与 Maya 不跨条件排名，RTX 5090 与 H100 不比最快。\n"
    assert "cross-condition-ranking" not in rules(report(tail=fine))


def test_stacked_percentages() -> None:
    tail = PROPOSAL + "\n两项合计提升 5.7% + 8% = 13.7%。\n"
    assert "stacked-percentages" in rules(report(tail=tail))
    fine = PROPOSAL + "\n不能把总 7.97% 全归给状态读取，仅 5.68%。\n"
    assert "stacked-percentages" not in rules(report(tail=fine))


def test_proposal_incomplete() -> None:
    tail = PROPOSAL.replace("预算：2 GPU 小时；", "").replace("停止条件：首次不一致即停", "")
    findings = review_report(report(tail=tail)).findings
    assert [f.rule for f in findings] == ["proposal-incomplete"]
    assert "budget and stop condition" in findings[0].problem
    assert "proposal-incomplete" in rules(report(tail="\n"))  # a daily report without any


def test_novelty_label_missing() -> None:
    row = GOOD_ROW.replace("新发布 · ", "")
    assert rules(report(row)) == ["novelty-label-missing"]


@pytest.mark.parametrize(
    ("text", "severity"),
    [
        pytest.param("token ghp_" + "a" * 36, Severity.BLOCKING, id="token"),
        pytest.param("日志见 /home/alice/run.log", Severity.BLOCKING, id="local-path"),
        pytest.param("C:\\Users\\bob\\notes.txt", Severity.BLOCKING, id="windows-path"),
        pytest.param("http://192.168.1.5/dash", Severity.BLOCKING, id="private-host"),
        pytest.param("https://docs.google.com/document/d/xyz", Severity.WARNING, id="doc"),
    ],
)
def test_public_only(text: str, severity: Severity) -> None:
    found = [f for f in review_report(report(tail=PROPOSAL + "\n" + text + "\n")).findings]
    assert [(f.rule, f.severity) for f in found] == [("public-only", severity)]


def test_public_only_negative() -> None:
    assert rules(report(tail=PROPOSAL + "\nsee https://github.com/home/x and sk-short\n")) == []


def test_bare_cross_repo_ref() -> None:
    row = GOOD_ROW.replace("KV 回滚", "KV 回滚；stable-diffusion.cpp #2240 合并")
    findings = review_report(report(row)).findings
    assert [f.rule for f in findings] == ["bare-cross-repo-ref"]
    assert "#2240" in findings[0].problem and findings[0].entry == "NInfer"
    prose = PROPOSAL.replace(
        "\n### 证据索引",
        "\n另见 Splash #622 与 leejet/stable-diffusion.cpp#2240；宿主 #91 仍开放。\n\n### 证据索引",
    )
    past = [_past("Splash", "name:splash", date(2026, 10, 27))]
    [finding] = review_report(report(tail=prose), history=past).findings
    assert "Splash #622" in finding.problem and "2240" not in finding.problem
    assert review_report(report(tail=prose)).findings == []  # an unknown plain word is no project


def test_json_shape_and_rendered_markdown() -> None:
    result = review_report(report(GOOD_ROW.replace("层级：模型执行；", "")))
    data = result.to_json()
    assert set(data) == {"language", "verified", "findings", "groups", "coverage"}
    keys = {
        "rule",
        "entry",
        "dimension",
        "severity",
        "where",
        "problem",
        "conditions",
        "impact",
        "fix",
        "report",
        "line",
        "column",
        "detail",
    }
    assert set(data["findings"][0]) == keys
    assert data["findings"][0]["severity"] == "warning"
    assert data["groups"][0]["id"] == "F1" and data["groups"][0]["members"] == [0]
    json.dumps(data)
    text = render_review(result)
    assert "### F1 — 全表没有系统层级字段" in text
    for part in (
        "- **Where:**",
        "- **Problem:**",
        "- **Conditions:**",
        "- **Impact:**",
        "- **Fix:**",
        "**Reviewed commit:**",
        "**Coverage:**",
        "正文“分类维度”要求每条发现同时带上六个维度的标签",
    ):
        assert part in text
    assert "sha256" in text
    assert ".md" not in text.replace("kv-cache-offload.md", ""), "no file of this project"


def test_report_wide_findings_have_no_entry() -> None:
    tail = PROPOSAL + "\n两项合计提升 5.7% + 8%。\n"
    finding = next(
        f for f in review_report(report(tail=tail)).findings if f.rule == "stacked-percentages"
    )
    assert finding.entry is None


def test_several_reports_earlier_ones_are_history() -> None:
    later = report().replace("2026-11-30", "2026-12-01")
    result = review_report(report() + "\n" + later)
    assert [f.rule for f in result.findings] == ["already-reported"]
    assert "2026-12-01" in result.findings[0].where
    assert result.reviewed.count("sha256") == 2
    assert result.reviewed.count("2026-12-01") == 1, "the date once, not again before the title"


def test_build_findings_and_project_key() -> None:
    parsed = parse_report(report())
    [finding] = build_findings(parsed)
    assert finding.project_key == "name:ninfer" and finding.date == date(2026, 11, 30)
    assert project_key("Strata 0.2.8") == project_key("Strata") == "name:strata"
    assert project_key("x", "Owner/Repo") == "gh:owner/repo"
    assert project_key("Maya", aliases={"Maya": "gh:a/maya"}) == "gh:a/maya"


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_never_raises_on_arbitrary_text(text: str) -> None:
    result = review_report(text)
    assert isinstance(result, Review)
    assert all(item.rule in RULES for item in result.findings)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "|",
                "\t",
                "#12",
                "S1 ",
                "2026-10-31｜x\n",
                "证据截止 08:30",
                "**",
                "\n",
                "建议1",
                "%",
                "×",
                "tok/s",
                "`",
            ]
        ),
        max_size=40,
    )
)
def test_never_raises_on_report_like_fragments(parts: list[str]) -> None:
    review_report("".join(parts))


def test_seeds_reviewed_without_crashing() -> None:
    if not SEEDS.is_file():
        pytest.skip("seeds-examples not present")
    result = review_report(SEEDS.read_text(encoding="utf-8"), policy="substantive-updates")
    blocking = [f for f in result.findings if f.severity is Severity.BLOCKING]
    assert [f.rule for f in blocking] == ["header-sha-missing"]  # the Maya supplement's gap
    assert any(
        f.rule == "bare-cross-repo-ref" and f.entry == "Atrex Kernel Agent #125"
        for f in result.findings
    )
    assert any(
        f.rule == "dimension-missing" and f.dimension == "workload" and f.entry == "Xe-Forge"
        for f in result.findings
    )


# -- CLI ----------------------------------------------------------------------------------------


def test_cli_clean_report_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "r.md"
    path.write_text(report(), encoding="utf-8")
    result = runner.invoke(app, ["review", str(path), "--offline", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["verified"], data["findings"], data["groups"]) == ([], [], [])


def test_cli_blocking_exits_1_and_writes_out(tmp_path: Path) -> None:
    path, out = tmp_path / "r.md", tmp_path / "review.md"
    path.write_text(
        report(header=HEADER.replace("证据截止：北京时间 2026-11-30 08:30:00；", "")),
        encoding="utf-8",
    )
    result = runner.invoke(app, ["review", str(path), "--offline", "--out", str(out)])
    assert result.exit_code == 1
    assert "header-cutoff-missing" in result.stdout
    assert out.read_text(encoding="utf-8") == result.stdout


def test_cli_missing_file_is_one_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["review", str(tmp_path / "nope.md"), "--offline"])
    assert result.exit_code == 2, "a missing input file is a usage error"
    assert "nope.md not found" in result.output


def test_cli_bad_repo_option_is_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "r.md"
    path.write_text(report(), encoding="utf-8")
    result = runner.invoke(app, ["review", str(path), "--offline", "--repo", "nonsense"])
    assert result.exit_code == 2


def test_cli_db_history_makes_already_reported(tmp_path: Path, store: Store, db_path: Path) -> None:
    with store.transaction() as conn:
        store.save_finding(
            conn, Finding(project_key="gh:neroued/ninfer", name="NInfer", date=date(2026, 10, 1))
        )
        store.save_alias(conn, "NInfer", "gh:neroued/ninfer", "name")
    path = tmp_path / "r.md"
    path.write_text(report(), encoding="utf-8")
    result = runner.invoke(app, ["review", str(path), "--offline", "--json", "--db", str(db_path)])
    assert result.exit_code == 0, result.output
    found = [f["rule"] for f in json.loads(result.stdout)["findings"]]
    assert [rule for rule in found if rule != "claim-unverified"] == ["already-reported"]


def test_a_report_without_a_host_says_so_and_is_not_blocked() -> None:
    text = (
        "## 2026-11-30｜Research Radar 日报\n\n"
        "证据截止：北京时间 2026-11-30 08:30:00；未配置宿主项目（no host configured）。\n"
    )
    findings = review_report(text).findings
    sha = [f for f in findings if f.rule == "header-sha-missing"]
    assert sha and all(f.severity == "info" for f in sha)


_PRIVATE_ROW = GOOD_ROW.replace("负载：LLM 与 Agentic；", "Neroued/ninfer@1882c6ad；")
"""A row whose classification cell (quoted by the review) names the private repository."""


def _post_env(url: str) -> dict[str, str]:
    return {"GITHUB_API_URL": url, "GITHUB_TOKEN": "", "GH_TOKEN": "", "RADAR_CONFIG": ""}


def test_cli_post_refuses_a_private_repository_of_the_store(
    tmp_path: Path, store: Store, db_path: Path
) -> None:
    secret = Source(
        key="gh:neroued/ninfer",
        kind=SourceKind.REPO,
        url="https://github.com/Neroued/ninfer",
        meta={"private": True},
    )
    with store.transaction() as conn:
        store.save_source(conn, secret)
    path = tmp_path / "r.md"
    path.write_text(report(_PRIVATE_ROW), encoding="utf-8")
    args = ["review", str(path), "--offline", "--db", str(db_path), "--post", TARGET]
    with serve_replay() as server:
        result = runner.invoke(app, args, env=_post_env(server.url))
        assert server.comments("example-org/inferhost", 126) == []
    assert result.exit_code == 1
    assert "private repository neroued/ninfer" in result.output


def test_cli_post_refuses_a_private_repository_of_the_settings(
    tmp_path: Path, db_path: Path
) -> None:
    """The posted review quotes a cell naming a private repository: the gate refuses it."""
    config = tmp_path / "radar.toml"
    config.write_text('[publish]\nprivate_repos = ["Neroued/ninfer"]\n', encoding="utf-8")
    open_store(str(db_path))
    path = tmp_path / "r.md"
    path.write_text(report(_PRIVATE_ROW), encoding="utf-8")
    args = ["review", str(path), "--offline", "--config", str(config), "--db", str(db_path)]
    args += ["--post", TARGET]
    with serve_replay() as server:
        result = runner.invoke(app, args, env=_post_env(server.url))
        assert server.comments("example-org/inferhost", 126) == []
    assert result.exit_code == 1
    assert "private repository neroued/ninfer" in result.output


def test_an_unreachable_api_call_is_asked_and_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A file of two reports citing the same commit: one request, one warning."""
    asked: list[str] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        raise httpx.ConnectError("connection refused", request=request)

    client = httpx.Client(transport=httpx.MockTransport(refuse))
    github = GitHubClient(client, "https://api.example", policy=RetryPolicy(retries=0))
    text = report() + "\n\n" + report().replace("2026-11-30", "2026-12-01")
    with client, caplog.at_level(logging.WARNING, logger="research_radar.review.verifiers"):
        review_report(text, verifier=GitHubVerifier(github))
    warnings = [record.getMessage() for record in caplog.records]
    assert asked and sorted(set(asked)) == sorted(asked)
    assert len(warnings) == len(asked) and len(set(warnings)) == len(warnings)
    assert any("/repos/Neroued/ninfer/commits/1882c6ad" in message for message in warnings)


def test_cli_post_checks_the_default_store_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --db the review does not read radar.db, but the gate still does."""
    monkeypatch.chdir(tmp_path)
    store = open_store(DEFAULT_DB)
    secret = Source(
        key="gh:neroued/ninfer",
        kind=SourceKind.REPO,
        url="https://github.com/Neroued/ninfer",
        meta={"private": True},
    )
    with store.transaction() as conn:
        store.save_source(conn, secret)
    path = tmp_path / "r.md"
    title = HEADER.replace("日报", "日报 · Neroued/ninfer#3")  # the review quotes the title
    path.write_text(report(header=title), encoding="utf-8")
    with serve_replay() as server:
        result = runner.invoke(
            app, ["review", str(path), "--offline", "--post", TARGET], env=_post_env(server.url)
        )
        assert server.comments("example-org/inferhost", 126) == []
    assert result.exit_code == 1
    assert "private repository neroued/ninfer" in result.output


def test_github_unreachable_is_one_coverage_line_and_asked_once() -> None:
    """Offline or with GitHub down: one "not verified" line, one connection attempt."""
    import httpx

    from research_radar.review.verifiers import ChainVerifier, GitHubVerifier

    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.url.path)
        raise httpx.ConnectError("connection refused", request=request)

    client = httpx.Client(transport=httpx.MockTransport(handler))
    github = GitHubClient(client, "https://api.github.invalid", policy=RetryPolicy(retries=3))
    verifier = ChainVerifier([GitHubVerifier(github)])
    text = report() + "\n" + report().replace("2026-11-30", "2026-12-01")
    result = review_report(text, verifier=verifier, host_repo="example-org/inferhost")
    assert len(calls) == 1
    assert verifier.unreachable
    assert not [f for f in result.findings if f.rule == "claim-unverified"]
    [line] = [c for c in result.coverage if "GitHub" in c]
    assert line.startswith("未核验：GitHub 不可达")
    offline = review_report(report(), verifier=ChainVerifier([]), offline=True, language="en")
    assert any(c.startswith("not verified: offline") for c in offline.coverage)


def test_review_speaks_the_reports_language_and_lang_overrides() -> None:
    row = GOOD_ROW.replace("负载：LLM 与 Agentic；", "")
    zh = review_report(report(row))
    assert zh.language == "zh" and zh.groups[0].title.startswith("一个条目缺少模型/工作负载")
    en = review_report(report(row), language="en")
    assert en.groups[0].title == "1 entry lack workload"
    text = render_review(en)
    assert "classification dimensions" in text and "分类维度" not in text.split("Where")[0]


def test_findings_are_grouped_by_rule_across_entries_and_ordered() -> None:
    rows = "".join(
        GOOD_ROW.replace("NInfer", name).replace("负载：LLM 与 Agentic；", "RSI / kernel · ")
        for name in ("NInfer", "Strata", "Maya")
    )
    rows += GOOD_ROW.replace("NInfer", "Lily").replace(
        "`docs/kv-cache-offload.md`、#112", "复用现有评测"
    )
    result = review_report(report(rows))
    assert [g.rule for g in result.groups] == ["dimension-missing", "host-mapping-generic"]
    first = result.groups[0]
    assert first.entries == ["NInfer", "Strata", "Maya"] and first.title.startswith("三个条目")
    assert len(first.items) == 3 and "「NInfer RSI / kernel" in first.items[0]
    assert len(result.findings) == 4
    assert sorted(i for g in result.groups for i in g.members) == [0, 1, 2, 3]


def test_review_strings_cover_every_rule_in_both_languages() -> None:
    from research_radar.review.findings import RULES
    from research_radar.review.wording import review_strings

    def keys(table: dict[str, object], prefix: str = "") -> set[str]:
        found = set()
        for key, value in table.items():
            found |= keys(value, f"{prefix}{key}.") if isinstance(value, dict) else {prefix + key}
        return found

    zh, en = review_strings("zh"), review_strings("en")
    assert keys(zh) == keys(en)
    assert set(zh["rules"]) == set(RULES)
    for rule in zh["rules"].values():
        assert {"title", "problem", "item", "conditions", "impact", "fix"} <= set(rule)


def test_verification_facts_have_the_same_placeholders_in_both_languages() -> None:
    from string import Formatter

    from research_radar.review.wording import fact_fix, fact_text, review_strings

    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in Formatter().parse(template) if name}

    zh, en = review_strings("zh"), review_strings("en")
    for table in ("facts", "fact_fixes"):
        for kind, template in en[table].items():
            assert fields(template) == fields(zh[table][kind]), (table, kind)
    assert set(en["fact_fixes"]) <= set(en["facts"])
    params = {"ref": "acme/x#7", "claimed": "merged", "state": "closed-unmerged"}
    assert fact_text("ref-state-wrong", params, "zh") == "acme/x#7 为关闭未合并，报告写的是已合并"
    assert fact_fix("ref-state-wrong", params, "zh") == "把状态写为关闭未合并（以截止时间为准）"
    assert fact_text("pin-exists", {"pin": "a/b@1234567", "source": "store"}, "zh") == (
        "a/b@1234567 存在（本地存储）"
    )
    assert fact_text("pin-exists", {"pin": "a/b@1234567", "source": "store"}, "en") == (
        "a/b@1234567 exists (store)"
    )
    assert fact_fix("pin-exists", {}, "en") == ""


@given(st.text(max_size=40))
def test_a_base_names_slug_lies_inside_the_names_slug(name: str) -> None:
    """The daily's review reads history names with this as its cheap first test."""
    from research_radar.review.entries import base_name, name_slug

    assert name_slug(base_name(name)) in name_slug(name)


@pytest.mark.parametrize("dimension", ["workload", "mechanism", "system_level", "rsi_stage"])
def test_every_label_the_radar_writes_is_read_as_its_value(dimension: str) -> None:
    """The reviewer reads the labels the report itself writes, in both languages (the
    Chinese decision-policy label and the English cross-modal one were read as missing)."""
    table = {
        "workload": WORKLOAD,
        "mechanism": MECHANISM,
        "system_level": SYSTEM_LEVEL,
        "rsi_stage": RSI_STAGE,
    }[dimension]
    [found] = [d for d in load_taxonomy().dimensions if d.id == dimension]
    for value in found.values:
        for label in (value.label_zh, value.label_en):
            assert re.search(table[value.id], label), (value.id, label)


def test_a_chinese_decision_policy_workload_is_no_missing_workload() -> None:
    row = GOOD_ROW.replace("负载：LLM 与 Agentic；", "负载：决策/动作/策略/世界模型；")
    assert "workload" not in [f.dimension for f in review_report(report(row)).findings]
