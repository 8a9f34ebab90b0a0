"""Work on regular expressions kept on disk between runs of the `radar` command (#19).

The extract rules compile about 1,800 patterns, and read the needles of several hundred
of them from their source (`regexneedles`, `regexstarts`); a process did all of it again
at every start, about a third of the CPU of `radar daily --sample`. Within
`cached_patterns`, a `PatternCache` keeps two things in a file of the user's cache:

- programs: what `re` makes of each pattern, the program that `_sre` runs; the next run
  gives it straight to `_sre.compile`, the same pattern object made without parsing;
- readings: values that a pure function reads from a pattern (`remembered`), kept per
  function under a fingerprint of the sources of its package, so that an edit to any
  module of the package starts its tables afresh.

What keeps it correct:
- the file holds data only (`marshal`: strings, numbers, tuples, sets, dictionaries) and
  its name holds a fingerprint of this Python and of its regular expression engine; each
  entry is found by the pattern's exact source and flags (or the function's own key);
- a program is written only after the pattern it makes has been compared with the one
  `re` makes (`Pattern.__eq__` compares the flags and the whole program) and found
  equal, with the same groups; a pattern whose compilation warns is never kept, so that
  the warning is never lost;
- what is not in the file is made as before and added when the command ends; anything
  unexpected (a private function missing, an unreadable file, an entry `_sre` refuses)
  leaves the work to `re` or to the function. Outside the command (a library caller, the
  tests) nothing is kept.
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
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar, cast

__all__ = ["PatternCache", "cache_file", "cached_patterns", "kept_table", "remembered"]

Key = tuple[str | bytes, int]
"""A pattern's source and the flags it was compiled with."""
Program = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]
"""`_sre.compile`'s arguments after the source: flags, program (its code words as bytes:
read five times faster than a list of numbers), groups, the group numbers by name and
the names by number."""
Table = dict[Hashable, Any]
"""One function's readings: its key -> the value it read."""
V = TypeVar("V")

_WORD = array("I")
"""The code words of a program (`_sre.CODESIZE` bytes each)."""
MAX_ENTRIES = 20_000
"""Beyond this, a file keeps only the programs (or a table the readings) its last run
used: stale ones go."""
_DEBUG = 128
"""`re.DEBUG`: such a compilation prints the program, so it is left to `re`."""


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
    return folder / f"patterns-3-{sys.implementation.cache_tag}-{digest}.marshal"


class PatternCache:
    """Stands in for `re._compiler.compile`, and keeps readings, while installed
    (`cached_patterns`)."""

    def __init__(
        self, programs: dict[Key, Program], packed: dict[str, bytes] | None = None
    ) -> None:
        """`packed`: each table of readings as marshal wrote it, read at its first use (a
        command reads only its own: `radar --help` none of the extract rules')."""
        engine = _engine()
        assert engine is not None, "check cache_file first"
        self._compiler, self._parser, self._sre = engine
        self._original: Callable[..., Any] = self._compiler.compile
        self.programs = programs
        self.used: set[Key] = set()
        self.missed: set[Key] = set()
        self._packed = packed or {}
        self.readings: dict[str, Table] = {}
        """The tables read (or begun) so far."""
        self.read: dict[str, set[Hashable]] = {}
        """Table -> the keys looked up in it this run."""
        self.added: dict[str, Table] = {}
        """Table -> the readings made this run."""

    @classmethod
    def load(cls, path: Path) -> PatternCache:
        """The entries of `path` (none when it is missing or unreadable)."""
        try:
            data = marshal.loads(path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            data = None
        if not isinstance(data, tuple) or len(data) != 2:
            return cls({})
        programs, packed = data
        return cls(
            programs if isinstance(programs, dict) else {},
            packed if isinstance(packed, dict) else {},
        )

    # -- programs ---------------------------------------------------------------------

    def compile(self, pattern: Any, flags: int = 0) -> Any:
        """`re._compiler.compile(pattern, flags)`, from the program kept when there is one."""
        if not isinstance(pattern, str | bytes) or flags & _DEBUG:
            return self._original(pattern, flags)
        key = (pattern, flags)
        program = self.programs.get(key)
        if program is not None:
            try:
                made = self._made(pattern, program)
            except (TypeError, ValueError, RuntimeError, OverflowError):
                del self.programs[key]  # refused by `_sre`: compiled again, written anew
            else:
                self.used.add(key)
                return made
        self.missed.add(key)
        return self._original(pattern, flags)

    def _made(self, pattern: str | bytes, program: Program) -> Any:
        final, words, groups, names, numbers = program
        code = array(_WORD.typecode, words).tolist()
        return self._sre.compile(pattern, final, code, groups, names, numbers)

    def _program(self, key: Key) -> Program | None:
        """The program of a pattern, when it makes the pattern `re` makes, without a warning."""
        pattern, flags = key
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                parsed = self._parser.parse(pattern, flags)
                words = array(_WORD.typecode, self._compiler._code(parsed, flags))
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
        program = (
            int(flags | state.flags),
            words.tobytes(),
            state.groups - 1,
            names,
            tuple(numbers),
        )
        made, expected = self._made(pattern, program), self._original(pattern, flags)
        same = (
            made == expected
            and made.groups == expected.groups
            and made.groupindex == expected.groupindex
        )
        return program if same else None

    # -- readings ---------------------------------------------------------------------

    def reading(self, table: str, key: Hashable, read: Callable[[], V]) -> V:
        """The value kept for `key` in `table`, else `read()` (added on leaving)."""
        found = self.kept(table, key, _NONE)
        if found is not _NONE:
            return cast(V, found)
        value = read()
        self.keep(table, key, value)
        return value

    def kept(self, table: str, key: Hashable, default: Any = None) -> Any:
        """The value kept for `key` in `table`, else `default`."""
        self.read.setdefault(table, set()).add(key)
        return self._table(table).get(key, default)

    def keep(self, table: str, key: Hashable, value: Any) -> None:
        """Keep `value` for `key` in `table` (written on leaving)."""
        self._table(table)[key] = value
        self.added.setdefault(table, {})[key] = value

    def _table(self, name: str) -> Table:
        table = self.readings.get(name)
        if table is None:
            raw = self._packed.pop(name, None)
            try:
                table = marshal.loads(raw) if raw is not None else {}
            except (EOFError, ValueError, TypeError):
                table = None
            table = self.readings[name] = table if isinstance(table, dict) else {}
        return table

    def _tables(self) -> dict[str, bytes]:
        """The readings to write, packed: every table used this run, and the others whose
        function this run did not use (another command's); a table of a function that this
        run used under another fingerprint is stale and goes."""
        current = {_function(name) for name in self.readings}
        kept = {name: raw for name, raw in self._packed.items() if _function(name) not in current}
        for name, table in self.readings.items():
            used = self.read.get(name, set())
            if len(table) > MAX_ENTRIES:
                table = {key: table[key] for key in used if key in table}
            # what marshal cannot write is not kept (made again next time)
            kept[name] = marshal.dumps(
                {key: value for key, value in table.items() if _writable(key, value)}
            )
        return kept

    # -- the file ---------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Add what was made since `load` to `path` (nothing when nothing was)."""
        added = {key: made for key in self.missed if (made := self._program(key)) is not None}
        if not added and not self.added:
            return
        programs = self.programs
        if len(programs) + len(added) > MAX_ENTRIES:
            programs = {key: programs[key] for key in self.used if key in programs}
        data = marshal.dumps(({**programs, **added}, self._tables()))
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_bytes(data)
        os.replace(partial, path)  # whole or not at all, for a run reading it meanwhile


def _function(table: str) -> str:
    """The function of a table's name (`module.name@fingerprint`)."""
    return table.partition("@")[0]


def _writable(*values: Any) -> bool:
    try:
        marshal.dumps(values)
    except ValueError:
        return False
    return True


_ACTIVE: list[PatternCache] = []
"""The cache `cached_patterns` installed, if any."""
_FINGERPRINTS: dict[str, str] = {}
"""A package -> the digest of its modules' sources (read once a process)."""


def _fingerprint(module: str) -> str:
    """A digest of every module's source in the folder of `module` (its package)."""
    package = module.rpartition(".")[0]
    if package not in _FINGERPRINTS:
        folder = Path(sys.modules[module].__file__ or "").parent
        digest = hashlib.sha256()
        for path in sorted(folder.glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        _FINGERPRINTS[package] = digest.hexdigest()[:16]
    return _FINGERPRINTS[package]


_NONE = object()
"""No value kept (None can be one)."""


def kept_table(module: str, function: str) -> tuple[PatternCache, str] | None:
    """The installed cache and the name of the table of `function` in `module`'s package
    (see `remembered`), or None outside `cached_patterns`: for a caller that looks up and
    keeps in two steps (a compiled template: `report.templates`)."""
    if not _ACTIVE:
        return None
    return _ACTIVE[-1], f"{module}.{function}@{_fingerprint(module)}"


def remembered(module: str, function: str, key: Hashable, read: Callable[[], V]) -> V:
    """`read()`, or what it gave for `key` in an earlier run of the command.

    For a pure function of `key` (and of nothing else: no setting, no data file) defined
    in `module` (its `__name__`), whose work lies in that module's package; the value
    must be what `marshal` writes (strings, numbers, tuples, frozensets, None) and is not
    to be changed by the caller. Outside `cached_patterns`, always `read()`.
    """
    found = kept_table(module, function)
    if found is None:
        return read()
    cache, table = found
    return cache.reading(table, key, read)


@contextmanager
def cached_patterns(folder: Path) -> Iterator[PatternCache | None]:
    """Within the block, `re` compiles through a `PatternCache` kept in `folder`, and
    `remembered` keeps its readings there; on leaving (in the process that entered), what
    was made anew is added to it.

    Yields None, and changes nothing, on a Python without the functions it needs."""
    path = cache_file(folder)
    if path is None:
        yield None
        return
    cache = PatternCache.load(path)
    compiler: Any = cache._compiler
    owner = os.getpid()
    compiler.compile = cache.compile  # (`re._compile` looks it up at each call)
    _ACTIVE.append(cache)
    try:
        yield cache
    finally:
        _ACTIVE.remove(cache)
        compiler.compile = cache._original
        if os.getpid() == owner:
            # a read-only or full cache folder, or a value marshal refuses: the next run
            # makes them again (the command's work is done; its cache must not fail it)
            with suppress(OSError, ValueError):
                cache.save(path)
