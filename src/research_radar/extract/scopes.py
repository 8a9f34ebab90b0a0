"""Set-up scopes: the conditions a document states once for many numbers.

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead. Two things state a set-up:

- a set-up section (`## Benchmark Setup`, `### 测试环境`, `Experimental settings`): what
  it names holds for its parent section, before or after it (the whole document when it
  is a top section);
- a set-up line (`Hardware: 8x H800`, `- **Model**: Qwen3-8B`, `模型：...`), or a row of
  a two-column table of set-up keys and values (`| GPU | nvidia_a100-sxm4-80gb |`): what
  it names holds for the section it stands in;
- an evaluation sentence naming one hardware part (`We evaluated it on up to 64 A100
  GPUs`, `我们在 64 个 A100 GPU 上进行了评估`): that part holds for the section it stands
  in, its subsections included, however far below;
- a note right below a table (`* The model is tested on one H800 GPU.`): its table.

The last two are found by `extract.setupnotes`; the scope itself and how a claim takes
from it (innermost first, only the fields it has none of) are `extract.setupscope`'s.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

from research_radar.extract.catalogue import Catalog
from research_radar.extract.conditions import find_conditions, single_valued
from research_radar.extract.context import REQUIRED, SURVEY, hosted, not_where_run
from research_radar.extract.launchsetup import is_how_to
from research_radar.extract.loadscopes import find_load_scopes, parent_lines
from research_radar.extract.markdown import Segment, clean_text, split_cells, table_indices
from research_radar.extract.prefilter import probe_of
from research_radar.extract.rowlabels import named_model
from research_radar.extract.screened import match, search
from research_radar.extract.setupnotes import evaluation_lines, notes_below_tables
from research_radar.extract.setupscope import Scope
from research_radar.models import Conditions

__all__ = ["find_scopes", "is_setup_heading", "is_setup_line"]

_SETUP_HEADING = re.compile(
    r"set-?up|environment|configuration|experimental settings?|benchmark settings?|"
    r"test(?:ing)? (?:settings?|platform|config)|测试环境|实验环境|实验设置|测试配置|"
    r"^\W*(?:\d[\d.]*\W*)?(?:(?:test(?:ing)?|benchmark(?:ing)?|evaluation|experiment(?:al)?|"
    r"target|our)\s)?hardware(?:\s(?:used\b.*|details?|specs?|specifications?|info(?:rmation)?|"
    r"requirements?|selection|overview|(?:and|&|/)\s?software(?:\s\w+)?))?\W*$|"
    r"测试设置|硬件环境|运行环境|环境配置|服务器配置|机器配置|(?:芯片|硬件|设备)信息|"
    r"(?:软?硬件|测试|实验|部署|推理|评测)(?:配置|环境|平台|硬件|机器)|test-?bed|"
    r"^\W*(?:\w+\s)?settings?\W*$|^\W*(?:\d[\d.]*\W*)?环境(?:说明|介绍|信息|描述|概述)?\W*$|"
    r"(?:test(?:ing)?|benchmark(?:ing)?|experiment(?:al)?|evaluation|inference)\s"
    r"(?:parameters|conditions)|(?:测试|实验|评测|推理|压测)(?:参数|条件)",
    re.I,
)
_SETUP_LINE = re.compile(
    r"^\W{0,4}(?:hardware|GPUs?|devices?|models?|precision|dtype|platform|machine|workloads?|"
    r"CPUs?|accelerators?|servers?|nodes?|instances?|"
    r"test(?:ing)? (?:environment|hardware|platform|machine|server|device|conditions?)|"
    r"硬件(?:环境|配置)?|模型|显卡|精度|测试环境|测试平台|设备|"
    r"(?:测试|推理|实验|运行|部署|评测)(?:硬件|机器|服务器|显卡|卡|芯片|条件|设备))"
    r"\W{0,3}(?:\s\w+){0,2}\s?\W{0,2}[:：]",
    re.I,
)
_CONFIG_LINE = re.compile(
    r"^\W{0,4}(?:[\w-]+\s){0,8}?(?:configuration|config|settings?|set-?up|配置|设置)\s?[:：]",
    re.I,
)
"""`The image generation procedure follows the standard configuration: 20 inference steps,
...`: a set-up, of one thing per field (`We evaluate in two settings: LLaMA-7B on an A10G
and LLaMA-13B on an A100` pairs alternatives, none of them the set-up)."""
_MAX_NAMES = 3
"""A set-up naming more than this many things of one field is a survey, not a set-up."""


def is_setup_heading(text: str) -> bool:
    """Whether a heading names a set-up section (`## Test environment`, `### 测试环境`,
    `## Hardware used`), not a survey of what runs (`## Supported hardware`). The word
    hardware alone is a set-up only as the heading's subject (`Hardware`, `Benchmark
    hardware`, `Hardware details`), not in `Hardware-aware kernels` (issue #14)."""
    probe = probe_of(text)
    return search(_SETUP_HEADING, probe) is not None and search(SURVEY, probe) is None


def is_setup_line(text: str) -> bool:
    """Whether a statement is a set-up line (`- GPU: NVIDIA A10`, `模型：Qwen3-8B`)."""
    return match(_SETUP_LINE, probe_of(text)) is not None


def find_scopes(
    segments: list[Segment],
    cat: Catalog,
    commands: Sequence[tuple[int, str]] = (),
    notes: Sequence[tuple[int, int, str]] = (),
    machines: Sequence[tuple[int, str]] = (),
    measured: Collection[int] = (),
    launches: Sequence[tuple[int, str]] = (),
    formats: Sequence[tuple[int, str]] = (),
    visible: Mapping[int, int] | None = None,
) -> list[Scope]:
    """The set-up scopes of a document's segments, innermost (shortest) first.

    Args:
        commands: the benchmark-command blocks of the document (`extract.commandblocks`):
            each sets up the load of its section from its line to the next such block.
        notes: the paragraphs that point to a footnote (`extract.footnotes`): the parts,
            models and precisions the footnote names set up their lines.
        machines: the blocks that print the machine (`extract.envblocks`): the parts
            they name set up their section from their line on.
        measured: the lines of the document's numbers: a section with set-up lines and
            no number of its own (`## Prerequisites` / `- Hardware: A100 80G`) is a set-up
            section, whatever its heading says.
        launches: the blocks that serve or run a model (`extract.commandblocks`): the
            one model each names sets up its section from its line on, like a command's.
        formats: the shell blocks whose flags give a number format (`--dtype float16`,
            `extract.commandblocks`): the one format each gives sets up its section from
            its line on, up to the next such block.
        visible: a launch block's line -> how many devices its environment lists
            (`extract.launchsetup.visible_devices`): the GPUs of its results.
    """
    if not segments:
        return []
    end = max(s.line for s in segments) + 1
    headings = _numbered_levels([s for s in segments if s.block == "heading"])
    spans: list[tuple[Segment, int]] = []
    for i, heading in enumerate(headings):
        after = (h.line for h in headings[i + 1 :] if h.level <= heading.level)
        spans.append((heading, next(after, end) - 1))
    scopes: list[Scope] = []
    sections: list[tuple[int, Scope]] = []
    """The document's set-up sections: their heading's line and their scope."""
    for i, (heading, last) in enumerate(spans):
        probe = probe_of(heading.text)
        if not search(_SETUP_HEADING, probe) or search(SURVEY, probe):
            continue  # `## Supported hardware` lists what runs, not where these numbers ran
        scope = _parent_scope(spans, i, end)
        scope.add(find_conditions(heading.text, cat))
        for segment in segments:
            if heading.line < segment.line <= last and segment.block != "heading":
                scope.add(_setup(segment.text, cat))
        scopes.append(scope)
        if not search(REQUIRED, probe):
            sections.append((heading.line, scope))  # `## Hardware requirements`: its own
    scopes.extend(_line_scopes(segments, spans, end, cat, measured, sections))
    scopes.extend(_command_scopes(commands, spans, end, cat, measured=measured))
    scopes.extend(
        _command_scopes(launches, spans, end, cat, load=False, measured=measured, visible=visible)
    )
    scopes.extend(_format_scopes(formats, spans, end, cat, measured))
    for line, devices in machines:
        section = _section_of(spans, line)
        scope = Scope(line, section[1] if section else end)
        scope.add(Conditions(hardware=cat.names("hardware", devices)))
        scopes.append(scope)
    for first, last, note in notes:
        named = find_conditions(note, cat)
        scope = Scope(first, last)
        scope.add(Conditions(hardware=named.hardware, model=named.model, precision=named.precision))
        scopes.append(scope)
    scopes.extend(_title(headings, end, cat))
    scopes.extend(evaluation_lines(segments, spans, end, cat, measured))
    scopes.extend(notes_below_tables(segments, cat))
    # a note below a table, an `all numbers` statement, a method section: load only
    scopes.extend(
        Scope(s.first, s.last, load=s.load) for s in find_load_scopes(segments, spans, end, cat)
    )
    scopes.extend(_document_setup(sections, min(measured, default=end), end))
    for scope in scopes:
        scope.names = {k: v for k, v in scope.names.items() if len(v) <= _MAX_NAMES}
    return sorted(scopes, key=lambda s: s.last - s.first)


_NUMBERED = re.compile(r"^\W{0,4}(\d{1,2}(?:\.\d{1,2})+)\.?(?!\d)")
"""A numbered heading's number below the top (`5.1.1 Low Concurrency`)."""


def _numbered_levels(headings: list[Segment]) -> list[Segment]:
    """The headings, each numbered under an earlier one (`### 5.1.1` after `### 5.1`) one
    level below it whatever its hashes say: its section is a part of that one's (issue
    #14: a set-up stated in `5.1` holds for the results of `5.1.1`)."""
    levels: dict[str, int] = {}
    nested: list[Segment] = []
    for heading in headings:
        numbered = _NUMBERED.match(heading.text)
        if numbered is None:
            nested.append(heading)
            if heading.text[:1].isdigit():
                levels[heading.text.split(maxsplit=1)[0].rstrip(".")] = heading.level
            continue
        number = numbered.group(1)
        parent = levels.get(number.rsplit(".", 1)[0])
        if parent is not None and parent >= heading.level:
            heading = replace(heading, level=parent + 1)
        levels[number] = heading.level
        nested.append(heading)
    return nested


def _line_scopes(
    segments: list[Segment],
    spans: list[tuple[Segment, int]],
    end: int,
    cat: Catalog,
    measured: Collection[int],
    sections: list[tuple[int, Scope]],
) -> list[Scope]:
    """The scopes of the set-up lines (`- GPU: 1x RTX 4090`), adding those that set up
    their parent section to `sections`. A host CPU (`- CPU: Core i9-13900K`) is not the
    part of a section whose set-up lines name another (`extract.context.hosted`)."""
    scopes: list[Scope] = []
    hosts: list[Scope] = []
    measured = set(measured) - _setting_rows(segments)
    for n, segment in enumerate(segments):
        text = _setup_row(segment) if segment.block == "table" or segment.header else segment.text
        if segment.block == "heading":
            continue
        if not text:
            continue  # a table row that is no key and value
        probe = probe_of(text)
        keyed = match(_SETUP_LINE, probe)
        if not keyed and not match(_CONFIG_LINE, probe):
            continue
        section = _section_of(spans, segment.line)
        scope = Scope(section[0].line, section[1]) if section else Scope(1, end)
        if keyed and section and _sets_up_parent(section[0], text, spans, measured):
            scope = _parent_scope(spans, spans.index(section), end)
            sections.append((section[0].line, scope))
        conditions = _setup(f"{text} {_listed(segments, n)}" if keyed else text, cat)
        if hosted(conditions, text, True) is not conditions:
            hosts.append(scope)
        scope.add(conditions)
        if not keyed:
            scope.names = {k: v for k, v in scope.names.items() if len(v) == 1}
        scopes.append(scope)
    for host in hosts:
        if any(
            (s.first, s.last) == (host.first, host.last) and s.names.get("hardware")
            for s in scopes
            if all(s is not h for h in hosts)
        ):
            host.names.pop("hardware", None)
    return scopes


def _setting_rows(segments: list[Segment]) -> set[int]:
    """The lines of the two-column key-and-value tables that set up a page (`| Parameter |
    Value |` over `| GPU | 1x H200 |`, `| Model | Llama 3.1 70B |`, `| Workers | 1x TP=1 |`):
    a table one of whose rows is a set-up line. Their digits are settings that set up the
    numbers below, not numbers the section measures, whatever a reader makes of them (`3.1`,
    `1x`; issue #14)."""
    lines: set[int] = set()
    for indices in table_indices(segments):
        rows = [segments[i] for i in indices if segments[i].block == "table"]
        if any(
            len(row.header) == 2 and match(_SETUP_LINE, probe_of(_setup_row(row))) is not None
            for row in rows
        ):
            lines.update(row.line for row in rows)
    return lines


def _listed(segments: list[Segment], at: int) -> str:
    """`Model:` over `- BFloat16: 01-ai/Yi-6B-Chat` / `- AWQ 4bit: 01-ai/Yi-6B-Chat-4bits`:
    a set-up key that writes nothing after its colon takes the list right below it for
    its value (the items that are set-up lines of their own set up apart: `Hardware:`
    over `- GPU: ...` / `- CPU: ...`)."""
    if not segments[at].text.rstrip().endswith((":", "：")):
        return ""
    items: list[str] = []
    for segment in segments[at + 1 :]:
        if segment.block != "list":
            break
        if not match(_SETUP_LINE, probe_of(segment.text)):
            items.append(segment.text)
    return " ".join(items)


_NUMBERS = re.compile(r"[\d\s.,:%x×/~≈+-]*")


def _setup_row(segment: Segment) -> str:
    """`| GPU | nvidia_a100-sxm4-80gb |` -> `GPU: nvidia a100-sxm4-80gb`: the set-up line a
    row of a two-column table of keys and values writes ('' for any other row). A value
    spelled as an identifier has its underscores read as spaces. A header row counts too
    (`| GPU | H100 |` over `| CPU | Xeon 8480 |`)."""
    if segment.block == "table":
        cells = [clean_text(cell) for cell in split_cells(segment.text)]
    else:
        cells = list(segment.header)
    if len(cells) != 2 or not all(cells) or _NUMBERS.fullmatch(cells[1]):
        return ""
    return f"{cells[0]}: {cells[1].replace('_', ' ')}"


def _setup(text: str, cat: Catalog) -> Conditions:
    """A set-up statement's conditions, without the load keys it gives several values of
    (`prefill on 32 GPUs, decode on 144 GPUs`: neither count is the whole page's)."""
    conditions = single_valued(_keyed_model(find_conditions(text, cat), text, cat), text, cat)
    if conditions.precision and _SAMPLES.search(text):
        conditions = conditions.model_copy(update={"precision": []})
    return conditions


_SAMPLES = re.compile(r"\d{1,2}[- ]?bits?\s(?:PCM|WAV|audio|samples?|depth|colou?r)", re.I)
"""`Audio Format: 16-bit PCM`: the samples' bit depth, not the model's precision."""
_MODEL_KEY = re.compile(
    r"^\W{0,4}(?:(?:test(?:ed)?|benchmark(?:ed)?|base|target|evaluated|main)\s)?(?:models?|模型)"
    r"(?:\s(?:models?|names?|ids?|checkpoints?))?\W{0,3}[:：]\s*(?P<value>[^:：]+?)\W*$",
    re.I,
)
_PROSE_START = re.compile(
    r"^(?:our|the|a|an|see|same|any|all|each|various|several|multiple|custom|default|"
    r"different|refer|below|above|如下|见)\b",
    re.I,
)
"""`Model: our fine-tuned checkpoint`, `Model: see below`: words, not a model's name."""


def _keyed_model(conditions: Conditions, text: str, cat: Catalog) -> Conditions:
    """`- **模型 Model**: seed-vc v1.0 tiny`: a set-up line keyed `Model` names its model
    as written when the catalogue knows none there (`extract.rowlabels.named_model`), the
    last part of a repository id (`[acme/foo-7b]`) for one."""
    if conditions.model:
        return conditions
    key = _MODEL_KEY.match(text)
    if not key:
        return conditions
    value = re.sub(r"[\[\]()*`]", "", key["value"]).strip().rstrip("/").rsplit("/", 1)[-1]
    if _PROSE_START.match(value) or not re.search(r"[\d\-_.]|[a-z][A-Z]", value):
        return conditions  # a name is an identifier: `seed-vc`, `Qwen2-7B`, `phi3.5`
    return named_model(conditions, value, cat)


def _parent_scope(spans: list[tuple[Segment, int]], index: int, end: int) -> Scope:
    """The lines of the section around section `index` (the whole document at the top)."""
    return Scope(*parent_lines(spans, index, end))


def _sets_up_parent(
    heading: Segment, text: str, spans: list[tuple[Segment, int]], measured: Collection[int]
) -> bool:
    """Whether a set-up line sets up its parent section: its own section has no number
    up to its first subsection, lists no survey (`## Supported models`) nor what a user
    needs (`## Requirements` / `- GPU: RTX 3060 or better`), and the line is no footnote
    (`[^gpu]: Measured on one RTX 4090` under `## Notes`)."""
    if not_where_run(text, heading.text):
        return False
    below = (h.line for h, _ in spans if h.line > heading.line)
    stop = next(below, None)
    return not any(heading.line < line and (stop is None or line < stop) for line in measured)


_DOCUMENT_FIELDS = ("hardware", "model")


def _document_setup(sections: list[tuple[int, Scope]], first: int, end: int) -> list[Scope]:
    """`## Notes` / `### Hardware` / `NVIDIA A100-PCIE-40GB` before the first number of
    notes whose later top sections measure kernels: the set-up sections that open a
    document, when all name the same one part (model), set it up for the whole document,
    below anything nearer (one after the first number is its own section's)."""
    scope = Scope(1, end)
    opening = [s for line, s in sections if line < first]
    for name in _DOCUMENT_FIELDS:
        named = {v for s in opening for v in s.names.get(name, [])}
        if len(named) == 1:
            scope.names[name] = list(named)
    return [scope] if scope.names else []


def _section_of(spans: list[tuple[Segment, int]], line: int) -> tuple[Segment, int] | None:
    """The innermost section holding `line`: its heading and its last line."""
    return next(((h, e) for h, e in reversed(spans) if h.line < line <= e), None)


def _command_scopes(
    commands: Sequence[tuple[int, str]],
    spans: list[tuple[Segment, int]],
    end: int,
    cat: Catalog,
    *,
    load: bool = True,
    measured: Collection[int] | None = None,
    visible: Mapping[int, int] | None = None,
) -> list[Scope]:
    """`vllm bench serve --model Qwen/Qwen2-7B --random-input-len 1024 ...` above a table:
    the load its flags give, and the one model its `--model` (`-m`) flags name, hold
    below it in its section, up to the next command block. Without `load`, the blocks
    only serve or run a model (`vllm serve Qwen/Qwen2-7B`): their model holds, and of their
    flags only how many GPUs serve it (`--tp 4`, `_SERVING`; `--max-model-len 4096` is a
    server's limit, not the load measured), and the devices its environment lists
    (`visible`). Given the `measured` lines, a block in a section with no number of its
    own (`## Setup` beside `## Results`) holds for the rest of its parent section, where
    numbers follow it there and its section is no how-to (`## Quick start`: how to run,
    not how these numbers were made; `extract.launchsetup`)."""
    scopes: list[Scope] = []
    for n, (line, text) in enumerate(commands):
        last = _block_reach(line, spans, end, measured)
        if n + 1 < len(commands):
            last = min(last, commands[n + 1][0] - 1)
        stated = _setup(text, cat).load
        kept = stated if load else {k: v for k, v in stated.items() if k in _SERVING}
        devices = 0 if load or visible is None else visible.get(line, 0)
        if devices and "gpus" not in kept:
            kept["gpus"] = str(devices)
        scope = Scope(line, last, load=dict(kept))
        text = _PYTHON_MODULE.sub(" ", text)
        flags = [flag[1] for flag in _MODEL_FLAG.finditer(text)]
        flags += [served[1] for served in _SERVED.finditer(text)]
        models = {m for flag in flags for m in _model_of(flag, cat)}
        if len(models) == 1:
            scope.names["model"] = list(models)
        if scope.load or scope.names:
            scopes.append(scope)
    return scopes


def _block_reach(
    line: int, spans: list[tuple[Segment, int]], end: int, measured: Collection[int] | None
) -> int:
    """The last line a code block at `line` sets up: its section's, or, given the
    `measured` lines, its parent section's when its own section has no number (`##
    Deployment` beside `## Results`), numbers follow it there and its section shows no
    how-to (`## Installation`, `extract.launchsetup.is_how_to`)."""
    section = _section_of(spans, line)
    if section is None:
        return end
    if measured is None or not _sets_up_parent(section[0], "", spans, measured):
        return section[1]
    reach = _parent_scope(spans, spans.index(section), end).last
    if is_how_to(section[0].text) or not any(line < n <= reach for n in measured):
        return section[1]
    return reach


def _format_scopes(
    blocks: Sequence[tuple[int, str]],
    spans: list[tuple[Segment, int]],
    end: int,
    cat: Catalog,
    measured: Collection[int],
) -> list[Scope]:
    """`--dtype=float16` in the command above a table: the numbers below it ran in that
    format, unless the block gives several (issue #14), as far as a command's load
    reaches (`_block_reach`)."""
    scopes: list[Scope] = []
    for n, (line, flagged) in enumerate(blocks):
        names = cat.names("precision", flagged)
        if len(names) != 1:
            continue
        last = _block_reach(line, spans, end, measured)
        if n + 1 < len(blocks):
            last = min(last, blocks[n + 1][0] - 1)
        scopes.append(Scope(line, last, names={"precision": names}))
    return scopes


_SERVING = frozenset({"tp", "ep", "gpus"})
"""The load a server's launch fixes for every request measured against it (`sglang serve
--tp-size 4` above its results, issue #14)."""
_MODEL_FLAG = re.compile(
    r"(?:--model(?:[-_](?:name[-_]or[-_]path|path|name|id|dir))?|-m)[\s=]+['\"]?(\S+)"
)
"""A benchmark command's model: `--model meta-llama/Llama-2-7b-hf`, `-m llama-2-7b.gguf`."""
_SERVED = re.compile(r"\b(?:serve|ollama\s+run)\s+['\"]?(?!-)(\S+)")
"""A model served by name: `vllm serve Qwen/Qwen2-7B`, `ollama run llama3:8b`."""
_PYTHON_MODULE = re.compile(r"\bpython[\d.]*\s+-m\s+\S+")
"""`python -m sglang.launch_server`: a module run, not a model's `-m`."""


def _model_of(path: str, cat: Catalog) -> list[str]:
    """The model a path or repository id names, by its last part (`meta-llama/Llama-2-7b-hf`
    is Llama-2-7B, not also the family its owner is named after)."""
    return cat.names("model", path.strip("'\"").rstrip("/").rsplit("/", 1)[-1])


def _title(headings: list[Segment], end: int, cat: Catalog) -> list[Scope]:
    """`# RTP-LLM DeepSeek Replay Tech Report` over `# Overview`, `# Test Results`: a page
    whose first heading is followed by more top-level headings still has it for its title;
    what the title names holds for the whole page (the headings below it are read as its
    siblings, so nothing else carries it down)."""
    if not headings or headings[0].level != 1:
        return []
    if not any(h.level <= 1 for h in headings[1:]):
        return []  # a single top heading: its sections already inherit it
    scope = Scope(headings[0].line, end)
    scope.add(find_conditions(headings[0].text, cat))
    scope.load = {}
    scope.names = {k: v for k, v in scope.names.items() if len(v) == 1}
    return [scope] if scope.names else []
