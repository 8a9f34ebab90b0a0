"""Tables and their compared systems: units said around a table, score columns, the
reference column or row, baselines named in prose above a table (issue #14)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from research_radar.extract.claims import extract_claims
from research_radar.extract.compared import is_baseline_metric
from research_radar.extract.markdown import parse_segments
from research_radar.extract.reader import BUCKETS, LearnedReader
from research_radar.models import Claim, Conditions


def _constant(bias: float) -> LearnedReader:
    """A reader that takes every number the rules left (bias > 0) or none (bias < 0)."""
    return LearnedReader(np.zeros(BUCKETS, dtype=np.float32), bias, 0.5)


def _found(text: str, where: str = "") -> dict[float, tuple[str, str, Claim]]:
    """value -> (metric name, unit, claim) of every number extracted."""
    claims = extract_claims(text, where=where)
    return {m.value: (m.name, m.unit, c) for c in claims for m in c.metrics}


def test_a_unit_in_a_parent_sections_notes_holds_for_its_subsections_tables() -> None:
    text = (
        "## Results\n\n- 每个数字为 100 次推理的平均值，单位为毫秒。\n\n### Detectors\n\n"
        "| 模型 | FP32 时延 | INT8 时延 | FP32 mAP | INT8 mAP |\n|---|---|---|---|---|\n"
        "| DetNet-s | 7.87 | 4.51 | 37.6 | 36.7 |\n| DetNet-l | 27.47 | 6.52 | 51.1 | 50.4 |\n"
        "\n## Other\n\n| Model | Time |\n|---|---|\n| DetNet-s | 3.25 |\n"
    )
    found = _found(text)
    # the section `Other` is outside the notes: the number reader may read its time, but
    # never in their unit
    other = found.pop(3.25, None)
    assert other is None or other[1] != "ms"
    # `DetNet-s` is a name: its `s` is no unit of the row
    assert {v: u for v, (_, u, _) in found.items()} == {
        7.87: "ms",
        4.51: "ms",
        37.6: "",
        36.7: "",
        27.47: "ms",
        6.52: "ms",
        51.1: "",
        50.4: "",
    }
    assert found[36.7][2].conditions.precision == ["INT8"]


def test_the_html_table_reader_exports_its_api() -> None:
    from research_radar.extract import htmltables

    assert set(htmltables.__all__) == {
        "HtmlTable",
        "parse_html_table",
        "table_end",
        "valued_header",
    }
    block = ["<table>", "<tr><th>System</th><th>ms</th></tr>", "<tr><td>A</td><td>3</td></tr>"]
    table = htmltables.parse_html_table([*block, "</table>"], 10)
    assert table is not None and table.headed
    assert [(line, cells) for line, cells, _ in table.rows] == [
        (11, ["System", "ms"]),
        (12, ["A", "3"]),
    ]
    assert htmltables.table_end([*block, "</table>"], 0) == 3


def test_a_reference_row_compares_only_cells_it_has_a_result_for_on_its_hardware() -> None:
    # a delimiter row of single dashes, rows without their leading pipe
    text = (
        "引擎 | GPU | 编码 (tokens/s) | 解码 (tokens/s) |\n|-|-|-|-|\n"
        "FastEng | A10 | 700 | 4.5\nFastEng | V100 | 2900 | 21\n"
        "PyTorch | V100 | - | 3.5\nPyTorch | H100 | OOM | 9.5\nFastEng | H100 | 5100 | 33\n"
    )
    found = _found(text, "org/FastEng@abc:README.md")  # the project's own rows: FastEng
    assert found[3.5][0].endswith("(baseline)") and found[9.5][0].endswith("(baseline)")
    assert found[21.0][2].conditions.baseline == ["PyTorch"]
    assert found[33.0][2].conditions.baseline == ["PyTorch"]
    # PyTorch ran out of memory on H100: a result all the same; on V100 it has no encode number
    assert found[5100.0][2].conditions.baseline == ["PyTorch"]
    assert found[2900.0][2].conditions.baseline == []
    # no reference row on the A10
    assert found[700.0][2].conditions.baseline == found[4.5][2].conditions.baseline == []


def test_a_corner_cell_names_the_numbers_of_every_column() -> None:
    text = (
        "| Perplexity | int4 | fp8 | fp16 |\n|---|---|---|---|\n| Llama-2-7B | 6.36 | 6.18 | 6.10 |\n"
        "\n| Throughput | Before | After |\n|---|---|---|\n| batch 8 | 1683.8 | 1810.2 |\n"
        "| latency (ms) | 21.5 | 19.5 |\n"
    )
    found = _found(text)
    assert [(found[v][0], found[v][1]) for v in (6.36, 6.18, 1810.2)] == [
        ("Perplexity", ""),
        ("Perplexity", ""),
        ("Throughput", ""),
    ]
    assert found[6.36][2].conditions.baseline == ["FP16"]
    assert found[6.10][0] == "Perplexity (baseline)"
    assert found[1810.2][2].conditions.load == {"batch": "8"}
    # a row label that names its own metric wins over the corner
    assert (found[19.5][0], found[19.5][1]) == ("latency", "ms")


def test_the_compared_values_module_exports_its_api() -> None:
    from research_radar.extract import comparable, compared

    assert comparable.__all__ == ["Compared"]

    assert set(compared.__all__) == {
        "ARROW",
        "BASELINE_SUFFIX",
        "FROM_TO",
        "baseline_values",
        "is_baseline_metric",
        "without_self_comparison",
    }


def test_minutes_in_chinese_and_dui_as_an_object_marker_is_no_comparison() -> None:
    text = "我们在 4 张 A100 上分别对 Qwen2-7B（12 分钟内）和 Qwen2-72B（2.5 小时内）进行了微调。"
    found = _found(text)
    assert (found[12.0][1], found[2.5][1]) == ("min", "h")
    assert all(c.conditions.baseline == [] for _, _, c in found.values())
    # `对 vLLM 3.2x` still compares
    assert _found("吞吐对 vLLM 3.2x")[3.2][2].conditions.baseline == ["vLLM"]


def test_the_number_before_a_change_is_the_earlier_systems() -> None:
    found = _found("At batch 16: 2210 → 2480 tok/s; tail time 3.10 -> 1.95 ms.")
    assert [found[v][0] for v in (2210.0, 2480.0, 3.1, 1.95)] == [
        "throughput (baseline)",
        "throughput",
        "latency (baseline)",
        "latency",
    ]
    # a range is no change
    spans = _found("On x86 CPUs, speedups range from 1.9x to 4.2x.")
    assert not spans[1.9][0].endswith("(baseline)")


def test_a_before_column_is_the_reference_of_the_others() -> None:
    text = (
        "| Decode (tok/s) | Before the fix | Step 1 | Step 2 |\n|---|---|---|---|\n"
        "| batch 4 | 820.5 | 861.0 | 902.3 |\n"
        "\n| 模型 | 原始 (ms) | 优化后 (ms) |\n|---|---|---|\n| Qwen2-7B | 41.2 | 30.8 |\n"
    )
    found = _found(text)
    assert found[820.5][0].endswith("(baseline)") and found[41.2][0].endswith("(baseline)")
    assert found[902.3][2].conditions.baseline == ["Before the fix"]
    assert found[30.8][2].conditions.baseline == ["原始"]


def test_a_column_of_an_unknown_system_beside_a_known_one_is_the_new_systems() -> None:
    text = (
        "### ResNet50\n\n| Batch size | PyTorch (ms) | Zephyrine (ms) |\n|---|---|---|\n"
        "| 1 | 6.17 | 1.70 |\n\n"
        "| 模型 | OpenCV 端到端耗时(ms) | QuickCV 端到端耗时(ms) |\n|---|---|---|\n"
        "| ResNet50 | 2.78 | 1.63 |\n"
    )
    found = _found(text)
    assert found[6.17][0].endswith("(baseline)") and found[2.78][0].endswith("(baseline)")
    assert found[1.70][2].conditions.baseline == ["PyTorch"]
    assert found[1.63][2].conditions.baseline == ["OpenCV"]


def test_a_chinese_comparison_stops_before_what_is_compared() -> None:
    [claim] = extract_claims("QuickCV 相比其他图像处理库性能高 40%。")
    assert claim.conditions.baseline == ["其他图像处理库"]


def test_precision_spellings_of_low_bit_libraries() -> None:
    text = "| PPL | sym_int4 | fp8_e5m2 | fp8_e4m3 | fp16 |\n|---|---|---|---|---|\n| Qwen2-7B | 7.1 | 6.9 | 6.8 | 6.7 |\n"
    found = _found(text)
    assert [found[v][2].conditions.precision for v in (7.1, 6.9, 6.8)] == [
        ["INT4"],
        ["FP8"],
        ["FP8"],
    ]
    assert found[7.1][2].conditions.baseline == ["FP16"]


def test_an_ours_column_under_a_group_header_and_a_full_width_caption_unit() -> None:
    text = (
        "<table>\n<tr><th rowspan=2>Model</th><th colspan=2>Latency (ms)</th></tr>\n"
        "<tr><th>vLLM</th><th>Ours</th></tr>\n"
        "<tr><td>Llama-2-7B</td><td>12.1</td><td>8.3</td></tr>\n</table>\n\n"
        "表 1：与 SGLang 的吞吐对比（tokens/s）\n\n"
        "| 模型 | SGLang | 本文 |\n|---|---|---|\n| Qwen2-7B | 1200 | 1850 ↑ |\n\n"
        "| Model | HF (ms) | Ours (ms) |\n|---|---|---|\n| Llama-2-7B | 30.2 | **11.9** |\n"
    )
    found = _found(text)
    assert found[12.1][0].endswith("(baseline)") and found[8.3][2].conditions.baseline == ["vLLM"]
    assert (found[1850.0][1], found[1850.0][2].conditions.baseline) == ("tok/s", ["SGLang"])
    # the compared system is named without its unit
    assert found[30.2][0].endswith("(baseline)")
    assert found[11.9][2].conditions.baseline == ["HF"]


def test_a_header_rowspan_stops_at_the_body_and_the_ours_row_is_compared_with_the_rest() -> None:
    # `rowspan="2"` on header cells with no second header row written
    text = (
        '<table>\n<thead>\n<tr><th rowspan="2">模型</th><th rowspan="2">开源</th>'
        '<th>文本对齐</th><th rowspan="2">综合</th></tr>\n</thead>\n<tbody>\n'
        "<tr><td>VidGen (Ours)</td><td>✔</td><td>61.8%</td><td>41.3%</td></tr>\n"
        "<tr><td>模型 A (API)</td><td>✘</td><td>62.6%</td><td>37.7%</td></tr>\n"
        "</tbody>\n</table>\n"
    )
    found = _found(text)
    assert found[62.6][0].endswith("(baseline)") and not found[61.8][0].endswith("(baseline)")
    assert found[41.3][2].conditions.baseline == ["模型 A (API)"]


def test_either_wide_precision_and_the_original_model_beside_its_quantized_rows() -> None:
    text = (
        "量化前后显存占用 (GPU Mem in GB)：\n"
        "| Precision | Qwen2-7B |\n|---|---|\n| bf16 / fp16 | 15.3 |\n| 8bits | 8.0 |\n\n"
        "| Model | C-Eval | MMLU |\n|---|---|---|\n| Qwen2-7B-Chat | 54.35 | 52.93 |\n"
        "| Qwen2-7B-Chat-4bits | 53.04 | 51.72 |\n"
    )
    found = _found(text)
    assert found[15.3][0].endswith("(baseline)") and found[8.0][2].conditions.baseline == ["BF16"]
    assert found[54.35][0].endswith("(baseline)") and not found[53.04][0].endswith("(baseline)")
    assert found[53.04][2].conditions.baseline == ["Qwen2-7B-Chat"]


def test_cells_with_footnote_marks_math_dollars_and_a_quoted_table() -> None:
    text = (
        "> | Model | Latency (ms) |\n> |---|---|\n> | Llama-2-7B | 12.3¹ |\n"
        "> | Llama-2-13B | $20.1$ |\n> | Llama-2-70B | 45.6^a |\n"
    )
    assert [(m.value, m.unit) for c in extract_claims(text) for m in c.metrics] == [
        (12.3, "ms"),
        (20.1, "ms"),
        (45.6, "ms"),
    ]


def test_a_chinese_own_system_column_and_full_width_units_in_a_header() -> None:
    text = (
        "| 指标 | vLLM | 本系统 |\n|---|---|---|\n| 吞吐（tokens/s） | 1200 | 1800 |\n"
        "| 首字延迟（毫秒） | 50 | 30 |\n"
    )
    found = _found(text)
    assert [(found[v][0], found[v][1]) for v in (1200.0, 1800.0, 30.0)] == [
        ("吞吐 (baseline)", "tok/s"),
        ("吞吐", "tok/s"),
        ("首字延迟", "ms"),
    ]
    assert found[30.0][2].conditions.baseline == ["vLLM"]


def _conditions_by_value(claims: list[Claim]) -> dict[float, tuple[bool, Conditions]]:
    """value -> (named as the compared system's, conditions) of every number."""
    return {m.value: (is_baseline_metric(m), c.conditions) for c in claims for m in c.metrics}


_LATENCY_TABLE = (
    "## Decode latency on an A100\n\nLlama-2 13B at batch 8, FP16.\n\n"
    "| Prompt | PyTorch{unit} | vLLM{unit} | Speedup |\n|---|---|---|---|\n"
    "| short | 41.5 | 20.7 | 2.0x |\n| long | 83.1 | 30.2 | 2.75x |\n"
)


def test_numbers_the_reader_takes_get_the_tables_reference_as_the_rules_ones_do() -> None:
    # the same table twice: with a unit in its header the rules read every cell; without
    # one they read only the speedups and the number reader the rest. Whoever read a
    # number, it has the same conditions, and the reference column's are the baseline's
    ruled = extract_claims(_LATENCY_TABLE.format(unit=" (ms)"), reader=_constant(-30.0))
    read = extract_claims(_LATENCY_TABLE.format(unit=""), reader=_constant(30.0))
    by_rules, by_reader = _conditions_by_value(ruled), _conditions_by_value(read)
    assert {41.5, 20.7, 2.0, 83.1} <= set(by_rules)
    for value, (reference, conditions) in by_rules.items():
        assert by_reader[value] == (reference, conditions), value
    assert by_reader[41.5][0] and not by_reader[20.7][0]
    assert by_reader[20.7][1].baseline == ["PyTorch"]
    assert by_reader[30.2][1].load.get("batch") == "8"


def test_a_precision_most_columns_share_is_no_reference() -> None:
    # platforms side by side, each at its own precision: no column is the others' reference
    text = (
        "| model | android (f16) | macos (f32) | linux (f32) | windows (f32) |\n"
        "|---|---|---|---|---|\n| qwen-int4 | 22.2 tok/s | 19.9 tok/s | 35.8 tok/s | 33.4 tok/s |\n"
    )
    found = _found(text)
    assert not any(name.endswith("(baseline)") for name, _, _ in found.values())
    assert all(c.conditions.baseline == [] for _, _, c in found.values())


def test_a_speedup_column_is_never_the_compared_systems_own() -> None:
    # `Speedup (vLLM/HF)` names vLLM, but holds ratios, not vLLM's numbers: vLLM's column
    # is no reference, and `HF`, an unknown name before a known one, is not the project's
    text = (
        "| Model | HF | vLLM | Speedup (vLLM/HF) |\n|---|---|---|---|\n"
        "| Llama-7B | 12.1 tok/s | 180 tok/s | 14.9x |\n"
    )
    found = _found(text)
    assert not found[180.0][0].endswith("(baseline)")
    assert not found[14.9][0].endswith("(baseline)")
    assert found[12.1][2].conditions.baseline != ["vLLM"]
    # the speedup's header says vLLM over HF: HF's column is the reference
    assert found[12.1][0].endswith("(baseline)")
    assert found[14.9][2].conditions.baseline == found[180.0][2].conditions.baseline == ["HF"]


def test_a_speedup_header_names_the_reference_column() -> None:
    text = (
        "| Model | Ours (tok/s) | vLLM (tok/s) | Speedup vs. vLLM |\n|---|---|---|---|\n"
        "| Llama-7B | 180 | 120 | 1.5x |\n"
    )
    found = _found(text)
    assert found[120.0][0].endswith("(baseline)") and not found[180.0][0].endswith("(baseline)")
    assert found[180.0][2].conditions.baseline == ["vLLM"]
    # units over a bar are no systems
    units = "| Model | Speedup (ms/token) |\n|---|---|\n| Llama-7B | 1.9x |\n"
    assert _found(units)[1.9][2].conditions.baseline == []


def test_a_pair_cell_the_rows_speedup_explains_holds_the_compared_systems_number() -> None:
    text = (
        "| Case | FFPA / SDPA | TFLOPS | speedup |\n|---|---|---|---|\n"
        "| self-attn | 45.40 / 74.76 ms | 97 / 59 TFLOPS | 1.65x |\n"
        "| causal | 25.11 / 37.31 ms | 88 / 59 TFLOPS | 1.49x |\n"
    )
    found = _found(text)
    # the longer time, the lower rate: SDPA's, named as the compared system's
    for theirs in (74.76, 59.0, 37.31):
        assert found[theirs][0].endswith("(baseline)"), theirs
        assert found[theirs][2].conditions.baseline == []
    for own in (45.40, 97.0, 1.65, 25.11, 88.0, 1.49):
        assert not found[own][0].endswith("(baseline)"), own
        assert found[own][2].conditions.baseline == ["SDPA"], own


def test_a_pair_cell_no_speedup_explains_is_left_as_it_is() -> None:
    text = (
        "| Case | FFPA / SDPA | speedup |\n|---|---|---|\n| self-attn | 45.40 / 74.76 ms | 3.2x |\n"
    )
    found = _found(text)
    assert not any(name.endswith("(baseline)") for name, _, _ in found.values())


def test_a_one_x_row_per_group_is_the_reference_of_every_group() -> None:
    text = (
        "| Conc. | Method | Tok/s | Spd. |\n|---|---|---|---|\n"
        "| c4 | AR | 287.9 | 1.00x |\n| c4 | MTP-3 | 495.5 | 1.72x |\n"
        "| c8 | AR | 426.3 | 1.00x |\n| c8 | MTP-3 | 690.1 | 1.62x |\n"
    )
    found = _found(text)
    assert found[287.9][0].endswith("(baseline)") and found[426.3][0].endswith("(baseline)")
    assert found[495.5][2].conditions.baseline == ["AR"]
    assert found[1.62][2].conditions.baseline == ["AR"]


def test_a_column_that_names_no_precision_is_no_lower_one() -> None:
    # cpu at FP16 beside the gpu: two measurements, not FP16 against a lower precision
    text = (
        "| benchmark model | cpu time(thread 1,fp16, ms) | gpu time(ms) |\n|---|---|---|\n"
        "| DenseNet 121 | 65.70 | 45.83 |\n"
    )
    found = _found(text)
    assert not found[65.70][0].endswith("(baseline)")
    assert found[45.83][2].conditions.baseline == []
    quantized = text.replace("gpu time(ms)", "int8 time(ms)")
    assert _found(quantized)[65.70][0].endswith("(baseline)")


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "| Model | Prefill | Decode |\n|---|---|---|\n| | (tok/s) 2024 | (tok/s) 2025 |\n"
            "| Llama-3-8B | 1200 | 80 |\n",
            id="second-header-row",
        ),
        pytest.param(
            "| Precision | Baichuan2-7B |\n|---|---|\n| bf16 | 15.3 ms |\n| 8bits | 8.0 ms |\n",
            id="numbers-in-labels",
        ),
        pytest.param(
            "| Model | PyTorch | vLLM | Speedup |\n|---|---|---|---|\n| Llama | 41.5 | 20.7 | 2.0x |\n",
            id="columns-without-unit",
        ),
    ],
)
def test_the_reader_never_changes_what_the_rules_read_in_a_table(text: str) -> None:
    def numbers(claims: list[Claim]) -> Counter[tuple[int, float, str]]:
        return Counter((c.line or 0, m.value, m.unit) for c in claims for m in c.metrics)

    ruled = numbers(extract_claims(text, reader=_constant(-30.0)))
    assert ruled
    read = numbers(extract_claims(text, reader=_constant(30.0)))
    assert not ruled - read  # every number of the rules, read again, once
    assert all(n == 1 for n in read.values())  # and no number twice


def _by_value(text: str) -> dict[float, Claim]:
    return {m.value: c for c in extract_claims(text) for m in c.metrics}


def test_a_continuation_row_keeps_the_set_up_cells_written_once_above_it() -> None:
    # markdown has no row spans: the precision and the output length are written once
    text = (
        "### Engine X on a Xeon\n\n"
        "| Cores | Precision | Batch size | Input length | Output length | TTFT (s) |\n"
        "|---|---|---|---|---|---|\n"
        "| 32 | BF16 | 1 | 256 | 64 | 0.31 |\n"
        "| | | 4 | 256 | | 0.57 |\n"
        "| | | 4 | 2048 | | 2.93 |\n"
    )
    found = _by_value(text)
    for value in (0.31, 0.57, 2.93):
        conditions = found[value].conditions
        assert conditions.precision == ["BF16"]
        assert conditions.load.get("output") == "64"
        assert conditions.baseline == []  # every row ran at BF16: none is the others' reference
    assert found[0.57].conditions.load.get("batch") == "4"
    assert found[2.93].conditions.load.get("prompt") == "2048"


def test_a_blank_measurement_below_a_number_stays_blank() -> None:
    text = (
        "| Model | Batch size | Latency (ms) | Memory (GB) |\n|---|---|---|---|\n"
        "| Llama-2-7B | 1 | 41.5 | 13.9 |\n"
        "| | 8 | 97.2 | |\n"
    )
    claims = extract_claims(text)
    memory = [m.value for c in claims for m in c.metrics if m.unit == "GB"]
    assert memory == [13.9]  # the second row measured no memory: 13.9 is not copied below
    latency = {m.value: c for c in claims for m in c.metrics if m.unit == "ms"}
    assert latency[97.2].conditions.model == latency[41.5].conditions.model
    assert latency[97.2].conditions.load.get("batch") == "8"


def test_a_row_of_images_below_a_row_of_times_reads_no_time_twice() -> None:
    text = (
        "| Base | Context Parallel: Ulysses 2 | Context Parallel: Ulysses 4 |\n|---|---|---|\n"
        "| Base L20x1: 22s | 15.7s | 12.7s |\n"
        '| <img src="a.png" width=200px> | <img src="b.png" width=200px> | <img src="c.png"> |\n'
    )
    values = sorted(m.value for c in extract_claims(text) for m in c.metrics)
    assert values.count(15.7) <= 1 and values.count(12.7) <= 1


def test_a_geforce_number_under_a_gpu_column_is_the_card() -> None:
    text = (
        "| GPU | Model | tokens/s |\n|---|---|---|\n"
        "| 4060 | Llama-2-7B | 18.5 |\n| 3070 Ti | Llama-2-7B | 17.5 |\n"
        "\n| Batch | Model | tokens/s |\n|---|---|---|\n| 4060 | Llama-2-7B | 16.5 |\n"
    )
    found = {m.value: c for c in extract_claims(text) for m in c.metrics}
    assert found[18.5].conditions.hardware == ["RTX 4060"]
    assert found[17.5].conditions.hardware == ["RTX 3070 Ti"]
    assert "gpus" not in found[18.5].conditions.load
    assert found[16.5].conditions.hardware == []  # a batch of 4060, not a card


@pytest.mark.parametrize(
    ("recipe", "precision"),
    [
        pytest.param("float8_rowwise", "FP8", id="float8-recipe"),
        pytest.param("int8_dynamic", "INT8", id="int8-recipe"),
        pytest.param("fp8_e5m2_weightonly", "FP8", id="fp8-format-recipe"),
        pytest.param("Mobilenet_v1_int8", "INT8", id="quantised-model"),
        pytest.param("dyn_int8", "INT8", id="scheme-then-format"),
    ],
)
def test_a_precision_named_as_an_identifier_is_the_rows(recipe: str, precision: str) -> None:
    table = f"| Recipe | Latency (ms) |\n|---|---|\n| {recipe} | 12.75 |\n"
    assert _by_value(f"# Quantisation\n\n{table}")[12.75].conditions.precision == [precision]


@pytest.mark.parametrize(
    "flag",
    [
        pytest.param("int8_mode", id="mode-flag"),
        pytest.param("fp16_checkpoint", id="checkpoint-flag"),
        pytest.param("int4_inference_round_time", id="timer"),
        pytest.param("REDUCE_TP_INT8_THRES", id="environment-variable"),
    ],
)
def test_a_flag_named_after_a_precision_is_no_rows_precision(flag: str) -> None:
    """The catalogue reads a format in a library's recipe or a variant's name only; a
    flag's or a timer's words name no format (issue #14)."""
    table = f"| Setting | Latency (ms) |\n|---|---|\n| {flag} | 12.75 |\n"
    assert _by_value(f"# Options\n\n{table}")[12.75].conditions.precision == []


def test_a_path_or_link_with_underscores_names_no_precision() -> None:
    table = (
        "| Model | Latency (ms) | Link |\n|---|---|---|\n"
        "| Qwen2-7B | 12.75 | [weights](https://example.org/qwen2_fp16_v2) |\n"
    )
    assert _by_value(f"# Speed\n\n{table}")[12.75].conditions.precision == []


def test_a_range_in_a_cell_has_no_negative_end() -> None:
    table = "| Model | Gain |\n|---|---|\n| Llama-7B | 5%-30% |\n| Qwen-7B | -12% |\n"
    values = sorted(m.value for c in extract_claims(f"# Gains\n\n{table}") for m in c.metrics)
    assert values == [-12, 5, 30]


def test_a_data_frame_printed_as_text_is_read_as_a_table() -> None:
    pad = " " * 14
    text = (
        "# Time to first token of each card\n\nAverage TTFT by card and precision:\n"
        f"dtype                   INT8\ncard{pad}      \n"
        "RTX A4500           0.0625\n"
        "(rented) RTX A4000  0.1875\n"
        "RTX 4070            0.3125\n\n"
        "All runs used batch 1.\n"
    )
    found = _found(text)
    assert set(found) == {0.0625, 0.1875, 0.3125}
    claim = found[0.1875][2]
    assert claim.line == 7
    assert claim.conditions.hardware == ["RTX A4000"]
    assert claim.conditions.precision == ["INT8"]


@pytest.mark.parametrize(
    "separator",
    [
        pytest.param("| --- |", id="dashes"),
        pytest.param("| - |", id="one-dash"),
        pytest.param("|-|", id="one-dash-tight"),
        pytest.param("|:-:|", id="one-dash-centred"),
        pytest.param("| - | - |", id="two-columns"),
        pytest.param("|-|-|", id="two-columns-tight"),
    ],
)
def test_a_separator_row_of_single_dashes_makes_the_row_above_the_header(separator: str) -> None:
    """Some generators write one dash per cell, a one-column table too: the row above is
    the header, not a data row (issue #14)."""
    width = separator.count("|") - 1
    header = "| Decode on L4 (ms) |" if width == 1 else "| Decode on L4 (ms) | Runs |"
    row = "| 12.5 |" if width == 1 else "| 12.5 | 3 |"
    segments = list(parse_segments(f"## Speed\n\n{header}\n{separator}\n{row}\n"))
    rows = [s for s in segments if s.block == "table"]
    assert [s.line for s in rows] == [5]
    assert rows[0].header[0] == "Decode on L4 (ms)"
