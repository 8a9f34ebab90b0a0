"""Bad input, table-driven: every case gets one clear `Error:` line (or a decoded reading),
the right exit code, no traceback, and leaves nothing behind (no folder, no empty store).

Exit codes: 2 for input the command cannot use (a usage error: nothing was done), 1 for a
store that cannot be written or a run that cannot be undone.
"""

from __future__ import annotations

import codecs
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from research_radar.cli import app
from research_radar.errors import InputError
from research_radar.models import BEIJING
from research_radar.sample.demo import SAMPLE_HISTORY
from research_radar.store.store import open_store
from research_radar.textinput import decode_text

runner = CliRunner()

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000") + bytes(64)
GZIP = bytes.fromhex("1f8b08000000000000034b4c4a0600c241243503000000")
ZIP = b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(range(40))
PDF_HEAD = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nstream\n\x00\x01\x02\x03\x04\x05endstream"
ELF = b"\x7fELF\x02\x01\x01\x00" + bytes(56)
TERMINAL = b"report \x1b[2J\x1b[31mred\x07\x08\x1b]0;title\x07 more\x1b[0m" * 4
CLAIM_ZH = (
    "推理引擎 NInfer on RTX 4090 reaches 3.2x speedup with FP16 on Qwen3-8B，比 llama.cpp 快。\n"
)
SAMPLE_REPORT = (SAMPLE_HISTORY / "2026-08-22.md").read_bytes()
CLAIM_EN = "Café team: 120 tok/s on A100 with Llama-3-8B FP16 vs vLLM, naïve façade.\n"


@dataclass
class Case:
    """One bad input: the command line (FILE and DIR stand for prepared paths)."""

    args: list[str]
    code: int
    says: str
    file: bytes | None = None
    """Contents of FILE (None: FILE does not exist)."""
    setup: Callable[[Path], None] | None = None
    absent: list[str] = field(default_factory=list)
    """Paths (relative to the test folder) that must not exist afterwards."""


def _store_with_report(folder: Path) -> None:
    """A store whose first report is dated 2026-08-20 (for --date checks)."""
    store = open_store(str(folder / "radar.db"))
    with store.transaction() as conn:
        store.save_report(conn, datetime(2026, 8, 20).date(), "zh", "# r", {})
    store.close()


def _plain_store(folder: Path) -> None:
    open_store(str(folder / "radar.db")).close()


def _text_file_db(folder: Path) -> None:
    (folder / "radar.db").write_text("my notes, not a database\n", encoding="utf-8")


def _file_named_sub(folder: Path) -> None:
    (folder / "sub").write_text("a file\n", encoding="utf-8")


def _folder(folder: Path) -> None:
    (folder / "DIR").mkdir()


FILE_CONTENTS = {
    "empty": (b"", "is empty"),
    "whitespace": (b" \n\t\n  \r\n", "is empty"),
    "utf8-bom-only": (codecs.BOM_UTF8, "is empty"),
    "utf16-bom-only": (codecs.BOM_UTF16_LE, "is empty"),
    "png": (PNG, "binary"),
    "gzip": (GZIP, "binary"),
    "zip": (ZIP, "binary"),
    "pdf": (PDF_HEAD, "binary"),
    "elf": (ELF, "binary"),
    "terminal-escapes": (TERMINAL, "binary"),
    "sqlite": (b"SQLite format 3\x00" + bytes(200), "binary"),
    "nul-in-text": (b"# report\n\nline one\x00line two\n", "binary"),
}
COMMANDS = {
    "review": ["review", "FILE", "--offline"],
    "extract": ["extract", "FILE"],
    "history-import": ["history", "import", "FILE", "--db", "DB"],
}

CASES: list[object] = []
for command, args in COMMANDS.items():
    for name, (data, says) in FILE_CONTENTS.items():
        CASES.append(pytest.param(Case(args, 2, says, file=data), id=f"{command}-{name}"))
    CASES.append(pytest.param(Case(args, 2, "not found"), id=f"{command}-missing-file"))
    folder_args = [("DIR" if a == "FILE" else a) for a in args]
    CASES.append(
        pytest.param(Case(folder_args, 2, "is a folder", setup=_folder), id=f"{command}-folder")
    )

_FUTURE = (datetime.now(BEIJING) + timedelta(days=400)).date().isoformat()
CASES += [
    # --date
    pytest.param(Case(["daily", "--date", "1900-01-01", "--db", "DB"], 2,
                      "before this store's first report", setup=_store_with_report),
                 id="daily-date-1900"),
    pytest.param(Case(["daily", "--date", "2026-08-19", "--db", "DB"], 2,
                      "before this store's first report", setup=_store_with_report),
                 id="daily-date-day-before-first-report"),
    pytest.param(Case(["daily", "--date", _FUTURE, "--db", "DB"], 2,
                      "more than a day after today", setup=_store_with_report),
                 id="daily-date-far-future"),
    pytest.param(Case(["daily", "--date", "2026-13-01", "--db", "DB"], 2, "not a date"),
                 id="daily-date-month-13"),
    pytest.param(Case(["daily", "--date", "2026-02-30", "--db", "DB"], 2, "not a date"),
                 id="daily-date-february-30"),
    pytest.param(Case(["daily", "--date", "yesterday", "--db", "DB"], 2, "not a date"),
                 id="daily-date-word"),
    pytest.param(Case(["daily", "--date", "", "--db", "DB"], 2, "not a date"),
                 id="daily-date-empty"),
    pytest.param(Case(["daily", "--date", "２０２６-０８-２９", "--db", "DB"], 2, "not a date"),
                 id="daily-date-full-width"),
    # --out
    pytest.param(Case(["daily", "--sample", "--db", "DB", "--out", "DIR"], 2, "is a folder",
                      setup=_folder, absent=["radar.db"]), id="daily-out-folder"),
    pytest.param(Case(["daily", "--sample", "--db", "DB", "--out", "sub/deeper/r.md"], 2,
                      "is under", setup=_file_named_sub, absent=["radar.db"]),
                 id="daily-out-under-a-file"),
    pytest.param(Case(["review", "FILE", "--offline", "--out", "DIR"], 2, "is a folder",
                      file=CLAIM_EN.encode(), setup=_folder), id="review-out-folder"),
    # --db
    pytest.param(Case(["runs", "--db", "missing/deeper/radar.db"], 1, "no store at",
                      absent=["missing"]), id="runs-db-under-missing-folder"),
    pytest.param(Case(["daily", "--sample", "--db", "missing/deeper/radar.db"], 1,
                      "does not exist", absent=["missing"]), id="daily-db-under-missing-folder"),
    pytest.param(Case(["collect", "-s", "inbox", "--db", "missing/x.db"], 1, "does not exist",
                      absent=["missing"]), id="collect-db-under-missing-folder"),
    pytest.param(Case(["daily", "--sample", "--db", "sub/radar.db"], 1, "not a folder",
                      setup=_file_named_sub), id="daily-db-under-a-file"),
    pytest.param(Case(["daily", "--sample", "--db", "DIR"], 1, "is a folder", setup=_folder),
                 id="daily-db-is-a-folder"),
    pytest.param(Case(["runs", "--db", "DIR"], 1, "is a folder", setup=_folder),
                 id="runs-db-is-a-folder"),
    pytest.param(Case(["runs", "--db", "DB"], 1, "not a radar store", setup=_text_file_db),
                 id="runs-db-not-a-store"),
    pytest.param(Case(["daily", "--sample", "--db", "DB"], 1, "nothing was changed",
                      setup=_text_file_db), id="daily-db-not-a-store"),
    pytest.param(Case(["runs", "--db", "DB"], 1, "no store at", absent=["radar.db"]),
                 id="runs-no-store-makes-none"),
    pytest.param(Case(["history", "list", "--db", "DB"], 1, "no store at", absent=["radar.db"]),
                 id="history-list-no-store-makes-none"),
    pytest.param(Case(["runs", "--db", "postgresql+nodriver://u@127.0.0.1:1/x"], 1,
                      "cannot open the store"), id="runs-db-unknown-driver"),
    # read-only stores (a read-only SQLite connection: root ignores file modes)
    pytest.param(Case(["daily", "--db", "RO", "--date", "2026-08-29"], 1, "read-only",
                      setup=_plain_store), id="daily-read-only-store"),
    pytest.param(Case(["history", "import", "FILE", "--db", "RO"], 1, "read-only",
                      file=SAMPLE_REPORT, setup=_plain_store),
                 id="history-import-read-only-store"),
    # collect options
    pytest.param(Case(["collect", "--since", "last week", "--db", "DB"], 2, "not a date"),
                 id="collect-since-words"),
    pytest.param(Case(["collect", "--until", "2026-08-29T25:00", "--db", "DB"], 2, "not a date"),
                 id="collect-until-hour-25"),
    pytest.param(Case(["collect", "--source", "twitter", "--db", "DB"], 2, "unknown source"),
                 id="collect-unknown-source"),
    # runs undo
    pytest.param(Case(["runs", "undo", "999", "--db", "DB"], 1, "no run 999",
                      setup=_plain_store), id="undo-unknown-run"),
    pytest.param(Case(["runs", "undo", "seven", "--db", "DB"], 2, "valid integer",
                      setup=_plain_store), id="undo-not-a-number"),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_bad_input_gets_one_clear_error(case: Case, tmp_path: Path) -> None:
    if case.setup is not None:
        case.setup(tmp_path)
    if case.file is not None:
        (tmp_path / "FILE.md").write_bytes(case.file)
    ro = f"sqlite:///file:{tmp_path / 'radar.db'}?mode=ro&uri=true"
    replace = {
        "FILE": str(tmp_path / "FILE.md"),
        "DIR": str(tmp_path / "DIR"),
        "DB": str(tmp_path / "radar.db"),
        "RO": ro,
    }
    args = [replace.get(arg, arg) for arg in case.args]
    args = [str(tmp_path / a) if a.startswith(("missing/", "sub/")) else a for a in args]
    before = sorted(p.name for p in tmp_path.iterdir())
    result = runner.invoke(app, args, env={"COLUMNS": "200", "RADAR_CONFIG": ""})
    output = " ".join(result.output.split())
    assert result.exit_code == case.code, result.output
    assert case.says in output, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), repr(result.exception)
    for name in case.absent:
        assert not (tmp_path / name).exists(), f"{name} was created"
    if case.code == 2:
        # SQLite's write-ahead log files beside an existing store are the database's own,
        # not something the command made
        after = sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm")))
        assert after == before, "a refused command leaves nothing behind"


def test_bad_input_has_at_least_sixty_cases() -> None:
    assert len(CASES) + len(ENCODED) >= 60


# -- text in other encodings is read, not mangled ---------------------------------------

ENCODED = [
    pytest.param(CLAIM_ZH, "gbk", id="gbk"),
    pytest.param(CLAIM_ZH, "gb18030", id="gb18030"),
    pytest.param(CLAIM_ZH, "utf-16", id="utf-16-with-bom"),
    pytest.param(CLAIM_ZH, "utf-16-le", id="utf-16-le-without-bom"),
    pytest.param(CLAIM_ZH, "utf-8-sig", id="utf-8-with-bom"),
    pytest.param(CLAIM_ZH, "big5", id="big5"),
    pytest.param(CLAIM_EN, "latin-1", id="latin-1"),
    pytest.param(CLAIM_EN.replace("naïve", "“naïve”"), "cp1252", id="windows-1252"),
    pytest.param(CLAIM_EN, "utf-32", id="utf-32-with-bom"),
]


@pytest.mark.parametrize(("text", "encoding"), ENCODED)
def test_text_in_another_encoding_is_decoded_exactly(
    text: str, encoding: str, tmp_path: Path
) -> None:
    data = (text * 3).encode(encoding)
    assert decode_text(data, "x").text == text * 3
    path = tmp_path / "README.md"
    path.write_bytes(data)
    result = runner.invoke(app, ["extract", str(path), "--json"])
    assert result.exit_code == 0, result.output
    claims = json.loads(result.stdout)
    assert claims and all(c["text"] in text for c in claims)


def test_an_undecodable_file_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "mixed.md"
    path.write_bytes(b"\x81\xff\xfe\x80 " * 10 + "UTF-8 text ✓".encode() + b"\xc3\x28" * 10)
    result = runner.invoke(app, ["review", str(path), "--offline"])
    assert result.exit_code == 2 and "mixed.md" in result.output
    assert "Traceback" not in result.output


def test_decode_errors_name_the_file() -> None:
    with pytest.raises(InputError, match="report.md is binary"):
        decode_text(PNG, "report.md")


def test_a_read_only_store_still_answers_read_commands(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "radar.db"))
    store.end_run(store.start_run("daily"), "ok", {})
    store.close()
    ro = f"sqlite:///file:{tmp_path / 'radar.db'}?mode=ro&uri=true"
    result = runner.invoke(app, ["runs", "--db", ro, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["status"] == "ok"
    with sqlite3.connect(tmp_path / "radar.db") as conn:
        assert conn.execute("select count(*) from runs").fetchone() == (1,)
