"""Which system a statement compares its numbers with: the name after a cue (`2x faster
than vLLM`, `compared with TGI`, `相比 vLLM`), before one (`与 vLLM 相比`), or the one named
as the baseline (`with llama.cpp as the baseline`, `以 FP16 为基线`).

Pure. A building block of `research_radar.extract.conditions`; callers outside this
package use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re

from research_radar.extract.catalogue import Catalog
from research_radar.extract.prefilter import probe_of
from research_radar.extract.screened import Family, finditer
from research_radar.models import Claim

__all__ = ["BASELINE_WORDS", "find_baselines", "names_reference", "spelled_out"]


_CUES = re.compile(
    r"(?<![A-Za-z])(?:vs\.?|v\.s\.?|versus|(?:in )?compar(?:ed|ison) (?:with|to)|relative to|against|"
    r"w\.r\.t\.?|with respect to|normali[sz]ed to|outperform(?:s|ed|ing)?|beat(?:s|ing)|baseline\s?[:：]|"
    r"baseline\s(?:here\s|used\s)?(?:is|was)|"
    r"as (?:fast|quick|efficient|high|low|good) as|(?:competitive|on par) with|comparable to)"
    r"(?![A-Za-z])|(?<=[×x])\s+the\s+[a-z]+\s+of\s|"
    r"(?<=\d[×x])\s+(?:that\s+of\s+|the\s+(?=[\w.-]+\s(?:throughput|speed|performance|latency)))|"
    r"(?:faster|slower|better|higher|lower|more|less|smaller|larger|bigger|cheaper|"
    r"speed-?ups?|gains?|improvements?|boosts?|uplifts?|advantages?)\s+"
    r"\(?(?:[a-z][\w-]*\s+|\([A-Z]{2,6}\)\s+){0,3}?(?:than|over)\s|"
    r"(?<=[×x%])\s+(?:over|upon)\s|(?<=\d[×x])(?:\s(?!than\b|over\b)[a-z][\w-]*){1,2}\s(?:over|upon)\s|"
    r"\bspeed(?:s|ing)?[\s-]?up\s(?=(?:[^.;,]|\.(?=\d)){2,40}?\b(?:by\s)?(?:up\sto\s)?\d+(?:\.\d+)?\s?[×x]\b)|(?<=\d%)\s+of\s(?=[A-Za-z])|(?<=\(%)\s?of\s(?=[A-Z])|"
    r"(?:基线|基准)\s?[是为](?!\d)|相对于?|对比|相比于?|相较于?|比起|较之|(?<![比相])较(?=\s?(?:[A-Za-z]|上一?[代版个]|旧版|原[始版生模]|基线|默认|未优化|优化前))|[快慢优高低]于|"
    r"(?<![对相无类好])比(?=\s?[A-Za-z]|\s?\d+\s?[xX×]\s?[A-Za-z]|[\u4e00-\u9fff]{1,8}\s?[快慢高低多少])|(?<![相反应针面绝])(?<!分别)对(?=\s?[A-Za-z][\w.-]*+\s?\d)",
    re.I,
)
_CJK_BEFORE = re.compile(
    r"(?:与|和|跟|(?<!不)(?<!相)同)\s?(?:(?:原始|原版|原生|默认|传统|标准)的?\s?(?=[A-Za-z]))?"
    r"((?:[A-Za-z][\w.+\-]*(?:\s[A-Za-z0-9][\w.+\-]*){0,2}\s?[、/]\s?){0,4}"
    r"[A-Za-z][\w.+\-]*(?:\s[A-Za-z0-9][\w.+\-]*){0,2}(?:\s?的?\s?(?:最佳|最优|默认)?(?:模型|版本|方案|方法|实现|框架|引擎|系统|精度|配置|性能|速度|吞吐量?|延迟|时延|耗时|推理|表现|效果|结果))?"
    r"|[\u4e00-\u9fff]{2,8}?)\s?(?:相比|比较|对比)|(?:是|为|达到?|相当于)\s?([A-Za-z][\w.+\-]*(?:\s[A-Za-z0-9][\w.+\-]*){0,2})\s?的\s?[\d.]+\s?(?:倍|%|％)"
)
_NEGATED = re.compile(r"(?:\b(?:not|never|no|without)\s+(?:\w+\s+)?|[未不没无]\s*)$", re.I)
BASELINE_WORDS = re.compile(
    r"(?<![A-Za-z])(plain|baseline|AR|naive|eager|default|off|stock|original|before|原始|基线|默认)"
    r"\s*[\d(（]",
    re.I,
)
"""A word that names the left side of `A vs B` as the baseline (`plain 26.2 vs MTP 40.0`)."""
_STOP_WORDS = {
    "at",
    "on",
    "with",
    "in",
    "for",
    "and",
    "by",
    "under",
    "when",
    "while",
    "which",
    "the",
    "a",
    "an",
    "its",
    "is",
    "was",
    "of",
    "to",
    "from",
    "same",
    "across",
    "per",
    "using",
    "mean",
    "median",
    "average",
    "avg",
    "decode",
    "prefill",
    "throughput",
    "latency",
    "reaches",
    "gives",
}
_SYSTEM_LIKE = re.compile(
    r"[A-Z\d.+_]|\b(?:baseline|original|vanilla|naive|native|default|standard|plain|eager|stock|"
    r"previous|prior|reference|full|dense|sequential|autoregressive|"
    r"greedy|custom|uncompressed|unquantized|single|best|(?:un-?|non-)?optimi[sz]ed)\b"
)
"""What a compared system named in lower case looks like: a name, or a plain reference."""
_CJK_REFERENCE = re.compile(
    r"原始|原版|原生|原模型|默认|基线|基准|标准|传统|朴素|稠密|密集|初代|前代|上一代|单卡|单机|单个|"
    r"未优化|优化前|量化前|全精度|半精度|自回归|现有|官方|常规|普通|开源|同等|^其[他它]|"
    r"(?:模型|方法|方案|系统|版本|库|框架|实现|引擎|算法|内核|方式|策略|配置|副本|服务)$"
)
"""What a compared system named in Chinese words looks like: a plain reference (`原始版本`,
`其他图像处理库`, `量化模型`), not the words that happen to follow a cue (`标志着线性`)."""
_CJK_WHEN = {"当前", "目前", "现在", "现有", "此前", "之前", "以前", "以往", "过去"}
"""Words of time that can follow a comparison cue but never name the compared system
(`相较于当前的 SOTA 系统`)."""
_CJK_NOT_A_NAME = re.compile(
    r"如[下上图表]|[见下上]表|结果|情况|了|延迟|时延|吞吐|耗时|显存|内存|首字|"
    r"降低|提升|提高|减少|加速|下降"
)
"""What follows a cue when nothing is named after it: `对比如下`, `对比了两种配置`, and
the measured quantity (`与 X 相比延迟降低 40%`: X stood before the cue)."""
_CJK_STOP = re.compile(
    r"[为的约是，,。；;：:、（()）\s]|分别|提升|下降|加速|降低|减少|提高|增加|缩短|节省|"
    r"只有|仅有|性能|速度|快|慢|高|低|多|少|"
    r"天然|本来|本身|明显|显著|大幅|略|稍|就|都|也|还|更|均|仍"
)


_CONTRAST = re.compile(
    r"\d[^,，;；。]*?(?:[,，]\s?|\s)(?:while|whereas)\s(?:the\s)?|\d[^;；。]*?[,，]?\s?而\s?", re.I
)
"""A contrast after a number (`gets 310 tok/s, while Ollama gets 120 tok/s`)."""
_UNIT_FOR = re.compile(r"(?<![\d.])1(?:\.0+\s?[x×]?|\s?[x×])\)?\s(?:for|with|is|=)\s(?!\d)", re.I)
"""`1.00 for plain decoding`, `1.0x = PyTorch`: the system of the unit ratio, the reference."""


def names_reference(claims: list[Claim]) -> bool:
    """Whether a statement's numbers only define the reference of ratios (`speedups are
    normalized to PyTorch (1.0x)`): a set-up of what follows, not a measurement."""
    metrics = [m for claim in claims for m in claim.metrics]
    return (
        bool(metrics)
        and all(m.unit in ("x", "") and abs(m.value - 1.0) < 1e-9 for m in metrics)
        and any(claim.conditions.baseline for claim in claims)
    )


_AS_BASELINE = re.compile(
    r"\bas (?:the |a |our )?(?:baseline|reference)\b|(?:作为|为)(?:基线|基准|对照)(?!测试|测评|评测|套件)",
    re.I,
)
_TAKING = re.compile(
    r"^\s*(?:(?:we\s)?(?:use|used|using|take|taking|took|choose|chose|with|treat(?:ing)?)\s|以|将|选取|选择|采用|使用|把)\s?",
    re.I,
)
"""What stands before the system named as the baseline (`using FP16 as the baseline`)."""
_AGAINST_NOT_COMPARED = re.compile(
    r"\b(?:test|validat|verif|check|buil|compil|link|match|run|ran)\w*\s+$", re.I
)
"""`built against CUDA 12.1`, `tested against the reference output`: no comparison."""
_NUMBER_FIRST = re.compile(
    r"[~约]?\s?\d[\d,]*(?:\.\d+)?\s?[^\s\d,;()（）]{0,8}\s?"
    r"(?:\((?P<paren>[^()]{2,40})\)|（(?P<wide>[^（）]{2,40})）|"
    r"(?:for|with|of|by|from|using|on|in)\s(?P<named>.{2,60}))",
    re.I,
)
"""`vs. 2,000 tok/s for TGI`, `vs. 19 ms (vLLM)`: the cue is followed by the compared
system's number, and the system is named after it."""
_MARKUP = re.compile(r"[\[\]*_`]")
"""Link brackets and emphasis left around a name (`faster than [Medusa] (13B)`)."""
_QUANTITY = re.compile(
    r"(?:batch(?:\s?size)?|bs|sequence(?:\s?length)?|seq(?:\s?len)?|(?:input|output|prompt|context)"
    r"(?:\s?(?:length|len|size|tokens))?|tokens?|concurrency|(?:request\s)?rate|qps|rps|time|"
    r"speed|throughput|latency|accuracy|quality|memory|cost|size|number of \w+|#?\s?gpus?|"
    r"nodes?|threads?|steps?|resolution|frames?|tp|pp|ep|dp|load|(?:kv\s?(?:cache\s)?)?budget|"
    r"sparsity|ratio|(?:(?:gpu|device|system|host|total|available)\s)?"
    r"(?:v?ram|hbm|memory|disk|storage)(?:\scapacity)?|capacity)",
    re.I,
)
"""What the right side of `Throughput vs. Batch Size` is: a quantity (a plot's axis, a
setting), never a system compared with; a share's whole (`31.4% of VRAM`) is a capacity,
not a system either."""


def find_baselines(text: str, cat: Catalog) -> list[str]:
    """The systems one statement compares its numbers with, in the order named."""
    probe = probe_of(text)
    if not _COMPARING.alive(probe):
        return []  # no cue of a comparison could match: most statements (issue #19)
    found: list[str] = []
    for match in finditer(_AS_BASELINE, probe):
        # "llama.cpp with FlashAttention as baseline": the first system of that clause
        clause = re.split(r"[,;:，；：。]", text[: match.start()])[-1]
        mentions = [
            m
            for name in ("software", "model", "hardware", "precision")
            for m in cat.find(name, clause)
        ]
        if mentions:
            found.append(min(mentions, key=lambda m: m.start).name)
        elif taken := _TAKING.search(clause):
            # `using Foo-Engine as the baseline`: a name the catalogue does not know
            named = _target(clause[taken.end() :], cat)
            if named:
                found.append(named)
    for match in finditer(_CONTRAST, probe):
        # `310 tok/s, while Ollama gets 120 tok/s`: the system the contrast names
        contrasted = cat.find("software", text[match.end() : match.end() + 40])
        if contrasted and contrasted[0].start == 0:
            found.append(contrasted[0].name)
    for match in finditer(_UNIT_FOR, probe):
        # `(which is 1.00 for vanilla decoding)`: the system every ratio is relative to
        named = _target(text[match.end() : match.end() + 96], cat)
        if named:
            found.append(named)
    for match in finditer(_CJK_BEFORE, probe):
        # `与 vLLM 相比`, `是 FP16 的 2.4 倍`: the compared thing stands before the cue (run
        # only where a cue's words are: most statements have none, issue #19)
        # `和 DeepSpeed-Chat、OpenRLHF 对比`: each system of a listed comparison
        for before in re.split(r"\s?[、/]\s?", (match.group(1) or match.group(2)).strip()):
            named = _target(before, cat) or before
            if named:
                found.append(named)
    for match in finditer(_CUES, probe):
        left = text[max(0, match.start() - 24) : match.start()]
        if _NEGATED.search(left):
            continue  # "not compared with each other", "未对比": no baseline is claimed
        cue = match.group(0).strip().lower()
        if cue == "against" and _AGAINST_NOT_COMPARED.search(left):
            continue
        word = BASELINE_WORDS.search(left)
        if word and cue.startswith(("vs", "versus", "对")):
            found.append(word.group(1))
            continue
        after = _MARKUP.sub("", text[match.end() : match.end() + 96])
        if re.match(r"\s*[，,。；;]", after):
            continue  # `与 vLLM 相比，INT8 ...`: the cue closes a phrase, nothing follows it
        number = _NUMBER_FIRST.match(after)
        if number and cue.startswith(("vs", "v.s", "versus", "compar", "against", "relative")):
            # `3,100 tok/s versus 2,000 tok/s for TGI`
            after = number.group("paren") or number.group("wide") or number.group("named")
        target = _target(after, cat)
        if target:
            found.append(target)
            found.extend(_listed_after(after, target, cat))
    return list(dict.fromkeys(found))


_COMPARING = Family((_AS_BASELINE, _CONTRAST, _UNIT_FOR, _CJK_BEFORE, _CUES))
"""The cues `find_baselines` reads: one look-up tells whether any could match."""


_LIST_JOIN = re.compile(
    r"\s?(?:[(（][^()（）]{1,16}[)）]\s?[,，]?\s?)?(?:/|、|和|或|及|\bor\b|\band\b)\s?"
    r"|\s?[(（][^()（）]{1,16}[)）]\s?[,，]\s?",
    re.I,
)
"""What stands between listed names: a joining word, perhaps after each name's own number
(`vLLM (1.8x) and TGI (2.4x)`, `OPT-175B（+5.5%）、BLOOM-176B`)."""


def _listed_after(after: str, first: str, cat: Catalog) -> list[str]:
    """`outperforms existing W4A4 or W4A8 solutions`: the names listed after the first."""
    mentions = sorted(
        (
            m
            for name in ("software", "model", "hardware", "precision")
            for m in cat.find(name, after)
        ),
        key=lambda m: m.start,
    )
    if not mentions or mentions[0].name != first:
        return []
    listed: list[str] = []
    end = mentions[0].end
    for mention in mentions[1:]:
        if mention.start < end:
            continue
        if not _LIST_JOIN.fullmatch(after[end : mention.start]):
            break
        listed.append(mention.name)
        end = mention.end
    return listed


def _target(after: str, cat: Catalog) -> str:
    """The thing named right after a comparison cue."""
    after = re.sub(r"^[\s*:：]+", "", after)
    after = re.sub(
        r"^(?:(?:the|a|an|about|around|roughly|approximately)\s+|[~约]\s*)", "", after, flags=re.I
    )
    # `compared to running on CPU`, `than with TensorRT`: how the system was used
    after = re.sub(
        r"^(?:(?:running|executing|serving|deployed)\s+)?(?:on|with|using)\s+", "", after
    )
    # skip up to two leading lower-case words (`our`, `the stock`), never into a name
    lead = re.match(r"([a-z][\w-]*\s)?([a-z][\w-]*\s)?", after[:30])
    skips = [0] + [lead.end(i) for i in (1, 2) if lead and lead.group(i)]
    for skip in skips:
        for name in ("software", "model", "hardware", "precision"):
            mentions = cat.find(name, after[skip:])
            if mentions and mentions[0].start <= 2:
                return mentions[0].name
    clause = re.split(r"[,;:，；：。()（）]|\.\s|\s\d|\b(?:than|over|vs)\b", after, maxsplit=1)[0]
    named = cat.find("software", clause)
    if named:
        # `in comparison to our carefully optimized implementation based on CUTLASS 3.6`
        return named[0].name
    apposed = re.match(r"[^,;:()]{3,48},\s*", after)
    if apposed:
        # `compared to the leading industry solution, TensorRT-LLM, for ...`
        named = cat.find("software", after[apposed.end() : apposed.end() + 40])
        if named and named[0].start == 0:
            return named[0].name
    after = after[:48]
    latin = re.match(r"[A-Za-z][\w.+\-/]*(?:\s[A-Za-z][\w.+\-]*){0,2}", after)
    if latin:
        words: list[str] = []
        for word in latin.group(0).split():
            if word.lower().rstrip(".,") in _STOP_WORDS:
                break
            words.append(word)
        name = " ".join(words).rstrip(".")
        # `4.2% of the total TTFT`: a share; `vs. what doesn't`, `over memory due to`: words,
        # not a system (a name is capitalised, or a plain reference: `vanilla decoding`)
        if (
            _QUANTITY.fullmatch(name)
            or re.match(r"\s?[=:]?\s?\d", after[latin.end() :])
            and (_QUANTITY.fullmatch(words[-1] if words else ""))
        ):
            return ""  # `Throughput vs. Batch Size`, `TP=4 vs TP=8`: a quantity or a setting
        return name if _SYSTEM_LIKE.search(name) and words[:1] != ["total"] else ""
    cjk = re.match(r"[\u4e00-\u9fff]{1,12}", after)
    if cjk:
        # the name ends at a stop word (`其他图像处理库性能高`), read a little past 8 characters
        head = _CJK_STOP.split(cjk.group(0))[0][:8]
        if _CJK_NOT_A_NAME.match(head) or head in _CJK_WHEN:
            # `对比如下`, `对比结果`, `对比了两种配置`: nothing is named after the cue
            return ""
        return head if len(head) >= 2 and _CJK_REFERENCE.search(head) else ""
    return ""


_DEFINED = re.compile(
    r"(?<![\w.])([A-Z][\w.+-]*(?:\s[A-Z][\w.+-]*){0,3})\s?[(（]([A-Z][A-Za-z-]{1,7})[)）]"
)
"""`HuggingFace Transformers (HF)`: a name, and the abbreviation the text uses after it."""


def spelled_out(texts: list[str], claims: list[Claim]) -> list[Claim]:
    """The claims with each baseline a document abbreviates (`HF`), or spells out, named
    as the document defines the abbreviation: `HuggingFace Transformers (HF)`."""
    defined: dict[str, str] = {}
    for text in texts:
        if "(" not in text and "（" not in text:
            continue
        for name, short in _DEFINED.findall(text):
            if _abbreviates(short, name):
                defined.setdefault(short, f"{name} ({short})")
                defined.setdefault(name, f"{name} ({short})")
    if not defined:
        return claims
    found: list[Claim] = []
    for claim in claims:
        baseline = claim.conditions.baseline
        if any(name in defined for name in baseline):
            spelled = list(dict.fromkeys(defined.get(name, name) for name in baseline))
            conditions = claim.conditions.model_copy(update={"baseline": spelled})
            claim = claim.model_copy(update={"conditions": conditions})
        found.append(claim)
    return found


def _abbreviates(short: str, name: str) -> bool:
    """Whether the capitals of `short` are the capitals of `name`, in order (`TGI`, `Text
    Generation Inference`; `HF`, `HuggingFace`)."""
    letters = short.replace("-", "").upper()
    capitals = iter(c for c in name if c.isupper())
    return len(letters) >= 2 and len(short) < len(name) and all(c in capitals for c in letters)
