"""Shared fixtures. Area-specific fixtures live in their own test modules."""

from __future__ import annotations

import json
import os
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, settings

import research_radar.sample
from research_radar.store.store import Store, open_store

settings.register_profile("radar", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("radar")
"""Property tests judge what a function returns, not how fast: a shared 2-core machine
(CI's included) makes single examples slow now and then, and a deadline would fail them."""

POSTGRES_ENV = "RADAR_TEST_POSTGRES_URL"
"""A PostgreSQL server URL (e.g. postgresql+psycopg://postgres@127.0.0.1:5432/postgres)
the store, history and pipeline tests run against as well as SQLite; .ci/run sets it."""
BOTH_BACKENDS = {
    "test_store",
    "test_history_reads",
    "test_history",
    "test_pipeline",
    "test_reliability",
    "test_bad_input",
}
"""Test modules whose `backend` (hence `db_url` and `store`) is SQLite and PostgreSQL."""


@pytest.fixture(scope="session", autouse=True)
def own_user_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The `radar` command keeps compiled patterns and templates in the user's cache
    (`XDG_CACHE_HOME`); tests that run it, in this process or a child, keep theirs in a
    folder of the test session instead of the real one of whoever runs the suite."""
    folder = tmp_path_factory.mktemp("user-cache")
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    yield folder
    if before is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = before


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    if "backend" in metafunc.fixturenames and module in BOTH_BACKENDS:
        metafunc.parametrize("backend", ["sqlite", "postgresql"], indirect=True, scope="module")


@pytest.fixture(scope="module")
def backend(request: pytest.FixtureRequest) -> str:
    """ "sqlite", or "postgresql" (skipped with the reason when no server is configured)."""
    name = str(getattr(request, "param", "sqlite"))
    if name == "postgresql" and not os.environ.get(POSTGRES_ENV):
        pytest.skip(
            f"PostgreSQL tests need a server: set {POSTGRES_ENV} "
            "(.ci/run starts Debian's postgresql and sets it)"
        )
    return name


@contextmanager
def new_database(backend: str, folder: Path) -> Iterator[str]:
    """A fresh empty store location: a SQLite file in `folder`, or a new PostgreSQL
    database on the test server (dropped afterwards)."""
    if backend == "sqlite":
        yield str(folder / "radar.db")
        return
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import NullPool

    server = make_url(os.environ[POSTGRES_ENV])
    name = f"radar_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


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


@pytest.fixture(scope="session")
def database_factory() -> Callable[[str, Path], AbstractContextManager[str]]:
    """`new_database` for fixtures of a wider scope than `db_url`."""
    return new_database


@pytest.fixture
def db_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """Where a test's store lives: `db_path` on SQLite, else a fresh PostgreSQL database."""
    with new_database(backend, tmp_path) as url:
        yield url


Serve = Callable[[type[BaseHTTPRequestHandler]], str]
"""serve(handler class): the base URL of a loopback server answering with it."""


@pytest.fixture
def serve() -> Iterator[Serve]:
    """Starts a `ThreadingHTTPServer` on a free loopback port, in a thread, for each handler
    class it is given; every one is shut down when the test ends."""
    servers: list[ThreadingHTTPServer] = []

    def start(handler: type[BaseHTTPRequestHandler]) -> str:
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """A real store (SQLite in a temporary folder; PostgreSQL too in BOTH_BACKENDS modules)."""
    opened = open_store(db_url)
    yield opened
    opened.engine.dispose()


class CorpusTexts(NamedTuple):
    """The texts of tests/fixtures and of the bundled sample, for comparing a fast path with
    its plain reference on real wording."""

    fields: list[str]
    """Every string field (but `id`) of the fixtures' JSON-lines rows."""
    documents: list[str]
    """Every Markdown document of the sample and the fixtures, whole."""


@pytest.fixture(scope="session")
def corpus_texts() -> CorpusTexts:
    fixtures = Path(__file__).parent / "fixtures"
    fields: list[str] = []
    for path in sorted(fixtures.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                fields += [str(v) for k, v in row.items() if isinstance(v, str) and k != "id"]
    sample = Path(research_radar.sample.__file__).parent
    documents = [
        path.read_text(encoding="utf-8")
        for path in sorted([*sample.rglob("*.md"), *fixtures.rglob("*.md")])
    ]
    return CorpusTexts(fields, documents)
