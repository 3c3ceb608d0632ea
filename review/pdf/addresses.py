"""Street addresses in page text: US, UK and European postal formats (Django-free).

An address is a street line (a building number and a street whose type the country's
post office lists: "Court", "road", "-straße", "rue", "Calle", "-katu", "tér",
"Λεωφόρος") optionally followed by a unit ("Apt. 4", "Flat 2", "Piso 3") and the lines
of its block as that country writes them: the town with its postcode or state
("Springfield, IL 62704", "London\\nSW1A 1AA", "10115 Berlin", "114 55 Stockholm"), the
country. A street with no type word ("Pärna 33") is an address on a line of its own
above a town's postcode or a country, on one line with a postcode that is no year and
its town ("Ilica 10, 10000 Zagreb"), or after words that announce one ("lives at", "my
address is"). Page text joins words with " " and lines with "\\n", so a line break
may fall anywhere between the parts. Pure regular expressions: no parser library
(`usaddress`, `pyap`) covered more than the US and Canada.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from review.pdf.name_words import CAPITAL

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
    "Views?|Villages?|Ville|Vista|Walks?|Wall|Ways?|Wells?|Wharf|Yard|"
    # Australia and New Zealand add a few.
    "Parade|Esplanade|Promenade|Glade|Wynd|Crossway"
)
# Police and court records write addresses in capitals too ("2210 W. 18TH ST").
_ANY_SUFFIX = rf"(?:{_SUFFIXES}|{_SUFFIXES.upper()})"
_NAME = rf"[{CAPITAL}][\w'’.-]*"  # a capitalised word of a street or city name
# A street's name word: capitalised, or a numbered street ("7th Street", "42nd St").
_STREET_WORD = rf"(?:{_NAME}|\d{{1,3}}(?:st|nd|rd|th|ST|ND|RD|TH))"
# The quadrant after the street type, as Washington, DC writes it ("Street S.W.", "Ave NW").
_QUADRANT = r"(?:[ ](?:[NS]\.?[EW]|[NSEW])\.?(?!\w))"
_GAP = r"[ \n]"  # page text separates words by a space, lines by a line break
_UNIT = (
    r"(?:,?[ \n](?i:Apt\.?|Apartment|Suite|Ste\.?|Unit|Room|Floor|Fl\.?|Bldg\.?|#)"
    r"[ ]?[\w-]{1,6})"
)
_FLAT = r"(?:Flat|Studio|Apartment|FLAT|STUDIO|APARTMENT)"
_UK_POSTCODE = r"[A-Z]{1,2}\d[A-Z\d]?[ ]?\d[A-Z]{2}(?!\w)"
_US_TAIL = rf"(?:,?{_GAP}(?:{_NAME}[ ]){{0,3}}{_NAME},?[ ][A-Z]{{2}}[ ]\d{{5}}(?:-\d{{4}})?)"
_CITY = rf"(?:{_NAME}[ ]){{0,3}}{_NAME}"
# Canada: province and postal code ("Toronto, ON M5V 3L9"); Australia: state and postcode
# ("Coogee NSW 2034"); Ireland: county and Eircode ("Ballina, Co. Mayo, F26 X2Y3").
_CA_TAIL = (
    rf"(?:,?{_GAP}{_CITY},?[ ](?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)[ ]"
    r"[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ ]?\d[ABCEGHJ-NPRSTV-Z]\d)"
)
_AU_TAIL = rf"(?:,?{_GAP}{_CITY},?[ ](?:NSW|VIC|QLD|SA|WA|TAS|NT|ACT),?[ ]\d{{4}})"
_EIRCODE = r"(?:[AC-FHKNPRTV-Y]\d{2}|D6W)[ ]?[0-9AC-FHKNPRTV-Y]{4}"
_IE_TAIL = (
    rf"(?:,?{_GAP}(?:{_CITY},?{_GAP})?(?:Co\.|County)[ ]{_NAME}(?:,?{_GAP}{_EIRCODE})?"
    rf"|,?{_GAP}(?:{_CITY},?{_GAP})?{_EIRCODE})"
)
_UK_TAIL = rf"(?:,?{_GAP}(?:(?:{_NAME}[ ]){{0,3}}{_NAME},?{_GAP})?{_UK_POSTCODE})"
_EU_TAIL = (
    rf"(?:,?{_GAP}(?:\d{{5}}[ ](?:{_NAME}[ -]){{0,3}}{_NAME}"
    rf"|(?:{_NAME}[ ]){{0,3}}{_NAME},?[ ]\d{{5}}))"
)

_DE_STREET = r"(?i:straße|strasse|str\.|gasse|platz|ring|weg|allee|damm|ufer|chaussee)"
_FR_WORDS = (
    r"rue|avenue|av\.|boulevard|bd|chemin|chaussée|impasse|place|allée|quai|route|voie|"
    r"square|cours|passage|rond-point"
)
_FR_STREET = rf"(?i:{_FR_WORDS})"
_ES_STREET = (
    r"(?:Calle|C/|C\.|Avenida|Avda\.|Paseo|Plaza|Camino|Carretera|Ronda|Pasaje|"
    r"Pasadizo|Rambla|Vía|Via|Callejón|Callejon|Glorieta|Cuesta|Travesía|Urbanización|"
    r"Acceso|Alameda|Bajada|Cañada|Vial|Ramal|Rampa|Senda|Sector|Plazuela|Camino)"
)

# Italy: "Via Giuseppe Verdi, 12, 20121 Milano (MI)".
_IT_STREET = (
    r"(?:Via|Viale|Piazza|Piazzale|Piazzetta|Corso|Largo|Vicolo|Vico|Strada|Stretto|"
    r"Contrada|Borgo|Canale|Lungomare|Lungotevere|Salita|Rotonda|Galleria|Traversa|"
    r"Circonvallazione|Fondamenta)"
)
_IT_OF = r"(?:dei|degli|delle|della|dello|del|di|da|de)[ ]"
_IT_TAIL = rf"(?:,?{_GAP}\d{{5}},?[ ]{_CITY}(?:[ ]\([A-Z]{{2}}\))?)"
# The Netherlands: "Keizersgracht 123, 1015 CJ Amsterdam"; the street's type ends its
# last word. Types that are English words too need the postcode after them.
_NL_OWN = r"(?:straat|laan|gracht|plein|kade|dreef|singel|steeg|dijk|plantsoen)"
_NL_SHARED = r"(?:weg|hof|boulevard|pad|park|ring|markt|baan)"
_NL_WORDS = rf"(?:(?:{_NAME}|van|de|der|den|het|ter|te)[ ]){{0,3}}[{CAPITAL}][\w'’-]*"
_NL_NUMBER = r"[ ]\d{1,5}(?:[ -]?[A-Za-z]{1,2}\b|[-/]\d{1,4})?"
_NL_TAIL = rf"(?:,?{_GAP}\d{{4}}[ ]?[A-Z]{{2}},?[ ]{_CITY})"
# Poland: "ul. Brzozowa 10/03, 31-615 Bydgoszcz", "al. Jana III Sobieskiego 93/28".
_PL_STREET = (
    r"(?:ul\.|ulica|al\.|aleja|pl\.|plac|os\.|osiedle|Ul\.|Ulica|Al\.|Aleja|Pl\.|Plac|Os\.|Osiedle)"
)
_PL_TAIL = rf"(?:,?{_GAP}\d{{2}}-\d{{3}}[ ]{_CITY})"
# Portugal: "Rua das Flores, 37, 4050-265 Porto", "Alameda de Oliveira, S/N, ...".
_PT_STREET = (
    r"(?:Rua|Avenida|Av\.?|Alameda|Largo|Travessa|Praça|Praceta|Estrada|Calçada|Beco|"
    r"Rotunda|Bairro|Quinta|Urbanização|Caminho)"
)
_PT_OF = r"(?:da|de|do|das|dos|e)[ ]"
_PT_TAIL = rf"(?:,?{_GAP}\d{{4}}-\d{{3}}[ ](?:{_PT_OF}|{_NAME}[ -]){{0,4}}{_NAME})"

# Northern and central Europe. Finnish, Swedish, Danish, Norwegian and Estonian glue
# the street's type to its name ("Koskikatu 25", "Drottninggatan 5", "Vesterbrogade
# 10"); Norwegian also writes it apart ("Karl Johans gate 22"), as Hungarian ("Piroska
# u. 97.", "Erzsébet tér 19."), Latvian ("Brīvības iela 12") and Lithuanian ("Vilniaus
# g. 5") do; Greek and Romanian put it first ("Λεωφόρος Συγγρού 119", "Strada Lipscani
# 12"). English words that end the same way ("Tollgate") are not street types here:
# "gate" is taken only apart, after a name.
_GLUED_TYPES = (
    r"katu|tie|kuja|polku|tori|väylä|kaari|rinne|raitti|gatan|vägen|gränd|gränden|torget|"
    r"stigen|backen|gade|vej|stræde|plads|vænget|veien|vegen|gata|stien|plassen|tänav"
)
_APART_TYPES = (
    r"gate|gata|vei|veg|utca|u\.|út|útja|tér|tere|körút|krt\.|rakpart|rkp\.|sétány|köz|"
    r"fasor|iela|gatvė|g\.|pr\.|prospektas|ulica|cesta|trg|náměstí|nám\.|třída|nábřeží|"
    r"námestie|nábrežie"
)
_FIRST_TYPES = (
    r"Οδός|Οδ\.|Λεωφόρος|Λεωφ\.|Λ\.|Πλατεία|Πλ\.|Odos|Leoforos|Plateia|Strada|Str\.|"
    r"Bulevardul|Bd\.|Calea|Aleea|Piața|Șoseaua|Splaiul|Trg|Ulica|Ul\.|Triq|Vjal|Pjazza"
)
# A building number as northern and central Europe write it: "25", "25 A", "25 A 5",
# "10-12", "3/4", Hungarian "97." with a full stop.
_EU_NUMBER = r"\d{1,4}(?:[ ]?[A-Za-z](?![\w.]))?(?:[ ]\d{1,3}(?!\d))?(?:[-/]\d{1,4})?\.?"
# "00100", "114 55", "LV-1050".
_EU_POSTCODE = r"(?:[A-Z]{1,2}-)?(?:\d{3}[ ]\d{2}|\d{4,6})"
_TOWN_PARTICLE = (
    r"(?:de|del|la|le|les|di|da|do|dos|das|du|van|von|der|den|sur|am|an|im|upon|en|y|i)"
)
# Words that are no town's, so a date or a greeting is not read as one ("21 March 2021
# Mr Walton", "(DOB 10 June 1943)").
_MONTHS = (
    r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|January|February|March|"
    r"April|June|July|August|September|October|November|December)"
)
_NOT_TOWN = rf"(?!(?:{_MONTHS}|Mr|Mrs|Ms|Miss|Dr|Dear|On|In|At|DOB)\b)"
_TOWN_WORD = rf"{_NOT_TOWN}(?:{_NAME}|[{CAPITAL}])"
_TOWN = rf"{_TOWN_WORD}(?:[ -](?:{_TOWN_PARTICLE}[ -]){{0,2}}(?:{_TOWN_WORD}|\d{{1,2}})){{0,3}}"
# Postcode then town ("00100 Helsinki", "114 55 Stockholm", "LV-1050 Rīga", "2100
# København Ø", "33820 Soto del Barco"), or town then postcode.
_NORTH_TAIL = rf"(?:,?{_GAP}(?:{_EU_POSTCODE}[ ]{_TOWN}|{_TOWN},?[ ]{_EU_POSTCODE}))"

_SUFFIX_WORDS = frozenset(
    form.casefold()
    for word in _SUFFIXES.split("|")
    for form in ((word[:-2], word[:-1]) if word.endswith("s?") else (word,))
)
_WORD = re.compile(r"\w+")


def is_street_type(word: str) -> bool:
    """Whether `word` is a street's type as the USPS lists them ("Road", "Park")."""
    return word.casefold() in _SUFFIX_WORDS


def _has_street_suffix(lowered: str) -> bool:
    return not _SUFFIX_WORDS.isdisjoint(_WORD.findall(lowered))


def _contains(pattern: str) -> Callable[[str], bool]:
    """A search of the lower-cased text for literal words: re's fast path, where the
    address patterns (capitalised names, optional groups first) try every position."""
    search = re.compile(pattern).search
    return lambda lowered: search(lowered) is not None


_DE_NEEDS = _contains(r"(?:straße|strasse|str\.|gasse|platz|ring|weg|allee|damm|ufer|chaussee) \d")

# Each pattern with a test for what any text it matches must contain, which settles most
# pages without trying the pattern itself.
_PATTERNS: tuple[tuple[str, Callable[[str], bool], re.Pattern[str]], ...] = (
    (
        "us_uk",
        _has_street_suffix,
        re.compile(
            rf"(?<![\w-])(?:(?:{_FLAT}|Unit|UNIT|Suite|Apt\.?)[ ]\d+[A-Za-z]?,?{_GAP})?"
            rf"(?:\d{{1,4}}/)?\d{{1,6}}[A-Z]?[ ](?:[NSEW]\.?[ ])?(?:{_STREET_WORD}{_GAP}){{1,3}}"
            rf"{_ANY_SUFFIX}\b\.?{_QUADRANT}?{_UNIT}?"
            rf"(?:{_US_TAIL}|{_UK_TAIL}|{_CA_TAIL}|{_AU_TAIL}|{_IE_TAIL})?"
        ),
    ),
    (
        "uk_flat",  # "Flat 3\nBennett Mall\nEast Harrietport\nN8 8HN": no building number
        _contains(r"(?:flat|studio|apartment) \d"),
        re.compile(
            rf"(?<![\w-]){_FLAT}[ ]\d+[A-Za-z]?,?{_GAP}(?:{_NAME}{_GAP}){{1,3}}"
            rf"{_ANY_SUFFIX}\b\.?{_UK_TAIL}?"
        ),
    ),
    (
        "de",  # "Beckergasse 8\n63608 Zschopau", "Anne-Kathrin-Kreusel-Ring 10-57"
        _DE_NEEDS,
        re.compile(
            rf"(?<![\w-])(?:{_NAME}[ -])?[A-ZÄÖÜ][\wäöüß-]*{_DE_STREET}[ ]\d{{1,4}}[a-z]?(?:[-/]\d{{1,4}})?{_EU_TAIL}?"
        ),
    ),
    (
        "de_words",  # "Am Markt 3", "Berliner Straße 5"
        _DE_NEEDS,
        re.compile(
            rf"(?<![\w-])(?:{_NAME}[ ]){{1,3}}(?:Straße|Strasse|Str\.|Gasse|Platz|Ring|Weg|"
            rf"Allee|Damm|Ufer|Chaussee)[ ]\d{{1,4}}[a-z]?(?:[-/]\d{{1,4}})?{_EU_TAIL}?"
        ),
    ),
    (
        # "87, rue de Barre\n29793 Samson", "avenue Julie Ledoux\n97310 ..."; Belgium and
        # Switzerland put the number after the name: "Rue de la Loi 16, 1000 Bruxelles".
        "fr",
        _contains(rf"(?:{_FR_WORDS}) "),
        re.compile(
            r"(?<![\w-])(?:\d{1,4}(?:[ ]?(?:bis|ter))?,?[ ])?"
            rf"{_FR_STREET}[ ]"
            rf"(?:(?:de[ ]la|de[ ]l'|de|des|du|d')[ ]?)?(?:{_NAME}[ ]){{0,3}}{_NAME}"
            r"(?:,?[ ]\d{1,4}(?:[ ]?(?:bis|ter|[A-Za-z]))?(?![\w/-]))?"
            rf"{_EU_TAIL}?"
        ),
    ),
    (
        "es",  # "Paseo de Ágata Cabo 24\nToledo, 47608", "Pasaje J. P. Granados 115 Apt. 08"
        _contains(rf"(?:{_ES_STREET.lower()}) "),
        re.compile(
            rf"(?<![\w-]){_ES_STREET}[ ]"
            r"(?:(?:de[ ]la|de[ ]los|de[ ]las|del|de)[ ])?"
            rf"(?:{_NAME}[ ]){{1,4}}\d{{1,4}}(?:,?[ ](?:(?:Puerta|Piso|Apt\.|Apto\.|Esc\.)[ ]?\d{{1,3}}"
            r"|\d{1,2}[º°ª](?:[ ]?(?:[A-Z]|izq(?:da)?\.?|dcha?\.?|izquierda|derecha|centro|"
            r"ctro\.?))?(?![\w])))*"
            rf"{_EU_TAIL}?"
        ),
    ),
    (
        "it",
        _contains(rf"(?:{_IT_STREET.lower()}) "),
        re.compile(
            rf"(?<![\w-]){_IT_STREET}[ ](?:{_IT_OF})?{_NAME}(?:[ ](?:{_IT_OF})?{_NAME}){{0,3}}"
            r",?[ ]\d{1,4}(?:[ ]?[A-Za-z](?!\w)|/[A-Za-z\d]{1,3})?"
            r"(?:,?[ ](?:Piano|Appartamento|Scala|Interno|Int\.)[ ]\w{1,4})*"
            rf"{_IT_TAIL}?"
        ),
    ),
    (
        "nl",
        _contains(rf"(?:{_NL_OWN}|{_NL_SHARED}) \d"),
        re.compile(
            rf"(?<![\w-]){_NL_WORDS}(?:{_NL_OWN}{_NL_NUMBER}{_NL_TAIL}?"
            rf"|{_NL_SHARED}{_NL_NUMBER}{_NL_TAIL})"
        ),
    ),
    (
        "pl",
        _contains(r"(?:ul\.|ulica|al\.|aleja|pl\.|plac|os\.|osiedle) "),
        re.compile(
            # Not a citation's "et al. Nature 2019".
            rf"(?<![\w-])(?<!et[ ]){_PL_STREET}[ ]{_NAME}(?:[ ](?:{_NAME}|[IVX]+)){{0,3}}"
            rf"[ ]\d{{1,4}}[A-Za-z]?(?:/\d{{1,4}}[A-Za-z]?)?{_PL_TAIL}?"
        ),
    ),
    (
        "pt",
        _contains(rf"(?:{_PT_STREET.lower()}) "),
        re.compile(
            rf"(?<![\w-]){_PT_STREET}[ ](?:{_PT_OF})?{_NAME}(?:[ ](?:{_PT_OF})?{_NAME}){{0,3}}"
            r",?[ ](?:\d{1,4}[A-Za-z]?|S/N)(?:,?[ ]\d{1,2}º?[ ]?(?:Esq\.?|Dto\.?|Esquerdo|Direito))?"
            rf"{_PT_TAIL}?"
        ),
    ),
    (
        "north_glued",
        _contains(rf"(?:{_GLUED_TYPES}) \d"),
        re.compile(
            rf"(?<![\w-])[{CAPITAL}][\w'’-]*(?:{_GLUED_TYPES})[ ]{_EU_NUMBER}{_UNIT}?{_NORTH_TAIL}?"
        ),
    ),
    (
        "type_apart",
        _contains(rf"(?:{_APART_TYPES}) \d"),
        re.compile(
            rf"(?<![\w-])(?:{_NAME}[ ]){{1,3}}(?:{_APART_TYPES})[ ]{_EU_NUMBER}{_UNIT}?"
            rf"{_NORTH_TAIL}?"
        ),
    ),
    (
        "type_first",
        _contains(rf"(?:{_FIRST_TYPES.lower()}) "),
        re.compile(
            # Maltese joins the article to the name: "Triq il-Merkanti 5".
            rf"(?<![\w-])(?:{_FIRST_TYPES})[ ](?:(?:[a-z]{{1,3}}['’-])?{_NAME}[ ]){{1,3}}"
            rf"{_EU_NUMBER}{_UNIT}?"
            rf"{_NORTH_TAIL}?"
        ),
    ),
    (
        "po_box",  # "PO Box 1234, Austin, TX 78701", "Rural Route 2, Box 17, Elk City, OK 73644"
        _contains(r"(?:p\.? ?o\.? ?box|post office box|rural route|rr) \d"),
        re.compile(
            r"(?<![\w-])(?:P\.?[ ]?O\.?[ ]?Box|Post[ ]Office[ ]Box|Rural[ ]Route|RR)[ ]\d{1,6}"
            rf"(?:,?[ ]Box[ ]\d{{1,5}})?(?:{_US_TAIL}|{_UK_TAIL})?"
        ),
    ),
    (
        "us_military",  # "PSC 1241, Box 5868\nAPO AP 25384", "USNS Sandoval\nFPO AE 64077"
        _contains(r"(?:psc|unit|cmr|usns|uss|uscgc) "),
        re.compile(
            r"(?<![\w-])(?:(?:PSC|Unit|CMR)[ ]\d{1,5},?[ ]Box[ ]\d{1,5}|(?:USNS|USS|USCGC)"
            rf"(?:[ ]{_NAME}){{1,2}})(?:,?{_GAP}(?:APO|FPO|DPO)[ ]A[AEP][ ]\d{{5}})?"
        ),
    ),
)


# What may follow a street line, on the same line after a comma or on the lines below:
# units, the town with its state or postcode, the country. A town alone is taken only
# when something stronger follows it ("Artilleros\nUruguay 64677"), so an address above
# "Dear Sir," stays an address of its own.
_COUNTRIES = (
    "Austria|Belgium|Bulgaria|Croatia|Cyprus|Czech Republic|Czechia|Denmark|Estonia|"
    "Finland|France|Germany|Greece|Hungary|Iceland|Ireland|Italy|Latvia|Liechtenstein|"
    "Lithuania|Luxembourg|Malta|Netherlands|The Netherlands|Norway|Poland|Portugal|Romania|"
    "Slovakia|Slovenia|Spain|Sweden|Switzerland|United Kingdom|UK|Great Britain|England|"
    "Scotland|Wales|Northern Ireland|United States|United States of America|USA|U\\.S\\.A\\.|"
    "Canada|Mexico|Brazil|Argentina|Uruguay|Chile|Australia|New Zealand|South Africa|"
    "Tunisia|Morocco|Israel|Turkey|Ukraine|Japan|China|India|Greenland|"
    "Deutschland|España|Italia|Sverige|Suomi|Danmark|Norge|Nederland|België|Belgique|"
    "Österreich|Schweiz|Suisse|Polska|Česko|Magyarország|Ελλάδα|Κύπρος|Éire"
)
_STATE = r"[A-Z]{2,3}"
# US, European, UK, Canadian, Dutch, Irish (Eircode) and Maltese ("VLT 1171") postcodes.
_POSTCODE = (
    rf"(?:\d{{5}}(?:-\d{{4}})?|{_EU_POSTCODE}|{_UK_POSTCODE}|{_EIRCODE}|[A-Z]{{3}}[ ]\d{{4}}"
    r"|[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ ]?\d[ABCEGHJ-NPRSTV-Z]\d|\d{4}[ ]?[A-Z]{2}(?!\w))"
)
# A unit and its number ("Apt. 4", "Suite 12B"); not the start of a word ("United").
_UNIT_PART = (
    r"(?i:Apt\.?|Apartment|Suite|Ste\.?|Unit|Flat|Room|Floor|Fl\.?|Bldg\.?|\#)"
    r"[ ]?(?=[\w-]{0,5}\d)[\w-]{1,6}"
)
# A country, or a postcode with its town or state, or alone at the end of its line or
# sentence (not a year inside one: "March 14, 1985 in Ohio").
_PLACE = (
    rf"(?:(?:{_COUNTRIES})(?:[ ]\([{CAPITAL}][\w ]*\))?(?:,?[ ]{_POSTCODE})?"
    rf"|{_TOWN},?[ ](?:{_STATE},?[ ])?{_POSTCODE}|(?:{_STATE}[ ])?{_POSTCODE}[ ]{_TOWN}"
    rf"|{_STATE}[ ]{_POSTCODE}|{_POSTCODE}(?=[ ]*(?:\n|$)|[,;.?!](?:\s|$)))(?![\w@])"
)
_WEAK = rf"(?:{_TOWN}(?:,?[ ]{_STATE})?|{_STATE})(?![\w@])"
# Quoted lines of an e-mail reply come with their quote marks blanked: "\n   Apt. 4".
_NEXT = r"(?:,?[ ]|,?[ ]?\n[ ]*,?[ ]?)"
_CONTINUATION = re.compile(
    rf"(?:(?:{_NEXT}{_WEAK}){{0,2}}{_NEXT}(?:{_UNIT_PART}(?![\w@])|{_PLACE})){{1,5}}"
)
# Words a document numbers that are no street's ("Section 5", "Docket 2291", the IRS's
# "Cat. No. 20975C" above "Form 1040").
_NOT_STREET = (
    r"(?!(?:Section|Chapter|Article|Page|Paragraph|Part|Volume|Exhibit|Appendix|Annex|"
    r"Schedule|Item|Figure|Table|Note|Case|Docket|Request|Invoice|Order|Rule|Form|No|Nr)\b)"
)
# A street's name in words: letters, joined by hyphens or apostrophes ("Pärna",
# "Μεγάλη Άμμος"), not a code of letters and digits ("GB52").
_STREET_NAME = rf"{_NOT_TOWN}{_NOT_STREET}[{CAPITAL}][^\W\d_]*(?:[-'’][^\W\d_]+)*\.?"
# A street with no type word at all ("Pärna 33", "Tylova 285", "Golfskálinn 78"): an
# address only as a line of its own, in a block of lines that reaches a town's postcode
# or a country within a few lines.
_UNTYPED_STREET = re.compile(
    rf"^[ ]*(?:\d{{1,6}}[ ])?(?:{_STREET_NAME}[ ]){{1,3}}\d{{1,5}}[A-Za-z]?(?=,?[ ]*\n)"
    rf"(?=(?:{_NEXT}{_UNIT_PART}){{0,2}}(?:{_NEXT}{_WEAK}){{0,2}}{_NEXT}{_PLACE})",
    re.M,
)
# Or on one line with a postcode that is no year, and its town: "Ilica 10, 10000 Zagreb",
# "Hlavná 5, 040 01 Košice", "Grand-Rue 1, L-1661 Luxembourg".
_UNTYPED_STREET_INLINE = re.compile(
    # The capital first: re skips ahead on it, past the lookarounds at every position.
    rf"(?=[{CAPITAL}])(?<![\w-])(?:{_STREET_NAME}[ ]){{1,3}}\d{{1,5}}[A-Za-z]?,[ ]"
    rf"(?:[A-Z]{{1,2}}-\d{{4,5}}|\d{{5}}|\d{{3}}[ ]\d{{2}})[ ]{_TOWN}(?![\w@])"
)
# Words that announce an address ("my new address is", "lives at", "send it to"):
# after them a street of any country's form, a name and a building number ("Kaevu 94",
# "Μεγάλη Άμμος 184"), is an address whatever follows it.
_ADDRESS_CUE = re.compile(
    # The lookahead on the cues' first letters lets re skip ahead (3x faster).
    r"(?=[abdflmrsABDFLMRS])(?i:\baddress(?:es)?(?:[ ](?:is|was|are|of[ ][^\n]{1,40}?[ ]is))?:?"
    r"|\b(?:lives?|living|resides?|residing|resided|located|situated|based)[ ]at"
    r"|\b(?:moved|send|sent|ship|shipped|mail|mailed|deliver|delivered|return|returned|"
    r"forward|forwarded)(?:[ ][\w']+){0,4}?[ ]to)[ ]?\n?[ ]*"
)
_CUED_STREET = re.compile(rf"(?:\d{{1,6}}[ ])?(?:{_STREET_NAME}[ ]){{1,4}}{_EU_NUMBER}(?![\w@])")
_UNIT_WORD_AT_END = re.compile(r"[ ,]+(?:Apt|Apartment|Suite|Ste|Unit|Flat|Room|Floor|Bldg)\.?$")
# A second building number before the street's own ("28245 Puruntie 82"), as address
# generators and some forms write the street line.
_NUMBER_BEFORE = re.compile(r"(?<![\w.,-])\d{1,6}[ ]$")


def find_addresses(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, detector) of each street address, longest first where they overlap."""
    spans: list[tuple[int, int, str]] = []
    lowered = text.lower()
    for name, needed, pattern in _PATTERNS:
        if needed(lowered):
            spans.extend(_grown(text, m.start(), m.end(), name) for m in pattern.finditer(text))
    for untyped in (_UNTYPED_STREET, _UNTYPED_STREET_INLINE):
        spans.extend(_grown(text, m.start(), m.end(), "untyped") for m in untyped.finditer(text))
    for cue in _ADDRESS_CUE.finditer(text):
        street = _CUED_STREET.match(text, cue.end())
        if street:
            spans.append(_grown(text, street.start(), street.end(), "cued"))
    spans.sort(key=lambda span: (span[0], -(span[1] - span[0])))
    last_end = -1
    for start, end, name in spans:
        if start >= last_end:
            yield start, end, name
            last_end = end


def _grown(text: str, start: int, end: int, name: str) -> tuple[int, int, str]:
    """A street line's match with the lines of its address that follow it and a second
    building number before it."""
    while end > start and text[end - 1] in " ,\n":
        end -= 1
    # A unit's word the street's name words took in ("62 Rue Gafsa Apt" of "... Apt. 981"):
    # the unit follows whole.
    unit_word = _UNIT_WORD_AT_END.search(text, start, end)
    end = unit_word.start() if unit_word else end
    more = _CONTINUATION.match(text, end)
    before = _NUMBER_BEFORE.search(text, max(0, start - 8), start)
    return (before.start() if before else start, more.end() if more else end, name)
