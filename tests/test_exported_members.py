"""Every public module lists its API in __all__, and every listed name exists."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import research_radar

MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(research_radar.__path__, "research_radar.")
    if ".migrations" not in name
    and ".sample" not in name
    and not name.split(".")[-1].startswith("_")
    and not name.startswith("research_radar.cli")
)


@pytest.mark.parametrize("name", MODULES)
def test_all_is_declared_and_complete(name: str) -> None:
    module = importlib.import_module(name)
    if name.endswith("__init__") or not hasattr(module, "__file__") or module.__file__ is None:
        return
    if module.__file__.endswith("__init__.py"):
        return
    exported = getattr(module, "__all__", None)
    assert exported is not None, f"{name} has no __all__"
    for member in exported:
        assert hasattr(module, member), f"{name}.__all__ names {member!r}, which does not exist"
