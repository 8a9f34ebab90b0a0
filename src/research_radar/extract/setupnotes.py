"""Where a document says its numbers ran: notes right below a table, and sentences that
say where the authors ran their evaluation.

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead (`extract.scopes` gathers these scopes with the others).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from research_radar.extract.catalogue import Catalog
from research_radar.extract.conditions import find_conditions
from research_radar.extract.loads import several_values
from research_radar.extract.markdown import Segment
from research_radar.extract.prefilter import probe_of
from research_radar.extract.screened import match, search
from research_radar.extract.setupscope import Scope
from research_radar.models import Conditions

__all__ = ["evaluation_lines", "notes_below_tables"]

_EVALUATED = re.compile(
    r"\b(?:we|our|all)\b[^.;:]{0,80}?\b(?:evaluat|benchmark|measur|test|profil|ran\b|run\b|"
    r"conduct)|(?:我们|本文|所有|全部)[^。；]{0,80}?(?:评估|评测|测试|实验|测得|测量)",
    re.I,
)
"""A sentence that says where the authors ran their evaluation (not a note on one table)."""
_FURTHER = re.compile(
    r"\b(?:also|further|additionally|moreover|then|next|another|other|second)\b|此外|另外|还|也|进一步",
    re.I,
)
"""`We further evaluate on H100`: a set-up after another one, not the section's."""
_RAN = re.compile(
    r"\b(?:experiments?|benchmarks?|measurements?|results|tests|numbers|evaluations?)\b"
    r"[^.;:]{0,40}?\b(?:run|ran|conducted|measured|performed|collected|obtained|done|"
    r"executed|tested|evaluated|benchmarked)\s(?:\w+\s){0,2}?(?:on|with|using)\b|"
    r"(?:实验|测试|评测|结果|数据)[^。；]{0,20}?(?:在|于|使用|基于)[^。；]{0,30}?"
    r"(?:进行|完成|测得|运行|得到|获得|测试|评测)|"
    r"\b(?:experiments?|benchmarks?|tests|measurements|evaluations?)\s(?:all\s)?(?:use|used)\b|"
    r"^\W{0,3}(?:测试|实验|评测|压测)(?:均|都|全部)?(?:使用|采用|基于)",
    re.I,
)
"""`The experiments run on 8 H100 GPUs.`, `实验在 8 卡 H800 上进行。`, `测试使用单张 A800`:
where the numbers ran, said in the passive."""
_ALL = re.compile(
    r"\ball (?:\w+ )?(?:experiments|benchmarks|measurements|results|tests)\b|所有|全部", re.I
)


def evaluation_lines(
    segments: list[Segment],
    spans: list[tuple[Segment, int]],
    end: int,
    cat: Catalog,
    measured: Collection[int] = (),
) -> list[Scope]:
    """`We evaluated DeepSpeed-Ulysses on GPT with up to 64 A100 GPUs.`: its hardware, for
    the section (issue #14: the GPU named in a set-up line far above the numbers); in a
    section that measures nothing (`## Methodology`), for the section around it, from
    the sentence on."""
    scopes: list[Scope] = []
    by_section: dict[int, list[Scope]] = {}
    """The scopes of each section's evaluation sentences, by the section's first line."""
    for segment in segments:
        if segment.block != "prose":
            continue
        probe = probe_of(segment.text)
        if not search(_EVALUATED, probe) and not search(_RAN, probe):
            continue
        hardware = list(dict.fromkeys(cat.names("hardware", segment.text)))
        models = list(dict.fromkeys(cat.names("model", segment.text)))
        if len(hardware) != 1 and (hardware or len(models) != 1):
            continue  # `We evaluate on A100 and H100`: each table says which
        sections = [(h, e) for h, e in reversed(spans) if h.line < segment.line <= e]
        own = sections[0][0].line if sections else 1
        if _describes(sections, spans, measured):
            sections = []  # `## Methodology` beside `## Results`: the page's set-up
        elif _ALL.search(segment.text) and len(sections) > 1:
            # `All Hopper experiments run on a single H100`: the sibling sections too
            sections = [s for s in sections if s[0].level < sections[0][0].level]
        scope = Scope(segment.line, sections[0][1]) if sections else Scope(segment.line, end)
        if len(hardware) == 1:
            scope.names["hardware"] = hardware
        if len(models) == 1:
            scope.names["model"] = models  # `We evaluate Ours with Llama-3-8B on an A100`
        gpus = find_conditions(segment.text, cat).load.get("gpus")
        if gpus and "gpus" not in several_values(segment.text, cat):
            scope.load["gpus"] = gpus  # `on 8 H100 GPUs`: how many of them too
        scopes.append(scope)
        if sections and sections[0][0].line == own and not _FURTHER.search(segment.text):
            by_section.setdefault(own, []).append(scope)  # not one widened to its siblings
    for start, said in by_section.items():
        if len({(str(s.names), s.load.get("gpus")) for s in said}) == 1:
            # `Ours is 2.5x faster. The experiments run on 8 H100 GPUs.`: the one set-up
            # the section states holds for the numbers above it too
            said[0].first = start
    return scopes


def _describes(
    sections: list[tuple[Segment, int]],
    spans: list[tuple[Segment, int]],
    measured: Collection[int],
) -> bool:
    """Whether the innermost of `sections` is a top section of the page (under its one
    title, if it has one) that measures nothing: it describes how the page measured."""
    if not sections or any(sections[0][0].line < line <= sections[0][1] for line in measured):
        return False
    titles = [h for h, _ in spans if h.level == 1]
    return all(h.level == 1 and len(titles) == 1 for h, _ in sections[1:])


_NOTE_BELOW = re.compile(
    r"^\W{0,3}(?:(?:executed|measured|tested|benchmarked|run|ran|evaluated|obtained|collected|"
    r"numbers|results?|all (?:numbers|results|measurements|benchmarks|tests)|notes?|"
    r"(?:the )?(?:numbers|results|data) (?:in|of|above)|in (?:the|this) table|"
    r"(?:the |this )?(?:table|chart|figure|graph|plot)s? (?:above|here)\b|"
    r"we (?:ran|run|used|use|measured|tested|benchmarked)|these (?:numbers|results|benchmarks)|"
    r"(?:the )?above|(?:test |benchmark )?(?:setup|settings?|config(?:uration)?|workload|"
    r"environment)s?\s?:)\b|"
    r"测试|测得|评测|评估|压测|实验|数据|以上|上述|上表|表中|表格中?|使用|采用|注|备注|说明)|"
    r"^\W{0,3}(?:Table|Tab\.|表)\s?\d+\s?(?:[:.：]|$)",
    re.I,
)
"""A note or a caption right below a table (`Table 3: decode latency on Llama-2-70B`)."""


_EXAMPLE = re.compile(r"例如|比如|\b(?:for example|for instance|e\.g\.)", re.I)
"""`例如，--nproc_per_node=8 表示使用 8 个 GPU`: how to set a flag, not how the table ran."""


def notes_below_tables(segments: list[Segment], cat: Catalog) -> list[Scope]:
    """`Executed with 4 threads on a c5.2xlarge ... Xeon Platinum 8275CL CPU.` right below
    a table: the set-up of that table. The note's paragraph is read whole (`Note that the
    benchmarks run on an 8xA100. All of them run at batch size 1.`), and so is a list
    below the table, item by item where an item reads as a note (`- 表格中数据均为单请求场景
    （bs=1）`)."""
    scopes: list[Scope] = []
    first = last = 0
    note: Scope | None = None
    kind = ""
    """The block the note below the last table is read from (a paragraph or a list)."""
    for segment in segments:
        if segment.block == "table" or segment.header:
            if segment.block == "table":
                first, last = first or segment.line, segment.line
            else:
                first = segment.line
            note, kind = None, ""
            continue
        if note is not None and segment.block == kind == "prose" and not segment.new_paragraph:
            note.add(_note_says(segment.text, cat))  # the note's next sentence
            continue
        if note is not None and segment.block == kind == "list":
            if _is_note(segment.text):
                note.add(_note_says(segment.text, cat))
            continue
        note, kind = None, ""
        if last and segment.block == "prose" and segment.text.rstrip().endswith((":", "：")):
            # `Results on 2x A100:` between two tables introduces the next one; `Notes:`
            # introduces the list below it, read as a list right below the table
            if not _is_note(segment.text):
                first = last = 0
            continue
        if last and segment.block in ("prose", "list"):
            cue = _is_note(segment.text)
            quoted = not cue and segment.block == "prose" and bool(_QUOTED.match(segment.text))
            if cue or quoted or segment.block == "list":
                # a list below the table: the items that read as notes, wherever they stand
                note, kind = Scope(first, last), segment.block
                if cue:
                    note.add(_note_says(segment.text, cat))
                scopes.append(note)
                if quoted:  # the parts its line names, not its settings (`矩阵尺寸5120`)
                    note.add(_note_says(segment.text, cat).model_copy(update={"load": {}}))
                    note, kind = None, ""
        first = last = 0
    return scopes


_RAN_ON = re.compile(
    r"\b(?:tested|measured|benchmarked|evaluated|profiled|obtained|collected|executed|"
    r"run|ran)\s(?:\w+\s){0,2}?(?:on|with|using|under)\b|"
    r"(?:在|于|使用|采用)[^。；;]{0,48}?(?:上|下)?(?:测试|测得|运行|评测|测量|跑)",
    re.I,
)
"""`* The model is tested on one H800 GPU.`, `- 模型在单张 80G GPU 上测试`: a note that
says where its table ran, wherever the verb stands in it."""


_QUOTED = re.compile(r"^\s{0,3}(?:>\s?|\*(?![*\s])|_(?![_\s]))")
"""`> NVIDIA GeForce RTX 3090，矩阵尺寸5120`, `*Executed on ...*` right below a table: a
quoted or emphasised line set apart from the prose, the table's note."""


def _is_note(text: str) -> bool:
    probe = probe_of(text)
    return match(_NOTE_BELOW, probe) is not None or search(_RAN_ON, probe) is not None


def _note_says(text: str, cat: Catalog) -> Conditions:
    """What a note below a table sets up: nothing when it only gives an example."""
    return Conditions() if _EXAMPLE.search(text) else find_conditions(text, cat)
