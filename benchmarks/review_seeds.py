"""Review every report in seeds-examples in date order, earlier reports serving as history.

    .venv/bin/python benchmarks/review_seeds.py [--verbose]

History comes from the earlier reports' entries (review.build_findings: name -> key, with
mechanism families). The policy starts as substantive-updates (the seeds' first days) and
switches to first-discovered where a report announces it (the 2026-10-30 correction).
Prints, per report, every grouped finding (F-number, severity, rule, title and one line per
entry, in the report's language) and a summary; `--records` also prints the one record per
(rule, entry) behind the groups. Judge each printed finding right or noise (refs #17).
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections import Counter
from pathlib import Path

from research_radar.models import Finding
from research_radar.report.parse import split_reports
from research_radar.review.entries import build_findings
from research_radar.review.run import review_report

SHARED = Path(os.environ.get("RADAR_SHARED", Path(__file__).resolve().parents[2] / "shared"))
SEEDS = SHARED / "seeds-examples"


def _file_line(where: str, offset: int) -> str:
    return re.sub(r"^line (\d+)", lambda m: f"L{int(m.group(1)) + offset - 1}", where)


def main() -> int:
    if not SEEDS.is_dir():
        print(f"seeds-examples not found under {SHARED}; set RADAR_SHARED")
        return 0
    verbose = "--verbose" in sys.argv
    records = "--records" in sys.argv
    files = sorted(SEEDS.glob("*.md"))
    reports = [
        (path, r)
        for path in files
        if path.name != "README.md"
        for r in split_reports(path.read_text("utf-8"))
    ]
    reports.sort(
        key=lambda item: (item[1].date is not None, item[1].date or "", item[0].name, item[1].line)
    )
    past: list[Finding] = []
    policy = "substantive-updates"
    totals: Counter[tuple[str, str]] = Counter()
    groups: Counter[str] = Counter()
    started = time.perf_counter()
    for path, report in reports:
        result = review_report(report.text, history=past, policy=policy)
        if re.search(r"只报告首次发现", report.text):
            policy = "first-discovered"
        label = report.date.isoformat() if report.date else "undated"
        counts = Counter(f.severity.value for f in result.findings)
        print(
            f"\n== {path.name} L{report.line} {label} {report.title[:50]!r}: "
            f"{len(report.entries)} entries, history {len(past)}, "
            f"{len(result.groups)} grouped findings ({len(result.findings)} records: "
            f"{counts['blocking']} blocking / {counts['warning']} warning / {counts['info']} info)"
        )
        for item in result.findings:
            totals[(item.rule, item.severity.value)] += 1
            if not records:
                continue
            where = _file_line(item.where, report.line)
            problem = item.problem if verbose else item.problem[:110]
            dim = f" [{item.dimension}]" if item.dimension else ""
            print(
                f"    {item.severity.value:8} {item.rule}{dim} · {item.entry or '-'} · "
                f"{where.split(',')[0]} · {problem}"
            )
        for group in result.groups:
            groups[group.severity.value] += 1
            print(f"  {group.id} {group.severity.value:8} {group.rule} — {group.title}")
            for line in group.items:
                print(f"      - {line if verbose else line[:100]}")
        past += build_findings(report)
    elapsed = time.perf_counter() - started
    print(f"\n== totals over {len(reports)} reports ({elapsed:.2f}s)")
    print(f"  grouped findings: {sum(groups.values())} ({dict(groups)})")
    for (rule, severity), count in sorted(totals.items()):
        print(f"  {count:4} {severity:8} {rule}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
