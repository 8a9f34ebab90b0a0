"""Budget ledger of an optimisation campaign: GPU hours, trials, stop conditions."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Budget:
    gpu_hours: float
    max_trials: int
    patience: int = 3
    """Stop after this many consecutive candidates without gain."""
    spent_hours: float = 0.0
    trials: list[bool] = field(default_factory=list)

    def record(self, hours: float, gained: bool) -> None:
        """Charge one trial, failed and rejected trials included."""
        self.spent_hours += hours
        self.trials.append(gained)

    def exhausted(self) -> bool:
        tail = self.trials[-self.patience :]
        stalled = len(tail) == self.patience and not any(tail)
        return self.spent_hours >= self.gpu_hours or len(self.trials) >= self.max_trials or stalled
