"""reportparse: both report forms, the seeds file, header facts, robustness."""

from __future__ import annotations

import os
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from research_radar.models import BEIJING
from research_radar.report.parse import (
    entry_name,
    find_repo,
    find_urls,
    parse_report,
    split_reports,
)
from research_radar.report.pipe_tables import read_pipe_tables
from research_radar.report.report_tables import markdown_it_tables

SHARED = Path(os.environ.get("RADAR_SHARED", Path(__file__).parents[2] / "shared"))
SEEDS = SHARED / "seeds-examples" / "research-index-issue-2026-10-27_to_11-02.md"
GOLDEN = Path(__file__).parent / "golden"

TAB_REPORT = (
    "2026-11-05｜新仓库研究\n\n"
    "证据截止：北京时间 08:30:00；发布前复核 main 0123456789abcdef0123456789abcdef01234567 未变。\n\n"
    "值得验证\n\n"
    "分类 / 项目与目标模型\t新增机制及 prior art\t时效版本\tInferRSI 接点 / 优先级\t来源\n"
    "model-specific / LLM｜NInfer（Qwen）\tKV 回滚\t新发布 head1882c6ad（10-29）\t#112\t[S1] "
    "https://github.com/Neroued/ninfer\n"
    "model-specific / DeepSeek-V4-Flash；缓存\t专家读取\tv1.2.0\t可扩展缺口\tS2 "
    "https://github.com/ronak-create/deepseek-v4-in-c\n\n"
    "证据索引\n\n"
    "S1 Neroued/ninfer@1882c6adbc98043fcf89f3589aa5addb3742777a；RTX 5090。\n"
    "来源：https://github.com/Neroued/ninfer/tree/1882c6adbc98043fcf89f3589aa5addb3742777a\n\n"
    "S2 作者报告。\n"
)


def test_tab_export_entries_evidence_and_header() -> None:
    report = parse_report(TAB_REPORT)
    assert report.date == date(2026, 11, 5)
    assert [entry.name for entry in report.entries] == ["NInfer", "ronak-create/deepseek-v4-in-c"]
    first = report.entries[0]
    assert first.repo == "Neroued/ninfer"
    assert first.evidence_ids == ["S1"]
    assert first.line == 8
    assert set(report.evidence) == {"S1", "S2"}
    assert report.evidence["S1"].urls[0].endswith("1882c6adbc98043fcf89f3589aa5addb3742777a")
    assert report.cutoff == "08:30:00" and report.cutoff_beijing
    assert report.cutoff_at == datetime(2026, 11, 5, 8, 30, tzinfo=BEIJING)
    assert report.host_sha == "0123456789abcdef0123456789abcdef01234567"


def test_markdown_golden_report_parses_with_line_numbers() -> None:
    text = (GOLDEN / "report-zh.md").read_text(encoding="utf-8")
    reports = split_reports(text)
    assert len(reports) == 1, "the marker comment is not a report of its own"
    report = reports[0]
    assert [entry.name for entry in report.entries] == ["NInfer", "RetrievalAttention", "Mach X"]
    lines = text.splitlines()
    for entry in report.entries:
        assert f"**{entry.name}**" in lines[report.line + entry.line - 2]
    assert report.cutoff_at is not None
    assert report.cutoff_at.astimezone(UTC) == datetime(2026, 8, 23, 0, 30, tzinfo=UTC)
    assert report.host_sha is not None and len(report.host_sha) == 40
    assert {"S1", "S2", "S3"} <= set(report.evidence)


def test_english_cutoff_is_read() -> None:
    report = parse_report((GOLDEN / "report-en.md").read_text(encoding="utf-8").split("\n", 1)[1])
    assert report.cutoff == "2026-08-23 08:30:00"
    assert report.cutoff_beijing


def test_prose_supplement_is_one_entry() -> None:
    text = "2026-10-27 补录｜JustGoal：价值\n\n截止北京时间 22:19；main 51fa1d31。\n\n分类： LLM；Kernel\n\n正文。\n"
    report = parse_report(text)
    assert [(e.name, e.kind) for e in report.entries] == [("JustGoal", "prose")]
    assert report.entries[0].cells["分类"].startswith("分类")


def test_find_repo_and_urls() -> None:
    assert find_repo("see https://github.com/a-b/c.d/blob/0123abc/x.md") == "a-b/c.d"
    assert find_repo("L-Forster/open-jet#24 and tok/s") == "L-Forster/open-jet"
    assert find_repo("ronak-create/deepseek-v4-in-c@d040205") == "ronak-create/deepseek-v4-in-c"
    assert find_repo("vLLM/SGLang tok/s") is None
    assert find_urls("a https://x.org/a, https://x.org/a。") == ["https://x.org/a"]


def test_entry_name_forms() -> None:
    assert entry_name("model-specific / hybrid LLM｜NInfer（Qwen/GLM）") == "NInfer"
    assert entry_name("Model-specific · Maya / DeepSeek、MiniMax") == "Maya"
    assert entry_name("**NInfer**<br>负载：LLM") == "NInfer"
    assert entry_name("kindlingai/gr8") == "kindlingai/gr8"


def test_seeds_file_reports_entries_and_header_facts() -> None:
    if not SEEDS.is_file():
        import pytest

        pytest.skip("seeds-examples not present")
    reports = split_reports(SEEDS.read_text(encoding="utf-8"))
    dated = [r for r in reports if r.date]
    assert reports[0].date is None  # the issue body
    assert [r.date.isoformat() for r in dated if r.date][:3] == ["2026-10-27"] * 3
    assert len(dated) == 10
    by_title = {r.title[:10]: r for r in dated}
    maya = next(r for r in dated if "Maya" in r.title)
    assert maya.host_sha is None  # only the project's own SHA (a known compliance gap)
    just_goal = next(r for r in dated if "JustGoal" in r.title)
    assert [e.name for e in just_goal.entries] == ["JustGoal"]
    oct28 = next(r for r in dated if r.date == date(2026, 10, 28))
    assert oct28.host_sha == "51fa1d31cc4a805490ddfe8055a36c81d70c4f08"
    assert oct28.cutoff == "08:30:57"
    assert [e.name for e in oct28.entries][:3] == ["Maya", "Strata", "ReaDy"]
    assert oct28.entries[0].evidence_ids == ["E1"]
    assert "E7" in oct28.evidence and "#121" not in oct28.evidence["E7"].text
    nov1 = next(r for r in dated if r.date == date(2026, 11, 1))
    assert nov1.entries[0].name == "ronak-create/deepseek-v4-in-c"
    assert [e.evidence_ids for e in nov1.entries] == [["S1"], ["S2"], ["S3"], ["S4"]]
    assert by_title


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_never_raises_on_arbitrary_text(text: str) -> None:
    for report in split_reports(text):
        assert report.line >= 1
        for entry in report.entries:
            assert isinstance(entry.name, str)


# -- the line reader of plain pipe tables (#19) ----------------------------------------

PLAIN_REPORT = (
    "## 2026-11-05｜新仓库研究\n\n<!-- research-radar:report 2026-11-05 zh -->\n"
    "证据截止：北京时间 08:30。\n\n### 值得验证\n"
    "| 分类 / 项目 | 机制 \\| prior art | 来源 |\n|:---|---:| --- |\n"
    "| LLM｜NInfer（Qwen） | KV 回滚 `a|b` |\n| x | y | [S1] | extra |\n"
    "S1 continues the table\n\n| a | b |\n|---|---|\n| 1 | 2 |\n### next\n"
    "S1 Neroued/ninfer@1882c6ad\n来源：https://github.com/Neroued/ninfer\n"
)


def _report_texts() -> list[str]:
    paths = [*GOLDEN.glob("*.md"), *Path(__file__).parents[1].glob("src/**/sample/**/*.md")]
    if SEEDS.is_file():
        paths.append(SEEDS)
    texts = [path.read_text(encoding="utf-8") for path in paths]
    return [
        PLAIN_REPORT,
        *texts,
        *(report.text for text in texts for report in split_reports(text)),
    ]


def test_line_reader_finds_markdown_its_tables() -> None:
    read = 0
    for text in _report_texts():
        found = read_pipe_tables(text)
        if found is not None:
            read += 1
            assert found == markdown_it_tables(text)
    assert read_pipe_tables(PLAIN_REPORT) is not None
    assert len(markdown_it_tables(PLAIN_REPORT)) == 2
    assert read >= 5


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("- item\n| h |\n|---|\n", id="lazy-line-of-a-list-item"),
        pytest.param("1. item\ntext\n| h |\n|---|\n", id="lazy-line-after-continuation"),
        pytest.param("## a | b\n|---|---|\n", id="heading-a-delimiter-row-follows"),
        pytest.param("-     code\n", id="list-item-of-indented-code"),
        pytest.param("- > quote\n", id="list-item-of-a-quote"),
        pytest.param("- - nested\n", id="nested-list"),
        pytest.param("| h | i |\n|---|\n", id="column-count-differs"),
        pytest.param("x | y\n|---|---|\n", id="header-without-leading-pipe"),
        pytest.param("| h |\n    | code |\n", id="indented"),
        pytest.param("```\n| h |\n|---|\n```\n", id="fence"),
        pytest.param("| h |\r\n|---|\r\n", id="carriage-returns"),
    ],
)
def test_line_reader_leaves_other_markdown_to_markdown_it(text: str) -> None:
    assert read_pipe_tables(text) is None


_PIECES = ["|", "| ", " |", "-", "---", ":", ":-", "a", "b c", "\\", "`", "#", "# ", "\t", " "]
_LINES = st.lists(st.sampled_from(_PIECES), max_size=6).map("".join)
_BLOCKS = [
    "",
    "<!-- c -->",
    "## h",
    "## a | b",
    "- item",
    "- **Now**：无",
    "2. entry",
    "* x",
    "|---|---|",
    "| a | b |",
    "|:-:|",
    "text",
    "| a | b |\n|--|:-:|",
]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("a\n| h |\n|---|\n- item\n", id="list-after-table"),
        pytest.param("- item\n\n| h |\n|---|\n| 1 |\n", id="table-after-a-list"),
        pytest.param("## 2026-08-29 | Radar\n\n| h |\n|---|\n", id="heading-with-a-pipe"),
        pytest.param("1. **x**：y\n2. z\n\n| h | i |\n|---|---|\n* a\n", id="numbered"),
    ],
)
def test_line_reader_reads_list_items_as_markdown_it_does(text: str) -> None:
    found = read_pipe_tables(text)
    assert found is not None
    assert found == markdown_it_tables(text)


@given(st.lists(st.one_of(_LINES, st.sampled_from(_BLOCKS)), max_size=12).map("\n".join))
@settings(max_examples=400, deadline=None)
def test_line_reader_agrees_with_markdown_it(text: str) -> None:
    found = read_pipe_tables(text)
    if found is not None:
        assert found == markdown_it_tables(text)
