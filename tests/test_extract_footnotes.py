"""A footnote a number points to sets up where it was measured (issue #14)."""

from __future__ import annotations

from research_radar.extract.claims import extract_claims
from research_radar.extract.footnotes import footnote_refs
from research_radar.models import Claim

_PAGE = (
    "# Fused attention\n\n"
    "Fused attention cuts the cost from 8521.3 ms to 248.6 ms\n"
    "for a 1975-token prompt[[1]](#1).\n\n"
    "Decoding runs at 55.5 tokens/s with Qwen2-7B[^gpu].\n\n"
    "Without the kernel it runs at 12.5 tokens/s.\n\n"
    "| Model | tokens/s |\n|---|---|\n| Llama-2-7B | 33.3[^gpu] |\n\n"
    "## Notes\n\n"
    '<summary><a id="1">[1]</a> Tested on one socket of Intel(R) Xeon(R) Platinum 8480L.</summary>\n\n'
    "Other notes: the H100 runs are in another post.\n\n"
    "[^gpu]: Measured on one RTX 4090.\n"
)


def _numbers(claims: list[Claim]) -> dict[float, Claim]:
    return {metric.value: claim for claim in claims for metric in claim.metrics}


def test_the_paragraph_pointing_to_a_footnote_takes_its_part() -> None:
    found = _numbers(extract_claims(_PAGE))
    assert found[8521.3].conditions.hardware == ["Xeon Platinum 8480L"]
    assert found[248.6].conditions.hardware == ["Xeon Platinum 8480L"]
    assert found[55.5].conditions.hardware == ["RTX 4090"]


def test_a_table_cell_pointing_to_a_footnote_is_a_number_of_its_row() -> None:
    row = _numbers(extract_claims(_PAGE))[33.3]
    assert row.conditions.hardware == ["RTX 4090"]
    assert row.conditions.model == ["Llama-2-7B"]


def test_a_paragraph_pointing_to_no_footnote_takes_none() -> None:
    assert _numbers(extract_claims(_PAGE))[12.5].conditions.hardware == []


def test_footnote_refs_pair_pointers_with_their_notes() -> None:
    refs = footnote_refs(_PAGE)
    assert [(first, last) for first, last, _note in refs] == [(3, 4), (6, 6), (12, 12)]
    assert refs[1][2] == "Measured on one RTX 4090."
    assert footnote_refs("a link to [the setup](#setup) with no anchor") == []
