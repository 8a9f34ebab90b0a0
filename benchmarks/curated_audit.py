"""How much of each training list the curated-list parser reads (refs #15).

    .venv/bin/python benchmarks/curated_audit.py [--headings] [--missed N]

Per list (split = "train" in curated_mapping.toml): the lines that link a paper, the items
parsed (titled lines), the lines read as the continuation of the item above (its venue,
authors or links), the paper-linking lines that are neither (what the parser misses), and
the items that reach the training data (under a mapped heading, not skipped).
`--headings` breaks this down per heading; `--missed N` prints N missed lines per list.
The held-out lists are left out: their parse is checked by the same code, never tuned.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from curated import _rule_for, curated_root, load_mapping, scan_list  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headings", action="store_true", help="counts per heading")
    parser.add_argument("--missed", type=int, default=0, help="missed lines to print")
    args = parser.parse_args()
    root = curated_root()
    columns = ("paper-link", "items", "continued", "missed", "mapped")
    print(f"{'list / heading':<64}" + "".join(f"{c:>11}" for c in columns))
    for spec in load_mapping().lists:
        if spec.split != "train":
            continue
        per: dict[str, Counter[str]] = {}
        missed: list[str] = []
        for path in sorted((root / spec.folder).glob("*.md")):
            for line in scan_list(path):
                heading = line.headings[-1] if line.headings else "(top)"
                counts = per.setdefault(heading, Counter())
                counts["paper-link"] += line.paper_link
                counts["items"] += line.kind == "item"
                counts["continued"] += line.kind == "continuation"
                if line.paper_link and line.kind == "other":
                    counts["missed"] += 1
                    missed.append(heading)
                if line.kind == "item":
                    rule = _rule_for(spec, list(line.headings))
                    counts["mapped"] += rule is not None and not rule.skip
        total: Counter[str] = sum(per.values(), Counter())
        print(f"{spec.name:<64}" + "".join(f"{total[c]:>11}" for c in columns))
        if args.headings:
            for heading, counts in per.items():
                if any(counts.values()):
                    print(f"  {heading[:62]:<62}" + "".join(f"{counts[c]:>11}" for c in columns))
        for text in missed[: args.missed]:
            print(f"    missed under {text}")


if __name__ == "__main__":
    main()
