"""Domain models: findings stored before issue #12 still load, as facts."""

from __future__ import annotations

from research_radar.models import (
    Derivation,
    Finding,
    GateReason,
    PendingDifference,
    Recommendation,
    WrittenProposal,
)

LEGACY = """{
  "project_key": "gh:zhongpei/ninfer-4090",
  "name": "zhongpei/ninfer-4090",
  "date": "2026-08-29",
  "recommendation": "值得验证",
  "prior_art": "衍生自 neroued/ninfer：GitHub fork flag set (parent gh:neroued/ninfer)；README says so",
  "differs": "待补：相对 NInfer 的新增工作，需人工核对",
  "gates": [{"name": "prior_art", "verdict": "pass", "reasons": ["nearest prior work named"]}],
  "proposal": {
    "hypothesis": "作者报告的 decode 63tok/s 成立",
    "baseline": "llama.cpp",
    "metrics": ["decode", "p50/p95/p99 延迟"],
    "budget": "最多 2 GPU 小时",
    "stop_condition": "出现正确性回退即停"
  }
}"""


def test_a_finding_stored_with_chinese_values_loads_as_facts() -> None:
    finding = Finding.model_validate_json(LEGACY)
    assert finding.recommendation is Recommendation.VALIDATE
    assert finding.derived_from == Derivation(
        parent="gh:neroued/ninfer",
        evidence=["GitHub fork flag set (parent gh:neroued/ninfer)", "README says so"],
    )
    assert finding.prior_art == ""
    assert finding.differs_pending == PendingDifference(names=["NInfer"])
    assert finding.differs == ""
    assert finding.gates[0].reasons == [
        GateReason(id="note", facts={"text": "nearest prior work named"})
    ]
    assert isinstance(finding.proposal, WrittenProposal)
    assert finding.proposal.budget == "最多 2 GPU 小时"


def test_legacy_recommendations_map_onto_ids() -> None:
    base = {"project_key": "gh:a/b", "name": "b", "date": "2026-08-29"}
    loaded = [
        Finding.model_validate({**base, "recommendation": value}).recommendation
        for value in ("值得验证", "观察", "暂缓", "反例", "watch")
    ]
    assert loaded == [
        Recommendation.VALIDATE,
        Recommendation.WATCH,
        Recommendation.DEFER,
        Recommendation.COUNTEREXAMPLE,
        Recommendation.WATCH,
    ]


def test_a_legacy_family_to_do_keeps_names_and_words() -> None:
    finding = Finding.model_validate(
        {
            "project_key": "gh:x/maya",
            "name": "Maya",
            "date": "2026-08-29",
            "differs": "待补：相对同族 Strata、Atrex 的差异（区别词：ssd、nvme）",
        }
    )
    assert finding.differs_pending == PendingDifference(
        names=["Strata", "Atrex"], family=True, words=["ssd", "nvme"]
    )


def test_a_person_written_difference_is_kept_as_written() -> None:
    finding = Finding.model_validate(
        {"project_key": "gh:a/b", "name": "b", "date": "2026-08-29", "differs": "增加回滚"}
    )
    assert (finding.differs, finding.differs_pending) == ("增加回滚", None)


def test_round_trip_through_json_keeps_the_facts() -> None:
    finding = Finding.model_validate_json(LEGACY)
    assert Finding.model_validate_json(finding.model_dump_json()) == finding
