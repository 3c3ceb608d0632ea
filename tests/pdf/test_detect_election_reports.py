"""An election report's precincts and lines are no people, its candidates are: a given
name led "Marion Township Precinct 2" and "Thomas Township Precinct 3" as people, and
every occurrence then proposed "Precinct" alone on every page (a county's statement of
votes cast, openelections' Michigan sources)."""

from __future__ import annotations

from testkit.corpus import simple_pdf
from tests.pdf.test_detect_entities import people_in

LINES: list[str] = []
for precinct in ("Birch Run Township Precinct 1", "Marion Township Precinct 2"):
    LINES += [
        precinct,
        "Straight Party Ticket",
        "REP - Republican Party 312",
        "DEM - Democratic Party 289",
        "Presidential Electors",
        "REP - Donald J Trump/Michael R Pence 512",
        "DEM - Hillary Clinton/Tim Kaine 498",
        "Write-In 4",
        "Thomas Township Precinct 3",
    ]
REPORT = simple_pdf(LINES)


def test_a_township_precinct_is_no_person_and_the_candidates_are() -> None:
    people = people_in(REPORT)
    assert not [p for p in people if "Precinct" in p or "Township" in p or "Write" in p]
    named = " ".join(people)
    for candidate in ("Donald J Trump", "Michael R Pence", "Hillary Clinton", "Tim Kaine"):
        assert candidate in named
