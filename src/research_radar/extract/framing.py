"""Whether a sentence frames a comparison (`FP8 shows 14.9% higher throughput`,
`INT8 vs FP16`, `量化前后显存对比如下：`): a ratio in it that names no compared system is
then to the other of the two precisions or parts its line or paragraph names.

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead.

A table's widest precision stays the reference of its other precisions' numbers whether or
not a heading frames the table as a comparison: issue #14 names the BF16 column as the
implicit baseline, and most labelled documents read it so.
"""

from __future__ import annotations

import re

__all__ = ["frames_comparison"]


_FRAMES = re.compile(
    r"(?<![A-Za-z])(?:vs\.?|v\.s\.?|versus|compar(?:e|ed|es|ing|ison|isons)|relative\sto|"
    r"speed-?ups?|faster|slower|accelerat(?:e|es|ed|ion)|improve(?:s|d|ment|ments)?|"
    r"reduc(?:e|es|ed|tion|tions)|increase[sd]?|decrease[sd]?|gains?|"
    r"(?:higher|lower)(?!\sis\sbetter)|(?<!is\s)(?:better|worse)|baseline|before\sand\safter)(?![A-Za-z])|"
    r"对比|相比|比较|相较|相对于|加速(?![卡器])|提升|提高|增加|高出|降低|减少|下降|前后|基线|基准(?!测|评)",
    re.I,
)
"""Words that compare: `vs`, `compared with`, `speedup`, `faster`, `14.9% higher` (not
`higher is better`, a legend), `对比`, `相比`, `前后` (`量化前后`: before and after), `基线`
(not `基准测试`, a benchmark)."""


def frames_comparison(text: str) -> bool:
    """Whether the text (a heading, a caption, a paragraph) frames what follows it as a
    comparison."""
    return _FRAMES.search(text) is not None
