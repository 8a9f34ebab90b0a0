"""Chinese word segmentation: jieba, with only the part of its dictionary a text needs.

jieba's prefix dictionary holds about 500,000 words and word prefixes; decoding all of it
takes 0.2-0.3 s even from jieba's own cache file, while a report's Chinese runs need a
few per cent of it. Every entry jieba looks up while it cuts a text is a substring of that
text (the DAG's fragments, the route's words, the search mode's 2- and 3-grams), so it
starts with one of the text's characters. The dictionary is therefore kept in one group
per first character, in a cache file beside jieba's own (built once from it), and before
a text is cut the groups of its characters are added to the tokenizer's dictionary: the
words are jieba's exactly, because the dictionary holds every entry the cut can look up
(issue #19). The tokenizer is a `jieba.Tokenizer` of its own: `jieba.dt`, the module's
default, keeps jieba's full dictionary for any other caller.

`import jieba` loads `pkg_resources` (0.1 s) only to find its data files, which it finds
without it; the import here skips it.
"""

from __future__ import annotations

import functools
import logging
import marshal
import mmap
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

__all__ = ["Segmenter", "load_jieba"]

_FILE = "jieba.groups.cache"
_MAGIC = b"research-radar jieba groups 1\n"
_HEAD = 8
"""Bytes of the header's length, after the magic line."""


def _import_jieba() -> Any:
    """jieba, imported without `pkg_resources` (jieba falls back to plain file paths)."""
    if "jieba" in sys.modules or "pkg_resources" in sys.modules:
        import jieba
    else:
        sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # makes it ImportError
        try:
            import jieba
        finally:
            del sys.modules["pkg_resources"]
    jieba.setLogLevel(logging.WARNING)
    return jieba


class Segmenter:
    """jieba's `lcut` and `lcut_for_search` over its default dictionary, loaded by groups.

    Args:
        folder: where the groups file is kept; default jieba's cache folder (`jieba.dt.tmp_dir`,
            else the temporary folder), where jieba keeps its own cache.
    """

    def __init__(self, folder: Path | None = None) -> None:
        jieba = _import_jieba()
        self._tokenizer = jieba.Tokenizer()  # its own: jieba.dt stays as jieba made it
        self._tokenizer.tmp_dir, self._tokenizer.cache_file = jieba.dt.tmp_dir, jieba.dt.cache_file
        self.path = Path(folder or jieba.dt.tmp_dir or tempfile.gettempdir()) / _FILE
        source = Path(jieba.__file__).with_name(jieba.DEFAULT_DICT_NAME).stat()
        self._source = (jieba.__version__, source.st_size, source.st_mtime_ns)
        self._lock = threading.Lock()
        self._loaded: set[str] = set()
        self._data: Any = b""
        self._groups: dict[str, tuple[int, int]] = {}
        if not self._open():
            freq, total = _full_dictionary(self._tokenizer)
            self._write(freq, total)
            if not self._open():  # an unwritable folder: the whole dictionary, in memory
                self._tokenizer.FREQ, self._tokenizer.total = freq, total
                self._loaded = set()
        self._tokenizer.initialized = True

    def lcut(self, text: str, HMM: bool = True) -> list[str]:
        """jieba's accurate mode (`jieba.lcut`); `HMM` as jieba names it."""
        self._add(text)
        return list(self._tokenizer.lcut(text, HMM=HMM))

    def lcut_for_search(self, text: str, HMM: bool = True) -> list[str]:
        """jieba's search-engine mode (`jieba.lcut_for_search`)."""
        self._add(text)
        return list(self._tokenizer.lcut_for_search(text, HMM=HMM))

    def _add(self, text: str) -> None:
        """Add the dictionary groups of the characters of `text` not added yet."""
        missing = set(text) - self._loaded
        if not missing or not self._groups:
            return
        with self._lock:
            freq = self._tokenizer.FREQ
            for char in missing - self._loaded:
                where = self._groups.get(char)
                if where is not None:
                    start, size = where
                    freq.update(marshal.loads(self._data[start : start + size]))
                self._loaded.add(char)

    def _open(self) -> bool:
        """Map the groups file; False when it is missing, unreadable, or made from another
        dictionary or in another format."""
        try:
            with self.path.open("rb") as handle:
                data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            return False
        head = len(_MAGIC) + _HEAD
        try:
            if data[: len(_MAGIC)] != _MAGIC:
                raise ValueError("not a groups file")
            size = int.from_bytes(data[len(_MAGIC) : head], "little")
            source, total, groups = marshal.loads(data[head : head + size])
            if source != self._source or not isinstance(groups, dict):
                raise ValueError("another dictionary")
        except (ValueError, EOFError, TypeError):
            data.close()
            return False
        body = head + size  # group offsets count from the end of the header
        self._data, self._tokenizer.total = data, total
        self._groups = {char: (body + start, length) for char, (start, length) in groups.items()}
        return True

    def _write(self, freq: dict[str, int], total: int) -> None:
        """Write the groups file atomically (as jieba writes its cache); a folder that
        cannot be written is only logged, as jieba does."""
        grouped: dict[str, dict[str, int]] = {}
        for word, count in freq.items():
            grouped.setdefault(word[0], {})[word] = count
        blobs, groups, offset = [], {}, 0
        for char, group in grouped.items():
            blob = marshal.dumps(group)
            groups[char] = (offset, len(blob))
            blobs.append(blob)
            offset += len(blob)
        head = marshal.dumps((self._source, total, groups))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=self.path.parent)
            with os.fdopen(fd, "wb") as handle:
                handle.write(_MAGIC + len(head).to_bytes(_HEAD, "little") + head)
                handle.writelines(blobs)
            os.replace(temporary, self.path)
        except OSError as exc:
            logging.getLogger(__name__).warning("cannot write %s: %s", self.path, exc)


def _full_dictionary(tokenizer: Any) -> tuple[dict[str, int], int]:
    """jieba's whole default dictionary: its cache file read in one piece and decoded with
    `marshal.loads` (a quarter of the time of jieba's `marshal.load` on the open file),
    else built by jieba, which writes that cache."""
    name = tokenizer.cache_file or "jieba.cache"
    path = os.path.join(tokenizer.tmp_dir or tempfile.gettempdir(), name)
    try:
        with open(path, "rb") as handle:
            freq, total = marshal.loads(handle.read())
        if isinstance(freq, dict) and isinstance(total, int):
            return freq, total
    except (OSError, EOFError, ValueError, TypeError):
        pass
    tokenizer.initialize()
    freq, total = tokenizer.FREQ, tokenizer.total
    tokenizer.FREQ, tokenizer.total, tokenizer.initialized = {}, 0, False
    return freq, total


@functools.cache
def load_jieba() -> Segmenter:
    """The process's segmenter, made at the first Chinese text."""
    return Segmenter()
