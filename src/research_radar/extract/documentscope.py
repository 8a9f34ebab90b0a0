"""What a whole document states for its claims once they are read: set-up scopes, named
workloads, device roles, and the uncatalogued models a `Model` column writes.

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead. Each pass only fills what a claim has none of (a device role's part
replaces the inherited one: the row says which device it ran on), in this order: the
set-up scopes around a claim's line (`extract.scopes`), the workload its statement names
(`extract.workloads`), its row's device role (`extract.roles`), and last the model its
row's `Model` column writes (`extract.rowlabels`); the systems of sibling sections, one
of them the project's own, or one named as the baseline (`extract.siblings`); a baseline the document abbreviates
(`HF`) takes the name it spells out (issue #14).
"""

from __future__ import annotations

from research_radar.extract.baselines import spelled_out
from research_radar.extract.catalogue import Catalog
from research_radar.extract.commandblocks import read_code_blocks
from research_radar.extract.configrows import described_configurations, with_configurations
from research_radar.extract.envblocks import env_blocks
from research_radar.extract.footnotes import footnote_refs
from research_radar.extract.markdown import Segment
from research_radar.extract.roles import find_roles, with_device_classes, with_roles
from research_radar.extract.scopes import find_scopes
from research_radar.extract.setupscope import with_scopes
from research_radar.extract.siblings import with_baseline_sections, with_sibling_systems
from research_radar.extract.soleparts import sole_part, with_sole_part
from research_radar.extract.workloads import find_workloads, with_workloads
from research_radar.models import Claim

__all__ = ["with_document_scopes"]


def with_document_scopes(
    claims: list[Claim],
    segments: list[Segment],
    cat: Catalog,
    labelled: dict[int, str],
    text: str = "",
    project: str = "",
) -> list[Claim]:
    """The claims completed from what their document states for them.

    Args:
        labelled: claim index -> the uncatalogued model its row's `Model` column writes,
            the claim's model when nothing else names one.
        text: the document, for what its code blocks and footnotes set up: its
            benchmark commands (`extract.commandblocks`), the machine its blocks print
            (`extract.envblocks`) and the paragraphs that point to a footnote
            (`extract.footnotes`).
        project: the repository (`owner/name`): when its name is a model's name (`Open-Sora`,
            `Baichuan2`), that model's own page measures it where nothing names another
            (not a tool named after a model: `llama.cpp`, `LLaMA-Factory`).
    """
    measured = {c.line or 0 for c in claims if c.metrics}
    # a configuration's own description comes before what a set-up says of all of them
    configurations = described_configurations(segments, cat, measured)
    claims = with_configurations(claims, segments, configurations)
    code = read_code_blocks(text)
    notes = footnote_refs(text)
    scopes = find_scopes(
        segments,
        cat,
        sorted([*code.commands, *code.configs]),
        notes,
        env_blocks(text),
        measured,
        code.launches,
        code.formats,
        code.devices,
    )
    if scopes:
        claims = [
            c.model_copy(update={"conditions": with_scopes(c.conditions, c.line or 0, scopes)})
            for c in claims
        ]
    workloads = find_workloads(segments, cat)
    if workloads:
        claims = [with_workloads(c, workloads) for c in claims]
    roles = find_roles(segments, cat)
    if roles:
        claims = [with_roles(c, roles) for c in claims]
    for index, model in labelled.items():
        if not claims[index].conditions.model:
            conditions = claims[index].conditions.model_copy(update={"model": [model]})
            claims[index] = claims[index].model_copy(update={"conditions": conditions})
    name = project.rpartition("/")[2]  # `hpcaitech/Open-Sora`: the repository's own name
    mentions = cat.find("model", name)
    own = [m.name for m in mentions if (m.start, m.end) == (0, len(name))]
    if own:
        claims = [
            c.model_copy(update={"conditions": c.conditions.model_copy(update={"model": own})})
            if not c.conditions.model
            else c
            for c in claims
        ]
    claims = with_sibling_systems(claims, segments, cat, project)
    claims = with_baseline_sections(claims, segments)
    claims = with_sole_part(claims, sole_part(segments, cat, claims))
    headings = [s for s in segments if s.block == "heading"]
    title = next((h.text for h in headings if h.level == 1), "")
    claims = with_device_classes(claims, title, roles, headings)
    return spelled_out([s.text for s in segments], claims)
