"""Launch commands -> the set-up of the results measured against what they launch (issue
#14).

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead.

A tutorial or a benchmark report starts a server (`vllm serve Qwen3-32B
--tensor-parallel-size 4`, after `export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3`) in a section
of its own, then measures it under later headings (`## Benchmark`, `## Test Results`):
every request measured ran on that server's parallelism and devices. The same command
under `## Installation`, `## Quick start` or `## Usage` tells a reader how to run the
project: not how the numbers elsewhere on the page were made. Here are the two readings
that decide it, kept apart from the scopes that use them (`extract.scopes`): how many
devices a block's environment makes visible, and whether a heading is such a how-to.
The flags themselves are read by the one table of the field's tools' flags,
`extract.loadrules`, as in any statement.
"""

from __future__ import annotations

import re
import shlex

__all__ = ["is_how_to", "visible_devices"]

_DEVICE_LISTS = frozenset(
    [
        "CUDA_VISIBLE_DEVICES",
        "HIP_VISIBLE_DEVICES",
        "ROCR_VISIBLE_DEVICES",
        "ASCEND_RT_VISIBLE_DEVICES",
        "ASCEND_VISIBLE_DEVICES",
        "NPU_VISIBLE_DEVICES",
        "MLU_VISIBLE_DEVICES",
        "XPU_VISIBLE_DEVICES",
    ]
)
"""The environment variables of NVIDIA, AMD, Ascend, Cambricon and Intel runtimes that
list the devices a process may use."""
_DEVICE_ID = re.compile(r"\d{1,3}")


def visible_devices(commands: list[str]) -> int:
    """How many devices the environment of a shell block's commands (each joined over its
    `\\` continuations) lists, when it lists one set of them (`CUDA_VISIBLE_DEVICES=0,1
    python ...`, `export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3`); 0 when it lists none or
    several different sets (one run per set: none of them is the set-up)."""
    counts: set[int] = set()
    for command in commands:
        if "VISIBLE_DEVICES" not in command:
            continue
        try:
            words = shlex.split(command, comments=True)
        except ValueError:
            continue  # an unclosed quote: no assignment read from this line
        for word in words:
            name, equals, value = word.partition("=")
            ids = value.split(",")
            if equals and name in _DEVICE_LISTS and all(_DEVICE_ID.fullmatch(i) for i in ids):
                counts.add(len(set(ids)))
    return counts.pop() if len(counts) == 1 else 0


_HOW_TO = re.compile(
    r"\b(?:install(?:ation|ing)?|quick[\s-]?start|get(?:ting)?[\s-]started|usage|how[\s-]to|"
    r"examples?|docker|build(?:ing)?|compil(?:e|ing|ation)|download(?:ing)?|"
    r"prerequisites?|requirements?|inference\s(?:with|using|via))\b|"
    r"安装|快速(?:开始|上手|入门|使用|体验)|使用|用法|示例|样例|下载|编译|构建|教程|推理示例",
    re.I,
)
"""A heading of a section that shows how to run the project (`## Installation`, `##
Quick Start`, `### Docker`, `## 使用源代码推理`), not how the page's numbers were made."""


def is_how_to(heading: str) -> bool:
    """Whether a section's heading shows how to install or run the project, so a command
    in it sets up nothing outside it (`## Quick start` / `vllm serve ... -tp 8`)."""
    return _HOW_TO.search(heading) is not None
