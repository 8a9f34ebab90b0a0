"""The regular-expression cache of the command line gives the patterns `re` gives."""

from __future__ import annotations

import marshal
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from research_radar.cli.regex_cache import cache_folder, regex_cache

PATTERNS: list[tuple[str | bytes, int]] = [
    (r"(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>tok/s|ms|GB)", 0),
    (r"(?<![A-Za-z0-9_])(?:RTX[\s\-]?5090|H100)(?![A-Za-z0-9_])", re.IGNORECASE),
    (
        r"""(?x) ^ \s* (\w+)  # a word
         \s* = \s* (.*?) \s* $""",
        re.MULTILINE,
    ),
    (r"(a)?(?(1)b|c)", 0),
    (r"[\u4e00-\u9fff]+|[^\W\d_]+", 0),
    (r"吞吐(?:提升|提高)\s*(\d+)", 0),
    (rb"\x00[\x01-\x7f]+\xff?", 0),
    (rb"(?i)kv|cache", 0),
    (r"(?s)<!--.*?-->", 0),
    (r"\bfoo\b|(?<=x)y{2,5}?$", re.ASCII),
]
TEXTS = [
    "Throughput 922.4 tok/s at 12 ms, 24 GB on an rtx 5090 and H100s",
    "key = value \n other=thing\nabc",
    "吞吐提升 3 倍, 中文 words_and 42 ac ab",
    "<!-- a\ncomment --> foo xyyy",
]


def _behaviour(pattern: re.Pattern[Any]) -> tuple[object, ...]:
    texts: list[Any] = TEXTS
    if isinstance(pattern.pattern, bytes):
        texts = [text.encode("utf-8") for text in TEXTS]
    found = [[(*match.groups(), match.span()) for match in pattern.finditer(t)] for t in texts]
    return pattern.pattern, pattern.flags, pattern.groups, dict(pattern.groupindex), found


def _compile_all() -> list[tuple[object, ...]]:
    re.purge()  # re's own in-process cache would hide the compiler
    return [_behaviour(re.compile(text, flags)) for text, flags in PATTERNS]


def test_cached_patterns_are_the_patterns_re_compiles(tmp_path: Path) -> None:
    expected = _compile_all()
    path = tmp_path / "regex.cache"
    with regex_cache(path) as cache:
        assert cache is not None
        assert _compile_all() == expected
        assert cache.misses >= len(PATTERNS) and cache.hits == 0
    assert path.is_file()
    with regex_cache(path) as again:
        assert again is not None
        assert _compile_all() == expected
        assert again.hits == len(PATTERNS) and again.misses == 0
    assert _compile_all() == expected, "re is put back"


def test_re_is_put_back_after_the_block(tmp_path: Path) -> None:
    from re import _compiler  # type: ignore[attr-defined]

    before = _compiler.compile
    with regex_cache(tmp_path / "regex.cache"):
        assert _compiler.compile is not before
    assert _compiler.compile is before


def test_invalid_pattern_raises_as_re_does(tmp_path: Path) -> None:
    path = tmp_path / "regex.cache"
    with regex_cache(path) as cache, pytest.raises(re.error) as raised:
        re.purge()
        re.compile(r"(unclosed")
    assert "missing )" in str(raised.value)
    assert cache is not None and cache.misses == 0 and not path.exists()


def test_other_patterns_are_compiled_but_not_kept(tmp_path: Path) -> None:
    class Text(str):
        pass

    path = tmp_path / "regex.cache"
    with regex_cache(path) as cache:
        re.purge()
        assert re.compile(Text(r"a+b")).fullmatch("aab")
        assert re.compile(r"x|y", re.IGNORECASE).fullmatch("Y")  # a RegexFlag, kept as int
        assert cache is not None and cache.misses == 1
    with regex_cache(path) as again:
        re.purge()
        assert re.compile(Text(r"a+b")).fullmatch("aab")
        assert re.compile(r"x|y", re.IGNORECASE).fullmatch("Y")
        assert again is not None and (again.hits, again.misses) == (1, 0)


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"not marshal at all", id="garbage"),
        pytest.param(
            marshal.dumps(("1 another python", {("a", 0): (0, b"", 0, {}, ())})), id="other-python"
        ),
        pytest.param(marshal.dumps(["a list"]), id="wrong-shape"),
    ],
)
def test_foreign_files_are_ignored_and_replaced(tmp_path: Path, content: bytes) -> None:
    expected = _compile_all()
    path = tmp_path / "regex.cache"
    path.write_bytes(content)
    with regex_cache(path) as cache:
        assert _compile_all() == expected
        assert cache is not None and cache.hits == 0
    assert path.read_bytes() != content


def test_cache_folder_follows_xdg() -> None:
    assert cache_folder({"XDG_CACHE_HOME": "/x/cache"}) == Path("/x/cache/research-radar")
    assert cache_folder({}) == Path.home() / ".cache" / "research-radar"


def test_console_script_keeps_a_commands_patterns(tmp_path: Path) -> None:
    script = "import sys; from research_radar.cli import main; sys.argv[0] = 'radar'; main()"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", script, "taxonomy"], capture_output=True, text=True, env=env
        )
        for _ in range(2)
    ]
    assert [run.returncode for run in runs] == [0, 0]
    assert runs[0].stdout == runs[1].stdout and runs[0].stdout
    assert [path.name for path in (tmp_path / "research-radar").iterdir()] == [
        f"regex-taxonomy-{sys.implementation.cache_tag}.cache"
    ]


def test_a_program_sre_refuses_is_compiled_again(tmp_path: Path) -> None:
    path = tmp_path / "regex.cache"
    with regex_cache(path):
        re.purge()
        re.compile(r"(\d+) tok/s")
    tag, entries = marshal.loads(path.read_bytes())
    broken = {
        key: (flags, b"\xff\xff\xff\x7f" * 3, *rest) for key, (flags, _, *rest) in entries.items()
    }
    path.write_bytes(marshal.dumps((tag, broken)))
    with regex_cache(path) as cache:
        re.purge()
        assert re.compile(r"(\d+) tok/s").findall("12 tok/s, 7 tok/s") == ["12", "7"]
        assert cache is not None and (cache.hits, cache.misses) == (0, 1)
