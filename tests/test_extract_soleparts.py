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
