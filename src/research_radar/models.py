"""Domain types of the radar: Source, Snapshot, Project, Claim, Finding, Report.

These are pure, validated data objects (pydantic v2). They never touch the network, the
database, files or the clock; every stage of the pipeline reads and returns them.
The words follow DESIGN.md.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from enum import StrEnum
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = [
    "BEIJING",
    "Claim",
    "ClaimKind",
    "Conditions",
    "Correction",
    "Coverage",
    "Derivation",
    "Difference",
    "Exclusion",
    "ExclusionReason",
    "Finding",
    "Gate",
    "GateName",
    "GateReason",
    "Insight",
    "Metric",
    "Novelty",
    "PendingDifference",
    "PriorSearch",
    "PriorWork",
    "Project",
    "Recommendation",
    "Report",
    "Snapshot",
    "Source",
    "SourceKind",
    "StopCondition",
    "Tag",
    "TouchPoint",
    "ValidationProposal",
    "Verdict",
    "WrittenProposal",
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


class GateReason(_Model):
    """Why a gate has its verdict: a reason id and its facts; report/ words it.

    `id` is a `GateReason.IDS` entry (`note` keeps a text as written). Facts hold claim
    numbers, versions, dates, names, refs, missing condition names, the prior art.
    """

    IDS: ClassVar[frozenset[str]] = frozenset(
        {
            "note",
            "no-claims",
            "claim-withdrawn",
            "claim-failure",
            "claim-correctness-check",
            "no-pinned-version",
            "no-correctness-evidence",
            "no-measured-claim",
            "claim-lacks",
            "single-run",
            "no-tail-latency",
            "author-only",
            "no-dated-version",
            "head-age",
            "historical-claim",
            "not-news",
            "reported-before",
            "same-family",
            "prior-art-named",
            "no-difference",
            "prior-art-unnamed",
            "nothing-new",
            "differs-structurally",
            "prior-art-source-down",
            "prior-art-not-searched",
            "prior-art-none-close",
            "prior-art-nearest",
            "no-touch-point",
            "touches",
            "touch-point-unnamed",
            "host-not-checked",
        }
    )

    id: str
    facts: dict[str, Any] = Field(default_factory=dict)

    @field_validator("id")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in cls.IDS:
            raise ValueError(f"unknown gate reason {value!r}")
        return value


class Gate(_Model):
    name: GateName
    verdict: Verdict = Verdict.UNKNOWN
    reasons: list[GateReason] = Field(default_factory=list)

    @field_validator("reasons", mode="before")
    @classmethod
    def _text_reasons(cls, value: Any) -> Any:
        """Reasons stored as sentences (before reasons had ids) load as notes."""
        if isinstance(value, list):
            return [
                {"id": "note", "facts": {"text": r}} if isinstance(r, str) else r for r in value
            ]
        return value


class Recommendation(StrEnum):
    """How strongly a finding is recommended. Labels: report/strings.toml `rec_<id>`."""

    VALIDATE = "validate"
    WATCH = "watch"
    DEFER = "defer"
    COUNTEREXAMPLE = "counterexample"


_LEGACY_RECOMMENDATION = {
    "值得验证": Recommendation.VALIDATE,
    "观察": Recommendation.WATCH,
    "暂缓": Recommendation.DEFER,
    "反例": Recommendation.COUNTEREXAMPLE,
}
"""The values stores and JSON held before recommendations had ids (issue #12)."""


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


class StopCondition(_Model):
    """When a proposed experiment stops, and when its result is INCONCLUSIVE."""

    halt_on: list[Literal["correctness", "quality"]]
    """Stop when any of these regresses by more than `tolerance`."""
    tolerance: float = 0.0
    """Percent; 0 stops at the first regression."""
    inconclusive_on: list[Literal["within-noise", "no-quality-data", "budget-spent"]]
    """Record INCONCLUSIVE when the gain is within the repeats' spread, quality data is
    missing or the budget is spent."""


class ValidationProposal(_Model):
    """A minimal validation proposal built from a headline claim; never an authorised
    experiment. Facts only: report/ writes the hypothesis, baseline and stop sentences."""

    setup: Conditions
    """Hardware, model, precision, load and baseline of the claim to re-measure."""
    claimed: list[Metric]
    """The claim's own numbers that the hypothesis restates."""
    metrics: list[str]
    """Names of the claim's metrics to measure."""
    guards: list[Literal["task-quality", "latency-percentiles"]]
    """Measured beside them: task quality on a fixed held-out set, p50/p95/p99 latency."""
    gpu_hours: float
    """Budget: at most this many GPU hours, on the claim's hardware."""
    repeats: int
    """Runs per configuration."""
    stop: StopCondition


class WrittenProposal(_Model):
    """A proposal as a person wrote it, quoted in any language; also how proposals stored
    before they were structured load."""

    hypothesis: str
    baseline: str
    metrics: list[str]
    budget: str
    stop_condition: str


class Derivation(_Model):
    """The project is an independent derivative of another, its nearest prior work."""

    parent: str
    """The parent's canonical key."""
    evidence: list[str] = Field(default_factory=list)
    """Why it is a derivative and not a plain fork (from resolve)."""


class PriorWork(_Model):
    """An earlier work found by the prior-art search (analyse/prior_art.py)."""

    key: str
    name: str
    when: date | None = None
    """When it was first reported, published or created."""
    origin: Literal["history", "arxiv", "linked", "today"]
    """Where it was found: the store's earlier findings, arXiv, a link of the finding's own
    README/abstract, or another finding of the same day."""
    score: float = 0.0
    """Similarity to the finding (0..1)."""


class PriorSearch(_Model):
    """What the prior-art search looked at: candidates per origin, and origins that were down."""

    searched: dict[str, int] = Field(default_factory=dict)
    down: list[str] = Field(default_factory=list)
    method: str = ""
    """embeddings or bm25."""


class Difference(_Model):
    """What a finding adds over its nearest prior art and family, from structure (facts only)."""

    against: list[PriorWork] = Field(default_factory=list)
    """The works compared with, nearest first."""
    mechanisms: list[str] = Field(default_factory=list)
    """Mechanism tag values the finding has and they lack."""
    levels: list[str] = Field(default_factory=list)
    workloads: list[str] = Field(default_factory=list)
    hardware: list[str] = Field(default_factory=list)
    models: list[str] = Field(default_factory=list)
    precisions: list[str] = Field(default_factory=list)
    evidence: list[Literal["code", "numbers", "complete-conditions", "independent"]] = Field(
        default_factory=list
    )

    @property
    def empty(self) -> bool:
        """Nothing structural is new."""
        return not (
            self.mechanisms
            or self.levels
            or self.workloads
            or self.hardware
            or self.models
            or self.precisions
            or self.evidence
        )


class Insight(_Model):
    """The facts the 新增机制 cell is written from (analyse/insight.py); report/ words them."""

    hardware: list[str] = Field(default_factory=list)
    models: list[str] = Field(default_factory=list)
    precisions: list[str] = Field(default_factory=list)
    headline: int | None = None
    """1-based index of the headline claim (complete conditions), if any."""
    quote: str = ""
    """The source's own sentence, quoted as its words."""
    text: str = ""
    """A sentence written by the optional LLM, kept only when every fact in it is grounded."""


class PendingDifference(_Model):
    """What a finding adds over earlier projects is still to be written by a person."""

    names: list[str]
    """The nearest earlier projects, nearest first."""
    family: bool = False
    """True when they are found as the mechanism family's members."""
    words: list[str] = Field(default_factory=list)
    """Distinctive words of this finding that the nearest project lacks."""


_LEGACY_PENDING = (
    re.compile(r"^待补：相对 (?P<names>.+) 的新增工作，需人工核对$"),
    re.compile(r"^待补：相对同族 (?P<names>.+?) 的差异(?:（区别词：(?P<words>.+)）)?$"),
)
_LEGACY_DERIVED = re.compile(r"^衍生自 (?P<parent>\S+)：(?P<evidence>.*)$", re.S)


_LEGACY_FIELDS = ("differs", "differs_pending", "prior_art", "derived_from")


def _legacy_finding(data: dict[str, Any]) -> dict[str, Any]:
    """Findings stored before issue #12 kept generated Chinese sentences (a difference
    still to write, a derivative's parent); read the facts back."""
    data = dict(data)
    differs = data.get("differs")
    for family, pattern in enumerate(_LEGACY_PENDING):
        found = pattern.match(differs) if isinstance(differs, str) else None
        if found and not data.get("differs_pending"):
            words = found.groupdict().get("words")
            data["differs"] = ""
            data["differs_pending"] = PendingDifference(
                names=found["names"].split("、"),
                family=bool(family),
                words=words.split("、") if words else [],
            )
    prior = data.get("prior_art")
    found = _LEGACY_DERIVED.match(prior) if isinstance(prior, str) else None
    if found and not data.get("derived_from"):
        data["prior_art"] = ""
        data["derived_from"] = Derivation(
            parent=f"gh:{found['parent']}", evidence=found["evidence"].split("；")
        )
    return data


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
    """The nearest prior work as the source or a person names it."""
    derived_from: Derivation | None = None
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
    """What differs from the related findings, as a person wrote it."""
    differs_pending: PendingDifference | None = None
    """Set instead of `differs` while nobody has written it yet."""
    prior_works: list[PriorWork] = Field(default_factory=list)
    """The 1-3 nearest earlier works the prior-art search found, nearest first."""
    prior_search: PriorSearch | None = None
    """None: the prior-art search did not run."""
    difference: Difference | None = None
    """What the finding adds over its nearest prior art and family (structural)."""
    insight: Insight | None = None
    proposal: ValidationProposal | WrittenProposal | None = None
    evidence_id: str = ""
    """S1...Sn in the report's evidence index."""

    @field_validator("recommendation", mode="before")
    @classmethod
    def _legacy_recommendation(cls, value: Any) -> Any:
        return _LEGACY_RECOMMENDATION.get(value, value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _legacy(self) -> Finding:
        # After validation, not before: a before-validator takes pydantic off its direct
        # JSON path and doubles the cost of reading a stored finding (issue #18).
        if (self.differs and not self.differs_pending) or (
            self.prior_art and not self.derived_from
        ):
            facts = {name: getattr(self, name) for name in _LEGACY_FIELDS}
            read = _legacy_finding(facts)
            for name in _LEGACY_FIELDS:
                if read[name] is not facts[name]:
                    self.__dict__[name] = read[name]  # no assignment validation: no loop
        return self

    def values(self, dimension: str) -> list[str]:
        """Value ids of one dimension, in order."""
        return [tag.value for tag in self.tags.get(dimension, [])]


class Correction(_Model):
    project_key: str
    name: str
    text: str
    supersedes: str = ""
    """The date or finding the correction applies to."""


class ExclusionReason(StrEnum):
    """Why a candidate is left out of the day's report."""

    PLAIN_FORK = "plain-fork"
    ALREADY_REPORTED = "already-reported"
    """Reported before, no substantive change since."""
    UPDATE_NOT_REPORTED = "update-not-reported"
    """Reported before and updated since; the first-discovered policy does not report it."""


class Exclusion(_Model):
    """A candidate left out of the day's report; report/ words the reason."""

    name: str
    project_key: str
    reason: ExclusionReason
    parent: str | None = None
    """plain-fork: the parent's canonical key."""
    last_reported: date | None = None
    """When it was last reported; None when only "earlier" is known."""


class Coverage(_Model):
    queries: list[str] = Field(default_factory=list)
    sources: dict[str, str] = Field(default_factory=dict)
    """source name -> health (ok, failed: ..., stale since ...)."""
    excluded: list[Exclusion] = Field(default_factory=list)
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
    not_run: str = ""
    """What was not run, when a run says more than the standard sentence (empty: the
    standard sentence in the report's language)."""
    language: str = "zh"
