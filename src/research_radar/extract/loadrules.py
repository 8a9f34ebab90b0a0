"""How pages write a load condition: `batch size 8`, `ISL=1024`, `8 路并发`, `TP8`, `5 runs`,
`Number of GPUs: 1`; one rule per way of writing one key.

Pure. A building block of `research_radar.extract.conditions`; callers outside this
package use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from research_radar.extract.prefilter import Needles, Probe
from research_radar.extract.regexneedles import needles_of

__all__ = ["LOAD_RULES", "LoadRule"]


@dataclass(frozen=True)
class LoadRule:
    """How one load key (`batch`, `context`, `runs`, ...) is written in a statement."""

    key: str
    regex: re.Pattern[str]
    fixed: str = ""
    """Value to store instead of the captured group (for flags such as greedy)."""
    needles: Needles = Needles()
    """What every match contains (`regexneedles.needles_of`): the rule runs only where it is."""

    def could_match(self, probe: Probe) -> bool:
        """False when the rule cannot match the probe's text."""
        return self.needles.could_match(probe)


def _rule(key: str, pattern: str, fixed: str = "") -> LoadRule:
    if pattern.startswith((r"(\d+", r"(\d[")):
        # Start only where a number starts: the match would begin there anyway (the rest of
        # the number and what follows it are the same from every digit), and trying every
        # digit of a long digit run made a search quadratic (issue #19).
        pattern = rf"(?<!\d)(?:{pattern})"
    regex = re.compile(pattern, re.I)
    return LoadRule(key, regex, fixed, needles_of(pattern, regex.flags))


_K = r"(\d[\d,]*(?:\.\d+)?\s?[Kk]?)(?![\dA-Za-z]|\.\d)"
_USED = "".join(
    f"(?<!{verb}{space})"
    for verb in ("需要", "需", "大概", "大约", "消耗", "占用", "仅需", "uses", "using", "takes")
    for space in ("", " ")
)
"""What stands right before the memory a run used (`需要大概 13GB 内存`), not a machine's."""


_SET_TO = (
    r"\s(?:(?:is|was|are|were|be)\s)?(?:(?:set|fixed|kept|configured|held|limited|capped)\s)?"
    r"(?:(?:here|throughout|uniformly|always)\s)?(?:to|at|as)\s+(?:a\s)?(?:value\sof\s)?"
)
"""`batch size is set to 8`, `input length fixed at 2048`, `set the batch size here to 1`:
the verbs that give a key its value in prose."""
_ZH_SET = r"\s?(?:均|统一|都)?(?:设置?为|设定为|固定为|取为?|选为|调整为)\s?"
"""`并发数设置为 16`, `输入长度固定为 1024`."""


_NOT_A_RATE = r"(?!\s?(?:/|per\b|每|a second))"
"""`generates 100 tokens/s` is a throughput, not an output length."""
_NOT_A_PHASE_MEASURE = r"(?!\s?(?:throughput|speed|rate|latency|time|tok|/|per\b))"
"""`1024 tokens prefill throughput` names a measure of the phase, not its length."""


_KEYED_COUNT = (
    r"(?<![A-Za-z])(?:{key})\W{{0,3}}[:：](?=[^:：;；\d]*?[A-Za-z\u4e00-\u9fff])[^:：;；\d]{{1,60}}?"
    r"(?<![\d.,])(\d[\d,]*[Kk]?)\s?tokens?\b" + _NOT_A_RATE + r"(?![^;；]*?\d\s?tokens?\b)"
)
"""`Input: random prompts (512 tokens)`: a settings key whose value describes the requests
in words before the one count of tokens it gives (a second count names no single length;
`Input: 512 tokens` is the plain rule's)."""


_PER_CARD = r"(?:吞吐|功耗|显存|内存|温度|TDP|平均|最大|最小|每|算力|带宽|利用率|成本|峰值|性能)"
"""What `单卡` measures per GPU (`单卡吞吐`, `单卡平均功耗`): not a count of GPUs."""


_V = r"(?:\s+|\s?=\s?)(\d+[Kk]?)(?![\w.]|,\s?\d|\s+\d)"
"""A flag's one value (`--input-len 1024`, `--output_len=128`, `with --output-len 256, ...`);
a list (`-p 512,1024`, `--batch-size 1 2 4`) gives alternatives, none of them the load."""
_R = r"(?:\s+|\s?=\s?)(\d+(?:\.\d+)?)(?![\w.,]|\s+\d)"

# The flags and config keys of the field's benchmark tools, first: a command line's flag
# is its author's load as written (`--input-len 1024 --output-len 128` is not an output of
# 1024). vLLM `vllm bench serve`/`benchmark_serving.py`/`benchmark_throughput.py`, SGLang
# `bench_serving`/`bench_one_batch`, TensorRT-LLM `trtllm-bench` and its `prepare_dataset`
# (`token-norm-dist --input-mean`), llama.cpp `llama-bench` (`--n-prompt`, `--n-gen`).
# Caps (`--max-num-seqs`, `--max-model-len`, `--max_batch_size`) are settings, not loads.
_FLAG_RULES = (
    ("prompt", r"--(?:(?:random|sonnet)[-_])?(?:input|prompt)[-_](?:len(?:gth)?|tokens)" + _V),
    ("prompt", r"--random[-_]input" + _V),
    ("prompt", r"--(?:n[-_]prompt|input[-_]mean|isl)" + _V),
    # llmperf `--mean-input-tokens`, genai-perf `--synthetic-input-tokens-mean`
    ("prompt", r"--(?:mean[-_]input[-_]tokens|synthetic[-_]input[-_]tokens[-_]mean)" + _V),
    ("output", r"--(?:(?:random|sharegpt|sonnet)[-_])?output[-_](?:len(?:gth)?|tokens)" + _V),
    ("output", r"--random[-_]output" + _V),
    ("output", r"--(?:n[-_]gen|output[-_]mean|osl|max[-_]new[-_]tokens|max[-_]tokens)" + _V),
    # `--gen-len 256`; llama.cpp `--n-predict 128`
    ("output", r"--(?:gen[-_]len(?:gth)?|n[-_]predict)" + _V),
    ("output", r"--(?:mean[-_]output[-_]tokens|output[-_]tokens[-_]mean)" + _V),
    ("batch", r"--batch[-_]size" + _V),
    ("concurrency", r"--(?:max[-_])?concurrency" + _V),
    # llmperf `--num-concurrent-requests`, locust `--users`
    ("concurrency", r"--(?:num[-_]concurrent[-_]requests|num[-_]users|users)" + _V),
    ("rate", r"--request[-_]rate" + _R),
    ("tp", r"--(?:tp[-_]size|tensor[-_]parallel[-_]size)" + _V),
    ("ep", r"--(?:ep[-_]size|expert[-_]parallel[-_]size)" + _V),
    # torchrun's processes per node, one a GPU; `--num-gpus 8` (DeepSpeed, SGLang scripts)
    ("gpus", r"--(?:nproc[-_]per[-_]node|num[-_]gpus|n[-_]gpus)" + _V),
)


_SET_RULES = (
    ("batch", r"(?<![Mm]ax[\s_-])batch[\s_-]?size" + _SET_TO + r"(\d+)(?!\d|\.\d|%)"),
    ("batch", r"批(?:处理|次|量)?大小" + _ZH_SET + r"(\d+)(?!\d|\.\d|%)"),
    ("concurrency", r"concurrency(?:\slevel)?" + _SET_TO + r"(\d+)(?!\d|\.\d|%)"),
    ("concurrency", r"并发(?:数|度|请求数|用户数)?" + _ZH_SET + r"(\d+)(?!\d|\.\d|%)"),
    (
        "prompt",
        r"(?<![A-Za-z])(?:input|prompt|prefill)(?:\s(?:sequence|context))?\s(?:length|len)"
        + _SET_TO
        + _K,
    ),
    ("prompt", r"(?:输入|提示词?)(?:序列)?(?:长度|token\s?数)" + _ZH_SET + _K),
    (
        "output",
        r"(?<![A-Za-z])(?:output|generation|decode|decoding|completion)(?:\s(?:sequence))?\s"
        r"(?:length|len|tokens)" + _SET_TO + _K,
    ),
    ("output", r"(?:输出|生成)(?:序列)?(?:长度|token\s?数)" + _ZH_SET + _K),
    ("context", r"context(?:\s(?:length|window|size))?" + _SET_TO + _K),
    ("context", r"上下文(?:长度)?" + _ZH_SET + _K),
    ("rate", r"(?:request|arrival)\srate" + _SET_TO + r"(\d+(?:\.\d+)?)(?!\d|\.\d|%)"),
)
"""A key and the verb that sets it (`_SET_TO`, `_ZH_SET`), for each key of a run's shape."""


LOAD_RULES = (
    # a command's flag first, then a key given its value by a verb (`batch size is set to
    # 8`), then the loose forms: the most deliberate spelling wins where a statement gives
    # one key twice (tried after the loose forms, the verbs changed no tune number)
    *(_rule(key, pattern) for key, pattern in _FLAG_RULES),
    *(_rule(key, pattern) for key, pattern in _SET_RULES),
    _rule(
        "batch",
        # `--max-batch-size 32` caps the batch: a setting, not the batch measured
        r"(?<![Mm]ax[\s_-])(?<![Mm]ax)(?:batch[\s_-]?size|batch|(?<![A-Za-z])bs|(?<![A-Za-z])(?:micro_)?bsz)"
        r"\s*[=:：]?\s*(\d+)(?!\d|\.\d|\s?/\s?\d)",  # `bs=1/8/32` sweeps the batch
    ),
    # `批大小为 8`, and `batch 大小为 1` (the English key in Chinese prose)
    _rule(
        "batch",
        r"(?:批(?:处理|次)?(?:大小|量)|(?<![A-Za-z])batch[\s_]?大小)"
        r"\s*(?:为|是|设为|取)?\s*[=:：]?\s*(\d+)(?!\d|\.\d|\s?[倍%])",
    ),
    _rule("batch", r"(\d+)\s?的\s?批(?:量|次)?大小"),
    # `4batch size`, `a 16 batch size`: the value written before the key
    _rule("batch", r"(?<![\d.])(\d+)\s?batch[\s_-]?size\b"),
    _rule("batch", r"batch[\s_-]?size\s*(?:为|是|取|设为|设置为)\s*(\d+)(?!\d|\.\d)"),
    _rule("batch", r"(?<![A-Za-z])batch\s(?:of|with)\s(\d+)(?!\d|\.\d)(?!\s?(?:tokens|%))"),
    _rule("batch", r"batch[\s_-]?size\s+(?:of\s+(?:\w+\s+)?(?:is\s+)?|is\s+)(\d+)(?!\d|\.\d)"),
    # `4096 tokens per batch`, `每批 8K 个 token`: a batch counted in tokens, as a `Batch
    # Token Size` column counts it
    # (not a cap: `up to 2048 tokens per batch`, `max 8K tokens per batch`)
    _rule(
        "batch",
        r"(?<!max\s)(?<!maximum\s)(?<!up\sto\s)(?<!at\smost\s)(?<!caps\s)(?<!limit\sof\s)"
        r"(?<![\d.,])(\d[\d,]*[Kk]?)\s?tokens?\s(?:per|in\seach|each)\sbatch\b(?!\s?(?:per|/)\s?s)",
    ),
    _rule(
        "batch", r"每(?:个)?\s?(?:批|batch)\s?(?:次)?\s?(\d[\d,]*[Kk]?)\s?个?\s?(?:tokens?|词元)"
    ),
    _rule(
        "gpus",
        r"(?:(?:使用|用)?(?:卡数|GPU\s?数量?|显卡数量?)|(?:number|num|#)\s?(?:of\s)?GPUs?|"
        r"GPU[\s_-]?(?:count|num))"
        # `Number of GPUs 4`: a group header over its column's value (`extract.tables`)
        r"\s*[=:：]?\s*(\d{1,4})(?!\d|\.\d)",
    ),
    # `8 GPUs`, `8x GPU`, `8-GPU`, `8 个 GPU`
    _rule("gpus", r"(?<![\w.,])(\d{1,4})\s?(?:[x×]\s?|-|[个张块]\s?)?GPUs?\b"),
    # `GPUs: 4`, `- GPU: 2`: a set-up key and its count; not `GPU: 4090` (a part's number)
    # nor `GPU: 2x A100`, `GPU: 80GB` (a count of parts, a memory size)
    _rule(
        "gpus",
        r"(?<![A-Za-z])GPUs?\s?[:：=]\s?(\d{1,3})(?![\d.,]|\s?(?:[x×*]|GB|G\b|%|ms|s\b))",
    ),
    # `on 8 NPUs`, `a 4-card server`: accelerators by another name (not `3 cards`: a
    # card alone may be anything; `3 NPU cores` are the cores of one NPU)
    _rule(
        "gpus",
        r"(?<![\w.,])(\d{1,4})\s?(?:[x×]\s?|-)?(?:NPUs?|accelerators?)\b(?!\s?(?:cores?\b|核))"
        r"|(?<![\w.,])(\d{1,4})-card\b",
    ),
    # `world size 8`, `WORLD_SIZE=8`: one process a GPU; `GPU x 8`
    # (not `world_size = 1024 * 8`: a product the text works out)
    _rule(
        "gpus",
        r"(?<![A-Za-z])world[\s_-]?size\s?(?:[=:：]|of)?\s?(\d{1,4})(?![\d.]|\s?[*×/+])",
    ),
    _rule("gpus", r"(?<![A-Za-z])GPUs?\s?[x×*]\s?(\d{1,3})(?![\d.])"),
    _rule("gpus", r"双卡|两张卡|两块卡|\btwo GPUs\b|\bdual[\s-](?:GPUs?|cards?)\b", "2"),
    _rule("gpus", r"\bfour GPUs\b|四卡|四张卡|\bquad[\s-](?:GPUs?|cards?)\b", "4"),
    _rule("gpus", r"\beight GPUs\b|八卡|八张卡", "8"),
    _rule("gpus", r"(?<![\w.,])(\d{1,4})\s?(?:张|块|个)?\s?(?:GPU\s?|显)?卡(?!顿|片)"),
    # `Single GPU, 4-bit`, `单卡推理`, `a single 80GB GPU`, `单张 80G GPU`: one GPU, when no
    # count is written before; not `on one GPU` (how much fits per GPU, in a how-to) nor
    # `单卡吞吐` (a measure per GPU)
    _rule(
        "gpus",
        r"\bsingle[\s-](?:\d{2,3}\s?GB?\s)?(?:GPU|card|accelerator)\b|"
        r"(?:单(?:张|块|个)?|一(?:张|块))\s?(?:\d{2,3}\s?GB?\s?)?(?:GPU|NPU|显?卡)(?!顿|片|\s?(?:的\s?)?"
        + _PER_CARD
        + ")",
        "1",
    ),
    _rule(
        "concurrency",
        r"(?:max_concurrency|concurrency(?:\slevel)?|(?<![A-Za-z])conc|并发(?:数|度|请求数|用户数)?)"
        r"\s*(?:of\s|为|是)?"
        # `Concurrency: 13.74` (a tool's printed average) is measured: a count is whole
        r"[=:：]?\s*(\d+)(?!\d|\.\d)",
    ),
    _rule("concurrency", r"(?<![\d.])(\d+)\s+concurrency\b"),
    _rule("concurrency", r"(?<![A-Za-z])C\s?=\s?(\d+)(?!\d|\.\d)"),
    # `8 路并发`, `64 concurrent`; not the 8 of `Qwen3-32B-FP8 并发测试` (a name's end)
    _rule(
        "concurrency", r"(?<![A-Za-z\d.])(\d+)\s*(?:个|路)?\s*(?:并发|concurrent(?:\s+requests?)?)"
    ),
    _rule("concurrency", r"(?<![\d.])(\d+)\s+(?:simultaneous\s+|parallel\s+)?users\b"),
    _rule(
        "concurrency",
        r"(?<![\d.])(\d+)\s+(?:parallel|simultaneous|concurrent)\s+(?:requests|clients|streams)\b",
    ),
    # `Concurrent requests: 64`, not `slower at 64 concurrent requests: 12.1 tok/s`
    _rule(
        "concurrency",
        r"(?<![\d\s]\s)(?<!\d)(?<!peak\s)concurrent\s(?:requests|users|clients)\s?[=:：]\s?(\d+)(?!\d|\.\d)",
    ),
    # `Concurrent Requests (5 parallel)`, `并发请求（8 路）`: the count in brackets after the word
    _rule(
        "concurrency",
        r"(?:concurrent|parallel|simultaneous)\s(?:requests|users|clients)\s?[(（]\s?(\d{1,4})"
        r"(?:\s?(?:parallel|concurrent|users|clients|路))?\s?[)）]|"
        r"并发(?:请求|用户)(?:数)?\s?[(（]\s?(\d{1,4})\s?(?:路|个|并发)?\s?[)）]",
    ),
    # one request at a time, said in words: `Single user`, `single request`, `sequential requests`, `Request
    # pattern: Sequential, single-threaded`, `单并发`, `串行请求` (after any count written)
    _rule(
        "concurrency",
        r"\bsingle[\s-](?:users?|clients?|concurrency|requests?)\b|"
        r"\bsequential(?:ly)?(?:\s(?:requests?|requesting)\b|,?\ssingle[\s-]threaded)|"
        r"\brequest\spattern\W{0,4}sequential|\bone\srequest\sat\sa\stime\b|"
        r"单并发|单用户|串行请求|逐条请求",
        "1",
    ),
    _rule(
        "rate",
        r"(?:(?<![A-Za-z])(?:at|@|under|with)\s+|[(,]\s?)(\d+(?:\.\d+)?)\s?"
        r"(?:QPS|RPS|req(?:uest)?s?/s|requests? per second)(?![A-Za-z])|"
        r"arrival[_ ]rate\s?(?:[:：=]|of)?\s?(\d+(?:\.\d+)?)(?!\d|\.\d)|"
        r"(?:QPS|RPS|request[_ ]rate|(?<![A-Za-z_])rate)\s?(?:=|为)\s?(\d+(?:\.\d+)?)(?!\d|\.\d)|"
        r"请求(?:速率|频率)\s*(?:为|是)?\s*[=:：]?\s*(\d+(?:\.\d+)?)|"
        r"(?<![A-Za-z])(?:at|@|under|with)\s(?:an?\s)?(?:QPS|RPS)\s?(?:of\s)?[:：]?\s?(\d+(?:\.\d+)?)(?!\d|\.\d|\s?[xX×%])|"
        r"request[_ ]rate(?: configured \(RPS\))?\s?(?:[:：]|of)?\s*(\d+(?:\.\d+)?)(?!\d|\.\d)",
    ),
    # `uniform 4 RPS`, `Poisson 6 QPS`, `10 req/sec requested rate`: the rate sent
    _rule(
        "rate",
        r"(?:poisson|uniform|constant|fixed|steady)\s(?:arrivals?\s)?(?:at\s)?(\d+(?:\.\d+)?)\s?"
        r"(?:QPS|RPS|req(?:uest)?s?/s(?:ec)?)(?![A-Za-z])|"
        r"(\d+(?:\.\d+)?)\s?req(?:uest)?s?/s(?:ec)?\s(?:requested|request|arrival|sending)\srate",
    ),
    _rule(
        "context",
        # not `RWKV-...-20230810-ctx128k`: a model file's trained context, no load
        r"(?:context(?:\s+length)?|(?<![A-Za-z0-9]-)ctx(?:[_-]size)?|上下文(?:长度)?)"
        r"\s*(?:of\s)?[=:：@]?\s*" + _K,
    ),
    _rule("context", r"(?:@|(?<![A-Za-z])at)\s?(\d+(?:\.\d+)?[Kk])(?![A-Za-z0-9])"),
    _rule("context", r"(\d[\d,]*(?:\.\d+)?\s?[Kk]?)[\s-]*tokens?[\s-]+(?:of\s+)?context"),
    # `at 512 context`, `a 4096 context window`: a plain count of tokens named as context
    _rule("context", r"(?<![\w.,-])(\d{3,7})\s(?=context\b(?!\s(?:switch|parallel)))"),
    # `1M context`, `a 1.5M-token context`; not `LLaMA-3-8B-1M` (a model's name)
    _rule(
        "context",
        r"(?<![\w.-])(\d{1,2}(?:\.\d+)?[Mm])(?=[\s-]*(?:tokens?[\s-]+)?(?:of\s)?(?:context|ctx|上下文))",
    ),
    # an attention kernel's KV length (`qlen=1 kvlen=512`, `kv_len=4096`, `seqlen_k=2048`)
    _rule(
        "context",
        r"(?<![A-Za-z])(?:kv[_ ]?(?:seq)?[_ ]?len|seqlen[_ ]?kv?|cache[_ ]len)\s?[=:]\s?(\d+[Kk]?)"
        r"(?![\d.])",
    ),
    _rule(
        "context",
        # not a part's name (`RTX 4090 / 12900K`, `i7-4790K`): no context is 10,000K long
        r"(?<![A-Za-z0-9_.-])(\d{1,4}(?:\.\d+)?[Kk])(?=\s*(?:decode|prefill|context|ctx|上下文|$|[/，,、)）]))",
    ),
    _rule(
        "prompt",
        r"(?:ISL|input(?:[\s_](?:sequence|seq|context))?[\s_]?len(?:gths?)?|prompt[\s_]len(?:gths?)?|"
        r"(?:prompt|input)(?:'s)?[\s_]tokens?[\s_]len(?:gths?)?|"
        r"prefill[\s_]len(?:gth)?|(?:prompt|input)[\s_]tokens(?=\s?[=:：])|prompt tokens|"
        r"(?:prompt|input)\stokens?(?=\s(?:is|are)\s)|"
        r"seq[\s_]?len(?:gth)?|(?<!output\s)(?<!output_)(?<!input\s)sequence[\s_]len(?:gth)?|"
        r"(?<!输出)(?<!生成)(?<!输入)序列长度\s?(?:为|是)?|"
        r"(?<![A-Za-z_])in(?=\s?=))\s*(?:of\s|is\s|are\s|at\s|是|为)?[=:：]?\s*(?:\((?:just|only|about)?\s?)?"
        + _K,
    ),
    # llama-bench's `pp512` (prompt processing); `PP=2`, `-pp 2`, `--pp-size` are pipeline
    # parallelism
    _rule("prompt", r"(?<![A-Za-z-])pp\s?(\d{2,6})(?![\d.,]|\s?[x×])"),
    _rule(
        "prompt",
        r"(?<![\d.])(\d(?:[\d,]*\d)?[Kk]?)(?!\s*--)[\s-]*"
        r"(?:token[\s-]+(?:prompt|input)s?\b|(?:prompt|input)(?!s\b))"
        r"(?!s? tokens/s|[\s_]throughput|\s?tok(?:en)?s?\s?/\s?s)"
        # `26 prompt audio/text pairs`, `100 input images`: a count of inputs, no length
        r"(?!\s(?:audios?|images?|pictures?|videos?|clips?|files?|samples?|pairs?|texts?|"
        r"sentences?|questions?|examples?|documents?|utterances?)\b)",
    ),
    _rule(
        "prompt",
        r"(?:requests?|prompts?|sequences?|each)\s+of\s+(\d[\d,]*[Kk]?)\s+tokens" + _NOT_A_RATE,
    ),
    # `1024个输入Token`, `512 个输出 token`: a count of tokens, then whose they are
    _rule(
        "prompt",
        r"(\d[\d,]*[Kk]?)\s?个\s?(?:输入|提示词?|prompt\s?)\s?(?:tokens?|词元)" + _NOT_A_RATE,
    ),
    _rule(
        "output",
        r"(\d[\d,]*[Kk]?)\s?个\s?(?:输出|生成|新)\s?(?:tokens?|词元)" + _NOT_A_RATE,
    ),
    _rule(
        "prompt", r"(?<![A-Za-z])(?:prompt|input|prefill)\s(\d[\d,]*[Kk]?)\s?tokens" + _NOT_A_RATE
    ),
    _rule("prompt", r"(?<![\w-])-p (\d{1,6})(?!\d|\.\d)"),
    # `inputs padded to 1024 tokens`, `输入 padding 到 1024 长度`: every prompt that long
    _rule(
        "prompt",
        r"(?<![A-Za-z])(?:输入|inputs?|prompts?)\s?(?:(?:are|were|is)\s)?(?:padding|padded|pad)\s?"
        r"(?:到|至|to)\s?(\d[\d,]*[Kk]?)(?![\d.])",
    ),
    _rule("prompt", r"(?:prompt|input|prefill)\s?\((\d[\d,]*[Kk]?)\s?(?:tokens?|toks?)\)"),
    _rule("prompt", r"(?<![A-Za-z])(?:prompt|input)\s(\d[\d,]*[Kk]?)(?=\s?/\s?\d)"),
    # `Input 2048 / Output 128`: each length after its word, the pair split by a slash
    _rule(
        "prompt",
        r"(?<![A-Za-z])(?:prompt|input)\s(\d[\d,]*[Kk]?)(?=\s?/\s?(?:output|gen\w*|decode)\s\d)",
    ),
    _rule(
        "output",
        r"(?<![A-Za-z])(?:prompt|input)\s\d[\d,]*[Kk]?\s?/\s?(?:output|gen\w*|decode)\s"
        r"(\d[\d,]*[Kk]?)(?![\d.,]|\s?(?:tok\w*\s?)?/\s?s)",
    ),
    # `长文本（32K 输入）`, `（1024 输入，512 输出）`: a length then its word, closing a clause
    _rule("prompt", r"(?<![\w.])(\d+[Kk]|\d{3,6})\s?(?:tokens?\s?)?输入(?=\s?[)）,，、/;；])"),
    _rule("output", r"(?<![\w.])(\d+[Kk]|\d{3,6})\s?(?:tokens?\s?)?输出(?=\s?[)）,，、/;；])"),
    # `1024 输入长度`, `1024 的输入长度`; not the `1,` of `batch size = 1, 生成长度 = 2048`
    _rule("prompt", r"(\d(?:[\d,]*\d)?[Kk]?)\s?的?\s?(?:提示词?|输入)(?:序列)?长度"),
    _rule("prompt", r"(?:prompt|input)\s?[:：]\s?(\d[\d,]*[Kk]?)\s?tokens" + _NOT_A_RATE),
    # `- Input: synthetic chat turns (system + user, 512 tokens)`: a settings key, words on
    # what the requests hold, then the one count of tokens, their length
    _rule("prompt", _KEYED_COUNT.format(key="prompts?|inputs?")),
    _rule("output", _KEYED_COUNT.format(key="outputs?|completions?|responses?")),
    _rule(
        "prompt",
        r"(?:输入|提示词?|prompt\s?)\s?(\d[\d,]*[Kk]?)\s?个?\s?(?:tokens?|词元)" + _NOT_A_RATE,
    ),
    _rule(
        "prompt",
        r"(?:输入|提示词?|prompt\s?)\s?(?:序列)?(?:长度|token\s?数?|词元数?)\s*(?:为|是)?\s*[=:：]?\s*"
        + _K,
    ),
    _rule(
        "output",
        r"(?:generat|decod)(?:e|es|ed|ing)\s+(?:up to\s+)?(\d[\d,]*[Kk]?)\s+(?:new\s+|output\s+)?tokens"
        + _NOT_A_RATE,
    ),
    _rule(
        "output",
        r"(?:OSL|output(?:[\s_](?:sequence|seq|generation|tokens?))?[\s_]?len(?:gths?)?|"
        r"(?<!每秒)(?<!每)(?:输出|生成)\s?(?:tokens?|词元)\s?数(?:量)?|"
        r"(?:generation|decode|gen|response|completion)[\s_]len(?:gth)?|max[\s_]tokens|max[\s_]new[\s_]tokens|"
        r"(?<![A-Za-z])tg|(?<![A-Za-z])n(?:um)?[\s_]predict|"
        r"(?:output|completion)[\s_]tokens(?=\s?[=:：])|output\stokens?(?=\s(?:is|are)\s)|"
        r"(?<![A-Za-z])out(?=\s?=)|"
        r"输出(?:上限|长度)?|(?:输出|生成|解码)(?:序列)?长度\s*(?:为|是)?)\s*(?:of\s|is\s|are\s|at\s|是|为)?[=:：]?\s*"
        + _K,
    ),
    # `-n 128` is llama.cpp's generation length; `head -n 4`, `mpirun -n 8` are not
    _rule(
        "output", r"(?<![\w-])(?<!head )(?<!tail )(?<!mpirun )(?<!mpiexec )-n (\d{1,6})(?!\d|\.\d)"
    ),
    _rule(
        "output",
        r"(?<![\d.])(\d[\d,]*[Kk]?)\s(?:new|generated|decode|completion)\s(?:output\s)?tokens"
        + _NOT_A_RATE,
    ),
    _rule("output", r"(\d(?:[\d,]*\d)?[Kk]?)\s?的?\s?(?:生成|输出)(?:序列)?长度"),
    # `a prompt length of 1900 and 60 generation steps`: one token a step
    _rule("output", r"(?<![\d.])(\d[\d,]*[Kk]?)\s(?:generation|decoding|decode)\ssteps\b"),
    _rule(
        "output",
        r"(?:completion|output|generation)\s?[:：]\s?(\d[\d,]*[Kk]?)\s?tokens" + _NOT_A_RATE,
    ),
    # `生成 256 个 token`, `推理10个token` (the tokens a run generates)
    _rule("output", r"(?:生成|推理|解码)\s?(\d[\d,]*[Kk]?)\s?个?\s?(?:tokens?|词元)" + _NOT_A_RATE),
    # `生成 8192 长度的最小显存`, `编码 2048 长度`: the length of each phase
    _rule("output", r"(?:生成|输出|解码)\s?(\d[\d,]*[Kk]?)\s?(?:个\s?)?(?:tokens?\s?)?长度"),
    _rule("prompt", r"(?:编码|输入|预填充)\s?(\d[\d,]*[Kk]?)\s?(?:个\s?)?(?:tokens?\s?)?长度"),
    _rule(
        "output",
        r"(?<![A-Za-z])(?:outputs?|responses?|completions?)\s+of\s+(\d[\d,]*[Kk]?)\s+tokens"
        + _NOT_A_RATE,
    ),
    _rule(
        "output",
        r"max(?:imum)?[\s_]output[\s_](?:tokens|len(?:gth)?)\s*(?:of\s)?[=:：]?\s*(\d[\d,]*[Kk]?)(?!\d|\.\d)",
    ),
    _rule(
        "output", r"(?:decode|decoding|generation|output)\s?\((\d[\d,]*[Kk]?)\s?(?:tokens?|toks?)\)"
    ),
    _rule(
        "output",
        r"(?<![A-Za-z])(?:decode|output|generation)\s(\d[\d,]*[Kk]?)\s?tokens" + _NOT_A_RATE,
    ),
    # `256 tokens generated`, `Tokens generated: ~325`: how many the run generated (not
    # `Total generated tokens: 25600`, every request's together)
    _rule(
        "output",
        r"(?<![\d.])(\d[\d,]*[Kk]?)\s?tokens?\s(?:generated|decoded)\b" + _NOT_A_RATE + "|"
        r"(?<!total\s)(?:tokens?\sgenerated|generated\stokens?)\**\s?[:：=]\**\s?[~≈]?\s?(\d[\d,]*[Kk]?)"
        r"(?![\d.])",
    ),
    # `measured with 1024 tokens prefill and 256 tokens decode`: the phase after the count
    _rule(
        "output",
        r"(?<![\d.])(\d[\d,]*[Kk]?)\s?tokens?\s(?:of\s)?(?:decode|decoding|generation)\b"
        + _NOT_A_PHASE_MEASURE,
    ),
    _rule(
        "prompt",
        r"(?<![\d.])(\d[\d,]*[Kk]?)\s?tokens?\s(?:of\s)?(?:prefill|prefilling)\b"
        + _NOT_A_PHASE_MEASURE,
    ),
    _rule(
        "output",
        r"(?<![\d.x×])(\d(?:[\d,]*\d)?[Kk]?)(?!\s*--)[\s-]*(?:token[\s-]+)?output"
        r"(?![\s_]throughput|\s?tok(?:en)?s?\s?/\s?s|\s(?:image|video|frame|resolution))",
    ),
    # one rule per spelling, each with a word every match holds: a rule runs only where
    # its word is (`-t ` with its space: `-t` alone stands in `multi-turn`)
    _rule("threads", r"(?<![\d.])(\d{1,3})\s?(?:CPU\s)?threads\b"),
    _rule("threads", r"(?<![\d.])(\d{1,3})\s?个?线程"),
    _rule("threads", r"(?:threads|线程数?)\s?(?:[=:：]|of)\s?(\d{1,3})(?!\d)"),
    _rule("threads", r"(?<![\w-])(?:-t |--threads[ =])(\d{1,3})(?!\d|\.\d)"),
    _rule("cores", r"(?<![\d.])(\d{1,3})[\s-]?(?:(?:CPU|physical|performance)\s|P-)?cores\b"),
    _rule("cores", r"(?<![\d.])(\d{1,3})-core\b"),
    _rule("cores", r"(?<![\d.])(\d{1,3})\s?核"),
    _rule("seed", r"(?<![A-Za-z])seed\s*[=:：]?\s*(\d+)"),
    _rule("seeds", r"(\d+)\s*(?:fixed\s+)?seeds"),
    _rule("sampling", r"\bgreedy\b|贪心", "greedy"),
    _rule("temperature", r"temperature\s*[=:：]?\s*(\d+(?:\.\d+)?)"),
    # `5 runs`, never the version of a name (`FlashAttention-2 runs 2x faster`)
    _rule("runs", r"(?<![\w.-])(\d+)\s*(?:runs|repeats|repetitions|trials|次(?:重复|运行|复测))"),
    _rule("runs", r"重复\s*(\d+)\s*次|每(?:项|组|个配置|配置)?\s*(\d+)\s*次"),
    _rule("runs", r"(\d+)\s*iterations"),
    _rule("runs", r"单次运行|single run", "1"),
    _rule("tp", r"(?<![A-Za-z])TP\s?[=:：-]?\s?(\d+)(?!\d|\.\d)"),
    _rule("tp", r"(?<![\d.])(\d+)-way (?:TP|tensor)"),
    _rule("tp", r"tensor_parallel_size\s*=\s*(\d+)"),
    # `tp_size: 4` (a config file), `TP size 4`, `TP degree of 8`
    _rule("tp", r"(?<![A-Za-z])tp[\s_-]?(?:size|degree)\s?(?:[=:：]|of)?\s?(\d+)(?!\d|\.\d)"),
    _rule("tp", r"张量并行(?:度|数|大小)?\s*(?:为|是)?\s*[=:：]?\s*(\d+)(?!\d|\.\d)"),
    _rule(
        "tp",
        r"tensor[\s-]parallel(?:ism|[\s_-]?size)?(?:\sdegree)?(?:\s(?:of\s|=\s?|:\s?)?|\s?[=:：]\s?)"
        r"(\d+)(?!\d|\.\d)",
    ),
    _rule("ep", r"(?<![A-Za-z])EP\s?[=-]?\s?(\d+)(?!\d|\.\d)"),
    _rule("ep", r"(?<![\d.])(\d+)(?:-way)?\s?EP\b"),
    _rule("ep", r"(?<![A-Za-z])ep[\s_-]?(?:size|degree)\s?(?:[=:：]|of)?\s?(\d+)(?!\d|\.\d)"),
    _rule("ep", r"expert[\s-]parallel(?:ism|\s?size)?\s(?:of\s|=\s?|:\s?)?(\d+)(?!\d|\.\d)"),
    _rule("warmup", r"warm-?up\s*(\d+(?:\.\d+)?\s?s)(?![A-Za-z])"),
    _rule("measure", r"measure\s*(\d+(?:\.\d+)?\s?s)(?![A-Za-z])"),
    _rule("chunk", r"(\d+\s?ms)\s+chunks?"),
    _rule("samples", r"(\d+)\s*samples"),
    # `需要大概 13GB 内存`, `消耗 6GB 内存`: what a run uses, a measurement; not the machine's
    _rule("ram", rf"(?<!\d){_USED}(\d+\s?GB)\s?(?:RAM|DDR\d|内存)"),
    _rule("ram", r"(?:RAM|内存)\s*[=:：]?\s*(\d+\s?GB)"),
    _rule("steps", r"(\d+)\s*(?:sampling\s+|denoising\s+|inference\s+|flow\s?)?steps|(\d+)\s*步"),
    # (not `2048×2048 tokens`: a prompt length by an output length, `extract.loads`)
    _rule("resolution", r"(\d{3,4}\s?[x×]\s?\d{3,4})(?![\d]|\s?tokens?\b)"),
    _rule("ci", r"(\d+\s?%)\s?CI\b"),
    _rule("ci", r"confidence interval|置信区间", "yes"),
    _rule("spread", r"±\s?(\d[\d,]*(?:\.\d+)?\s?%?)"),
)
"""Tried in order; the first rule that matches a key sets it."""
