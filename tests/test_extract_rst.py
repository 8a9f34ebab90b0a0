"""reStructuredText documents: their tables read as Markdown and HTML tables are, their
section titles as headings (issue #14)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from research_radar.cli import app
from research_radar.extract import rsttables, rstview
from research_radar.extract.claims import extract_claims
from research_radar.extract.documents import extract_document, extract_file, load_included
from research_radar.extract.rsttables import list_table, read_grid_or_simple
from research_radar.extract.rstview import is_rst, markdown_view
from research_radar.models import Claim

GRID = """\
Performance
===========

Results on NVIDIA H100
----------------------

All runs serve Llama-3.1-8B in BF16.

+------------+--------------+------------------+
| Batch size | Latency (ms) | Throughput       |
|            |              | (tokens/s)       |
+============+==============+==================+
| 1          | 12.5         | 80.3             |
+------------+--------------+------------------+
| 8          | 20.1         | 395.6            |
+------------+--------------+------------------+
"""

SIMPLE = """\
Decode on A100 80GB
===================

===========  ================  ================
Model        Latency (ms)
-----------  ----------------------------------
\\            p50               p99
===========  ================  ================
Qwen2-7B     10.25             21.75
Mistral-7B   9.5               18.25
===========  ================  ================
"""

LISTED = """\
Serving
=======

.. list-table:: Decode throughput of Qwen2-7B on RTX 4090, FP16
   :header-rows: 1
   :widths: 30 30

   * - Framework
     - Throughput (tokens/s)
   * - vLLM
     - 120.5
   * - ours
     - 180.25
"""

CSV = """\
Latency on L4
=============

.. csv-table:: TTFT of Llama-3.1-8B, INT8
   :header: "Concurrency", "TTFT (ms)"
   :widths: 20, 20

   1, 35.2
   16, 88.9
"""


def test_the_modules_export_what_the_package_shares() -> None:
    assert set(rstview.__all__) == {"is_rst", "markdown_view"}
    assert {"RstTable", "csv_table", "list_table", "read_grid_or_simple"} <= set(rsttables.__all__)


def _metrics(claims: list[Claim]) -> dict[float, tuple[str, str, Claim]]:
    """value -> (metric name, unit, claim) of every number extracted."""
    return {m.value: (m.name, m.unit, c) for c in claims for m in c.metrics}


def test_a_grid_tables_cells_take_its_header_units_and_the_headings_scope() -> None:
    found = _metrics(extract_claims(GRID, where="o/r@abc:docs/perf.rst"))
    assert set(found) == {12.5, 80.3, 20.1, 395.6}
    name, unit, claim = found[20.1]
    assert (name, unit) == ("Latency", "ms")
    # a header cell written over two lines is one header: its unit on the second line
    assert found[395.6][:2] == ("Throughput", "tok/s")
    assert claim.line == 15 and claim.where == "o/r@abc:docs/perf.rst#L15"
    assert claim.conditions.hardware == ["H100"]  # the section title
    assert claim.conditions.model == ["Llama-3.1-8B"]  # the paragraph above the table
    assert claim.conditions.precision == ["BF16"]
    assert claim.conditions.load["batch"] == "8"
    assert found[12.5][2].line == 13


def test_a_simple_table_with_a_two_row_header_names_each_column() -> None:
    found = _metrics(extract_claims(SIMPLE, where="bench.rst"))
    assert set(found) == {10.25, 21.75, 9.5, 18.25}
    name, unit, claim = found[21.75]
    assert unit == "ms" and "p99" in name and "Latency" in name
    assert "p50" in found[10.25][0]
    assert claim.conditions.hardware == ["A100 80 GB"]
    assert claim.conditions.model == ["Qwen2-7B"]
    assert found[18.25][2].conditions.model == ["Mistral-7B"]
    assert (found[10.25][2].line, found[9.5][2].line) == (9, 10)


def test_a_list_tables_caption_sets_it_up_and_its_first_row_is_its_header() -> None:
    found = _metrics(extract_claims(LISTED, where="docs/serving.rst"))
    assert set(found) == {120.5, 180.25}
    name, unit, ours = found[180.25]
    assert (name, unit) == ("Throughput", "tok/s")
    assert ours.conditions.hardware == ["RTX 4090"]
    assert ours.conditions.model == ["Qwen2-7B"]
    assert ours.conditions.precision == ["FP16"]
    assert ours.conditions.baseline == ["vLLM"]  # the first named system is the reference
    assert found[120.5][0] == "Throughput (baseline)"
    assert (ours.line, found[120.5][2].line) == (12, 10)


def test_a_csv_tables_header_option_names_its_columns() -> None:
    found = _metrics(extract_claims(CSV, where="docs/latency.rst"))
    assert set(found) == {35.2, 88.9}
    name, unit, claim = found[88.9]
    assert (name, unit) == ("TTFT", "ms")
    assert claim.conditions.load["concurrency"] == "16"
    assert claim.conditions.hardware == ["L4"]
    assert claim.conditions.model == ["Llama-3.1-8B"]
    assert claim.conditions.precision == ["INT8"]
    assert claim.line == 9


def test_a_table_directive_caption_and_a_subsection_title_scope_its_table() -> None:
    text = (
        "Benchmarks\n==========\n\nMixtral-8x7B\n------------\n\n.. table:: Prefill on 8x H100\n\n"
        "   =======  ==============\n   Batch    TTFT (ms)\n   =======  ==============\n"
        "   1        42.5\n   32       310.25\n   =======  ==============\n"
    )
    found = _metrics(extract_claims(text, where="t.rst"))
    assert set(found) == {42.5, 310.25}
    claim = found[310.25][2]
    assert claim.conditions.model == ["Mixtral-8x7B"]
    assert claim.conditions.hardware == ["8x H100"] or "H100" in claim.conditions.hardware[0]
    assert claim.conditions.load["batch"] == "32" and claim.line == 13


def test_code_and_comments_are_not_read_but_prose_and_notes_are() -> None:
    text = (
        "Setup\n=====\n\n.. code-block:: python\n\n   latency_ms = 123.5\n   run(8, 2048)\n\n"
        ".. This comment says 99.5 ms.\n\nRun it like this::\n\n   python bench.py --qps 7.25\n\n"
        ".. note:: On H100 decoding takes 15.5 ms per token.\n\n| Line 1\n| Line 2\n\n"
        ".. df-table::\n   :header-rows: 1\n\n   df['cost'] = 1.0e6 / 3.6e3 * 2.5\n"
    )
    found = _metrics(extract_claims(text, where="setup.rst"))
    assert set(found) == {15.5}
    assert found[15.5][1].startswith("ms") and found[15.5][2].line == 15


def test_a_tabs_title_scopes_the_table_in_it() -> None:
    text = (
        "Decode\n======\n\nLlama-3.1-8B, batch 1.\n\n.. tab-set::\n\n   .. tab-item:: H100\n\n"
        "      ======  ============\n      Tokens  Latency (ms)\n      ======  ============\n"
        "      128     7.5\n      ======  ============\n\n   .. tab-item:: L40S\n\n"
        "      ======  ============\n      Tokens  Latency (ms)\n      ======  ============\n"
        "      128     12.75\n      ======  ============\n"
    )
    found = _metrics(extract_claims(text, where="decode.rst"))
    assert set(found) == {7.5, 12.75}
    assert found[7.5][2].conditions.hardware == ["H100"]
    assert found[12.75][2].conditions.hardware == ["L40S"]
    assert found[12.75][2].conditions.model == ["Llama-3.1-8B"]


def test_spanned_cells_are_copies_of_the_cell_that_spans_them() -> None:
    lines = [
        "+--------+------+------+",
        "| Model  | Latency (ms)|",
        "|        +------+------+",
        "|        | p50  | p99  |",
        "+========+======+======+",
        "| A      | 1.5  | 2.5  |",
        "+--------+------+------+",
    ]
    table = read_grid_or_simple(lines, 0, len(lines) - 1)
    assert table is not None and table.head == 2
    [(line, cells)] = table.rows[2:]
    assert line == 5 and [c.text for c in cells] == ["A", "1.5", "2.5"]
    assert (table.rows[0][1][0].rowspan, table.rows[0][1][1].colspan) == (2, 2)
    assert [c.text for c in table.rows[1][1]] == ["p50", "p99"]


def test_a_list_table_keeps_an_empty_cell_in_its_column() -> None:
    lines = ["* - A", "  -", "  - C", "* - 1", "  - 2", "  - 3"]
    table = list_table(lines, 0, len(lines) - 1, 1)
    assert table is not None and table.head == 1
    assert [[c.text for c in cells] for _, cells in table.rows] == [["A", "", "C"], ["1", "2", "3"]]
    assert [line for line, _ in table.rows] == [0, 3]


@pytest.mark.parametrize(
    ("text", "where", "expected"),
    [
        pytest.param("a", "o/r@abc:docs/perf.rst", True, id="rst-path"),
        pytest.param("a", "https://x.io/_sources/perf.rst.txt", True, id="sphinx-source"),
        pytest.param(GRID, "README.md", False, id="md-path-wins"),
        pytest.param(GRID, "", True, id="grid-without-path"),
        pytest.param(LISTED, "", True, id="list-table-without-path"),
        pytest.param("| a | b |\n|---|---|\n| 1 | 2 |\n", "", False, id="markdown-table"),
        pytest.param("```\n" + GRID + "```\n", "", False, id="grid-in-fenced-code"),
        pytest.param("Title\n=====\n\nText 5 ms.\n", "", False, id="title-alone"),
    ],
)
def test_a_document_is_rst_by_its_path_else_by_its_tables(
    text: str, where: str, expected: bool
) -> None:
    assert is_rst(text, where) is expected


def test_markdown_is_read_as_before_and_the_view_keeps_every_line() -> None:
    markdown = "# Bench\n\n| Model | Latency (ms) |\n|---|---|\n| Llama-3-8B | 12.5 |\n"
    assert extract_claims(markdown, where="README.md") == extract_claims(
        markdown, where="README.md", rst=False
    )
    view = markdown_view(GRID).splitlines()
    assert view[0] == "# Performance" and view[1] == "" and view[3].startswith("## Results")
    assert "<td>20.1</td>" in view[14] and "20.1" not in "".join(view[:14] + view[15:])


def test_extract_document_reads_a_rst_file_by_its_name() -> None:
    claims = extract_document(CSV, "latency.rst", "o/r@abc:latency")
    assert {m.value for c in claims for m in c.metrics} == {35.2, 88.9}


def test_a_csv_table_from_a_file_is_read_beside_the_document(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "ttft.csv").write_text("Batch;TTFT (ms)\n1;41.5\n8;97.25\n")
    path = tmp_path / "perf.rst"
    path.write_text(
        "Serving on H100\n===============\n\n.. csv-table:: TTFT of Llama-3.1-8B\n"
        "   :file: data/ttft.csv\n   :delim: ;\n   :header-rows: 1\n\nAfter it.\n",
        encoding="utf-8",
    )
    found = _metrics(extract_file(path, "o/r@abc:perf.rst"))
    assert set(found) == {41.5, 97.25}
    name, unit, claim = found[97.25]
    assert (name, unit) == ("TTFT", "ms") and claim.conditions.load["batch"] == "8"
    assert claim.conditions.hardware == ["H100"] and claim.conditions.model == ["Llama-3.1-8B"]
    assert claim.line == 7  # the rows are not in the document: the line that names them
    # without the file (a document read from elsewhere), the table is not read
    assert extract_claims(path.read_text(encoding="utf-8"), where="perf.rst") == []
    result = CliRunner().invoke(app, ["extract", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert {m["value"] for row in json.loads(result.stdout) for m in row["metrics"]} == {
        41.5,
        97.25,
    }


def test_a_csv_table_never_reads_a_file_outside_the_documents_folder(tmp_path: Path) -> None:
    (tmp_path / "secret.csv").write_text("Batch;TTFT (ms)\n1;41.5\n")
    (tmp_path / "docs").mkdir()
    path = tmp_path / "docs" / "perf.rst"
    for name in ("../secret.csv", str(tmp_path / "secret.csv")):
        path.write_text(
            f".. csv-table:: TTFT\n   :file: {name}\n   :delim: ;\n   :header-rows: 1\n",
            encoding="utf-8",
        )
        assert load_included(path, path.read_text(encoding="utf-8")) == {}
        assert extract_file(path, "o/r@abc:docs/perf.rst") == []


def test_cli_extracts_a_rst_file(tmp_path: Path) -> None:
    path = tmp_path / "perf.rst"
    path.write_text(GRID, encoding="utf-8")
    result = CliRunner().invoke(app, ["extract", str(path), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert {m["value"] for row in rows for m in row["metrics"]} == {12.5, 80.3, 20.1, 395.6}
    assert all(row["conditions"]["hardware"] == ["H100"] for row in rows)


RST_BITS = st.sampled_from(
    [
        "+----+----+\n",
        "+====+====+\n",
        "| a  | 1.5|\n",
        "|",
        "=====  =====\n",
        "-----  -----\n",
        "Title\n=====\n",
        ".. list-table:: On A100\n   :header-rows: 1\n\n",
        '.. csv-table:: T\n   :header: "a", "b (ms)"\n\n',
        "   * - x\n     - 2.5\n",
        '   3, "4.5\n',
        ".. code-block::\n\n",
        "::\n\n",
        ":sup:`2`",
        "`x <http://a/1>`_",
        "*7*",
        "   ",
        "\n",
        "12.5 ms",
        "Latency (ms)",
    ]
)
RST_NOISE = st.lists(st.one_of(RST_BITS, st.text(max_size=4)), max_size=30).map("".join)


@settings(max_examples=200, deadline=None)
@given(RST_NOISE)
def test_rst_never_crashes_and_every_value_is_written_in_the_input(text: str) -> None:
    for claim in extract_claims(text, where="x.rst"):
        for metric in claim.metrics:
            assert f"{metric.value:g}" in text.replace(",", "") or str(metric.value) in text


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_rst_never_crashes_on_arbitrary_text(text: str) -> None:
    extract_claims(text, rst=True)
    markdown_view(text)


EDITS = st.lists(st.tuples(st.integers(0, 400), st.sampled_from(list("|+=- `*:\n1"))), max_size=6)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([GRID, SIMPLE, LISTED, CSV]), EDITS)
def test_a_table_broken_anywhere_never_crashes_nor_makes_up_a_number(
    text: str, edits: list[tuple[int, str]]
) -> None:
    for at, char in edits:
        at %= len(text)
        text = text[:at] + char + text[at + 1 :]
    # a number is written as it stands, or with thousands commas (`1,135.2` is 1135.2)
    unseparated = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    written = {float(n) for t in (text, unseparated) for n in re.findall(r"\d+(?:\.\d+)?", t)}
    for claim in extract_claims(text, where="broken.rst"):
        assert all(abs(metric.value) in written for metric in claim.metrics), text
