"""The tokens a family index has seen, numbered, as arrays (`families.FamilyIndex`, #19).

Each token's document frequency and weight (`tokens.copies`) are kept in arrays indexed by
its number, so a query weighs all its candidates' tokens at once. Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from research_radar.resolve.tokens import copies as _copies

__all__ = ["Terms"]


class Terms:
    """Every token an index has seen, numbered, with its document frequency and its copies
    (`tokens.copies`) as arrays, so a query weighs its candidates' tokens at once (#19)."""

    def __init__(self) -> None:
        import numpy as np

        self.ids: dict[str, int] = {}
        self.df = np.zeros(1024, dtype=np.int64)
        self.copies = np.zeros(1024, dtype=np.float64)
        self.mark = np.zeros(1024, dtype=bool)

    def of(self, tokens: Iterable[str]) -> Any:
        """The ids of some tokens (numbering the new ones), an integer array."""
        import numpy as np

        ids = self.ids
        listed = list(tokens)
        new = list(dict.fromkeys(token for token in listed if token not in ids))
        if new:
            first = len(ids)
            if first + len(new) > len(self.df):  # grow by doubling: amortised O(1) a token
                size = 2 * (first + len(new))
                self.df = np.concatenate([self.df, np.zeros(size - len(self.df), np.int64)])
                self.copies = np.concatenate(
                    [self.copies, np.zeros(size - len(self.copies), np.float64)]
                )
            ids.update((token, first + i) for i, token in enumerate(new))
            self.copies[first : first + len(new)] = [_copies(token) for token in new]
        return np.fromiter((ids[token] for token in listed), dtype=np.int64, count=len(listed))

    def marked(self, ids: Any, among: Any) -> Any:
        """Whether each id of `among` is one of `ids`, a boolean array."""
        import numpy as np

        if len(self.mark) < len(self.df):
            self.mark = np.zeros(len(self.df), dtype=bool)
        self.mark[ids] = True
        found = self.mark[among]
        self.mark[ids] = False
        return found

    def count(self, token: str) -> int:
        at = self.ids.get(token)
        return 0 if at is None else int(self.df[at])

    def use(self, df: Mapping[str, int]) -> None:
        """Replace every document frequency by those of `df` (0 for the tokens it lacks)."""
        ids = self.of(df)
        self.df[:] = 0
        self.df[ids] = list(df.values())
