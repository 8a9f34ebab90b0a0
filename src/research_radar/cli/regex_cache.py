"""Compiled regular expressions kept from one run of a `radar` command to the next.

Python compiles each regular expression from its text in every process, with a parser and
a compiler written in Python (`re._parser`, `re._compiler`): `radar daily --sample`
compiles about 1,250 of them (the catalogues', the extraction, classification and review
rules', its libraries'), close to a tenth of its CPU time (issue #19). What compiling
yields, the program that `_sre.compile` makes a pattern of, depends only on the pattern's
text, its flags and the Python that compiled it. So the command line keeps the programs
of a command's run in a file under the user's cache folder, one file per command and
Python build, and the next run of that command makes each pattern from its stored
program: the same `re.Pattern`, without parsing and compiling it again. A pattern the file
lacks is compiled as usual; a run that compiled any writes the file anew with the
programs it used.

Only `str` and `bytes` patterns are kept (not `re.DEBUG`, which prints as it compiles).
`_sre` validates every program it is given; the cache is switched on only when a probe
pattern made from its program equals the one `re` compiles, and a file that is not ours
or was written by another Python is ignored. Nothing but speed depends on the file.
"""

from __future__ import annotations

import array
import atexit
import functools
import importlib
import marshal
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["RegexCache", "cache_folder", "install", "keep_compiled_regexes", "regex_cache"]

_FORMAT = 1
_PROBE = r"(?P<word>\w+)[ \t]*(?:=|:)\s*(\d+(?:\.\d+)?)?(?i:kv)|(?<=x)y+?$"
Entry = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]
"""The program of a pattern: (flags, code as 32-bit words, groups, groupindex, indexgroup)."""


def _internals() -> tuple[Any, Any, Any] | None:
    """`re`'s parser and compiler modules and `_sre`, when they are as this module knows
    them (CPython 3.11 to 3.13), else None."""
    try:
        sre = importlib.import_module("_sre")
        from re import _compiler, _parser  # type: ignore[attr-defined]
    except ImportError:
        return None
    needed = (
        callable(getattr(_parser, "parse", None)),
        callable(getattr(_compiler, "_code", None)),
    )
    if not all(needed) or array.array("I").itemsize != 4 or sre.CODESIZE != 4:
        return None
    return _parser, _compiler, sre


@functools.cache
def _build_tag() -> str:
    """The Python build the programs belong to (kept in the file and checked on reading)."""
    magic = importlib.import_module("_sre").MAGIC
    return f"{_FORMAT} {sys.implementation.cache_tag} {magic} {sys.version}"


class RegexCache:
    """The stored programs of one command's patterns, and the hook that uses them.

    Args:
        path: the cache file; read when the cache is made, written by `save`.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.hits = 0
        self.misses = 0
        self._stored: dict[tuple[str | bytes, int], Entry] = self._read()
        self._used: dict[tuple[str | bytes, int], Entry] = {}
        self._lock = threading.Lock()

    def _read(self) -> dict[tuple[str | bytes, int], Entry]:
        try:
            with self.path.open("rb") as handle:
                tag, entries = marshal.loads(handle.read())
        except (OSError, EOFError, ValueError, TypeError):
            return {}
        return entries if tag == _build_tag() and isinstance(entries, dict) else {}

    def compiler(self, original: Callable[..., Any]) -> Callable[..., Any]:
        """A replacement for `re._compiler.compile` that reads and records programs."""
        internals = _internals()
        assert internals is not None
        parser, compiler, sre = internals

        def program(pattern: str | bytes, flags: int) -> Entry:
            parsed = parser.parse(pattern, flags)
            code = array.array("I", compiler._code(parsed, flags)).tobytes()
            state = parsed.state
            indexgroup: list[str | None] = [None] * state.groups
            for name, index in state.groupdict.items():
                indexgroup[index] = name
            return (  # plain ints: marshal refuses int subclasses such as re.RegexFlag
                int(flags | state.flags),
                code,
                int(state.groups - 1),
                {name: int(index) for name, index in state.groupdict.items()},
                tuple(indexgroup),
            )

        def compile(pattern: Any, flags: int = 0) -> Any:
            if type(pattern) not in (str, bytes) or flags & re.DEBUG:
                return original(pattern, flags)
            key = (pattern, int(flags))
            entry = self._stored.get(key)
            made = None
            if entry is not None:
                try:
                    made = build(pattern, entry)
                    self.hits += 1
                except (ValueError, TypeError, RuntimeError):  # not a program _sre takes
                    entry = None
            if entry is None:
                entry = program(pattern, flags)  # raises re.error as `re` would
                made = build(pattern, entry)
                self.misses += 1
            with self._lock:
                self._used[key] = entry
            return made

        def build(pattern: str | bytes, entry: Entry) -> Any:
            final, code, groups, groupindex, indexgroup = entry
            words = array.array("I", code).tolist()
            return sre.compile(pattern, final, words, groups, groupindex, indexgroup)

        return compile

    def forget_use(self) -> None:
        """Count and keep only what is compiled from now on."""
        with self._lock:
            self._used.clear()
            self.hits = self.misses = 0

    def save(self) -> None:
        """Write the programs this run used, when it compiled any pattern anew (atomically;
        an unwritable folder only means no cache)."""
        if not self.misses:
            return
        with self._lock:
            data = marshal.dumps((_build_tag(), dict(self._used)))
        import tempfile

        temporary = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".regex-")
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temporary, self.path)
        except OSError:
            if temporary is not None:
                Path(temporary).unlink(missing_ok=True)


def _works(compile: Callable[..., Any], original: Callable[..., Any]) -> bool:
    """The probe pattern made by `compile` equals, and matches as, `re`'s own."""
    try:
        ours, theirs = compile(_PROBE, re.IGNORECASE), original(_PROBE, re.IGNORECASE)
    except (re.error, RuntimeError, TypeError, ValueError, AttributeError, IndexError):
        return False  # re's internals are not as this module knows them: no cache
    text = "Ratio = 12.5 KV, x yyy"
    return (ours.pattern, ours.flags, ours.groups, dict(ours.groupindex)) == (
        theirs.pattern,
        theirs.flags,
        theirs.groups,
        dict(theirs.groupindex),
    ) and [m.groups() for m in ours.finditer(text)] == [m.groups() for m in theirs.finditer(text)]


def install(path: Path) -> tuple[RegexCache, Callable[[], None]] | None:
    """Compile regular expressions through the cache file `path` from now on. Returns the
    cache and the function that puts `re` back and saves the file; None when this
    Python's `re` is not one the cache knows."""
    internals = _internals()
    if internals is None:
        return None
    compiler = internals[1]
    cache = RegexCache(path)
    original = compiler.compile
    hook = cache.compiler(original)
    if not _works(hook, original):
        return None
    cache.forget_use()  # the probe is not the caller's
    compiler.compile = hook

    def finish() -> None:
        if compiler.compile is hook:
            compiler.compile = original
        cache.save()

    return cache, finish


@contextmanager
def regex_cache(path: Path) -> Iterator[RegexCache | None]:
    """`install` for the length of a block (None: no cache); the file is saved at its end."""
    installed = install(path)
    if installed is None:
        yield None
        return
    cache, finish = installed
    try:
        yield cache
    finally:
        finish()


def cache_folder(environ: Mapping[str, str]) -> Path | None:
    """The user's cache folder for radar (`$XDG_CACHE_HOME/research-radar`, else
    `~/.cache/research-radar`), None without a home folder."""
    base = environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "research-radar"
    try:
        return Path.home() / ".cache" / "research-radar"
    except RuntimeError:
        return None


def keep_compiled_regexes(folder: Path, command: str) -> RegexCache | None:
    """Compile this process's regular expressions from now on through the cache file of
    `command` in `folder`, saved when the process exits."""
    installed = install(folder / f"regex-{command}-{sys.implementation.cache_tag}.cache")
    if installed is None:
        return None
    atexit.register(installed[1])
    return installed[0]
