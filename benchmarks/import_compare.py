"""Does `radar history import` still write the same store? Old code against new (issue #19).

Writes the scale benchmark's generated history (N rows), imports it into an empty store
once with the source tree of a git revision and once with this checkout's, dumps every
table of both stores (rows sorted, the import's own timestamps blanked) and compares the
dumps byte for byte. Exits 1 when they differ and prints the first differing lines.

    .venv/bin/python benchmarks/import_compare.py --old main --rows 3000
    .venv/bin/python benchmarks/import_compare.py --old main --file seeds.md   # a file of yours
"""

from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
import tarfile
import tempfile
from datetime import date
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DUMP = """
import json, re, sys
from pathlib import Path
from sqlalchemy import MetaData, create_engine, select
from research_radar.history.imports import import_reports
from research_radar.store.store import open_store

report, db, out = (Path(arg) for arg in sys.argv[1:4])
summary = import_reports(open_store(str(db)), [report])
engine = create_engine(f"sqlite:///{db}")
tables = MetaData()
tables.reflect(engine)
now = re.compile(r"^20\\d\\d-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d+$")
dump = {"summary": summary.as_dict()}
with engine.connect() as conn:
    for name in sorted(set(tables.tables) - {"cursors"}):
        rows = conn.execute(select(tables.tables[name]))
        dump[name] = sorted([now.sub("<now>", str(value)) for value in row] for row in rows)
out.write_text(json.dumps(dump, ensure_ascii=False, indent=0, sort_keys=True), encoding="utf-8")
"""


def _source_of(revision: str, target: Path) -> Path:
    """The `src` tree of a git revision, extracted under `target`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "src"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    return target / "src"


def _dump(source: Path, report: Path, folder: Path) -> str:
    out = folder / "dump.json"
    folder.mkdir()
    subprocess.run(
        [sys.executable, "-c", DUMP, str(report), str(folder / "radar.db"), str(out)],
        check=True,
        env={**os.environ, "PYTHONPATH": str(source)},
    )
    return out.read_text(encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default="main", help="git revision of the old code")
    parser.add_argument("--rows", type=int, default=3000, help="history rows to import")
    parser.add_argument("--file", type=Path, help="import this report file instead")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from scale_bench import write_history_report

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        report = args.file.resolve() if args.file else folder / "history.md"
        if not args.file:
            write_history_report(report, args.rows, start=date(2025, 1, 1))
        old = _dump(_source_of(args.old, folder / "old-src"), report, folder / "old")
        new = _dump(ROOT / "src", report, folder / "new")
    what = args.file.name if args.file else f"{args.rows:,} rows"
    if old == new:
        print(f"identical: {what}, {len(new):,} bytes of store dump")
        return 0
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), "old", "new", lineterm="")
    print("\n".join(list(diff)[:40]))
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
