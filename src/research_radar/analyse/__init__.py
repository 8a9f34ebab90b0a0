"""The analyst: prior art searched and ranked, the structural difference from the nearest
earlier works and the family, and the facts of the Chinese insight (issue #16)."""

__all__: list[str] = []
