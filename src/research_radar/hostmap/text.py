"""The bilingual tokeniser of the host index: English stems, jieba words, a zh→en glossary.

Pure except for jieba's dictionary, which is loaded lazily, once, and only when Chinese
text shows up. Known Chinese words also yield their English glossary terms, so a finding
written in Chinese still matches a host written in English.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from research_radar.segment import load_jieba

__all__ = ["token_pairs", "tokenize"]

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"[a-z0-9]+")
_STOP_EN_WORDS = (
    "a an and are as at be been but by can do does for from has have how if in into is it "
    "its may more must no not of on one only or our per same so than that the their then "
    "there these they this those to up use used using via was we were what when which will "
    "with without also each all any new should add adds added docs md py json under across "
    "between both while where whether other such after before given them then very model models"
)
_STOP_EN = frozenset(_STOP_EN_WORDS.split())
_STOP_ZH_WORDS = "我们 以及 一个 进行 可以 不是 没有 这个 这些 如果 因为 所以 需要 已经 以后 之后"
_STOP_ZH = frozenset(_STOP_ZH_WORDS.split())
# Chinese words that bridge to the English vocabulary of a host written in English.
_GLOSSARY: Mapping[str, str] = {
    "投机": "speculative", "解码": "decoding", "草稿": "draft", "草拟": "draft",
    "验证": "verification", "缓存": "cache", "卸载": "offload", "预取": "prefetch",
    "显存": "memory", "内存": "memory", "专家": "expert", "量化": "quantization",
    "稀疏": "sparsity", "调度": "schedule", "流水线": "pipeline", "并行": "parallel",
    "内核": "kernel", "算子": "kernel", "编译": "compiler", "融合": "fusion",
    "基准": "benchmark", "评测": "evaluation", "质量": "quality", "门槛": "gate",
    "门禁": "gate", "预算": "budget", "成本": "cost", "搜索": "search", "候选": "candidate",
    "策略": "policy", "回滚": "rollback", "状态": "state", "递归": "recurrent",
    "语音": "speech", "流式": "streaming", "首包": "ttfp", "断流": "underrun",
    "尾延迟": "tail latency", "延迟": "latency", "吞吐": "throughput", "扩散": "diffusion",
    "蒸馏": "distillation", "技能": "skill", "知识": "knowledge", "持出": "holdout",
    "冻结": "frozen", "交错": "interleaved", "配对": "paired", "复现": "reproduction",
    "正确性": "correctness", "等价": "equivalence", "漂移": "drift", "失败": "failure",
    "反例": "counterexample", "启动器": "launcher", "覆盖": "coverage", "接受": "acceptance",
    "重放": "replay", "检查点": "checkpoint", "分块": "chunk", "生命周期": "lifecycle",
    "重置": "reset", "优化": "optimization", "闭环": "closed loop", "具身": "embodied",
    "视频": "video", "图像": "image", "分母": "denominator", "方差": "variance",
    "配置": "configuration", "测量": "measurement", "服务": "serving", "请求": "request",
    "实验": "experiment", "终止": "termination", "前缀": "prefix", "饱和": "saturation",
}  # fmt: skip


def _stem(word: str) -> str:
    """A light English stemmer: enough to join cache/caches/cached, draft/drafts."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    for suffix, keep in (("ing", 3), ("ed", 4), ("es", 3), ("s", 3)):
        if word.endswith(suffix) and len(word) - len(suffix) >= keep:
            if suffix == "s" and word.endswith(("ss", "us", "is", "as")):
                break
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def _english(text: str) -> list[tuple[str, str]]:
    pairs = []
    for word in _WORD.findall(text.lower()):
        if len(word) < 2 or word.isdigit() or word in _STOP_EN:
            continue
        pairs.append((_stem(word), word))
    return pairs


def _chinese(run: str) -> list[tuple[str, str]]:
    pairs = [(w, w) for w in load_jieba().lcut_for_search(run) if len(w) > 1 and w not in _STOP_ZH]
    for zh, en in _GLOSSARY.items():
        if zh in run:
            pairs.extend(_english(en))
    return pairs


def token_pairs(text: str) -> list[tuple[str, str]]:
    """(stem, surface) pairs of bilingual text, in order."""
    pairs = _english(_CJK_RUN.sub(" ", text))
    for run in _CJK_RUN.findall(text):
        pairs.extend(_chinese(run))
    return pairs


def tokenize(text: str) -> list[str]:
    """Index terms of bilingual text: English words lower-cased and lightly stemmed,
    Chinese segmented with jieba (plus English glossary terms for known Chinese words)."""
    return [stem for stem, _ in token_pairs(text)]
