"""Group a review's findings the way the team's reviewers write them (refs #17).

One finding per rule and report, naming every entry it concerns with the exact cell,
ordered by severity and then by how many entries it touches; worded in the report's
language from `report/review_strings.toml`. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from research_radar.review.findings import ReviewFinding, ReviewGroup, Severity
from research_radar.review.wording import count_phrase, join_words, review_strings

__all__ = ["group_findings", "report_label"]

_RANK = {Severity.BLOCKING: 0, Severity.WARNING: 1, Severity.INFO: 2}
_TRANSLATED = {"missing": "missing", "lacks": "missing", "what": "public"}
"""Detail keys whose values are codes, and the strings table that words them."""


def report_label(date: str, title: str, language: str) -> str:
    """How a finding names the report (the comment) it is in."""
    strings = review_strings(language)
    if date == "undated":
        return str(strings["undated"])
    title = re.sub(rf"^{re.escape(date)}\s*[｜|:：·-]?\s*", "", title.strip()) or title
    short = title if len(title) <= 40 else title[:39] + "…"
    return str(strings["report_label"].format(date=date, title=short))


def _key(item: ReviewFinding) -> tuple[int, str, str]:
    scope = "report" if item.rule == "dimension-missing" and item.entry is None else ""
    return item.report_line, item.rule, scope


def group_findings(
    findings: Sequence[ReviewFinding], language: str, titles: Mapping[int, str]
) -> list[ReviewGroup]:
    """Findings grouped by (report, rule), worded in `language`.

    Args:
        titles: the line a report starts at -> the report's title, for `Where`.
    """
    members: dict[tuple[int, str, str], list[int]] = {}
    for index, item in enumerate(findings):
        members.setdefault(_key(item), []).append(index)
    groups = [
        _group([findings[i] for i in indexes], indexes, language, titles)
        for indexes in members.values()
    ]
    groups.sort(key=lambda g: (_RANK[g.severity], -_touched(g, findings), g.members[0]))
    return [group.model_copy(update={"id": f"F{n}"}) for n, group in enumerate(groups, start=1)]


def _touched(group: ReviewGroup, findings: Sequence[ReviewFinding]) -> int:
    """How many entries a group concerns (a report-wide finding: all the report's rows)."""
    counts = [
        int(findings[i].detail.get("count", "0")) for i in group.members if not findings[i].entry
    ]
    return (
        max([len(group.entries), *counts])
        if group.rule == "dimension-missing"
        else len(group.entries)
    )


def _words(strings: Mapping[str, Any], item: ReviewFinding) -> dict[str, str]:
    """The item's detail with codes worded (missing conditions, public-only kinds)."""
    words = dict(item.detail)
    for key, table in _TRANSLATED.items():
        if key in words:
            codes = [code for code in words[key].split(",") if code]
            words[key] = "、".join(strings[table].get(code, code) for code in codes)
    return words


def _item_lines(items: list[ReviewFinding], language: str) -> list[str]:
    """One line per entry (its records merged) or per place (report-wide records)."""
    strings = review_strings(language)
    rule = strings["rules"][items[0].rule]
    lines: list[str] = []
    by_entry: dict[str, list[ReviewFinding]] = {}
    for item in items:
        if item.entry is None:
            lines.append(_format(rule, item, language, {}))
        else:
            by_entry.setdefault(item.entry, []).append(item)
    for entry, records in by_entry.items():
        dims = [strings["dimension"][r.dimension] for r in records if r.dimension]
        extra = {"dims": join_words(list(dict.fromkeys(dims)), language)} if dims else {}
        extra["entry"] = entry
        if records[0].rule == "claim-unverified":
            extra["count"] = str(sum(int(r.detail.get("count", "1")) for r in records))
        lines.append(_format(rule, records[0], language, extra))
    return list(dict.fromkeys(lines))


def _format(
    rule: Mapping[str, str], item: ReviewFinding, language: str, extra: dict[str, str]
) -> str:
    strings = review_strings(language)
    place = str(strings["line"].format(line=item.line))
    values = {"line": place, "place": item.entry or place, "entry": item.entry or place}
    values |= _words(strings, item) | extra
    variant = item.detail.get("variant")
    template = rule.get(f"item_{variant}", rule["item"]) if variant else rule["item"]
    return template.format(**values)


def _where(items: list[ReviewFinding], entries: list[str], label: str, language: str) -> str:
    strings = review_strings(language)
    parts = [label]
    columns = list(dict.fromkeys(item.column for item in items if item.column))
    if columns:
        parts.append(
            strings["entries_sep"].join(strings["column"].format(column=c) for c in columns)
        )
    if entries:
        parts.append(strings["entries_sep"].join(entries))
    else:
        lines = list(dict.fromkeys(item.line for item in items))
        parts.append(strings["line"].format(line=strings["entries_sep"].join(map(str, lines))))
    return str(strings["list_sep"].join(parts))


def _group(
    items: list[ReviewFinding], indexes: list[int], language: str, titles: Mapping[int, str]
) -> ReviewGroup:
    strings = review_strings(language)
    first = items[0]
    rule = strings["rules"][first.rule]
    report_wide = first.rule == "dimension-missing" and first.entry is None
    entries = list(dict.fromkeys(item.entry for item in items if item.entry))
    dims = list(dict.fromkeys(strings["dimension"][i.dimension] for i in items if i.dimension))
    details = _words(strings, first)
    values = {
        "n": count_phrase(len(entries), language),
        "dims": join_words(dims, language),
        "entry": entries[0] if entries else "",
        "earlier_first": details.get("earlier_first", ""),
        "fix_detail": first.detail.get("fix_detail", first.fix),
    }
    suffix = "_report" if report_wide else ""
    label = report_label(first.report, titles.get(first.report_line, ""), language)
    return ReviewGroup(
        id="",
        rule=first.rule,
        severity=min((item.severity for item in items), key=_RANK.__getitem__),
        report=first.report,
        title=rule.get(f"title{suffix}", rule["title"]).format(**values),
        entries=entries,
        where=_where(items, entries, label, language),
        problem=rule.get(f"problem{suffix}", rule["problem"]).format(**values),
        items=_item_lines(items, language),
        conditions=rule["conditions"].format(**values),
        impact=rule["impact"].format(**values),
        fix=rule.get(f"fix{suffix}", rule["fix"]).format(**values),
        members=indexes,
    )
