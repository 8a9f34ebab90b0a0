"""The bilingual token set of a finding, which mechanism families compare (`families`).

jieba words for Chinese, lower-case English words, both mapped onto shared concept tokens
such as 专家/expert → `expert`, plus the taxonomy tag values as `dimension=value` tokens;
each token with its weight (`copies`). Pure: no I/O, no clock.
"""

from __future__ import annotations

import functools
import re

from research_radar.models import Finding
from research_radar.resolve.keys import key_name
from research_radar.segment import load_jieba

__all__ = ["CONCEPT_WEIGHT", "GENERIC_WEIGHT", "build_tokens", "copies"]


def _cut(text: str) -> list[str]:
    """jieba's words of a Chinese run; jieba (and its dictionary) load at the first use."""
    return list(load_jieba().lcut(text, HMM=False))


_CONCEPTS: dict[str, str] = {
    # bilingual concept tokens: a Chinese or English word → one shared token
    "专家": "expert", "experts": "expert", "moe": "expert", "offload": "offload", "卸载": "offload",
    "分层": "tier", "tier": "tier", "tiers": "tier", "ssd": "ssd", "nvme": "ssd", "换入": "offload",
    "语音": "speech", "asr": "speech", "tts": "speech", "speech": "speech", "音频": "speech",
    "流式": "streaming", "streaming": "streaming", "stream": "streaming", "断流": "streaming",
    "vla": "action", "动作": "action", "action": "action", "actions": "action", "具身": "action",
    "闭环": "closed-loop", "closed-loop": "closed-loop", "机器人": "action", "policy": "action",
    "算子": "kernel", "kernel": "kernel", "kernels": "kernel", "triton": "kernel", "cuda": "kernel",
    "agent": "agent", "agents": "agent", "智能体": "agent", "候选": "candidate", "candidate": "candidate",
    "搜索": "search", "search": "search", "优化循环": "search", "评测": "benchmark", "benchmark": "benchmark",
    "基准": "benchmark", "bench": "benchmark", "verifier": "verify", "验证": "verify", "正确性": "verify",
    "缓存": "cache", "cache": "cache", "caching": "cache", "kv": "kv-cache",
    "投机": "speculation", "speculative": "speculation", "draft": "speculation", "草稿": "speculation",
    "mtp": "speculation", "dspark": "speculation", "dflash": "speculation",
    "状态": "state", "state": "state", "回滚": "rollback", "rollback": "rollback", "重放": "replay",
    "gdn": "recurrent", "deltanet": "recurrent", "recurrent": "recurrent", "递归": "recurrent", "ssm": "recurrent",
    "mamba": "recurrent", "扩散": "diffusion", "diffusion": "diffusion", "dit": "diffusion", "去噪": "diffusion",
    "视频": "video", "video": "video", "图像": "image", "image": "image",
    "深度": "depth", "depth": "depth", "loop": "loop", "循环": "loop",
    "调度": "schedule", "schedule": "schedule", "scheduling": "schedule", "serving": "serving",
    "服务": "serving", "slo": "serving", "量化": "quant", "quantization": "quant", "int8": "quant",
    "预取": "prefetch", "prefetch": "prefetch", "融合": "fusion", "fusion": "fusion",
}  # fmt: skip
_STOP = {
    "the", "and", "for", "with", "not", "are", "but", "from", "this", "that", "into", "per", "via",
    "model", "models", "specific", "model-specific", "inference", "performance", "llm", "new",
    "不是", "非新", "算法", "新算法", "系统", "组合", "系统组合", "作者", "报告", "作者报告", "实现", "性能",
    "推理", "模型", "以及", "可以", "已有", "属于", "现有", "没有", "需要", "不能", "一个", "明确", "相对",
    "先验", "prior", "art", "定制", "特化", "引擎", "engine", "runtime", "运行时", "支持", "新增", "机制",
}  # fmt: skip
CONCEPT_WEIGHT = 8
"""How much more a workload-defining concept or a tag token weighs than a plain word."""
GENERIC_WEIGHT = 2
"""Weight of mechanism concepts that cut across families (cache, speculation, kernel...)."""
_GENERIC = frozenset(
    ["cache", "kv-cache", "speculation", "verify", "serving", "schedule", "quant", "fusion",
     "prefetch", "kernel", "state", "image", "video"]
)  # fmt: skip
_CONCEPT_TOKENS = frozenset(_CONCEPTS.values())
_CJK = re.compile(r"[\u4e00-\u9fff]+")
_LATIN = re.compile(r"[a-z][a-z0-9+\-]*[a-z0-9+]|[a-z]")


def _words(text: str) -> list[str]:
    lowered = text.lower()
    words = [w.strip("-") for w in _LATIN.findall(lowered)]
    for run in _CJK.findall(lowered):
        words.extend(_run_words(run))
    return words


@functools.lru_cache(maxsize=65536)
def _run_words(run: str) -> tuple[str, ...]:
    """The words of a Chinese run: jieba's, plus the longer concepts it contains. Cached:
    the same runs (a report's stock phrases) recur in most findings (#19)."""
    return (*_cut(run), *(concept for concept in _CONCEPTS if len(concept) > 2 and concept in run))


def copies(token: str) -> int:
    """How many times a token counts (its weight; MinHash sees that many copies)."""
    if token in _GENERIC:
        return GENERIC_WEIGHT
    return CONCEPT_WEIGHT if token in _CONCEPT_TOKENS or "=" in token else 1


def build_tokens(finding: Finding) -> set[str]:
    """The bilingual token set of a finding: its name, mechanism, prior art (or the project it
    derives from) and tag values."""
    derived = finding.derived_from
    lineage = [key_name(derived.parent), *derived.evidence] if derived else []
    text = " ".join([finding.name, finding.mechanism, finding.prior_art, *lineage, finding.why])
    tokens: set[str] = set()
    for word in _words(text):
        if word in _CONCEPTS:
            tokens.add(_CONCEPTS[word])
        elif len(word) >= 2 and word not in _STOP and not word.isdigit():
            tokens.add(word)
    for dimension, tags in finding.tags.items():
        tokens.update(f"{dimension}={tag.value}" for tag in tags)
    return tokens
