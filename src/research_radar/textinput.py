"""Reading a text file a person hands the radar (a report to review, a README to extract,
earlier reports to import): refuse what is not text, decode what is text in any encoding.

UTF-8 (with or without a byte-order mark) and UTF-16/32 with a byte-order mark are read
as they are; other text (GBK, Big5, Shift-JIS, Latin-1, UTF-16 without a mark…) is decoded
with charset-normalizer's detection, and refused by name when the detection is unsure.
An empty file, a folder, a missing file and binary data (images, archives, databases)
are refused with an `InputError` that says what to do instead. Nothing is ever decoded
with replacement characters, so a number or a name is never silently mangled.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from pathlib import Path

from research_radar.errors import InputError

__all__ = ["DecodedText", "decode_text", "read_text_input"]

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_ALLOWED_CONTROLS = set("\t\n\r\f\v")
_MAX_CONTROL_SHARE = 0.002
"""More control characters than this share of the text (or any NUL) means binary data."""
_MAX_CHAOS = 0.25
"""charset-normalizer's mess ratio above which a guessed decoding is not trusted."""


@dataclass(frozen=True)
class DecodedText:
    """A file's text and the encoding it was read in."""

    text: str
    encoding: str


_CONTROLS = re.compile(
    "["
    + "".join(
        re.escape(chr(c))
        for c in range(0xA0)
        if (c < 32 or c >= 0x7F) and chr(c) not in _ALLOWED_CONTROLS
    )
    + "]"
)
"""C0 and C1 control characters but the allowed ones (each line's end is one: matching
those too and leaving them out after made a large file's check slow, #19)."""


def _looks_binary(text: str) -> bool:
    if "\x00" in text:
        return True
    controls = sum(1 for _ in _CONTROLS.finditer(text))
    return controls > max(1, len(text) * _MAX_CONTROL_SHARE)


def decode_text(data: bytes, name: str) -> DecodedText:
    """Decode bytes that should be text, or raise InputError naming `name`.

    Args:
        data: the file's bytes.
        name: how the input is named in messages (its path).
    """
    if not data.strip(b" \t\r\n\x00\xef\xbb\xbf\xff\xfe"):
        raise InputError(f"{name} is empty; pass a file with text in it")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"{name} starts with a {encoding.upper()} byte-order mark but is not "
                    f"{encoding.upper()} ({exc.reason}); convert it to UTF-8"
                ) from exc
            return _checked(text, encoding, name)
    try:
        return _checked(data.decode("utf-8"), "utf-8", name)
    except UnicodeDecodeError:
        pass
    guess = _guess(data)
    if guess is None:
        if b"\x00" in data:
            raise InputError(
                f"{name} is binary data, not text (it holds NUL bytes); pass a Markdown or "
                "plain-text file"
            )
        raise InputError(
            f"{name} is not UTF-8 and its encoding could not be told; convert it to UTF-8 "
            f"(e.g. `iconv -f GBK -t UTF-8 {name}`) and try again"
        )
    return _checked(guess.text, guess.encoding, name)


_PREFERRED = ("utf_16", "utf_16_le", "utf_16_be", "utf_32", "gb18030", "big5", "cp1252")
"""When detection is torn between encodings that read the bytes differently: UTF-16/32,
then GB18030 and Big5 (the team writes Chinese), then Windows-1252 (Western text)."""


def _guess(data: bytes) -> DecodedText | None:
    """charset-normalizer's reading when it is clear (or one of `_PREFERRED` is among the
    equally good readings); None when unsure."""
    from charset_normalizer import from_bytes
    from charset_normalizer.utils import is_multi_byte_encoding

    results = list(from_bytes(data))
    if not results:
        return None
    best = min(results, key=lambda match: match.chaos)
    if best.chaos > _MAX_CHAOS:
        return None
    group = [match for match in results if match.chaos <= best.chaos + 0.01]
    if len({str(match) for match in group}) == 1:
        return DecodedText(str(best), best.encoding)
    for preferred in _PREFERRED:
        match = next((m for m in group if m.encoding == preferred), None)
        if match is not None:
            return DecodedText(str(match), match.encoding)
    if all(not is_multi_byte_encoding(match.encoding) for match in group):
        try:
            return DecodedText(data.decode("cp1252"), "cp1252")
        except UnicodeDecodeError:
            return None
    return None


def _checked(text: str, encoding: str, name: str) -> DecodedText:
    if _looks_binary(text):
        raise InputError(
            f"{name} is binary data, not text (it holds control bytes); pass a Markdown or "
            "plain-text file"
        )
    if not text.strip():
        raise InputError(f"{name} is empty; pass a file with text in it")
    return DecodedText(text.removeprefix("\ufeff"), encoding)


def read_text_input(path: Path) -> DecodedText:
    """Read a text file a person handed the radar; see the module docstring.

    Raises InputError when it is missing, a folder, empty, binary or undecodable.
    """
    if path.is_dir():
        raise InputError(f"{path} is a folder; pass a file")
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise InputError(f"{path} not found; check the path") from exc
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return decode_text(data, str(path))
