"""A replay server in a process of its own.

`serve_replay` runs the server as a thread of the calling process, which suits tests that
inspect its request log or inject faults. A benchmark of the pipeline wants the other
thing: the real API is not in the measured process, so its answers must not take that
process's time (its interpreter lock above all). `serve_replay_process(root)` starts
`python -m research_radar.replay.process ROOT` and reads the server's URL from the
child's first line of output; the child serves until its standard input closes, which
`close()` (or the end of a `with` block) does.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import TracebackType

from research_radar.replay.server import sample_root, serve_replay

__all__ = ["ReplayProcess", "serve_replay_process"]

_READY_TIMEOUT = 60.0
"""Seconds the child may take to load the recorded payloads and print its URL."""


class ReplayProcess:
    """A replay server running in a child process (no faults, no request log).

    Attributes:
        url: base URL, e.g. http://127.0.0.1:54321 (GitHub API base).
        arxiv_url: the arXiv API query URL on that server.
        pid: the child's process id.
    """

    def __init__(self, root: Path):
        package_parent = str(Path(__file__).resolve().parent.parent.parent)
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_parent, path]))}
        self._child = subprocess.Popen(
            [sys.executable, "-m", "research_radar.replay.process", str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        assert self._child.stdout is not None  # Popen(stdout=PIPE) made it
        first = self._child.stdout.readline().decode("utf-8").strip()
        if not first.startswith("http://"):
            self.close()
            raise RuntimeError(
                f"the replay server process did not start (it said {first!r}); run "
                f"`python -m research_radar.replay.process {root}` to see why"
            )
        self.url = first
        self.arxiv_url = f"{self.url}/arxiv/api/query"
        self.pid = self._child.pid

    def close(self) -> None:
        """Stop the child (it exits when its input closes) and wait for it."""
        if self._child.stdin is not None and not self._child.stdin.closed:
            self._child.stdin.close()
        try:
            self._child.wait(timeout=_READY_TIMEOUT)
        except subprocess.TimeoutExpired:
            self._child.kill()
            self._child.wait()
        if self._child.stdout is not None:
            self._child.stdout.close()

    def __enter__(self) -> ReplayProcess:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def serve_replay_process(root: Path | None = None) -> ReplayProcess:
    """Start a replay server over `root` (default: the bundled sample) in a child process."""
    return ReplayProcess(root or sample_root())


def _main(argv: list[str]) -> None:
    """In the child: serve `argv[0]`, print the URL, and stop when stdin closes."""
    with serve_replay(Path(argv[0]) if argv else None) as server:
        sys.stdout.write(server.url + "\n")
        sys.stdout.flush()
        sys.stdin.read()


if __name__ == "__main__":
    _main(sys.argv[1:])
