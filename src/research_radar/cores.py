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
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

__all__ = ["FORK_MIN", "aside", "beside", "can_fork", "map_on_cores"]

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
