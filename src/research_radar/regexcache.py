"""Compiled regular expressions kept on disk between runs of the `radar` command (#19).

The extract rules compile about 1,800 patterns; Python compiles each from its source in
every process (the parser and the code generator of `re` are written in Python), which
was a quarter of the CPU of `radar daily --sample`. `PatternCache` keeps what `re` makes
of each pattern, the program that `_sre` runs, in a file of the user's cache; the next
run gives it straight to `_sre.compile`: the same pattern object, made without parsing.

What keeps it correct:
- the file holds data only (`marshal`: strings, numbers, lists, dictionaries) and its
  name holds a fingerprint of this Python and of its regular expression engine; each
  entry is found by the pattern's exact source and flags;
- an entry is written only after the pattern it makes has been compared with the one
  `re` makes (`Pattern.__eq__` compares the flags and the whole program) and found
  equal, with the same groups; a pattern whose compilation warns is never kept, so that
  the warning is never lost;
- a pattern not in the file is compiled by `re` as before, and added when the command
  ends; anything unexpected (a private function missing, an unreadable file, an entry
  `_sre` refuses) leaves the pattern to `re`.
"""

from __future__ import annotations

import hashlib
import importlib
import marshal
import os
import re
import sys
import warnings
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["PatternCache", "cached_patterns", "cache_file"]

Key = tuple[str | bytes, int]
"""A pattern's source and the flags it was compiled with."""
Entry = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]
"""`_sre.compile`'s arguments after the source: flags, program (its code words as bytes:
read five times faster than a list of numbers), groups, the group numbers by name and
the names by number."""

_WORD = array("I")
"""The code words of a program (`_sre.CODESIZE` bytes each)."""
MAX_ENTRIES = 20_000
"""Beyond this, a file keeps only the patterns its last run used (stale ones go)."""


def _engine() -> tuple[ModuleType, ModuleType, ModuleType] | None:
    """`re._compiler`, `re._parser` and `_sre`, when this Python has them as 3.11 does."""
    try:
        modules = tuple(
            importlib.import_module(name) for name in ("re._compiler", "re._parser", "_sre")
        )
    except ImportError:
        return None
    compiler, parser, sre = modules
    needed = (
        hasattr(compiler, "compile") and hasattr(compiler, "_code") and hasattr(parser, "parse")
    )
    return (compiler, parser, sre) if needed and hasattr(sre, "compile") else None


def cache_file(folder: Path) -> Path | None:
    """The cache file of this Python in `folder`, or None when it cannot have one."""
    engine = _engine()
    if engine is None:
        return None
    sre = engine[2]
    if getattr(sre, "CODESIZE", None) != _WORD.itemsize:
        return None
    stamp = repr((sys.version, getattr(sre, "MAGIC", None), getattr(sre, "CODESIZE", None)))
    digest = hashlib.sha256(stamp.encode()).hexdigest()[:16]
    return folder / f"patterns-{sys.implementation.cache_tag}-{digest}.marshal"


class PatternCache:
    """Stands in for `re._compiler.compile` while installed (`cached_patterns`)."""

    def __init__(self, known: dict[Key, Entry]) -> None:
        engine = _engine()
        assert engine is not None, "check cache_file first"
        self._compiler, self._parser, self._sre = engine
        self._original: Callable[..., Any] = self._compiler.compile
        self.known = known
        self.used: set[Key] = set()
        self.missed: set[Key] = set()

    @classmethod
    def load(cls, path: Path) -> PatternCache:
        """The entries of `path` (none when it is missing or unreadable)."""
        try:
            known = marshal.loads(path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            known = {}
        return cls(known if isinstance(known, dict) else {})

    def compile(self, pattern: Any, flags: int = 0) -> Any:
        """`re._compiler.compile(pattern, flags)`, from the entry when there is one."""
        if not isinstance(pattern, str | bytes) or flags & _DEBUG:
            return self._original(pattern, flags)
        key = (pattern, flags)
        entry = self.known.get(key)
        if entry is not None:
            try:
                made = self._made(pattern, entry)
            except (TypeError, ValueError, RuntimeError, OverflowError):
                del self.known[key]  # refused by `_sre`: compiled again, written anew
            else:
                self.used.add(key)
                return made
        self.missed.add(key)
        return self._original(pattern, flags)

    def _made(self, pattern: str | bytes, entry: Entry) -> Any:
        final, program, groups, names, numbers = entry
        code = array(_WORD.typecode, program).tolist()
        return self._sre.compile(pattern, final, code, groups, names, numbers)

    def _entry(self, key: Key) -> Entry | None:
        """The entry of a pattern, when it makes the pattern `re` makes, without a warning."""
        pattern, flags = key
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                parsed = self._parser.parse(pattern, flags)
                program = array(_WORD.typecode, self._compiler._code(parsed, flags))
            except (re.error, OverflowError, RecursionError, ValueError, TypeError):
                return None  # what `re` refuses is not kept
        if caught:
            return None
        state = parsed.state
        names: dict[str, int] = dict(state.groupdict)
        numbers: list[str | None] = [None] * state.groups
        for name, number in names.items():
            numbers[number] = name
        # plain numbers (the flags and the program's opcodes are int subclasses)
        entry = (
            int(flags | state.flags),
            program.tobytes(),
            state.groups - 1,
            names,
            tuple(numbers),
        )
        made, expected = self._made(pattern, entry), self._original(pattern, flags)
        same = (
            made == expected
            and made.groups == expected.groups
            and made.groupindex == expected.groupindex
        )
        return entry if same else None

    def save(self, path: Path) -> None:
        """Add the patterns compiled since `load` to `path` (nothing when there are none)."""
        added = {key: entry for key in self.missed if (entry := self._entry(key)) is not None}
        if not added:
            return
        keep = self.known
        if len(keep) + len(added) > MAX_ENTRIES:
            keep = {key: keep[key] for key in self.used if key in keep}
        data = marshal.dumps({**keep, **added})
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_bytes(data)
        os.replace(partial, path)  # whole or not at all, for a run reading it meanwhile


_DEBUG = 128
"""`re.DEBUG`: such a compilation prints the program, so it is left to `re`."""


@contextmanager
def cached_patterns(folder: Path) -> Iterator[PatternCache | None]:
    """Within the block, `re` compiles through a `PatternCache` kept in `folder`; on
    leaving (in the process that entered), what was compiled anew is added to it.

    Yields None, and changes nothing, on a Python without the functions it needs."""
    path = cache_file(folder)
    if path is None:
        yield None
        return
    cache = PatternCache.load(path)
    compiler: Any = cache._compiler
    owner = os.getpid()
    compiler.compile = cache.compile  # (`re._compile` looks it up at each call)
    try:
        yield cache
    finally:
        compiler.compile = cache._original
        if os.getpid() == owner:
            # a read-only or full cache folder: the next run compiles them again
            with suppress(OSError):
                cache.save(path)
