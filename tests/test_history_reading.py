"""History import, reading (issue #19): a file's reports and their entries' identity facts
are the same read in one process or with the second half in a forked one, and the plan
built from facts read before is the plan built without them."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_radar.cores import can_fork
from research_radar.history.plan import build_import
from research_radar.history.reading import entry_facts, read_reports
from research_radar.report.parse import split_reports

SEEDS = (
    Path(__file__).resolve().parents[2]
    / "shared"
    / "seeds-examples"
    / "research-index-issue-2026-10-27_to_11-02.md"
)
HEADER = (
    "| 分类 / 项目与目标模型 | 新增机制及 prior art | 关键证据 / 缺口 | 来源 |\n|---|---|---|---|\n"
)


def _file(days: int) -> str:
    """A file of `days` dated reports: repositories by URL or by `owner/repo@sha` only in
    their evidence, a paper without code, a renamed project, a report without a table."""
    parts = ["Issue body before the first report.\n"]
    for day in range(days):
        when = f"2026-10-{day + 1:02d}"
        rows = [
            f"| LLM｜Alpha{day}（原 Beta{day}） | kv cache offload | 作者报告 [S1] "
            f"| https://github.com/acme/alpha-{day} |",
            f"| LLM｜Gamma{day} | speculative decoding | 见 S2。 | [S2] |",
            f"| LLM｜PaperOnly{day} | a method | 论文 2510.{10000 + day} | [S3] |",
        ]
        evidence = [
            f"S1 Alpha{day} — https://github.com/acme/alpha-{day}/tree/{'a' * 40}",
            f"S2 Gamma{day} — `gamma/gamma{day}@{'b' * 40}`",
            f"S3 PaperOnly{day} — arXiv:2510.{10000 + day}",
        ]
        body = "\n".join(rows) + "\n\n### 证据索引\n\n" + "\n".join(evidence)
        parts.append(f"## {when}｜新仓库研究\n\n### 值得验证\n\n{HEADER}{body}\n")
        if day % 3 == 0:
            parts.append(f"## {when} 补录｜Delta{day}：a prose supplement\n\nDelta{day} does x.\n")
    return "\n".join(parts)


def _texts() -> list[str]:
    texts = [_file(12)]
    if SEEDS.exists():
        texts.append(SEEDS.read_text(encoding="utf-8"))
    return texts


@pytest.mark.skipif(not can_fork(), reason="needs two cores and the fork start method")
@pytest.mark.parametrize("which", [0, 1], ids=["generated", "seeds"])
def test_reports_read_forked_are_those_read_in_one_process(which: int) -> None:
    texts = _texts()
    if which >= len(texts):
        pytest.skip("../shared/seeds-examples not present")
    text = texts[which]
    forked = read_reports(text, fork_min=2)
    alone = read_reports(text, fork_min=10**6)
    assert forked == alone
    reports = split_reports(text)
    assert [report for report, _ in alone] == reports
    assert [facts for _, facts in alone] == [
        [entry_facts(entry, report) for entry in report.entries] for report in reports
    ]
    assert sum(fact.key is not None for _, facts in alone for fact in facts) > 3


@pytest.mark.parametrize("which", [0, 1], ids=["generated", "seeds"])
def test_the_facts_read_before_give_the_same_plan(which: int) -> None:
    texts = _texts()
    if which >= len(texts):
        pytest.skip("../shared/seeds-examples not present")
    read = read_reports(texts[which], fork_min=2)
    reports = [("import:file.md", report) for report, _ in read]
    with_facts = build_import(reports, facts=[facts for _, facts in read])
    assert with_facts == build_import(reports)
    assert with_facts.findings


def test_the_generated_file_reads_its_identities() -> None:
    """The facts the tests above compare are there to compare: keys from a source cell,
    from `owner/repo@sha` evidence and from a lone paper, and a former name."""
    facts = {fact.names[0]: fact for _, found in read_reports(_file(2)) for fact in found}
    assert facts["Alpha1"].key == "gh:acme/alpha-1" and facts["Alpha1"].former == ["Beta1"]
    assert facts["Gamma1"].key == "gh:gamma/gamma1"
    assert facts["PaperOnly1"].key == "arxiv:2510.10001"
