"""The one hardware part a document names, above its numbers, holds for those that name none."""

from __future__ import annotations

import pytest

from research_radar.extract.claims import extract_claims


def _hardware(text: str) -> dict[float, list[str]]:
    return {m.value: c.conditions.hardware for c in extract_claims(text) for m in c.metrics}


RESULTS = (
    "## Results\n\nSome prose about the build flags we tried.\n\n"
    "With the tuned build, decode reaches 0.77 tok/s.\n\n"
    "## Quality\n\nPerplexity is 6.36 on WikiText-2.\n"
)


def test_the_part_a_documents_preamble_names_holds_for_its_performance_numbers() -> None:
    text = "Llama 3 on the Kendryte K230: a port.\n\nWe port llama.cpp to it.\n\n" + RESULTS
    assert _hardware(text) == {0.77: ["K230"], 6.36: []}


def test_a_title_and_its_intro_are_the_preamble() -> None:
    text = "# Preface\n\nThe tests ran on a Samsung Galaxy A25 phone.\n\n" + RESULTS
    assert _hardware(text)[0.77] == ["Galaxy A25"]


def test_a_second_part_anywhere_gives_none() -> None:
    text = (
        "Llama 3 on the Kendryte K230: a port.\n\n"
        + RESULTS
        + "\n## Other boards\n\nA port to the Jetson Orin is planned.\n"
    )
    assert _hardware(text)[0.77] == []


def test_a_part_named_inside_a_section_is_no_preamble() -> None:
    text = "## Supported boards\n\nIt runs on the Kendryte K230.\n\n" + RESULTS
    assert _hardware(text)[0.77] == []


def test_a_table_row_is_no_preamble() -> None:
    text = "| Board | Decode (tok/s) |\n|---|---|\n| K230 | 0.5 |\n\n" + RESULTS
    assert _hardware(text)[0.77] == []


def test_a_part_stated_once_above_the_numbers_holds_for_them() -> None:
    text = (
        "# Batching notes\n\n## Profiling\n\nProfiling the engine on H200 showed a gap "
        "in the sampler.\n\n" + RESULTS
    )
    assert _hardware(text) == {0.77: ["H200"], 6.36: []}


def test_a_part_named_only_below_the_numbers_holds_for_none_of_them() -> None:
    text = RESULTS + "\n## Notes\n\nAll experiments were run on a single RTX 3090.\n"
    assert _hardware(text)[0.77] == []


def test_a_list_item_measuring_on_a_part_is_no_set_up() -> None:
    text = (
        "## Community ports\n\n- ChatGLM-TPU: runs at about 7.5 token/s on a BM1684X\n\n" + RESULTS
    )
    assert _hardware(text)[0.77] == []


def test_the_one_part_a_page_names_holds_in_its_later_sections() -> None:
    text = (
        "## Results\n\nWe ran on an RTX 4090.\n\n| Batch | Ours (tok/s) |\n|---|---|\n| 1 | 120 |\n\n"
        "## Training\n\n| Batch | Ours (tok/s) |\n|---|---|\n| 1 | 77 |\n"
    )
    assert _hardware(text) == {120: ["RTX 4090"], 77: ["RTX 4090"]}


@pytest.mark.parametrize(
    "said",
    [
        pytest.param("## Install\n\nYou need an RTX 3060 or better.\n\n", id="requirement"),
        pytest.param("## Supported boards\n\nIt runs on the Jetson Orin.\n\n", id="survey"),
        pytest.param("## Notes\n\n[^1]: Measured on one H100.\n\n", id="footnote"),
    ],
)
def test_what_a_user_needs_or_can_use_holds_for_nothing(said: str) -> None:
    text = said + RESULTS
    assert _hardware(text)[0.77] == []


def test_a_host_cpu_named_beside_the_accelerator_is_no_second_part() -> None:
    text = (
        "## Results\n\nThe test box: RTX 3080 + AMD Ryzen 9 5950X + 32G RAM.\n\n"
        "First run: decode reaches 41.5 tok/s.\n\n"
        "Some prose between.\n\nSecond run: decode reaches 44.5 tok/s.\n"
    )
    assert _hardware(text)[44.5] == ["RTX 3080"]


def test_a_cpu_a_number_ran_on_alone_is_a_part_of_its_own() -> None:
    text = (
        "## About\n\nHardware used: \\\nCPU - AMD Ryzen 5 5600X \\\nGPU - NVIDIA GeForce RTX 3080\n\n"
        "## Results\n\n| Device | Time (s) |\n| --- | --- |\n| GPU | 0.9 |\n| CPU | 12.5 |\n\n"
        "The quantized model is 2.5x faster than real time.\n"
    )
    found = _hardware(text)
    assert (found[0.9], found[12.5], found[2.5]) == (["RTX 3080"], ["Ryzen 5 5600X"], [])


def test_a_part_a_set_up_line_names_below_the_numbers_holds_for_them() -> None:
    text = (
        RESULTS
        + "\n## Speed\n\n### Environment\n\n- CPU: Intel Core i9-13900K\n- GPU: NVIDIA A10\n"
    )
    assert _hardware(text) == {0.77: ["A10"], 6.36: []}


def test_a_part_a_set_up_list_names_below_the_numbers_holds_for_them() -> None:
    text = RESULTS + "\n## Accuracy and speed\n\n- Environment\n  - NVIDIA A10 24GB\n  - Ubuntu\n"
    assert _hardware(text)[0.77] == ["A10 24 GB"]
