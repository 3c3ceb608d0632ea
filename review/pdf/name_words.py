"""The words of people's names in page text (Django-free): what a name's words look like,
the titles and particles written with them, the words that are no name's (a job, a form's
field, a company's legal form, an everyday word in capitals), and a run of words trimmed
to the name it holds. Shared
by the cues that find names (`names`) and the cutting of the model's readings
(`name_span`).
"""

from __future__ import annotations

import re

from spacy.lang.en.stop_words import STOP_WORDS

from review.pdf.given_names import given_names

# Words of a job or a form's field, which the small English model takes for names.
_NOT_NAME_WORDS = frozenset(
    "officer manager director clerk secretary department authority council office address "
    "name phone telephone email date signature applicant complainant requester case file "
    "reference subject inc ltd llc gmbh plc sa the team unit service services records "
    "centre center plan group board committee division bureau agency staff all kg ag sarl "
    "sas sl corp co company llp lp mbh ohg ug s.a s.l e.v s.a.r.l s.r.l b.v n.v s.p.a role "
    "kgaa gbr stiftung s.com s.coop s.c.p s.l.l inn employer studio flat suite "
    "statement form report summary details notice letter interview madam corporation mail "
    "electronic "
    "incorporated limited holdings industries enterprises associates partners "
    "international insurance bank trust foundation university hospital school "
    # a court's own words, which the model reads as people in an order's sentences
    # ("the date of this Order", "a Writ of Habeas Corpus", "Copies furnished to:")
    "order orders petition motion writ habeas corpus subpoena docket certiorari mandamus "
    "judgment judgement injunction memorandum copies title circuit proceedings system "
    "syllabus opinion ins assurance realty "
    # a bankruptcy petition's schedules and checkboxes ("Schedule G", "Disputed")
    "schedule misc bankruptcy district notices disputed unliquidated contingent insolvent "
    "reaffirm property household furnishings sources software copyright box line "
    # a congregation's or a society's name ("Thomas More Society", "Emmanuel Bible
    # Baptist Church", "Guilford Christian Fellowship": a First Circuit opinion's amici)
    "society fellowship ministries ministry chapel baptist congregation parish diocese "
    "synagogue mosque cathedral "
    # an election report's precincts and lines ("Marion Township Precinct 2", "Write-In")
    "precinct precincts township townships borough ballot ballots election "
    "electors ticket write-in".split()
)


def plausible_name(value: str) -> bool:
    """A person's name has letters only (no digits or slashes: "FOI/2021/6862"), is not
    one all-capital acronym ("PHRX"), and names no job or form field ("Case Officer")."""
    words = value.split()
    if any(ch.isdigit() or ch in "/@#:" for ch in value):
        return False
    if len(words) == 1 and value.isupper():
        return False
    if any(w in _CASE_TITLE_WORDS for w in words):
        return False  # "Thomas v. Arn": two parties of a cited case, not one person
    return not any(w.strip(".,").casefold() in _NOT_NAME_WORDS for w in words)


_CASE_TITLE_WORDS = frozenset(("v", "v.", "vs", "vs."))


# Titles and ranks written before a name.
TITLES = (
    r"Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Lord|Lady|Judge|Officer|Det|Sgt|Capt|"
    r"Herr|Frau|M|Mme|Mlle|Me|Sr|Sra|Srta|Don|Doña|Dña|Dra|Sig|Dott|Avv|Dhr|Mevr|Pan|Pani"
)
TITLE_WORDS = frozenset(t.casefold() for t in TITLES.split("|"))
# Ranks a military signature opens with ("V/R,\nMaj. Dana Ruiz").
MILITARY_RANKS = r"Maj|Col|LtCol|Gen|Adm|Cmdr|Cdr|Cpt|Pvt|Ens|SSgt|MSgt|CPO|PO"
# Every title and rank, case folded: a word of a name's, never the name.
RANK_WORDS = TITLE_WORDS | frozenset(MILITARY_RANKS.casefold().split("|"))
OFFICER_RANKS = (
    r"Officer|Detective|Sergeant|Constable|Deputy|Trooper|Inspector|(?:Special[ ])?Agent|"
    r"Corporal|Lieutenant|Captain|Investigator|Sheriff|Marshal|Sgt|Det|Insp|Lt|Capt|Cpl|"
    r"Ptl|Tpr|Ofc|PC|DC|DS|DI|DCI|SA|SSA"
)
OFFICER_RANK_WORDS = frozenset(OFFICER_RANKS.casefold().replace("(?:special[ ])?", "").split("|"))
# What a language model's name reading runs into at its ends without being part of the
# name: a table's next cell (a role) or a record's field label. Titles stay: "Don" and
# "Judge" are names too, and a title kept is only redacted with its name.
EDGE_WORDS = _NOT_NAME_WORDS | frozenset(
    "witness witnesses plaintiff plaintiffs defendant defendants claimant claimants "
    "respondent respondents appellant appellants appellee appellees petitioner petitioners "
    "intervenor intervenors amicus curiae relator tenant garnishee garnishor movant senior "
    "debtor debtors codebtor codebtors creditor creditors spouse trustee "
    # a form's instructions, in the next cell after a name ("Steve Pierson Describe")
    "describe include write check explain attach specify enter "
    "landlord investigator patient victim suspect deceased dob ssn tel fax mobile mob "
    "nhs ni nino ref mrn cc bcc from to sent attn v vs counsel attorney "
    # a citation's signal before a cited case ("See Williams v. McNeil")
    "see cf accord citing quoting "
    # a greeting's words, before the name the model reads them with
    "dear hi hello thanks estimado estimada sehr geehrte geehrter liebe lieber bonjour "
    "cher chère hola geachte beste gentile egregio egregia caro cara prezado prezada "
    "szanowna szanowny".split()
)

# A capitalised word of a name: "O'Brien" keeps its apostrophe, "Doe's" loses the "'s".
# The capital letters of the Latin, Greek and Cyrillic scripts, for a character class:
# "Łukowicz", "Šimek" and "Ștefan" open with letters outside Latin-1.
CAPITAL = "A-ZÀ-ÖØ-Þ" + "".join(c for c in map(chr, range(0x100, 0x530)) if c.isupper())
INITIAL = rf"[{CAPITAL}]\."  # "T." of "Marcus T. Johnson"
NAME_WORD = rf"[{CAPITAL}][\w-]*(?:['’][A-Za-z]{{2,}}[\w-]*)?"
# Lower-case particles inside a name ("Ludwig van der Berg", "María de los Ángeles
# García", "Ali bin Hassan", "Willemine ten Pas"): never to be left visible between two
# redacted words.
PARTICLE = (
    r"(?:van|von|der|den|de|del|della|di|da|dos|das|du|la|le|los|las|y|bin|ibn|al|el|ter|ten|zu)"
)
# A name's next word: a capitalised word, after its particles if it has any.
NEXT_NAME_WORD = rf"(?:{PARTICLE}[ ]){{0,3}}{NAME_WORD}"


# What follows a company's name ("Isa Montoya Cerro S.L.", "Smith & Co"), not a person's.
COMPANY_AFTER = re.compile(r"\s*(?:&|[A-Z]\.[A-Z]\.|(?:Ltd|LLC|Inc|GmbH|plc|SARL|AG|KG)\b)")
# A company's legal form after its name, which a language model reads as a person's
# ("Hoffmann Krause KGaA", "Pavón y Hierro S.Com."); not "M.D." after a doctor's name.
LEGAL_FORM_AFTER = re.compile(
    r",?[ ]*(?:(?:Ltd|LLC|LLP|Inc|Corp|Corporation|Company|GmbH|mbH|plc|SARL|SAS|AG|KG|KGaA"
    r"|GbR|OHG|SE|Stiftung)\b"
    r"|(?:Co|Ins|Assocs?|Bros|S\.A|S\.L|S\.L\.L|S\.A\.S|S\.R\.L|B\.V|N\.V|S\.p\.A|e\.V"
    r"|S\.Com|S\.Coop|S\.C\.P)\.)"
    # or the body a congregation, a society or an insurer is ("Thomas More Society",
    # "Paul Revere Life Ins.", "Sun Life Assurance Co.")
    r"|[ ](?:Society|Fellowship|Ministries|Ministry|Chapel|Baptist|Church|Congregation|Parish"
    r"|Diocese|Synagogue|Mosque|Cathedral|Insurance|Assurance|Realty)\b"
)

_WORD_RUN = re.compile(r"\S+")


def trimmed(text: str, start: int, end: int, *, trim: bool = True) -> tuple[int, int] | None:
    """The words of `text[start:end]` without the roles and labels at either end
    (unless not `trim`), nor the punctuation after the last; None when nothing is left
    or only titles are."""
    words = [m.span() for m in _WORD_RUN.finditer(text, start, end)]
    while trim and words and _edge_word(text, *words[0]):
        words.pop(0)
    while trim and words and _edge_word(text, *words[-1]):
        words.pop()
    if all(bare_word(text[a:b]) in TITLE_WORDS for a, b in words):
        return None  # a rank alone ("Det" of "Det. Sgt.")
    first, last = words[0][0], words[-1][1]
    while last > first and not text[last - 1].isalnum():
        last -= 1
    return (first, last) if last > first else None


def bare_word(word: str) -> str:
    return word.strip(".,;:()").casefold()


def _edge_word(text: str, start: int, end: int) -> bool:
    """Whether the word `text[start:end]` is a role, a label ("Admitted:", its colon
    perhaps past `end`; "MRN") or no word at all ("(F,")."""
    word = text[start:end]
    bare = bare_word(word).removesuffix("'s").removesuffix("’s")
    return (
        bare in EDGE_WORDS
        # roles joined ("Defendant-Appellee", "Plaintiffs-Appellants")
        or all(part in EDGE_WORDS for part in bare.split("-"))
        or text[end - 1 : end + 1].endswith(":")
        or not any(c.isalpha() for c in word)
    )


_WORD = re.compile(r"[^\s,;:]+")


def without_everyday_words(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A name read in text written in capitals (a police narrative, a form) without the
    English words a cue or the model runs it into, where every word looks like a name's:
    those before it and from the first one after its first word ("AS DARNELL
    WASHINGTON", "KEISHA MOORE HAD THROWN"). A word that is a given name too ("AN",
    "US") may be the name's."""
    words = [
        (m.start(), m.end(), m[0].strip(".'’").casefold()) for m in _WORD.finditer(text, start, end)
    ]
    everyday = [word in STOP_WORDS and word not in given_names() for *_, word in words]
    while words and everyday[0]:
        words.pop(0)
        everyday.pop(0)
    for index in range(1, len(words)):
        if everyday[index]:
            words = words[:index]
            break
    return (words[0][0], words[-1][1]) if words else None


# Words that say whose a name is when it is a person's ("Applicant's name", "Name of
# the deceased"), as alternatives of a regular expression.
PERSON_QUALIFIERS = (
    r"applicant|patient|employee|child|client|claimant|student|tenant|witness|victim|"
    r"suspect|member|customer|requester|requestor|parent|guardian|spouse|mother|father|"
    r"contact|caller|officer|owner|driver|resident|beneficiary|insured|cardholder|"
    r"account[ ]holder|policyholder|subject|person|deceased|interviewee|signatory"
)
# Words before "name" that say whose it is when it is no person's ("File name",
# "Employer's name").
NOT_PERSON_QUALIFIERS = frozenset(
    "file company business trading organisation organization street road user domain host "
    "product project brand bank account school facility agency document program programme "
    "course event venue building site folder field variable table column group team vessel "
    "ship plan policy fund network device computer server printer app application store "
    "shop hotel restaurant location place city town country state county district species "
    "drug medication entity employer insurer provider practice hospital".split()
)
