"""Structured facts worded in Chinese and in English (report/wording.py)."""

from __future__ import annotations

import re
import tomllib
from datetime import date
from importlib import resources

import pytest

from research_radar.models import (
    Claim,
    ClaimKind,
    Conditions,
    Derivation,
    Exclusion,
    ExclusionReason,
    Finding,
    GateReason,
    Metric,
    Novelty,
    PendingDifference,
    Recommendation,
    StopCondition,
    ValidationProposal,
    WrittenProposal,
)
from research_radar.report import wording
from research_radar.report.wording import (
    differs_text,
    exclusion_text,
    format_conditions,
    gate_reason_text,
    join_or,
    novelty_label,
    prior_art_text,
    proposal_parts,
    recommendation_label,
    strings,
)

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
PROPOSAL = ValidationProposal(
    setup=Conditions(
        hardware=["Arc Pro B70"],
        model=["Qwen3.6-35B-A3B"],
        precision=["Q8_0"],
        baseline=["llama.cpp"],
        load={"gpus": "2", "hedged": "no"},
    ),
    claimed=[Metric(name="prefill", value=963, unit="tok/s")],
    metrics=["prefill"],
    guards=["task-quality", "latency-percentiles"],
    gpu_hours=2,
    repeats=2,
    stop=StopCondition(
        halt_on=["correctness", "quality"],
        inconclusive_on=["within-noise", "no-quality-data", "budget-spent"],
    ),
)


def _finding(**fields: object) -> Finding:
    values: dict[str, object] = {"project_key": "gh:z/n", "name": "N", "date": date(2026, 8, 29)}
    values.update(fields)
    return Finding.model_validate(values)


def test_exported_members() -> None:
    assert set(wording.__all__) == {
        "derivation_text",
        "difference_text",
        "prior_work_text",
        "differs_text",
        "exclusion_text",
        "format_conditions",
        "format_load",
        "gate_reason_text",
        "join_or",
        "labelled",
        "novelty_label",
        "prior_art_text",
        "proposal_parts",
        "recommendation_label",
        "strings",
    }


def test_both_languages_have_the_same_keys() -> None:
    text = resources.files("research_radar.report").joinpath("strings.toml").read_text("utf-8")
    table = tomllib.loads(text)
    assert set(table["zh"]) == set(table["en"])


@pytest.mark.parametrize("language", ["zh", "en"])
def test_every_id_has_words(language: str) -> None:
    t = strings(language)
    assert all(f"rec_{item.value}" in t for item in Recommendation)
    assert all(f"novelty_{item.value}" in t for item in Novelty)
    assert all(f"excluded_{item.value}" in t for item in ExclusionReason)
    assert all(f"reason_{reason}" in t for reason in GateReason.IDS - {"note"})


def test_english_fixed_words_are_english() -> None:
    assert [key for key, value in strings("en").items() if CJK.search(value)] == []


@pytest.mark.parametrize(
    ("item", "zh", "en"),
    [
        pytest.param(Recommendation.VALIDATE, "值得验证", "worth validating", id="validate"),
        pytest.param(Recommendation.WATCH, "观察", "watch", id="watch"),
        pytest.param(Recommendation.DEFER, "暂缓", "defer", id="defer"),
        pytest.param(Recommendation.COUNTEREXAMPLE, "反例", "counterexample", id="counter"),
    ],
)
def test_recommendation_labels(item: Recommendation, zh: str, en: str) -> None:
    assert item.value.isascii()
    assert (recommendation_label(item, "zh"), recommendation_label(item, "en")) == (zh, en)


def test_novelty_labels() -> None:
    assert novelty_label(Novelty.HISTORICAL) == "历史补发现"
    assert novelty_label(Novelty.HISTORICAL, "en") == "historical first discovery"


def test_join_or() -> None:
    assert join_or(["甲", "乙", "丙"]) == "甲、乙或丙"
    assert join_or(["a", "b", "c"], "en") == "a, b or c"
    assert join_or(["a"], "en") == "a"


def test_format_conditions() -> None:
    claim = Claim(
        kind=ClaimKind.PERFORMANCE,
        text="x",
        metrics=[Metric(name="decode", value=1.0, unit="tok/s")],
        conditions=Conditions(
            hardware=["RTX 4090 24 GB"],
            model=["Qwen3-8B"],
            precision=["Q4_K_M"],
            baseline=["llama.cpp"],
            load={"batch": "1"},
        ),
    )
    assert (
        format_conditions(claim)
        == "RTX 4090 24 GB · Qwen3-8B · Q4_K_M · batch 1 · vs llama.cpp · 作者报告"
    )
    assert format_conditions(claim, "en").endswith("vs llama.cpp · author-reported")
    bare = claim.model_copy(
        update={"conditions": Conditions(hardware=["H100"]), "reporter": "community"}
    )
    assert format_conditions(bare) == "H100 · 缺 model/precision/baseline · 社区报告"
    assert (
        format_conditions(bare, "en")
        == "H100 · missing model/precision/baseline · community-reported"
    )
    checked = claim.model_copy(update={"reporter": "us", "validated": True})
    assert format_conditions(checked).endswith("本地验证，已验证")
    assert format_conditions(checked, "en").endswith("locally validated, validated")


@pytest.mark.parametrize(
    ("exclusion", "zh", "en"),
    [
        pytest.param(
            Exclusion(
                name="kvtinker/ninfer",
                project_key="gh:kvtinker/ninfer",
                reason=ExclusionReason.PLAIN_FORK,
                parent="gh:neroued/ninfer",
            ),
            "kvtinker/ninfer（neroued/ninfer 的普通 fork）",
            "kvtinker/ninfer (a plain fork of neroued/ninfer)",
            id="plain-fork",
        ),
        pytest.param(
            Exclusion(
                name="NInfer",
                project_key="gh:neroued/ninfer",
                reason=ExclusionReason.ALREADY_REPORTED,
                last_reported=date(2026, 8, 22),
            ),
            "NInfer（已于 2026-08-22 报告；无实质变化，不重报）",
            "NInfer (reported on 2026-08-22, no substantive change since)",
            id="already-reported",
        ),
        pytest.param(
            Exclusion(
                name="Strata",
                project_key="gh:x/strata",
                reason=ExclusionReason.UPDATE_NOT_REPORTED,
            ),
            "Strata（已于 此前 报告；有更新，但按只报首次发现的策略不重报）",
            "Strata (reported earlier and updated since; only first discoveries are reported)",
            id="update-not-reported",
        ),
    ],
)
def test_exclusions(exclusion: Exclusion, zh: str, en: str) -> None:
    assert (exclusion_text(exclusion), exclusion_text(exclusion, "en")) == (zh, en)


def test_structured_proposal_in_both_languages() -> None:
    zh = proposal_parts("Mach X", PROPOSAL)
    assert zh == (
        "Mach X 在 Arc Pro B70 · Qwen3.6-35B-A3B · Q8_0 · 2 GPUs 上，作者报告的 prefill "
        "963 tok/s 相对 llama.cpp 成立且质量不降",
        "llama.cpp，同一 Arc Pro B70 · Qwen3.6-35B-A3B · Q8_0 · 2 GPUs、同输入、同 seed、同软件版本",
        ["prefill", "任务质量（quality，固定 held-out 集）", "p50/p95/p99 延迟"],
        "最多 2 GPU 小时（Arc Pro B70），每个配置 2 次重复",
        "出现正确性或质量回退即停；收益落在重复波动内、缺质量数据或预算用尽记为 "
        "INCONCLUSIVE（仅建议，未执行；执行另需授权）",
    )
    hypothesis, baseline, metrics, budget, stop = proposal_parts("Mach X", PROPOSAL, "en")
    assert not CJK.search(" ".join([hypothesis, baseline, *metrics, budget, stop]))
    assert "prefill 963 tok/s over llama.cpp on Arc Pro B70" in hypothesis
    assert budget == "at most 2 GPU hours (Arc Pro B70), 2 runs per configuration"
    assert stop.startswith("stop at the first correctness or quality regression;")
    assert "not executed" in stop


def test_a_stop_threshold_is_worded() -> None:
    stop = PROPOSAL.stop.model_copy(update={"tolerance": 1.5, "halt_on": ["quality"]})
    proposal = PROPOSAL.model_copy(update={"stop": stop})
    assert proposal_parts("X", proposal)[4].startswith("质量回退超过 1.5% 即停；")
    assert proposal_parts("X", proposal, "en")[4].startswith(
        "stop when quality regresses by more than 1.5%;"
    )


def test_a_written_proposal_is_quoted_as_written() -> None:
    written = WrittenProposal(
        hypothesis="状态回滚保持 logits 一致",
        baseline="关闭投机",
        metrics=["logits 差"],
        budget="2 GPU 小时",
        stop_condition="首次不一致即停",
    )
    expected = (
        "状态回滚保持 logits 一致",
        "关闭投机",
        ["logits 差"],
        "2 GPU 小时",
        "首次不一致即停",
    )
    assert proposal_parts("X", written, "en") == expected


def test_prior_art_and_pending_difference() -> None:
    derived = _finding(
        derived_from=Derivation(
            parent="gh:neroued/ninfer", evidence=["GitHub fork flag set", "README says so"]
        ),
        differs_pending=PendingDifference(names=["NInfer"]),
    )
    assert prior_art_text(derived) == "衍生自 neroued/ninfer：GitHub fork flag set；README says so"
    assert prior_art_text(derived, "en") == (
        "derived from neroued/ninfer: GitHub fork flag set; README says so"
    )
    assert differs_text(derived) == "待补：相对 NInfer 的新增工作，需人工核对"
    assert differs_text(derived, "en") == "to fill in by hand: what is new relative to NInfer"
    family = derived.model_copy(
        update={
            "differs_pending": PendingDifference(
                names=["Strata", "Maya"], family=True, words=["ssd"]
            )
        }
    )
    assert differs_text(family) == "待补：相对同族 Strata、Maya 的差异（区别词：ssd）"
    assert differs_text(family, "en") == (
        "to fill in by hand: how it differs from the family members Strata, Maya"
        " (distinctive words: ssd)"
    )
    written = derived.model_copy(update={"prior_art": "FlashAttention", "differs": "增加回滚"})
    assert (prior_art_text(written, "en"), differs_text(written, "en")) == (
        "FlashAttention",
        "增加回滚",
    )


def test_gate_reasons() -> None:
    lacks = GateReason(id="claim-lacks", facts={"claim": 1, "missing": ["model", "precision"]})
    assert gate_reason_text(lacks, "en") == "claim 1 lacks model, precision"
    assert gate_reason_text(lacks) == "claim 1 lacks model, precision"  # zh export: English
    derived = Derivation(parent="gh:neroued/ninfer", evidence=["x" * 100])
    named = GateReason(id="prior-art-named", facts={"derived_from": derived.model_dump()})
    assert gate_reason_text(named, "en") == (
        "nearest prior work named: " + ("derived from neroued/ninfer: " + "x" * 100)[:80]
    )
    assert gate_reason_text(GateReason(id="note", facts={"text": "source read"})) == "source read"
    with pytest.raises(ValueError, match="unknown gate reason"):
        GateReason(id="made-up")


def test_a_proposal_words_its_numbers_as_the_report_does() -> None:
    two = PROPOSAL.model_copy(
        update={"claimed": [*PROPOSAL.claimed, Metric(name="decode", value=1.49, unit="x")]}
    )
    assert "prefill 963 tok/s，decode 1.49 x 相对" in proposal_parts("Mach X", two)[0]
    assert "prefill 963 tok/s, decode 1.49 x over" in proposal_parts("Mach X", two, "en")[0]
