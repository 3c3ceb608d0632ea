"""Street addresses in page text: US, UK and EU postal formats (Django-free).

An address is a street line (a building number and a street whose type the country's
post office lists: "Court", "road", "-straße", "rue", "Calle") optionally followed by
a unit ("Apt. 4", "Flat 2", "Piso 3") and the city-and-postcode line as that country
writes it ("Springfield, IL 62704", "London\\nSW1A 1AA", "10115 Berlin",
"Madrid, 28001"). Page text joins words with " " and lines with "\\n", so a line break
may fall anywhere between the parts. Pure regular expressions: no parser library
(`usaddress`, `pyap`) covered more than the US and Canada.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# USPS street suffixes (Publication 28, C1) with their standard abbreviations; the UK
# uses the same words.
_SUFFIXES = (
    "Alley|Allee|Annex|Arcade|Avenue|Ave|Bayou|Beach|Bend|Bluffs?|Bottom|Boulevard|Blvd|"
    "Branch|Bridge|Brooks?|Burgs?|Bypass|Camp|Canyon|Cape|Causeway|Centers?|Circles?|Cir|"
    "Cliffs?|Close|Club|Common|Corners?|Course|Courts?|Ct|Coves?|Creek|Crescent|Crest|"
    "Crossing|Crossroad|Curve|Dale|Dam|Divide|Drives?|Dr|Estates?|Expressway|Extensions?|"
    "Falls?|Ferry|Fields?|Flats?|Fords?|Forest|Forges?|Forks?|Fort|Freeway|Gardens?|"
    "Gateway|Glens?|Greens?|Groves?|Harbors?|Haven|Heights|Highway|Hwy|Hills?|Hollow|Inlet|"
    "Islands?|Isle|Junctions?|Keys?|Knolls?|Lakes?|Land|Landing|Lane|Ln|Lights?|Loaf|"
    "Locks?|Lodge|Loop|Mall|Manors?|Meadows?|Mews|Mills?|Mission|Motorway|Mount|"
    "Mountains?|Neck|Orchard|Oval|Overpass|Parks?|Parkways?|Pkwy|Pass|Passage|Path|Pike|"
    "Pines?|Place|Pl|Plains?|Plaza|Points?|Ports?|Prairie|Radial|Ramp|Ranch|Rapids?|Rest|"
    "Ridges?|River|Roads?|Rd|Route|Row|Rue|Run|Shoals?|Shores?|Skyway|Springs?|Spurs?|"
    "Squares?|Sq|Station|Stravenue|Stream|Streets?|St|Summit|Terrace|Ter|Throughway|Trace|"
    "Track|Trafficway|Trail|Trl|Tunnel|Turnpike|Underpass|Unions?|Valleys?|Via|Viaduct|"
    "Views?|Villages?|Ville|Vista|Walks?|Wall|Ways?|Wells?|Wharf|Yard"
)
_NAME = r"[A-ZÀ-ÖØ-Þ][\w'’.-]*"  # a capitalised word of a street or city name
_GAP = r"[ \n]"  # page text separates words by a space, lines by a line break
_UNIT = (
    r"(?:,?[ \n](?:Apt\.?|Apartment|Suite|Ste\.?|Unit|Room|Floor|Fl\.?|Bldg\.?|#)"
    r"[ ]?[\w-]{1,6})"
)
_UK_POSTCODE = r"[A-Z]{1,2}\d[A-Z\d]?[ ]?\d[A-Z]{2}"
_US_TAIL = rf"(?:,?{_GAP}(?:{_NAME}[ ]){{0,3}}{_NAME},?[ ][A-Z]{{2}}[ ]\d{{5}}(?:-\d{{4}})?)"
_UK_TAIL = rf"(?:,?{_GAP}(?:(?:{_NAME}[ ]){{0,3}}{_NAME},?{_GAP})?{_UK_POSTCODE})"
_EU_TAIL = (
    rf"(?:,?{_GAP}(?:\d{{5}}[ ](?:{_NAME}[ -]){{0,3}}{_NAME}"
    rf"|(?:{_NAME}[ ]){{0,3}}{_NAME},?[ ]\d{{5}}))"
)

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "us_uk",
        re.compile(
            rf"(?<![\w-])(?:(?:Flat|Studio|Apartment|Unit)[ ]\d+[A-Za-z]?,?{_GAP})?"
            rf"\d{{1,6}}[A-Z]?[ ](?:[NSEW]\.?[ ])?(?:{_NAME}[ ]){{1,3}}(?:{_SUFFIXES})\b\.?"
            rf"{_UNIT}?(?:{_US_TAIL}|{_UK_TAIL})?"
        ),
    ),
    (
        "uk_flat",  # "Flat 3\nBennett Mall\nEast Harrietport\nN8 8HN": no building number
        re.compile(
            rf"(?<![\w-])(?:Flat|Studio|Apartment)[ ]\d+[A-Za-z]?,?{_GAP}(?:{_NAME}[ ]){{1,3}}"
            rf"(?:{_SUFFIXES})\b\.?{_UK_TAIL}?"
        ),
    ),
    (
        "de",  # "Beckergasse 8\n63608 Zschopau", "Anne-Kathrin-Kreusel-Ring 10-57"
        re.compile(
            rf"(?<![\w-])(?:{_NAME}[ -])?[A-ZÄÖÜ][\wäöüß-]*"
            r"(?i:straße|strasse|str\.|gasse|platz|ring|weg|allee|damm|ufer|chaussee)"
            rf"[ ]\d{{1,4}}[a-z]?(?:[-/]\d{{1,4}})?{_EU_TAIL}?"
        ),
    ),
    (
        "de_words",  # "Am Markt 3", "Berliner Straße 5"
        re.compile(
            rf"(?<![\w-])(?:{_NAME}[ ]){{1,3}}(?:Straße|Strasse|Str\.|Gasse|Platz|Ring|Weg|"
            rf"Allee|Damm|Ufer|Chaussee)[ ]\d{{1,4}}[a-z]?(?:[-/]\d{{1,4}})?{_EU_TAIL}?"
        ),
    ),
    (
        "fr",  # "87, rue de Barre\n29793 Samson", "avenue Julie Ledoux\n97310 ..."
        re.compile(
            r"(?<![\w-])(?:\d{1,4}(?:[ ]?(?:bis|ter))?,?[ ])?"
            r"(?i:rue|avenue|av\.|boulevard|bd|chemin|impasse|place|allée|quai|route|voie|"
            r"square|cours|passage|rond-point)[ ]"
            rf"(?:(?:de[ ]la|de[ ]l'|de|des|du|d')[ ]?)?(?:{_NAME}[ ]){{0,3}}{_NAME}"
            rf"{_EU_TAIL}?"
        ),
    ),
    (
        "es",  # "Paseo de Ágata Cabo 24\nToledo, 47608", "Pasaje J. P. Granados 115 Apt. 08"
        re.compile(
            r"(?<![\w-])(?:Calle|C/|C\.|Avenida|Avda\.|Paseo|Plaza|Camino|Carretera|Ronda|Pasaje|"
            r"Pasadizo|Rambla|Vía|Via|Callejón|Callejon|Glorieta|Cuesta|Travesía|Urbanización|"
            r"Acceso|Alameda|Bajada|Cañada|Vial|Ramal|Rampa|Senda|Sector|Plazuela|Camino)[ ]"
            r"(?:(?:de[ ]la|de[ ]los|de[ ]las|del|de)[ ])?"
            rf"(?:{_NAME}[ ]){{1,4}}\d{{1,4}}(?:,?[ ](?:Puerta|Piso|Apt\.|Apto\.|Esc\.)[ ]?\d{{1,3}})*"
            rf"{_EU_TAIL}?"
        ),
    ),
    (
        "us_military",  # "PSC 1241, Box 5868\nAPO AP 25384", "USNS Sandoval\nFPO AE 64077"
        re.compile(
            r"(?<![\w-])(?:(?:PSC|Unit|CMR)[ ]\d{1,5},?[ ]Box[ ]\d{1,5}|(?:USNS|USS|USCGC)"
            rf"(?:[ ]{_NAME}){{1,2}})(?:,?{_GAP}(?:APO|FPO|DPO)[ ]A[AEP][ ]\d{{5}})?"
        ),
    ),
)


def find_addresses(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, detector) of each street address, longest first where they overlap."""
    spans: list[tuple[int, int, str]] = []
    for name, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            end = m.end()
            while end > m.start() and text[end - 1] in " ,\n":
                end -= 1
            spans.append((m.start(), end, name))
    spans.sort(key=lambda span: (span[0], -(span[1] - span[0])))
    last_end = -1
    for start, end, name in spans:
        if start >= last_end:
            yield start, end, name
            last_end = end
