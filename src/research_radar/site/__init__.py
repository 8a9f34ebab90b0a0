"""The static site: browsable, searchable pages built from the store (`radar site`).

`data` reads the store into public-only site data, `charts` draws static SVG, `pages`
renders every page with the shared Jinja environment, `search` indexes them with Pagefind
and `build` writes the site incrementally. `serve` previews a built site on loopback.
"""

__all__: list[str] = []
