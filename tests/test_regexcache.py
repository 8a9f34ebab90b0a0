"""Compiled regular expressions kept between runs: a pattern made from the file is the
pattern `re` makes, and nothing the file holds (or lacks) changes what `re` gives."""

from __future__ import annotations

import importlib
import os
import re
from pathlib import Path

import pytest

from research_radar.cli import user_cache_folder
from research_radar.regexcache import PatternCache, cache_file, cached_patterns

COMPILER = importlib.import_module("re._compiler")

PATTERNS = [
    pytest.param(r"(?P<n>\d+(?:\.\d+)?)\s*(?:ms|s)\b", 0, id="named-group"),
    pytest.param(r"tokens?/s|吞吐|(?i:TFLOPS)", re.IGNORECASE, id="cjk-ignorecase"),
    pytest.param(r"^\s*#\s+(.+)$", re.MULTILINE, id="multiline"),
    pytest.param(r"(a)(b)?(?(2)c|d)", 0, id="conditional"),
    pytest.param(rb"\x00[\x01-\x7f]{2,}", 0, id="bytes"),
    pytest.param(r"(?x) a \s+ b  # comment", 0, id="verbose"),
]


def _compiled_twice(folder: Path, pattern: str | bytes, flags: int) -> re.Pattern[str]:
    """The pattern compiled in a first run (which writes it) and again in a second."""
    for _run in range(2):
        re.purge()  # `re`'s own cache of this process, which the next run would not have
        with cached_patterns(folder) as cache:
            compiled = re.compile(pattern, flags)
    assert cache is not None
    assert (pattern, flags) in cache.used  # the second run made it from the file
    return compiled  # type: ignore[return-value]


@pytest.mark.parametrize(("pattern", "flags"), PATTERNS)
def test_a_pattern_from_the_file_is_the_one_re_makes(
    tmp_path: Path, pattern: str | bytes, flags: int
) -> None:
    made = _compiled_twice(tmp_path, pattern, flags)
    re.purge()
    expected = re.compile(pattern, flags)
    assert made == expected  # the flags and the whole program
    assert (made.groups, made.groupindex, made.flags) == (
        expected.groups,
        expected.groupindex,
        expected.flags,
    )


def test_a_pattern_from_the_file_finds_what_re_finds(tmp_path: Path) -> None:
    made = _compiled_twice(tmp_path, r"(?P<value>\d+)\s*(?P<unit>ms|tok/s)", 0)
    text = "decode 12 ms, 340 tok/s at batch 8"
    assert [m.groupdict() for m in made.finditer(text)] == [
        {"value": "12", "unit": "ms"},
        {"value": "340", "unit": "tok/s"},
    ]


def test_the_file_is_written_once_and_read_back(tmp_path: Path) -> None:
    path = cache_file(tmp_path)
    assert path is not None and not path.exists()
    re.purge()
    with cached_patterns(tmp_path):
        re.compile(r"first\s+pattern")
    assert path.exists()
    written = path.stat().st_mtime_ns
    re.purge()
    with cached_patterns(tmp_path) as cache:
        re.compile(r"first\s+pattern")
    assert cache is not None and cache.missed == set()
    assert path.stat().st_mtime_ns == written  # nothing new: not written again


def test_a_pattern_that_warns_is_not_kept_and_still_warns(tmp_path: Path) -> None:
    for _run in range(2):
        re.purge()
        with cached_patterns(tmp_path) as cache, pytest.warns(FutureWarning):
            re.compile(r"[[a-z]x]")  # "possible nested set"
        assert cache is not None and (r"[[a-z]x]", 0) not in cache.programs


def test_an_unreadable_file_is_an_empty_cache(tmp_path: Path) -> None:
    path = cache_file(tmp_path)
    assert path is not None
    path.write_bytes(b"not marshal data")
    re.purge()
    with cached_patterns(tmp_path) as cache:
        assert re.compile(r"plain").match("plain")
    assert cache is not None and cache.programs == {}
    assert PatternCache.load(path).programs != {}  # written anew


def test_an_entry_sre_refuses_is_compiled_by_re() -> None:
    cache = PatternCache({(r"x+", 0): (32, b"\xff\xff\xff\x7f", 0, {}, (None,))})
    assert cache.compile(r"x+", 0) == COMPILER.compile(r"x+", 0)
    assert (r"x+", 0) not in cache.programs and (r"x+", 0) in cache.missed


def test_re_is_itself_again_after_the_block(tmp_path: Path) -> None:
    original = COMPILER.compile
    with cached_patterns(tmp_path):
        assert COMPILER.compile != original
    assert COMPILER.compile is original


def test_the_cache_folder_follows_xdg(tmp_path: Path) -> None:
    assert user_cache_folder({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "research-radar"
    assert user_cache_folder({}) == Path.home() / ".cache" / "research-radar"


def test_a_command_run_by_the_suite_keeps_its_cache_in_the_suites_folder(
    own_user_cache: Path,
) -> None:
    import subprocess
    import sys

    folder = own_user_cache / "research-radar"
    code = "import sys; from research_radar.cli import main; sys.argv = ['radar', '--help']; main()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert user_cache_folder(os.environ) == folder
    assert list(folder.glob("patterns-*.marshal"))


# -- readings -------------------------------------------------------------------------

_READER = """
import sys
from pathlib import Path
from research_radar.regexcache import cached_patterns, remembered

def read(key):
    print("read", key)
    return (frozenset({key.lower()}), len(key))

with cached_patterns(Path(sys.argv[1])):
    for key in sys.argv[2:]:
        print("value", remembered(__name__, "read", key, lambda: read(key)))
"""


def _run_reader(package: Path, folder: Path, *keys: str) -> list[str]:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, str(package / "reader.py"), str(folder), *keys],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={"PYTHONPATH": str(Path(research_radar_src()))},
    )
    return done.stdout.splitlines()


def research_radar_src() -> str:
    import research_radar

    return str(Path(research_radar.__file__).parent.parent)


def test_a_reading_is_kept_until_its_package_changes(tmp_path: Path) -> None:
    package, folder = tmp_path / "pkg", tmp_path / "cache"
    package.mkdir()
    (package / "reader.py").write_text(_READER, encoding="utf-8")
    (package / "other.py").write_text("X = 1\n", encoding="utf-8")
    value = "value (frozenset({'ab'}), 2)"
    assert _run_reader(package, folder, "AB") == ["read AB", value]
    assert _run_reader(package, folder, "AB") == [value]  # kept: not read again
    assert _run_reader(package, folder, "AB", "C") == [
        value,
        "read C",
        "value (frozenset({'c'}), 1)",
    ]
    (package / "other.py").write_text("X = 2\n", encoding="utf-8")  # any module of the package
    assert _run_reader(package, folder, "AB") == ["read AB", value]
    assert _run_reader(package, folder, "AB") == [value]


def test_outside_the_command_a_reading_is_always_read() -> None:
    from research_radar.regexcache import remembered

    calls: list[str] = []
    for _ in range(2):
        assert remembered(__name__, "f", "k", lambda: calls.append("k") or 1) == 1
    assert calls == ["k", "k"]


NEEDLE_PATTERNS = [
    r"(?:batch(?:[ _-]?size)?|bs)\s*[=:]?\s*(\d+)",
    r"(?<!\w)(?:H100|A100|MI300X?)(?:\s*(?:SXM|PCIe))?",
    r"吞吐(?:量)?\s*(\d+(?:\.\d+)?)",
    r"tokens?/s|tok/s",
    r"(?x) verbose \s pattern",
]


def test_needles_and_starts_read_from_the_file_are_those_read_anew(tmp_path: Path) -> None:
    from research_radar.extract.regexneedles import needles_of
    from research_radar.extract.regexstarts import start_strings

    anew = [(needles_of(p, re.I), start_strings(p, re.I)) for p in NEEDLE_PATTERNS]
    for _run in range(2):
        with cached_patterns(tmp_path) as cache:
            kept = [(needles_of(p, re.I), start_strings(p, re.I)) for p in NEEDLE_PATTERNS]
            assert kept == anew
    assert cache is not None and not cache.added  # the second run read them all from the file
    assert any(table.startswith("research_radar.extract.regexneedles.") for table in cache.read)


_TEMPLATE_USER = """
import sys
from pathlib import Path
from research_radar.regexcache import cached_patterns
from research_radar.report.templates import environment

with cached_patterns(Path(sys.argv[1])) as cache:
    template = environment().get_template("report-cards.css.j2")
    added = [t for t in cache.added if ".report.templates.template@" in t]
    print("compiled" if added else "kept")
    print(repr(template.render()))
"""


def test_a_kept_template_renders_what_a_compiled_one_does(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = tmp_path / "render.py"
    script.write_text(_TEMPLATE_USER, encoding="utf-8")

    def run() -> list[str]:
        done = subprocess.run(
            [sys.executable, str(script), str(tmp_path / "cache")],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
            env={"PYTHONPATH": research_radar_src()},
        )
        return done.stdout.splitlines()

    first, second = run(), run()
    assert first[0] == "compiled" and second[0] == "kept"
    assert first[1:] == second[1:] and len(first[-1]) > 10
