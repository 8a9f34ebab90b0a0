"""The E1 digest: build_digest over inboxes built in tmp_path, its Markdown, JSON and CLI."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from research_radar.cli import app
from research_radar.cli.digest_cmd import SAMPLE_END, sample_root
from research_radar.digest.build import build_digest
from research_radar.digest.render import (
    build_digest_context,
    render_digest_json,
    render_digest_markdown,
)
from research_radar.digest.shapes import Digest
from research_radar.errors import ConfigError
from research_radar.sources.inbox_files import load_inbox
from research_radar.sources.notes import SHANGHAI

END = datetime(2026, 9, 3, 22, 20, tzinfo=SHANGHAI)
runner = CliRunner()

LIVING = """# inference

## §1 推理引擎与内核
- vLLM / PagedAttention（arXiv:2309.06180）：分页 KV cache，吞吐提升

## §3 KV Cache 与长上下文
- RetrievalAttention（arXiv:2409.10516）：KV 向量检索，长上下文 decode
- **SnapKV** 按观察窗口选择 KV cache
"""


def _root(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in {"knowledge/inference.md": LIVING, **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def _digest(root: Path, end: datetime = END, hours: float = 24, topic: str = "inference") -> Digest:
    return build_digest(load_inbox(root), topic=topic, start=end - timedelta(hours=hours), end=end)


def test_one_paper_in_three_notes_is_one_increment_with_three_sources(tmp_path: Path) -> None:
    root = _root(
        tmp_path,
        {
            "inbox/tom/2026-09-03_0840_radar.md": "## RetroInfer\n- 论文：arXiv:2505.02922\n"
            "- 要点：KV cache 向量存储，4.5× 加速\n",
            "inbox/jay/20260903-1735-briefing.md": "- **RetroInfer**：https://arxiv.org/abs/"
            "2505.02922v2 wave index 推理\n- **MInference**（arXiv:2407.02490）长上下文 prefill\n",
            "inbox/flyp/2026-09-03-1550-read.md": "# read\n\nRetroInfer 的 wave buffer 管理 KV "
            "cache（https://arxiv.org/pdf/2505.02922v1）\n",
        },
    )
    digest = _digest(root)
    retro = [e for e in digest.increments if e.arxiv_ids == ["2505.02922"]]
    assert len(retro) == 1
    assert retro[0].sources == [
        "inbox/tom/2026-09-03_0840_radar.md",
        "inbox/flyp/2026-09-03-1550-read.md",
        "inbox/jay/20260903-1735-briefing.md",
    ]
    assert retro[0].urls == ["https://arxiv.org/abs/2505.02922"]
    assert {e.arxiv_ids[0] for e in digest.increments} == {"2505.02922", "2407.02490"}


def test_dedup_by_url_and_by_title_without_arxiv(tmp_path: Path) -> None:
    root = _root(
        tmp_path,
        {
            "inbox/a/2026-09-03_0800_x.md": "- LMCache 跨实例复用 KV cache https://github.com/"
            "LMCache/LMCache\n",
            "inbox/b/2026-09-03_0900_y.md": "- KV 层复用 prefix：https://www.github.com/lmcache/"
            "lmcache/ 推理\n",
            "inbox/c/2026-09-03_1000_z.md": "## 长上下文推理的 KV cache 压缩综述\n- 没有链接\n",
            "inbox/d/2026-09-03_1100_w.md": "## 长上下文推理的 KV cache 压缩综述！\n- 还是没有\n",
        },
    )
    digest = _digest(root)
    assert digest.increments == []
    assert sorted(len(e.sources) for e in digest.adjacent) == [2, 2]
    keys = sorted(e.key for e in digest.adjacent)
    assert keys[1] == "url:github.com/lmcache/lmcache"
    assert keys[0].startswith("title:")


def test_different_arxiv_ids_are_never_merged_through_a_shared_url(tmp_path: Path) -> None:
    repo = "https://github.com/microsoft/RetrievalAttention"
    root = _root(
        tmp_path,
        {
            "inbox/a/2026-09-03_0800_x.md": f"- RetroInfer arXiv:2505.02922 推理 {repo}\n"
            f"- RetrievalAttention arXiv:2409.10516 推理 {repo}\n",
        },
    )
    assert len(_digest(root).increments) == 2


def test_net_new_versus_anchored_by_id_and_by_name_with_card_number(tmp_path: Path) -> None:
    root = _root(
        tmp_path,
        {
            "inbox/a/2026-09-03_0800_x.md": "- **RetrievalAttention** arXiv:2409.10516 KV 检索推理\n"
            "- **SnapKV** 新版本：KV cache 压缩到 1/8 推理\n"
            "- **RetroInfer** arXiv:2505.02922 KV cache 长上下文 推理\n",
            "paper_cards/0041-2505-02922.md": "---\ntitle: RetroInfer paper\ndate: 2026-08-01\n---\n",
        },
    )
    entries = {e.name: e for e in [*_digest(root).increments, *_digest(root).adjacent]}
    assert entries["RetrievalAttention"].status == "anchored"
    assert entries["RetrievalAttention"].anchored_by == "arXiv:2409.10516"
    assert entries["RetrievalAttention"].relation[0].id == "§3"
    assert entries["SnapKV"].status == "anchored"
    assert entries["SnapKV"].anchored_by == "名称 SnapKV"
    retro = entries["RetroInfer"]
    assert (retro.status, retro.cards, retro.title) == ("net-new", [41], "RetroInfer paper")
    assert retro.suggested_section.startswith("§3")


def test_cards_for_one_paper_collapse_into_one_entry(tmp_path: Path) -> None:
    card = "---\ntitle: CRISP\ndate: 2026-09-03 16:30\ncategory: cs.LG\n---\n长上下文稀疏 prefill 推理\n"
    root = _root(
        tmp_path,
        {
            "paper_cards/1197-2609-01925.md": card,
            "paper_cards/1199-2609-01925.md": card,
            "inbox/tom/2026-09-03_1440_radar.md": "- CRISP arXiv:2609.01925 稀疏 attention 推理\n",
        },
    )
    digest = _digest(root)
    assert len(digest.increments) == 1
    entry = digest.increments[0]
    assert entry.cards == [1197, 1199]
    assert len(entry.sources) == 3
    assert sorted(p.kind for p in digest.problems) == ["duplicate-card-arxiv", "missing-path"]


def test_window_is_start_exclusive_end_inclusive_in_shanghai(tmp_path: Path) -> None:
    body = "- vLLM 推理吞吐 1.7×\n"
    root = _root(
        tmp_path,
        {
            "inbox/a/2026-09-02_2220_edge.md": body,  # == start: previous window
            "inbox/a/2026-09-02_2221_in.md": body,
            "inbox/a/2026-09-03_2220_end.md": body,  # == end: this window
            "inbox/a/2026-09-03_2221_late.md": body,
            "inbox/a/2026-09-03-dateonly.md": body,  # 00:00 Shanghai
            "inbox/a/2026-09-02-dateonly.md": body,
            "inbox/a/utc.md": "---\ndate: 2026-09-03T14:00:00+00:00\n---\n" + body,  # 22:00 CST
        },
    )
    end_in_utc = END.astimezone(UTC)
    digest = _digest(root, end=end_in_utc)
    assert digest.window.end == END and digest.window.end.utcoffset() == timedelta(hours=8)
    assert [s.path.rsplit("/", 1)[-1] for s in digest.sources] == [
        "2026-09-02_2221_in.md",
        "2026-09-03-dateonly.md",
        "utc.md",
        "2026-09-03_2220_end.md",
    ]
    assert digest.outside_window == 3


def test_contradictions_on_numbers_and_statuses(tmp_path: Path) -> None:
    root = _root(
        tmp_path,
        {
            "inbox/a/2026-09-03_0800_x.md": "- **SGLang** PR #1234 已合并，吞吐 3.2×\n",
            "inbox/b/2026-09-03_0900_y.md": "- **SGLang** PR #1234 is still open; throughput 2.1×\n",
            "inbox/c/2026-09-03_1000_z.md": "- **SGLang** 吞吐 3.2×（复述）\n",
        },
    )
    digest = _digest(root)
    found = {(c.entity, c.kind, c.about) for c in digest.contradictions}
    assert found == {("SGLang", "number", "throughput ×"), ("SGLang", "status", "merge")}
    status = next(c for c in digest.contradictions if c.kind == "status")
    assert [s.source for s in status.statements] == [
        "inbox/a/2026-09-03_0800_x.md",
        "inbox/b/2026-09-03_0900_y.md",
    ]


def test_agreeing_sources_are_not_a_contradiction(tmp_path: Path) -> None:
    root = _root(
        tmp_path,
        {
            "inbox/a/2026-09-03_0800_x.md": "- **vLLM V1** 吞吐最高 1.7×\n",
            "inbox/b/2026-09-03_0900_y.md": "- **vLLM V1** 吞吐最高 1.7×，已发布\n",
        },
    )
    assert _digest(root).contradictions == []


def test_every_source_is_counted_with_zeros_and_problems_are_listed(tmp_path: Path) -> None:
    root = _root(
        tmp_path,
        {
            "inbox/tom/2026-09-03_0840_radar.md": "## agent 评测\n- 与 inference 无关的 agent 基准\n",
            "inbox/jay/2026-09-03_1000_b.md": "- vLLM 推理吞吐 1.7× [x](missing.md)\n",
            "inbox/jay/undated.md": "- SGLang 推理\n",
            "work-queue.md": "- 待建卡：Mooncake arXiv:2407.00079 推理\n- agent 选题\n",
        },
    )
    digest = _digest(root)
    counts = {(s.kind, s.path): s.items for s in digest.sources}
    assert counts == {
        ("queue", "work-queue.md"): 1,
        ("note", "inbox/jay/2026-09-03_1000_b.md"): 1,
        ("note", "inbox/tom/2026-09-03_0840_radar.md"): 0,
    }
    assert [s.path for s in digest.not_included] == ["inbox/tom/2026-09-03_0840_radar.md"]
    kinds = {(p.kind, p.path) for p in digest.problems}
    assert ("no-timestamp", "inbox/jay/undated.md") in kinds
    assert ("broken-link", "inbox/jay/2026-09-03_1000_b.md") in kinds
    assert ("missing-path", "paper_cards") in kinds
    text = render_digest_markdown(digest)
    assert "inbox/jay/undated.md — no-timestamp" in text
    assert "inbox/tom/2026-09-03_0840_radar.md（inference 0 件）" in text


def test_missing_living_document_is_a_problem_and_everything_is_net_new(tmp_path: Path) -> None:
    root = _root(
        tmp_path, {"inbox/a/2026-09-03_0800_x.md": "- RetrievalAttention arXiv:2409.10516 推理\n"}
    )
    (root / "knowledge/inference.md").unlink()
    (root / "knowledge").rmdir()
    digest = _digest(root)
    assert digest.living_doc is None
    assert digest.increments[0].status == "net-new"
    assert "no-living-doc" in {p.kind for p in digest.problems}


@pytest.mark.parametrize(
    ("text", "rating"),
    [
        pytest.param(
            "VLDB 2026；机构：Microsoft Research；https://github.com/a/b", "极高", id="top"
        ),
        pytest.param("MLSys 2026 论文", "高", id="venue-only"),
        pytest.param("生产轨迹验证的预印本", "高", id="production"),
        pytest.param("单作者预印本，无代码，α 指标未报告", "中-低", id="weak"),
        pytest.param(
            "submitted to NeurIPS 2026, code https://github.com/a/b", "高", id="submitted"
        ),
    ],
)
def test_credibility_rating(tmp_path: Path, text: str, rating: str) -> None:
    root = _root(tmp_path, {"inbox/a/2026-09-03_0800_x.md": f"- X 推理 arXiv:2601.00001 {text}\n"})
    assert _digest(root).increments[0].credibility == rating


def test_key_points_keep_numbers_and_conditions(tmp_path: Path) -> None:
    root = _root(
        tmp_path,
        {
            "inbox/a/2026-09-03_0800_x.md": "## FA3\n- arXiv:2407.08608\n- H100 FP16 相比 FlashAttention-2 快 1.5-2.0×\n"
        },
    )
    point = _digest(root).increments[0].key_points[0]
    assert point.numbers == ["1.5-2.0×"]
    assert {"H100", "FP16"} <= set(point.conditions)


def test_unknown_topic_and_bad_window_are_config_errors(tmp_path: Path) -> None:
    inbox = load_inbox(_root(tmp_path, {}))
    with pytest.raises(ConfigError, match="known topics"):
        build_digest(inbox, topic="cooking", start=END - timedelta(hours=1), end=END)
    with pytest.raises(ConfigError, match="start < end"):
        build_digest(inbox, topic="inference", start=END, end=END)
    with pytest.raises(ConfigError, match="timezone-aware"):
        build_digest(inbox, topic="inference", start=datetime(2026, 9, 3), end=END)


def test_empty_window_renders_every_section(tmp_path: Path) -> None:
    digest = _digest(_root(tmp_path, {}))
    text = render_digest_markdown(digest)
    for heading in (
        "## 状态",
        "## 一、",
        "## 二、",
        "## 三、",
        "## 四、",
        "## 五、",
        "## 六、",
        "## 七、",
    ):
        assert heading in text
    assert "本棒未发现跨来源的数字或状态矛盾" in text
    assert text.rstrip().splitlines()[-1].startswith("Research Radar · 2026-09-03 22:20 CST")


def test_context_holds_no_unworded_values(tmp_path: Path) -> None:
    context = build_digest_context(_digest(_root(tmp_path, {})))
    assert context.title == "inference · E1 预消化简报（2026-09-03）"
    assert "窗口期：2026-09-02 22:20 → 2026-09-03 22:20（约 24h）" in context.header


# --- the bundled sample ------------------------------------------------------------------


def _sample(topic: str = "inference") -> Digest:
    inbox = load_inbox(sample_root())
    return build_digest(inbox, topic=topic, start=SAMPLE_END - timedelta(hours=24), end=SAMPLE_END)


@pytest.mark.parametrize("topic", ["inference", "rsi"])
def test_sample_digest_golden(topic: str, golden: Callable[[str, str], None]) -> None:
    golden(f"digest-sample-{topic}.md", render_digest_markdown(_sample(topic)))


def test_sample_shows_each_feature() -> None:
    digest = _sample()
    retro = next(e for e in digest.increments if e.arxiv_ids == ["2505.02922"])
    assert len(retro.sources) >= 3 and retro.cards == [41]
    assert {e.status for e in digest.increments} == {"net-new", "anchored"}
    found = [(c.entity, c.kind, c.about) for c in digest.contradictions]
    assert found == [
        ("RetroInfer (arXiv:2505.02922)", "number", "speedup ×"),
        ("RetroInfer (arXiv:2505.02922)", "status", "venue"),
        ("vLLM V1", "status", "announcement"),
    ]
    assert "同行评审：VLDB 2026" not in retro.reasons, "a hedged venue is not peer review"
    assert {p.kind for p in digest.problems} >= {
        "no-timestamp",
        "duplicate-card-number",
        "broken-link",
        "malformed-url",
    }
    assert any(s.items == 0 for s in digest.sources)


def _check_json_shape(data: dict[str, object]) -> None:
    assert set(data) >= {
        "window",
        "sources",
        "increments",
        "adjacent",
        "contradictions",
        "problems",
    }
    window = data["window"]
    assert isinstance(window, dict) and set(window) >= {"start", "end"}
    for source in data["sources"]:  # type: ignore[attr-defined]
        assert set(source) >= {"path", "analyst", "items"} and isinstance(source["items"], int)
    increments = data["increments"]
    assert isinstance(increments, list) and increments
    wanted = {"title", "arxiv_ids", "urls", "status", "credibility", "reasons", "sources"}
    for entry in [*increments, *data["adjacent"]]:  # type: ignore[misc]
        assert set(entry) >= wanted
        assert entry["status"] in {"net-new", "anchored"}
        assert entry["credibility"] in {"极高", "高", "中-低"}
    for item in data["contradictions"]:  # type: ignore[attr-defined]
        assert set(item) >= {"entity", "statements"}
        assert all(set(s) >= {"source", "text"} for s in item["statements"])


def test_json_shape() -> None:
    data = render_digest_json(_sample())
    _check_json_shape(data)
    assert data["window"] == {
        "start": "2026-09-02T22:20:00+08:00",
        "end": "2026-09-03T22:20:00+08:00",
    }
    json.dumps(data, ensure_ascii=False)


# --- CLI ---------------------------------------------------------------------------------


def test_cli_sample_markdown() -> None:
    result = runner.invoke(app, ["digest", "--sample"])
    assert result.exit_code == 0, result.output
    assert "# inference · E1 预消化简报（2026-09-03）" in result.stdout
    assert "## 七、检查过的来源汇总" in result.stdout


def test_cli_json_and_out_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["digest", "--sample", "--json"])
    assert result.exit_code == 0, result.output
    _check_json_shape(json.loads(result.stdout))
    out = tmp_path / "digest.json"
    result = runner.invoke(app, ["digest", "--sample", "--json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    _check_json_shape(json.loads(out.read_text(encoding="utf-8")))


def test_cli_root_with_overrides_end_and_hours(tmp_path: Path) -> None:
    root = _root(
        tmp_path / "team",
        {"notes/jay/2026-09-03_1000_a.md": "- RetroInfer arXiv:2505.02922 KV cache 推理\n"},
    )
    args = ["digest", "--root", str(root), "--inbox", str(root / "notes"), "--end",
            "2026-09-03T12:00", "--hours", "3", "--json"]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["window"]["start"] == "2026-09-03T09:00:00+08:00"
    assert [e["arxiv_ids"] for e in data["increments"]] == [["2505.02922"]]


def test_cli_missing_root_names_it_and_suggests_sample(tmp_path: Path) -> None:
    result = runner.invoke(app, ["digest", "--root", str(tmp_path / "absent")])
    assert result.exit_code == 1
    assert "absent" in result.output and "--sample" in result.output


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--topic", "cooking"], id="topic"),
        pytest.param(["--end", "yesterday"], id="end"),
        pytest.param(["--hours", "0"], id="hours"),
        pytest.param(["--root", "."], id="sample-and-root"),
    ],
)
def test_cli_usage_errors(args: list[str]) -> None:
    result = runner.invoke(app, ["digest", "--sample", *args])
    assert result.exit_code == 2, result.output


def test_sample_status_contradiction_names_both_sources_and_what_to_verify() -> None:
    text = render_digest_markdown(_sample())
    section = text.split("## 四")[1].split("## 五")[0]
    venue = section.split("状态不一致（会议录用）")[1].split("\n\n")[0]
    assert "inbox/jay/20260903-1735-briefing.md" in venue and "据称已录用（待核实说法）" in venue
    assert "inbox/tom/2026-09-03_2040_radar.md" in venue and "已录用（作为事实陈述）" in venue
    assert "待核实：一处为传闻、另一处作为事实：核对会议官网的录用论文列表" in venue
    assert "状态不一致（官宣/否认）" in section and "说法相反" in section


@pytest.mark.parametrize(
    ("first", "second", "about"),
    [
        pytest.param("据称已被 OSDI 2026 录用", "OSDI 2026 已录用", "venue", id="rumour-vs-fact"),
        pytest.param("under review at OSDI 2026", "accepted to OSDI 2026", "venue", id="review"),
        pytest.param("官方已宣布合作", "对方否认合作", "announcement", id="announced-denied"),
    ],
)
def test_status_contradictions(tmp_path: Path, first: str, second: str, about: str) -> None:
    root = _root(
        tmp_path,
        {
            "inbox/a/2026-09-03_0800_x.md": f"- **FooServe** 推理 serving：{first}\n",
            "inbox/b/2026-09-03_0900_y.md": f"- **FooServe** 推理 serving：{second}\n",
        },
    )
    [found] = _digest(root).contradictions
    assert (found.kind, found.about) == ("status", about)
    assert [s.source for s in found.statements] == [
        "inbox/a/2026-09-03_0800_x.md",
        "inbox/b/2026-09-03_0900_y.md",
    ]
    assert found.verify


def test_a_hedged_venue_is_not_peer_reviewed(tmp_path: Path) -> None:
    note = "- X 推理 arXiv:2601.00001 据称已被 VLDB 2026 录用；机构：Microsoft Research\n"
    root = _root(tmp_path, {"inbox/a/2026-09-03_0800_x.md": note})
    entry = _digest(root).increments[0]
    assert entry.venue == "" and entry.credibility == "高"
    assert any("待核实" in reason for reason in entry.reasons)


def test_key_points_are_not_garbled(tmp_path: Path) -> None:
    notes = {
        "inbox/a/2026-09-03_0800_x.md": (
            "## DistServe\n- DistServe（arXiv:2401.09670，OSDI 2024）：与 Mooncake 同属 P/D 分离；"
            "作者报告在 SLO 约束下可多服务 7.4× 请求\n"
            "## MInference\n- **MInference**（NeurIPS 2024，https://arxiv.org/abs/2407.02490）："
            "1M 上下文在单卡 A100 上 prefill 延迟最高降 10×\n"
            "## RetroInfer\n- RetroInfer arXiv:2505.02922：KV 在 CPU 内存时相对稀疏注意力基线最高 10.5×\n"
        ),
        "inbox/b/2026-09-03_0900_y.md": "## Mooncake\n- Mooncake arXiv:2407.00079 吞吐 +525%\n",
    }
    digest = _digest(_root(tmp_path, notes))
    points = {e.name or e.title: e.key_points[0] for e in digest.increments}
    assert "Mooncake" not in points["DistServe"].conditions
    minference = next(p for name, p in points.items() if "MInference" in name)
    assert "（NeurIPS 2024）" in minference.text and "，）" not in minference.text
    assert minference.numbers == ["10×"] and "上下文 1M" in minference.conditions
    retro = next(p for name, p in points.items() if "RetroInfer" in name)
    assert "vs 稀疏注意力基线" in retro.conditions
    citations = " ".join(" ".join(c.facts) for c in digest.net_new_arxiv)
    assert "1M" not in citations


def test_shared_words_are_whole_words(tmp_path: Path) -> None:
    living = LIVING + "\n## §4 投机解码\n- EAGLE 系列草稿模型做投机解码，长上下文\n"
    root = _root(
        tmp_path,
        {
            "knowledge/inference.md": living,
            "inbox/a/2026-09-03_0800_x.md": "- X arXiv:2601.00001 投机解码的草稿头，长上下文推理\n",
        },
    )
    shared = [w for r in _digest(root).increments[0].relation for w in r.shared]
    assert "机解" not in shared and "下文" not in shared and "上下" not in shared
    assert "投机解码" in shared


def test_previous_digest_comparison(tmp_path: Path) -> None:
    before = {
        "inbox/a/2026-09-02_0800_x.md": "- **FooServe** 推理 arXiv:2601.00001 据称已被 OSDI 2026 录用\n",
        "inbox/b/2026-09-02_0900_y.md": "- **FooServe** 推理 arXiv:2601.00001 OSDI 2026 已录用\n",
        "inbox/b/2026-09-02_1000_z.md": "- **BarCache** 推理 KV cache arXiv:2601.00002 单作者，无代码\n",
    }
    after = {
        "inbox/a/2026-09-03_0800_x.md": "- **FooServe** 推理 arXiv:2601.00001 OSDI 2026 已录用，代码 https://github.com/a/b\n",
    }
    root = _root(tmp_path, {**before, **after})
    previous = _digest(root, end=END - timedelta(days=1))
    assert previous.contradictions
    current = build_digest(
        load_inbox(root),
        topic="inference",
        start=END - timedelta(hours=24),
        end=END,
        previous=Digest.model_validate_json(previous.model_dump_json()),
    )
    comparison = current.comparison
    assert comparison is not None and comparison.increments == 2
    assert [line.split("（")[0] for line in comparison.confirmed] == ["FooServe"]
    assert [line.split("（")[0] for line in comparison.still_open] == ["BarCache"]
    text = render_digest_markdown(current)
    assert "已确认：FooServe" in text and "仍待核实：BarCache（本棒无新消息" in text
    assert "未提供前一棒简报" in render_digest_markdown(previous)


# --- property tests: the digest's text assembly -------------------------------------------

_BASELINE_NAMES = st.sampled_from(
    ["full attention", "FlashAttention-2", "vLLM", "EAGLE-2", "稀疏注意力基线", "原生实现", "V0"]
)
_QUANTIFIERS = st.sampled_from(["最高 ", "约 ", "高达 ", " ", "最多 "])
_VENUES = st.sampled_from(["NeurIPS 2024", "OSDI 2024", "", "VLDB 2026"])
_GARBLED = re.compile(r"[（(]\s*[）)]|[，,、；;]\s*[）)]|[（(]\s*[，,、；;]")


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    baseline=_BASELINE_NAMES,
    quantifier=_QUANTIFIERS,
    value=st.decimals(min_value=1, max_value=99, places=1),
    venue=_VENUES,
    keyword=st.sampled_from(["相对", "相比", "vs ", "对比"]),
)
def test_text_assembly_never_cuts_a_phrase_or_leaves_an_empty_slot(
    tmp_path: Path, baseline: str, quantifier: str, value: object, venue: str, keyword: str
) -> None:
    slot = (
        f"（{venue}，https://arxiv.org/abs/2601.00001）"
        if venue
        else "（https://arxiv.org/abs/2601.00001）"
    )
    note = f"- **FooServe**{slot}：推理 KV cache {keyword}{baseline}{quantifier}{value}× 加速\n"
    folder = tmp_path / str(abs(hash((baseline, quantifier, str(value), venue, keyword))))
    root = _root(folder, {"inbox/a/2026-09-03_0800_x.md": note})
    digest = _digest(root)
    [entry] = digest.increments
    [point] = entry.key_points
    assert f"vs {baseline}" in point.conditions, point.conditions
    for condition in point.conditions:
        core = condition.removeprefix("vs ")
        assert core in point.text
        tail = point.text.split(core, 1)[1][:1]
        assert not (core[-1].isascii() and core[-1].isalnum() and tail.isascii() and tail.isalnum())
    text = render_digest_markdown(digest)
    assert not _GARBLED.search(text), _GARBLED.search(text)
    assert "〔条件：〕" not in text and "（）" not in text


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("（）(),，、；;:： abc中文1")), max_size=30))
def test_tidy_leaves_no_empty_slot(text: str) -> None:
    from research_radar.digest.keypoints import without_urls

    tidy = without_urls(f"X（{text}，https://example.org/a）")
    assert not re.search(r"[（(]\s*[）)]|[，,、；;:：]\s*[）)]|[（(]\s*[，,、；;:：]", tidy), tidy


def test_inference_items_are_chosen_by_learned_relevance(tmp_path: Path) -> None:
    root = _root(
        tmp_path,
        {
            "inbox/a/2026-09-03_0800_x.md": (
                "- Reranking retrieved passages for RAG with a cross-encoder to cut serving"
                " latency arXiv:2601.00001\n"
                "- H2O: heavy-hitter oracle for KV eviction in efficient generative LLMs"
                " arXiv:2306.14048\n"
            ),
        },
    )
    digest = _digest(root)
    assert [e.arxiv_ids for e in digest.increments] == [["2306.14048"]]
    row = next(s for s in digest.sources if s.path.endswith("0800_x.md"))
    assert row.items == 1


def _titles(seed: int, count: int) -> list[str]:
    """Titles as notes write them, many near-copies of each other (a word dropped, a
    letter changed, words swapped), of every length from one word to long sentences."""
    words = ["kv", "cache", "offload", "expert", "tier", "ssd", "speculative", "decoding",
             "prefill", "attention", "sparse", "serving", "vllm", "sglang", "mooncake",
             "distserve", "长上下文", "推理", "量化", "a", "of", "for", "with"]  # fmt: skip
    rng = random.Random(seed)
    titles: list[str] = []
    for _ in range(count):
        if titles and rng.random() < 0.5:
            title = list(rng.choice(titles))
            for _ in range(rng.randrange(1, 4)):
                spot = rng.randrange(len(title))
                edit = rng.choice(["drop", "swap", "letter"])
                if edit == "drop" and len(title) > 1:
                    del title[spot]
                elif edit == "swap":
                    other = rng.randrange(len(title))
                    title[spot], title[other] = title[other], title[spot]
                else:
                    title[spot] = rng.choice("abcdefghij 0123")
            titles.append("".join(title))
        else:
            titles.append(" ".join(rng.choice(words) for _ in range(rng.randrange(1, 16))))
    return titles


@pytest.mark.parametrize("seed", [pytest.param(seed, id=f"seed{seed}") for seed in range(4)])
def test_similar_titles_are_exactly_the_pairs_scoring_90_or_more(seed: int) -> None:
    # the length window only skips pairs that cannot pass: the same pairs, in the same
    # order, as scoring every pair (refs #19)
    from rapidfuzz import fuzz

    from research_radar.digest.grouping import similar_titles

    titles = _titles(seed, 700)
    ordered = [" ".join(sorted(title.split())) for title in titles]
    expected = [
        (i, j)
        for i in range(len(titles))
        for j in range(i + 1, len(titles))
        if fuzz.ratio(ordered[i], ordered[j]) >= 90
    ]
    assert len(expected) > 100  # near-copies are there to be found
    assert similar_titles(titles, block=37) == expected
    assert similar_titles(titles) == expected


def test_status_words_in_any_case_are_read() -> None:
    # the one-search screen for status words must not hide a state that the
    # case-insensitive words match: `ı` and `ſ` match `i` and `s` (refs #19)
    from research_radar.digest.contradictions import find_contradictions
    from research_radar.digest.signals import Mention
    from research_radar.sources.notes import parse_item

    def mention(source: str, text: str) -> Mention:
        return Mention(source=source, when=END, item=parse_item("", text, "", 1))

    found = find_contradictions(
        "Deal",
        [
            mention("a", "- The deal is SıGNED; the weights are RELEAſED"),
            mention("b", "- The deal is not yet signed; weights not yet released"),
        ],
    )
    assert {(c.about, tuple(s.state for s in c.statements)) for c in found} == {
        ("deal", ("signed", "unsigned")),
        ("release", ("released", "unreleased")),
    }


def test_a_metric_word_in_any_case_is_read_as_its_metric() -> None:
    # `ſpeedup` matches the case-insensitive metric words; it used to raise KeyError
    from research_radar.digest.contradictions import find_contradictions
    from research_radar.digest.signals import Mention
    from research_radar.sources.notes import parse_item

    def mention(source: str, text: str) -> Mention:
        return Mention(source=source, when=END, item=parse_item("", text, "", 1))

    found = find_contradictions(
        "Engine",
        [
            mention("a", "- ſPEEDUP of 2.4x on decode"),
            mention("b", "- speedup of 3.1x on decode"),
        ],
    )
    assert [(c.kind, c.about, sorted(s.source for s in c.statements)) for c in found] == [
        ("number", "speedup ×", ["a", "b"])
    ]
