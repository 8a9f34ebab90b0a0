"""A large batch's second half runs in a forked process, with the same results in order."""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from pathlib import Path

import pytest

from research_radar.cores import Ahead, aside, beside, can_fork, map_on_cores
from research_radar.errors import RenderError


def test_small_batches_stay_in_this_process() -> None:
    calls: list[str] = []
    result = map_on_cores(
        lambda n: (n * n, os.getpid()), range(10), meanwhile=lambda: calls.append("x")
    )
    assert [square for square, _ in result] == [n * n for n in range(10)]
    assert {pid for _, pid in result} == {os.getpid()}
    assert calls == ["x"], "meanwhile runs once, forked or not"


@pytest.mark.skipif(not can_fork(), reason="needs two cores and the fork start method")
def test_a_large_batch_forks_its_second_half_and_keeps_the_order() -> None:
    offset = 7  # a closure: the forked process inherits the job, nothing pickles it
    calls: list[int] = []
    items = list(range(101))
    result = map_on_cores(
        lambda n: (n + offset, os.getpid()),
        items,
        minimum=100,
        meanwhile=lambda: calls.append(os.getpid()),
    )
    assert [value for value, _ in result] == [n + offset for n in items]
    pids = [pid for _, pid in result]
    assert set(pids[:50]) == {os.getpid()} and calls == [os.getpid()]
    assert len(set(pids[50:])) == 1 and pids[50] != os.getpid()


@pytest.mark.skipif(not can_fork(), reason="needs two cores and the fork start method")
def test_an_error_in_the_forked_half_reaches_the_caller() -> None:
    def job(n: int) -> int:
        if n == 90:
            raise ValueError("item 90")
        return n

    with pytest.raises(ValueError, match="item 90"):
        map_on_cores(job, list(range(100)), minimum=10)


@pytest.mark.skipif(not can_fork(), reason="needs two cores and the fork start method")
def test_the_forked_process_can_take_more_than_half() -> None:
    result = map_on_cores(lambda n: (n, os.getpid()), list(range(100)), minimum=10, forked=0.7)
    assert [n for n, _ in result] == list(range(100))
    pids = [pid for _, pid in result]
    assert set(pids[:30]) == {os.getpid()} and os.getpid() not in pids[30:]


@pytest.mark.parametrize("fork", [pytest.param(False, id="inline"), pytest.param(True, id="fork")])
def test_a_job_beside_the_run_gives_its_result_and_the_run_goes_on(
    fork: bool, tmp_path: Path
) -> None:
    if fork and not can_fork():
        pytest.skip("needs two cores and the fork start method")
    target = tmp_path / "out.txt"
    seen: list[int] = []

    def job() -> tuple[int, str]:
        target.write_text("written", encoding="utf-8")
        return os.getpid(), str(target)

    def review() -> str:
        seen.append(os.getpid())
        return "review"

    (pid, written), other = beside(job, review, fork=fork)
    assert other == "review" and seen == [os.getpid()]
    assert (pid != os.getpid()) is fork
    assert Path(written).read_text(encoding="utf-8") == "written"


@pytest.mark.skipif(not can_fork(), reason="needs two cores and the fork start method")
def test_the_job_beside_raises_its_error_after_the_run_went_on() -> None:
    seen: list[str] = []

    def job() -> None:
        raise RenderError("cannot write the report")

    def meanwhile() -> None:
        seen.append("reviewed")
        raise ValueError("review failed too")

    with pytest.raises(RenderError, match="cannot write"):
        beside(job, lambda: seen.append("reviewed"), fork=True)
    with pytest.raises(RenderError, match="cannot write"):
        beside(job, meanwhile, fork=True)
    with pytest.raises(ValueError, match="review failed"):
        beside(lambda: 1, meanwhile, fork=True)
    assert seen == ["reviewed"] * 3


@pytest.mark.parametrize("fork", [pytest.param(False, id="inline"), pytest.param(True, id="fork")])
def test_a_job_aside_runs_while_the_block_goes_on(fork: bool) -> None:
    if fork and not can_fork():
        pytest.skip("needs two cores and the fork start method")
    with aside(lambda: ("rendered", os.getpid()), fork=fork) as result:
        here = os.getpid()
        value, pid = result()
    assert value == "rendered" and (pid != here) is fork

    def broken() -> str:
        raise RenderError("cannot render")

    with pytest.raises(RenderError, match="cannot render"), aside(broken, fork=fork) as failed:
        failed()
    with pytest.raises(RenderError, match="cannot render"), aside(broken, fork=fork):
        pass  # not asked for: raised on leaving the block


def test_a_small_batch_ahead_is_done_when_its_results_are_asked() -> None:
    calls: list[int] = []

    def job(n: int) -> tuple[int, int]:
        calls.append(n)
        return n * n, os.getpid()

    with Ahead(job, list(range(10)), minimum=100) as ahead:
        assert calls == [], "nothing is done before the results are asked"
        result = ahead.results()
    assert [square for square, _ in result] == [n * n for n in range(10)]
    assert {pid for _, pid in result} == {os.getpid()}


@pytest.mark.skipif(not can_fork(), reason="needs two cores and the fork start method")
def test_work_ahead_starts_at_once_and_this_process_takes_over_from_the_back(
    tmp_path: Path,
) -> None:
    here = os.getpid()
    started = tmp_path / "started"

    def job(n: int) -> tuple[int, int]:
        if os.getpid() != here:  # the forked process is slow: this one must take over
            started.touch()
            time.sleep(0.01)
        return n + 1, os.getpid()

    items = list(range(400))
    with Ahead(job, items, minimum=100, chunk=10) as ahead:
        deadline = time.monotonic() + 30
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.01)  # the run goes on with other work meanwhile
        result = ahead.results()
    assert [value for value, _ in result] == [n + 1 for n in items]
    pids = [pid for _, pid in result]
    assert pids[0] != here, "the forked process began with the first chunk"
    assert pids[-1] == here, "this process took the last chunks over"
    assert len(set(pids)) == 2
    assert not multiprocessing.active_children()


@pytest.mark.skipif(not can_fork(), reason="needs two cores and the fork start method")
def test_the_forked_chunks_come_back_in_the_format_given_and_this_process_reads_them_so() -> None:
    here = os.getpid()
    unpacked: list[bytes] = []

    def job(n: int) -> list[int]:
        if os.getpid() == here:
            time.sleep(0.01)  # this process is slow: the forked one does most chunks
        return [n, n * n]

    def unpack(data: bytes) -> list[list[int]]:
        unpacked.append(data)
        return [list(pair) for pair in json.loads(data)]

    with Ahead(job, list(range(100)), minimum=10, chunk=10, pack=_as_json, unpack=unpack) as a:
        time.sleep(0.2)
        result = a.results()
    assert result == [[n, n * n] for n in range(100)]
    assert unpacked, "the forked process's chunks came back packed"
    assert all(data.startswith(b"[[") for data in unpacked)


def _as_json(results: list[list[int]]) -> bytes:
    return json.dumps(results).encode()


@pytest.mark.skipif(not can_fork(), reason="needs two cores and the fork start method")
def test_a_chunk_the_forked_process_failed_or_died_on_is_done_here() -> None:
    here = os.getpid()

    def dies(n: int) -> int:
        if os.getpid() != here:
            os._exit(3)
        return n * 2

    with Ahead(dies, list(range(200)), minimum=10) as ahead:
        time.sleep(0.2)
        assert ahead.results() == [n * 2 for n in range(200)]

    def fails(n: int) -> int:
        if n == 5:
            raise ValueError("item 5")
        return n

    with pytest.raises(ValueError, match="item 5"), Ahead(fails, list(range(200)), minimum=10) as a:
        time.sleep(0.2)
        a.results()


@pytest.mark.skipif(not can_fork(), reason="needs two cores and the fork start method")
def test_leaving_the_block_unasked_stops_the_work_ahead() -> None:
    with Ahead(lambda n: time.sleep(0.05), list(range(1000)), minimum=10):
        assert multiprocessing.active_children()
    assert not multiprocessing.active_children()
