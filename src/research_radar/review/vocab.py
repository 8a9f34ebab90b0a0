"""The review's vocabulary: the terms and patterns its rules look for (CONVENTIONS.md).

The dimension tables (WORKLOAD, MECHANISM, SYSTEM_LEVEL, RSI_STAGE) map a value to the
pattern that shows it; FAMILIES lists mechanism families, most specific first; the compiled
patterns mark conditions, labels, pins and what must not be published. Pure data.

Kept in Python rather than a data/*.toml file: the patterns are composed from each other
(_MODEL_NAMES, SHA; HEADER_NOVELTY is rebuilt from NOVELTY), some carry flags, and all
are compiled once at import, with no file read in the pure core.
"""

from __future__ import annotations

import re

__all__ = [
    "ACCESS_CONTROLLED",
    "AUTHOR",
    "BARE_REF",
    "BASELINE",
    "BEIJING_WORDS",
    "BUDGET",
    "CONCRETE_REF",
    "DATED",
    "DIFFERS",
    "FAMILIES",
    "GENERIC",
    "GLOBAL_AUTHOR",
    "HARDWARE",
    "HEADER_NOVELTY",
    "HOST_WORDS",
    "LOCAL_PATH",
    "MATURITY",
    "MECHANISM",
    "MODEL",
    "NAMED_REF",
    "NOT_NOW",
    "NOVELTY",
    "NO_RANKING",
    "NO_STACKING",
    "PERF",
    "PIN",
    "POLICY_SWITCH",
    "PRECISION",
    "PRIVATE_HOST",
    "PROPOSAL_ITEM",
    "PROPOSAL_SECTION",
    "RANKING",
    "RECHECK",
    "RELATION_KIND",
    "RSI_NOT_APPLICABLE",
    "RSI_STAGE",
    "SECRETS",
    "SHA",
    "STACKING",
    "STOP",
    "SYSTEM_LEVEL",
    "VALIDATED",
    "WORKLOAD",
]

_MODEL_NAMES = (
    r"DeepSeek|Qwen|GLM|MiniMax|Llama|Kimi|Mistral|Gemma|gpt-oss|Nanbeige|Woof|Nemotron|"
    r"Mamba|Phi-?\d"
)
WORKLOAD = {
    "llm-agentic": rf"LLM|Agentic|语言模型|{_MODEL_NAMES}|\bMoE\b|\b\d+(?:\.\d+)?B\b",
    "diffusion": r"Diffusion|diffusion|扩散|\bDiT\b|FLUX|stable-diffusion|图像|视频生成",
    "loop-recurrent": r"\bLoop\b|Recurrent|recurrent|自适应(?:计算)?深度|adaptive depth",
    "decision-policy": r"Decision|Action|Policy|World Model|\bVLA|具身|机器人|π0|SmolVLA|决策|世界模型",
    "crossmodal-streaming": (
        r"语音|Speech|speech|\bASR\b|\bTTS\b|跨模态|多模态|multimodal|流式交互|[Cc]ross-modal|"
        r"[Ss]treaming interaction"
    ),
}
MECHANISM = {
    "schedule": r"[Ss]chedul|调度|batch|批处理|排队|deadline|队列",
    "cache": r"[Cc]ache|缓存|\bKV\b|驻留|offload|预取|prefetch",
    "parallel-pipeline": r"[Pp]arallel|[Pp]ipeline|并行|流水|重叠|overlap|\bTP\d|\bEP\d",
    "kernel-compiler-fusion": (
        r"[Kk]ernel|[Cc]ompil|编译|(?<![Dd]if)[Ff]usion|融合|算子|Triton|CUDA|Metal|\bgraph"
    ),
    "quant-sparsity-speculation": (
        r"[Qq]uantiz|量化|[Ss]parsi|稀疏|[Ss]peculat|投机|draft|草稿|\bMTP|INT8|FP8|FP4|\bQ\d|bit\b"
    ),
    "compute-quality-budget": r"[Bb]udget|预算|early exit|早退|自适应|质量.{0,4}成本",
}
SYSTEM_LEVEL = {
    "operator": r"单算子|算子层|算子级|(?i:single[- ]operator|operator[- ]level|\boperator\b)",
    "model-execution": r"模型执行|(?i:model[- ]execution)",
    "serving": r"(?i:serving)|单机/分布式",
    "end-to-end": r"端到端|(?i:\bE2E\b|end-to-end)",
    "controller": r"优化控制器|控制器|控制层|知识反馈|(?i:controller)",
}
"""System levels read strictly: one of the dimension's values must be stated ("kernel",
"engine" or "runtime" alone name a mechanism or a component, not a level; refs #17)."""
RSI_STAGE = {
    "diagnosis": r"瓶颈诊断|诊断|diagnos|profil",
    "candidate-generation": r"候选|[Cc]andidate|提议|propos",
    "constrained-search": r"搜索|[Ss]earch|sweep|调优|tun(?:e|ing)",
    "verification": r"独立验证|verif|oracle|验收|门禁|门槛|gate|契约|contract|对照|正确性|评测|测量|evaluat",
    "selection": r"成本/质量选择|选择|selection|筛选|淘汰|预筛",
    "reusable-experience": r"可复用经验|经验|知识|knowledge|skill|沉淀|归档|反例库|[Rr]eusable experience",
}
RSI_NOT_APPLICABLE = re.compile(r"RSI[：:]\s*(?:不适用|n/?a\b|not applicable)", re.IGNORECASE)
"""An entry may say the RSI stage does not apply (an engine with no improvement loop)."""
MATURITY = (
    r"Idea|idea|Paper|paper|论文|Code available|代码|源码|开源|Integrated|集成|合并|合入|merged|"
    r"Beta|beta|研究型|[Ll]ocally validated|本地验证|release|发布物|实现|博客|blog"
)
RELATION_KIND = (
    r"已有能力|existing[- ]capability|已有|现有|既有|在途|open|Draft|可扩展缺口|缺口|gap|extensible|暂不|"
    r"不建议|not[- ]recommended|补|新增|扩展|借鉴|复用"
)
CONCRETE_REF = re.compile(
    r"`[^`\n]+`|(?<![\w&])#\d+|[\w.-]+/[\w.-]+#\d+|"
    r"\b(?:docs|src|methods|skills|repositories|tests|scripts|benchmarks)/[\w./-]+|"
    r"[\w-]+/[\w./-]*\.(?:md|py|json|toml|ya?ml|cpp|cu|hpp?|rs)\b|SKILL\.md|"
    r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}\b|"
    r"\b[a-z][a-z0-9]*-(?:policy|guide|design|launcher|workbench|eval|evaluation|index|matrix|"
    r"library|runner|contract|owner)\b"
)
NOT_NOW = re.compile(r"暂不建议|暂不推荐|not recommended", re.I)
GENERIC = re.compile(
    r"(?:复用|沿用|reuse)(?:现有|既有|已有|the existing|existing)?\s*\S{0,12}?"
    r"(?:harness|runner|Harness|评测|门禁|能力|设施|控制器|evaluation)"
)
SHA = r"(?<![0-9A-Za-z])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![0-9A-Za-z])"
PIN = re.compile(rf"{SHA}|(?<![\w.])v?\d+\.\d+\.\d+(?:\.\d+)?\b|(?<![A-Za-z])v\d+(?:\.\d+)*\b")
DATED = re.compile(r"(?:20\d\d-)?\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}|\d+\s*月\s*\d+\s*日")
PERF = re.compile(
    r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)(?:\s*[–~-]\s*\d+(?:\.\d+)?)?\s*"
    r"(?P<unit>tok/s|tokens?/s|TPS|ms\b|s/it|it/s|×(?!\d)|x(?![A-Za-z0-9])|倍|%|pp\b|fps|GB/s|RTF)"
)
HARDWARE = re.compile(
    r"RTX ?\d{4}|\b[ABHLV]\d{2,3}\b|\bB200|\bGB\d{2,3}|\bH\d{3}|\bMI\d{3}|\bM\d\s*(?:Max|Pro|Ultra)|"
    r"\bArc\b|R9700|RX ?\d{4}|Xeon|Ryzen|i[3579]-\d+|Hopper|sm_?\d+|\d+\s*GB|"
    r"\b(?:3090|4060|4070|4090|5060|5070|5090)\b|\bA40\b|TPU|NPU|Ascend|Laptop|Apple|Intel|AMD"
)
MODEL = re.compile(
    rf"{_MODEL_NAMES}|\b\d+(?:\.\d+)?B\b|Parakeet|CosyVoice|SmolVLA|π0|pi0|FLUX|Wan\d|OpenVLA|"
    r"GPT-SoVITS"
)
PRECISION = re.compile(
    r"FP\d+|BF16|bf16|fp16|f16|NVFP4|MXFP4|INT\d|int\d|\bQ\d(?:_K)?|IQ\d|GGUF|\d(?:\.\d+)?[- ]?bit|"
    r"bpw|AWQ|GPTQ|EXL\d|\bq\d_|\bw8|量化|精度|precision"
)
BASELINE = re.compile(
    r"\bvs\.?|VS|对比|对照|相对|相比|baseline|基线|→|->|较|比|关闭值|\boff\b|over|than|从.{1,20}到"
)
AUTHOR = re.compile(r"作者|author|Author|AUTHOR|自报|社区|community|官方|vendor|README|维护者")
VALIDATED = re.compile(r"(?<!未)(?:本地验证|已独立复现|locally validated|我们复现)")
GLOBAL_AUTHOR = re.compile(
    r"(?:所有|全部|以下|均为作者)[^。\n]{0,10}(?:作者|author)|all (?:performance )?numbers are author"
    r"|均为公开资料分析|未独立运行"
)
"""A header that marks every number as not ours (all author-reported, or nothing was run)."""
NOVELTY = re.compile(
    r"新发布|新进展|基础参考|历史补发现|历史新发现|补发现|新发现|经典基线|基线参考|首次发现|首次出现|首发|"
    r"实质增量|实质更新|实质变化|实质记录|本轮.{0,4}增量|不是今日|非今日|不算今日|补录|复核|"
    r"new release|new progress|baseline reference|historical"
)
HEADER_NOVELTY = re.compile(
    NOVELTY.pattern.replace("|复核", "")
    + r"|基线|不是把旧|不把旧|旧论文|新发现不等于新发布|新发现≠新发布|不是首次发布"
)
RANKING = re.compile(
    r"最快|最高|最佳|第一|排名|总榜|领先|击败|胜出|优于|fastest|\bbest\b|beats?\b|outperform|榜首"
)
NO_RANKING = re.compile(
    r"不跨条件|不排名|不做总榜|不能跨|非同条件|不同条件|不是同一|不直接排名|no ranking|not rank"
)
STACKING = re.compile(
    r"叠加|合计|累计|相加|加总|共计|总计|总共|combined|stacked|in total|\d%\s*[+＋×]\s*\d"
)
NO_STACKING = re.compile(r"不叠加|不能.{0,10}归|不可叠加|避免叠加|不相加|not (?:add|stack)")
PROPOSAL_SECTION = re.compile(
    r"^(?:#{1,6}\s*)?\**.{0,14}(?:验证建议|建议验证|验证方向|validation)", re.I
)
PROPOSAL_ITEM = re.compile(r"^\s*(?:\*\*)?(?:建议\s*\d|最小验证建议|小验证建议)")
BUDGET = re.compile(
    r"预算|budget|GPU\s*小时|工程小时|小时|最多|至多|上限|每格|"
    r"\d+\s*(?:次|个|条|项|配置|请求|重复|seeds?|runs?|reps)"
)
STOP = re.compile(r"停止|即停|停|stop|淘汰|INCONCLUSIVE|不晋级|终止|abort|放弃|不推广")
POLICY_SWITCH = re.compile(r"只报告首次发现|report only first[- ]discovered")
RECHECK = re.compile(r"复核|核验|核对|重新核|re-?check|未变|发布前")
BEIJING_WORDS = re.compile(r"北京|Beijing|UTC\+8|\+08:00|CST")
HOST_WORDS = re.compile(r"(?:InferRSI|宿主|host|main|本仓|我们)\W{0,3}$", re.I)
BARE_REF = re.compile(r"(?<![\w#&])#(\d{1,6})(?!\d)")
NAMED_REF = re.compile(
    r"(?<![\w/.-])([A-Za-z][\w.+-]*(?:\s[A-Z][\w.+-]*)*)\s?(?:PR|pull|issue)?\s?(?<![\w/])#(\d{1,6})(?!\d)"
)
SECRETS = re.compile(
    r"\b(?:ghp_[A-Za-z0-9]{20,}|gho_\w{20,}|github_pat_\w{20,}|sk-[A-Za-z0-9_-]{16,}|"
    r"xox[abp]-[\w-]{10,}|AKIA[0-9A-Z]{16})"
)
LOCAL_PATH = re.compile(r"(?<![\w/.:])(?:/home/|/Users/|/root/|~/|[A-Za-z]:\\)")
PRIVATE_HOST = re.compile(
    r"https?://(?:localhost|127\.0\.0\.1|10\.\d+\.\d+\.\d+|192\.168\.|[^/\s]*\.(?:internal|corp|lan)\b)"
)
ACCESS_CONTROLLED = re.compile(
    r"https?://(?:docs\.google\.com|drive\.google\.com|[\w.-]*notion\.so|[\w.-]*feishu\.cn|"
    r"[\w.-]*larksuite\.com|[\w.-]*slack\.com|[\w.-]*dropbox\.com)\S*"
)

# Mechanism families, most specific first (CONVENTIONS §8: dedup by mechanism family too).
FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rsi-benchmark", (r"^[^\n]*(?:[Bb]ench|评测)", r"RSI|[Aa]gent")),
    ("kernel-agent-loop", (r"[Kk]ernel|算子", r"[Aa]gent|自主|搜索|search|优化循环|autotun|提议")),
    ("serving-config-search", (r"[Ss]erving|服务", r"配置|config", r"搜索|search|tun|sweep")),
    ("moe-expert-offload", (r"专家|expert", r"offload|VRAM|RAM|SSD|NVMe|缓存|cache|分层|驻留")),
    (
        "recurrent-state-rollback",
        (r"GDN|Gated DeltaNet|DeltaNet|recurrent|状态回滚|rollback|重放|SSM",),
    ),
    ("diffusion-cache", (r"Diffusion|diffusion|DiT|扩散", r"[Cc]ache|缓存|offload|预取")),
    ("vla-runtime", (r"\bVLA|动作|action chunk|具身",)),
    ("speech-streaming", (r"语音|[Ss]peech|\bASR\b|\bTTS\b",)),
)
DIFFERS = re.compile(
    r"同族|相对(?:于)?\s*[A-Za-z]|相比\s*[A-Za-z]|与已报|相对此前|relative to [A-Z]"
)
