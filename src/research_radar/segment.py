"""Chinese word segmentation: jieba, with its dictionary loaded once and quickly.

jieba reads its cached prefix dictionary with `marshal.load` on the open file, which
decodes it object by object through small reads (about 1.2 s for the default dictionary);
reading the file first and decoding the bytes with `marshal.loads` gives the same
dictionary in a quarter of the time (issue #19). The cache is jieba's own file
(`jieba.dt.tmp_dir` or the temporary folder, `jieba.cache`): when it is missing or not
jieba's, jieba builds and writes it as usual.
"""

from __future__ import annotations

import functools
import logging
import marshal
import os
import tempfile
from typing import Any

__all__ = ["load_jieba"]


@functools.cache
def load_jieba() -> Any:
    """jieba, imported and initialised once (its default dictionary, no HMM state)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.dt
    if not tokenizer.initialized and tokenizer.dictionary == jieba.DEFAULT_DICT:
        _load_cached_dictionary(tokenizer)
    jieba.initialize()  # a no-op once loaded; else jieba builds (and caches) the dictionary
    return jieba


def _load_cached_dictionary(tokenizer: Any) -> None:
    """Fill `tokenizer` from jieba's cache file, as `Tokenizer.initialize` would."""
    name = tokenizer.cache_file or "jieba.cache"
    path = os.path.join(tokenizer.tmp_dir or tempfile.gettempdir(), name)
    try:
        with open(path, "rb") as handle:
            freq, total = marshal.loads(handle.read())
    except (OSError, EOFError, ValueError, TypeError):
        return  # no usable cache: jieba.initialize builds it
    if isinstance(freq, dict) and isinstance(total, int):
        with tokenizer.lock:
            if not tokenizer.initialized:
                tokenizer.FREQ, tokenizer.total = freq, total
                tokenizer.initialized = True
