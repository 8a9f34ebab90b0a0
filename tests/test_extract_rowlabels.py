"""A table's model column names its rows' models, catalogued or not (issue #14)."""

from __future__ import annotations

import pytest

from research_radar.extract.claims import extract_claims


def _models(text: str) -> dict[float, list[str]]:
    """value -> the models of the claim that holds it."""
    return {m.value: c.conditions.model for c in extract_claims(text) for m in c.metrics}


@pytest.mark.parametrize(
    "head",
    [
        pytest.param("模型", id="zh"),
        pytest.param("benchmark model", id="benchmark-model"),
        pytest.param("Network", id="network"),
    ],
)
def test_a_model_column_names_each_rows_model_as_written(head: str) -> None:
    text = (
        f"| {head} | 骁龙 865 (ms) | 骁龙 855 (ms) |\n|:--|--:|--:|\n"
        "| MobileNetV3_large_x1_0 | 14.46 | 15.59 |\n| humanseg | 23.10 | 24.69 |\n"
    )
    found = _models(text)
    assert found[14.46] == found[15.59] == ["MobileNetV3_large_x1_0"]
    assert found[23.10] == ["humanseg"]


def test_a_catalogued_model_keeps_its_canonical_name() -> None:
    found = _models("| Model | Latency (ms) |\n|---|---|\n| llama-2-7b | 12.5 |\n")
    assert found[12.5] == ["Llama-2-7B"]


@pytest.mark.parametrize(
    ("label", "why"),
    [
        pytest.param("vLLM", "a system the catalogue knows", id="software"),
        pytest.param("FP16", "a precision", id="precision"),
        pytest.param("Average", "a summary row", id="average"),
        pytest.param("42", "a number", id="number"),
    ],
)
def test_a_model_column_label_that_is_no_name_names_no_model(label: str, why: str) -> None:
    found = _models(f"| Model | Latency (ms) |\n|---|---|\n| {label} | 12.5 |\n")
    assert found[12.5] == [], why


def test_a_column_not_headed_model_names_no_model() -> None:
    found = _models("| Dataset | Latency (ms) |\n|---|---|\n| humanseg | 12.5 |\n")
    assert found[12.5] == []


def test_a_group_row_that_calls_itself_a_model_names_the_rows_below_it() -> None:
    text = (
        "| | Tokens per second | BLEU |\n| --- | --- | --- |\n| Marian 1.11.0 | 118.5 | 27.1 |\n"
        "| **OpenNMT-tf WMT14 model** | | |\n| OpenNMT-tf 2.31.0 | 209.2 | 26.93 |\n"
        "| **OpenNMT-py WMT14 model** | | |\n| CTranslate2 3.6.0 | 658.8 | 26.77 |\n"
    )
    found = _models(text)
    assert found[118.5] == []
    assert found[209.2] == ["OpenNMT-tf WMT14"]
    assert found[658.8] == ["OpenNMT-py WMT14"]


def test_the_one_model_a_header_names_is_the_whole_tables() -> None:
    text = (
        "| Wan2.1 t2v 1.3B | TeaCache (0.05) | TeaCache (0.07) |\n|:--:|:--:|:--:|\n"
        "| ~175 s | ~117 s | ~110 s |\n"
    )
    found = _models(text)
    assert found[175] == found[117] == found[110] == ["Wan2.1-t2v-1.3B"]


def test_headers_naming_two_models_name_no_table_wide_model() -> None:
    text = "| Batch | Llama-2-7B (ms) | Llama-2-13B (ms) | vLLM (ms) |\n|--|--|--|--|\n| 1 | 12 | 20 | 30 |\n"
    found = _models(text)
    assert found[12] == ["Llama-2-7B"] and found[20] == ["Llama-2-13B"]
    assert found[30] == []


@pytest.mark.parametrize(
    ("cell", "value"),
    [pytest.param("c4", "4", id="prefixed"), pytest.param("2,048 t", "2048", id="tokens")],
)
def test_a_load_column_reads_its_cells_spelled_with_a_letter(cell: str, value: str) -> None:
    text = f"| Conc. | Method | Tok/s |\n|---|---|---|\n| {cell} | AR | 287.9 |\n"
    claims = extract_claims(text)
    assert [c.conditions.load.get("concurrency") for c in claims] == [value]


def _hardware(text: str) -> dict[float, list[str]]:
    """value -> the hardware of the claim that holds it."""
    return {m.value: c.conditions.hardware for c in extract_claims(text) for m in c.metrics}


@pytest.mark.parametrize("head", ["Device", "设备", "测试平台", "SoC", "GPU", "显卡型号"])
def test_a_device_column_names_each_rows_part_as_written(head: str) -> None:
    text = (
        "Performance on phones and laptops, measured with 1024 tokens prefill.\n\n"
        f"| Model | {head} | Backend | Prefill (tokens/sec) | Decode (tokens/sec) |\n"
        "| :--- | :--- | :--- | :--- | :--- |\n"
        "| Gemma3-1B | MacBook Pro<br>(2023 M3) | CPU | 422.98 | 66.89 |\n"
        "| Gemma3-1B | Samsung S24<br>(Ultra) | GPU | 1876.5 | 44.57 |\n"
        "| Gemma3-1B | Pixel 9 | CPU | 190.5 | 30.2 |\n"
    )
    found = _hardware(text)
    assert found[1876.5] == found[44.57] == ["Samsung S24 Ultra"]
    assert found[190.5] == ["Pixel 9"]
    assert found[422.98] and found[422.98] != ["Samsung S24 Ultra"]


@pytest.mark.parametrize(
    "table",
    [
        pytest.param(
            "| Model | Device | Latency (ms) |\n|---|---|---|\n| YOLOv5s | GPU (CUDA) | 7.87 |\n"
            "| YOLOv5s | CPU only | 176.41 |\n",
            id="a-backend-in-words",
        ),
        pytest.param(
            "| Model | Platform | Latency (ms) |\n|---|---|---|\n| Conformer | onnx | 7.87 |\n"
            "| Conformer | trt | 176.41 |\n",
            id="a-platform-of-software",
        ),
        pytest.param(
            "| Model | Notes | Latency (ms) |\n|---|---|---|\n| Conformer | Acme Box 3 | 7.87 |\n"
            "| Conformer | fast | 176.41 |\n",
            id="not-a-device-column",
        ),
    ],
)
def test_a_column_that_names_no_part_gives_none(table: str) -> None:
    found = _hardware(table)
    assert found[7.87] == [] and found[176.41] == []


def test_a_model_column_of_lower_case_phrases_names_no_model() -> None:
    # decoding methods in a `Model` column: words, not names
    text = (
        "| Model | Concurrency | Avg Latency (ms) |\n|---|---|---|\n"
        "| ctc prefix beam search | 50 | 78 |\n| attention rescoring | 50 | 91 |\n"
        "| humanseg | 50 | 12.5 |\n"
    )
    found = {m.value: c for c in extract_claims(text) for m in c.metrics}
    assert not found[78].conditions.model
    assert not found[91].conditions.model
    assert found[12.5].conditions.model == ["humanseg"]


def test_a_device_column_of_classes_gives_each_row_its_class_not_a_part() -> None:
    # the class itself (`extract.roles.with_device_classes`): no part is named for it
    found = _hardware(
        "| Model | Device | Latency (ms) |\n|---|---|---|\n| YOLOv5s | GPU | 7.87 |\n"
        "| YOLOv5s | CPU | 176.41 |\n"
    )
    assert (found[7.87], found[176.41]) == (["GPU"], ["CPU"])
