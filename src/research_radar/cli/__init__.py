"""The `radar` command: a thin shell over the library.

Each command family lives in its own module with a `register(app)` function; this file
builds the app and turns every RadarError into one clear `Error: ...` line with exit code 1
(a wrong settings file, unusable input and usage errors exit 2).

A command's module (and the libraries it needs) is imported only when that command runs:
`radar --help` lists the commands from `COMMANDS` below without importing any of them, so
it starts about as fast as typer itself (issue #19). A test keeps `COMMANDS` equal to the
commands' own help.
"""

from __future__ import annotations

import gc
import importlib
import os
from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from research_radar.errors import InputError, RadarError, SettingsError
from research_radar.regexcache import cached_patterns

__all__ = ["COMMANDS", "app", "keep_loaded", "loading", "main", "reflow", "user_cache_folder"]

COMMANDS: dict[str, tuple[str, str]] = {
    "classify": (
        "taxonomy_cmd",
        "Tag items on every taxonomy dimension and print one JSON line per item.",
    ),
    "collect": (
        "collect_cmd",
        "Collect new and updated sources (GitHub, arXiv, feeds, git) into the store.",
    ),
    "daily": ("daily_cmd", "Run the whole pipeline and write today's report."),
    "digest": (
        "digest_cmd",
        "Digest the team inbox for one topic over a window (default: the last 24h, Asia/Shanghai).",
    ),
    "export": (
        "publish_cmd",
        "Write every finding in the store as CSV (UTF-8 with BOM) and XLSX, one row each.",
    ),
    "extract": (
        "extract_cmd",
        "Print the claims of FILE with their metrics, conditions, kind and line.",
    ),
    "history": (
        "history_cmd",
        "History: earlier reports, projects across renames and forks, mechanism families.",
    ),
    "host": (
        "host_cmd",
        "The host project: index its files and PRs, map findings to touch points.",
    ),
    "init": ("init_cmd", "Write a commented radar.toml to start from."),
    "publish": (
        "publish_cmd",
        "Post a report as NEW comments on the research-index issue (dry run unless --yes).",
    ),
    "replay": ("collect_cmd", "A replay server of recorded API responses (offline testing)."),
    "review": (
        "review_cmd",
        "Review a report: house rules plus claim verification. Exit 1 on a blocking finding.",
    ),
    "runs": ("daily_cmd", "Show recent runs: each stage's status, counts and errors per source."),
    "site": (
        "site_cmd",
        "Build a static, searchable site from the store: no server needed to read it.",
    ),
    "taxonomy": (
        "taxonomy_cmd",
        "Print the taxonomy profile: dimensions, values with 中文/English labels, sample terms.",
    ),
}
"""Command name → (its module under `research_radar.cli`, the first paragraph of its help)."""


def reflow(text: str) -> str:
    """A help text whose paragraphs are one line each, so the terminal wraps them at its
    width (rich keeps a docstring's line breaks, which leaves ragged lines at 80 columns).
    A line that is indented or starts a list item keeps its own line."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        joins = (
            out
            and out[-1].strip()
            and line.strip()
            and not line.startswith((" ", "\t", "- ", "* "))
            and not out[-1].startswith((" ", "\t"))
        )
        if joins:
            out[-1] = f"{out[-1].rstrip()} {line.strip()}"
        else:
            out.append(line)
    return "\n".join(out)


def _reflowed(command: Any) -> Any:
    """`command` (and its subcommands) with reflowed help texts."""
    if command.help:
        command.help = reflow(command.help)
    for sub in getattr(command, "commands", {}).values():
        _reflowed(sub)
    return command


_OWN_PROCESS = False
"""True when `main` runs the command in a process of its own (the console script), not
inside another program such as a test runner: only then is the collector tuned."""
_YOUNG = 10_000
"""Allocations between two collections of the young generation (Python's default: 700).
A run allocates millions of objects that mostly live to its end (modules, parsed notes,
claims); collecting every 700 of them walked the growing heap again and again (#19)."""


def keep_loaded() -> None:
    """Everything made so far lives as long as the process (modules, a loaded inbox):
    leave it out of the garbage collector's later passes, which then walk only what the
    run makes next; a forked worker then shares those pages too (#19). Only in a process
    of its own (`main`); elsewhere this does nothing."""
    if _OWN_PROCESS:
        gc.freeze()


@contextmanager
def loading() -> Iterator[None]:
    """A block that loads modules, which live as long as the process: the collector does
    not run while they load (nearly everything made then survives, so each young
    collection walked it all for nothing: 0.1 s of `radar daily --sample`, #19), and
    what is loaded is then kept out of its later passes (`keep_loaded`). Only in a
    process of its own (`main`); elsewhere the block changes nothing."""
    if not _OWN_PROCESS:
        yield
        return
    thresholds = gc.get_threshold()
    gc.set_threshold(0, *thresholds[1:])  # (a young threshold of 0: no automatic collection)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        keep_loaded()


def _load(name: str) -> Any:
    """The click command `name`, built from its module's `register`."""
    with loading():  # the command's modules: loaded once, kept to the end
        module = importlib.import_module(f"research_radar.cli.{COMMANDS[name][0]}")
    holder = typer.Typer(rich_markup_mode="rich", add_completion=False)
    module.register(holder)
    return _reflowed(typer.main.get_group(holder).commands[name])


class _Commands(MutableMapping[str, Any]):
    """The app's commands, each loaded at its first look-up."""

    def __init__(self) -> None:
        self._loaded: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._loaded:
            if name not in COMMANDS:
                raise KeyError(name)
            self._loaded[name] = _load(name)
        return self._loaded[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(set(COMMANDS) | set(self._loaded)))

    def __len__(self) -> int:
        return len(set(COMMANDS) | set(self._loaded))

    def __contains__(self, name: object) -> bool:
        return name in COMMANDS or name in self._loaded

    def listed(self, name: str) -> Any:
        """The command if loaded, else a stand-in that only carries its name and help."""
        if name in self._loaded or name not in COMMANDS:
            return self._loaded.get(name)
        return TyperCommand(name=name, help=COMMANDS[name][1])


class _RadarGroup(TyperGroup):
    """Catches RadarError in exactly one place; loads commands lazily."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _Commands()
        self._listing = False

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except RadarError as exc:
            from research_radar.cli.common import err_console

            err_console.print(f"Error: {exc}", markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(2 if isinstance(exc, SettingsError | InputError) else 1) from exc

    def list_commands(self, ctx: Any) -> list[str]:
        return sorted(self.commands)  # the names only: nothing is loaded

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        commands = self.commands
        if self._listing and isinstance(commands, _Commands):
            return commands.listed(cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


app = typer.Typer(
    cls=_RadarGroup,
    name="radar",
    help=(
        "Research Radar: a daily radar for AI inference performance and self-improving "
        "optimisation (RSI).\n\nStart with `radar daily --sample` to see a report made "
        "offline from the bundled sample."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode="rich",
)


@app.callback()
def _radar() -> None:
    # typer builds a group only for an app with a callback or commands; ours come lazily.
    pass


def user_cache_folder(environ: Mapping[str, str]) -> Path:
    """Where the command keeps what it can make again (`$XDG_CACHE_HOME/research-radar`,
    else `~/.cache/research-radar`): nothing in it is needed, all of it saves time."""
    base = environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "research-radar"


def main() -> None:
    """Entry point of the console script.

    Compiled regular expressions are kept in the user's cache between runs
    (`regexcache`): compiling the extract rules' patterns anew was a quarter of the CPU
    of `radar daily --sample` (#19)."""
    global _OWN_PROCESS
    _OWN_PROCESS = True
    gc.set_threshold(_YOUNG, *gc.get_threshold()[1:])
    with cached_patterns(user_cache_folder(os.environ)):
        app()
