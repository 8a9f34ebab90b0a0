"""Render a Digest as the E1 digest's Markdown (CONVENTIONS.md §11), or as JSON data. Pure.

The template (`digest.md.j2`, beside this module) gets one typed context, `DigestContext`,
whose lines are already worded here, so the template stays a layout.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from research_radar.digest.contradictions import state_words
from research_radar.digest.entries import Entry
from research_radar.digest.shapes import Digest, SourceCount
from research_radar.report.templates import environment
from research_radar.sources.notes import SHANGHAI

__all__ = [
    "DigestContext",
    "build_digest_context",
    "render_digest_json",
    "render_digest_markdown",
]

_KEY_POINTS_SHOWN = 6
_KIND_LABEL = {"number": "数字不一致", "status": "状态不一致"}


@dataclass(frozen=True)
class SourceGroup:
    number: str
    title: str
    lines: list[str]


@dataclass(frozen=True)
class IncrementView:
    heading: str
    fields: list[tuple[str, str]]
    key_points: list[str]
    relation: str
    section: str
    status: str


@dataclass(frozen=True)
class Row:
    cells: list[str]


@dataclass(frozen=True)
class ContradictionView:
    heading: str
    lines: list[str]


@dataclass(frozen=True)
class DigestContext:
    """Everything `digest.md.j2` shows, already worded."""

    title: str
    header: str
    status: list[str]
    sources: list[SourceGroup]
    increments: list[IncrementView]
    adjacent: list[Row]
    contradictions: list[ContradictionView]
    to_verify: list[str]
    citations: list[str]
    carried: list[str]
    summary_intro: str
    summary: list[Row]
    features: list[str]
    included: list[str]
    not_included: list[str]
    outside: str
    problems: list[str] = field(default_factory=list)
    signoff: str = ""
    comparison: list[str] = field(default_factory=list)
    """Against the previous digest: moved to confirmed, still open, newly open."""


def _cst(moment: datetime | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    return moment.astimezone(SHANGHAI).strftime(fmt) if moment else "无时间戳"


def _cell(text: str) -> str:
    """Safe inside a Markdown table cell: one line, pipes escaped."""
    return re.sub(r"\s+", " ", text).replace("|", "\\|").strip()


def _label(index: int) -> str:
    letters = string.ascii_uppercase
    return letters[index] if index < len(letters) else f"Z{index - len(letters) + 1}"


def _stars(count: int) -> str:
    return "⭐" * count


def _name(entry: Entry) -> str:
    return entry.name or entry.title


def _status(entry: Entry, doc: str) -> str:
    cards = (
        "；paper_card " + "/".join(f"{n:04d}" for n in entry.cards) + " 已入库"
        if entry.cards
        else ""
    )
    if entry.status == "anchored":
        where = f" 见 {entry.relation[0].id}" if entry.relation else ""
        return f"已锚入（{entry.anchored_by}{where}）{cards}"
    return f"NET-new（尚未锚入 {doc}）{cards}"


def _source_line(row: SourceCount, topic: str) -> str:
    name = row.path.rsplit("/", 1)[-1]
    when = (
        _cst(row.timestamp, "%m-%d") + "（仅日期）"
        if row.date_only
        else _cst(row.timestamp, "%m-%d %H:%M")
    )
    detail = f" · {row.detail}" if row.detail else ""
    titles = "：" + "；".join(row.titles) if row.titles else ""
    return f"{name}（{when}{detail}）— {topic} {row.items} 件{titles}"


def _source_groups(digest: Digest) -> list[SourceGroup]:
    groups: list[SourceGroup] = []
    topic = digest.topic
    for row in digest.sources:
        if row.kind == "queue":
            lines = [
                f"{topic} 相关 {row.items} 条"
                + ("：" + "；".join(row.titles) if row.titles else "")
            ]
            groups.append(SourceGroup(number="", title=row.path, lines=lines))
    analysts = list(dict.fromkeys(r.analyst for r in digest.sources if r.kind == "note"))
    for analyst in analysts:
        rows = [r for r in digest.sources if r.kind == "note" and r.analyst == analyst]
        title = f"inbox/{analyst}（{len(rows)} 篇 · {topic} {sum(r.items for r in rows)} 件）"
        groups.append(SourceGroup("", title, [_source_line(r, topic) for r in rows]))
    cards = [r for r in digest.sources if r.kind == "card"]
    if cards:
        title = f"paper_cards 窗口内新卡（{len(cards)} 张）"
        groups.append(SourceGroup("", title, [_source_line(r, topic) for r in cards]))
    groups.append(SourceGroup("", *_living_doc_lines(digest)))
    return [SourceGroup(f"1.{i}", g.title, g.lines) for i, g in enumerate(groups, start=1)]


def _living_doc_lines(digest: Digest) -> tuple[str, list[str]]:
    doc = digest.living_doc
    if doc is None:
        return f"knowledge/{digest.topic}.md", ["未找到活文档：本棒所有条目按 NET-new 处理"]
    carried = "、".join(_name(e) for e in digest.carried) or "无"
    lines = [
        f"{doc.sections} 节 · {doc.arxiv_ids} 条 arXiv 已锚入",
        f"本棒提及且已锚入：{carried}",
    ]
    return doc.path, lines


def _increment(index: int, entry: Entry, doc: str) -> IncrementView:
    section = (
        f"{entry.relation[0].id} {entry.relation[0].heading}" if entry.relation else "未匹配节"
    )
    marker = "🟢" if entry.credibility in {"极高", "高"} else "🟡"
    tags = " · ".join(filter(None, [entry.venue, *(f"arXiv:{i}" for i in entry.arxiv_ids)]))
    day = _cst(entry.first_seen, "%Y-%m-%d")
    heading = f"增量 {index}【{section} · {day}】{marker} {entry.title}（{tags}）"
    fields = [
        ("来源", "；".join(entry.sources) + f"（{len(entry.sources)} 处）"),
        ("来源链接", "；".join(entry.urls) or "无"),
    ]
    if entry.venue:
        fields.append(("会议", entry.venue))
    fields.append(("可信度", f"{entry.credibility}（{'；'.join(entry.reasons)}）"))
    points = [
        f"{p.text}"
        + (f"〔条件：{'、'.join(p.conditions)}〕" if p.conditions else "")
        + f"〔{p.source}〕"
        for p in entry.key_points[:_KEY_POINTS_SHOWN]
    ]
    hidden = len(entry.key_points) - _KEY_POINTS_SHOWN
    if hidden > 0:
        points.append(f"另有 {hidden} 条带数字的要点，见 --json 输出")
    return IncrementView(
        heading=heading,
        fields=fields,
        key_points=points or ["来源未给出带单位的数字"],
        relation=_relation_text(entry),
        section=entry.suggested_section or "未匹配到现有节，建议新开节",
        status=_status(entry, doc),
    )


def _relation_text(entry: Entry) -> str:
    if not entry.relation:
        return "与活文档各节都没有足够的共同词"
    return "；".join(f"{r.id} {r.heading}（共同词：{'、'.join(r.shared)}）" for r in entry.relation)


def _adjacent_row(index: int, entry: Entry, doc: str) -> Row:
    numbers = "、".join(dict.fromkeys(n for p in entry.key_points[:3] for n in p.numbers[:2]))
    title = entry.title + (f"（{numbers}）" if numbers else "")
    sources = "；".join(entry.sources)
    state = f"{_status(entry, doc)} · 可信度 {entry.credibility}"
    return Row([_label(index), _cell(title), "无", _cell(sources), _cell(state)])


_ABOUT_LABEL = {
    "venue": "会议录用",
    "merge": "合并状态",
    "release": "发布状态",
    "deal": "签约状态",
    "announcement": "官宣/否认",
}


def _contradiction_views(digest: Digest) -> list[ContradictionView]:
    """Each contradiction with both (all) sources, what each says, and what to verify."""
    views = []
    for item in digest.contradictions:
        about = _ABOUT_LABEL.get(item.about, item.about)
        heading = f"**{item.entity}** — {_KIND_LABEL[item.kind]}（{about}）"
        lines = [
            f"{s.source}：「{s.text}」" + (f" → {state_words(s.state)}" if s.state else "")
            for s in item.statements
        ]
        if item.verify:
            lines.append(f"待核实：{item.verify}")
        views.append(ContradictionView(heading, lines))
    return views


def _to_verify(digest: Digest) -> list[str]:
    return [
        f"{_name(e)}：可信度中-低（{'；'.join(e.reasons)}）"
        for e in [*digest.increments, *digest.adjacent]
        if e.credibility == "中-低"
    ]


def _summary_rows(digest: Digest, doc: str) -> list[Row]:
    rows = []
    for index, entry in enumerate(digest.increments, start=1):
        state = f"{entry.status}；可信度 {entry.credibility}"
        rows.append(
            Row(
                [
                    str(index),
                    _cell(entry.title),
                    _cell(entry.suggested_section or "—"),
                    _stars(entry.stars),
                    _cell(state),
                ]
            )
        )
    for index, entry in enumerate(digest.adjacent):
        state = f"邻接预备；{entry.status}；可信度 {entry.credibility}"
        rows.append(
            Row(
                [
                    _label(index),
                    _cell(entry.title),
                    _cell(entry.suggested_section or "—"),
                    _stars(entry.stars),
                    _cell(state),
                ]
            )
        )
    return rows


def _counts(digest: Digest) -> tuple[int, int, int]:
    new = sum(e.status == "net-new" for e in digest.increments)
    return new, len(digest.increments) - new, len(digest.adjacent)


def _status_lines(digest: Digest) -> list[str]:
    new, anchored, adjacent = _counts(digest)
    top = " + ".join(_name(e) for e in digest.increments[:3]) or "无主增量"
    crossed = sum(len(e.sources) >= 2 for e in [*digest.increments, *digest.adjacent])
    nature = f"{top} 驱动；{crossed} 条多源交叉；{len(digest.contradictions)} 处矛盾待核实"
    ids = " + ".join(f"arXiv:{c.arxiv_id} {_short(c.title)}" for c in digest.net_new_arxiv)
    return [
        f"增量条数：{len(digest.increments)} 条主增量（{new} 条 NET-new + {anchored} 条已锚入）"
        f"+ {adjacent} 条邻接预备",
        f"本棒性质：{nature}；输入问题 {len(digest.problems)} 个",
        f"涉及 arXiv 号：净增 {len(digest.net_new_arxiv)} 件" + (f"（{ids}）" if ids else ""),
    ]


def _short(title: str) -> str:
    return re.split(r"[:：—（(]", title, maxsplit=1)[0].strip()


def _signoff(digest: Digest) -> str:
    notes = sum(r.kind == "note" for r in digest.sources)
    cards = sum(r.kind == "card" for r in digest.sources)
    queue = sum(r.kind == "queue" for r in digest.sources)
    new, anchored, adjacent = _counts(digest)
    arxiv = sum(len(e.arxiv_ids) for e in digest.increments)
    return (
        f"Research Radar · {_cst(digest.window.end)} CST · 本棒检查 {len(digest.sources)} 个来源"
        f"（笔记 {notes} + paper_cards {cards} + work-queue {queue}）+ 活文档 "
        f"{1 if digest.living_doc else 0} · {digest.topic} 主题 NET-new {new} 条 + 已锚入 "
        f"{anchored} 条 + 邻接预备 {adjacent} 条 · 涉及 arXiv 号 {arxiv} 件"
        f"（净增 {len(digest.net_new_arxiv)}） · 输入问题 {len(digest.problems)} 个"
    )


def build_digest_context(digest: Digest) -> DigestContext:
    """Word every line of the digest; the template only lays them out."""
    doc = digest.living_doc.path if digest.living_doc else f"knowledge/{digest.topic}.md"
    window = digest.window
    hours = round((window.end - window.start).total_seconds() / 3600)
    baseline = (
        f"{doc}（{digest.living_doc.sections} 节 · {digest.living_doc.arxiv_ids} 条 arXiv 已锚入）"
        if digest.living_doc
        else f"{doc}（未找到）"
    )
    header = (
        f"实例：Research Radar · {digest.topic} 主题 E1 预消化轮 · 生成时间：{_cst(window.end)} CST"
        f"（Asia/Shanghai） · 窗口期：{_cst(window.start)} → {_cst(window.end)}（约 {hours}h）"
        f" · 基线活文档：{baseline}"
    )
    topic = digest.topic
    return DigestContext(
        title=f"{topic} · E1 预消化简报（{_cst(window.end, '%Y-%m-%d')}）",
        header=header,
        status=_status_lines(digest),
        sources=_source_groups(digest),
        increments=[_increment(i, e, doc) for i, e in enumerate(digest.increments, start=1)],
        adjacent=[_adjacent_row(i, e, doc) for i, e in enumerate(digest.adjacent)],
        contradictions=_contradiction_views(digest),
        to_verify=_to_verify(digest),
        citations=[
            f"arXiv:{c.arxiv_id} — {c.title}（{' · '.join(c.facts)}）" for c in digest.net_new_arxiv
        ],
        carried=[
            f"{e.title}（{', '.join('arXiv:' + i for i in e.arxiv_ids) or '无 arXiv'} · "
            f"{_status(e, doc)}）"
            for e in digest.carried
        ],
        summary_intro=(
            f"{topic} 主题 {_cst(window.start)} → {_cst(window.end)} 净增量 = "
            + _status_lines(digest)[0].removeprefix("增量条数：")
        ),
        summary=_summary_rows(digest, doc),
        features=_features(digest),
        included=[_included_line(r, topic) for r in digest.sources if r.items],
        not_included=[_included_line(r, topic) for r in digest.not_included],
        outside=f"窗口外（未检查）：{digest.outside_window} 篇笔记或卡片的时间戳不在窗口内",
        problems=[f"⚠️ {p.path} — {p.kind}：{p.message}" for p in digest.problems],
        signoff=_signoff(digest),
        comparison=_comparison_lines(digest),
    )


def _comparison_lines(digest: Digest) -> list[str]:
    item = digest.comparison
    if item is None:
        return ["未提供前一棒简报，本棒不做对比"]
    lines = [
        f"前一棒（截至 {_cst(item.previous_end)}）：{item.increments} 条主增量 + "
        f"{item.adjacent} 条邻接预备；本棒：{len(digest.increments)} 条主增量 + "
        f"{len(digest.adjacent)} 条邻接预备"
    ]
    lines += [f"已确认：{line}" for line in item.confirmed]
    lines += [f"仍待核实：{line}" for line in item.still_open]
    lines += [f"新增待核实：{line}" for line in item.new_open]
    if len(lines) == 1:
        lines.append("前一棒与本棒都没有待核实条目")
    return lines


def _features(digest: Digest) -> list[str]:
    crossed = [e for e in [*digest.increments, *digest.adjacent] if len(e.sources) >= 2]
    features = [f"多源交叉：{_name(e)}（{len(e.sources)} 处）" for e in crossed]
    features += [
        f"矛盾待核实：{c.entity}（{_ABOUT_LABEL.get(c.about, c.about)}）"
        for c in digest.contradictions
    ]
    return features or ["无多源交叉，无矛盾"]


def _included_line(row: SourceCount, topic: str) -> str:
    mark = "✅ " if row.items else ""
    return f"{mark}{row.path}（{topic} {row.items} 件）"


def render_digest_markdown(digest: Digest) -> str:
    """The digest as Markdown in the house structure (状态, 一 … 七, sign-off)."""
    context = build_digest_context(digest)
    return environment().get_template("digest.md.j2").render(c=context)


def render_digest_json(digest: Digest) -> dict[str, Any]:
    """The digest as JSON-ready data: window, sources, increments, adjacent, contradictions,
    problems (and more keys)."""
    return digest.model_dump(mode="json")
