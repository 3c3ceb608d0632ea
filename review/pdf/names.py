"""Names known by their cues, not by the language model (Django-free): after a title,
signing a letter (above the signer's job or under the valediction), beside the person's
part in the case; and what makes a run of words a plausible name at all. Spans only:
`patterns` makes them hits, as it does the addresses of `addresses.py`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# Words of a job or a form's field, which the small English model takes for names.
_NOT_NAME_WORDS = frozenset(
    "officer manager director clerk secretary department authority council office address "
    "name phone telephone email date signature applicant complainant requester case file "
    "reference subject inc ltd llc gmbh plc sa the team unit service services records "
    "centre center plan group board committee division bureau agency staff all kg ag sarl "
    "sas sl corp co company llp lp mbh ohg ug s.a s.l e.v s.a.r.l s.r.l b.v n.v s.p.a role "
    "kgaa gbr stiftung s.com s.coop s.c.p s.l.l inn employer studio flat suite "
    "statement form report summary details notice letter interview madam".split()
)


def plausible_name(value: str) -> bool:
    """A person's name has letters only (no digits or slashes: "FOI/2021/6862"), is not
    one all-capital acronym ("PHRX"), and names no job or form field ("Case Officer")."""
    words = value.split()
    if any(ch.isdigit() or ch in "/@#:" for ch in value):
        return False
    if len(words) == 1 and value.isupper():
        return False
    return not any(w.strip(".,").casefold() in _NOT_NAME_WORDS for w in words)


# Titles and ranks written before a name.
TITLES = (
    r"Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Lord|Lady|Judge|Officer|Det|Sgt|Capt|"
    r"Herr|Frau|M|Mme|Mlle|Me|Sr|Sra|Srta|Don|Doña"
)
_TITLE_WORDS = frozenset(t.casefold() for t in TITLES.split("|"))
# What a language model's name reading runs into at its ends without being part of the
# name: a table's next cell (a role) or a record's field label. Titles stay: "Don" and
# "Judge" are names too, and a title kept is only redacted with its name.
_EDGE_WORDS = _NOT_NAME_WORDS | frozenset(
    "witness witnesses plaintiff plaintiffs defendant defendants claimant claimants "
    "respondent respondents appellant petitioner tenant "
    "landlord investigator patient victim suspect deceased dob ssn tel fax mobile mob "
    "nhs ni nino ref mrn cc bcc from to sent attn v vs counsel attorney "
    # a greeting's words, before the name the model reads them with
    "dear hi hello thanks estimado estimada sehr geehrte geehrter liebe lieber bonjour "
    "cher chère hola".split()
)

# A capitalised word of a name: "O'Brien" keeps its apostrophe, "Doe's" loses the "'s".
NAME_WORD = r"[A-ZÀ-ÖØ-Þ][\w-]*(?:['’][A-Za-z]{2,}[\w-]*)?"
# Lower-case particles inside a name ("Ludwig van der Berg", "María de los Ángeles
# García", "Ali bin Hassan"): never to be left visible between two redacted words.
PARTICLE = r"(?:van|von|der|den|de|del|della|di|da|dos|das|du|la|le|los|las|y|bin|ibn|al|el|ter|zu)"
# A name's next word: a capitalised word, after its particles if it has any.
NEXT_NAME_WORD = rf"(?:{PARTICLE}[ ]){{0,3}}{NAME_WORD}"
_TITLED_NAME = re.compile(
    r"(?<![\w-])(?:(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Herrn?|Frau|Mme|Mlle|Sr|Sra|Srta)\.?"
    r"|/s/)[ \n]"  # an electronic signature too: "/s/ Tomasz Wojcik"
    rf"((?:{PARTICLE}[ ]){{0,3}}{NAME_WORD}(?:[ -]{NEXT_NAME_WORD}){{0,2}})"
)
# A speaker in a transcript, in capitals after the title ("MS. OKONJO: Objection.").
_SPEAKER = re.compile(r"(?m)^[ ]*(?:MR|MRS|MS|DR)\.[ ]([A-Z][A-Z'’-]+(?:[ ][A-Z][A-Z'’-]+)?):")
# A signature: a line that is only a name, at a line start or after a sentence, above
# the signer's job ("Paige Miah\nCase Officer, Customer Contact Centre").
_SIGNED_NAME = re.compile(
    rf"(?:^|\n|\. )({NAME_WORD}(?: {NEXT_NAME_WORD}){{1,3}}) ?\n(?=[^\n]{{0,40}}?\b(?:"
    r"Officer|Manager|Director|Clerk|Secretary|Coordinator|Adviser|Advisor|Lead|Head|"
    r"Analyst|Assistant|Caseworker|Investigator|Controller|Counsel)\b)"
)

# Ranks a military signature opens with ("V/R,\nMaj. Dana Ruiz").
_MILITARY_RANKS = r"Maj|Col|LtCol|Gen|Adm|Cmdr|Cdr|Cpt|Pvt|Ens|SSgt|MSgt|CPO|PO"
# A signature under the valediction, on a line of its own ("Yours sincerely,\nGuy Fleury";
# "Kind regards\nGwen", "Thanks,\nPriya": colleagues sign with the given name alone).
_VALEDICTED_NAME = re.compile(
    r"(?:^|\n|[.!?][ ])[ ]*(?i:yours sincerely|yours faithfully|yours truly|sincerely|kind regards|best regards|"
    r"warm regards|regards|best wishes|all the best|best|(?:many )?thanks|thank you|cheers|"
    r"take care|respectfully|very respectfully|v/r|cordially|mit freundlichen grüßen|"
    r"cordialement|atentamente|signed|signature)[,:!]?[ ]*\n[ ]*"
    rf"(?:(?:{TITLES}|{_MILITARY_RANKS})\.?[ ])?({NAME_WORD}(?: {NEXT_NAME_WORD}){{0,3}})[ ,]*(?=\n|$)"
)
# The person a letter or an e-mail greets or thanks, opening its line or sentence ("Dear
# Eilidh,", "Hi Priya,", "Thanks Marek."), given name alone or whole; not after a title
# (the titled cue reads "Dear Mr Haddad").
_GREETED_NAME = re.compile(
    r"(?:^|\n|[.!?][ ])[ ]*(?i:dear|hi|hello|hey|good[ ](?:morning|afternoon|evening)|"
    r"(?:many[ ])?thanks|thank[ ]you)[ ,]+"
    rf"(?!(?:{TITLES})\.?[ ])({NAME_WORD}(?:[ ]{NEXT_NAME_WORD}){{0,2}})(?=[ ]*(?:[,!:;.\n]|$))"
)
# Whom a greeting or a sign-off names that is no person: "Dear Colleagues", "Hi All",
# "Regards,\nFinance".
_NOT_ADDRESSEES = frozenset(
    "all everyone everybody colleague colleagues customer customers friend friends folks "
    "guys there member members parent parents resident residents partner partners neighbour "
    "neighbor neighbours neighbors sirs both again finance housing legal "
    "compliance hr admin administration support reception operations payroll accounts "
    "procurement planning licensing communications marketing sales security facilities "
    "management governance".split()
)
# A surname alone after an officer's rank, as police and investigators' reports write
# it ("Officer Delgado interviewed", "Sgt. Okonkwo arrived", "SA Finley, who"); ranks
# may stack ("Detective Sergeant Lowe"). The name ends at punctuation, a lower-case word,
# a badge number or the line's end; the words after a rank that are no one's name
# ("Officer Safety", "Inspector General") are left.
_RANKS = (
    r"Officer|Detective|Sergeant|Constable|Deputy|Trooper|Inspector|(?:Special[ ])?Agent|"
    r"Corporal|Lieutenant|Captain|Investigator|Sheriff|Marshal|Sgt|Det|Insp|Lt|Capt|Cpl|"
    r"Ptl|Tpr|Ofc|PC|DC|DS|DI|DCI|SA|SSA"
)
_RANKED_SURNAME = re.compile(
    rf"(?<![\w-])(?:(?:{_RANKS})\.?[ ]){{1,2}}({NAME_WORD})"
    r"(?=[,;:)]|\.(?:\s|$)|[ ][a-z]|[ ]*(?:\n|$)|[ ]#)"
)
_NOT_AFTER_RANK = (
    frozenset(
        "safety training involved general chief commissioner superintendent commander mayor "
        "governor minister head down first friendly special".split()
    )
    | frozenset(_RANKS.casefold().replace("(?:special[ ])?", "").split("|"))
    | _TITLE_WORDS
)
# A person named beside their part in the case ("A neighbour, Araceli Canet Calvo, of
# ..."), the name ending at punctuation or a verb: the model reads many such names as
# organisations.
_ROLE_NAMED = re.compile(
    r"(?<![\w-])(?i:a|an|the|our|his|her|their|my|your)[ \n](?:[a-z-]+[ \n])?"
    r"(?i:neighbou?r|witness|complainant|applicant|requester|claimant|tenant|"
    r"landlord|employee|patient|client|victim|suspect|resident|spouse|wife|husband|partner|"
    r"son|daughter|mother|father|brother|sister|friend|colleague|caseworker|data subject)"
    rf",?[ \n]({NAME_WORD}(?:[ \n-]{NEXT_NAME_WORD}){{1,3}})"
    r"(?=[,;:)]|\.(?:\s|$)|\s(?:of|at|from|who|and|said|stated|wrote|told|was|is|has|had)\b)"
)
# A name after the person's part in the case or their rank, written as a title without
# an article ("Plaintiff Maria Elena Ruiz alleges", "Defendant Tomasz Wójcik denies",
# "Witness Ines Okafor saw", "Nurse Kateryna Bondarenko,"): the model cuts such names
# short or misses them. The name ends at punctuation, a lower-case word or the line's end.
_PARTY_NAMED = re.compile(
    r"(?<![\w-])(?:Plaintiff|Defendant|Petitioner|Respondent|Appellant|Appellee|Movant|"
    r"Claimant|Complainant|Applicant|Requester|Witness|Tenant|Landlord|Patient|Victim|"
    r"Suspect|Decedent|Employee|Inmate|Detainee|Affiant|Declarant|Deponent|Nurse|Sister|Inspector|Sergeant|Constable|"
    r"Detective|Officer|Deputy|Agent|Judge|Justice|Reverend|Father|Pastor|Rabbi|Imam|"
    r"Professor|Doctor|Lieutenant|Captain|Sgt|Det|Insp|Lt|Capt|PC|DC|DS|DI|DCI)s?\.?[ ]"
    rf"({NAME_WORD}(?:[ -]{NEXT_NAME_WORD}){{1,3}})"
    r"(?=[,;:)]|\.(?:\s|$)|[ ][a-z]|[ ]*(?:\n|$))"
)
# A party named in a case's title ("Commonwealth v. Darnell Washington", "Ruiz v. Acme",
# "In re the Estate of Harold P. Lindqvist", "Matter of Ana Ruiz"): a name of two words or
# more, middle initials included. The State, the People and other public parties are no
# names; nor is what "In re" alone names ("In re Grand Jury Subpoena").
_CASE_NAME = rf"{NAME_WORD}(?:[ ](?:[A-Z]\.|{NEXT_NAME_WORD})){{1,3}}"
_CASE_PARTY = re.compile(
    rf"(?<![\w-])(?:({_CASE_NAME})[ ]vs?\.[ ](?=[A-Z])|vs?\.[ ]({_CASE_NAME})(?![\w-])"
    r"|(?i:estate|matter|guardianship|conservatorship|adoption|marriage)[ ]of[ ]"
    rf"(?:the[ ])?({_CASE_NAME})(?![\w-]))"
)
_PUBLIC_PARTIES = frozenset(
    "state people commonwealth united states america city county department government "
    "republic kingdom crown regina rex board authority".split()
)


# The name an e-mail address is written with: before it in angle brackets ("Ana Lima
# <ana.lima@example.org>") or after it in parentheses ("ana.lima@example.org (Ana Lima)").
_ADDRESSEE = rf"({NAME_WORD}(?:[ ](?:[A-Z]\.|{NEXT_NAME_WORD})){{1,3}})"
_EMAIL_NAMED = re.compile(
    rf"(?<![\w-]){_ADDRESSEE}[ ]?<[^\s<>@]+@[^\s<>@]+>|[^\s()@]+@[^\s()@]+[ ]?\({_ADDRESSEE}\)"
)


# What follows a company's name ("Isa Montoya Cerro S.L.", "Smith & Co"), not a person's.
_COMPANY_AFTER = re.compile(r"\s*(?:&|[A-Z]\.[A-Z]\.|(?:Ltd|LLC|Inc|GmbH|plc|SARL|AG|KG)\b)")
# A company's legal form after its name, which a language model reads as a person's
# ("Hoffmann Krause KGaA", "Pavón y Hierro S.Com."); not "M.D." after a doctor's name.
_LEGAL_FORM_AFTER = re.compile(
    r",?[ ]*(?:(?:Ltd|LLC|LLP|Inc|Corp|GmbH|mbH|plc|SARL|SAS|AG|KG|KGaA|GbR|OHG|SE|Stiftung)\b"
    r"|(?:S\.A|S\.L|S\.L\.L|S\.A\.S|S\.R\.L|B\.V|N\.V|S\.p\.A|e\.V|S\.Com|S\.Coop|S\.C\.P)\.)"
)


# A record's field for a person, or an e-mail's header, and the names after its colon
# ("Victim: NGUYEN, THI MAI (F, DOB ...)", "To: Okafor, Chinwe <...>; Lindqvist, Erik").
_NAME_FIELD = re.compile(
    r"(?m)^[ ]*(?i:(from|to|cc|bcc)|(?:reporting |investigating |arresting )?officer|victim|"
    r"suspect|witness|complainant|patient|name|full name|claimant|applicant|requester|"
    r"requestor|tenant|landlord|attending|physician|emergency contact|contact|employee|"
    r"defendant|plaintiff|respondent|next of kin|parent|guardian|spouse|data subject|"
    r"attn|attention|interviewee|caller|driver|owner|affiant|declarant|deponent)[ ]?:[ ]?([^\n]+)"
)
_RANKS = r"Ptl|Pvt|Cpl|Lt|Insp|Supt|PC|DC|NP|RN"
# The name at the start of a field's value: surname first, or given name first.
_FIELD_NAME = re.compile(
    rf"(?:(?:{TITLES}|{_RANKS})\.?[ ])?"
    rf"({NAME_WORD},[ ]{NAME_WORD}(?:[ ](?:[A-Z]\.|{NAME_WORD}))?"
    rf"|{NAME_WORD}(?:[ ](?:[A-Z]\.|{NEXT_NAME_WORD})){{1,3}})(?![\w-])"
)


# A form's field for a name or a part of one, wherever it stands on its line: "Last
# Name: Okafor First Name: Chinwe", "Applicant's name: Priyanka Deshmukh", "Nom : DUPONT
# Prénom : Jean-Pierre", "Apellidos: García López", "Vorname: Jürgen". One word is
# enough, capitals too. Page text has one space between words, so the value ends where
# the next field's label begins (a name part's, or one word and a colon: "MI:"), at a
# bracket, a comma or the line's end.
_PERSON_QUALIFIERS = (
    r"applicant|patient|employee|child|client|claimant|student|tenant|witness|victim|"
    r"suspect|member|customer|requester|requestor|parent|guardian|spouse|mother|father|"
    r"contact|caller|officer|owner|driver|resident|beneficiary|insured|cardholder|"
    r"account[ ]holder|policyholder|subject|person|deceased|interviewee|signatory"
)
_NAME_PART_LABEL = (
    rf"(?i:(?:(?:{_PERSON_QUALIFIERS})(?:['’]s)?[ ])?"
    r"(?:(?:last|first|given|family|middle|maiden|birth|full|legal|preferred)[ ])?names?"
    r"|surname|forenames?|nom(?:[ ]de[ ]famille)?|prénoms?|apellidos?|nombre(?:[ ]completo)?"
    r"|nachname|familienname|vorname|geburtsname)[ ]?:"
)
_NAME_PART_FIELD = re.compile(
    rf"(?<![\w'’-])({_NAME_PART_LABEL})[ ]*"
    rf"({NAME_WORD}(?:[ ](?:[A-Z]\.|{NEXT_NAME_WORD})){{0,3}}?)"
    rf"(?=[ ]{_NAME_PART_LABEL}|[ ][\w'’]+[ ]?:|[ ]*(?:\n|$)|[ ]?\(|,)"
)


def _name_part_fields(text: str) -> Iterator[tuple[int, int]]:
    for m in _NAME_PART_FIELD.finditer(text):
        label, value = m[1], m[2]
        if label.rstrip(" :").casefold() in ("name", "names"):
            before = _WORD_BEFORE.search(text, max(0, m.start() - 30), m.start())
            if before is not None and before[1].casefold() in _NOT_PERSON_QUALIFIERS:
                continue  # "File name:", "Company name:": no person's
        # Capitals alone are a surname here ("DUPONT"), not an acronym; a letter is an
        # initial ("MI: A"), too little to redact as a name.
        if len(value) > 1 and plausible_name(value.title()):
            yield m.span(2)


_WORD_BEFORE = re.compile(r"(\w+)[ ]\Z")
_NOT_PERSON_QUALIFIERS = frozenset(
    "file company business trading organisation organization street road user domain host "
    "product project brand bank account school facility agency document program programme "
    "course event venue building site folder field variable table column group team vessel "
    "ship plan policy fund network device computer server printer app application store "
    "shop hotel restaurant location place city town country state county district species "
    "drug medication entity employer insurer provider practice hospital".split()
)


# The parties named in a court filing's caption, above their part ("JOHN DOE and MARIA
# ELENA RUIZ,\n Plaintiffs,"), in the capitals the small model does not read as names.
_CAPTION_PARTIES = re.compile(
    rf"(?:^|\n)[ ]*({NAME_WORD}(?: {NEXT_NAME_WORD}){{1,4}})"
    rf"(?:,? and ({NAME_WORD}(?: {NEXT_NAME_WORD}){{1,4}}))?,?[ ]*\n[ ]*"
    r"(?i:plaintiffs?|defendants?|petitioners?|respondents?|appellants?|appellees?|"
    r"claimants?|movants?)\b"
)


def _caption_parties(text: str) -> Iterator[tuple[int, int]]:
    for m in _CAPTION_PARTIES.finditer(text):
        for group in (1, 2):
            if (
                m[group]
                and plausible_name(m[group])
                and not _COMPANY_AFTER.match(text, m.end(group))
            ):
                yield m.span(group)


def _case_parties(text: str) -> Iterator[tuple[int, int]]:
    for m in _CASE_PARTY.finditer(text):
        group = next(g for g in (1, 2, 3) if m[g])
        name = _trimmed(text, m.start(group), m.end(group))
        if name is None:
            continue
        value = text[name[0] : name[1]]
        words = {w.strip(".,").casefold() for w in value.split()}
        if (
            " " in value
            and plausible_name(value)
            and words.isdisjoint(_PUBLIC_PARTIES)
            and not _COMPANY_AFTER.match(text, name[1])
            and not _LEGAL_FORM_AFTER.match(text, name[1])
        ):
            yield name


def _field_names(text: str) -> Iterator[tuple[int, int]]:
    """Names of two words or more that a record's person field or an e-mail header's
    address list opens with, each entry of a list (";") its own."""
    for field in _NAME_FIELD.finditer(text):
        entries = [field.start(2)]
        if field[1]:  # an e-mail header: one person an entry
            entries.extend(field.start(2) + i + 1 for i, ch in enumerate(field[2]) if ch == ";")
        for entry in entries:
            while entry < field.end(2) and text[entry] == " ":
                entry += 1
            m = _FIELD_NAME.match(text, entry, field.end(2))
            name = _trimmed(text, m.start(1), m.end(1)) if m else None
            if name is not None:
                value = text[name[0] : name[1]]
                if " " in value and plausible_name(value.replace(",", "")):
                    yield name


# Who attended a meeting or was copied, as minutes and memos list them ("Present: Joanna
# Wiśniewska (HR), Callum McAllister (employee),\nDeclan Byrne"; "Attendees: Chloe, Raj
# and Wojciech"): a list that runs on while its lines end with a comma, each entry a
# name with its part in brackets perhaps; given names alone too.
_ATTENDEE_LIST = re.compile(
    r"(?m)^[ ]*(?i:present|also present|attendees|attending|in attendance|apologies|"
    r"absent|distribution|copied to|participants)[ ]?:[ ]?((?:[^\n]*,[ ]*\n)*[^\n]*)"
)
_ATTENDEE = re.compile(
    rf"[ \n]*(?:(?:{TITLES})\.?[ ])?({NAME_WORD}(?:[ ](?:[A-Z]\.|{NEXT_NAME_WORD})){{0,3}})"
    r"[ ]*(?:\([^()\n]{0,40}\))?[ .]*"
)
_ATTENDEE_SEPARATOR = re.compile(r",|;|[ \n](?:and|&)[ ]")


def _attendees(text: str) -> Iterator[tuple[int, int]]:
    for field in _ATTENDEE_LIST.finditer(text):
        start = field.start(1)
        for separator in [*_ATTENDEE_SEPARATOR.finditer(text, start, field.end(1)), None]:
            end = separator.start() if separator else field.end(1)
            entry = _ATTENDEE.fullmatch(text, start, end)
            if entry is not None:
                value = entry[1]
                if plausible_name(value) and _bare_word(value) not in _NOT_ADDRESSEES:
                    yield entry.span(1)
            start = separator.end() if separator else end


def find_names_by_cue(text: str) -> Iterator[tuple[int, int, float, str]]:
    """(start, end, confidence, detector) of each name after a title, signing a letter,
    beside the person's part in the case or in a record's field for a person: the
    language model misses names it has not seen, and reads a signature with the job
    below it, or "a neighbour, Araceli Canet Calvo", as an organisation."""
    for m in _TITLED_NAME.finditer(text):
        titled = _trimmed(text, m.start(1), m.end(1))  # "Dr. Rajesh Iyer  Admitted:"
        if titled is not None:
            yield *titled, 0.9, "cue.titled_name"
    if ":" in text:
        for m in _SPEAKER.finditer(text):
            yield m.start(1), m.end(1), 0.9, "cue.speaker"
        for start, end in _field_names(text):
            yield start, end, 0.85, "cue.field_name"
        for start, end in _name_part_fields(text):
            yield start, end, 0.9, "cue.name_field"
        for start, end in _attendees(text):
            yield start, end, 0.85, "cue.attendee"
    for start, end in _caption_parties(text):
        yield start, end, 0.85, "cue.caption_party"
    for start, end in _case_parties(text):
        yield start, end, 0.9, "cue.case_party"
    if "@" in text:
        for m in _EMAIL_NAMED.finditer(text):
            group = 1 if m[1] else 2
            if plausible_name(m[group]):
                yield m.start(group), m.end(group), 0.9, "cue.email_name"
    for pattern, detector in ((_ROLE_NAMED, "cue.role_named"), (_PARTY_NAMED, "cue.party_named")):
        for m in pattern.finditer(text):
            name = m[1]
            if (
                plausible_name(name)
                and len(name.split()[-1]) > 1
                and not _COMPANY_AFTER.match(text, m.end(1))
                and not _LEGAL_FORM_AFTER.match(text, m.end(1))
            ):
                yield m.start(1), m.end(1), 0.85, detector
    for m in _RANKED_SURNAME.finditer(text):
        word = _bare_word(m[1])
        if plausible_name(m[1]) and word not in _EDGE_WORDS | _NOT_AFTER_RANK:
            yield m.start(1), m.end(1), 0.8, "cue.ranked_surname"
    for m in _GREETED_NAME.finditer(text):
        if plausible_name(m[1]) and _bare_word(m[1]) not in _NOT_ADDRESSEES:
            yield m.start(1), m.end(1), 0.85, "cue.greeted_name"
    if "\n" in text:
        for pattern in (_SIGNED_NAME, _VALEDICTED_NAME):
            for m in pattern.finditer(text):
                if plausible_name(m[1]) and _bare_word(m[1]) not in _NOT_ADDRESSEES:
                    yield m.start(1), m.end(1), 0.9, "cue.signed_name"


# The given name after a surname written first ("WILLIAMS, KAREN", "Gonzalez, Roberto").
# Not a firm's list of partners ("Johnson, Hardy and Smith").
_GIVEN_AFTER_COMMA = re.compile(
    rf",[ ]+({NAME_WORD}(?:[ ]{NAME_WORD})?)(?![\w-])(?![ ,]+(?:and|&)[ \n])"
)
_WORD_RUN = re.compile(r"\S+")
_TITLE_BEFORE = re.compile(rf"(?<![\w-])(?:{TITLES})\.?[ ]\Z")


def _value(text: str, span: tuple[int, int]) -> str:
    return text[span[0] : span[1]]


def name_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The name within a language model's person reading `text[start:end]`, or None
    when it holds none. Without a sentence around it the model reads across a table's
    cells and lines: the header above ("Email\nJean-Luc Moreau"), the next cell ("Hannah
    Schmidt Witness"), a field label ("Roberto DOB"), a rank alone ("Det"), half a
    hyphenated name ("Maria" of "Ana-Maria"). The name is the first line that reads as
    one, without the titles, roles and labels at its ends, in whole words, continued on
    the next line where it wraps; a surname written first at a line's start takes the
    given name after its comma ("WILLIAMS, KAREN", which alone is no acronym)."""
    start, end = _with_particles(text, *_whole_words(text, start, end))
    lines: list[tuple[int, int]] = []
    pos = start
    for line in text[start:end].split("\n"):
        lines.append((pos, pos + len(line)))
        pos += len(line) + 1
    named = [(i, span) for i, line in enumerate(lines) if (span := _trimmed(text, *line))]
    if not named:
        return None
    index, name = named[0]
    if (
        len(named) > 1
        and _TITLE_BEFORE.search(text, max(0, name[0] - 8), name[0])
        and " " not in _value(text, name)
    ):
        # "Dr. Chen" ends its line and another person opens the next ("Karen Williams"):
        # the title cue reads the first, the model's reading is the second.
        index, name = named[1]
    whole_line = _trimmed(text, *lines[index], trim=False)
    given = _GIVEN_AFTER_COMMA.match(text, name[1])
    if given is not None and " " not in _value(text, name) and _opens_line(text, name[0]):
        surname_first = _trimmed(text, name[0], given.end(1))
        if surname_first is not None and surname_first[1] > given.start(1):
            return surname_first
    value = _value(text, name)
    if not plausible_name(value) or (" " not in value and name != whole_line):
        return None  # one word left of a reading cut at its ends: "Role" of "Role Phone"
    name_start, name_end = name
    # A line read whole may wrap onto the next: the name goes on while lines read as one.
    next_line: tuple[int, int] | None = name
    while next_line == whole_line and index + 1 < len(lines):
        index += 1
        next_line = _trimmed(text, *lines[index])
        whole_line = _trimmed(text, *lines[index], trim=False)
        if next_line is None or not plausible_name(_value(text, next_line)):
            break  # the next cell's role or label ("Hannah Schmidt\nWitness")
        if next_line != whole_line or (
            " " in text[name_start:name_end] and " " in _value(text, next_line)
        ):
            break  # a name wraps once, mid-name: two whole names are two people (a list)
        name_end = next_line[1]
    if _LEGAL_FORM_AFTER.match(text, name_end):
        return None  # a company named after its founders
    return name_start, name_end


def _whole_words(text: str, start: int, end: int) -> tuple[int, int]:
    """`start` and `end` widened to whole words, across hyphens and apostrophes inside
    a word ("Ana-Maria", "O'Connor"), never into an e-mail address's dots or @."""
    while start > 0 and (
        text[start - 1].isalpha()
        or (text[start - 1] in "-'’" and start > 1 and text[start - 2].isalpha())
    ):
        start -= 1
    while end < len(text) and (
        text[end].isalpha()
        or (text[end] == "-" and end + 1 < len(text) and text[end + 1].isalpha())
    ):
        end += 1
    return start, end


# Particles before a name reading, with the given name before them ("Ludwig van der" of
# "Ludwig van der Berg"; "Van der" opening a sentence), and particles with the surname
# after one ("Ludwig" + " van der Berg").
_PARTICLES_BEFORE = re.compile(rf"(?<![\w-])(?:{NAME_WORD}[ ])?(?:(?i:{PARTICLE})[ ]){{1,3}}\Z")
_PARTICLES_AFTER = re.compile(rf"(?:[ ]{PARTICLE}){{1,3}}[ ]{NAME_WORD}(?![\w-])")


def _with_particles(text: str, start: int, end: int) -> tuple[int, int]:
    """`start` and `end` widened over the particles of a name and the words they join
    it to: the model reads "Ludwig" and "Berg" of "Ludwig van der Berg"."""
    before = _PARTICLES_BEFORE.search(text, max(0, start - 60), start)
    after = _PARTICLES_AFTER.match(text, end)
    return (before.start() if before else start), (after.end() if after else end)


def _trimmed(text: str, start: int, end: int, *, trim: bool = True) -> tuple[int, int] | None:
    """The words of `text[start:end]` without the roles and labels at either end
    (unless not `trim`), nor the punctuation after the last; None when nothing is left
    or only titles are."""
    words = [m.span() for m in _WORD_RUN.finditer(text, start, end)]
    while trim and words and _edge_word(text, *words[0]):
        words.pop(0)
    while trim and words and _edge_word(text, *words[-1]):
        words.pop()
    if all(_bare_word(text[a:b]) in _TITLE_WORDS for a, b in words):
        return None  # a rank alone ("Det" of "Det. Sgt.")
    first, last = words[0][0], words[-1][1]
    while last > first and not text[last - 1].isalnum():
        last -= 1
    return (first, last) if last > first else None


def _bare_word(word: str) -> str:
    return word.strip(".,;:()").casefold()


def _edge_word(text: str, start: int, end: int) -> bool:
    """Whether the word `text[start:end]` is a role, a label ("Admitted:", its colon
    perhaps past `end`; "MRN") or no word at all ("(F,")."""
    word = text[start:end]
    return (
        _bare_word(word) in _EDGE_WORDS
        or text[end - 1 : end + 1].endswith(":")
        or not any(c.isalpha() for c in word)
    )


def _opens_line(text: str, start: int) -> bool:
    return not text[text.rfind("\n", 0, start) + 1 : start].strip()
