"""What detection looks for and how it labels it (Django-free): `DetectionPolicy`, which
the detection service builds from a policy version and the submission's jurisdiction,
and the check of the detection settings a compliance officer edits in the admin."""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field

from review.pdf import nlp
from review.pdf.patterns import ALL_CATEGORIES, SEARCH_TERM, Hit


@dataclass(frozen=True, kw_only=True)
class DetectionPolicy:
    """What to look for and how to label it.

    `salt` keys the HMAC of matched text; it must be non-empty (an unsalted hash of a
    nine-digit SSN is trivially reversible). Mappings are not copied: do not mutate
    them after building the policy.
    """

    salt: bytes
    categories: frozenset[str] = ALL_CATEGORIES
    min_confidence: Mapping[str, float] = field(default_factory=dict)
    default_min_confidence: float = 0.0
    legal_reasons: Mapping[str, str] = field(default_factory=dict)
    default_reason: str = ""
    search_terms: tuple[str, ...] = ()
    ocr: bool = True
    ocr_dpi: int = 200
    ocr_language: str = "eng"
    # Full mode: Presidio with the spaCy pipeline finds names, places and organisations.
    ner: bool = False
    nlp_pipeline: str = nlp.DEFAULT_PIPELINE
    # Regions whose national phone formats are read (ISO 3166 codes, e.g. "GB").
    phone_regions: tuple[str, ...] = ("US",)
    # (category, text) of entities found in the other documents of the submission:
    # proposed wherever they occur here too. In memory only, never stored.
    known_entities: tuple[tuple[str, str], ...] = ()
    # The numbers found for their labels in the other documents (their hits, placed
    # nowhere): proposed wherever they occur here too. In memory only, never stored.
    known_numbers: tuple[Hit, ...] = ()

    def __post_init__(self) -> None:
        if not self.salt:
            raise ValueError("DetectionPolicy.salt must be non-empty")

    def enabled(self, category: str) -> bool:
        if category == SEARCH_TERM:
            return SEARCH_TERM in self.categories and bool(self.search_terms)
        return category in self.categories

    def threshold(self, category: str) -> float:
        return self.min_confidence.get(category, self.default_min_confidence)

    def reason(self, category: str) -> str:
        return self.legal_reasons.get(category, self.default_reason)

    def text_hash(self, normalized: str) -> str:
        """The salted HMAC a mark carries in place of the text it matched."""
        return hmac.digest(self.salt, normalized.encode("utf-8"), "sha256").hex()


def detection_settings_errors(categories: object, by_jurisdiction: object) -> list[str]:
    """What is wrong with a policy's detection settings, each naming the bad value."""
    errors: list[str] = []
    if not isinstance(categories, list) or not all(isinstance(c, str) for c in categories):
        return ["categories: must be a list of category names"]
    errors.extend(
        f"categories: unknown category {c!r}" for c in categories if c not in ALL_CATEGORIES
    )
    if not isinstance(by_jurisdiction, dict):
        return [*errors, "detection_by_jurisdiction: must be an object keyed by jurisdiction code"]
    for code, settings in by_jurisdiction.items():
        where = f"detection_by_jurisdiction[{code!r}]"
        if not isinstance(settings, dict):
            errors.append(f"{where}: must be an object")
            continue
        unknown_keys = set(settings) - {"categories", "min_confidence", "phone_regions"}
        errors.extend(f"{where}: unknown setting {key!r}" for key in sorted(unknown_keys))
        for category in settings.get("categories", []):
            if category not in ALL_CATEGORIES:
                errors.append(f"{where}.categories: unknown category {category!r}")
        for category, value in dict(settings.get("min_confidence", {})).items():
            if category not in ALL_CATEGORIES:
                errors.append(f"{where}.min_confidence: unknown category {category!r}")
            elif not isinstance(value, int | float) or not 0 <= value <= 1:
                errors.append(
                    f"{where}.min_confidence[{category!r}]: {value!r} is not between 0 and 1"
                )
        for region in settings.get("phone_regions", []):
            if region not in nlp.PHONE_REGIONS:
                errors.append(f"{where}.phone_regions: {region!r} is not a phone region code")
    return errors
