"""Pure work of a large batch split over two cores: the second half in a forked process.

The pipeline runs in one process whose threads share one core's worth of Python (#19); a
stage whose work is pure and per item (claims of each text) hands half of a large batch to
a forked copy of the process, which inherits what is loaded and sends back only results.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

__all__ = ["FORK_MIN", "map_on_cores"]

In = TypeVar("In")
Out = TypeVar("Out")

FORK_MIN = 400
"""Items from which the second half runs in a forked process (below, forking costs more
than it saves)."""


def _run(job: Callable[[In], Out], items: Sequence[In]) -> list[Out]:
    return [job(item) for item in items]


def map_on_cores(
    job: Callable[[In], Out], items: Sequence[In], *, minimum: int = FORK_MIN
) -> list[Out]:
    """`[job(item) for item in items]`; from `minimum` items on a machine of several cores
    with fork, the second half runs in a forked process meanwhile.

    `job` and the results must pickle (a module-level function; plain data or models).
    """
    fork = "fork" in multiprocessing.get_all_start_methods()
    if len(items) < minimum or not fork or (os.cpu_count() or 1) < 2:
        return _run(job, items)
    half = len(items) // 2
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        second = pool.submit(_run, job, items[half:])
        first = _run(job, items[:half])
        return first + second.result()
