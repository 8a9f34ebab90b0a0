"""Fenced blocks that run a benchmark tool -> the command lines that set up the numbers
below them (issue #14).

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead.

Authors write the load of a result table as the command that made it, in a code block
above the table (`vllm bench serve --random-input-len 1024 --random-output-len 128
--max-concurrency 64`). The Markdown reader skips code, so such a block is found here, on
the raw lines: a fenced block, not tagged with a programming language other than a shell's,
whose lines call one of the field's benchmark tools. Its command lines (joined over `\\`
continuations) are one set-up text; a flag it gives several values of is a list of
alternatives, which `extract.scopes` drops like any set-up's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from research_radar.extract.launchsetup import visible_devices
from research_radar.extract.toolblocks import fenced_blocks

__all__ = ["CodeBlocks", "read_code_blocks"]


Block = tuple[int, str]
"""A block's first line (1-based) and the lines of it one reading keeps, joined."""


@dataclass
class CodeBlocks:
    """What a document's fenced blocks set up, each block read once (issue #14)."""

    commands: list[Block] = field(default_factory=list)
    """Benchmark commands (`vllm bench serve --random-input-len 1024 ...`)."""
    configs: list[Block] = field(default_factory=list)
    """Config lines of a request's shape (`batch_size: 16`)."""
    launches: list[Block] = field(default_factory=list)
    """Commands that serve or run a model (`vllm serve Qwen/Qwen2-7B --tp 4`): `extract.scopes`
    takes the model they name and how many GPUs serve it."""
    devices: dict[int, int] = field(default_factory=dict)
    """A launch block's line -> how many devices its environment makes visible to it
    (`export CUDA_VISIBLE_DEVICES=0,1,2,3` above `vllm serve`: 4)."""
    formats: list[Block] = field(default_factory=list)
    """The number formats a shell block's flags give (`--dtype bfloat16`): `extract.scopes`
    keeps one format only, a block giving several runs each in its own."""


def read_code_blocks(text: str) -> CodeBlocks:
    """The set-up blocks of a Markdown text, each fenced block split into its command
    lines once whatever reads it."""
    read = CodeBlocks()
    shell = "--" in text or any(t in text for t in _BENCHMARK_WORDS)
    launch = "serve" in text or "model" in text or "ollama" in text
    config = _CONFIG_WORDS.search(text) is not None
    if not (shell or launch or config):
        return read
    lines = text.splitlines()
    for index, end, tag in fenced_blocks(lines):
        body = lines[index + 1 : end]
        line = index + 1
        if config and tag in _CONFIG_TAGS and (picked := _config_lines(body)):
            read.configs.append((line, " ; ".join(picked)))
        if not (tag in _SHELLS or tag in _PYTHONS and _runs_scripts(body)) or not (shell or launch):
            continue
        commands = _commands(body)
        _keep(read.commands, line, [c for c in commands if shell and _is_benchmark(c)])
        served = _keep(read.launches, line, [c for c in commands if launch and _launches(c)])
        if served and (devices := visible_devices(commands)):
            read.devices[line] = devices
        _keep(read.formats, line, [m[1] for c in commands for m in _PRECISION_FLAG.finditer(c)])
    return read


def _keep(blocks: list[Block], line: int, picked: list[str]) -> bool:
    if picked:
        blocks.append((line, " ; ".join(picked)))
    return bool(picked)


_BENCHMARK_WORDS = ("bench", "prepare_dataset", "genai-perf", "llama-cli", ".gguf")

_SHELLS = frozenset(["", "bash", "sh", "shell", "console", "zsh", "text", "txt", "shell-session"])
_PYTHONS = frozenset(["python", "py", "python3"])
_RUN_SCRIPT = re.compile(r"\s*(?:python[\d.]*|torchrun|deepspeed)\s+(?:-\S+\s+)*[\w./-]+\.py\b")


def _runs_scripts(body: list[str]) -> bool:
    """`python3 benchmark_throughput.py --input-len 2048 \\` / `--output-len 128` in a block
    tagged `python`: a shell command tagged with the language of the script it runs, each
    line a call of a script or the continuation of one, no line of Python code."""
    lines = [line for line in body if line.strip()]
    if not lines:
        return False
    continued = False
    for line in lines:
        if not continued and _RUN_SCRIPT.match(line) is None:
            return False
        continued = line.rstrip().endswith("\\")
    return True


_TOOL = re.compile(
    r"vllm\s+bench\b|benchmark_(?:serving|throughput|latency)\b|"
    r"\bbench_(?:serving|one_batch|one_batch_server|offline_throughput)\b|"
    r"trtllm-bench\b|prepare_dataset\b|llama-bench\b|llama-batched-bench\b|genai-perf\b|"
    r"\bllama-cli\b|(?<![\w-])(?:-m|--model)[\s=]\S+\.gguf\b"
)
"""vLLM, SGLang, TensorRT-LLM, llama.cpp and Triton's benchmark tools; llama.cpp's own runner
(`llama-cli`, or any build of it given a `.gguf` model: `./run1 -m model.Q2_K.gguf -n 10`),
whose printed timings are a benchmark's."""
_LOAD_FLAG = re.compile(
    r"(?<![\w-])--(?:batch[-_]size|(?:random[-_])?(?:input|output|prompt)[-_](?:len(?:gth)?|tokens)|"
    r"max[-_]new[-_]tokens|(?:max[-_])?concurrency)(?:\s+|\s?=\s?)\d"
)
_SCRIPT = re.compile(
    r"[\w/.-]*(?:bench|perf|infer|throughput|latency|profil|speed)[\w.-]*\.(?:py|sh)\b", re.I
)
"""A flag of a request's shape given a value, to a project's own benchmark script (`python
bench.py --batch-size 8 --input-len 512`, `bash run_throughput.sh --concurrency 16`): it
sets up the numbers below as a benchmark tool does. Not a training run (`train.py
--batch-size 64`), nor a launcher's device count alone (`torchrun --nproc_per_node=8`):
how to run, not what was measured."""


def _is_benchmark(command: str) -> bool:
    return bool(_TOOL.search(command) or (_LOAD_FLAG.search(command) and _SCRIPT.search(command)))


_LAUNCH = re.compile(
    r"\b(?:vllm|sglang|lmdeploy|mlc_llm|trtllm)[\s-]serve\b|vllm\.entrypoints\.|"
    r"sglang\.launch_server\b|\bllama-server\b|text-generation-launcher\b|\bollama\s+run\b|"
    r"--model(?:[-_](?:name[-_]or[-_]path|path|name|id|dir))?[\s=]"
)
"""A command that serves or runs a model (`vllm serve Qwen/Qwen2-7B`,
`python -m sglang.launch_server --model-path ...`, `python run.py --model ...`)."""


def _launches(command: str) -> bool:
    return bool(_LAUNCH.search(command))


def _commands(body: list[str]) -> list[str]:
    """The tool calls among a block's lines, each joined over its `\\` continuations."""
    joined: list[str] = []
    current = ""
    for line in body:
        stripped = line.strip()
        current = f"{current} {stripped.rstrip(chr(92)).strip()}".strip()
        if stripped.endswith("\\"):
            continue
        if current:
            joined.append(current)
        current = ""
    if current:
        joined.append(current)
    return joined


_CONFIG_TAGS = frozenset(
    ["", "yaml", "yml", "toml", "ini", "json", "text", "txt", "conf", *_SHELLS]
)
_CONFIG_LOAD = re.compile(
    r"^\s*(?:export\s)?[\"']?(?:batch[_-]?size|bs|(?:max[_-])?concurrency|num[_-]concurrent[_-]requests|"
    r"(?:input|prompt|output)[_-](?:len(?:gth)?|tokens)|max[_-](?:new[_-])?tokens|"
    r"request[_-]rate|context[_-]len(?:gth)?|seq[_-]len|"
    r"(?:tensor|expert)[_-]parallel[_-]size|[te]p[_-]size|num[_-]gpus)[\"']?\s*[:=]\s*[\"']?\d+[Kk]?[\"']?,?"
    r"\s*\\?\s*$",
    re.I,
)
"""A config file's load key and its one value: `batch_size: 16`, `"input_len": 1024,`,
`max_tokens = 256`, `tensor_parallel_size: 8`, and a shell's environment for a server or a
run (`TENSOR_PARALLEL_SIZE=8`, `export BATCH_SIZE=16`); not a list of values, nor a cap
such as `max_batch_size` or `MAX_NUM_SEQS`."""


_CONFIG_WORDS = re.compile(r"_len|tokens|batch|concurr|parallel|p_size|gpus", re.I)


def _config_lines(body: list[str]) -> list[str]:
    return [line.strip() for line in body if _CONFIG_LOAD.match(line)]


_PRECISION_FLAG = re.compile(
    r"(?<![\w-])--(?:dtype|precision|data[-_]type|torch[-_]dtype|compute[-_]type|quantization)"
    r"(?:\s+|\s?=\s?)['\"]?([A-Za-z][\w.-]*)"
)
"""The number format a command runs in: `--dtype float16`, `--dtype=bfloat16`, `--precision
W4A16`, `--data_type fp16`, `--quantization fp8` (not `--kv-cache-dtype`: the cache's own)."""
