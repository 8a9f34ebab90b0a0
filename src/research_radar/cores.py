"""Pure work of a large batch split over two cores: the second half in a forked process.

A run's Python shares one core's worth of time among its threads (#19). Where a stage's
work is pure and per item (the claims of each text, the rules of each title), half of a
large batch goes to a forked copy of the process, which inherits what is loaded (the job
itself included, so a closure or a partial over a taxonomy needs no pickling) and sends
back only the results, while this process does the first half and anything else it has
to do meanwhile. `aside` and `beside` run one whole job so (rendering or writing a large
report while the run goes on).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import pickle
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from functools import partial
from types import TracebackType
from typing import Any, Generic, TypeVar

__all__ = ["AHEAD_CHUNK", "FORK_MIN", "Ahead", "aside", "beside", "can_fork", "map_on_cores"]

In = TypeVar("In")
Out = TypeVar("Out")
Other = TypeVar("Other")

FORK_MIN = 400
"""Items from which the second half runs in a forked process (below, forking costs more
than it saves)."""

_INHERITED: list[Callable[[Any], Any]] = []
"""The job a forked worker inherits from this process (never pickled)."""


def can_fork() -> bool:
    """A second usable core, the fork start method, and a process allowed children."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        (cores or 1) >= 2
        and "fork" in multiprocessing.get_all_start_methods()
        and not multiprocessing.current_process().daemon
    )


def _run(job: Callable[[In], Out], items: Sequence[In]) -> list[Out]:
    return [job(item) for item in items]


def _run_inherited(items: Sequence[Any]) -> list[Any]:
    return _run(_INHERITED[-1], items)


def map_on_cores(
    job: Callable[[In], Out],
    items: Sequence[In],
    *,
    minimum: int = FORK_MIN,
    meanwhile: Callable[[], object] | None = None,
    forked: float = 0.5,
) -> list[Out]:
    """`[job(item) for item in items]`, with `meanwhile()` called once in this process;
    from `minimum` items on a machine that `can_fork`, the second half runs in a forked
    process while this one calls `meanwhile` and does the first half.

    `forked`: the share of the items (the last ones) the forked process takes: more than
    half leaves this process time for `meanwhile`. The items and the results must pickle
    (plain data or models); the job need not.
    """
    if len(items) < minimum or not can_fork():
        if meanwhile is not None:
            meanwhile()
        return _run(job, items)
    half = len(items) - math.ceil(len(items) * forked)
    _INHERITED.append(job)
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
            second = pool.submit(_run_inherited, items[half:])
            if meanwhile is not None:
                meanwhile()
            first = _run(job, items[:half])
            return first + second.result()
    finally:
        _INHERITED.pop()


def _call_inherited(_: None) -> Any:
    return _INHERITED[-1](None)


@contextmanager
def aside(job: Callable[[], Out], *, fork: bool) -> Iterator[Callable[[], Out]]:
    """Start `job` and give a function that waits for its result; with `fork` on a
    machine that `can_fork`, the job runs in a process forked on entering the block
    (before any transaction the block opens) while the block goes on, else at once here.

    For a pure job whose result pickles. Its error is raised by the result function, or
    on leaving the block when the result was not asked for.
    """
    if not fork or not can_fork():
        try:
            value = job()
        except BaseException as error:
            failure = error

            def fail() -> Out:
                raise failure

            yield fail
            raise
        yield lambda: value
        return
    _INHERITED.append(lambda _: job())
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
            pending = pool.submit(_call_inherited, None)
            yield pending.result
            pending.result()
    finally:
        _INHERITED.pop()


def beside(
    job: Callable[[], Out], meanwhile: Callable[[], Other], *, fork: bool
) -> tuple[Out, Other]:
    """`(job(), meanwhile())`; with `fork` on a machine that `can_fork`, `job` runs in a
    forked process while this one calls `meanwhile`.

    For a job whose effects are outside the process (files it writes) and whose result
    pickles. An error of either is raised here once both have ended, `job`'s first.
    """
    if not fork or not can_fork():
        return job(), meanwhile()
    with aside(job, fork=True) as result:
        try:
            other = meanwhile()
        except BaseException:
            result()  # the job's error comes first
            raise
        return result(), other


AHEAD_CHUNK = 64
"""Items an `Ahead` process (or this one, taking over) does at a time."""


class Ahead(Generic[In, Out]):
    """`[job(item) for item in items]` started now in a forked process, one chunk after the
    other from the front, while this process goes on with other work (saving, reading);
    `results()` later gives every item's result, this process doing the chunks the forked
    one has not begun, from the back, so that neither waits for the other (#19).

    Below `minimum` items, or on a machine that cannot fork, nothing starts: `results()`
    does all the work then. A chunk the forked process did not deliver (it failed or was
    killed) is done again here, so the job's own error is raised here. The job must be
    pure; the items need not pickle, the results must, or `pack` must turn a chunk's
    results into bytes that `unpack` turns back into equal results (a format cheaper to
    read back than pickle's, which this process pays for). Use as a context manager:
    leaving the block stops the forked process.
    """

    def __init__(
        self,
        job: Callable[[In], Out],
        items: Sequence[In],
        *,
        minimum: int = FORK_MIN,
        chunk: int = AHEAD_CHUNK,
        pack: Callable[[list[Out]], bytes] | None = None,
        unpack: Callable[[bytes], list[Out]] | None = None,
    ) -> None:
        self._job, self._items, self._chunk = job, items, chunk
        self._pack = pack or partial(pickle.dumps, protocol=pickle.HIGHEST_PROTOCOL)
        self._unpack: Callable[[bytes], list[Out]] = unpack or pickle.loads
        self._chunks = math.ceil(len(items) / chunk)
        self._process: Any = None
        if len(items) < minimum or not can_fork():
            return
        context = multiprocessing.get_context("fork")
        self._lock = context.Lock()
        # [next chunk the forked process takes, first chunk this process has taken]
        self._bounds = context.RawArray("i", [0, self._chunks])
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(target=self._work, args=(send,), daemon=True)
        self._process.start()
        send.close()

    def _take_front(self) -> int | None:
        with self._lock:
            front, back = int(self._bounds[0]), int(self._bounds[1])
            if front >= back:
                return None
            self._bounds[0] = front + 1
            return front

    def _take_back(self) -> int | None:
        with self._lock:
            front, back = int(self._bounds[0]), int(self._bounds[1])
            if front >= back:
                return None
            self._bounds[1] = back - 1
            return back - 1

    def _do(self, index: int) -> list[Out]:
        start = index * self._chunk
        return [self._job(item) for item in self._items[start : start + self._chunk]]

    def _work(self, send: Any) -> None:
        """In the forked process: chunks from the front until they meet this process's,
        then every finished chunk's results in one message.

        Each chunk's results are packed as soon as they are made: pickling them all at
        the end kept this process waiting for it (a twentieth of the work, #19)."""
        done: dict[int, bytes] = {}
        try:
            while (index := self._take_front()) is not None:
                done[index] = self._pack(self._do(index))
        except BaseException:  # noqa: S110 - this process redoes the chunk and raises its error
            pass
        try:
            send.send(done)
        except BaseException:  # noqa: S110 - the parent left: nothing to deliver
            pass
        finally:
            send.close()

    def results(self) -> list[Out]:
        """Every item's result, in order (once)."""
        if self._process is None:
            return self._run_all()
        mine: dict[int, list[Out]] = {}
        while (index := self._take_back()) is not None:
            mine[index] = self._do(index)
        try:
            sent: dict[int, bytes] = self._receive.recv()
        except EOFError:  # the forked process died: its chunks are done here
            sent = {}
        self._stop(kill=False)
        found = {index: self._unpack(chunk) for index, chunk in sent.items()} | mine
        return [
            result
            for index in range(self._chunks)
            for result in (found[index] if index in found else self._do(index))
        ]

    def _run_all(self) -> list[Out]:
        return [self._job(item) for item in self._items]

    def _stop(self, *, kill: bool) -> None:
        """End the forked process: wait for it once it has sent its results, else `kill`."""
        if self._process is None:
            return
        process, self._process = self._process, None
        self._receive.close()
        if kill:
            process.kill()
        process.join()

    def __enter__(self) -> Ahead[In, Out]:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop(kill=True)
