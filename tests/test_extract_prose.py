"""Numbers in prose: listed comparisons, time words, set-ups named per clause (issue #14)."""

from __future__ import annotations

import pytest

from research_radar.extract.cataloguefiles import default_catalog
from research_radar.extract.claims import extract_claims
from research_radar.extract.conditions import find_conditions
from research_radar.models import Claim


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


def test_a_listed_chinese_comparison_names_each_system() -> None:
    text = "我们和 vLLM、TensorRT-LLM 对比了两种配置，端到端吞吐提升 40%。"
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert claim.conditions.baseline == ["vLLM", "TensorRT-LLM"]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("相较于当前的开源方案，训练速度提升 30%。", id="dangqian"),
        pytest.param("相比目前的实现，延迟降低了 25%。", id="muqian"),
    ],
)
def test_a_time_word_after_a_comparison_cue_is_no_baseline(text: str) -> None:
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert claim.conditions.baseline == []


def test_each_clause_keeps_its_own_gpu_count() -> None:
    text = "在 4 GPUs 的配置下有 1.3 倍的加速，在 16 GPUs 的配置下有 2.6 倍的加速。"
    found = _numbers(extract_claims(text))
    assert found[1.3].conditions.load.get("gpus") == "4"
    assert found[2.6].conditions.load.get("gpus") == "16"


def test_one_gpu_count_for_the_sentence_is_not_split() -> None:
    text = "在 8 GPUs 上，吞吐提升 1.5 倍，延迟降低 20%。"
    found = _numbers(extract_claims(text))
    assert {found[1.5].conditions.load.get("gpus"), found[20.0].conditions.load.get("gpus")} == {
        "8"
    }


@pytest.mark.parametrize(
    ("text", "model"),
    [
        pytest.param("GLM-130B runs on one server.", "GLM-130B", id="glm-size"),
        pytest.param("GLM-4 runs on one server.", "GLM-4", id="glm-version"),
        pytest.param("GLM-4-9B runs on one server.", "GLM-4-9B", id="glm-version-variant"),
    ],
)
def test_glm_names_keep_their_size(text: str, model: str) -> None:
    assert find_conditions(text, default_catalog()).model == [model]


def test_each_clause_keeps_its_own_precision() -> None:
    text = "FP16 下解码为 40 tokens/s，而 INT4 下为 95 tokens/s。"
    found = _numbers(extract_claims(text))
    assert found[40.0].conditions.precision == ["FP16"]
    assert found[95.0].conditions.precision == ["INT4"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("每秒可生成 6 张图片。", [(6.0, "img/s")], id="ke-shengcheng"),
        pytest.param("每秒能够处理 900 个 token。", [(900.0, "tok/s")], id="nenggou-chuli"),
        pytest.param("训练吞吐为 210 TFLOPS/GPU。", [(210.0, "TFLOPS")], id="tflops-per-gpu"),
        pytest.param("The new kernel is 4 times faster than cuBLAS.", [(4.0, "x")], id="times"),
        pytest.param("It reaches 1.5 times the throughput of vLLM.", [(1.5, "x")], id="times-the"),
    ],
)
def test_rates_and_ratios_written_in_words(text: str, expected: list[tuple[float, str]]) -> None:
    assert [(m.value, m.unit) for c in extract_claims(text) for m in c.metrics] == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("We repeated every run 5 times and report the median.", id="repeats"),
        pytest.param("The queue holds 4 times the default batch.", id="setting"),
    ],
)
def test_times_that_count_repetitions_are_no_ratio(text: str) -> None:
    assert [m for c in extract_claims(text) for m in c.metrics] == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "Our kernel is 1.6x faster than Triton and 2.2x faster than PyTorch.", id="en"
        ),
        pytest.param("Our kernel beats Triton (1.6x) and PyTorch (2.2x).", id="en-parens"),
        pytest.param("该算子比 Triton 快 1.6 倍，比 PyTorch 快 2.2 倍。", id="zh"),
        pytest.param("该算子优于 Triton（1.6 倍）、PyTorch（2.2 倍）。", id="zh-parens"),
    ],
)
def test_each_number_keeps_the_system_it_is_compared_with(text: str) -> None:
    found = _numbers(extract_claims(text))
    assert found[1.6].conditions.baseline == ["Triton"]
    assert found[2.2].conditions.baseline == ["PyTorch"]


def test_a_compared_model_listed_with_its_number_is_not_the_claims_model() -> None:
    text = "Qwen2-7B outperforms Llama-2-7B (+6.1%) and Mistral-7B (+2.4%) on GSM8K."
    found = _numbers(extract_claims(text))
    assert found[2.4].conditions.model == ["Qwen2-7B"]
    assert found[2.4].conditions.baseline == ["Mistral-7B"]


def test_one_comparison_for_the_whole_sentence_stays_shared() -> None:
    text = "Compared with vLLM, prefill is 1.3x faster and decode is 1.9x faster on A100."
    found = _numbers(extract_claims(text))
    assert found[1.3].conditions.baseline == found[1.9].conditions.baseline == ["vLLM"]


def test_a_listed_comparison_does_not_stop_a_split_by_gpu_count() -> None:
    text = "我们和 vLLM、TGI 对比，在 2 GPUs 上吞吐提升 30%，在 16 GPUs 上吞吐提升 75%。"
    found = _numbers(extract_claims(text))
    assert found[30.0].conditions.load.get("gpus") == "2"
    assert found[75.0].conditions.load.get("gpus") == "16"
    assert found[75.0].conditions.baseline == ["vLLM", "TGI"]


@pytest.mark.parametrize(
    ("text", "value", "baseline"),
    [
        pytest.param("我们的推理速度达到 vLLM 的 1.5 倍。", 1.5, ["vLLM"], id="reaches-n-times"),
        pytest.param("吞吐量为 HuggingFace 的 3 倍。", 3.0, ["HuggingFace"], id="is-n-times"),
        pytest.param(
            "Our kernel is 1.4x faster than vanilla attention.",
            1.4,
            ["vanilla attention"],
            id="plain-reference",
        ),
        pytest.param(
            "## What helps vs. what doesn't\n\nThe cache cuts latency by 30%.",
            30.0,
            [],
            id="words-after-vs",
        ),
        pytest.param("Prefill is 2x over memory due to paging.", 2.0, [], id="words-after-over"),
        pytest.param("吞吐相比提升 2 倍，标志着线性扩展。", 2.0, [], id="zh-words-after-cue"),
    ],
)
def test_a_compared_system_is_a_name_or_a_plain_reference_never_a_fragment(
    text: str, value: float, baseline: list[str]
) -> None:
    [claim] = [c for c in extract_claims(text) if any(m.value == value for m in c.metrics)]
    assert claim.conditions.baseline == baseline


@pytest.mark.parametrize(
    ("text", "theirs", "own"),
    [
        pytest.param(
            "Decode throughput reaches 120 tok/s (baseline: 45 tok/s).", 45.0, 120.0, id="label"
        ),
        pytest.param(
            "With TensorRT-LLM it reaches 300 tok/s, up from 120 tok/s with HF Transformers.",
            120.0,
            300.0,
            id="up-from",
        ),
        pytest.param("相比 vLLM 的 45 tok/s，我们达到 120 tok/s。", 45.0, 120.0, id="zh-compared"),
        pytest.param("吞吐从 45 tok/s 提升到 120 tok/s。", 45.0, 120.0, id="zh-from-to"),
        pytest.param(
            "The INT4 model runs at 120 tok/s, compared with 45 tok/s for the FP16 model.",
            45.0,
            120.0,
            id="split-clauses",
        ),
    ],
)
def test_the_compared_systems_own_number_is_named_as_the_baselines(
    text: str, theirs: float, own: float
) -> None:
    names = {m.value: m.name for c in extract_claims(text) for m in c.metrics}
    assert names[theirs].endswith("(baseline)")
    assert not names[own].endswith("(baseline)")


def test_a_ratio_after_the_word_baseline_is_no_baselines_number() -> None:
    names = {
        m.value: m.name for c in extract_claims("Speedup over baseline: 2.1x.") for m in c.metrics
    }
    assert not names[2.1].endswith("(baseline)")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param(
            "Our engine reaches a 2.1x speedup (120 tok/s vs. 57 tok/s) over vLLM.",
            {2.1: "speedup", 120.0: "throughput", 57.0: "throughput (baseline)"},
            id="en",
        ),
        pytest.param(
            "加速 2 倍，从 30 ms 降到 15 ms。",
            {2.0: "加速", 30.0: "latency (baseline)", 15.0: "latency"},
            id="zh",
        ),
    ],
)
def test_a_speedup_word_names_the_ratio_not_the_absolute_numbers_beside_it(
    text: str, names: dict[float, str]
) -> None:
    [claim] = [c for c in extract_claims(text) if c.metrics]
    assert {m.value: m.name for m in claim.metrics} == names


def _units(text: str) -> dict[float, tuple[str, str]]:
    return {m.value: (m.name, m.unit) for c in extract_claims(text) for m in c.metrics}


LISTED = """# Bench

### Decode throughput (tokens/s)

- A100: 120.5
- **H100**: ~210.3
- Batch size: 16

Latency in ms for each batch size:

- bs=1: 12.3
- bs=8: 25.6

## Other

- Llama-2-7B: 45.2
"""


def test_a_unit_said_above_a_list_holds_for_its_label_and_number_items() -> None:
    """`- A100: 120.5` under `### Decode throughput (tokens/s)`: the heading says what the
    items measure, as it would for a table; the line right above a list says it too."""
    read = _units(LISTED)
    assert read[120.5] == ("throughput", "tok/s") and read[210.3] == ("throughput", "tok/s")
    assert read[12.3][1] == "ms" and read[25.6][1] == "ms"
    assert 16 not in read  # a setting's value, not a throughput
    assert read.get(45.2, ("", ""))[1] == ""  # a section that says no unit gives none


def test_a_unit_above_a_list_is_not_given_to_a_sentence_with_more_after_its_number() -> None:
    text = "### Throughput (tok/s)\n\n- A100: 120.5 with 8 users, up from 80.2 last year\n"
    assert all(unit != "tok/s" for _, unit in _units(text).values())


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        pytest.param("- 🚀 150+ tokens/s on a single RTX 3090", 150.0, "tok/s", id="tok"),
        pytest.param("It serves 1000+ req/s per node.", 1000.0, "req/s", id="req"),
        pytest.param("We reach 30+ FPS on Jetson Orin.", 30.0, "FPS", id="fps"),
    ],
)
def test_a_number_with_a_plus_before_its_unit_is_read(text: str, value: float, unit: str) -> None:
    assert _units(text)[value][1] == unit


@pytest.mark.parametrize(
    ("text", "value", "name"),
    [
        pytest.param("The F1 score is 88.5.", 88.5, "F1", id="f1-is"),
        pytest.param("Pass@1 on HumanEval: 62.2.", 62.2, "Pass@1", id="pass-at-on"),
        pytest.param("The acceptance rate is 0.78 at depth 4.", 0.78, "acceptance rate", id="rate"),
        pytest.param(
            "The mean accepted tokens per step is 2.9.",
            2.9,
            "mean accepted tokens per step",
            id="accepted",
        ),
        pytest.param("Real-time factor (RTF) is 0.12 on CPU.", 0.12, "Real-time factor", id="rtf"),
    ],
)
def test_a_score_named_before_its_number_is_read_without_a_unit(
    text: str, value: float, name: str
) -> None:
    assert _units(text)[value] == (name, "")


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        pytest.param("We report MMLU 5-shot results below.", 5.0, id="shots"),
        pytest.param("The PPL of LLaMA-7B is 5.68 in our runs.", 7.0, id="model-size"),
        pytest.param("Accuracy improves by 2.3 over the baseline.", 2.3, id="change"),
        pytest.param("Accuracy: 16-bit weights are kept.", 16.0, id="setting"),
        pytest.param("Average acceptance length is 3.2 tokens.", 3.2, id="with-a-unit-word"),
    ],
)
def test_a_number_after_a_score_name_that_is_no_score_is_not_read_as_one(
    text: str, absent: float
) -> None:
    read = _units(text)
    assert absent not in read or read[absent][1] != "" or read[absent][0] == "value"


def _names(text: str) -> dict[float, str]:
    return {m.value: m.name for c in extract_claims(text) for m in c.metrics}


@pytest.mark.parametrize(
    ("text", "value", "name"),
    [
        pytest.param(
            "The new scheduler reaches 88.0 tok/s decode and 1.2x prefill.",
            1.2,
            "prefill",
            id="after-ratio",
        ),
        pytest.param(
            "Our paged latency path reaches 97.5 tok/s decode on one GPU.",
            97.5,
            "decode",
            id="after-rate",
        ),
        pytest.param(
            "Release 2.1: 3.1x Throughput Gain and 4x Latency Cut.", 4, "Latency", id="after-title"
        ),
        pytest.param(
            "Draft-model decode gives up to 1.4x Speedup at low load.",
            1.4,
            "Speedup",
            id="after-speedup",
        ),
        pytest.param("decode 阶段稳定 1.8× 加速。", 1.8, "加速", id="after-zh"),
        pytest.param("prefill 2900 tok/s decode 37 tok/s.", 2900, "prefill", id="next-label"),
        pytest.param("TTFT: 95 ms latency overall.", 95, "TTFT", id="joined-before"),
    ],
)
def test_a_metric_word_right_after_a_number_names_it(text: str, value: float, name: str) -> None:
    assert _names(text)[value] == name


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("以 INT8 加载 Baichuan-7B 需要大概 9GB 内存。", 9.0, id="needs-zh"),
        pytest.param("转换过程会消耗 21GB 内存。", 21.0, id="consumes-zh"),
        pytest.param("The converter takes 21 GB RAM at its peak.", 21.0, id="takes"),
    ],
)
def test_the_memory_a_run_uses_is_a_measurement(text: str, value: float) -> None:
    assert value in _names(text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("在 32GB 内存的笔记本上，速度为 14 tokens/s。", id="machine-zh"),
        pytest.param("Test box: Ryzen 7, 64GB RAM; 30 tokens/s.", id="machine"),
    ],
)
def test_a_machines_memory_stays_a_condition(text: str) -> None:
    assert 32.0 not in _names(text) and 64.0 not in _names(text)


def test_a_hard_wrapped_chinese_sentence_keeps_its_model_on_the_next_line() -> None:
    text = (
        "## 结果\n\n"
        "在同一台机器的第二轮测试中，Qwen2-1.5B 的 decode 速度从约 18.40 tok/s 提升到约\n"
        "19.75 tok/s，增幅约 7.3%。\n"
    )
    found = _numbers(extract_claims(text))
    assert found[19.75].conditions.model == ["Qwen2-1.5B"]
    assert found[7.3].conditions.model == ["Qwen2-1.5B"]


def test_short_chinese_lines_stay_statements_of_their_own() -> None:
    text = "模型：Qwen2-1.5B，速度 18 tok/s\n显存：3.1 GB\n"
    claims = [c for c in extract_claims(text) if c.metrics]
    assert [c.line for c in claims] == [1, 2]


def _values(text: str) -> list[tuple[float, str]]:
    return [(m.value, m.unit) for claim in extract_claims(text) for m in claim.metrics]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Throughput improves by 5%-30% on A100.", [(5, "%"), (30, "%")], id="percent"),
        pytest.param("延迟降低 10%-20%。", [(10, "%"), (20, "%")], id="chinese-percent"),
        pytest.param("速度是 FP16 的 2倍-3倍。", [(2, "x"), (3, "x")], id="chinese-ratio"),
        pytest.param("单张图耗时 5秒-10秒。", [(5, "s"), (10, "s")], id="chinese-seconds"),
        pytest.param("The speedup is 1.2-1.5x on H100.", [(1.2, "x"), (1.5, "x")], id="bare-start"),
        pytest.param(
            "推理速度提升 1.18-2.74 倍之间。",
            [(1.18, "x"), (2.74, "x")],
            id="chinese-times-between",
        ),
        pytest.param(
            "在 H100 上加速比在 1.18-2.74 之间。", [(1.18, "x"), (2.74, "x")], id="speedup-between"
        ),
        pytest.param(
            "On H100 the speedup is 1.2-1.5 over vLLM.", [(1.2, "x"), (1.5, "x")], id="speedup-of"
        ),
        pytest.param(
            "Latency is 41 ms-52 ms on A100.", [(41.0, "ms"), (52.0, "ms")], id="unit-word"
        ),
    ],
)
def test_a_dash_between_two_numbers_of_one_unit_is_a_range(
    text: str, expected: list[tuple[float, str]]
) -> None:
    """Both ends are numbers the author wrote; neither is negative (issue #14)."""
    assert _values(text) == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("Memory falls by 20%, -30% in the worst case.", -30, id="after-a-comma"),
        pytest.param("Accuracy changes by 2% -30% on A100.", -30, id="after-a-space"),
        pytest.param("-30% latency on A100.", -30, id="at-the-start"),
        pytest.param("吞吐提升 2倍-30% 显存。", -30, id="after-another-unit"),
        pytest.param("Prefill holds 9 tok/s-12% on A100.", -12, id="after-a-unit-word"),
        pytest.param("The kernel takes 41 ms-7.5% with the patch.", -7.5, id="after-ms"),
        pytest.param("Decode: 12 tokens/s-4pp on A100.", -4, id="points-after-a-unit-word"),
    ],
)
def test_a_minus_sign_is_kept_outside_a_range(text: str, value: float) -> None:
    """Glued after another unit (`tok/s-12%`), the hyphen is the change's sign: the
    change is never read as a rise (issue #14)."""
    values = [v for v, _ in _values(text)]
    assert value in values and -value not in values
