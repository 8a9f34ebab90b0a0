"""Shared fixtures. Area-specific fixtures live in their own test modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_radar.store.store import Store, open_store


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite tests/golden/* from the current output; review the diff before committing.",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def golden(update_golden: bool):  # type: ignore[no-untyped-def]
    """Compare text with tests/golden/<name> byte for byte (or rewrite it)."""

    def check(name: str, text: str) -> None:
        path = GOLDEN / name
        if update_golden or not path.exists():
            if not update_golden:
                pytest.fail(
                    f"golden file {path} is missing: run pytest --update-golden and review it"
                )
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        assert text == path.read_text(encoding="utf-8"), f"differs from {path}; see --update-golden"

    return check


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "radar.db"


@pytest.fixture
def store(db_path: Path) -> Store:
    """A real SQLite store in a temporary folder."""
    return open_store(str(db_path))
