"""What the lines around a table say of its numbers: a unit (`(Unit: Seconds)`, `单位：毫秒`,
`All µs/call.`, `Decode speed (tokens/s) on RTX 4090:`, a heading `Throughput (token/s)`)
or a score (`Measure the perplexity ...:`).

Pure. A building block of `research_radar.extract.markdown`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re
from functools import lru_cache

from research_radar.extract.units import UNIT_PATTERN, canonical_unit

__all__ = ["SectionUnits", "intro_score", "intro_unit", "stated_unit", "table_unit"]


class SectionUnits:
    """Where a table's unit is said: the line before it, its section (`recent`, the lines
    since the last heading, that heading first), the line below it, an enclosing
    section's notes (`所测时延均为…, 单位是毫秒` above `### YOLO` / `#### Runtime`), or
    an earlier set-up section (`## 测试环境` ... `统计平均时间，单位 ms`)."""

    def __init__(self) -> None:
        self.recent: list[str] = []
        self._outer: list[tuple[int, list[str], dict[str, str]]] = []
        """The lines of the enclosing sections, by heading level, with the unit they state
        once a table asked for it (read only then: most sections hold no table)."""
        self._level = 0
        self._asked = 0
        """How many of `recent` stood above the section's last table, and the note below it."""
        self._setup = ""
        """The unit a set-up section said once for the tables of later sections
        (`统计平均时间，单位 ms` in `## 测试环境`, the tables under `## 测试数据`)."""
        self._columns: tuple[int, dict[str, str]] = (0, {})
        """The section level of the last table, and the unit its header gave each column."""

    def heading(self, level: int) -> None:
        """A `#` heading of `level` starts a section: what its parents said still holds."""
        if self.recent and _SETUP_HEADING.search(self.recent[0]):
            # what a set-up section says after its last table is no table's: it holds for
            # the tables of the sections after it
            self._setup = _recent_unit(self.recent[self._asked :]) or self._setup
        self._asked = 0
        if level < self._columns[0]:
            self._columns = (0, {})  # a table's columns are its sibling sections' only
        self._outer.append((self._level, self.recent, {}))
        self._outer = [entry for entry in self._outer if entry[0] < level]
        self._level = level
        self.recent = []

    def table(self, before: str, lines: list[str], index: int) -> str:
        """The unit of the table whose header or first row is `lines[index - 1]`."""
        self._asked = len(self.recent) + 1
        return (
            stated_unit(before)
            or intro_unit(before)
            or table_unit(self.recent, lines, index)
            or self._outer_unit()
            or self._setup
        )

    def listed(self, before: str) -> str:
        """The unit of a list whose first item follows the line `before`: said in that line
        (`Latency in ms for each batch size:`, `Results (tok/s):`) or in the heading or
        lines of its section above it (`### Decode throughput (tokens/s)`). Not an
        enclosing section's, nor a set-up section's: a list is read where it stands."""
        return stated_unit(before) or intro_unit(before) or _recent_unit(self.recent)

    def sibling(self, header: tuple[str, ...]) -> str:
        """The unit of a table whose header gives none, from the last table of a sibling
        section (`### Single GPU` then `### Multiple GPUs`) whose header gave one unit to
        the same columns (`| MLC LLM (tok/sec) | Llama.cpp (tok/sec) |`, then `| MLC-LLM |
        Llama.cpp |`)."""
        units = {_column_key(cell): _column_unit(cell) for cell in header if cell.strip()}
        given = {unit for unit in units.values() if unit}
        level, before = self._columns
        self._columns = (self._level, units) if given else self._columns
        if given or level != self._level:
            return ""
        carried = {before[k] for k in units if before.get(k)}
        return carried.pop() if len(carried) == 1 else ""

    def defined(self, header: tuple[str, ...]) -> tuple[str, ...]:
        """`header` with the unit of each cell its section defines as an abbreviation
        (`- TGS: Tokens per GPU per Second` above `| TGS |`) written after it."""
        if not any(_ABBREVIATION.fullmatch(cell) for cell in header):
            return header  # (most headers name no abbreviation)
        defined: dict[str, str] = {}
        for line in self.recent:
            match = _DEFINITION.match(line)
            if match:
                unit = canonical_unit(match.group("unit") or match.group("tail"))
                defined.setdefault(match.group("abbr"), unit)
        return tuple(f"{cell} ({defined[cell]})" if defined.get(cell) else cell for cell in header)

    def _outer_unit(self) -> str:
        for _, recent, known in reversed(self._outer):
            if "unit" not in known:
                known["unit"] = _recent_unit(recent)
            if known["unit"]:
                return known["unit"]
        return ""


def _column_key(cell: str) -> str:
    return re.sub(r"[^a-z0-9\u4e00-\u9fff]", "", _COLUMN_UNIT.sub("", cell).lower())


def _column_unit(cell: str) -> str:
    match = _COLUMN_UNIT.search(cell)
    return canonical_unit(match.group(1)) if match else ""


_COLUMN_UNIT = re.compile(rf"[(（\[]\s*({UNIT_PATTERN})\s*[)）\]]\s*$", re.I)
"""The unit a column header gives in brackets at its end (`MLC LLM (tok/sec)`)."""


_ABBREVIATION = re.compile(r"[A-Z][A-Za-z0-9]{1,7}")
"""A column named by an abbreviation (`TGS`, `TPOT`)."""
_DEFINITION = re.compile(
    r"\W*(?:[-*+]\s)?\W*(?P<abbr>[A-Z][A-Za-z0-9]{1,7})\W*\s*[:：=]\s*"
    rf"(?:(?P<unit>{UNIT_PATTERN})|[^()（）]{{0,60}}[(（]\s*(?P<tail>{UNIT_PATTERN})\s*[)）])"
    r"[\s.。]*$",
    re.I,
)
"""A note that defines an abbreviation as a unit (`- TGS: Tokens per GPU per Second`) or
gives its unit after what it means (`* TPOT: time per output token (ms)`)."""


_SETUP_HEADING = re.compile(
    r"^#+\s.*(?:set-?up|environment|configuration|settings|methodology|测试环境|实验环境|"
    r"实验设置|测试配置|测试设置|测试说明|测试方法|运行环境|环境配置)",
    re.I,
)
"""A section that states the set-up of the document (`## Setup`, `## 测试环境`)."""


def _recent_unit(recent: list[str]) -> str:
    for text in reversed(recent):
        unit = stated_unit(text) or _heading_unit(text) or _named_unit(text)
        if unit:
            return unit
    return ""


@lru_cache(maxsize=4096)
def _named_unit(text: str) -> str:
    """`... 不同 Batchsize 下的推理速度(tokens/s), 测试环境 ...`: a section's text names
    the measure of its table with the unit in parentheses; one unit, or none (`latency
    (ms) and throughput (tok/s)` leaves each column to say its own)."""
    units = {canonical_unit(m.group(1)) for m in _NAMED_UNIT.finditer(text)}
    return units.pop() if len(units) == 1 else ""


_NAMED_UNIT = re.compile(
    r"(?:speed|throughput|latency|time|memory|速度|吞吐量?|延迟|时延|耗时|显存|内存)\s?"
    rf"[(（]\s*({UNIT_PATTERN})\s*[)）]",
    re.I,
)


def table_unit(recent: list[str], lines: list[str], index: int) -> str:
    """A table's unit said in its section before it (`speed metric is tokens/s`, a heading
    `Throughput (token/s)`) or in the paragraph right below it (`(Unit: tokens/second)`)."""
    unit = _recent_unit(recent)
    if unit:
        return unit
    while index < len(lines) and (not lines[index].strip() or lines[index].strip()[0] == "|"):
        index += 1  # this table, and the tables right below it that share the note
    if index >= len(lines):
        return ""
    below = lines[index]
    caption = _CAPTION_UNIT.match(below.strip())  # `Table 4: Decode latency (ms).`
    return stated_unit(below) or (canonical_unit(caption.group(1)) if caption else "")


_CAPTION_UNIT = re.compile(
    rf"[*_]{{0,2}}(?:Table|Tab\.|表)\s?\d.*?[(（]\s*({UNIT_PATTERN})\s*[)）]", re.I
)
"""A caption that gives its table's unit in parentheses, below the table."""


_TITLE_UNIT = re.compile(
    rf"(?:#+\s|\*\*|_?(?:Table|Fig(?:ure)?\.?|表|图)\s?\d).*?[(（]\s*({UNIT_PATTERN})\s*[)）]",
    re.I,
)
"""A heading, a bold line or a caption that gives a unit in parentheses."""


_INTRO_UNIT = re.compile(
    rf"[(（]\s*({UNIT_PATTERN})\s*[)）](?![A-Za-z])"
    r"(?:.*[:：]\s*$|.*\b(?:below|as follows|the following (?:table|results))\b|.*如下)"
)


_DEFINED_RATE = re.compile(
    r"(?:^|[，,。.;；:：]\s*)\W{0,2}(TPS|QPS|RPS|FPS)\W{0,2}\s*(?:为|是|指|is\b|are\b|means\b|[=:：])(?!\s*\d)"
)
"""`下表使用 input_len=2048，TPS 为多次运行的 mean latency 计算结果。`, `QPS is measured at
...`: the line above a table says what its numbers are, a rate named by its unit."""


_SHOWN_UNIT = re.compile(
    r"\b(?:shows?|reports?|lists?|gives?|presents?)\s(?:the\s)?"
    rf"[^.:;\d]{{0,30}}?(?<=\s)({UNIT_PATTERN})(?![\w/])(?![^.;]*\d\s?(?:{UNIT_PATTERN}))",
    re.I,
)
"""`The table shows tokens/s for each GPU.`: the line above a table names the unit of its
numbers as what it shows (no number before it: `shows 40 tok/s` is a claim's), and no
other unit (`We compare s and ms`)."""
_WORD_UNIT = re.compile(rf"(?<![\w/])(?:{UNIT_PATTERN})(?![\w/])")


_SPEEDUP_TITLE = re.compile(r"^\W*(?:speed-?ups?|加速比)\b", re.I)


def intro_unit(text: str) -> str:
    """`Decode speed (tokens/s) on RTX 4090:`, `We report latency (ms) below.`: the line
    that introduces a table gives the unit of its numbers in parentheses; `Speedup of LightSeq over PyTorch:` and
    `normalised to Python = 1.00:` give ratios."""
    match = _INTRO_UNIT.search(text) or _DEFINED_RATE.search(text)
    if match:
        return canonical_unit(match.group(1))
    if _NORMALISED.search(text):
        return "x"  # `normalised to Python = 1.00:`: ratios to the reference
    shown = _SHOWN_UNIT.search(text)
    if shown:
        named = {canonical_unit(m.group(0)) for m in _WORD_UNIT.finditer(text)}
        return named.pop() if len(named) == 1 and not named & {"x", "%"} else ""
    if not text.rstrip().endswith((":", "：")):
        return ""
    if _TOKEN_RATE.search(text):
        return "tok/s"  # `the average token generation rates are:`
    return "x" if _SPEEDUP_TITLE.match(text) else ""


_NORMALISED = re.compile(
    r"\b(?:normali[sz]ed|relative)\s+to\s+[^.;:=()]{1,40}?\s?"
    r"(?:=\s?1(?:\.0+)?\s?[x×]?|\(\s?=?\s?1(?:\.0+)?\s?[x×]?\s?\))\W*$",
    re.I,
)
"""`normalised to Python = 1.00:`, `relative to JAX (=1.0):`: what follows is read as
ratios to that reference (issue #14)."""


_TOKEN_RATE = re.compile(
    r"\btokens?(?:\s(?:generation|decoding|output))?\s(?:rates?|speeds?)\b", re.I
)


_SCORE_INTRO = re.compile(r"\b(perplexity|PPL|accuracy|BLEU|WER|CER)\b|(困惑度|准确率)", re.I)


def intro_score(text: str) -> str:
    """`Measure the perplexity with a stride of 512:`: the score of the table below."""
    if not text.rstrip().endswith((":", "：")):
        return ""
    match = _SCORE_INTRO.search(text)
    return match.group(0).lower() if match else ""


@lru_cache(maxsize=4096)
def _heading_unit(text: str) -> str:
    """`### Generation Throughput (token/s)`: the unit a heading gives in parentheses;
    `#### 4 线程速度: `tok/s``, `### Peak memory [GB]`, `### Latency, ms`: at its end."""
    match = _TITLE_UNIT.match(text) or _TITLE_TAIL_UNIT.match(text)
    if match is None or match.group(1) == "G":
        return ""  # `### H20 96G`: a part's memory, not the unit of the section
    return canonical_unit(match.group(1))


_TITLE_TAIL_UNIT = re.compile(
    rf"(?:#+\s|\*\*).*?(?:[:：,，]\s*|\s[-–—/]\s*|\s(?=[`\[【])|\sin\s)"
    rf"[`\[【]?\s*({UNIT_PATTERN})\s*[`\]】]?[\s*:：]*$",
    re.I,
)
"""A heading or a bold line that ends with a unit, set off by a colon, a comma, a dash,
`in`, backticks or brackets (not the tail of a name: `### Qwen-7B`, `### 8x A100`)."""


@lru_cache(maxsize=4096)
def stated_unit(text: str) -> str:
    """The unit a line states for the table below it: `(Unit: Seconds)`, `单位：毫秒`.

    Read once per line: each table of a section reads the section's lines again (#19)."""
    match = _STATED_UNIT.search(text)
    if match:
        return canonical_unit(match.group(1))
    measure = _MEASURE_IN.search(text)
    unit = canonical_unit(measure.group(1)) if measure else ""
    return "" if unit in ("x", "%") else unit


_MEASURE_IN = re.compile(
    r"\b(?:latenc(?:y|ies)|throughputs?|speeds?|(?:run|wall|step|inference|generation|"
    r"decode|prefill)[ -]?times?|memory|bandwidth)\b[^.,:;()\d]{0,30}?\bin\s"
    rf"({UNIT_PATTERN})(?![A-Za-z\d])",
    re.I,
)
"""`Latency per token in ms shown.`, `Throughput in tokens/s`: a measure named with its unit
after `in`, no number between (`latency in 5 runs` names no unit)."""


_STATED_UNIT = re.compile(
    rf"(?:^\W*all\s(?=[µu]s|ms|s\b|sec|tok|TFLOP|GB/s)|\bunits?\s*[:：]|单位\s*(?:[:：]|[是为]|均为|都是|(?=\s?(?:ms|s|us|µs)\b|\s?毫秒|\s?秒))|\bmetric is|[(（][^()（）]{{0,40}}?\bin(?=\s?[A-Za-z]+\s?[)）][\s:：]*$)|\b(?:measured|reported|given|shown) in|"
    rf"\b(?:numbers|values|results|times|timings?|latenc(?:y|ies)|throughputs?)\s+"
    rf"(?:are\s+|is\s+)?(?:in\s+|as\s+)?(?=[µu]s|ms|s\b|sec|tok|TFLOP|GB/s))"
    rf"\s*({UNIT_PATTERN})(?![A-Za-z])",
    re.I,
)
