"""How credible an entry is: venue, institution, code, production use, hedges. Pure."""

from __future__ import annotations

import re
from typing import Literal

from research_radar.sources.notes import normalise_url

__all__ = ["HEDGE", "rate_credibility"]

_VENUE = re.compile(
    r"(?<![A-Za-z])(OSDI|SOSP|MLSys|NeurIPS|ICML|ICLR|ACL|EMNLP|NAACL|ISCA|ASPLOS|EuroSys|NSDI"
    r"|VLDB|SIGMOD|MICRO|HPCA|PPoPP|USENIX ATC|SIGCOMM|KDD|CVPR|ICCV|ECCV|AAAI|FAST(?=\s*'?\d))"
    r"(?:\s*['’]?\s*((?:20)?\d{2})(?!\d))?"
)
_SUBMITTED = re.compile(r"under review|submitted to|submission|投稿|在审|审稿中", re.IGNORECASE)
_INSTITUTION = re.compile(
    r"(?<![A-Za-z])(Microsoft|Google|DeepMind|Meta|NVIDIA|Alibaba|ByteDance|Tencent|Huawei|Baidu"
    r"|Moonshot|Anthropic|OpenAI|Red Hat|AMD|Intel|Apple|Amazon|AWS|IBM|Databricks"
    r"|Tsinghua|Peking University|USTC|SJTU|MIT|Stanford|Berkeley|UC Berkeley|CMU|Princeton"
    r"|University of Washington|Yandex)(?![A-Za-z])|(微软|谷歌|阿里|字节|腾讯|华为|百度|月之暗面"
    r"|清华|北大|中科大|上海交大|交大|浙大)"
)
_AFFILIATION = re.compile(
    r"机构|作者|团队|author|affiliat|Research|DeepMind|大学|University|研究院|实验室|\bLabs?\b|\bAI\b"
)
"""An institution counts only on a line that names authors or affiliations."""
_CODE = re.compile(r"代码已公开|代码已开源|\bcode (?:is )?(?:available|released|public)", re.I)
_NO_CODE = re.compile(
    r"无代码|未开源|代码未公开|没有代码|无 ?GitHub|no (?:public )?(?:code|repo)", re.I
)
_PRODUCTION = re.compile(
    r"production|生产|线上|deployed|真实负载|real[- ]world workload|\d\s*[万亿]\s*(?:月活)?用户",
    re.I,
)
_SINGLE = re.compile(r"single[- ]author|sole author|单作者|单作", re.IGNORECASE)
_MISSING = re.compile(
    r"未报告|未单独报告|not reported|missing (?:metric|baseline|ablation)|指标缺失|无消融"
    r"|no ablation",
    re.IGNORECASE,
)


HEDGE = re.compile(
    r"据称|据说|传闻|听说|疑似|或将|可能已|待核实|待确认|未证实|未经证实|未见原文|二手转述|转述称"
    r"|reportedly|rumou?r|allegedly|unconfirmed|to be (?:verified|confirmed)",
    re.IGNORECASE,
)
"""A statement made as hearsay: reported, not established (refs #17)."""


def _venue_name(match: re.Match[str]) -> str:
    year = match.group(2) or ""
    return f"{match.group(1)} {('20' + year) if len(year) == 2 else year}".strip()


def _venues(text: str) -> tuple[str, str]:
    """(venue stated as fact, venue only claimed with a hedge) over the lines of `text`."""
    firm = hedged = ""
    if not _VENUE.search(text):
        return firm, hedged  # a venue on a line is a venue in the text: none, none (#19)
    for line in text.splitlines():
        for match in _VENUE.finditer(line):
            if HEDGE.search(line):
                hedged = hedged or _venue_name(match)
            else:
                firm = firm or _venue_name(match)
    return firm, hedged


def rate_credibility(
    text: str, urls: list[str]
) -> tuple[Literal["极高", "高", "中-低"], list[str], str]:
    """Rating, reasons and venue from the signals in an entry's text (rules: the `digest` doc)."""
    firm, hedged = _venues(text)
    submitted = _SUBMITTED.search(text) is not None
    # the peer-reviewed venue: stated as fact, never hedged, not merely submitted
    venue = firm if firm and not hedged and not submitted else ""
    keys = (normalise_url(u) for u in urls)
    code = next((k for k in keys if k.count("/") >= 2 and k.startswith("github.com/")), "")
    institutions = list(
        dict.fromkeys(
            match.group(0)
            for line in (text.splitlines() if _INSTITUTION.search(text) else [])  # as above
            if _AFFILIATION.search(line)
            for match in _INSTITUTION.finditer(line)
        )
    )
    signals: list[tuple[int, str]] = []
    if venue:
        signals.append((2, f"同行评审：{venue}"))
    elif hedged and firm:
        signals.append((0, f"会议录用说法不一（{hedged}），待核实，不计同行评审"))
    elif hedged:
        signals.append((0, f"会议录用仅为传闻（据称 {hedged}），待核实，不计同行评审"))
    elif submitted:
        signals.append((0, "投稿中，未经同行评审"))
    else:
        signals.append((0, "预印本或非论文来源，未见同行评审"))
    if institutions:
        signals.append((1, "机构：" + " / ".join(institutions[:3])))
    if code or _CODE.search(text):
        signals.append((1, f"代码公开：{code}" if code else "代码公开"))
    elif _NO_CODE.search(text):
        signals.append((-1, "无公开代码"))
    if _PRODUCTION.search(text):
        signals.append((1, "生产数据或生产负载"))
    if _SINGLE.search(text):
        signals.append((-2, "单作者"))
    if _MISSING.search(text):
        signals.append((-1, "关键指标缺失"))
    score = sum(weight for weight, _ in signals)
    rating: Literal["极高", "高", "中-低"] = (
        "极高" if score >= 4 else "高" if score >= 1 else "中-低"
    )
    return rating, [reason for _, reason in signals], venue
