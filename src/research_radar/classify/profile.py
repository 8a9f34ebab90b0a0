"""The taxonomy profile: dimensions, values, labels and matching rules, loaded from TOML.

The bundled profile (`data/taxonomy.toml`) holds the six dimensions of DESIGN.md with
stable value ids. A user's profile file either extends it (more values, terms, queries,
feeds) or replaces it (`[profile] mode = "replace"`). Everything here is pure except
`load_taxonomy`, which reads files; `build_taxonomy` does the same from parsed TOML.

The dataclasses live in `taxonomy_model` and the TOML building and validation in
`taxonomy_build`; their public names are re-exported here.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from research_radar.classify.build import build_taxonomy
from research_radar.classify.model import RuleKind as RuleKind
from research_radar.classify.model import Taxonomy
from research_radar.errors import ConfigError

__all__ = ["BUNDLED", "load_taxonomy"]

BUNDLED = "research_radar/data/taxonomy.toml"
"""How the bundled profile is named in messages and `Taxonomy.origins`."""


def load_taxonomy(path: Path | None = None, *, extend: bool = True) -> Taxonomy:
    """Load the bundled profile, extended or replaced by a user's file.

    Args:
        path: a user profile (TOML); None loads the bundled profile alone.
        extend: False replaces the bundled profile whatever the file says; otherwise the
            file's `[profile] mode` decides (`extend`, the default, or `replace`).

    Raises:
        ConfigError: the file is missing, unreadable, not TOML or not a valid profile;
            the message names the file, the line where known, and the fix.
    """
    base = _bundled()
    if path is None:
        return base
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(
            "profile file not found; check the path given to --profile", str(path)
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"cannot read the profile ({exc}); save it as UTF-8 TOML", str(path)
        ) from exc
    return build_taxonomy(text, str(path), base=base, extend=extend)


@functools.cache
def _bundled() -> Taxonomy:
    """The bundled profile, built once (a Taxonomy is immutable)."""
    text = resources.files("research_radar").joinpath("data/taxonomy.toml")
    return build_taxonomy(text.read_text(encoding="utf-8"), BUNDLED)
