"""The one hardware part a document's preamble names holds for numbers that name none."""

from __future__ import annotations

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
