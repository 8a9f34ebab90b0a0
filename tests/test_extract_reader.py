"""The number reader: what it reads that the rules leave, and what it leaves alone."""

from __future__ import annotations

import io
from importlib import resources

import numpy as np
import pytest

from research_radar.extract import reader as reader_module
from research_radar.extract.claims import extract_claims
from research_radar.extract.reader import (
    BUCKETS,
    MODEL_FILE,
    LearnedReader,
    default_reader,
    load_reader,
)
from research_radar.models import Claim

DECODE_TABLE = """## Decode speed on a Raspberry Pi 5

Speed of generation, measured with 4 threads:

| Model | q4_0 | q8_0 | f16 |
|---|---|---|---|
| Phi-2 | 7.31 | 4.12 | 2.05 |
| Gemma-2B | 6.77 | 3.90 | 1.88 |
| Mistral-7B | 2.42 | 1.31 | 0.64 |
"""

RELEASES = """## Releases

| Version | Year | Models | Backends |
|---|---|---|---|
| 0.4 | 2023 | 12 | 2 |
| 0.5 | 2024 | 31 | 4 |
| 1.0 | 2025 | 57 | 6 |
"""


def _values(claims: list[Claim]) -> list[tuple[int, float, str]]:
    return sorted((c.line or 0, m.value, m.unit) for c in claims for m in c.metrics)


def _constant(bias: float) -> LearnedReader:
    """A reader that takes every number (bias > 0) or none (bias < 0)."""
    return LearnedReader(np.zeros(BUCKETS, dtype=np.float32), bias, 0.5)


def test_exported_members() -> None:
    assert set(reader_module.__all__) == {
        "BUCKETS",
        "MODEL_FILE",
        "LearnedReader",
        "NumberReader",
        "cue_index",
        "default_reader",
        "load_reader",
        "read_sentence",
        "read_table_cells",
    }


def test_a_table_of_measurements_without_a_unit_is_read() -> None:
    rules_only = extract_claims(DECODE_TABLE, reader=_constant(-30.0))
    assert _values(rules_only) == []  # no unit anywhere: the rules read none of it
    read = extract_claims(DECODE_TABLE)
    values = {value for _, value, _ in _values(read)}
    assert {7.31, 4.12, 2.05, 6.77, 0.64} <= values
    assert not values & {4.0, 2.0, 7.0, 5.0}  # threads, model sizes, the Pi's number
    mistral = [c for c in read if c.conditions.model and "Mistral" in c.conditions.model[0]]
    assert mistral and all(c.line == 9 for c in mistral)


def test_a_table_of_years_and_versions_is_not_read() -> None:
    assert extract_claims(RELEASES) == []


def test_the_reader_adds_only_what_the_rules_left() -> None:
    text = "| Model | Latency (ms) | Year |\n|---|---|---|\n| Llama-3-8B | 41.5 | 2024 |\n"
    ruled = _values(extract_claims(text, reader=_constant(-30.0)))
    assert ruled == [(3, 41.5, "ms")]
    everything = _values(extract_claims(text, reader=_constant(30.0)))
    # an accept-all reader adds every other number (3 and 8 of the model's name, the
    # year), never 41.5 a second time
    assert everything == [(3, 3.0, ""), (3, 8.0, ""), (3, 41.5, "ms"), (3, 2024.0, "")]


def test_a_taken_cell_carries_its_column_unit_and_name() -> None:
    text = (
        "| GPU | Prefill throughput (tok/s) | Note |\n|---|---|---|\n"
        "| H100 | 1200 (with warm-up) | batch 8 |\n"
    )
    claims = extract_claims(text, reader=_constant(30.0))
    read = {(m.value, m.unit, m.name) for c in claims for m in c.metrics}
    assert (1200.0, "tok/s", "Prefill throughput") in read
    assert all(c.conditions.hardware == ["H100"] for c in claims)


def test_prose_numbers_the_reader_takes_keep_the_sentence_conditions() -> None:
    text = "On an RTX 4090 with Qwen2.5-7B the decode rate reached 88.4 at batch 1."
    claims = extract_claims(text, reader=_constant(30.0))
    taken = [c for c in claims if any(m.value == 88.4 for m in c.metrics)]
    assert taken and taken[0].conditions.hardware == ["RTX 4090"]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("| a | b |\n|---|---|\n| 1 | 2 |\n| | 3 |\n", id="continuation"),
        pytest.param("| 1 |\n|---|\n|  |\n| x | 2 | 3 | 4 |\n", id="ragged"),
        pytest.param("<table><tr><td>7</td><td>8.5</td></tr></table>\n", id="html"),
        pytest.param("| ms |\n|---|\n| −3 |\n| 1,234.5 |\n", id="signs"),
    ],
)
def test_odd_tables_read_by_an_accept_all_reader_keep_values_of_the_text(text: str) -> None:
    for claim in extract_claims(text, reader=_constant(30.0)):
        for metric in claim.metrics:
            assert f"{abs(metric.value):g}" in text.replace(",", "").replace("−", "-")


def test_reading_is_deterministic() -> None:
    first = [c.model_dump() for c in extract_claims(DECODE_TABLE)]
    assert first == [c.model_dump() for c in extract_claims(DECODE_TABLE)]


def test_the_bundled_reader_loads_and_a_wrong_shape_is_refused() -> None:
    bundled = default_reader()
    assert len(bundled.weights) == BUCKETS and 0.0 < bundled.threshold < 1.0
    buffer = io.BytesIO()
    np.savez(buffer, weights=np.zeros(3, dtype=np.float32), scalars=np.array([0.0, 0.5]))
    with pytest.raises(ValueError, match="shape"):
        load_reader(buffer.getvalue())


def test_the_arrays_are_read_as_numpy_reads_them() -> None:
    """The reader's arrays, read without numpy, hold numpy's float32 values (a float64
    array is rounded as numpy's astype rounds it)."""
    data = resources.files("research_radar").joinpath(MODEL_FILE).read_bytes()
    with np.load(io.BytesIO(data)) as arrays:
        expected = arrays["weights"].astype(np.float32).tolist()
        bias, threshold = arrays["scalars"].tolist()
    bundled = load_reader(data)
    assert list(bundled.weights) == expected
    assert (bundled.bias, bundled.threshold) == (bias, threshold)
    wide = np.random.default_rng(7).normal(size=BUCKETS) / 3
    buffer = io.BytesIO()
    np.savez_compressed(buffer, weights=wide, scalars=np.array([0.25, 0.5]))
    assert list(load_reader(buffer.getvalue()).weights) == wide.astype(np.float32).tolist()


def test_a_number_too_long_for_a_float_is_no_crash() -> None:
    digits = "9" * 400
    text = f"Throughput reached {digits} on one GPU.\n\n| Model | Score |\n|---|---|\n| a | {digits} |\n"
    for bias in (-30.0, 30.0):
        extract_claims(text, reader=_constant(bias))
    extract_claims(text)


def test_accept_agrees_with_the_probabilities() -> None:
    from research_radar.extract.markdown import parse_segments
    from research_radar.extract.prosecues import prose_candidates
    from research_radar.extract.readercues import table_candidates

    reader = default_reader()
    segments = list(
        parse_segments(DECODE_TABLE + "\nIt reached 41.5 tok/s, 2x the 2023 release.\n")
    )
    rows = [s for s in segments if s.block == "table"]
    candidates = table_candidates(rows[0].header, rows, {})
    candidates += [c for s in segments if s.block == "prose" for c in prose_candidates(s, [])]
    assert len(candidates) > 10
    wanted = [bool(p >= reader.threshold) for p in reader.probabilities(candidates)]
    assert reader.accept(candidates) == wanted


def test_device_counts_and_memory_sizes_in_prose_are_never_read() -> None:
    text = "Served on 8x H100 (2 nodes, 80 GB each) for a mean of 41.3 over 3 runs."
    values = {value for _, value, _ in _values(extract_claims(text, reader=_constant(30.0)))}
    assert {41.3, 3.0} <= values  # an accept-all reader takes what is left
    assert not values & {8.0, 2.0, 80.0}


def test_a_model_by_model_table_is_not_read() -> None:
    text = "| Draft \\ Target | Qwen2-7B |\n|---|---|\n| Qwen2-0.5B | 0.61 |\n"
    values = {value for _, value, _ in _values(extract_claims(text, reader=_constant(30.0)))}
    assert 0.61 not in values


def test_an_arxiv_id_is_never_read() -> None:
    text = "RetroInfer (arXiv:2505.02922) and issue #1234 describe the index."
    assert _values(extract_claims(text, reader=_constant(30.0))) == []


def test_a_size_in_a_name_or_a_setting_in_prose_is_never_read() -> None:
    text = "Parakeet 0.6B v3 keeps its 4000-token generations and 8-bit weights at 12.5."
    values = {value for _, value, _ in _values(extract_claims(text, reader=_constant(30.0)))}
    assert 12.5 in values and not values & {0.6, 4000.0, 8.0}


def test_clock_rates_and_the_parts_of_a_duration_are_never_read() -> None:
    text = (
        "Rendering one clip takes 2m23s on the big core.\n\n"
        "| Device | CPU | Decode |\n|---|---|---|\n"
        "| Phone A | 1xX1 @2.84GHz | 9.5 tok/s |\n| Board B | 4xA76 @ 2.4 GHz | 25'34'' |\n"
    )
    values = {value for _, value, _ in _values(extract_claims(text, reader=_constant(30.0)))}
    assert {143.0, 9.5, 1534.0} <= values
    assert not values & {2.84, 2.4, 23.0, 2.0, 34.0, 25.0}


def test_the_reference_of_normalised_numbers_is_not_read() -> None:
    text = (
        "Latency and VRAM of the C++ runtime, normalised to Python = 1.00:\n\n"
        "- ModelA: latency 0.48, VRAM 0.68.\n"
    )
    values = {value for _, value, _ in _values(extract_claims(text, reader=_constant(30.0)))}
    assert {0.48, 0.68} <= values
    assert 1.0 not in values


def test_a_score_is_named_after_the_benchmark_it_was_measured_on() -> None:
    text = "The 27B model scores 59.3 on Terminal-Bench 2.0, we report.\n"
    names = {
        m.value: m.name for c in extract_claims(text, reader=_constant(30.0)) for m in c.metrics
    }
    assert names[59.3] == "Terminal-Bench 2.0"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Prefill reaches 3 tok/s on 4 GPUs, 4 tok/s on 8 GPUs.\n", id="count-first"),
        pytest.param("It runs at 12 tok/s with 2 GPUs and 2 tok/s with 1 GPU.\n", id="count-then"),
    ],
)
def test_a_device_count_does_not_use_up_a_number_the_rules_read(text: str) -> None:
    """The rules read both rates; the count written like one of them (`4 GPUs`) is no
    reading, so the rate is not read a second time as if the rules had left it (#14)."""
    for reader in (default_reader(), _constant(30.0)):
        values = [(v, unit) for _, v, unit in _values(extract_claims(text, reader=reader))]
        assert len(values) == 2 and all(unit == "tok/s" for _, unit in values)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Our box has a Ryzen 5 3600X and reaches 17.5 tok/s.\n", id="ryzen-prose"),
        pytest.param("CPU: Xeon W-2295X. Decode runs at 17.5 tok/s.\n", id="xeon-rule"),
        pytest.param(
            "| CPU | Decode (tok/s) |\n|---|---|\n| 5600XT | 17.5 |\n", id="more-model-code"
        ),
        pytest.param("Built on Core i7-6950X, 17.5 tok/s.\n", id="core-hyphen"),
        pytest.param(
            "| CPU | Decode (tok/s) |\n|---|---|\n| Threadripper 2990X | 17.5 |\n"
            "| EPYC 7702X | 18.25 |\n",
            id="table-label",
        ),
    ],
)
def test_a_part_number_glued_to_an_x_is_no_ratio(text: str) -> None:
    """`5950X` names a processor; it is no 5950-fold speed-up (issue #14)."""
    for reader in (default_reader(), _constant(30.0)):
        read = {value for _, value, _ in _values(extract_claims(text, reader=reader))}
        assert 17.5 in read and not {value for value in read if value >= 1000}


def test_ratios_written_with_an_x_stay_ratios_beside_a_part() -> None:
    text = "On a Ryzen 5 3600X it is 3x faster, and 5.2X faster with 256X less memory.\n"
    read = [(value, unit) for _, value, unit in _values(extract_claims(text))]
    assert {(3.0, "x"), (5.2, "x"), (256.0, "x")} <= set(read)
    assert 3600.0 not in [value for value, _ in read]


NORMALISED = """Decode time and memory of the Rust port, normalized to NumPy = 1.00:

- Tiny: time 0.42, memory 0.77.
- Base (batch 4): time 0.55, memory 0.81.

Step time relative to JAX (=1.0):

- Flax: 0.93
- Haiku: 1.12
"""


def test_the_numbers_of_a_list_normalised_to_a_reference_are_ratios_to_it() -> None:
    """`normalized to NumPy = 1.00:` over a list: its unit-less numbers are ratios to NumPy
    (issue #14); the list's settings (`batch 4`) are no ratio."""
    claims = extract_claims(NORMALISED)
    read = {(m.value, m.unit, tuple(c.conditions.baseline)) for c in claims for m in c.metrics}
    assert {(v, "x", ("NumPy",)) for v in (0.42, 0.77, 0.55, 0.81)} <= read
    assert {(0.93, "x", ("JAX",)), (1.12, "x", ("JAX",))} <= read
    assert not {value for value, _, _ in read} & {1.0, 4.0}
