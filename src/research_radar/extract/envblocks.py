"""Fenced blocks that print the machine a benchmark ran on -> the lines naming its parts.

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead.

Authors paste what `nvidia-smi -L`, `nvidia-smi`, `npu-smi info`, `lscpu` or PyTorch's
`collect_env` printed above their results (issue #14): `GPU 0: NVIDIA A100-SXM4-80GB
(UUID: ...)`, `|   0  NVIDIA H100 80GB HBM3   On |`, `Model name: Intel(R) Xeon(R)
Platinum 8480+`. The Markdown reader skips code, so such lines are found here, on the raw
lines of fenced blocks: only the lines that name a device the way those tools print one
(not a script's arguments or its log).
"""

from __future__ import annotations

import re

from research_radar.extract.toolblocks import fenced_blocks

__all__ = ["env_blocks"]

_DEVICE_LINE = re.compile(
    r"^\s*(?:GPU\s\d{1,2}\s?:|Model name\s*:|Name\s*:|Device(?:\sname)?\s*:|"
    r"GPU models and configuration\s*:|Chip(?:\sname)?\s*:|CPU\s*:|GPU\s*:|"
    r"\|\s{1,4}\d{1,2}\s{1,4}(?:NVIDIA|Tesla|Quadro|AMD|910|310)|"
    r"\|\s{1,4}\d{1,2}\s{1,4}\w+\s{2,}\|)",
    re.I,
)
"""`GPU 0: NVIDIA A100 ...`, lscpu's `Model name:`, nvidia-smi's and npu-smi's device rows."""
_TOOLS = re.compile(
    r"nvidia-smi|NVIDIA-SMI|npu-smi|rocm-smi|lscpu|collect_env|GPU models and configuration|"
    r"\(UUID:\s?GPU-|"
    r"^\s*GPU\s\d{1,2}\s?:\s?(?:NVIDIA|Tesla|Quadro|AMD)|^\s*Model name\s*:",
    re.M,
)
_TOOL_NEEDLES = ("smi", "SMI", "lscpu", "collect_env", "GPU", "Model name")
"""What every match of `_TOOLS` holds (it is case-sensitive)."""


def env_blocks(text: str) -> list[tuple[int, str]]:
    """Each fenced block that prints the machine: its first line (1-based) and its device
    lines joined into one text."""
    if "```" not in text and "~~~" not in text:
        return []
    if not any(needle in text for needle in _TOOL_NEEDLES):
        return []  # no block can name a tool: none is read (#19)
    lines = text.splitlines()
    found: list[tuple[int, str]] = []
    for index, end, _tag in fenced_blocks(lines):
        body = lines[index + 1 : end]
        if not _TOOLS.search("\n".join(body)):
            continue
        devices = [line.strip(" |") for line in body if _DEVICE_LINE.match(line)]
        if devices:
            found.append((index + 1, " ; ".join(devices)))
    return found
