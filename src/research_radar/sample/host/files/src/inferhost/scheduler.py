"""Request scheduler: admission by KV cache budget, chunked prefill, decode batching."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Request:
    id: str
    prompt_tokens: int
    max_new_tokens: int


def admit(queue: list[Request], free_kv_blocks: int, block_tokens: int = 16) -> list[Request]:
    """Admit requests first-come first-served while their KV blocks fit in the free budget."""
    admitted: list[Request] = []
    for request in queue:
        need = -(-(request.prompt_tokens + request.max_new_tokens) // block_tokens)
        if need > free_kv_blocks:
            break
        free_kv_blocks -= need
        admitted.append(request)
    return admitted


def prefill_chunks(prompt_tokens: int, chunk: int = 512) -> list[int]:
    """Split a long prompt into chunks so prefill does not stall running decodes."""
    return [min(chunk, prompt_tokens - start) for start in range(0, prompt_tokens, chunk)]
