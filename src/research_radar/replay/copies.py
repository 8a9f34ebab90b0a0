"""A bigger replay corpus: the bundled sample plus renamed copies of its repositories.

Used by the scale tests and benchmarks, which need many candidates that the replay server
serves like any other repository (each copy gets its own id, name and creation time).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from research_radar.replay.server import sample_root

__all__ = ["copy_sample_repos"]

Decorate = Callable[[int, dict[str, Any], Path], None]
"""Called for copy `n` with its metadata (changed in place) and its folder."""


def copy_sample_repos(
    target: Path,
    count: int,
    *,
    owner: str = "bench",
    owners: int = 50,
    first_id: int = 800_000_000,
    skip: frozenset[str] = frozenset({"example-org", "kvtinker"}),
    decorate: Decorate | None = None,
) -> list[str]:
    """Copy the bundled sample to `target` and add `count` renamed copies of its
    repositories (those of owners not in `skip`), spread over `owners` owners named
    `owner0`, `owner1`, …; copy `n` is created `n` seconds after 2026-08-27T00:00Z.

    Returns the copies' owner/name, in order.
    """
    shutil.copytree(sample_root(), target)
    repos = target / "github" / "repos"
    originals = sorted(p for p in repos.glob("*/*.json") if p.parent.name not in skip)
    names = []
    for n in range(count):
        source = originals[n % len(originals)]
        folder_owner = repos / f"{owner}{n % owners}"
        folder_owner.mkdir(exist_ok=True)
        name = f"{source.stem.lower()}-{n}"
        data = json.loads(source.read_text(encoding="utf-8"))
        created = datetime(2026, 8, 27, tzinfo=UTC) + timedelta(seconds=n)
        data.update(
            id=first_id + n,
            name=name,
            full_name=f"{folder_owner.name}/{name}",
            fork=False,
            created_at=created.isoformat().replace("+00:00", "Z"),
        )
        folder = folder_owner / name
        shutil.copytree(source.with_suffix(""), folder)
        if decorate is not None:
            decorate(n, data, folder)
        (folder_owner / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
        names.append(f"{folder_owner.name}/{name}")
    return names
