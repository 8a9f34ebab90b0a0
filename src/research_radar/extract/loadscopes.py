"""Load scopes: where a document states the load of many numbers at once.

Pure. A building block of `research_radar.extract.scopes`; callers outside this package
use `research_radar.extract.claims` instead. These places state a load (batch,
concurrency, prompt, output, context or rate) for more than the statement they stand in
(issue #14):

- a note right below a table that states a load and no number of its own (`Input length
  2048, output length 128.`, `输入长度为 1024，输出长度为 128。`): the load of the table
  and of the paragraph right above it, whatever the note's first word;
- a statement that says it holds for all of a section's numbers (`All numbers are
  measured at batch size 8.`, `以下结果的并发数均为 16`, `unless noted otherwise`) and
  gives no number of its own: the load of its whole section, before it and after it;
- a settings line (`- Batch size: 8`, `并发数：16`): the load of its whole section;
- a section on how the numbers were taken (`## Methodology`, `## 测试方法`, `## Test
  conditions`), or one that measures nothing and says how the authors ran (`## Notes` /
  `We use a batch size of 1 ... for evaluation`): the load it states holds for its
  parent section.

A document's one mention of a load is no scope of its own: read as the whole page's
default, it was wrong far more often than right on the tune documents. A load key
stated with more than one value in one place sets up nothing (`batch 1 and 32`:
alternatives, `extract.loads.several_values`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from research_radar.extract.catalogue import Catalog
from research_radar.extract.conditions import find_conditions
from research_radar.extract.loads import several_values
from research_radar.extract.markdown import Segment
from research_radar.extract.metrics import find_metrics
from research_radar.extract.prefilter import probe_of
from research_radar.extract.screened import match, search
from research_radar.extract.settingrows import setting_rows

__all__ = ["LOAD_KEYS", "LoadScope", "find_load_scopes", "parent_lines"]

LOAD_KEYS = ("batch", "concurrency", "prompt", "output", "context", "rate")
"""The keys of a request's shape and pressure: what a note or a set-up gives a table."""
_SETTING_KEYS = (*LOAD_KEYS, "gpus", "tp", "ep")
"""A settings line's keys: the load's, and how many GPUs serve it (`- Tensor Parallelism:
4` above the results, issue #14). A note or a sentence that names a count of GPUs
(`All experiments were run on a single RTX 3090`) tells where, read with the hardware by
`extract.setupnotes`, more often than a load set for every number."""


@dataclass
class LoadScope:
    """Lines `first..last` of a document and the load stated for them."""

    first: int
    last: int
    load: dict[str, str] = field(default_factory=dict)
    several: set[str] = field(default_factory=set)

    def add(self, load: dict[str, str]) -> None:
        for key, value in load.items():
            if self.load.setdefault(key, value) != value or key in self.several:
                self.several.add(key)
                self.load.pop(key, None)


_ALL_NUMBERS = re.compile(
    r"\ball (?:(?:the|of the|our|these|other|\w+)\s)?(?:numbers|results|benchmarks|measurements|"
    r"experiments|tests|runs|figures|data|evaluations)\b|\bunless (?:\w+\s)?(?:noted|stated|"
    r"specified|mentioned)\b|\bthroughout\b|\bin all (?:\w+\s)?(?:cases|runs|tests|experiments)\b|"
    r"(?:所有|全部|以下|上述|本节|本文)[^。；;]{0,12}(?:结果|数据|测试|实验|性能)|均为|均是|"
    r"均采用|均使用|均在|如无特殊说明|除非另有说明|若无特别说明|默认",
    re.I,
)
"""A statement that sets up every number of its section, not one of them."""
_SETS = re.compile(
    r"\b(?:we|I)\s(?:\w+\s){0,2}?(?:set|fix|fixed|keep|kept|configure[ds]?|use[ds]?)\s(?:the\s|a\s)?"
    r"(?:batch[ _-]?size|concurrency|(?:input|output|prompt|generation|context|sequence)[ _]"
    r"(?:length|len|tokens))\b[^.;:]{0,24}?\b(?:to|at|as|of)\b|"
    r"(?:batch[ _-]?size|concurrency|(?:input|output|prompt|generation|context)[ _](?:length|len|tokens))"
    r"\s(?:is|was|are|were)\s(?:(?:always|uniformly)\s)?(?:set|fixed|kept)\s(?:\w+\s)?(?:to|at)\b|"
    r"(?:批(?:处理|次)?大小|并发(?:数|度)?|(?:输入|输出|生成)(?:长度|token\s?数))\s?(?:均|统一|都)?"
    r"(?:设置?为|设定为|固定为)",
    re.I,
)
"""`we set batch size here to 1`, `the input length is fixed at 2048`, `并发数设置为 16`:
the authors fixing a key for their runs, not one run's value: the load of its section."""
_METHOD_HEADING = re.compile(
    r"\bmethodology\b|\bbenchmark(?:ing)? (?:method|details|parameters|conditions|protocol)|"
    r"\btest(?:ing)? (?:method|conditions|parameters|details|protocol)|"
    r"\bhow we (?:test|measure|benchmark)|测试(?:方法|说明|条件|参数|方案)|实验(?:方法|说明|条件|参数)|"
    r"评测(?:方法|说明|设置|配置)",
    re.I,
)
"""A section on how the numbers were taken (load only: a method section may discuss the
models it compares, not only the one it ran)."""
_INTRODUCES = re.compile(r"[:：]\W*$|如下|\b(?:below|as follows|following)\b", re.I)
"""A paragraph below a table that introduces what follows it is not a note on the table."""
_EXAMPLE = re.compile(r"例如|比如|\b(?:for example|for instance|e\.g\.|if you|you can)\b", re.I)
"""`例如 --batch-size 8`, `you can raise the batch size to 64`: advice, not the set-up."""


def find_load_scopes(
    segments: list[Segment],
    spans: list[tuple[Segment, int]],
    end: int,
    cat: Catalog,
) -> list[LoadScope]:
    """The load scopes of a document's segments.

    Args:
        spans: each heading and the last line of its section, in document order.
        end: one past the document's last line.
    """
    rows = setting_rows(segments, _is_setting)
    scopes = [*_notes_below_tables(segments, cat), *_section_statements(segments, spans, cat)]
    scopes.extend(_method_sections(segments, spans, end, cat))
    scopes.extend(_setting_lines(segments, spans, end, cat, rows))
    scopes.extend(_numberless_sections(segments, spans, end, cat, rows))
    return [s for s in scopes if s.load]


def _stated(
    text: str,
    cat: Catalog,
    rows: tuple[str, ...] = (),
    keys: tuple[str, ...] = LOAD_KEYS,
    measures: bool = True,
) -> dict[str, str]:
    """The load keys a statement that holds no number of its own states once each; {} for
    a statement with a number, an example or an introduction, or one about some of the
    models the table `rows` name and not the others (`For NVILA, each image is 128 input
    tokens` below a table of five models: those rows' load, not the table's). Without
    `measures`, the statement is known to measure nothing (a row of a table of settings:
    `| Workers | 1x TP=1 |` counts workers, no speed-up)."""
    probe = probe_of(text)
    if search(_EXAMPLE, probe) or search(_INTRODUCES, probe):
        return {}  # (a load said in words has no digit: `Request pattern: Sequential`)
    conditions = find_conditions(text, cat)
    load = {k: v for k, v in conditions.load.items() if k in keys}
    if not load or (measures and find_metrics(text, cat, conditions)):
        return {}
    if rows and conditions.model and _qualified(text, cat):
        named = {m for row in rows for m in cat.names("model", row)}
        if named - set(conditions.model):
            return {}
    several = several_values(text)
    return {k: v for k, v in load.items() if k not in several}


_FOR = re.compile(r"(?:\bfor|对于|针对|其中)\s?(?:the\s|all\s)?$", re.I)


def _qualified(text: str, cat: Catalog) -> bool:
    """`for NVILA, ...`, `对于 Qwen-7B，...`: a statement about the model it names."""
    return any(_FOR.search(text, max(0, m.start - 12), m.start) for m in cat.find("model", text))


def _notes_below_tables(segments: list[Segment], cat: Catalog) -> list[LoadScope]:
    """`Input length 2048, output length 128.` right below a table: the load of the table
    and of the paragraph right above it, which introduces it (`实测提升 31.6%：` over the
    table, `> 测试环境和参数：batch size = 1, 生成长度 = 2048` under it). The note is the
    paragraph (or list) that follows the table, sentence by sentence, up to the next blank
    line or heading; a paragraph right above another table introduces that one
    (`extract.claims` reads it so), not a note on the table above it."""
    scopes: list[LoadScope] = []
    first = last = 0
    note: LoadScope | None = None
    kind = ""
    rows: list[str] = []
    """The table's rows (their models are read only for a note about some model)."""
    paragraph = 0
    """The first line of the paragraph being read (0 after anything else)."""
    for segment in segments:
        if segment.block == "table" or segment.header:
            if note is not None:
                scopes.remove(note)  # between two tables: the next one's introduction
            if not last:
                rows = []
            first = first or paragraph or segment.line
            paragraph = 0
            last = segment.line
            rows.append(segment.text)
            note, kind = None, ""
            continue
        if segment.block != "prose":
            paragraph = 0
        elif segment.new_paragraph or not paragraph:
            paragraph = segment.line
        if note is not None and segment.block == kind and not segment.new_paragraph:
            note.add(_stated(segment.text, cat, tuple(rows)))  # its next sentence
            continue
        note, kind = None, ""
        if last and segment.block in ("prose", "list"):
            note, kind = LoadScope(first, last), segment.block
            note.add(_stated(segment.text, cat, tuple(rows)))
            scopes.append(note)
        first = last = 0
    return scopes


_NOTE = re.compile(
    r"^[>\s]*(?:\*\*)?(?:notes?|nb|注意(?:事项)?|注|备注|说明)(?:\*\*)?\s?[:：]", re.I
)
"""A note's opening (`Note:`, `> 注意：`): what its statements state as a load holds for
its section, like a statement for all numbers."""


def _section_statements(
    segments: list[Segment], spans: list[tuple[Segment, int]], cat: Catalog
) -> list[LoadScope]:
    """`All numbers are measured at batch size 8.` anywhere in a section, or a load stated
    in a note (`> Note: ...` / `> Input length 1024.`): its whole section's load (before
    the statement too: a note after the numbers it sets up)."""
    scopes: list[LoadScope] = []
    noted = False
    """Whether the segment stands in a note (`> 注意：` / `> 使用1024的输入序列长度...`)."""
    for segment in segments:
        if segment.block not in ("prose", "list"):
            noted = False
            continue
        probe = probe_of(segment.text)
        if segment.new_paragraph:
            noted = bool(match(_NOTE, probe))
        if not probe.has_digit or not (
            noted or search(_ALL_NUMBERS, probe) or search(_SETS, probe)
        ):
            continue  # (a load has its digits: most statements are passed over here)
        load = _stated(segment.text, cat)
        if not load:
            continue
        section = next(((h, e) for h, e in reversed(spans) if h.line < segment.line <= e), None)
        scope = LoadScope(section[0].line, section[1]) if section else LoadScope(1, segment.line)
        if section is None:
            scope.last = max((s.line for s in segments), default=segment.line)
        scope.add(load)
        scopes.append(scope)
    return scopes


_SETTING = re.compile(
    r"^\W{0,4}(?:(?:expected|average|avg|mean|target|fixed)\s)?"
    r"(?:batch[ _-]?size|bs|concurrency|(?:number of )?concurrent (?:requests|users)|"
    r"(?:input|output|prompt|generation|sequence|context|prefill|decode)(?:'s)?[ _](?:token[ _])?"
    r"(?:length|len|tokens)|max[ _](?:new[ _])?tokens|(?:ISL|input|prompt)\s?/\s?(?:OSL|output)|"
    r"ISL|OSL|"
    r"context|request[ _]rate|request[ _]pattern|QPS|"
    r"tensor[ _-]parallel(?:ism|[ _]size)?|expert[ _-]parallel(?:ism|[ _]size)?|TP(?:[ _]size)?|"
    r"EP(?:[ _]size)?|(?:number of |num[ _]|#\s?)?GPUs?(?:[ _](?:count|num))?|卡数|GPU\s?数量?|"
    r"张量并行(?:度|数)?|专家并行(?:度|数)?|并发(?:数|度|请求数)?|批(?:次|处理)?大小|输入(?:长度|token数?)|"
    r"输出(?:长度|token数?)|上下文(?:长度)?|序列长度|生成长度)\W{0,3}\s?[:：=]",
    re.I,
)
"""A setting's line (`- Batch size: 8`, `**Input length**: 1024`, `并发数：16`)."""


_LISTED = re.compile(r"[:：=]\s*\d[\d.,]*[Kk]?\s*(?:[,，、/]|\band\b|\bor\b|和|或)\s*\d")
"""`Concurrency: 1, 8, 32`: a setting swept over several values, none of them the load."""


def _is_setting(text: str) -> bool:
    return bool(search(_SETTING, probe_of(text)))


def _setting_lines(
    segments: list[Segment],
    spans: list[tuple[Segment, int]],
    end: int,
    cat: Catalog,
    rows: dict[int, str],
) -> list[LoadScope]:
    """`- Batch size: 8` anywhere in a section, above its numbers or below them: the load
    of the whole section (a key given two values there sets up none). A section of
    settings that measures nothing (`### Workload` / `- Max tokens: 50` beside `###
    Results`) sets up its parent section, as a set-up section does (`extract.scopes`); a
    table of settings (`| Concurrency | 16 |`, `extract.settingrows`) is such lines.

    Args:
        rows: line -> `key: value` for the rows of the document's tables of settings.
    """
    by_section: dict[int, LoadScope] = {}
    starts = [heading.line for heading, _ in spans]
    for segment in segments:
        text = rows.get(segment.line, "") if segment.block == "table" else segment.text
        if segment.block not in ("prose", "list", "table") or len(text) > 80:
            continue
        if segment.header and segment.block != "table":
            continue  # a table's header row
        if _LISTED.search(text) or not (segment.line in rows or _is_setting(text)):
            continue  # (every row of a table of settings is one: `| Workers | 1x TP=1 |`)
        load = _stated(text, cat, keys=_SETTING_KEYS, measures=segment.line not in rows)
        if not load:
            continue
        at = bisect_left(starts, segment.line) - 1
        first, last = (spans[at][0].line, spans[at][1]) if at >= 0 else (1, end)
        by_section.setdefault(first, LoadScope(first, last)).add(load)
    parents = _settings_for_parents(by_section, segments, spans, end, cat, rows)
    return [*by_section.values(), *parents]


_OWN_ONLY = ("context",)
"""A settings section's keys that stay its own: `- Context length: 4096` under `### Model`
is the model's window, not the load of the results beside it."""


def _settings_for_parents(
    by_section: dict[int, LoadScope],
    segments: list[Segment],
    spans: list[tuple[Segment, int]],
    end: int,
    cat: Catalog,
    rows: dict[int, str],
) -> list[LoadScope]:
    """The load of each settings section that measures nothing, for its parent section."""
    starts = [heading.line for heading, _ in spans]
    lines = [segment.line for segment in segments]
    scopes: list[LoadScope] = []
    for first, own in by_section.items():
        at = bisect_left(starts, first)
        if at >= len(spans) or starts[at] != first:
            continue  # the settings of the lines above the first heading
        inside = _inside(segments, lines, spans[at])
        if any(_measures(segment, cat, rows) for segment in inside):
            continue
        varied = _varied_keys(inside, cat)
        load = {k: v for k, v in own.load.items() if k not in _OWN_ONLY and k not in varied}
        if load:
            scopes.append(LoadScope(*parent_lines(spans, at, end), load))
    return scopes


def _inside(
    segments: list[Segment], lines: list[int], section: tuple[Segment, int]
) -> list[Segment]:
    """The segments of a section below its heading, its subsections' too (`lines`: each
    segment's line, in order)."""
    heading, last = section
    return segments[bisect_right(lines, heading.line) : bisect_right(lines, last)]


def parent_lines(spans: list[tuple[Segment, int]], at: int, end: int) -> tuple[int, int]:
    """The first and last line of the section around section `at` (the whole document
    around a top section)."""
    heading, last = spans[at]
    parent = next(
        ((h, e) for h, e in reversed(spans[:at]) if h.level < heading.level and e >= last),
        None,
    )
    return (parent[0].line, parent[1]) if parent else (1, end)


_WE_RAN = re.compile(
    r"\b(?:we|our|all)\b[^.;:]{0,80}?\b(?:evaluat|benchmark|measur|test|profil|ran\b|run\b|"
    r"conduct)|(?:我们|本文|所有|全部)[^。；]{0,80}?(?:评估|评测|测试|实验|测得|测量)",
    re.I,
)
"""A sentence on how the authors took their numbers (`We test the speed ... when
generating 2048 tokens`), not on how a reader may run the project."""


def _numberless_sections(
    segments: list[Segment],
    spans: list[tuple[Segment, int]],
    end: int,
    cat: Catalog,
    rows: dict[int, str],
) -> list[LoadScope]:
    """`## Notes` / `- We use a batch size of 1 ...` beside `## Results`: a section that
    measures nothing (no table, no number, in its subsections neither) and says how the
    authors took their numbers, with a load, is a set-up; the load its own statements
    (not its subsections') state holds for its parent section (the whole document for a
    top section)."""
    starts = [heading.line for heading, _ in spans]
    said: dict[int, LoadScope] = {}
    """By section (its index in `spans`): the load its own statements state."""
    for segment in segments:
        if segment.block not in ("prose", "list"):
            continue
        probe = probe_of(segment.text)
        if not probe.has_digit or not search(_WE_RAN, probe):
            continue
        at = bisect_left(starts, segment.line) - 1  # the innermost section holding it
        if at >= 0 and (load := _stated(segment.text, cat)):
            said.setdefault(at, LoadScope(0, 0)).add(load)
    lines = [segment.line for segment in segments]
    scopes: list[LoadScope] = []
    for at, stated in said.items():
        inside = _inside(segments, lines, spans[at])
        if not stated.load or any(_measures(segment, cat, rows) for segment in inside):
            continue
        scopes.append(LoadScope(*parent_lines(spans, at, end), dict(stated.load)))
    return scopes


def _varied_keys(segments: list[Segment], cat: Catalog) -> set[str]:
    """The load keys the statements give more than one value of: `- Short prompt: 128
    input tokens` / `- Long prompt: 4000 input tokens` beside `- Input length: 1024` name
    workloads (`extract.workloads`), none of them the load of the sections around."""
    seen: dict[str, set[str]] = {}
    for segment in segments:
        if segment.block in ("prose", "list") and probe_of(segment.text).has_digit:
            for key, value in find_conditions(segment.text, cat).load.items():
                seen.setdefault(key, set()).add(value)
    return {key for key, values in seen.items() if len(values) > 1}


def _measures(segment: Segment, cat: Catalog, settings: dict[int, str]) -> bool:
    """Whether a segment is a table's (not a table of settings') or states a number of
    its own."""
    if segment.block == "table" or segment.header:
        return segment.line not in settings
    if segment.block not in ("prose", "list"):
        return False
    return bool(find_metrics(segment.text, cat, find_conditions(segment.text, cat)))


def _method_sections(
    segments: list[Segment], spans: list[tuple[Segment, int]], end: int, cat: Catalog
) -> list[LoadScope]:
    """`## Methodology` / `We use a batch size of 1 and generate 256 tokens.`: the load
    the section states, for its parent section (the whole document for a top section)."""
    scopes: list[LoadScope] = []
    for i, (heading, last) in enumerate(spans):
        if not search(_METHOD_HEADING, probe_of(heading.text)):
            continue
        scope = LoadScope(*parent_lines(spans, i, end))
        for segment in segments:
            if heading.line < segment.line <= last and segment.block in ("prose", "list"):
                scope.add(_stated(segment.text, cat))
        scopes.append(scope)
    return scopes
