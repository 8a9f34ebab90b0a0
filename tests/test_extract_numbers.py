"""Numbers written in scientific notation, and a header's unit written after its last
comma (issue #14)."""

from __future__ import annotations

import re

import pytest

from research_radar.extract.claims import extract_claims
from research_radar.extract.units import NUMBER_PATTERN, parse_number
from research_radar.models import Claim


def _values(claims: list[Claim]) -> list[float]:
    return [m.value for claim in claims for m in claim.metrics]


def _found(claims: list[Claim]) -> list[tuple[float, str]]:
    return [(m.value, m.unit) for claim in claims for m in claim.metrics]


_STD_DEV_TABLE = """## Comparison (@Nvidia T4)

| Model | Backend     | precision | Median(FPS) | Median-Latency(ms) |     std_dev |
|------:|:------------|:----------|------------:|-------------------:|------------:|
| vgg16 | Torch       | fp32      |     117.516 |         0.00850948 | 0.000158592 |
| vgg16 | Torch-Blade | fp32      |     137.365 |         0.00727989 | 5.56986e-05 |
| vgg16 | TensorRT    | fp16      |     384.943 |         0.00259779 | 7.56818E-05 |
"""


def test_a_table_cell_in_scientific_notation_is_one_number() -> None:
    values = _values(extract_claims(_STD_DEV_TABLE))
    assert 5.56986e-05 in values
    assert 7.56818e-05 in values
    assert 0.000158592 in values
    # the mantissa alone is no reading, nor is the exponent
    assert not {5.56986, 7.56818, 5.0, 0.05} & set(values)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Step jitter stays at 2.29E-05 s across runs.", (2.29e-05, "s"), id="E"),
        pytest.param("Each op costs 1e-5 s on the NPU.", (1e-05, "s"), id="signed-no-point"),
        pytest.param("Peak decode reaches 1.2e+03 tok/s.", (1200.0, "tok/s"), id="plus"),
        pytest.param("The kernel takes 3.1e−04 s.", (3.1e-04, "s"), id="unicode-minus"),
        pytest.param("Each step takes 2.29E-05s.", (2.29e-05, "s"), id="glued-unit"),
        pytest.param("A speedup of 1.5e+01x over eager.", (15.0, "x"), id="glued-ratio"),
    ],
)
def test_prose_in_scientific_notation_is_one_number(text: str, expected: tuple[float, str]) -> None:
    assert expected in _found(extract_claims(text))


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Built from commit 3e5c1a, decoding runs at 35 tok/s.", id="hex"),
        pytest.param("Request 1e100 served, decoding runs at 35 tok/s.", id="id"),
        pytest.param("Model v2.1e3 serves, decoding runs at 35 tok/s.", id="version"),
    ],
)
def test_a_hash_id_or_version_is_no_scientific_number(text: str) -> None:
    assert _values(extract_claims(text)) == [35.0]


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("5.56986e-05", ["5.56986e-05"]),
        ("1,234.5 and 2.29E-05", ["1,234.5", "2.29E-05"]),
        ("3e5c1a 1e100 8E5M2 1.2e-05.3", []),
        ("1.5e+01x and 2.29E-05s", ["1.5e+01", "2.29E-05"]),
    ],
)
def test_a_written_number_is_matched_whole_or_not_at_all(text: str, numbers: list[str]) -> None:
    assert re.findall(NUMBER_PATTERN, text) == numbers
    for number in numbers:
        assert parse_number(number) == float(number.replace(",", ""))


_DEVICE_COLUMNS = """Single-threaded latency of the models on Raspberry Pi boards:

| Model              | RPi Zero W (BCM2835), ms | RPi 2 (BCM2836), ms | RPi 3+ (BCM2837B0), ms |
| ------------------ | :----------------------: | :-----------------: | :--------------------: |
| FP32 MobileNet v1  |          3919            |         302         |          114           |
| FP32 MobileNet v2  |          1987            |         191         |           79           |
"""


def test_a_unit_after_the_last_comma_of_a_header_beats_a_letter_in_the_device_name() -> None:
    found = _found(extract_claims(_DEVICE_COLUMNS))
    assert (3919.0, "ms") in found
    assert (1987.0, "ms") in found
    assert (114.0, "ms") in found
    assert all(unit != "W" for _, unit in found)
    names = {m.value: m.name for c in extract_claims(_DEVICE_COLUMNS) for m in c.metrics}
    assert names[3919.0] == "RPi Zero W (BCM2835)"  # the name whole, its `W` kept
    assert names[114.0] == "RPi 3+ (BCM2837B0)"


def test_a_column_that_writes_its_unit_once_gives_it_to_bare_scientific_numbers() -> None:
    text = """| Op      | Latency     |
| ------- | ----------- |
| matmul  | 1.25e-03 s  |
| softmax | 4.5e-05     |
| gelu    | 7.25e-05    |
"""
    found = _found(extract_claims(text))
    assert (4.5e-05, "s") in found
    assert (7.25e-05, "s") in found


def test_a_first_row_of_scientific_readings_is_no_header_row() -> None:
    """`| T4 | vgg16 | 5.56986e-05 |` first under the header: a row of readings, not a
    second header row whose device name would become the unit of the rows below."""
    text = (
        "# T4\n\n| Device | Model | std_dev (s) | jitter |\n|---|---|---:|---:|\n"
        "| T4 16GB | vgg16 | 5.56986e-05 | 1.25e-04 |\n"
        "| T4 16GB | yolov5s | - | 2.37797e-05 |\n"
        "| T4 16GB | crnn | 4.15103e-05 | 1.38553e-05 |\n"
    )
    claims = extract_claims(text)
    units = {m.value: m.unit for c in claims for m in c.metrics}
    assert units[2.37797e-05] == "" and units[1.38553e-05] == ""  # no `GB` from a name
    assert all(not c.text.startswith("Device T4") for c in claims)
