"""Names known by their cues, not by the language model (Django-free): after a title,
signing a letter (above the signer's job or under the valediction), beside the person's
part in the case, greeted or listed as present, and (weakest) led by a given name
(`given_name_led`). Spans only: `patterns` makes them hits, as it does the addresses of
`addresses.py`. What a name's words are is `name_words`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from review.pdf.given_name_led import (
    GIVEN_NAME_LED_CONFIDENCE,
    LONE_GIVEN_NAME_CONFIDENCE,
    given_name_led,
    lone_given_names,
)
from review.pdf.given_names import WORD_GIVEN_NAMES, given_names
from review.pdf.name_words import (
    CAPITAL,
    COMPANY_AFTER,
    EDGE_WORDS,
    INITIAL,
    LEGAL_FORM_AFTER,
    MILITARY_RANKS,
    NAME_WORD,
    NEXT_NAME_WORD,
    NOT_PERSON_QUALIFIERS,
    OFFICER_RANK_WORDS,
    OFFICER_RANKS,
    PARTICLE,
    PERSON_QUALIFIERS,
    TITLE_WORDS,
    TITLES,
    bare_word,
    plausible_name,
    trimmed,
    without_everyday_words,
)

SIGNED_NAME = "cue.signed_name"  # a signature: its line whole

_TITLED_NAME = re.compile(
    r"(?<![\w-])(?:(?:Mr|Mrs|Ms|Miss|Mx|Dr|Dra|Prof|Herrn?|Frau|Mme|Mlle|Sr|Sra|Srta|Dña|"
    # Italian, Dutch and Polish titles: "Sig.ra Bianchi", "Dhr. de Vries", "Pani Nowak"
    r"Sig|Sig\.ra|Sig\.na|Dott|Dott\.ssa|Avv|Dhr|Mevr|Pan|Pani)\.?"
    r"|/s/)[ \n]"  # an electronic signature too: "/s/ Tomasz Wojcik"
    rf"((?:{PARTICLE}[ ]){{0,3}}{NAME_WORD}(?:[ -]{NEXT_NAME_WORD}){{0,2}})"
)
# A letter's salutation, which Spanish, German and formal English end with a colon
# ("Estimada Sra. Ximena Quispe Mamani:", "Dear Dr. Lee:"): that colon is no label's,
# though the letter's first words follow it on the line ("Estimada Sra. García: le ...").
_SALUTATION = re.compile(
    r"[ ]*(?i:dear|estimad[oa]s?|querid[oa]s?|distinguid[oa]s?|sehr[ ]geehrte[rn]?|"
    r"geehrte[rn]?|liebe[rn]?|gentile|egregi[oa]|car[oa]|prezad[oa]|geachte|szanown[ay])[ ]"
)
_COLON_AFTER = re.compile(r"[ ]*:")
# A speaker in a transcript, in capitals after the title ("MS. OKONJO: Objection.").
_SPEAKER = re.compile(
    rf"(?m)^[ ]*(?:MR|MRS|MS|DR)\.[ ]([{CAPITAL}][{CAPITAL}'’-]+(?:[ ][{CAPITAL}][{CAPITAL}'’-]+)?):"
)
# A signature: a line that is only a name, at a line start or after a sentence, above
# the signer's job ("Paige Miah\nCase Officer, Customer Contact Centre").
_SIGNED_NAME = re.compile(
    rf"(?:^|\n|\. )({NAME_WORD}(?: {NEXT_NAME_WORD}){{1,3}}) ?\n(?=[^\n]{{0,40}}?\b(?:"
    r"Officer|Manager|Director|Clerk|Secretary|Coordinator|Adviser|Advisor|Lead|Head|"
    r"Analyst|Assistant|Caseworker|Investigator|Controller|Counsel)\b)"
)

# A signature under the valediction, on a line of its own ("Yours sincerely,\nGuy Fleury";
# "Kind regards\nGwen", "Thanks,\nPriya": colleagues sign with the given name alone).
_VALEDICTED_NAME = re.compile(
    r"(?:^|\n|[.!?][ ])[ ]*(?i:yours sincerely|yours faithfully|yours truly|sincerely|kind regards|best regards|"
    r"warm regards|regards|best wishes|all the best|best|(?:many )?thanks|thank you|cheers|"
    r"take care|respectfully|very respectfully|v/r|cordially|mit freundlichen grüßen|"
    r"cordialement|atentamente|signed|signature)[,:!]?[ ]*\n[ ]*"
    rf"(?:(?:{TITLES}|{MILITARY_RANKS})\.?[ ])?({NAME_WORD}(?: {NEXT_NAME_WORD}){{0,3}})[ ,]*(?=\n|$)"
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
_RANKED_SURNAME = re.compile(
    rf"(?<![\w-])(?:(?:{OFFICER_RANKS})\.?[ ]){{1,2}}({NAME_WORD})"
    r"(?=[,;:)]|\.(?:\s|$)|[ ][a-z]|[ ]*(?:\n|$)|[ ]#)"
)
_NOT_AFTER_RANK = (
    frozenset(
        "safety training involved general chief commissioner superintendent commander mayor "
        "governor minister head down first friendly special court".split()
    )
    | OFFICER_RANK_WORDS
    | TITLE_WORDS
)
# A person named beside their part in the case ("A neighbour, Araceli Canet Calvo, of
# ..."), the name ending at punctuation or a verb: the model reads many such names as
# organisations.
_ROLE = (
    r"(?<![\w-])(?i:a|an|the|our|his|her|their|my|your)[ \n](?:[a-z-]+[ \n])?"
    r"(?i:neighbou?r|witness|complainant|applicant|requester|claimant|tenant|"
    r"landlord|employee|patient|client|victim|suspect|resident|spouse|wife|husband|partner|"
    r"son|daughter|mother|father|brother|sister|friend|colleague|caseworker|data subject)"
)
_ROLE_NAMED = re.compile(
    _ROLE + rf",?[ \n]({NAME_WORD}(?:[ \n-]{NEXT_NAME_WORD}){{1,3}})"
    r"(?=[,;:)]|\.(?:\s|$)|\s(?:of|at|from|who|and|said|stated|wrote|told|was|is|has|had)\b)"
)
# The same in brackets, where a given name alone is the person too ("the patient
# (Yusuf)", "the complainant (Ms Eze)"): the bracket holds the name and nothing else.
_ROLE_BRACKETED = re.compile(
    _ROLE + rf"[ \n]?\((?:(?:{TITLES})\.?[ ])?({NAME_WORD}(?:[ -]{NEXT_NAME_WORD}){{0,3}})\)"
)
# A relative named by their kinship after whose they are ("her son Emeka", "my late wife,
# Maria", "su hijo Yupanqui", "Ihre Tochter Ngozi"): people write their family by the
# given name alone, and the model misses a given name it has not seen. The name ends at
# the first word that is not a name's. After a possessive ("the victim's mother, Latoya
# Pierce"), not after an article: "the Mother Superior".
_KIN_NAMED = re.compile(
    r"(?<![\w-])(?:(?i:our|his|her|their|my|your|"
    # Spanish, French and German possessives ("su hijo", "votre fils", "Ihre Tochter")
    r"su|sus|mi|mis|tu|nuestr[oa]|vuestr[oa]|son|sa|mon|ma|ton|ta|votre|notre|leur|"
    r"sein|seine|ihr|ihre|mein|meine|dein|deine|unser|unsere|euer|eure)"
    r"|[A-Z]?[a-z]+['’]s)[ \n](?:[a-z-]+[ \n])?"
    r"(?i:son|daughter|child|wife|husband|spouse|fianc[ée]e?|boyfriend|girlfriend|mother|"
    r"father|mum|mom|dad|brother|sister|grandson|granddaughter|grandchild|grandmother|"
    r"grandfather|nephew|niece|cousin|aunt|uncle|step-?(?:son|daughter|mother|father)|"
    r"hij[oa]|espos[oa]|marido|madre|padre|herman[oa]|niet[oa]|sobrin[oa]|prim[oa]|"
    r"fils|fille|époux|épouse|mari|femme|mère|père|frère|s(?:œ|oe)ur|petit-fils|"
    r"petite-fille|neveu|nièce|Sohn|Tochter|Ehefrau|Ehemann|Frau|Mann|Mutter|Vater|"
    r"Bruder|Schwester|Enkel|Enkelin|Neffe|Nichte)"
    rf",?[ \n]({NAME_WORD}(?:[ -]{NEXT_NAME_WORD}){{0,3}})(?![\w-])"
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
    r"Professor|Doctor|Lieutenant|Captain|Sgt|Det|Insp|Lt|Capt|PC|DC|DS|DI|DCI|"
    r"Caseworker|Case[ ][Ww]orker|Social[ ][Ww]orker|Reporting[ ][Pp]arty|"
    # A police report's reporting or complaining party, victim, suspect and witness
    # ("R/P Tavon Jefferies stated", "V/ Ana Ruiz"); not "W-2" or "S-1": forms.
    r"R/P|C/P|[VSW]/)s?[.:,]?[ ]"
    rf"({NAME_WORD}(?:[ -]{NEXT_NAME_WORD}){{1,3}})"
    r"(?=[,;:)]|\.(?:\s|$)|[ ][a-z]|[ ]*(?:\n|$))"
)
# The person a record is of or from ("Interview of Quang Vo", "Letter from Dimitrios
# Papadopoulos"): the model reads such a title with its name as a work or an
# organisation. A name of two words or more whose first is a given name, so not the
# "Declaration of Human Rights" or a "Statement of Financial Position".
_RECORD_OF = re.compile(
    r"(?<![\w-])(?i:(?:interview|statement|declaration|affidavit|deposition|testimony|"
    r"interrogation|examination)[ ]of|(?:letter|e-?mail|message|call|complaint|report|"
    r"request|note)[ ]from)[ ]"
    rf"({NAME_WORD}(?:[ -]{NEXT_NAME_WORD}){{1,3}})(?![\w-])"
)
# A party named in a case's title ("Commonwealth v. Darnell Washington", "Ruiz v. Acme",
# "In re the Estate of Harold P. Lindqvist", "Matter of Ana Ruiz"): a name of two words or
# more, middle initials included. The State, the People and other public parties are no
# names; nor is what "In re" alone names ("In re Grand Jury Subpoena").
_CASE_NAME = rf"{NAME_WORD}(?:[ ](?:{INITIAL}|{NEXT_NAME_WORD})){{1,3}}"
_CASE_PARTY = re.compile(
    rf"(?<![\w-])(?:({_CASE_NAME})[ ]vs?\.[ ](?=[{CAPITAL}])|vs?\.[ ]({_CASE_NAME})(?![\w-])"
    r"|(?i:estate|matter|guardianship|conservatorship|adoption|marriage)[ ]of[ ]"
    rf"(?:the[ ])?({_CASE_NAME})(?![\w-]))"
)
_PUBLIC_PARTIES = frozenset(
    "state people commonwealth united states america city county department government "
    "republic kingdom crown regina rex board authority commission attorney general "
    "secretary warden sheriff governor administration agency bureau office".split()
)


# The name an e-mail address is written with: before it in angle brackets ("Ana Lima
# <ana.lima@example.org>") or after it in parentheses ("ana.lima@example.org (Ana Lima)").
_ADDRESSEE = rf"({NAME_WORD}(?:[ ](?:{INITIAL}|{NEXT_NAME_WORD})){{1,3}})"
_EMAIL_NAMED = re.compile(
    rf"(?<![\w-]){_ADDRESSEE}[ ]?<[^\s<>@]+@[^\s<>@]+>|[^\s()@]+@[^\s()@]+[ ]?\({_ADDRESSEE}\)"
)


# A record's field for a person, or an e-mail's header, and the names after its colon
# ("Victim: NGUYEN, THI MAI (F, DOB ...)", "To: Okafor, Chinwe <...>; Lindqvist, Erik").
_NAME_FIELD = re.compile(
    r"(?m)^[ ]*(?i:(from|to|cc|bcc)|(?:reporting |investigating |arresting )?officer|victim|"
    r"suspect|witness|complainant|patient|name|full name|claimant|applicant|requester|"
    r"requestor|tenant|landlord|attending|physician|emergency contact|contact|employee|"
    r"defendant|plaintiff|respondent|next of kin|parent|guardian|spouse|data subject|"
    r"attn|attention|interviewee|caller|driver|owner|affiant|declarant|deponent|signed|"
    r"signed by|signatory|prepared by|approved by|reviewed by|authori[sz]ed by|author|sender|"
    r"recipient|addressee|passenger|account holder|beneficiary|client|customer|student|"
    r"pupil|resident|occupant|informant|interpreter|carer|caseworker|case worker|"
    r"social worker|inmate|detainee|offender|mother|father)[ ]?:[ ]?([^\n]+)"
)
# Words that make a field's value a body of people, not a person.
_BODY_WORDS = frozenset(
    "team unit department office authority council service services records centre "
    "center group board committee division bureau agency staff company".split()
)
_RANKS = r"Ptl|Pvt|Cpl|Lt|Insp|Supt|PC|DC|NP|RN"
# The name at the start of a field's value: surname first, or given name first.
_FIELD_NAME = re.compile(
    rf"(?:(?:{TITLES}|{_RANKS})\.?[ ])?"
    rf"({NAME_WORD},[ ]{NAME_WORD}(?:[ ](?:{INITIAL}|{NAME_WORD}))?"
    rf"|{NAME_WORD}(?:[ ](?:{INITIAL}|{NEXT_NAME_WORD})){{1,3}})(?![\w-])"
)


# A form's field for a name or a part of one, wherever it stands on its line: "Last
# Name: Okafor First Name: Chinwe", "Applicant's name: Priyanka Deshmukh", "Nom : DUPONT
# Prénom : Jean-Pierre", "Apellidos: García López", "Vorname: Jürgen". One word is
# enough, capitals too. Page text has one space between words, so the value ends where
# the next field's label begins (a name part's, or one word and a colon: "MI:"), at a
# bracket, a comma or the line's end.
_NAME_PART_LABEL = (
    rf"(?i:(?:(?:{PERSON_QUALIFIERS})(?:['’]s)?[ ])?"
    r"(?:(?:last|first|given|family|middle|maiden|birth|full|legal|preferred)[ ])?names?"
    r"|surname|forenames?|nom(?:[ ]de[ ]famille)?|prénoms?|apellidos?|nombre(?:[ ]completo)?"
    r"|nachname|familienname|vorname|geburtsname)[ ]?:"
)
_NAME_PART_FIELD = re.compile(
    rf"(?<![\w'’-])({_NAME_PART_LABEL})[ ]*"
    rf"({NAME_WORD}(?:[ ](?:{INITIAL}|{NEXT_NAME_WORD})){{0,3}}?)"
    rf"(?=[ ]{_NAME_PART_LABEL}|[ ][\w'’]+[ ]?:|[ ]*(?:\n|$)|[ ]?\(|,)"
)


def _name_part_fields(text: str) -> Iterator[tuple[int, int]]:
    for m in _NAME_PART_FIELD.finditer(text):
        label, value = m[1], m[2]
        if label.rstrip(" :").casefold() in ("name", "names"):
            before = _WORD_BEFORE.search(text, max(0, m.start() - 30), m.start())
            if before is not None and before[1].casefold() in NOT_PERSON_QUALIFIERS:
                continue  # "File name:", "Company name:": no person's
        # Capitals alone are a surname here ("DUPONT"), not an acronym; a letter is an
        # initial ("MI: A"), too little to redact as a name.
        if len(value) > 1 and plausible_name(value.title()):
            yield m.span(2)


_WORD_BEFORE = re.compile(r"(\w+)[ ]\Z")


# The parties named in a court filing's caption, above their part or before it on their
# line ("JOHN DOE and MARIA ELENA RUIZ,\n Plaintiffs,", "DESHAWN TERRELL MCALLISTER,
# Defendant."), in the capitals the small model does not read as names; with the name
# they were known by and the others of the case ("AMANDA ELM f/k/a Amanda Elmaleh,\n
# Relief Defendant.", "FREDERIC ELM f/k/a Frederic Elmaleh, et al.,\nDefendants,").
_CAPTION_NAME = rf"({NAME_WORD}(?: {NEXT_NAME_WORD}){{1,4}})"
_CAPTION_PARTIES = re.compile(
    rf"(?:^|\n)[ ]*{_CAPTION_NAME}"
    rf"(?:,? and {_CAPTION_NAME})?(?:[ ](?i:[fan]/k/a|[fa]\.?k\.?a\.?)[ ]{_CAPTION_NAME})?"
    r"(?:,?[ ]et[ ]al\.?)?(?:,?[ ]*\n[ ]*|,[ ]+)"
    r"(?i:(?:relief|nominal|third[- ]party|intervening|counter|cross)[ -])?"
    r"(?i:plaintiffs?|defendants?|petitioners?|respondents?|appellants?|appellees?|"
    r"claimants?|movants?)\b"
)


def _caption_parties(text: str) -> Iterator[tuple[int, int]]:
    for m in _CAPTION_PARTIES.finditer(text):
        for group in (1, 2, 3):
            if (
                m[group]
                and plausible_name(m[group])
                and {w.casefold() for w in m[group].split()}.isdisjoint(_PUBLIC_PARTIES)
                and not COMPANY_AFTER.match(text, m.end(group))
            ):
                yield m.span(group)


def _case_parties(text: str) -> Iterator[tuple[int, int]]:
    for m in _CASE_PARTY.finditer(text):
        group = next(g for g in (1, 2, 3) if m[g])
        name = trimmed(text, m.start(group), m.end(group))
        if name is None:
            continue
        value = text[name[0] : name[1]]
        words = {w.strip(".,").casefold() for w in value.split()}
        if (
            " " in value
            and plausible_name(value)
            and words.isdisjoint(_PUBLIC_PARTIES)
            and not COMPANY_AFTER.match(text, name[1])
            and not LEGAL_FORM_AFTER.match(text, name[1])
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
            if m is None or any(bare_word(w) in _BODY_WORDS for w in m[1].split()):
                continue  # "Prepared by: Housing Benefit Team"
            name = trimmed(text, m.start(1), m.end(1))
            if name is not None:
                value = text[name[0] : name[1]]
                if " " in value and plausible_name(value.replace(",", "")):
                    yield name


# Who attended a meeting or was copied, as minutes and memos list them ("Present: Joanna
# Wiśniewska (HR), Callum McAllister (employee),\nDeclan Byrne"; "Attendees: Chloe, Raj
# and Wojciech"), or the people a record lists ("Witnesses: Aisha Bello, Rhys Pritchard",
# at a line's start or after a sentence): a list that runs on while its lines end with a
# comma, each entry a name with its part in brackets perhaps; given names alone too.
_ATTENDEE_LIST = re.compile(
    r"(?m)(?:^|(?<=[.!?][ ]))[ ]*(?i:present|also present|attendees|attending|in attendance|apologies|"
    r"absent|distribution|copied to|participants|witnesses|victims|suspects|complainants|"
    r"interviewees|interviewed|students|pupils|residents|occupants|members|parties|"
    r"children|parents|passengers|persons present|family members)"
    r"[ ]?:[ ]?((?:[^\n]*,[ ]*\n)*[^\n]*)"
)
_ATTENDEE = re.compile(
    rf"[ \n]*(?:(?:{TITLES})\.?[ ])?({NAME_WORD}(?:[ ](?:{INITIAL}|{NEXT_NAME_WORD})){{0,3}})"
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
                if plausible_name(value) and bare_word(value) not in _NOT_ADDRESSEES:
                    yield entry.span(1)
            start = separator.end() if separator else end


def find_names_by_cue(text: str) -> Iterator[tuple[int, int, float, str]]:
    """(start, end, confidence, detector) of each name after a title, signing a letter,
    beside the person's part in the case or in a record's field for a person: the
    language model misses names it has not seen, and reads a signature with the job
    below it, or "a neighbour, Araceli Canet Calvo", as an organisation."""
    for m in _TITLED_NAME.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        salutation = _COLON_AFTER.match(text, m.end(1)) and _SALUTATION.match(
            text, line_start, m.start()
        )
        # "Dr. Rajesh Iyer  Admitted:" ends at its label; a salutation's colon is none.
        titled = trimmed(text, m.start(1), m.end(1), trim=not salutation)
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
    for pattern, detector in (
        (_ROLE_NAMED, "cue.role_named"),
        (_ROLE_BRACKETED, "cue.role_named"),
        (_KIN_NAMED, "cue.kin_named"),
        (_PARTY_NAMED, "cue.party_named"),
    ):
        for m in pattern.finditer(text):
            start, end = m.span(1)
            if m[1].isupper():  # in capitals every word after the cue looks like a name's
                span = without_everyday_words(text, start, end)
                if span is None:
                    continue
                start, end = span
            name = text[start:end]
            if (
                plausible_name(name)
                and len(name.split()[-1]) > 1
                and not COMPANY_AFTER.match(text, end)
                and not LEGAL_FORM_AFTER.match(text, end)
            ):
                yield start, end, 0.85, detector
    for m in _RECORD_OF.finditer(text):
        name = m[1]
        given = name.split()[0].casefold()
        if (
            given in given_names()
            and given not in WORD_GIVEN_NAMES
            and plausible_name(name)
            and not COMPANY_AFTER.match(text, m.end(1))
        ):
            yield m.start(1), m.end(1), 0.85, "cue.record_of"
    for start, end in given_name_led(text):
        yield start, end, GIVEN_NAME_LED_CONFIDENCE, "cue.given_name_led"
    for start, end in lone_given_names(text):
        yield start, end, LONE_GIVEN_NAME_CONFIDENCE, "cue.given_name_alone"
    for m in _RANKED_SURNAME.finditer(text):
        word = bare_word(m[1])
        if plausible_name(m[1]) and word not in EDGE_WORDS | _NOT_AFTER_RANK:
            yield m.start(1), m.end(1), 0.8, "cue.ranked_surname"
    for m in _GREETED_NAME.finditer(text):
        if plausible_name(m[1]) and bare_word(m[1]) not in _NOT_ADDRESSEES:
            yield m.start(1), m.end(1), 0.85, "cue.greeted_name"
    if "\n" in text:
        for pattern in (_SIGNED_NAME, _VALEDICTED_NAME):
            for m in pattern.finditer(text):
                if plausible_name(m[1]) and bare_word(m[1]) not in _NOT_ADDRESSEES:
                    yield m.start(1), m.end(1), 0.9, SIGNED_NAME
