"""Read our own rendered report back into findings (pure).

The round trip `render_markdown` → `read_findings` keeps every field the table and the
evidence index show: name, canonical key, pinned version, the six dimensions, maturity
and flags, recommendation, novelty, relation and touch points, priority and horizon.
History import and the reviewer build on the same parser (`reportparse`).
"""

from __future__ import annotations

import re
from datetime import date

from research_radar.models import Finding, Novelty, Recommendation, Snapshot, Tag, TouchPoint
from research_radar.report.markdown import Labeller
from research_radar.report.parse import ParsedEntry, parse_report
from research_radar.report.wording import novelty_label, recommendation_label, strings
from research_radar.resolve.keys import github_key

__all__ = ["read_findings"]

_PIN = re.compile(r"`(?P<name>[^`@]+)@(?P<version>[^`]+)`")


class _Reverse:
    """Label -> value id, per dimension, for one language."""

    def __init__(self, taxonomy: Labeller, dimensions: dict[str, list[str]], lang: str):
        self.table = {
            dim: {taxonomy.label(dim, value, lang): value for value in values}
            for dim, values in dimensions.items()
        }

    def values(self, dim: str, text: str) -> list[str]:
        """Value ids whose labels occur in text, in order (longest label wins an overlap)."""
        found: list[tuple[int, str]] = []
        taken: list[tuple[int, int]] = []
        for label in sorted(self.table.get(dim, {}), key=len, reverse=True):
            start = text.find(label)
            while start >= 0:
                end = start + len(label)
                if not any(a < end and start < b for a, b in taken):
                    taken.append((start, end))
                    found.append((start, self.table[dim][label]))
                start = text.find(label, end)
        return [value for _, value in sorted(found)]


def _field(cell: str, name: str) -> str:
    found = re.search(rf"{re.escape(name)}：([^；。\n]*)", cell)
    return found.group(1).strip() if found else ""


def _key(pin_name: str) -> str:
    return pin_name if ":" in pin_name else github_key(pin_name)


def _finding(
    entry: ParsedEntry, day: date, evidence: dict[str, str], reverse: _Reverse, lang: str
) -> Finding:
    t = strings(lang)
    cells = [
        entry.cells.get(t[key], "")
        for key in (
            "col_class",
            "col_mechanism",
            "col_maturity",
            "col_version",
            "col_host",
            "col_source",
        )
    ]
    klass, mechanism, maturity, version, host, source = cells
    evidence_id = source.strip("[] ")
    pin = _PIN.search(evidence.get(evidence_id, ""))
    rsi = _field(klass, t["rsi"])
    target = re.search(r"（(engine|harness)）", rsi)
    tags = {
        "workload": reverse.values("workload", _field(klass, t["workload"])),
        "system_level": reverse.values("system_level", _field(klass, t["system_level"])),
        "rsi_stage": reverse.values("rsi_stage", re.sub(r"（.*?）", "", rsi)),
        "mechanism": reverse.values("mechanism", _field(mechanism, t["mechanism"])),
    }
    level, _, rest = maturity.partition(" / ")
    recommendation, _, flag_text = rest.partition("；")
    relation_label, _, host_rest = host.partition("：")
    refs, _, plan = host_rest.rpartition("；")
    priority, _, horizon = plan.partition(" · ")
    novelty = {novelty_label(n, lang): n for n in Novelty}
    return Finding(
        project_key=_key(pin.group("name")) if pin else "",
        name=entry.name,
        date=day,
        tags={
            dim: [Tag(dimension=dim, value=v) for v in values]
            for dim, values in tags.items()
            if values
        },
        rsi_target=target.group(1) if target else None,
        maturity=(reverse.values("maturity", level) or ["idea"])[0],
        flags=reverse.values("maturity_flags", flag_text),
        recommendation=_recommendation(recommendation),
        novelty=novelty.get(version.split(" · ")[0].strip(), Novelty.NEW_RELEASE),
        relation=(reverse.values("relation", relation_label) or ["extensible-gap"])[0],
        touch_points=[
            _touch_point(ref) for ref in refs.split("、") if ref.strip() not in {"", "—"}
        ],
        priority=priority.strip(),
        horizon=horizon.strip(),
        evidence_id=evidence_id,
        snapshot=Snapshot(source_key=_key(pin.group("name")), version=pin.group("version"))
        if pin
        else None,
    )


def _recommendation(text: str) -> Recommendation:
    """The recommendation whose label, in either language, the cell shows."""
    labels = {
        recommendation_label(item, lang): item for item in Recommendation for lang in ("zh", "en")
    }
    return labels.get(text.strip()) or Recommendation(text.strip())


def _touch_point(ref: str) -> TouchPoint:
    ref = ref.strip()
    if ref.startswith("`"):
        return TouchPoint(kind="path", ref=ref.strip("`"))
    return TouchPoint(kind="pr", ref=ref)


def read_findings(
    markdown: str, taxonomy: Labeller, dimensions: dict[str, list[str]], lang: str = "zh"
) -> list[Finding]:
    """Findings of a report rendered by `render_markdown`.

    Args:
        dimensions: dimension id -> value ids, to turn labels back into ids.
    """
    parsed = parse_report(markdown.split("\n", 1)[1] if markdown.startswith("<!--") else markdown)
    day = parsed.date or date.min
    evidence = {key: item.text for key, item in parsed.evidence.items()}
    reverse = _Reverse(taxonomy, dimensions, lang)
    header = strings(lang)["col_class"]
    return [
        _finding(entry, day, evidence, reverse, lang)
        for entry in parsed.entries
        if header in entry.cells
    ]
