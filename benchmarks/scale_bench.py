"""Scale benchmark (issue #19): one line per goal with its measure, its bound and PASS/FAIL.

Generates its own corpora in a temporary folder: a replay server with N synthetic
repositories (copies of the bundled sample's, renamed and reworded), a history of N
earlier findings, a house-style report of N entries, an inbox of N notes and a large
README. Whole commands run as child processes (`python -c` calling `research_radar.cli`),
timed with `time.perf_counter` and measured with `os.wait4` (peak resident memory); the
rest runs in this process. The machine is shared and noisy: read the ratios. The first
line (`machine_line`) times a fixed workload, gives the load average and names the
package the child processes import (a relative `PYTHONPATH` is made absolute for them),
so that figures from different days, machines or checkouts can be put side by side: the
goals that are absolute times (2b, 4b, 5b, 5c, 6) move with the machine.

The pipeline goals (`run_pipeline`) talk to a replay server in a child process of its own
(`serve_replay_process`), as a run talks to the real GitHub and arXiv APIs in other
machines: the server's work (reading the recorded payloads, building answers) is not the
pipeline's and no longer shares the measured process's interpreter lock. What is timed is
the pipeline's own time, from `open_store` to the written report, over real loopback
HTTP. The server still runs on this machine's cores, so it competes for them like any
other process: the measure is not flattered beyond taking the server out of the process.

    .venv/bin/python benchmarks/scale_bench.py            # the sizes of the issue
    .venv/bin/python benchmarks/scale_bench.py --quick    # a tenth of them, a smoke test
    .venv/bin/python benchmarks/scale_bench.py --only help,sample
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

RADAR = "import sys; from research_radar.cli import main; sys.argv[0] = 'radar'; main()"
WORDS = [
    "kv",
    "cache",
    "offload",
    "expert",
    "tier",
    "ssd",
    "speculative",
    "draft",
    "kernel",
    "triton",
    "fusion",
    "quantization",
    "int8",
    "streaming",
    "speech",
    "video",
    "diffusion",
    "recurrent",
    "mamba",
    "scheduler",
    "serving",
    "prefix",
    "reuse",
    "paged",
    "attention",
    "batching",
    "prefill",
    "decode",
    "sparse",
    "router",
    "moe",
    "lora",
    "adapter",
    "graph",
    "compile",
    "tensor",
    "parallel",
    "pipeline",
    "memory",
    "bandwidth",
    "latency",
    "throughput",
    "token",
    "budget",
    "agent",
    "search",
]


@dataclass(frozen=True)
class Sizes:
    candidates: int = 10_000
    small_candidates: int = 100
    lock_candidates: int = 2_000
    import_rows: int = 20_000
    history_big: int = 100_000
    history_small: int = 1_000
    review_entries: int = 10_000
    notes: int = 10_000
    store_rows: int = 5_000
    readme_mb: float = 4.0


@dataclass(frozen=True)
class Result:
    goal: str
    text: str
    ok: bool

    def line(self) -> str:
        return f"{self.goal:<10} {self.text}  {'PASS' if self.ok else 'FAIL'}"


# -- child processes ------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mb: float
    code: int
    output: str
    cpu: float = 0.0
    """User and system CPU seconds: what other work on the machine changes least."""


PYCACHE = Path(tempfile.gettempdir()) / f"radar-scale-bench-pycache-{os.getpid()}"
"""Bytecode of the child processes, for this run of the benchmark (removed at its end)."""


def _child(argv: list[str], cwd: Path, timeout: float = 1800.0) -> Run:
    """Run a child process; its wall time, peak RSS (MB) and combined output."""
    log = cwd / f".out-{time.monotonic_ns()}.txt"
    # A warm cache includes compiled bytecode, as an installed package has; it is kept in
    # a folder of this run's own, so nothing is written beside the sources.
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(PYCACHE)}
    if env.get("PYTHONPATH"):
        # the child runs in a temporary folder: a relative entry (`PYTHONPATH=src`) would
        # find nothing there, and the child would measure whatever checkout is installed
        env["PYTHONPATH"] = os.pathsep.join(
            str(Path(entry).resolve()) if entry else entry
            for entry in env["PYTHONPATH"].split(os.pathsep)
        )
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("GITHUB_TOKEN", None)
    with log.open("wb") as handle:
        started = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=handle, stderr=subprocess.STDOUT, env=env)
        deadline = started + timeout
        high = 0  # the child's own high-water RSS in kB, as last read (it only grows)
        while True:
            high = max(high, _high_water_kb(proc.pid))
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.005)
        seconds = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    output = log.read_text(encoding="utf-8", errors="replace")
    log.unlink()
    cpu = usage.ru_utime + usage.ru_stime
    return Run(seconds, (high or usage.ru_maxrss) / 1024, proc.returncode, output, cpu)


def _high_water_kb(pid: int) -> int:
    """The process's peak RSS so far (`VmHWM`), of its own program only.

    `ru_maxrss` is no measure of a child's memory: Linux carries the peak of the address
    space a process had before `exec` into it, and a child started with vfork had this
    benchmark's, which grows with the goals run in-process before (the pipeline runs).
    `VmHWM` belongs to the address space the child's `exec` made; it only grows, so the
    last reading, at most a polling interval before the child ends, is its peak.
    """
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii", errors="replace")
    except OSError:
        return 0  # not Linux, or the child has just ended
    found = re.search(r"^VmHWM:\s+(\d+)\s+kB", status, re.M)
    return int(found.group(1)) if found else 0


def _radar(args: list[str], cwd: Path, timeout: float = 1800.0) -> Run:
    return _child([sys.executable, "-c", RADAR, *args], cwd, timeout)


# -- corpora --------------------------------------------------------------------------


def _phrase(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def build_replay(target: Path, count: int, seed: int = 7) -> list[str]:
    """A replay folder: the bundled sample plus `count` synthetic repositories, each with a
    description and a README lead of its own.

    Returns the synthetic repositories' owner/name.
    """
    from research_radar.replay.copies import copy_sample_repos

    rng = random.Random(seed)

    def decorate(n: int, data: dict[str, Any], folder: Path) -> None:
        created = datetime.fromisoformat(data["created_at"])
        data.update(
            description=f"{_phrase(rng, 6)} engine {n}",
            html_url=f"https://github.com/{data['full_name']}",
            pushed_at=(created + timedelta(days=1)).isoformat().replace("+00:00", "Z"),
        )
        readme = folder / "readme.md"
        text = readme.read_text(encoding="utf-8") if readme.is_file() else ""
        readme.write_text(
            f"# {data['name']}\n\n{_phrase(rng, 40)}.\n\n{text}", encoding="utf-8", newline="\n"
        )

    return copy_sample_repos(target, count, decorate=decorate)


def pipeline_settings(folder: Path, server_url: str, arxiv_url: str, repos: list[str]) -> object:
    from research_radar.config import ArxivSettings, GitHubSettings, Settings

    return Settings(
        db=str(folder / "radar.db"),
        reports_dir=folder / "reports",
        github_api_url=server_url,
        arxiv_api_url=arxiv_url,
        github=GitHubSettings(queries=(), repos=tuple(repos), skip_reported=False)
        if repos
        else GitHubSettings(queries=("engine",)),
        arxiv=ArxivSettings(queries=(), delay=0.0),
    )


def run_pipeline(
    folder: Path, root: Path, repos: list[str], day: date, *, live: bool = False
) -> tuple[float, int]:
    """`run_daily` over a replay server of `root` (in a child process, see the module's
    docstring); (seconds, findings in the report).

    `live`: the window starts where the last one ended, as on a live day (else it covers
    the whole corpus). No `repos`: search for them instead of following them."""
    from research_radar.pipeline.run import run_daily
    from research_radar.replay.process import serve_replay_process
    from research_radar.store.store import open_store

    with serve_replay_process(root) as server:
        settings = pipeline_settings(folder, server.url, server.arxiv_url, repos)
        started = time.perf_counter()
        store = open_store(str(folder / "radar.db"))
        result = run_daily(
            store,
            settings,  # type: ignore[arg-type]
            day=day,
            since=None if live else datetime(2024, 9, 1, tzinfo=UTC),
        )
        seconds = time.perf_counter() - started
        store.engine.dispose()
    return seconds, len(result.report.findings)


def write_history_report(path: Path, count: int, *, start: date, seed: int = 11) -> None:
    """House-style reports (one per day, 50 entries each) with `count` entries in all."""
    rng = random.Random(seed)
    header = (
        "| 分类 / 项目与目标模型 | 新增机制及 prior art | 关键证据 / 缺口 | 成熟度 / 推荐级别 "
        "| 时效版本 | 宿主接点 / 优先级 | 来源 |\n|---|---|---|---|---|---|---|\n"
    )
    parts = []
    for day_number in range(-(-count // 50)):
        day = start + timedelta(days=day_number)
        rows, evidence = [], []
        for i in range(min(50, count - day_number * 50)):
            n = day_number * 50 + i
            sha = hashlib.sha1(str(n).encode()).hexdigest()
            name = f"Proj{n}"
            rows.append(
                f"| LLM · 模型执行｜{name}（Qwen3） | {_phrase(rng, 8)}，非新算法。 "
                f"| 作者报告，条件见 S{i + 1}。 | 代码可用 / 值得验证 | 新发现 · `{sha[:8]}` "
                f"| P2 · Watch | [S{i + 1}] |"
            )
            evidence.append(
                f"S{i + 1} {name} — `hist{n % 200}/proj-{n}@{sha}`（{day}）\n"
                f"来源：https://github.com/hist{n % 200}/proj-{n}/tree/{sha}\n"
            )
        parts.append(
            f"## {day}｜新仓库研究\n\n证据截止：北京时间 {day} 08:30。\n\n### 值得验证\n\n"
            + header
            + "\n".join(rows)
            + "\n\n### 证据索引\n\n"
            + "\n".join(evidence)
        )
    path.write_text("\n\n".join(parts), encoding="utf-8")


def seed_history(db: Path, count: int, seed: int = 3) -> None:
    """`count` earlier findings written straight into a store (the shape the pipeline keeps)."""
    from sqlalchemy import insert

    from research_radar.models import Finding
    from research_radar.store.schema import findings
    from research_radar.store.store import open_store

    rng = random.Random(seed)
    store = open_store(str(db))
    rows = []
    for n in range(count):
        day = date(2026, 8, 28) - timedelta(days=1 + n % 700)
        finding = Finding(
            project_key=f"gh:hist{n % 500}/proj-{n}",
            name=f"proj-{n}",
            date=day,
            url=f"https://github.com/hist{n % 500}/proj-{n}",
            mechanism=_phrase(rng, 10),
        )
        rows.append(
            {
                "project_key": finding.project_key,
                "date": day,
                "origin": "radar",
                "name": finding.name,
                "family": None,
                "data": finding.model_dump(mode="json"),
                "created_at": datetime.now(UTC),
            }
        )
    with store.engine.begin() as conn:
        for start in range(0, len(rows), 5000):
            conn.execute(insert(findings), rows[start : start + 5000])
    store.engine.dispose()


def write_review_report(path: Path, count: int) -> None:
    """One report of `count` table entries with their evidence blocks (ids beyond S999)."""
    header = (
        "## 2026-08-29｜新仓库研究\n\n证据截止：北京时间 2026-08-29 08:30。\n\n### 值得验证\n\n"
        "| 分类 / 项目与目标模型 | 新增机制及 prior art | 关键证据 / 缺口 | 成熟度 / 推荐级别 "
        "| 时效版本 | 宿主接点 / 优先级 | 来源 |\n|---|---|---|---|---|---|---|\n"
    )
    rng = random.Random(5)
    rows, evidence = [], []
    for n in range(1, count + 1):
        sha = hashlib.sha1(f"r{n}".encode()).hexdigest()
        rows.append(
            f"| LLM · 模型执行｜Rev{n}（Qwen3） | {_phrase(rng, 8)}，非新算法。 | 作者报告 "
            f"1.{n % 9}× 吞吐，条件见 S{n}。 | 代码可用 / 值得验证 | 新发现 · `{sha[:8]}` "
            f"| P2 · Watch | [S{n}] |"
        )
        evidence.append(
            f"S{n} Rev{n} — `rev{n % 300}/rev-{n}@{sha}`（2026-08-2{n % 9}）\n"
            f"来源：https://github.com/rev{n % 300}/rev-{n}/tree/{sha}\n"
        )
    path.write_text(
        header + "\n".join(rows) + "\n\n### 证据索引\n\n" + "\n".join(evidence), encoding="utf-8"
    )


def write_inbox(root: Path, count: int) -> None:
    """An inbox of `count` notes across 20 analysts inside the digest's sample window."""
    import research_radar.sample

    shutil.copytree(Path(research_radar.sample.__file__).parent / "inbox", root)
    rng = random.Random(9)
    end = datetime(2026, 9, 3, 22, 0)
    for n in range(count):
        who = root / "inbox" / f"analyst{n % 20}"
        who.mkdir(parents=True, exist_ok=True)
        when = end - timedelta(seconds=20 * n % 80_000)
        title = f"{_phrase(rng, 4)} {n % 700}"
        body = (
            f"# {who.name} radar {when:%H:%M}\n\n## {title}\n\n"
            f"- arXiv: 2508.{10000 + n % 5000}\n- 要点：{_phrase(rng, 12)}，"
            f"吞吐 {1 + n % 7}.{n % 10}× （作者报告）\n"
        )
        (who / f"{when:%Y-%m-%d_%H%M%S}_{n}.md").write_text(body, encoding="utf-8")


def write_readme(path: Path, megabytes: float) -> None:
    """A large README as projects write them: sections of prose, a measured claim, code,
    now and then a results table and long digit runs (checksums, ids). Every section is
    its own (no block written again): a cache of what was read cannot stand in for
    reading."""
    rng = random.Random(13)
    block: list[str] = []
    size, target, n = 0, megabytes * 1_000_000, 0
    while size < target:
        part = [f"## {_phrase(rng, 3).title()}\n\n"]
        part += [f"{_phrase(rng, 14).capitalize()}.\n" for _ in range(6)]
        part.append(
            f"On an RTX 4090 with Qwen3-8B at BF16, {_phrase(rng, 6)} reaches "
            f"{100 + n % 900}.{n % 10} tok/s decode and {1 + n % 5}.{n % 9}x prefill over "
            f"vLLM 0.{n % 9}.{n % 7} at batch {1 + n % 32}.\n\n"
        )
        part.append("```bash\n" + "".join(f"./run --{w} {n}\n" for w in WORDS[:8]) + "```\n\n")
        if n % 10 == 0:
            part.append("| model | tok/s | memory |\n|---|---|---|\n")
            part += [f"| Llama-3-{k}B | {1000 + n + k} | {k * 2} GB |\n" for k in (1, 8, 70)]
        if n % 25 == 0:
            digits = "".join(str(rng.randrange(10)) for _ in range(4000))
            part.append(f"\nsha256 {digits}\n\n")
        size += sum(len(p.encode()) for p in part)
        block += part
        n += 1
    path.write_text("# Bench\n\n" + "".join(block), encoding="utf-8")


# -- goals ------------------------------------------------------------------------------


def goal_locks(tmp: Path, sizes: Sizes) -> Result:
    """1: the pipeline over N replayed candidates and an M-row import, no lock errors."""
    folder = tmp / "locks"
    folder.mkdir()
    repos = build_replay(folder / "replay", sizes.lock_candidates)
    errors = []
    try:
        seconds, found = run_pipeline(folder, folder / "replay", repos, date(2026, 8, 29))
    except Exception as exc:  # the measurement reports any failure, it does not stop
        errors.append(f"pipeline: {type(exc).__name__}: {str(exc)[:120]}")
        seconds, found = 0.0, 0
    report = folder / "history.md"
    write_history_report(report, sizes.import_rows, start=date(2025, 1, 1))
    run = _radar(["history", "import", str(report), "--db", str(folder / "radar.db")], folder)
    if run.code != 0:
        errors.append(f"import: exit {run.code}: {run.output.strip().splitlines()[-1][:160]}")
    locked = sum("database is locked" in text for text in errors)
    text = (
        f"pipeline over {sizes.lock_candidates:,} candidates ({seconds:.1f}s, {found} findings) "
        f"+ {sizes.import_rows:,}-row import ({run.seconds:.1f}s): {len(errors)} errors, "
        f"{locked} 'database is locked'" + (f" [{'; '.join(errors)}]" if errors else "")
    )
    return Result("1 locks", text, not errors)


def goal_help(tmp: Path, sizes: Sizes) -> Result:
    """2a: `radar --help` against bare `python -c pass`, medians of paired runs."""
    base, helped = [], []
    for _ in range(9):
        base.append(_child([sys.executable, "-c", "pass"], tmp).seconds)
        helped.append(_radar(["--help"], tmp).seconds)
    ratio = statistics.median(helped) / statistics.median(base)
    text = (
        f"radar --help {statistics.median(helped) * 1000:.0f} ms vs python -c pass "
        f"{statistics.median(base) * 1000:.0f} ms = {ratio:.1f}x (<= 15x)"
    )
    return Result("2a help", text, ratio <= 15)


def goal_sample(tmp: Path, sizes: Sizes) -> Result:
    """2b: `radar daily --sample` on a warm cache (a fresh store each time), median of 3."""
    folder = tmp / "sample"
    folder.mkdir()
    _radar(["daily", "--sample", "--db", str(folder / "warm.db")], folder)  # warm-up
    runs = [
        _radar(["daily", "--sample", "--db", str(folder / f"s{n}.db")], folder) for n in range(3)
    ]
    seconds = statistics.median(run.seconds for run in runs)
    ok = all(run.code == 0 for run in runs) and seconds <= 3.0
    return Result("2b sample", f"radar daily --sample {seconds:.2f}s warm (<= 3 s)", ok)


def goal_history(tmp: Path, sizes: Sizes, pairs: int = 3) -> Result:
    """3: `daily --sample` with a big history against a small one (after one warm-up run
    each): `pairs` runs of each, taken in turns, compared by their medians, so that a burst
    of other work on the machine falls on both sizes alike."""
    dbs = {}
    for count in (sizes.history_small, sizes.history_big):
        folder = tmp / f"history-{count}"
        folder.mkdir()
        db = folder / "radar.db"
        # seeded in a process of its own: a child's peak memory counts the parent's at the
        # fork, and 100,000 findings built here would be charged to the run measured next
        seeded = _child([sys.executable, __file__, "--seed-history", str(db), str(count)], folder)
        if seeded.code != 0:
            return Result("3 history", f"seeding failed: {seeded.output[-300:]}", False)
        _radar(["daily", "--sample", "--db", str(db)], folder)  # pays the one-time costs
        dbs[count] = db
    runs: dict[int, list[Run]] = {count: [] for count in dbs}
    for _ in range(pairs):
        for count, db in dbs.items():
            run = _radar(["daily", "--sample", "--db", str(db)], db.parent)
            if run.code != 0:
                return Result("3 history", f"daily failed: {run.output[-300:]}", False)
            runs[count].append(run)
    small, big = runs[sizes.history_small], runs[sizes.history_big]
    wall = [statistics.median(run.seconds for run in side) for side in (small, big)]
    cpu = [statistics.median(run.cpu for run in side) for side in (small, big)]
    peak = max(run.peak_mb for run in big)
    ratio = wall[1] / wall[0]
    text = (
        f"daily --sample with {sizes.history_big:,} earlier findings {wall[1]:.2f}s vs "
        f"{sizes.history_small:,} {wall[0]:.2f}s = {ratio:.2f}x (<= 1.5x; medians of "
        f"{pairs}; CPU {cpu[1]:.2f}s vs {cpu[0]:.2f}s = {cpu[1] / cpu[0]:.2f}x); "
        f"peak {peak:.0f} MB (<= 400 MB)"
    )
    return Result("3 history", text, ratio <= 1.5 and peak <= 400)


def _raw_sqlite_writes(
    path: Path, bodies: list[bytes], documents: list[dict[str, object]]
) -> float:
    """The same rows written with plain sqlite3: gzip, hash, JSON, executemany upserts."""
    started = time.perf_counter()
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(
        "CREATE TABLE raw (id INTEGER PRIMARY KEY, source TEXT, request_key TEXT, status INT, "
        "headers TEXT, body BLOB, content_hash TEXT, fetched_at TEXT, "
        "UNIQUE (source, request_key, content_hash))"
    )
    db.execute(
        "CREATE TABLE findings (id INTEGER PRIMARY KEY, project_key TEXT, date TEXT, origin TEXT, "
        "name TEXT, family TEXT, data TEXT, created_at TEXT, UNIQUE (project_key, date, origin))"
    )
    now = datetime.now(UTC).isoformat()
    with db:
        db.executemany(
            "INSERT INTO raw (source, request_key, status, headers, body, content_hash, "
            "fetched_at) VALUES (?, ?, 200, '{}', ?, ?, ?) ON CONFLICT DO NOTHING",
            [
                ("github", f"/repos/x/{n}", gzip.compress(body, mtime=0), _sha(body), now)
                for n, body in enumerate(bodies)
            ],
        )
        db.executemany(
            "INSERT INTO findings (project_key, date, origin, name, family, data, created_at) "
            "VALUES (?, ?, 'radar', ?, NULL, ?, ?) ON CONFLICT (project_key, date, origin) "
            "DO UPDATE SET name = excluded.name, family = excluded.family, data = excluded.data",
            [
                (doc["project_key"], doc["date"], doc["name"], json.dumps(doc), now)
                for doc in documents
            ],
        )
    db.close()
    return time.perf_counter() - started


def _sha(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def goal_store(tmp: Path, sizes: Sizes) -> Result:
    """4a: the store's batched writes against plain sqlite3 doing the same work."""
    from research_radar.models import Finding
    from research_radar.store.rows import RawRecord
    from research_radar.store.store import open_store

    rng = random.Random(17)
    bodies = [(_phrase(rng, 400) + str(n)).encode() for n in range(sizes.store_rows)]
    items = [
        Finding(
            project_key=f"gh:o/p{n}",
            name=f"p{n}",
            date=date(2026, 8, 29),
            url=f"https://github.com/o/p{n}",
            mechanism=_phrase(rng, 20),
        )
        for n in range(sizes.store_rows)
    ]
    raw = min(
        _raw_sqlite_writes(tmp / f"raw{n}.db", bodies, [f.model_dump(mode="json") for f in items])
        for n in range(3)
    )
    timings = []
    for n in range(3):
        store = open_store(str(tmp / f"store{n}.db"))
        started = time.perf_counter()
        with store.transaction() as conn:
            store.save_raws(
                conn, "github", [RawRecord(f"/repos/x/{i}", body) for i, body in enumerate(bodies)]
            )
            store.save_findings(conn, items)
        timings.append(time.perf_counter() - started)
        store.engine.dispose()
    ours = min(timings)
    ratio = ours / raw
    text = (
        f"store {sizes.store_rows:,} raw responses + {sizes.store_rows:,} findings "
        f"{ours:.2f}s vs sqlite3 executemany {raw:.2f}s = {ratio:.2f}x (<= 2x)"
    )
    return Result("4a store", text, ratio <= 2)


def goal_import(tmp: Path, sizes: Sizes) -> Result:
    """4b: `radar history import` of an M-row report into an empty store."""
    folder = tmp / "import"
    folder.mkdir()
    report = folder / "history.md"
    write_history_report(report, sizes.import_rows, start=date(2025, 1, 1))
    run = _radar(["history", "import", str(report), "--db", str(folder / "radar.db")], folder)
    rate = sizes.import_rows / run.seconds
    text = (
        f"history import {sizes.import_rows:,} findings {run.seconds:.1f}s = {rate:,.0f}/s "
        f"(>= 2,000/s)" + (f" [exit {run.code}]" if run.code else "")
    )
    return Result("4b import", text, run.code == 0 and rate >= 2000)


def goal_review(tmp: Path, sizes: Sizes) -> Result:
    """5a: an N-entry report reviewed offline."""
    report = tmp / "review.md"
    write_review_report(report, sizes.review_entries)
    run = _radar(["review", str(report), "--offline", "--db", str(tmp / "review.db")], tmp)
    ok = run.code in (0, 1) and "Traceback" not in run.output and run.seconds <= 10
    text = f"review of {sizes.review_entries:,} entries offline {run.seconds:.1f}s (<= 10 s)"
    return Result("5a review", text, ok)


def goal_digest(tmp: Path, sizes: Sizes) -> Result:
    """5b: a digest over an inbox of N notes."""
    root = tmp / "inbox"
    write_inbox(root, sizes.notes)
    args = ["digest", "--root", str(root), "--end", "2026-09-03T22:20", "--hours", "48"]
    run = _radar([*args, "--out", str(tmp / "digest.md")], tmp)
    ok = run.code == 0 and run.seconds <= 20
    text = f"digest of {sizes.notes:,} notes {run.seconds:.1f}s (<= 20 s)"
    return Result("5b digest", text + (f" [exit {run.code}]" if run.code else ""), ok)


def goal_extract(tmp: Path, sizes: Sizes) -> Result:
    """5c: `radar extract` throughput on a large README."""
    readme = tmp / "README.md"
    write_readme(readme, sizes.readme_mb)
    megabytes = readme.stat().st_size / 1_000_000
    _radar(["extract", "--help"], tmp)  # compiles the bytecode when this run starts cold
    base = _radar(["extract", "--help"], tmp).seconds  # start-up, not extraction
    run = _radar(["extract", str(readme), "--json"], tmp)
    rate = megabytes / max(run.seconds - base, 1e-3)
    text = f"extract {megabytes:.1f} MB {run.seconds:.1f}s = {rate:.2f} MB/s (>= 1 MB/s)"
    return Result("5c extract", text, run.code == 0 and rate >= 1.0)


def goal_pipeline(tmp: Path, sizes: Sizes) -> Result:
    """6: the whole pipeline over N replayed candidates; cost per candidate against 100."""
    measured = {}
    for count in (sizes.small_candidates, sizes.candidates):
        folder = tmp / f"pipeline-{count}"
        folder.mkdir()
        repos = build_replay(folder / "replay", count)
        measured[count] = run_pipeline(folder, folder / "replay", repos, date(2026, 8, 29))
    small, big = measured[sizes.small_candidates][0], measured[sizes.candidates][0]
    per_small = small / sizes.small_candidates
    per_big = big / sizes.candidates
    ratio = per_big / per_small
    text = (
        f"pipeline over {sizes.candidates:,} candidates {big:.1f}s (<= 60 s); "
        f"{per_big * 1000:.1f} ms/candidate vs {per_small * 1000:.1f} at "
        f"{sizes.small_candidates} = {ratio:.2f}x (<= 1.5x)"
    )
    return Result("6 pipeline", text, big <= 60 and ratio <= 1.5)


def goal_same_day(tmp: Path, sizes: Sizes) -> Result:
    """7a: a second live run on the same day keeps the day's findings."""
    folder = tmp / "same-day"
    folder.mkdir()
    build_replay(folder / "replay", 40)
    _, first = run_pipeline(folder, folder / "replay", [], date(2026, 8, 29), live=True)
    _, second = run_pipeline(folder, folder / "replay", [], date(2026, 8, 29), live=True)
    text = f"second run the same day: {second} of {first} findings kept"
    return Result("7a same day", text, first > 0 and second >= first)


def goal_evidence_ids(tmp: Path, sizes: Sizes) -> Result:
    """7b: evidence ids beyond S999 are parsed."""
    from research_radar.report.parse import split_reports

    report = tmp / "ids.md"
    write_review_report(report, 1200)
    parsed = split_reports(report.read_text(encoding="utf-8"))[0]
    linked = sum(1 for entry in parsed.entries if entry.evidence_ids)
    text = f"evidence ids beyond S999: {len(parsed.evidence)} blocks, {linked} of 1,200 linked"
    return Result("7b S999", text, len(parsed.evidence) == 1200 and linked == 1200)


GOALS: dict[str, Callable[[Path, Sizes], Result]] = {
    "same-day": goal_same_day,
    "ids": goal_evidence_ids,
    "locks": goal_locks,
    "help": goal_help,
    "sample": goal_sample,
    "history": goal_history,
    "store": goal_store,
    "import": goal_import,
    "review": goal_review,
    "digest": goal_digest,
    "extract": goal_extract,
    "pipeline": goal_pipeline,
}


def machine_line() -> str:
    """The machine's speed and load when the goals ran, so runs on different days (or
    machines) can be read side by side: the CPU time of a fixed pure-Python workload
    (regex, hashing, sorting and dict work on generated text, the kinds of work the
    radar does) and the one-minute load average."""
    rng = random.Random(7)
    words = ["decode", "prefill", "tok/s", "H100", "kernel", "cache", "batch", "latency"]
    lines = [" ".join(rng.choice(words) + str(rng.randrange(100)) for _ in range(12))
             for _ in range(4000)]  # fmt: skip
    number = re.compile(r"([a-z/]+)(\d+)")
    start = time.process_time()
    for _ in range(5):
        counts: dict[str, int] = {}
        for line in lines:
            for word, digits in number.findall(line):
                counts[word] = counts.get(word, 0) + int(digits)
            hashlib.sha256(line.encode()).hexdigest()
        sorted(lines, key=lambda line: line[::-1])
    spent = time.process_time() - start
    with tempfile.TemporaryDirectory() as folder:
        probe = "import os, research_radar; print(os.path.dirname(research_radar.__file__))"
        measured = _child([sys.executable, "-c", probe], Path(folder)).output.strip()
    return (
        f"machine: reference workload {spent * 1000:.0f} ms CPU; load average "
        f"{os.getloadavg()[0]:.1f}; measuring the package in {measured}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the sizes")
    parser.add_argument("--only", default="", help="comma-separated goals: " + ",".join(GOALS))
    parser.add_argument("--seed-history", nargs=2, metavar=("DB", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed_history:
        seed_history(Path(args.seed_history[0]), int(args.seed_history[1]))
        return
    sizes = Sizes()
    if args.quick:
        sizes = Sizes(1000, 100, 200, 2000, 10_000, 1000, 1000, 1000, 1000, 1.0)
    chosen = [name for name in args.only.split(",") if name] or list(GOALS)
    failed = 0
    print(machine_line(), flush=True)
    try:
        for name in chosen:
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    result = GOALS[name](Path(tmp), sizes)
                except Exception as exc:  # one goal's failure is reported, the others run
                    text = f"error: {type(exc).__name__}: {str(exc)[:200]}"
                    result = Result(name, text, False)
            failed += not result.ok
            print(result.line(), flush=True)
    finally:
        shutil.rmtree(PYCACHE, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
