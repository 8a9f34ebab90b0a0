"""Conditions of one statement: catalogue names, load, repeats and the compared baseline.

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead. Names are the catalogue's canonical ones; the load is read by
`extract.loads`.
"""

from __future__ import annotations

import re
from typing import Any

from research_radar.extract.baselines import find_baselines
from research_radar.extract.catalogue import Catalog
from research_radar.extract.loads import read_load, several_values
from research_radar.extract.prefilter import RECENT_TEXTS
from research_radar.models import Conditions

__all__ = [
    "CONDITION_FIELDS",
    "find_conditions",
    "format_repeats",
    "single_valued",
    "tidy_conditions",
    "with_load",
]


CONDITION_FIELDS = ("hardware", "model", "precision", "software")
"""The `Conditions` fields that hold catalogue names."""


_REPEAT_KEYS = ("runs", "samples", "seeds", "spread", "percentiles", "ci")


def find_conditions(text: str, cat: Catalog) -> Conditions:
    """The conditions written in one statement (none inherited from its context)."""
    known = _FOUND.get(text)
    if known is None or known[0] is not cat:
        if len(_FOUND) > RECENT_TEXTS:
            _FOUND.clear()
        known = (cat, _find_conditions(text, cat))
        _FOUND[text] = known
    # a fresh model each time: callers own what they get. Validating the fields copies
    # their lists and their load, and costs a third of `model_construct` (issue #19)
    return Conditions.model_validate(known[1])


_FOUND: dict[str, tuple[Catalog, dict[str, Any]]] = {}
"""The conditions of the statements read lately: a statement is read for its claim, for
its context and for the set-up it states (issue #19)."""


def _find_conditions(text: str, cat: Catalog) -> dict[str, Any]:
    """The fields of the statement's `Conditions`, tidied (`tidy_conditions`): a model is
    built only by the caller, once (issue #19)."""
    names = {name: cat.names(name, text) for name in CONDITION_FIELDS}
    if len(names["model"]) > 1 and "/" in text:
        names["model"] = _without_owners(text, cat, names["model"])
    if names["model"] and _SIZE_AFTER.search(text):
        names["model"] = _size_lists(text, cat, names["model"])
    if len(names["hardware"]) > 1 and _PORTED.search(text):
        names["hardware"] = _without_source(text, cat, names["hardware"])
    load = read_load(text, cat)
    baseline = find_baselines(text, cat)
    for name in ("hardware", "model", "precision"):
        # `FP8 吞吐较 BF16 提升 1.6 倍`: the compared precision (hardware, model) is not the
        # number's own
        names[name] = [value for value in names[name] if value not in baseline]
    software, baseline = _tidied(names["software"], baseline)
    return {
        "hardware": names["hardware"],
        "model": names["model"],
        "precision": names["precision"],
        "baseline": baseline,
        "software": software,
        "load": load,
        "repeats": format_repeats(load),
    }


_SIZE_AFTER = re.compile(r"\d[Bb]\s?(?:/|,|，|、|\band\b|\bor\b|和|或|及)\s?(?:and\s)?\d")
_SIZE_LISTED = re.compile(
    r"\s?(?:/|,|，|、|\band\b|\bor\b|和|或|及)\s?(?:and\s)?(\d+(?:\.\d+)?[Bb])(?![\w.])"
    r"(?!\s?(?:tokens?|params?|parameters|参数|词元))"
)
_TRAILING_SIZE = re.compile(r"\d+(?:\.\d+)?[Bb]$")


def _size_lists(text: str, cat: Catalog, models: list[str]) -> list[str]:
    """`Llama2-7B/13B/70B`, `LLaMA 7B, 13B and 65B`: the family at each size listed after
    its first (issue #14: the 13B numbers are not the 7B model's)."""
    listed: list[str] = []
    for mention in cat.find("model", text):
        size = _TRAILING_SIZE.search(mention.name)
        end = mention.end
        while size and (match := _SIZE_LISTED.match(text, end)):
            listed.append(mention.name[: size.start()] + match.group(1).upper())
            end = match.end()
    return list(dict.fromkeys([*models, *listed]))


def _without_owners(text: str, cat: Catalog, models: list[str]) -> list[str]:
    """`Qwen/Qwen2.5-7B-Instruct`, `meta-llama/Meta-Llama-3.1-70B`: a repository id names
    its model, not also the family its owner is named after (unless named elsewhere)."""
    mentions = cat.find("model", text)
    by_start = {m.start: m.name for m in mentions}
    owners: set[str] = set()
    named: set[str] = set()
    for mention in mentions:
        slash = _OWNER_TAIL.match(text, mention.end)
        after = by_start.get(slash.end()) if slash else None
        if after and mention.name.lower() in after.lower():
            owners.add(mention.name)  # `deepseek-ai/DeepSeek-R1`, not `Llama/Qwen 7B`
        else:
            named.add(mention.name)
    return [name for name in models if name not in owners or name in named]


_OWNER_TAIL = re.compile(r"[\w.-]{0,12}/")
"""The rest of a repository owner's name up to its slash (`-ai/` of `deepseek-ai/`)."""


_PORTED = re.compile(r"\bfrom\s+(?:the\s+)?(?:NVIDIA\s+|AMD\s+|GeForce\s+)?\S", re.I)
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:the\s+)?(?:NVIDIA\s+|AMD\s+|GeForce\s+)?$", re.I)
_TO_BEFORE = re.compile(r"\b(?:to|onto)\s+(?:the\s+)?(?:NVIDIA\s+|AMD\s+|GeForce\s+)?$", re.I)


def _without_source(text: str, cat: Catalog, hardware: list[str]) -> list[str]:
    """`ports the engine from the RTX 5090 to the RTX 4090`: the part it runs on is the
    one it moved to, not the one it came from."""
    mentions = cat.find("hardware", text)
    came_from = {
        m.name for m in mentions if _FROM_BEFORE.search(text[max(0, m.start - 40) : m.start])
    }
    went_to = {m.name for m in mentions if _TO_BEFORE.search(text[max(0, m.start - 40) : m.start])}
    if not came_from or not went_to:
        return hardware
    return [name for name in hardware if name not in came_from or name in went_to]


def tidy_conditions(conditions: Conditions) -> Conditions:
    """Drop `MLX` when `MLX 0.32.2` is named too; a bare baseline takes the version."""
    software, baseline = _tidied(conditions.software, conditions.baseline)
    if software == conditions.software and baseline == conditions.baseline:
        return conditions
    return conditions.model_copy(update={"software": software, "baseline": baseline})


def _tidied(software: list[str], baseline: list[str]) -> tuple[list[str], list[str]]:
    """`tidy_conditions` of the two fields it reads."""
    versioned = {name: name.split(" ")[0] for name in software if " " in name}
    if not versioned:
        return software, list(dict.fromkeys(baseline))
    kept = [name for name in software if name not in versioned.values()]
    by_base = {base: name for name, base in versioned.items()}
    return kept, list(dict.fromkeys(by_base.get(name, name) for name in baseline))


def format_repeats(load: dict[str, str]) -> str | None:
    """The `repeats` summary of a load (`runs 5, percentiles p50,p99`), or None."""
    parts = [f"{key} {load[key]}" for key in _REPEAT_KEYS if key in load]
    return ", ".join(parts) or None


def with_load(conditions: Conditions, load: dict[str, str]) -> Conditions:
    """The conditions with `load` in place of theirs, and its `repeats` summary."""
    return conditions.model_copy(update={"load": load, "repeats": format_repeats(load)})


def single_valued(conditions: Conditions, text: str, cat: Catalog) -> Conditions:
    """The conditions a set-up statement gives: none of the load keys it gives several
    values of (`loads.several_values`: `prefill on 32 GPUs, decode on 144 GPUs`, `training
    runs on one A100 GPU and inference on eight A100 GPUs`): either value is some numbers'
    only (issue #14)."""
    if not conditions.load:
        return conditions
    several = several_values(text, cat) & set(conditions.load)
    if not several:
        return conditions
    return with_load(conditions, {k: v for k, v in conditions.load.items() if k not in several})
