"""The conditions in scope while a document is read: its sections and their set-up lead,
the paragraph, the line; and what a section's lead sets up for its subsections.

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from research_radar.extract.catalogue import Catalog
from research_radar.extract.conditions import CONDITION_FIELDS, find_conditions, format_repeats
from research_radar.extract.markdown import Segment
from research_radar.extract.prefilter import probe_of
from research_radar.extract.projectnames import name_parts, names_own
from research_radar.extract.screened import search
from research_radar.models import Conditions

__all__ = [
    "LEAD_FIELDS",
    "REQUIRED",
    "SURVEY",
    "Context",
    "add_to_lead",
    "defines",
    "enter_section",
    "hosted",
    "is_host_line",
    "not_where_run",
    "project_of",
    "sized",
    "unlisted",
]


@dataclass
class Context:
    """Conditions in scope: names per field plus load."""

    names: dict[str, list[str]] = field(default_factory=dict)
    baseline: list[str] = field(default_factory=list)
    load: dict[str, str] = field(default_factory=dict)

    def update(self, conditions: Conditions, *, with_baseline: bool) -> None:
        if _states_nothing(conditions):
            return  # most statements: nothing to add (issue #19)
        for name in CONDITION_FIELDS:
            values = getattr(conditions, name)
            if values and name == "software":
                self.names[name] = list(dict.fromkeys([*self.names.get(name, []), *values]))
            elif values:
                self.names[name] = list(values)
        if with_baseline and conditions.baseline:
            self.baseline = list(conditions.baseline)
        self.load.update(conditions.load)

    def merge(self, other: Context) -> None:
        self.names.update({k: list(v) for k, v in other.names.items() if v})
        self.baseline = list(other.baseline) or self.baseline
        self.load.update(other.load)

    def copy(self) -> Context:
        return Context(
            {k: list(v) for k, v in self.names.items()}, list(self.baseline), dict(self.load)
        )

    def fill(self, conditions: Conditions, *, with_baseline: bool) -> Conditions:
        """The conditions with what the scope adds. A number is never compared with its
        own hardware, model, precision or (first-named) system: a stated one keeps the scope's baseline off
        (`## A100 vs H100` over an H100 column), and a baseline keeps the scope's name of
        the same thing off (`FP16 accumulation` above a row compared with FP16)."""
        data = conditions.model_dump()
        if with_baseline and not data["baseline"]:
            # nor with the system it names first, its own: `| TRTLLM | 12.46 |` under
            # `HF V.S. TensorRT-LLM` (a later one may be the compared: `on par with Ollama`)
            stated = {v for name in _OWN_FIELDS for v in data[name]} | set(data["software"][:1])
            data["baseline"] = [b for b in self.baseline if b not in stated]
        for name in CONDITION_FIELDS:
            inherited = self.names.get(name, [])
            if not data[name]:
                if name in _OWN_FIELDS:
                    inherited = [v for v in inherited if v not in data["baseline"]]
                data[name] = list(inherited)
            elif name == "software":
                # software versions describe the whole set-up: keep both
                data[name] = list(dict.fromkeys([*data[name], *inherited]))
        data["load"] = {**self.load, **data["load"]}
        data["repeats"] = format_repeats(data["load"])
        return Conditions(**data)


_OWN_FIELDS = ("hardware", "model", "precision")
"""The fields a number's baseline is never one of."""


def _states_nothing(conditions: Conditions) -> bool:
    """Whether the conditions name nothing and set no load (`repeats` follows the load)."""
    return not (
        conditions.hardware
        or conditions.model
        or conditions.precision
        or conditions.software
        or conditions.baseline
        or conditions.load
    )


_REPOSITORY = re.compile(
    r"(?:github\.com/|^)(?P<owner>[\w.-]+)/(?P<name>[\w.-]+?)(?:\.git)?(?:@|/|#|$)"
)


def project_of(where: str, *, owner: bool = False) -> str:
    """The repository's name in `owner/repo@sha:path` or a GitHub URL (with `owner`:
    `owner/repo`), else ''."""
    if "@" not in where and "github.com/" not in where:
        return ""
    match = _REPOSITORY.search(where)
    if not match:
        return ""
    return f"{match['owner']}/{match['name']}" if owner else match["name"]


_LEAD_NAMES = 2
"""A section's lead naming more things of one field than this is a survey, not a set-up."""


LEAD_FIELDS = ("hardware",)
"""The fields a section's lead sets up for the whole section, its subsections included."""


def add_to_lead(
    section: Context, own: Conditions, seen: dict[str, set[str]], *, with_baseline: bool
) -> None:
    """Add the conditions of a statement before a section's first number to its lead.

    A field the lead names more than `_LEAD_NAMES` things of, in one statement or over
    several (`* Decoder-only: GPT-2, OPT` then `* Encoder-only: BERT`), is a survey of
    what is supported: it is dropped from the set-up, and stays dropped.
    """
    if _states_nothing(own):
        return
    crowded: dict[str, list[str]] = {}
    for name in (*CONDITION_FIELDS, "baseline"):
        values = getattr(own, name)
        if not values:
            continue
        found = seen.setdefault(name, set())
        found.update(values)
        if len(found) > _LEAD_NAMES:
            crowded[name] = []
            if name == "baseline":
                section.baseline = []
            else:
                section.names.pop(name, None)
    section.update(own.model_copy(update=crowded) if crowded else own, with_baseline=with_baseline)


SURVEY = re.compile(
    r"\b(?:supported|supports?|support for|including|includes?|such as|e\.g\.|among others|"
    r"compatible with|works with|models? like|featur(?:ing|es))\b|支持|包括|例如|诸如|"
    r"\betc\.|(?<=[\w)）])等(?=[，,。；、)）\s]|$)",
    re.I,
)
"""What a project can run (`Supported models include pi0.5, GR00T N1.7, ...`, `有英伟达显卡
（30系，40系，V100/A100等）`): no set-up."""


REQUIRED = re.compile(
    r"\b(?:requires?|required|requirements?|minimum|at least|or (?:better|higher|newer|above)|"
    r"recommend(?:ed)?)\b|至少|推荐|建议|要求|最低|需要",
    re.I,
)
"""What a user needs to run the project (`## Hardware requirements`): not where the
document's numbers ran."""


def not_where_run(text: str, heading: str | None = None) -> bool:
    """Whether a statement that names a part says nothing of where the document's numbers
    ran: a footnote (`[^gpu]: Measured on one RTX 4090`), or a survey of what runs or what
    a user needs (`SURVEY`, `REQUIRED`) in it or in its section's `heading`."""
    if text.lstrip().startswith("[^"):
        return True
    probe = probe_of(text if heading is None else f"{heading} {text}")
    return bool(search(SURVEY, probe) or search(REQUIRED, probe))


def unlisted(conditions: Conditions) -> Conditions:
    """A survey's conditions without the fields it lists several things of."""
    listed: dict[str, list[str]] = {
        name: [] for name in CONDITION_FIELDS if len(getattr(conditions, name)) > 1
    }
    return conditions.model_copy(update=listed) if listed else conditions


_HOST = re.compile(
    r"^\W{0,4}(?:host\s)?(?:CPUs?|processors?|(?:中央)?处理器)\W{0,3}\s?(?:[:：=]|为|是)", re.I
)
"""`- CPU: Intel Core i9-13900K`, `CPU为Intel Xeon Gold 6271C`: the host of a machine."""


def hosted(own: Conditions, text: str, named: bool) -> Conditions:
    """`- GPU: 1x RTX 4090` / `- CPU: Core i9-13900K`: a set-up that has `named` the
    machine's accelerator keeps it for the numbers it measured; the host CPU named after
    it does not replace it (a row that ran on the CPU says so: `extract.roles`)."""
    if not (named and own.hardware and is_host_line(text)):
        return own
    return own.model_copy(update={"hardware": []})


def is_host_line(text: str) -> bool:
    """Whether a statement names the host CPU of a machine (`- CPU: Intel Core i9-13900K`)."""
    return _HOST.match(text) is not None


_TERM = re.compile(r"^([^:：=]{1,40})[:：]\s")


def defines(text: str, cat: Catalog) -> bool:
    """`OPUS-MT: a base Transformer trained with Marian`: a glossary entry, not a set-up
    (`Model: Qwen3-14B` names the set-up after its colon, not before)."""
    term = _TERM.match(text)
    return term is not None and any(cat.find(name, term.group(1)) for name in CONDITION_FIELDS)


def enter_section(
    sections: list[tuple[int, Context]],
    heading: Segment,
    cat: Catalog,
    own: tuple[str, ...] = (),
) -> Context:
    """Enter a heading: its context is its parent section's plus its own text.

    `own`: the names of the document's own project (the repository's and its aliases);
    a heading that compares it with others (`# vLLM Bench vs Evalscope Perf` in
    modelscope/evalscope) compares the others with it, never it with itself."""
    while len(sections) > 1 and sections[-1][0] >= heading.level:
        sections.pop()
    context = sections[-1][1].copy()
    context.update(_not_own(find_conditions(heading.text, cat), own), with_baseline=True)
    sections.append((heading.level, context))
    return context


def _not_own(conditions: Conditions, own: tuple[str, ...]) -> Conditions:
    """The conditions with a compared system that is the project's own replaced by the
    other systems they name (`A vs Ours`: the project is compared with A), issue #14."""
    parts = [name_parts(name) for name in own]
    if not parts or not any(names_own(p, b) for p in parts for b in conditions.baseline):
        return conditions
    others = [s for s in conditions.software if not any(names_own(p, s) for p in parts)]
    return conditions.model_copy(update={"baseline": others})


_BARE_SIZE = re.compile(
    r"(?:^|[;|(（,，]\s?|:\s|\b(?:the|for|on|with)\s)(\d+(?:\.\d+)?[Bb])"
    r"(?=\s?(?:$|[;|)）,，:]|models?\b|variants?\b|模型|版本))",
    re.I,
)
_TRAILING_SIZE = re.compile(r"-?\d+(?:\.\d+)?[Bb]$")
_COUNTED_TOKENS = re.compile(r"(?:tokens?|词元)\s?[:：]?\s?$", re.I)
"""`input tokens: 608B`: billions of tokens, not a model's size."""


def sized(conditions: Conditions, own: Conditions, text: str, cat: Catalog) -> Conditions:
    """`| 13B | 41.2 |` under `## Llama 2 7B-70B`, `the 70B model`: the one family in scope,
    at the size the statement names instead of its own model."""
    if own.model or len(conditions.model) != 1:
        return conditions
    match = _BARE_SIZE.search(text)
    if not match or _COUNTED_TOKENS.search(text, 0, match.start(1)):
        return conditions
    size = match.group(1).upper()
    family = _TRAILING_SIZE.sub("", conditions.model[0])
    names = cat.names("model", f"{family}-{size}")
    if len(names) != 1 or not names[0].upper().endswith(size) or names == conditions.model:
        return conditions
    return conditions.model_copy(update={"model": names})
