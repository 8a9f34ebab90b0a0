"""Reading an inbox root from disk (the only part of the inbox that touches files).

Each file is parsed by the pure `parse_*` functions of `sources.inbox`; every file that
cannot be read, is not UTF-8 or breaks a rule (duplicate card numbers, broken links) is a
`Problem` in the result, never dropped silently (refs #9, #3).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from research_radar.cores import map_on_cores
from research_radar.errors import SourceError
from research_radar.sources.inbox import (
    Card,
    Inbox,
    KnowledgeDoc,
    Note,
    parse_card,
    parse_knowledge,
    parse_note,
    parse_queue,
)
from research_radar.sources.notes import Problem

__all__ = ["load_inbox"]


@dataclass
class _Root:
    """The inbox root, resolved once, and the folders under it resolved so far (#19)."""

    path: Path
    folders: dict[Path, Path] = field(default_factory=dict)

    def shown(self, path: Path) -> str:
        """`path` resolved and relative to the root (as it is, when outside the root)."""
        try:
            return self._resolved(path).relative_to(self.path).as_posix()
        except ValueError:
            return path.as_posix()

    def _resolved(self, path: Path) -> Path:
        """`path.resolve()`: a file that is not a symlink is its resolved folder plus its
        name, and a folder is resolved once (not every part of every file's path)."""
        if path.name in {"", ".", ".."} or path.is_symlink():
            return path.resolve()
        folder = self.folders.get(path.parent)
        if folder is None:
            folder = self.folders[path.parent] = path.parent.resolve()
        return folder / path.name


def _read(path: Path, shown: str) -> tuple[str | None, Problem | None]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, Problem(path=shown, kind="unreadable", message=f"cannot read ({exc.strerror})")
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        message = f"not UTF-8 (bad byte at offset {exc.start}); re-save the file as UTF-8"
        return None, Problem(path=shown, kind="not-utf8", message=message)


def _readable(
    paths: list[Path], root: _Root, problems: list[Problem]
) -> Iterator[tuple[Path, str, str]]:
    """(path, name shown, text) of each file that reads as UTF-8; one that does not is a
    problem, not a result."""
    for path in paths:
        shown = root.shown(path)
        text, problem = _read(path, shown)
        if problem is not None:
            problems.append(problem)
        elif text is not None:
            yield path, shown, text


def _files(folder: Path) -> list[Path]:
    """The files under `folder`, none in a hidden folder nor hidden, in the order of
    `sorted(folder.rglob("*"))` (part by part); a symlinked folder is not entered (#19)."""
    found: list[tuple[str, ...]] = []
    for where, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        parts = Path(where).relative_to(folder).parts
        found += [(*parts, name) for name in names if not name.startswith(".")]
    return [folder.joinpath(*parts) for parts in sorted(found)]


def _markdown_files(folder: Path, root: _Root, problems: list[Problem]) -> list[Path]:
    files = []
    for path in _files(folder):
        if path.suffix.lower() in {".md", ".markdown"}:
            files.append(path)
        else:
            message = "not a Markdown file; skipped"
            problems.append(Problem(path=root.shown(path), kind="skipped-file", message=message))
    return files


def _broken_links(note_path: Path, links: list[str], root: _Root, shown: str) -> list[Problem]:
    problems = []
    for target in links:
        base = root.path if target.startswith("/") else note_path.parent
        if not (base / target.lstrip("/")).exists():
            message = f"link to {target!r} points at no file; fix or remove the link"
            problems.append(Problem(path=shown, kind="broken-link", message=message))
    return problems


def _note(path: Path, folder: Path, root: _Root) -> tuple[Note | None, list[Problem]]:
    """One note file read and parsed, and the problems found on the way (None: unusable)."""
    shown = root.shown(path)
    text, problem = _read(path, shown)
    if text is None:
        return None, [problem] if problem is not None else []
    problems = []
    parts = path.relative_to(folder).parts
    analyst = parts[0] if len(parts) > 1 else ""
    if not analyst:
        message = "note is not in an analyst folder; move it to inbox/<analyst>/"
        problems.append(Problem(path=shown, kind="no-analyst", message=message))
    note, found = parse_note(text, path=shown, analyst=analyst)
    return note, problems + found + _broken_links(path, note.links, root, shown)


def _load_notes(folder: Path, root: _Root, problems: list[Problem]) -> list[Note]:
    """Every note under `folder`, in file order; with many, a forked process reads the
    second half meanwhile (`cores.map_on_cores`): the same notes and problems (#19)."""
    files = _markdown_files(folder, root, problems)
    notes = []
    for note, found in map_on_cores(lambda path: _note(path, folder, root), files):
        notes += [note] if note is not None else []
        problems.extend(found)
    return notes


def _load_cards(folder: Path, root: _Root, problems: list[Problem]) -> list[Card]:
    cards: list[Card] = []
    for _path, shown, text in _readable(_markdown_files(folder, root, problems), root, problems):
        card, found = parse_card(text, path=shown)
        cards.append(card)
        problems.extend(found)
    problems.extend(_card_duplicates(cards))
    return cards


def _card_duplicates(cards: list[Card]) -> list[Problem]:
    by_number: dict[int, list[Card]] = {}
    by_arxiv: dict[str, list[Card]] = {}
    for card in cards:
        if card.number is not None:
            by_number.setdefault(card.number, []).append(card)
        for arxiv_id in card.arxiv_ids:
            by_arxiv.setdefault(arxiv_id, []).append(card)
    problems = []
    for number, same in sorted(by_number.items()):
        if len(same) > 1:
            paths = ", ".join(card.path for card in same)
            message = (
                f"card number {number:04d} is used by {len(same)} files ({paths}); renumber one"
            )
            problems.append(
                Problem(path=same[1].path, kind="duplicate-card-number", message=message)
            )
    for arxiv_id, same in sorted(by_arxiv.items()):
        if len(same) > 1:
            paths = ", ".join(card.path for card in same)
            message = f"arXiv:{arxiv_id} has {len(same)} cards ({paths}); merge them"
            problems.append(
                Problem(path=same[1].path, kind="duplicate-card-arxiv", message=message)
            )
    return problems


def _load_knowledge(target: Path, root: _Root, problems: list[Problem]) -> dict[str, KnowledgeDoc]:
    files = [target] if target.is_file() else _markdown_files(target, root, problems)
    docs = {}
    for path, shown, text in _readable(files, root, problems):
        docs[path.stem] = parse_knowledge(text, path=shown, topic=path.stem)
    return docs


def load_inbox(
    root: Path,
    *,
    inbox: Path | None = None,
    cards: Path | None = None,
    knowledge: Path | None = None,
    queue: Path | None = None,
) -> Inbox:
    """Read every part of an inbox root; a missing part is a problem, a missing root an error.

    Args:
        root: the folder holding inbox/, paper_cards/, knowledge/ and work-queue.md.
        inbox, cards, knowledge, queue: other places for each part (knowledge may be one
            file, named after its topic, or a folder of `<topic>.md`).
    """
    if not root.is_dir():
        raise SourceError(
            f"inbox root {str(root)!r} is not a folder; pass --root DIR (a folder with inbox/, "
            "paper_cards/, knowledge/, work-queue.md) or use --sample",
            source="inbox",
        )
    parts = {
        "inbox": inbox or root / "inbox",
        "cards": cards or root / "paper_cards",
        "knowledge": knowledge or root / "knowledge",
        "queue": queue or root / "work-queue.md",
    }
    present = {name: path.exists() for name, path in parts.items()}
    if not any(present.values()):
        raise SourceError(
            f"{str(root)!r} holds none of inbox/, paper_cards/, knowledge/, work-queue.md; "
            "point --root at an inbox root or use --sample",
            source="inbox",
        )
    base = _Root(root.resolve())  # the same files as under root; names are shown relative to it
    problems = [
        Problem(path=base.shown(path), kind="missing-path", message=f"no {name} at this path")
        for name, path in parts.items()
        if not present[name]
    ]
    result = Inbox(root=root.as_posix())
    if present["inbox"]:
        result.notes = _load_notes(parts["inbox"], base, problems)
    if present["cards"]:
        result.cards = _load_cards(parts["cards"], base, problems)
    if present["knowledge"]:
        result.knowledge = _load_knowledge(parts["knowledge"], base, problems)
    if present["queue"]:
        shown = base.shown(parts["queue"])
        text, problem = _read(parts["queue"], shown)
        result.queue = parse_queue(text, path=shown) if text is not None else None
        problems.extend([problem] if problem else [])
    result.problems = problems
    return result
