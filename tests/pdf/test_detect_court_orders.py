"""A court's order names its parties, and the words of its own procedure are no names:
the small model reads "Order", "Habeas Corpus", "Garnishee" and "et al." as people, and
the cues took an agency in a caption and a cited case for parties, missed a party
written with the name she was known by, and a reading ran on past a name's possessive (orders of the Southern District of Florida, published on
govinfo)."""

from __future__ import annotations

from review.pdf.name_span import name_in_reading
from testkit.corpus import simple_pdf
from tests.pdf.test_detect_entities import people_in

ORDER = simple_pdf(
    [
        "UNITED STATES DISTRICT COURT",
        "SOUTHERN DISTRICT OF FLORIDA",
        "PEDRO ORTIZ,",
        "Petitioner,",
        "v.",
        "SECRETARY, FLORIDA DEPARTMENT",
        "OF CORRECTIONS, and",
        "FLORIDA ATTORNEY GENERAL,",
        "Respondents.",
        "SECURITIES AND EXCHANGE COMMISSION,",
        "Plaintiff,",
        "vs.",
        "FREDERIC ELM f/k/a Frederic Elmaleh, et al.,",
        "Defendants,",
        "and",
        "AMANDA ELM f/k/a Amanda Elmaleh,",
        "Relief Defendant.",
        "Petitioner Pedro Ortiz's Second Amended Petition under 28 U.S.C. § 2254 for a Writ",
        "of Habeas Corpus is DISMISSED. As of the date of this Order, no objections have been",
        "filed. On August 10, 2023, Garnishee served its amended answer, and Plaintiff shall",
        "recover from Garnishee the sum of $7,297.50. See Williams v. McNeil, 557 F.3d 1287,",
        "1290 (11th Cir. 2009); Thomas v. Arn, 474 U.S. 140 (1985).",
        "Copies furnished to:",
        "Counsel of record",
    ]
)
# A court of appeals' docketing notice and a caption (the Second and First Circuits'
# in freelawproject's doctor test assets).
NOTICE = simple_pdf(
    [
        "ROBERT A. KATZMANN",
        "CHIEF JUDGE",
        "Date: October 31, 2017",
        "Docket #: 17-3510",
        "Short Title: National Football League Manag v. National",
        "Football League Playe",
        "DC Docket #: 17-cv-6761",
        "DC Court: SDNY (NEW YORK",
        "CITY)",
        "DC Judge: Failla",
        "DOCKETING NOTICE",
        "No. 20-1507",
        "CALVARY CHAPEL OF BANGOR,",
        "Plaintiff, Appellant,",
        "v.",
        "JANET T. MILLS, in her official capacity as Governor of the",
        "State of Maine,",
        "Defendant, Appellee.",
    ]
)


def test_a_court_orders_parties_are_proposed_and_its_own_words_are_not() -> None:
    people = [p.removesuffix("'s").removesuffix("’s") for p in people_in(ORDER)]

    parties = {"PEDRO ORTIZ", "Pedro Ortiz", "FREDERIC ELM", "AMANDA ELM", "Amanda Elmaleh"}
    assert parties <= set(people)
    procedure = {"order", "petition", "habeas", "corpus", "garnishee", "al", "copies"}
    assert not [p for p in people if procedure & {w.strip(".,").casefold() for w in p.split()}]
    public = {"attorney", "general", "securities", "commission", "secretary"}
    assert not [p for p in people if public & {w.casefold() for w in p.split()}]
    assert not [p for p in people if " v. " in p or p.startswith("See ")]


def test_a_name_the_model_reads_on_past_its_possessive_ends_there() -> None:
    """The model read "Reid’s Report" and "Petitioner’s Second Amended Petition" as
    people: the first lost the judge's name (a report is no one's name), the second
    proposed "Second Amended"."""
    text = "I have considered Judge Reid’s Report and Recommendation.\n"
    text += "Petitioner’s Second Amended Petition is DENIED."

    def read(reading: str) -> str | None:
        start = text.index(reading)
        span = name_in_reading(text, text, start, start + len(reading))
        return None if span is None else text[span[0] : span[1]]

    assert read("Reid’s Report and Recommendation") == "Reid’s"
    assert read("Petitioner’s Second Amended Petition") is None


def test_a_docketing_notices_fields_and_a_partys_role_are_no_names() -> None:
    """The model read "Appellee" as a person; in the whole notice, "DC Court" was read
    as a constable's surname and "Short Title" as a speaker of a dialogue."""
    people = people_in(NOTICE)

    assert {"ROBERT A. KATZMANN", "JANET T. MILLS"} <= set(people)
    assert not [p for p in people if {"Court", "Title", "Appellee"} & set(p.split())]


def test_the_congregations_and_societies_on_a_brief_are_no_people() -> None:
    """The amici of a First Circuit opinion (freelawproject's doctor test assets): the
    model and the given-name cue read the churches and a society as people."""
    pdf = simple_pdf(
        [
            "Stephen M. Crampton and Thomas More Society on brief for",
            "Emmanuel Bible Baptist Church, Grace Community Chapel of Waldoboro, Guilford",
            "Christian Fellowship, The Rock Church of Bangor, and Machias Valley Baptist Church.",
        ]
    )

    assert people_in(pdf) == ["Stephen M. Crampton"]


def test_an_opinions_running_head_names_two_parties_and_its_sentences_no_procedure() -> None:
    """A Ninth Circuit opinion (freelawproject's courtlistener): its running head
    "MORTIMER v. BACA" was re-cased "Mortimer V. Baca", the "v." taken for an initial,
    and proposed as one person on every page; the model read "summary judg-\nment",
    "Circuit Judges", "B. Proceedings" and "Defendant-Appellee." as people, and the case
    cue "Hughes Aircraft" of "Hughes Aircraft Co.". The head's parties are proposed as
    the caption names them."""
    pdf = simple_pdf(
        [
            "ROGER D. MORTIMER,",
            "Plaintiff-Appellant,",
            "v.",
            "LEROY D. BACA,",
            "Defendant-Appellee.",
            "Before: Kim McLane Wardlaw and Consuelo M. Callahan,",
            "Circuit Judges, and Ralph R. Beistline, Chief District Judge.",
            "B. Proceedings on remand.",
            "The district court granted Baca’s motion for summary judg-",
            "ment. See Doe v. Hughes Aircraft Co., 100 F.3d 1 (9th Cir. 1996).",
            "2093",
            "MORTIMER v. BACA",
        ]
    )
    people = people_in(pdf)

    assert {"MORTIMER", "BACA", "Kim McLane Wardlaw", "Ralph R. Beistline"} <= set(people)
    words = {w.strip(".,").casefold() for p in people for w in p.split()}
    assert not words & {"v", "judg-", "ment", "circuit", "proceedings", "hughes", "appellee"}
    assert not [p for p in people if "Appellee" in p]


def test_an_insurer_in_a_case_name_is_no_person() -> None:
    """The case cue read "Reliance Standard Life" of "Reliance Standard Life Ins. Co." and
    "Sun Life" of "Sun Life Assurance Co." as people (a Sixth Circuit opinion's running
    head and citations), the given-name cue "Paul Revere Life" of "Paul Revere Life Ins.",
    and the model "WILLIAMS, Senior Circuit" of a panel's judges."""
    pdf = simple_pdf(
        [
            "Balmert v. Reliance Standard Life Ins. Co.",
            "Wenner v. Sun Life Assurance Co. of Canada, 482 F.3d 878 (6th Cir. 2007).",
            "See Paul Revere Life Ins. Co. v. Ford Motor Co., 100 F.3d 1 (1st Cir. 2001).",
            "Before: GINSBURG and GRIFFITH, Circuit Judges, and WILLIAMS, Senior Circuit Judge.",
        ]
    )
    people = people_in(pdf)

    assert not [p for p in people if {"Life", "Senior", "Circuit"} & set(p.split())]


def test_a_filing_stamp_and_a_way_of_service_are_no_names() -> None:
    """A Tennessee appeals board's opinion (freelawproject's courtlistener): the stamp
    "FILED\nSep 13, 2019" gave the given-name cue "Sep", and its certificate of service
    the signed-name cue "Via Electronic Mail" (then every "Via" and "Mail" of the page)."""
    pdf = simple_pdf(
        [
            "Ruben Diaz, Antioch, Tennessee, employee-appellee, pro se",
            "FILED",
            "Sep 13, 2019",
            "Kenneth M. Switzer, Chief Judge",
            "X",
            "Via Electronic Mail",
            "Penny Shrum, Clerk, Court of Workers' Compensation Claims",
        ]
    )
    people = people_in(pdf)

    assert "Ruben Diaz" in people
    assert not [p for p in people if {"Sep", "Via", "Mail"} & set(p.split())]


def test_a_bankruptcy_petitions_labels_are_no_people() -> None:
    """A bankruptcy petition (freelawproject's bankruptcy-parser assets): the model read
    its labels as people ("Check one.", "Signature of Attorney for Debtor", "report it
    on Schedule G"), and every occurrence proposed "Debtor" at 276 places, "Check" at
    131. A word the form writes in lower case elsewhere is its word, not a person."""
    lines = [
        "The bankruptcy forms use you and Debtor 1 to refer to a debtor filing alone.",
        "Richard S Barreras, Jr.",
        "Chapter of the Bankruptcy Code you are choosing to file under",
        "Check one. (For a brief description of each, see the notice.)",
        "Check if this is an amended filing and check the box.",
        "If you lease a vehicle, also report it on Schedule G: Executory Contracts.",
        "Michael D. O'Brien",
        "Signature of Attorney for Debtor",
        "The source of the compensation paid to me was:",
        "Debtor",
        "Other (specify):",
    ]
    people = people_in(simple_pdf(lines))

    assert any("Barreras" in p for p in people)
    assert not [p for p in people if {"Debtor", "Check", "Schedule"} & set(p.split())]


def test_a_forms_words_read_as_people_are_its_words_where_it_writes_them_in_lower_case() -> None:
    """The same petition's schedules: the model read "Lease will be assumed", "Copy the
    value from" and the check boxes "Employed" and "Not employed" as people ("Employed
    Not" across two lines, proposed at each pair). The form writes "lease", "copy" and
    "employed" in lower case elsewhere: its words, not names. A surname the document
    also writes as a word stays a name ("Young" of "young drivers"), and so does one
    whose only other writing is in capitals (a Tenth Circuit opinion's "Triplet")."""
    lines = [
        "Richard S Barreras, Jr. and Karen Young",
        "Business Space Lease from June 1, 2012",
        "Lease will be assumed pursuant to 11",
        "Copy the value from",
        "Schedule A/B",
        "Employment status",
        "Employed",
        "Not employed",
        "Employed",
        "Not employed",
        "If you lease a vehicle, copy the lease terms. Young drivers pay more; young ones too.",
        "Young signed the lease.",
        "STEVEN MONTRAIL TRIPLET,",
        "Petitioner - Appellant,",
        "Steven Montrail Triplet, a state prisoner confined in the Oklahoma Department of",
        "Corrections, appeals. The facts of this case are convoluted because of the number",
        "of crimes committed by Triplet. On October 18, 2000, Triplet pled guilty.",
    ]
    people = people_in(simple_pdf(lines))

    assert not [p for p in people if {"Lease", "Copy", "Employed", "Not"} & set(p.split())]
    assert "Karen Young" in people and "Young" in people
    assert "Triplet" in people  # a line in capitals says nothing of its words' case


def test_a_petitions_court_its_lines_and_its_post_boxes_are_no_people() -> None:
    """Another petition (bankruptcy-parser's Northern District of Georgia case): the
    given-name cue read "GEORGIA" of "NORTHERN DISTRICT OF GEORGIA", the model "PO Box"
    of a creditor's address and "Line" of "Line from Schedule A/B", and every occurrence
    proposed them on every page."""
    lines = [
        "United States Bankruptcy Court for the:",
        "NORTHERN DISTRICT OF GEORGIA",
        "John Lindell West-Grant",
        "LVNV Funding",
        "PO Box 10587",
        "Greenville, SC 29603",
        "Line from Schedule A/B: 7.1",
    ]
    people = people_in(simple_pdf(lines * 2))

    assert "John Lindell West-Grant" in people
    assert not [p for p in people if {"GEORGIA", "Georgia", "Box", "Line"} & set(p.split())]
