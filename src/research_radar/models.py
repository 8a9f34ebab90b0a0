"""Domain types of the radar: Source, Snapshot, Project, Claim, Finding, Report.

These are pure, validated data objects (pydantic v2). They never touch the network, the
database, files or the clock; every stage of the pipeline reads and returns them.
The words follow DESIGN.md.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "BEIJING",
    "Claim",
    "ClaimKind",
    "Conditions",
    "Correction",
    "Coverage",
    "Finding",
    "Gate",
    "GateName",
    "Metric",
    "Novelty",
    "Project",
    "Recommendation",
    "Report",
    "Snapshot",
    "Source",
    "SourceKind",
    "Tag",
    "TouchPoint",
    "ValidationProposal",
    "Verdict",
]


BEIJING = timezone(timedelta(hours=8), "Asia/Shanghai")
"""Beijing time: the house style's clock for cut-offs and windows."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, validate_assignment=True)


class SourceKind(StrEnum):
    """What kind of thing a source is."""

    REPO = "repo"
    PAPER = "paper"
    BLOG = "blog"
    PULL = "pull"
    ISSUE = "issue"
    RELEASE = "release"
    NOTE = "note"
    CARD = "card"
    DOC = "doc"


class Source(_Model):
    """One thing found: a repository, a paper, a post, a PR, a note.

    `key` is the canonical key: `gh:owner/name` (lower-case), `arxiv:2409.10516`
    (version stripped), `doi:...` or `url:...`.
    """

    key: str
    kind: SourceKind
    url: str
    title: str = ""
    summary: str = ""
    text: str = ""
    """Prose read from the source (README, abstract, post body) at its snapshot."""
    created_at: datetime | None = None
    updated_at: datetime | None = None
    meta: dict[str, Any] = Field(default_factory=dict)
    """Source-specific facts: fork/parent, archived, private, license, topics, stars..."""

    @field_validator("key")
    @classmethod
    def _key_has_scheme(cls, value: str) -> str:
        if ":" not in value:
            raise ValueError(f"canonical key {value!r} needs a scheme such as gh: or arxiv:")
        return value


class Snapshot(_Model):
    """An observation of a source at a pinned version.

    `version` is a full commit SHA for repositories, `vN` for arXiv papers and a content
    hash for posts. Nothing is reported without one.
    """

    source_key: str
    version: str
    version_date: datetime | None = None
    tag: str | None = None
    url: str = ""
    """A link that points at this version (a /tree/<sha> URL, an arXiv vN URL)."""
    content_hash: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)


class Project(_Model):
    """The identity findings are about: sources joined by same-as and part-of links."""

    key: str
    name: str
    aliases: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    fork_of: str | None = None
    derivative: bool = False
    """True when a fork is an independent derivative (its own project)."""
    derivative_evidence: list[str] = Field(default_factory=list)
    family: str | None = None


class Metric(_Model):
    name: str
    value: float
    unit: str = ""


class Conditions(_Model):
    """What a number holds under. Canonical catalogue names where known."""

    hardware: list[str] = Field(default_factory=list)
    model: list[str] = Field(default_factory=list)
    precision: list[str] = Field(default_factory=list)
    baseline: list[str] = Field(default_factory=list)
    software: list[str] = Field(default_factory=list)
    load: dict[str, str] = Field(default_factory=dict)
    repeats: str | None = None

    def missing(self) -> list[str]:
        """Names of the four fields a headline performance number must carry."""
        wanted = ("hardware", "model", "precision", "baseline")
        return [name for name in wanted if not getattr(self, name)]


class ClaimKind(StrEnum):
    PERFORMANCE = "performance"
    QUALITY = "quality"
    CORRECTNESS = "correctness"
    LIMITATION = "limitation"
    NEGATIVE = "negative"
    STATUS = "status"


class Claim(_Model):
    """One statement with provenance."""

    kind: ClaimKind
    text: str
    metrics: list[Metric] = Field(default_factory=list)
    conditions: Conditions = Field(default_factory=Conditions)
    where: str = ""
    """`owner/repo@sha:path#Lnn` or a URL."""
    line: int | None = None
    reporter: str = "author"
    """author, community or us."""
    validated: bool = False

    @property
    def complete(self) -> bool:
        """A performance claim is complete when it keeps all four key conditions."""
        return not self.conditions.missing()


class Tag(_Model):
    """One value of one taxonomy dimension, with why it was chosen."""

    dimension: str
    value: str
    terms: list[str] = Field(default_factory=list)
    confidence: float = 0.0


class Verdict(StrEnum):
    PASS = "pass"
    PARTIAL = "partial"
    FAIL = "fail"
    UNKNOWN = "unknown"


class GateName(StrEnum):
    CORRECTNESS = "correctness"
    SOLIDITY = "solidity"
    TIMELINESS = "timeliness"
    PRIOR_ART = "prior_art"
    VALUE = "value"


class Gate(_Model):
    name: GateName
    verdict: Verdict = Verdict.UNKNOWN
    reasons: list[str] = Field(default_factory=list)


class Recommendation(StrEnum):
    VALIDATE = "值得验证"
    WATCH = "观察"
    DEFER = "暂缓"
    COUNTEREXAMPLE = "反例"


class Novelty(StrEnum):
    """How a finding relates to time (CONVENTIONS §3)."""

    NEW_RELEASE = "new-release"
    NEW_PROGRESS = "new-progress"
    HISTORICAL = "historical"
    BASELINE = "baseline"


class TouchPoint(_Model):
    """A concrete place in the host project a finding touches."""

    kind: str
    """path, skill, doc, module, test, pr or issue."""
    ref: str
    """A path relative to the host root, or `owner/repo#N` for a PR/issue."""
    reason: str = ""
    score: float = 0.0
    state: str | None = None
    """open / merged / closed for PRs and issues."""


class ValidationProposal(_Model):
    """A minimal validation proposal; never an authorised experiment."""

    hypothesis: str
    baseline: str
    metrics: list[str]
    budget: str
    stop_condition: str


class Finding(_Model):
    """A project as assessed on a date."""

    project_key: str
    name: str
    date: date
    url: str = ""
    former_names: list[str] = Field(default_factory=list)
    """Earlier names of the project (renames, transfers), shown as "X（原 Y）"."""
    snapshot: Snapshot | None = None
    novelty: Novelty = Novelty.NEW_RELEASE
    mechanism: str = ""
    """What the project does, in one or two sentences."""
    prior_art: str = ""
    why: str = ""
    tags: dict[str, list[Tag]] = Field(default_factory=dict)
    """Dimension id -> tags (see the taxonomy profile)."""
    rsi_target: str | None = None
    """engine or harness."""
    claims: list[Claim] = Field(default_factory=list)
    gates: list[Gate] = Field(default_factory=list)
    maturity: str = "idea"
    flags: list[str] = Field(default_factory=list)
    recommendation: Recommendation = Recommendation.WATCH
    priority: str = "P2"
    horizon: str = "Watch"
    """Now, Next or Watch."""
    touch_points: list[TouchPoint] = Field(default_factory=list)
    relation: str = "extensible-gap"
    family: str | None = None
    """Mechanism family id (see history.py)."""
    related: list[str] = Field(default_factory=list)
    """Earlier findings of the same mechanism family, as project keys."""
    differs: str = ""
    """What differs from the related findings."""
    proposal: ValidationProposal | None = None
    evidence_id: str = ""
    """S1...Sn in the report's evidence index."""

    def values(self, dimension: str) -> list[str]:
        """Value ids of one dimension, in order."""
        return [tag.value for tag in self.tags.get(dimension, [])]


class Correction(_Model):
    project_key: str
    name: str
    text: str
    supersedes: str = ""
    """The date or finding the correction applies to."""


class Coverage(_Model):
    queries: list[str] = Field(default_factory=list)
    sources: dict[str, str] = Field(default_factory=dict)
    """source name -> health (ok, failed: ..., stale since ...)."""
    excluded: list[str] = Field(default_factory=list)
    dedup_scope: int = 0
    window_start: datetime | None = None
    window_end: datetime | None = None


class Report(_Model):
    """The findings of one day plus header, summary, corrections and coverage."""

    date: date
    cutoff: datetime
    """Evidence cut-off, timezone-aware; rendered in Beijing time."""
    host_name: str | None = None
    host_sha: str | None = None
    host_rechecked: bool = False
    host_remote_sha: str | None = None
    """GitHub's head of the host's default branch when it differs from the local checkout."""
    findings: list[Finding] = Field(default_factory=list)
    corrections: list[Correction] = Field(default_factory=list)
    coverage: Coverage = Field(default_factory=Coverage)
    not_run: str = "未运行测试、模型、GPU或付费实验"
    language: str = "zh"
