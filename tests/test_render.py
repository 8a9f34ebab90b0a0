from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from research_radar.classify.model import Taxonomy
from research_radar.classify.profile import load_taxonomy
from research_radar.models import (
    Claim,
    ClaimKind,
    Conditions,
    Correction,
    Coverage,
    Finding,
    Gate,
    GateName,
    Metric,
    Novelty,
    Recommendation,
    Report,
    Snapshot,
    Tag,
    TouchPoint,
    Verdict,
    WrittenProposal,
)
from research_radar.report.compose import build_report
from research_radar.report.markdown import render_markdown
from research_radar.report.parse import parse_report
from research_radar.report.readback import read_findings

CUTOFF = datetime(2026, 8, 23, 0, 30, tzinfo=UTC)


@pytest.fixture(scope="module")
def taxonomy() -> Taxonomy:
    return load_taxonomy()


def _tags(**values: list[str]) -> dict[str, list[Tag]]:
    return {dim: [Tag(dimension=dim, value=v) for v in vs] for dim, vs in values.items()}


def _findings() -> list[Finding]:
    speed = Claim(
        kind=ClaimKind.PERFORMANCE,
        text="decode 922.4 tok/s at C=8",
        metrics=[Metric(name="throughput", value=922.4, unit="tok/s")],
        conditions=Conditions(
            hardware=["RTX 5090"],
            model=["Qwen3-27B"],
            precision=["NVFP4"],
            baseline=["llama.cpp"],
            load={"concurrency": "8"},
        ),
        where="Neroued/ninfer@5ea3242a206cdb0c4c1beaeb9d8a3048e6248423:README.md#L10",
    )
    vague = Claim(
        kind=ClaimKind.PERFORMANCE,
        text="2x faster",
        metrics=[Metric(name="speedup", value=2, unit="x")],
    )
    limit = Claim(kind=ClaimKind.LIMITATION, text="长上下文 prefill 回退 0.8x")
    proposal = WrittenProposal(
        hypothesis="状态回滚在拒绝草稿时保持 logits 一致",
        baseline="同模型同精度关闭投机",
        metrics=["logits 差", "p95 延迟", "任务质量"],
        budget="2 GPU 小时",
        stop_condition="首次不一致即停",
    )
    ninfer = Finding(
        project_key="gh:neroued/ninfer",
        name="NInfer",
        date=CUTOFF.date(),
        url="https://github.com/Neroued/ninfer",
        snapshot=Snapshot(
            source_key="gh:neroued/ninfer",
            version="5ea3242a206cdb0c4c1beaeb9d8a3048e6248423",
            version_date=datetime(2026, 7, 24, 8, 12, tzinfo=UTC),
            url="https://github.com/Neroued/ninfer/tree/5ea3242a206cdb0c4c1beaeb9d8a3048e6248423",
            meta={"created_at": "2026-06-25T13:37:10+00:00"},
        ),
        novelty=Novelty.NEW_PROGRESS,
        mechanism="KV 与递归状态联合回滚，投机解码接受前缀重放",
        prior_art="已有投机解码与缓存方法的模型特化组合",
        why="状态事务正确性是投机解码落地的前提",
        tags=_tags(
            workload=["llm-agentic"],
            mechanism=["cache", "quant-sparsity-speculation"],
            system_level=["model-execution"],
            rsi_stage=["verification"],
        ),
        rsi_target="engine",
        claims=[speed, vague, limit],
        gates=[Gate(name=name, verdict=Verdict.PARTIAL, reasons=["x"]) for name in GateName],
        maturity="code-available",
        flags=["unverified"],
        recommendation=Recommendation.VALIDATE,
        priority="P1",
        horizon="Next",
        touch_points=[
            TouchPoint(kind="doc", ref="docs/speculative-decoding.md"),
            TouchPoint(kind="pr", ref="#112"),
        ],
        relation="extensible-gap",
        related=["gh:example/strata"],
        differs="增加 GDN 状态重放",
        proposal=proposal,
    )
    paper = Finding(
        project_key="arxiv:2409.10516",
        name="RetrievalAttention",
        date=CUTOFF.date(),
        url="https://arxiv.org/abs/2409.10516",
        snapshot=Snapshot(
            source_key="arxiv:2409.10516", version="v2", url="https://arxiv.org/abs/2409.10516v2"
        ),
        novelty=Novelty.HISTORICAL,
        tags=_tags(
            workload=["llm-agentic"],
            mechanism=["cache"],
            system_level=["model-execution"],
            rsi_stage=[],
        ),
        maturity="paper-reported",
        recommendation=Recommendation.WATCH,
        relation="existing-capability",
        touch_points=[TouchPoint(kind="doc", ref="docs/kv-cache-offload.md")],
    )
    risky = Finding(
        project_key="gh:red-weasel/machx-inference-engine",
        name="Mach X",
        date=CUTOFF.date(),
        url="https://github.com/Red-Weasel/machx-inference-engine",
        snapshot=Snapshot(
            source_key="gh:red-weasel/machx-inference-engine",
            version="1ce94927b4f99550a7f4a31c90821da96c7161b3",
        ),
        tags=_tags(
            workload=["llm-agentic"],
            mechanism=["kernel-compiler-fusion"],
            system_level=["operator"],
            rsi_stage=[],
        ),
        maturity="code-available",
        flags=["counterexample"],
        recommendation=Recommendation.COUNTEREXAMPLE,
        relation="not-recommended",
        priority="P2",
        horizon="Watch",
    )
    return [paper, risky, ninfer]


def _report(language: str = "zh"):  # type: ignore[no-untyped-def]
    return build_report(
        _findings(),
        now=CUTOFF,
        host_name="example-org/inferhost",
        host_sha="0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c",
        host_rechecked=True,
        coverage=Coverage(
            sources={"github": "ok", "arxiv": "failed: timeout"},
            queries=["qwen inference engine kv cache"],
            dedup_scope=12,
            window_start=datetime(2026, 8, 21, 0, 30, tzinfo=UTC),
            window_end=CUTOFF,
        ),
        corrections=[
            Correction(
                project_key="gh:x/strata",
                name="Strata",
                text="默认路由已回退",
                supersedes="2026-08-20",
            )
        ],
        language=language,
    )


def test_report_matches_golden(taxonomy: Taxonomy, golden) -> None:  # type: ignore[no-untyped-def]
    golden("report-zh.md", render_markdown(_report(), taxonomy))


def test_english_report_matches_golden(taxonomy: Taxonomy, golden) -> None:  # type: ignore[no-untyped-def]
    golden("report-en.md", render_markdown(_report("en"), taxonomy))


def test_header_has_beijing_cutoff_and_host_sha(taxonomy: Taxonomy) -> None:
    text = render_markdown(_report(), taxonomy)
    parsed = parse_report(text.split("\n", 1)[1])
    assert parsed.cutoff == "2026-08-23 08:30:00" and parsed.cutoff_beijing
    assert parsed.host_sha == "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c"


def test_incomplete_numbers_are_not_headlines(taxonomy: Taxonomy) -> None:
    text = render_markdown(_report(), taxonomy)
    assert "922.4 tok/s" in text and "2 x" not in text.split("### 证据索引")[0]
    assert "1 个数字条件不全" in text


def test_rendered_report_parses_back_into_same_findings(taxonomy: Taxonomy) -> None:
    report = _report()
    dims = {d: taxonomy.dimension(d).value_ids for d in taxonomy.dimension_ids}
    parsed = read_findings(render_markdown(report, taxonomy), taxonomy, dims)

    def shown(f: Finding) -> tuple[object, ...]:
        return (
            f.project_key,
            f.name,
            f.date,
            f.snapshot.version if f.snapshot else None,
            {
                d: f.values(d)
                for d in ("workload", "mechanism", "system_level", "rsi_stage")
                if f.values(d)
            },
            f.rsi_target,
            f.maturity,
            f.flags,
            f.recommendation,
            f.novelty,
            f.relation,
            [tp.ref for tp in f.touch_points],
            f.priority,
            f.horizon,
            f.evidence_id,
        )

    assert [shown(f) for f in parsed] == [shown(f) for f in report.findings]


def test_empty_report_says_nothing_new(taxonomy: Taxonomy) -> None:
    report = build_report([], now=CUTOFF)
    text = render_markdown(report, taxonomy)
    assert "本轮无可靠新增" in text and "未配置宿主项目" in text and "|" not in text


@given(st.text(max_size=200))
def test_cells_never_break_the_table(text: str) -> None:
    taxonomy = load_taxonomy()
    finding = _findings()[2].model_copy(update={"mechanism": text, "name": "X"})
    rendered = render_markdown(build_report([finding], now=CUTOFF), taxonomy)
    table = [line for line in rendered.splitlines() if line.startswith("| **X**")]
    assert len(table) == 1
    assert table[0].replace("\\|", "").count("|") == 8


HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
FULL_WIDTH = re.compile(r"[\u3000-\u303f\uff00-\uffef]")


def _quoted(report: Report) -> str:
    """Text the report quotes from sources and people: names, summaries, claims, proposals
    written by hand, corrections."""
    texts: list[str] = [c.text for c in report.corrections]
    for f in report.findings:
        texts += [f.name, *f.former_names, f.mechanism, f.prior_art, f.why, f.differs]
        texts += [claim.text for claim in f.claims]
        if isinstance(f.proposal, WrittenProposal):
            texts += [*f.proposal.model_dump().values()]
    return " ".join(str(text) for text in texts)


def test_english_report_has_chinese_only_in_quoted_text(taxonomy: Taxonomy) -> None:
    report = _report("en")
    text = render_markdown(report, taxonomy)
    quoted = " ".join(HAN.findall(_quoted(report)))
    assert HAN.findall(text), "the fixture quotes Chinese source text"
    assert [run for run in HAN.findall(text) if run not in quoted] == []
    assert FULL_WIDTH.findall(text) == []


@pytest.mark.parametrize(("language", "shown"), [("zh", "未判定（证据不足）"), ("en", "unknown")])
def test_a_dimension_the_classifier_left_unknown_says_so(
    taxonomy: Taxonomy, language: str, shown: str
) -> None:
    findings = _findings()
    paper = findings[0].model_copy(
        update={"tags": _tags(workload=["llm-agentic"], mechanism=[], system_level=[])}
    )
    report = build_report([paper], now=CUTOFF, language=language)
    text = render_markdown(report, taxonomy)
    row = next(line for line in text.splitlines() if "RetrievalAttention" in line)
    level = "层级" if language == "zh" else "level"
    mechanism = "机制" if language == "zh" else "mechanism"
    assert re.search(rf"{level}\s*[：:]\s*{re.escape(shown)}", row), row
    assert re.search(rf"{mechanism}\s*[：:]\s*{re.escape(shown)}", row), row
    if language == "zh":  # the history reads back the house (Chinese) table
        dims = {d: taxonomy.dimension(d).value_ids for d in taxonomy.dimension_ids}
        parsed = read_findings(text, taxonomy, dims)
        assert parsed[0].values("system_level") == [] and parsed[0].values("mechanism") == []


@pytest.mark.parametrize(
    ("language", "english", "chinese"),
    [
        ("zh", "作者原文：“Only Arc GPUs are covered”", "长上下文 prefill 回退 0.8x"),
        ("en", "Only Arc GPUs are covered", "in the author's words: “长上下文 prefill 回退 0.8x”"),
    ],
)
def test_limits_in_the_other_language_are_quoted_as_the_authors(
    taxonomy: Taxonomy, language: str, english: str, chinese: str
) -> None:
    ninfer = _findings()[2]
    limit = Claim(kind=ClaimKind.LIMITATION, text="Only Arc GPUs are covered.")
    finding = ninfer.model_copy(update={"claims": [*ninfer.claims, limit]})
    text = render_markdown(build_report([finding], now=CUTOFF, language=language), taxonomy)
    row = next(line for line in text.splitlines() if line.startswith("| **NInfer**"))
    assert english in row and chinese in row
    index = text.split("### 证据索引" if language == "zh" else "### Evidence index")[1]
    assert english in index and chinese in index
