"""The package's layout: the pipeline's stages are subpackages, the import graph has no
cycle, and the core never reaches into the command line, the replay server or the sample.

Imports are read from the source (every `import`, at any depth, TYPE_CHECKING blocks
included), so a lazy import inside a function counts too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import research_radar

PACKAGE = Path(research_radar.__file__).parent
OUTSIDE_THE_CORE = ("research_radar.cli", "research_radar.replay", "research_radar.sample")
STAGES = (
    "collect",
    "resolve",
    "extract",
    "classify",
    "history",
    "hostmap",
    "report",
    "review",
    "publish",
    "digest",
    "store",
    "pipeline",
)


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        if "files" in relative.parts[:4] and "sample" in relative.parts:
            continue  # the sample host project's own source tree, not ours
        parts = list(relative.parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> Iterator[str]:
    """The research_radar modules that `name` imports (a package's module when a name
    imported from it is itself a module)."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = name.split(".") if is_package else name.split(".")[:-1]
                parent = parent[: len(parent) - (node.level - 1)]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target.startswith("research_radar") and target != name:
                yield target


GRAPH = {name: sorted(set(_imports(name, path))) for name, path in MODULES.items()}


def _is_core(name: str) -> bool:
    return not any(name == o or name.startswith(o + ".") for o in OUTSIDE_THE_CORE)


def _cycle() -> list[str] | None:
    """One import cycle, as the list of modules around it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in GRAPH.get(node, []):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for module in GRAPH:
        if module not in state and (found := visit(module)):
            return found
    return None


def test_the_import_graph_has_no_cycle() -> None:
    cycle = _cycle()
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_core_never_imports_the_cli_the_replay_server_or_the_sample() -> None:
    arrows = [
        f"{module} -> {target}"
        for module, targets in GRAPH.items()
        if _is_core(module)
        for target in targets
        if not _is_core(target)
    ]
    assert arrows == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The check above can fail: a made-up graph with a cycle is caught."""
    saved = dict(GRAPH)
    try:
        GRAPH.clear()
        GRAPH.update({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]})
        assert _cycle() == ["a", "b", "c", "a"]
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_is_a_subpackage(stage: str) -> None:
    assert (PACKAGE / stage / "__init__.py").is_file()


def test_no_module_re_exports_what_another_defines() -> None:
    """A name in a module's __all__ is defined there, not imported from elsewhere."""
    offenders = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            alias.asname or alias.name
            for node in tree.body
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
            ):
                listed = {e.value for e in node.value.elts if isinstance(e, ast.Constant)}  # type: ignore[attr-defined]
                offenders += [f"{name}.{n}" for n in sorted(listed & imported)]
    assert offenders == []


def test_no_module_forwards_names_with_a_module_getattr() -> None:
    forwarding = [
        name
        for name, path in MODULES.items()
        if any(
            isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
            for node in ast.parse(path.read_text(encoding="utf-8")).body
        )
    ]
    assert forwarding == []
