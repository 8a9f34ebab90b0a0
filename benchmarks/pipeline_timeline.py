"""Where a replayed pipeline run spends its CPU (issue #19): per stage, the seconds of the
run's process, of the processes it forked, of the replay server, and of the run's own
threads (the main one, the fetching pools, any other).

Goal 6 of `scale_bench.py` times the same run; on two cores it can only be as fast as
the CPU all of these spend, so read this before deciding what to make cheaper. A
sampling thread reads `/proc` every quarter second and at each stage's start and end
(Linux only); its own CPU falls in the main process's column and is printed apart.

    .venv/bin/python benchmarks/pipeline_timeline.py 2000
    .venv/bin/python benchmarks/pipeline_timeline.py 10000 --replay /tmp/replay-10k

`--replay` keeps the generated replay folder for the next run (it is made once).
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from scale_bench import build_replay, pipeline_settings

from research_radar.pipeline.run import run_daily
from research_radar.replay.process import serve_replay_process
from research_radar.store.store import open_store

TICK = os.sysconf("SC_CLK_TCK")
PERIOD = 0.25
"""Seconds between two samples."""
COLUMNS = ("main", "forks", "server")
THREADS = ("main", "pool", "other")
"""The run's threads: its main thread, the fetching pools (ThreadPoolExecutor), others
(process pool managers, native threads of libraries)."""


def _stat(path: str) -> tuple[int, float] | None:
    """(parent pid, user + system CPU seconds) of a /proc stat file; None when gone."""
    try:
        with open(path, encoding="ascii") as file:
            text = file.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK


def _family(root: int) -> dict[int, float]:
    """CPU seconds of `root` and of every process below it."""
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit() and (found := _stat(f"/proc/{name}/stat")) is not None:
            parents[int(name)] = found
    cpu = {root: parents[root][1]} if root in parents else {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, seconds) in parents.items():
            if ppid == parent and pid not in cpu:
                cpu[pid] = seconds
                frontier.append(pid)
    return cpu


@dataclass
class Sampler:
    """CPU seconds per (stage, column) and per (stage, thread kind), from samples."""

    server: int = 0
    stage: str = "start"
    spent: dict[tuple[str, str], float] = field(default_factory=dict)
    threads: dict[tuple[str, str], float] = field(default_factory=dict)
    last: dict[int, float] = field(default_factory=dict)
    last_thread: dict[int, float] = field(default_factory=dict)
    kinds: dict[int, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopped: bool = False
    me: int = field(default_factory=os.getpid)

    def sample(self) -> None:
        """Add what each process and thread spent since the last sample to the stage."""
        processes = _family(self.me)
        for thread in threading.enumerate():
            if thread.native_id is not None:
                self.kinds.setdefault(thread.native_id, _kind(thread, self.me))
        tasks = {
            int(tid): found[1]
            for tid in os.listdir(f"/proc/{self.me}/task")
            if (found := _stat(f"/proc/{self.me}/task/{tid}/stat")) is not None
        }
        with self.lock:
            for pid, seconds in processes.items():
                column = "main" if pid == self.me else "server" if pid == self.server else "forks"
                self._add(self.spent, column, seconds - self.last.get(pid, 0.0))
                self.last[pid] = seconds
            for tid, seconds in tasks.items():
                kind = self.kinds.get(tid, "other")
                self._add(self.threads, kind, seconds - self.last_thread.get(tid, 0.0))
                self.last_thread[tid] = seconds

    def _add(self, table: dict[tuple[str, str], float], column: str, seconds: float) -> None:
        table[(self.stage, column)] = table.get((self.stage, column), 0.0) + seconds

    def loop(self) -> None:
        while not self.stopped:
            self.sample()
            time.sleep(PERIOD)


def _kind(thread: threading.Thread, me: int) -> str:
    if thread.native_id == me:
        return "main"
    if thread.name == "sampler":
        return "sampler"
    return "pool" if thread.name.startswith("ThreadPoolExecutor") else "other"


def timeline(count: int, replay: Path) -> None:
    """Run the pipeline over `count` replayed candidates and print its timeline."""
    listed = replay / "repos.txt"
    if listed.is_file():
        repos = listed.read_text(encoding="utf-8").split()
    else:
        repos = build_replay(replay, count)
        listed.write_text("\n".join(repos), encoding="utf-8")
    walls: dict[str, float] = {}
    order: list[str] = []
    with tempfile.TemporaryDirectory() as tmp, serve_replay_process(replay) as server:
        sampler = Sampler(server=server.pid)
        sampler.sample()  # what was spent before the run (replay, imports) is left out
        sampler.spent.clear()
        sampler.threads.clear()

        def progress(stage: str, what: str) -> None:
            sampler.sample()
            with sampler.lock:
                if what == "start":
                    sampler.stage, walls[stage] = stage, time.perf_counter()
                    order.append(stage)
                elif what == "done":
                    walls[stage] = time.perf_counter() - walls[stage]
                    sampler.stage = "between"

        settings = pipeline_settings(Path(tmp), server.url, server.arxiv_url, repos)
        thread = threading.Thread(target=sampler.loop, name="sampler", daemon=True)
        thread.start()
        started = time.perf_counter()
        store = open_store(str(Path(tmp) / "radar.db"))
        result = run_daily(
            store,
            settings,  # type: ignore[arg-type]
            day=date(2026, 8, 29),
            since=datetime(2024, 9, 1, tzinfo=UTC),
            progress=progress,
        )
        total = time.perf_counter() - started
        sampler.sample()
        sampler.stopped = True
        store.engine.dispose()
    _print(sampler, walls, [*order, "between"], total, len(result.report.findings))


def _print(
    sampler: Sampler, walls: dict[str, float], stages: list[str], total: float, found: int
) -> None:
    print(f"{len(sampler.last_thread)} threads sampled; {found} findings; CPU seconds:")
    head = " ".join(f"{name:>7}" for name in COLUMNS)
    threads = " ".join(f"{'t.' + name:>7}" for name in THREADS)
    print(f"{'stage':<10} {'wall':>7} {head} | {threads}")
    for stage in [*stages, "total"]:
        every = stage == "total"
        row = [
            sum(v for (s, c), v in sampler.spent.items() if c == column and (every or s == stage))
            for column in COLUMNS
        ]
        kinds = [
            sum(v for (s, k), v in sampler.threads.items() if k == kind and (every or s == stage))
            for kind in THREADS
        ]
        wall = total if every else walls.get(stage, 0.0)
        cells = " ".join(f"{value:7.2f}" for value in row)
        print(f"{stage:<10} {wall:7.2f} {cells} | " + " ".join(f"{v:7.2f}" for v in kinds))
    own = sum(v for (_, k), v in sampler.threads.items() if k == "sampler")
    print(f"(the sampler's own {own:.2f} s are in the main column, not in t.main)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("count", type=int, nargs="?", default=2000, help="replayed candidates")
    parser.add_argument("--replay", type=Path, help="replay folder to make once and reuse")
    args = parser.parse_args()
    if args.replay is not None:
        timeline(args.count, args.replay)
        return
    folder = Path(tempfile.mkdtemp(prefix="timeline-"))
    try:
        timeline(args.count, folder / "replay")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
