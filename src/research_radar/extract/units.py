"""Numbers and units as pages write them: `1,234.5`, `tok/s`, `Tokens/Second`, `1.2 万
tokens/s`, `µs`, `W`; their canonical names and the metric a bare unit names.

Pure. A building block of `research_radar.extract.metrics` and the table reader; callers
outside this package use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = [
    "DEFAULT_METRIC_NAMES",
    "NUMBER_BODY",
    "NUMBER_PATTERN",
    "PERF_UNITS",
    "RATIO_UNITS",
    "UNIT_PATTERN",
    "canonical_unit",
    "number_start",
    "parse_number",
    "part_number",
    "range_end",
]


NUMBER_BODY = (
    r"(?<!\d)(?<!\d,)[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)"
    r"(?:\.\d+(?:[eE][-+−]?\d{1,3}(?![\d_.]))?|[eE][-+−]\d{1,3}(?![\d_.]))?"
    r"(?![\d]|\.\d|[eE][-+−]?\d)"
)
"""Regex source of one written number with its sign and, in scientific notation
(`5.56986e-05`, `2.29E-05`, `1e-5`), its exponent: the whole value is one number. An
exponent counts only after a decimal point or with its sign, and only where no further
digit follows it, so a hash or id (`3e5c1a`, `1e100`) is no number, nor any part of it;
a unit may stand glued after it (`2.29E-05s`) (refs #14)."""


NUMBER_PATTERN = r"(?<![A-Za-z_.])(?<!\d[eE][-+−])" + NUMBER_BODY
"""Regex source of one written number (`1,234.5`, `−0.8`), not glued to a Latin word before
it and never the tail of a longer number: no digit of any script (full-width `１２３`
included) and no `1,` group stands before it, so a match is always a whole number of the
input (refs #13)."""


_UNITS: tuple[tuple[str, str], ...] = (
    (
        r"[kK]\s?[Tt]ok(?:en)?s?\s?/\s?s(?:ec(?:ond)?)?|[kK]\s?[Tt]okens? per second|[kK]\s?TPS",
        "ktok/s",
    ),
    (r"M\s?[Tt]ok(?:en)?s?\s?/\s?s(?:ec(?:ond)?)?|M\s?[Tt]okens? per second", "Mtok/s"),
    (r"万\s?(?:[Tt]ok(?:en)?s?\s?/\s?(?:s|秒)|tokens?每秒)", "万tok/s"),
    (
        r"[Tt]ok(?:en)?s?/s(?:ec(?:ond)?)?|[Tt]okens?/Sec(?:ond)?|[Tt]oks/s|t/s|TPS|tps|"
        r"[Tt]okens?/GPU/s(?:ec(?:ond)?)?|"
        r"[Tt]okens? per second|Tps|[Tt]ok(?:en)?s?/s(?:ec)?/GPU|[Tt]okens? per GPU per [Ss]econd|"
        r"[Tt]ok(?:en)?s? ?/ ?s(?:ec(?:ond)?s?)?|[Tt]ok(?:en)?s? ?/ ?秒|[Tt]okens? per sec\b",
        "tok/s",
    ),
    (
        r"req(?:uest)?s? ?/ ?s(?:ec(?:ond)?)?|[Rr]equests? per sec(?:ond)?\b|RPS|rps|QPS|查询/秒|请求/秒|"
        r"[Qq]uer(?:y|ies)\s?/\s?s(?:ec)?|[Qq]ueries per second",
        "req/s",
    ),
    (
        r"字符/秒|字/秒|char(?:acter)?s?\s?/\s?s(?:ec(?:ond)?)?|char(?:acter)?s? per second",
        "char/s",
    ),
    (r"GB/秒", "GB/s"),
    (r"MB/秒", "MB/s"),
    (r"ms\s?/\s?tok(?:en)?|ms per (?:output )?token|毫秒\s?/\s?(?:token|词元)", "ms/token"),
    (r"ms\s?/\s?(?:image|img|张)|ms per image", "ms/image"),
    (r"s/it", "s/it"),
    (r"s\s?/\s?(?:video|视频)", "s/video"),
    (r"(?:s|sec)\s?/\s?(?:image|img|张)|(?:s|sec|seconds?) per image|秒\s?/\s?张", "s/image"),
    (r"it/s|iters?/s(?:ec)?|iterations?\s?/\s?s(?:ec)?|iterations? per second", "it/s"),
    (r"(?:img|image|pic(?:ture)?)s?\s?/\s?s(?:ec)?|images? per second|张\s?/\s?秒", "img/s"),
    (r"samples?\s?/\s?s(?:ec)?|samples? per second", "samples/s"),
    (r"seqs?\s?/\s?s(?:ec)?|sequences?\s?/\s?s(?:ec)?|sequences? per second", "seq/s"),
    (r"infer(?:ence)?s?\s?/\s?s(?:ec)?|inferences? per second", "infer/s"),
    (r"frames?\s?/\s?s(?:ec)?|frames? per second|帧\s?/\s?秒|帧每秒", "FPS"),
    (r"[MGT]i?B/s", ""),
    (r"T[Ff][Ll][Oo][Pp][Ss](?:/s(?:ec)?)?(?:\s?/\s?(?:GPU|卡))?|TFLOP/s", "TFLOPS"),
    (r"P[Ff][Ll][Oo][Pp][Ss](?:/s(?:ec)?)?|PFLOP/s", "PFLOPS"),
    (r"G[Ff][Ll][Oo][Pp][Ss](?:/s(?:ec)?)?|GFLOP/s", "GFLOPS"),
    (r"GiB|MiB|GB|MB|TB", ""),
    (r"G(?=起|\s?(?:左右|的)?(?:额外)?(?:显存|内存|交换空间)|$|[,，;；。、])", "GB"),
    (r"M(?=\s?(?:左右|的)?(?:额外)?(?:显存|内存|交换空间))", "MB"),
    (r"ms|毫秒|milliseconds?|msecs?", "ms"),
    (r"µs|μs|us|microseconds?|usecs?", "us"),
    (r"s(?:ec|econds?)?|秒", "s"),
    (r"min(?:utes?|s)?|分钟", "min"),
    (r"hours?|hrs?|小时", "h"),
    (r"days?|天", "d"),
    (r"FPS|fps", "FPS"),
    (r"ops?/s", "op/s"),
    (r"W(?=$|[\s|,;)）。，])|瓦", "W"),
    (r"Hz", "Hz"),
    (r"pp|个?\s?百分点", "pp"),
    (r"\\?%", "%"),
    (r"[×xX]|倍|\\times|-?fold(?![A-Za-z])", "x"),
    (
        r"times(?=\s(?:faster|slower|higher|lower|more|less|larger|smaller|better|fewer|"
        r"greater|that of|over|speed-?ups?|improvement|acceleration|the (?:speed|throughput|"
        r"performance|bandwidth|efficiency))\b)",
        "x",
    ),
)


UNIT_PATTERN = "|".join(f"(?:{pattern})" for pattern, _ in _UNITS)
"""Regex source of any unit as written; `canonical_unit` names it."""


PERF_UNITS = {
    "tok/s",
    "ktok/s",
    "Mtok/s",
    "万tok/s",
    "req/s",
    "char/s",
    "ms/token",
    "s/it",
    "s/video",
    "s/image",
    "it/s",
    "ms",
    "us",
    "s",
    "min",
    "h",
    "d",
    "x",
    "FPS",
    "img/s",
    "samples/s",
    "seq/s",
    "infer/s",
    "ms/image",
}
"""Canonical units that make a metric a performance one."""


RATE_UNITS = frozenset(
    {"tok/s", "ktok/s", "req/s", "it/s", "img/s", "samples/s", "seq/s", "infer/s", "FPS", "char/s"}
)
"""Canonical units of a rate: so many things done per second."""


RATIO_UNITS = frozenset({"x", "%", "pp"})
"""Canonical units of a ratio between two measurements, not of a measurement itself."""


DEFAULT_METRIC_NAMES = {
    "tok/s": "throughput",
    "ktok/s": "throughput",
    "万tok/s": "throughput",
    "Mtok/s": "throughput",
    "char/s": "speed",
    "req/s": "request throughput",
    "ms": "latency",
    "us": "latency",
    "s": "time",
    "min": "time",
    "h": "time",
    "d": "time",
    "$": "cost",
    "ms/token": "per-token latency",
    "W": "power",
    "op/s": "throughput",
    "s/it": "step time",
    "it/s": "iteration rate",
    "x": "speedup",
    "%": "change",
    "pp": "change",
    "FPS": "frame rate",
    "img/s": "image throughput",
    "samples/s": "sample throughput",
    "seq/s": "sequence throughput",
    "infer/s": "inference throughput",
    "ms/image": "per-image latency",
    "s/image": "per-image time",
    "TFLOPS": "compute",
    "PFLOPS": "compute",
    "GFLOPS": "compute",
    "Hz": "rate",
}
"""Metric name by canonical unit, when the statement names none."""


@lru_cache(maxsize=4096)
def canonical_unit(raw: str) -> str:
    """`tokens/s` -> `tok/s`; units without a canonical form are kept as written (each
    spelling worked out once: a document writes few, many times; issue #19)."""
    if raw == "times":
        return "x"  # `3 times faster`: its pattern needs the comparison after it
    for pattern, canonical in _UNITS:
        if re.fullmatch(pattern, raw):
            return canonical or raw
    for pattern, canonical in _UNITS:
        if canonical and re.fullmatch(pattern, raw, re.I):
            return canonical  # `Seconds`, `MS`
    return raw


def parse_number(raw: str) -> float:
    """A number as written (`1,234.5`, `−3`) -> float."""
    return float(raw.replace(",", "").replace("−", "-"))


_UNIT_BEFORE = re.compile(rf"{NUMBER_BODY}\s?(?P<unit>{UNIT_PATTERN})$")
_UNIT_AFTER = re.compile(rf"-{NUMBER_BODY}\s?(?P<unit>{UNIT_PATTERN})")


def number_start(text: str, at: int) -> int:
    """Where the number `NUMBER_PATTERN` found at `at` starts, its sign included: one
    further on where its hyphen joins a range (`5%-30%`: 30, `range_end`), one before where
    the hyphen glued to another unit that ends in a letter is the sign of a change (`5
    tok/s-30%`: -30; the pattern leaves a hyphen after a letter out, as in `Llama-3`)."""
    if range_end(text, at):
        return at + 1
    if at < 3 or text[at - 1] != "-" or not text[at - 2].isalpha():
        return at
    before = _UNIT_BEFORE.search(text, max(0, at - 33), at - 1)
    change = _CHANGE_AFTER.match(text, at)
    if before is None or change is None:
        return at
    return at - 1 if canonical_unit(before["unit"]) != canonical_unit(change["unit"]) else at


_CHANGE_AFTER = re.compile(rf"{NUMBER_BODY}\s?(?P<unit>%|pp|个?\s?百分点)")
"""A change: a number of percent or percentage points."""


def range_end(text: str, at: int) -> bool:
    """Whether the hyphen at `at` joins a range: glued between two numbers of one unit
    (`5%-30%`, `2倍-3倍`, `5秒-10秒`), it is no minus sign of the second (30, not -30);
    after a space or at the start of a text (`by 20%, -30%`), it is (issue #14)."""
    if not at or text[at] != "-":
        return False
    before = _UNIT_BEFORE.search(text, max(0, at - 32), at)
    if before is None:
        return False
    after = _UNIT_AFTER.match(text, at)
    return after is not None and canonical_unit(after["unit"]) == canonical_unit(before["unit"])


_PART_FAMILY = re.compile(
    r"\b(?:Ryzen|Core|Xeon|EPYC|Epyc|Threadripper|Athlon|Pentium|Celeron|Opteron|"
    r"RTX|GTX|RX|Radeon)"
    r"(?:[\s-]+(?:PRO|Pro|Platinum|Gold|Silver|Bronze|Max|Ultra|i[3579]|\d{1,2}|[A-Z]{1,2}))*"
    r"[\s-]+$"
)
"""`Ryzen 9 `, `Core i7-`, `Xeon W-`, `Threadripper PRO `: a part family's name and the
words of its model before the model number."""
_PART_CODE = re.compile(r"[xX]\d?[A-Z]{1,3}(?![A-Za-z])")
"""`X3D`, `XE`, `XTX`: more of a model code after the `X`."""


def part_number(before: str, raw: str, after: str) -> bool:
    """Whether a whole number glued to an `X` is a part's model number, not a ratio:
    `Ryzen 9 5950X`, `Xeon W-3175X`, `Threadripper 3990X` (after a part family's name) or
    `7800X3D`, `10980XE` (more model code follows). It has three digits or more, which
    keeps `3x` and `5.2X` ratios, and `256X` where no family names it (issue #14)."""
    if after[:1] not in ("x", "X") or len(raw) < 3 or not raw.isdigit():
        return False
    return _PART_CODE.match(after) is not None or _PART_FAMILY.search(before[-48:]) is not None
