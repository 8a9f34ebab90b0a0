"""A legend table says which device each of a results table's labels was (issue #14)."""

from __future__ import annotations

from research_radar.extract.claims import extract_claims
from research_radar.models import Claim

_RESULTS = (
    "#### Decode speed (tok/s)\n\n"
    "| model | android (f16) | macos (f32) | linux (f32) |\n"
    "|---|---|---|---|\n"
    "| qwen-1.8b-int4 | 22.5 | 19.5 | 35.5 |\n\n"
)
_LEGEND = (
    "The devices:\n\n"
    "| os | device | CPU | Memory |\n"
    "|---|---|---|---|\n"
    "| android | XiaoMi12 | Snapdragon 8gen1 | 8 GB |\n"
    "| macos | MacBook Pro 2019 | Intel(R) Core(TM) i7-9750H | 16 GB |\n"
    "| linux | PC | Intel(R) Core(TM) i7-13700K | 32GB |\n"
)


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


def test_a_column_named_after_a_legends_label_is_read_on_its_device() -> None:
    found = _numbers(extract_claims(_RESULTS + _LEGEND))
    assert found[22.5].conditions.hardware == ["Xiaomi 12", "Snapdragon 8 Gen 1"]
    assert found[19.5].conditions.hardware == ["MacBook Pro 2019", "Core i7-9750H"]
    assert found[35.5].conditions.hardware == ["Core i7-13700K"]
    assert "context" not in found[35.5].conditions.load  # i7-13700K is no 13700K context


def test_rows_named_after_a_legends_labels_are_read_on_their_devices() -> None:
    rows = "| platform | tok/s |\n|---|---|\n| android | 22.5 |\n| linux | 35.5 |\n\n"
    found = _numbers(extract_claims(_LEGEND + "\n" + rows))
    assert found[22.5].conditions.hardware == ["Xiaomi 12", "Snapdragon 8 Gen 1"]
    assert found[35.5].conditions.hardware == ["Core i7-13700K"]


def test_the_values_of_a_setting_are_no_legend() -> None:
    text = (
        "| bits | gpus | tok/s |\n|---|---|---|\n"
        "| 16 | 1 x NVIDIA GeForce RTX 4090 | 41.5 |\n| 8 | 1 x NVIDIA A100 | 9.5 |\n\n"
        "Next run:\n\n"
        "| bits | gpus | tok/s |\n|---|---|---|\n| 16 | CPU | 1.25 |\n| 8 | CPU | 1.5 |\n"
    )
    found = _numbers(extract_claims(text))
    # its row's device class (`extract.roles.with_device_classes`), no legend's part
    assert found[1.25].conditions.hardware == ["CPU"]
    assert found[1.25].conditions.precision == ["FP16"]


def test_a_table_naming_one_label_of_a_legend_keeps_its_own_header() -> None:
    results = "| model | android (f16) | iOS |\n|---|---|---|\n| qwen-1.8b | 22.5 | 30.5 |\n\n"
    found = _numbers(extract_claims(results + _LEGEND))
    assert found[22.5].conditions.hardware == []


def test_statements_of_where_each_labels_tests_ran_are_a_legend() -> None:
    text = (
        "## Machines\n\n"
        "1. desk tests were run on a PC with an Intel Core i7-13700K.\n"
        "2. cloud tests were run in a rented VM on an NVIDIA L4 GPU.\n\n"
        "## Speed\n\n"
        "| Model | desk RTFx | desk RTFx (int8) | cloud RTFx |\n"
        "|---|---|---|---|\n"
        "| tiny | 31.5 | 12.5 | 250.5 |\n"
    )
    found = _numbers(extract_claims(text))
    assert found[31.5].conditions.hardware == ["Core i7-13700K"]
    assert found[12.5].conditions.hardware == ["Core i7-13700K"]
    assert found[250.5].conditions.hardware == ["L4"]
