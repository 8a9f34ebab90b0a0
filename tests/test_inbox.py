"""The inbox adapter: parse_* on text, load_inbox on folders built in tmp_path."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import research_radar.sources.notes as notes
from research_radar.errors import SourceError
from research_radar.sources.inbox import parse_card, parse_knowledge, parse_note
from research_radar.sources.inbox_files import load_inbox
from research_radar.sources.note_meta import parse_timestamp
from research_radar.sources.notes import (
    SHANGHAI,
    match_topics,
    normalise_url,
    parse_arxiv_ids,
    parse_numbers,
)


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        pytest.param("arXiv:2505.02922", ["2505.02922"], id="prefix"),
        pytest.param("arXiv: 2505.02922v3", ["2505.02922"], id="space-version"),
        pytest.param("arxiv：2409.10516", ["2409.10516"], id="fullwidth-colon"),
        pytest.param("https://arxiv.org/abs/2505.02922v2", ["2505.02922"], id="abs"),
        pytest.param("arxiv.org/pdf/2505.02922v1.pdf", ["2505.02922"], id="pdf"),
        pytest.param("https://arxiv.org/html/2605.29639", ["2605.29639"], id="html"),
        pytest.param("https://huggingface.co/papers/2503.01840", ["2503.01840"], id="hf"),
        pytest.param("arXiv:2505.02922 and arXiv:2505.02922v2", ["2505.02922"], id="dedup"),
        pytest.param("version 2505.02922 alone", [], id="bare-number"),
        pytest.param("arXiv:2513.00001", [], id="bad-month"),
    ],
)
def test_parse_arxiv_ids_reads_every_form(text: str, ids: list[str]) -> None:
    assert parse_arxiv_ids(text) == ids


def test_parse_numbers_keeps_units_and_ranges() -> None:
    text = "吞吐 3.2×，延迟 -24.1%，加载 4.7-6.3×，128K 上下文，H100 上 800 GB/s"
    assert parse_numbers(text) == ["3.2×", "-24.1%", "4.7-6.3×", "128K", "800 GB/s"]


def test_normalise_url_survives_malformed_urls() -> None:
    assert normalise_url("https://：") == "https://："
    assert normalise_url("http://[::1") == "http://[::1"


def test_normalise_url_drops_www_slash_and_fragment() -> None:
    assert normalise_url("https://www.GitHub.com/Microsoft/RetrievalAttention/#readme") == (
        "github.com/microsoft/retrievalattention"
    )


@pytest.mark.parametrize(
    ("name", "meta", "expected", "date_only"),
    [
        pytest.param("2026-09-03_0840_radar.md", {}, (2026, 9, 3, 8, 40), False, id="underscore"),
        pytest.param("20260903-1735-briefing.md", {}, (2026, 9, 3, 17, 35), False, id="compact"),
        pytest.param("2026-09-03T0820-jay.md", {}, (2026, 9, 3, 8, 20), False, id="T"),
        pytest.param("2026-09-03-1550-SSR.md", {}, (2026, 9, 3, 15, 50), False, id="dashes"),
        pytest.param("2026-09-03-llm-infra.md", {}, (2026, 9, 3, 0, 0), True, id="date-only"),
        pytest.param(
            "x.md",
            {"date": "2026-09-03", "time": 880},
            (2026, 9, 3, 14, 40),
            False,
            id="yaml-sexagesimal-time",
        ),  # fmt: skip
        pytest.param("x.md", {"date": "2026-09-03 08:40"}, (2026, 9, 3, 8, 40), False, id="fm"),
        pytest.param(
            "2026-01-01_0000_x.md",
            {"date": "2026-09-03T21:10"},
            (2026, 9, 3, 21, 10),
            False,
            id="front-matter-wins",
        ),  # fmt: skip
    ],
)
def test_parse_timestamp(
    name: str, meta: dict[str, object], expected: tuple[int, ...], date_only: bool
) -> None:
    stamp, only_date = parse_timestamp(name, meta)
    assert stamp == datetime(*expected, tzinfo=SHANGHAI)
    assert only_date is date_only


@pytest.mark.parametrize("name", ["misc-notes.md", "2026-13-40_radar.md", "notes-v2.md"])
def test_parse_timestamp_none(name: str) -> None:
    assert parse_timestamp(name, {}) == (None, False)


def test_parse_timestamp_keeps_an_explicit_offset() -> None:
    stamp, _ = parse_timestamp("x.md", {"date": "2026-09-03T14:20:00+00:00"})
    assert stamp is not None and stamp.astimezone(SHANGHAI).hour == 22


NOTE = """---
title: 傍晚简报
---
# 傍晚简报

## 推理
- **RetroInfer**（VLDB 2026）：KV cache 当向量存储，arXiv:2505.02922，最高 4.5× 加速
  代码 https://github.com/microsoft/RetrievalAttention
- **MInference** https://arxiv.org/abs/2407.02490v2 ：1M 上下文 prefill 延迟最高降 10×
- 今天没有别的

## Mooncake — KVCache-centric P/D 分离
- arXiv: 2407.00079
- 要点：吞吐最高 +525%
- 代码 https://github.com/kvcache-ai/Mooncake
- [卡片](../../paper_cards/0099-x.md) [坏链接](https//example.org) https://arxiv

## 空节
"""


def test_parse_note_splits_entries_and_keeps_fields_together() -> None:
    note, problems = parse_note(NOTE, path="inbox/jay/20260903-1735-x.md", analyst="jay")
    assert note.title == "傍晚简报"
    assert [item.name for item in note.items] == ["RetroInfer", "MInference", "Mooncake"]
    retro, minference, mooncake = note.items
    assert retro.arxiv_ids == ["2505.02922"]
    assert retro.urls == ["https://github.com/microsoft/RetrievalAttention"]
    assert retro.numbers == ["4.5×"]
    assert minference.title == "MInference：1M 上下文 prefill 延迟最高降 10×"
    assert mooncake.arxiv_ids == ["2407.00079"] and "+525%" in mooncake.numbers
    assert (retro.line, mooncake.line) == (7, 12)
    assert "inference" in retro.topics
    assert note.links == ["../../paper_cards/0099-x.md"]
    assert sorted(p.kind for p in problems) == ["malformed-url", "malformed-url"]


def test_parse_note_without_timestamp_is_a_problem() -> None:
    note, problems = parse_note("- vLLM 吞吐 1.7×\n", path="inbox/a/misc.md", analyst="a")
    assert note.timestamp is None
    assert [p.kind for p in problems] == ["no-timestamp"]
    assert len(note.items) == 1


def test_parse_note_with_bad_front_matter_reads_the_text() -> None:
    text = "---\ntitle: [unclosed\n---\n## RetroInfer\n- arXiv:2505.02922\n"
    note, problems = parse_note(text, path="inbox/a/2026-09-03_0800_x.md", analyst="a")
    assert "bad-front-matter" in [p.kind for p in problems]
    assert note.items and note.items[0].arxiv_ids == ["2505.02922"]


def test_match_topics_ignores_negated_terms() -> None:
    assert "inference" not in match_topics("归类：rsi 主轴；与 inference 无关")
    assert "inference" not in match_topics("agent 记忆（非 inference 主轴）")
    assert match_topics("KV cache 卸载到 CPU")["inference"] == ["kv cache", "卸载"]
    assert "rsi" in match_topics("AlphaEvolve evolutionary search")


def test_parse_card_reads_number_ids_and_category() -> None:
    card, problems = parse_card(
        "# Mooncake\n\narXiv: 2407.00079\ncategory: cs.DC\ndate: 2026-09-03 11:05\n",
        path="paper_cards/0042-mooncake.md",
    )
    assert (card.number, card.arxiv_ids, card.category) == (42, ["2407.00079"], "cs.DC")
    assert card.timestamp == datetime(2026, 9, 3, 11, 5, tzinfo=SHANGHAI)
    assert card.item is not None and card.item.arxiv_ids == ["2407.00079"]
    assert problems == []


def test_parse_card_takes_the_id_from_the_file_name() -> None:
    card, problems = parse_card(
        "---\ncategory: cs.LG\n---\n", path="paper_cards/1197-2609-01925.md"
    )
    assert card.arxiv_ids == ["2609.01925"] and card.number == 1197
    assert problems == []


def test_parse_card_problems() -> None:
    _, problems = parse_card("no id here", path="paper_cards/notes.md")
    assert sorted(p.kind for p in problems) == ["card-without-arxiv", "card-without-number"]


def test_parse_knowledge_sections_and_anchors() -> None:
    doc = parse_knowledge(
        "# inference\n\n## §1.(3) KV Cache\n- RetrievalAttention arXiv:2409.10516\n\n## §2 调度\n",
        path="knowledge/inference.md",
        topic="inference",
    )
    assert [(s.id, s.heading) for s in doc.sections] == [("§1.(3)", "KV Cache"), ("§2", "调度")]
    assert doc.sections[0].arxiv_ids == ["2409.10516"] and doc.arxiv_ids == ["2409.10516"]


_PIECES = st.sampled_from(
    [*"#-*[]()<>:：，。`_ \n\tabcXYZ0123456789.v/推理缓存§", "arXiv:", "https://", "---\n", "**"]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=120).map("".join))
def test_parse_note_never_crashes(text: str) -> None:
    note, problems = parse_note(text, path="inbox/a/2026-09-03_0800_x.md", analyst="a")
    found = set(parse_arxiv_ids(text))
    for item in note.items:
        assert set(item.arxiv_ids) <= found
    assert all(p.path == "inbox/a/2026-09-03_0800_x.md" for p in problems)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_parse_note_never_crashes_on_any_unicode(text: str) -> None:
    parse_note(text, path="inbox/a/x.md", analyst="a")
    parse_card(text, path="paper_cards/0001-x.md")
    parse_knowledge(text, path="knowledge/inference.md", topic="inference")


def _write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


def test_load_inbox_records_every_bad_input(tmp_path: Path) -> None:
    _write(tmp_path / "inbox/jay/2026-09-03_0800_a.md", "- see [card](../../paper_cards/0099.md)\n")
    _write(tmp_path / "inbox/jay/2026-09-03_0900_b.md", "- [ok](2026-09-03_0800_a.md) vLLM\n")
    _write(tmp_path / "inbox/jay/latin1.md", "caf\xe9 vLLM".encode("latin-1"))
    _write(tmp_path / "inbox/jay/image.png", b"\x89PNG")
    _write(tmp_path / "inbox/loose-2026-09-03.md", "- vLLM\n")
    _write(tmp_path / "paper_cards/0001-2505-02922.md", "arXiv: 2505.02922\n")
    _write(tmp_path / "paper_cards/0001-other.md", "arXiv: 2409.10516\n")
    _write(tmp_path / "paper_cards/0002-again.md", "arXiv: 2505.02922\n")
    inbox = load_inbox(tmp_path)
    kinds = sorted((p.kind, p.path) for p in inbox.problems)
    assert kinds == [
        ("broken-link", "inbox/jay/2026-09-03_0800_a.md"),
        ("duplicate-card-arxiv", "paper_cards/0002-again.md"),
        ("duplicate-card-number", "paper_cards/0001-other.md"),
        ("missing-path", "knowledge"),
        ("missing-path", "work-queue.md"),
        ("no-analyst", "inbox/loose-2026-09-03.md"),
        ("not-utf8", "inbox/jay/latin1.md"),
        ("skipped-file", "inbox/jay/image.png"),
    ]
    assert [n.path for n in inbox.notes] == [
        "inbox/jay/2026-09-03_0800_a.md",
        "inbox/jay/2026-09-03_0900_b.md",
        "inbox/loose-2026-09-03.md",
    ]
    assert len(inbox.cards) == 3


def test_load_inbox_paths_can_be_overridden(tmp_path: Path) -> None:
    _write(tmp_path / "elsewhere/notes/tom/2026-09-03_0800_a.md", "- RetroInfer arXiv:2505.02922\n")
    _write(tmp_path / "elsewhere/living.md", "## §1 KV\n- arXiv:2505.02922\n")
    _write(tmp_path / "root/work-queue.md", "- nothing\n")
    inbox = load_inbox(
        tmp_path / "root",
        inbox=tmp_path / "elsewhere/notes",
        knowledge=tmp_path / "elsewhere/living.md",
    )
    assert [n.analyst for n in inbox.notes] == ["tom"]
    assert list(inbox.knowledge) == ["living"]
    assert inbox.queue is not None


def test_load_inbox_missing_root_names_it_and_suggests_sample(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="--sample") as info:
        load_inbox(tmp_path / "absent")
    assert "absent" in str(info.value)


def test_load_inbox_empty_root_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="holds none of"):
        load_inbox(tmp_path)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("\u212av cache offload, ſerving at scale", id="kelvin-long-s"),
        pytest.param("İNFERENCE and ınference; KV 缓存 推理", id="dotted-i"),
        pytest.param("Self-Improving agents; kv-cache; 自我改进", id="plain"),
        pytest.param("no topic here at all", id="none"),
    ],
)
def test_match_topics_finds_what_every_pattern_would(text: str) -> None:
    """The needle test before each term's pattern changes nothing: the terms found are
    those whose pattern matches, case-folded letters (Kelvin sign, long s) included."""
    expected = {
        topic: hits
        for topic, terms in notes.TOPIC_TERMS.items()
        if (hits := [t for t in terms if notes._term_pattern(t).search(text)])
    }
    assert match_topics(text) == expected
    assert "inference" in match_topics("\u212aV cache")


def test_load_inbox_reads_notes_part_by_part_and_shows_links_at_their_target(
    tmp_path: Path,
) -> None:
    # the files in the order of sorted(rglob): part by part, so `a/b/...` comes before
    # `a-b/...` (as whole strings it would not); hidden files and folders left out, a
    # symlinked folder not entered, a symlinked note shown at the file it names (refs #19)
    root = tmp_path / "root"
    for name in ["a/b/2026-09-03_0800_c.md", "a/2026-09-03_0800_z.md", "a-b/2026-09-03_0800_c.md",
                 "A/2026-09-03_0800_q.md", ".hidden/2026-09-03_0800_x.md", "a/.h.md",
                 "a/b/.git/deep/2026-09-03_0800_k.md"]:  # fmt: skip
        path = root / "inbox" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("- RetroInfer arXiv:2505.02922 4.5× 加速\n", encoding="utf-8")
    (root / "inbox" / "link").symlink_to(root / "inbox" / "a", target_is_directory=True)
    (root / "inbox" / "b").mkdir()
    (root / "inbox" / "b" / "2026-09-03_0900_l.md").symlink_to(
        root / "inbox" / "A" / "2026-09-03_0800_q.md"
    )
    (root / "inbox" / "b" / "notes.txt").write_text("x", encoding="utf-8")
    inbox = load_inbox(root)
    assert [note.path for note in inbox.notes] == [
        "inbox/A/2026-09-03_0800_q.md",
        "inbox/a/2026-09-03_0800_z.md",
        "inbox/a/b/2026-09-03_0800_c.md",
        "inbox/a-b/2026-09-03_0800_c.md",
        "inbox/A/2026-09-03_0800_q.md",
    ]
    assert [p.path for p in inbox.problems if p.kind == "skipped-file"] == ["inbox/b/notes.txt"]


def test_load_inbox_of_many_notes_keeps_file_order_and_every_problem(tmp_path: Path) -> None:
    """From FORK_MIN notes a forked process reads the second half: the notes and their
    problems come back in file order, each note as parse_note reads its file."""
    from research_radar.cores import FORK_MIN

    count = FORK_MIN + 50
    for n in range(count):
        body = f"## Note {n}\n\n- vLLM {n}.5× arXiv:2505.{10000 + n}\n"
        if n % 97 == 0:
            body += f"- see [card](../../paper_cards/{n:04d}.md)\n"
        _write(tmp_path / f"inbox/a{n % 3}/2026-09-03_{n:06d}_n.md", body)
    _write(tmp_path / "inbox/a2/2026-09-03_000999_latin1.md", "caf\xe9 vLLM".encode("latin-1"))
    inbox = load_inbox(tmp_path / "inbox", inbox=tmp_path / "inbox")
    files = sorted((tmp_path / "inbox").rglob("*.md"))
    readable = [f for f in files if "latin1" not in f.name]
    shown = [f.relative_to(tmp_path / "inbox").as_posix() for f in readable]
    assert [n.path for n in inbox.notes] == shown
    assert len(shown) == count
    for note, path, name in zip(inbox.notes, readable, shown, strict=True):
        expected, _ = parse_note(
            path.read_text(encoding="utf-8"), path=name, analyst=path.parent.name
        )
        assert note == expected
    broken = [p.path for p in inbox.problems if p.kind == "broken-link"]
    assert broken == [name for name in shown if int(name.split("_")[1]) % 97 == 0]
    assert [p.path for p in inbox.problems if p.kind == "not-utf8"] == [
        "a2/2026-09-03_000999_latin1.md"
    ]
