"""The run log of a store: runs and their stages, and the lock that keeps two runs on one
shared store from interleaving. `Store` inherits it; everything here reads and writes the
`runs` and `stage_runs` tables only."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, select

from research_radar.store.schema import runs, stage_runs

__all__ = ["RunLog", "now"]


def now() -> datetime:
    """The moment the store stamps a run, a stage or a row with (UTC)."""
    return datetime.now(UTC)


_RUN_LOCK = 0x52414441524E  # the PostgreSQL advisory lock of a run ("RADARN")


def _owner_gone(summary: Any) -> bool:
    """True when a run's process ran on this machine and no longer exists."""
    if not isinstance(summary, dict) or summary.get("host") != socket.gethostname():
        return False
    pid = summary.get("pid")
    if not isinstance(pid, int) or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class RunLog:
    """Runs and stages of one store (the part of `Store` that records what ran)."""

    engine: Engine
    _exclusive_depth: int

    if TYPE_CHECKING:

        def transaction(self) -> AbstractContextManager[Connection]: ...

    def start_run(self, command: str) -> int:
        """Record a new run (marking earlier runs whose process died as interrupted)."""
        self.mark_interrupted()
        owner = {"pid": os.getpid(), "host": socket.gethostname()}
        with self.transaction() as conn:
            result = conn.execute(
                runs.insert().values(
                    command=command, started_at=now(), status="running", summary=owner
                )
            )
            return int(result.inserted_primary_key[0])  # type: ignore[index]

    def end_run(self, run_id: int, status: str, summary: dict[str, Any]) -> None:
        with self.transaction() as conn:
            conn.execute(
                runs.update()
                .where(runs.c.id == run_id)
                .values(ended_at=now(), status=status, summary=summary)
            )

    def mark_interrupted(self) -> int:
        """Mark as `interrupted` the runs still `running` whose process on this machine is
        gone (killed, or the machine restarted). Returns how many were marked."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(runs.c.id, runs.c.summary).where(runs.c.status == "running")
            ).all()
        dead = [row[0] for row in rows if _owner_gone(row[1])]
        if dead:
            with self.transaction() as conn:
                conn.execute(
                    runs.update()
                    .where(runs.c.id.in_(dead), runs.c.status == "running")
                    .values(status="interrupted")
                )
        return len(dead)

    @contextmanager
    def exclusive(self, waiting: Callable[[], None] | None = None) -> Iterator[None]:
        """Hold the store's run lock, so two runs on one shared store never interleave.

        On PostgreSQL a session advisory lock: a second `radar daily` waits (calling
        `waiting` once) until the first is done, then finds its work already stored. SQLite
        serialises writers itself, so there it is a no-op. Nested calls on one Store hold
        the one lock.
        """
        if self.engine.dialect.name != "postgresql" or self._exclusive_depth:
            self._exclusive_depth += 1
            try:
                yield
            finally:
                self._exclusive_depth -= 1
            return
        self._exclusive_depth += 1
        try:
            with self._advisory_lock(waiting):
                yield
        finally:
            self._exclusive_depth -= 1

    @contextmanager
    def _advisory_lock(self, waiting: Callable[[], None] | None) -> Iterator[None]:
        with self.engine.connect() as conn:
            got = conn.exec_driver_sql(f"SELECT pg_try_advisory_lock({_RUN_LOCK})").scalar()
            if not got:
                if waiting is not None:
                    waiting()
                conn.exec_driver_sql(f"SELECT pg_advisory_lock({_RUN_LOCK})")
            conn.commit()
            try:
                yield
            finally:
                conn.exec_driver_sql(f"SELECT pg_advisory_unlock({_RUN_LOCK})")
                conn.commit()

    def start_stage(self, run_id: int, stage: str) -> int:
        with self.transaction() as conn:
            result = conn.execute(
                stage_runs.insert().values(
                    run_id=run_id, stage=stage, started_at=now(), status="running"
                )
            )
            return int(result.inserted_primary_key[0])  # type: ignore[index]

    def end_stage(
        self, stage_id: int, status: str, counts: dict[str, Any], errors: dict[str, Any]
    ) -> None:
        with self.transaction() as conn:
            conn.execute(
                stage_runs.update()
                .where(stage_runs.c.id == stage_id)
                .values(ended_at=now(), status=status, counts=counts, errors=errors)
            )

    def load_runs(self, limit: int = 20) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(runs).order_by(runs.c.id.desc()).limit(limit)).mappings()
            result = [dict(row) for row in rows]
            for run in result:
                if run["status"] == "running" and _owner_gone(run["summary"]):
                    run["status"] = "interrupted"
                stages = conn.execute(
                    select(stage_runs)
                    .where(stage_runs.c.run_id == run["id"])
                    .order_by(stage_runs.c.id)
                ).mappings()
                run["stages"] = [dict(stage) for stage in stages]
        return result

    def last_stage_end(self, command_prefix: str, stage: str) -> datetime | None:
        """When `stage` last ended in a run that finished ok and whose command starts with
        `command_prefix` (e.g. the collect stage of the last complete `daily`)."""
        query = (
            select(stage_runs.c.ended_at)
            .join(runs, runs.c.id == stage_runs.c.run_id)
            .where(
                runs.c.command.startswith(command_prefix),
                runs.c.status == "ok",
                stage_runs.c.stage == stage,
                stage_runs.c.ended_at.is_not(None),
            )
            .order_by(stage_runs.c.ended_at.desc())
            .limit(1)
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else row[0]
