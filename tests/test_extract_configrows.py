"""A set-up table describing configurations completes the result rows that name them."""

from __future__ import annotations

from research_radar.extract.claims import extract_claims


def _conditions(text: str) -> dict[float, dict[str, object]]:
    return {
        m.value: c.conditions.model_dump(include={"hardware", "precision", "load"})
        for c in extract_claims(text)
        for m in c.metrics
    }


SETUP = (
    "## Setup\n\n| Configuration | GPU | Precision |\n|---|---|---|\n"
    "| Alone | 1x H100 | FP8 |\n| Pair | 2x H100 | BF16 |\n\n"
)
RESULTS = "## Results\n\n| Setup | Throughput |\n|---|---|\n| Alone | 122.5 tok/s |\n| Pair | 26.5 tok/s |\n"


def test_a_result_row_takes_what_the_setup_table_says_of_its_configuration() -> None:
    found = _conditions(SETUP + RESULTS.replace("Setup |", "Configuration |"))
    assert found[122.5] == {"hardware": ["H100"], "precision": ["FP8"], "load": {"gpus": "1"}}
    assert found[26.5] == {"hardware": ["H100"], "precision": ["BF16"], "load": {"gpus": "2"}}


def test_a_rows_own_conditions_stay() -> None:
    results = "## Results\n\n| Setup | Throughput |\n|---|---|\n| Alone | 122.5 tok/s on A100 |\n"
    assert _conditions(SETUP + results)[122.5]["hardware"] == ["A100"]


def test_a_configuration_described_twice_two_ways_describes_nothing() -> None:
    other = (
        "## More\n\n| Configuration | GPU |\n|---|---|\n| Alone | 4x A100 |\n| Solo | 1x A10 |\n\n"
    )
    found = _conditions(SETUP + other + RESULTS)
    assert found[122.5]["load"] == {} and found[26.5]["load"] == {"gpus": "2"}


def test_a_table_that_measures_describes_no_configuration() -> None:
    measured = (
        "## First\n\n| Configuration | GPU | Latency |\n|---|---|---|\n"
        "| Alone | 1x H100 | 12 ms |\n| Pair | 2x H100 | 9 ms |\n\n"
    )
    assert _conditions(measured + RESULTS)[122.5]["load"] == {}
