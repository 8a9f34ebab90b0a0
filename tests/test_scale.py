"""Scale: the pipeline over many replayed candidates and a large history import, on one real
SQLite store, without "database is locked" (issue #19).

The sizes here keep the suite quick; benchmarks/scale_bench.py runs the issue's sizes
(2,000 candidates and a 20,000-row import) and the other scale goals.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from typer.testing import CliRunner

from research_radar.cli import app
from research_radar.config import ArxivSettings, GitHubSettings, Settings
from research_radar.pipeline.run import run_daily
from research_radar.replay.copies import copy_sample_repos
from research_radar.replay.server import serve_replay
from research_radar.store.store import open_store

CANDIDATES = 300
IMPORT_ROWS = 1500
DAY = date(2026, 8, 29)


def _history(path: Path, rows: int) -> None:
    """House-style reports of 50 entries a day, `rows` entries in all."""
    header = (
        "| 分类 / 项目与目标模型 | 新增机制及 prior art | 关键证据 / 缺口 | 成熟度 / 推荐级别 "
        "| 时效版本 | 宿主接点 / 优先级 | 来源 |\n|---|---|---|---|---|---|---|\n"
    )
    parts = []
    for day_number in range(-(-rows // 50)):
        day = date(2025, 1, 1) + timedelta(days=day_number)
        lines, evidence = [], []
        for i in range(min(50, rows - day_number * 50)):
            n = day_number * 50 + i
            sha = hashlib.sha1(str(n).encode()).hexdigest()
            lines.append(
                f"| LLM｜Proj{n} | KV cache offload variant {n % 37} | 条件见 S{i + 1}。 "
                f"| 代码可用 / 值得验证 | `{sha[:8]}` | P2 · Watch | [S{i + 1}] |"
            )
            evidence.append(f"S{i + 1} Proj{n} — `hist{n % 40}/proj-{n}@{sha}`（{day}）\n")
        parts.append(
            f"## {day}｜新仓库研究\n\n### 值得验证\n\n{header}"
            + "\n".join(lines)
            + "\n\n### 证据索引\n\n"
            + "\n".join(evidence)
        )
    path.write_text("\n\n".join(parts), encoding="utf-8")


def test_pipeline_over_many_candidates_and_a_large_import_share_one_store(
    tmp_path: Path,
) -> None:
    repos = copy_sample_repos(tmp_path / "replay", CANDIDATES, owner="scale", owners=10)
    db = tmp_path / "radar.db"
    with serve_replay(tmp_path / "replay") as server:
        settings = Settings(
            db=str(db),
            reports_dir=tmp_path / "reports",
            github_api_url=server.url,
            arxiv_api_url=server.arxiv_url,
            github=GitHubSettings(queries=(), repos=tuple(repos), skip_reported=False),
            arxiv=ArxivSettings(queries=(), delay=0.0),
        )
        store = open_store(str(db))
        result = run_daily(store, settings, day=DAY, since=datetime(2024, 9, 1, tzinfo=UTC))
    assert store.load_runs(1)[0]["status"] == "ok"
    assert len(result.report.findings) >= CANDIDATES
    report = tmp_path / "history.md"
    _history(report, IMPORT_ROWS)
    imported = CliRunner().invoke(
        app, ["history", "import", str(report), "--db", str(db), "--json"]
    )
    assert imported.exit_code == 0, imported.output
    assert json.loads(imported.output)["new_findings"] == IMPORT_ROWS
