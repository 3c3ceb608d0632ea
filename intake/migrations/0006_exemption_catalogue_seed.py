"""The shipped exemption catalogues; compliance officers edit them in the admin.

US federal FOIA exemptions (5 U.S.C. 552(b)), the UK Freedom of Information Act 2000's
main exemptions, and the GDPR's restrictions on the right of access. Any code a
jurisdiction already stamps by default is added too, so existing settings stay valid.
"""

from django.db import migrations

CATALOGUES = {
    "US-FED": [
        (
            "(b)(1)",
            "Classified national security information",
            "Properly classified under an Executive Order in the interest of national defense or foreign policy.",
        ),
        (
            "(b)(2)",
            "Internal personnel rules and practices",
            "Related solely to the internal personnel rules and practices of an agency.",
        ),
        (
            "(b)(3)",
            "Exempted by another statute",
            "Specifically exempted from disclosure by another federal statute.",
        ),
        (
            "(b)(4)",
            "Trade secrets and confidential commercial information",
            "Trade secrets and commercial or financial information obtained from a person and privileged or confidential.",
        ),
        (
            "(b)(5)",
            "Privileged inter- or intra-agency communications",
            "Deliberative process, attorney work-product and attorney-client privileged communications.",
        ),
        (
            "(b)(6)",
            "Personal privacy",
            "Personnel, medical and similar files whose disclosure would be a clearly unwarranted invasion of personal privacy.",
        ),
        (
            "(b)(7)(A)",
            "Law enforcement: interference with proceedings",
            "Could reasonably be expected to interfere with enforcement proceedings.",
        ),
        (
            "(b)(7)(B)",
            "Law enforcement: fair trial",
            "Would deprive a person of a right to a fair trial or an impartial adjudication.",
        ),
        (
            "(b)(7)(C)",
            "Law enforcement: personal privacy",
            "Could reasonably be expected to constitute an unwarranted invasion of personal privacy.",
        ),
        (
            "(b)(7)(D)",
            "Law enforcement: confidential source",
            "Could reasonably be expected to disclose the identity of a confidential source.",
        ),
        (
            "(b)(7)(E)",
            "Law enforcement: techniques and procedures",
            "Would disclose techniques, procedures or guidelines for law enforcement investigations.",
        ),
        (
            "(b)(7)(F)",
            "Law enforcement: life or physical safety",
            "Could reasonably be expected to endanger the life or physical safety of any individual.",
        ),
        (
            "(b)(8)",
            "Financial institutions",
            "Examination, operating or condition reports about financial institutions.",
        ),
        (
            "(b)(9)",
            "Geological information",
            "Geological and geophysical information and data, including maps, concerning wells.",
        ),
    ],
    "UK": [
        (
            "s.21",
            "Information accessible by other means",
            "Reasonably accessible to the applicant otherwise.",
        ),
        (
            "s.22",
            "Information intended for future publication",
            "Held with a view to publication at a future date.",
        ),
        (
            "s.23",
            "Security bodies",
            "Supplied by, or relating to, bodies dealing with security matters.",
        ),
        (
            "s.24",
            "National security",
            "Exemption required for the purpose of safeguarding national security.",
        ),
        ("s.26", "Defence", "Would be likely to prejudice the defence of the British Islands."),
        (
            "s.27",
            "International relations",
            "Would be likely to prejudice relations with another State or organisation.",
        ),
        (
            "s.29",
            "The economy",
            "Would be likely to prejudice the economic or financial interests of the UK.",
        ),
        (
            "s.30",
            "Investigations and proceedings",
            "Held for investigations or proceedings conducted by public authorities.",
        ),
        (
            "s.31",
            "Law enforcement",
            "Would be likely to prejudice the prevention or detection of crime and other law enforcement.",
        ),
        (
            "s.32",
            "Court records",
            "Held only by virtue of being contained in court or inquiry records.",
        ),
        (
            "s.35",
            "Formulation of government policy",
            "Relates to the formulation or development of government policy.",
        ),
        (
            "s.36",
            "Prejudice to effective conduct of public affairs",
            "Would be likely to inhibit free and frank advice or the exchange of views.",
        ),
        (
            "s.38",
            "Health and safety",
            "Would be likely to endanger the physical or mental health or safety of any individual.",
        ),
        (
            "s.40(1)",
            "Personal information of the requester",
            "Personal data of which the applicant is the data subject.",
        ),
        (
            "s.40(2)",
            "Personal information of others",
            "Personal data of a third party whose disclosure would breach the data protection principles.",
        ),
        (
            "s.41",
            "Information provided in confidence",
            "Obtained from another person, its disclosure would be an actionable breach of confidence.",
        ),
        (
            "s.42",
            "Legal professional privilege",
            "A claim to legal professional privilege could be maintained in legal proceedings.",
        ),
        (
            "s.43",
            "Commercial interests",
            "A trade secret, or disclosure would be likely to prejudice commercial interests.",
        ),
        (
            "s.44",
            "Prohibitions on disclosure",
            "Disclosure is prohibited by or under any enactment or would be contempt of court.",
        ),
    ],
    "EU-GDPR": [
        (
            "Art.15(4)",
            "Rights and freedoms of others",
            "The copy of the data shall not adversely affect the rights and freedoms of others (third-party personal data).",
        ),
        (
            "Art.23(1)(c)",
            "Public security",
            "A restriction safeguarding public security, provided by Union or Member State law.",
        ),
        (
            "Art.23(1)(d)",
            "Prevention and prosecution of crime",
            "A restriction for the prevention, investigation, detection or prosecution of criminal offences.",
        ),
        (
            "Art.23(1)(e)",
            "Important public interest",
            "A restriction safeguarding other important objectives of general public interest.",
        ),
        (
            "Art.23(1)(i)",
            "Protection of the data subject or others",
            "A restriction protecting the data subject or the rights and freedoms of others.",
        ),
        (
            "Art.23(1)(j)",
            "Civil law claims",
            "A restriction for the enforcement of civil law claims.",
        ),
    ],
}


def seed(apps, schema_editor):
    Jurisdiction = apps.get_model("intake", "Jurisdiction")
    Exemption = apps.get_model("intake", "Exemption")
    for jurisdiction in Jurisdiction.objects.all():
        entries = {
            code: (title, text) for code, title, text in CATALOGUES.get(jurisdiction.code, [])
        }
        for code in {jurisdiction.default_exemption, *dict(jurisdiction.exemption_codes).values()}:
            entries.setdefault(code, (code, "Added from the jurisdiction's default codes."))
        for code, (title, text) in entries.items():
            Exemption.objects.get_or_create(
                jurisdiction=jurisdiction, code=code, defaults={"title": title, "description": text}
            )


class Migration(migrations.Migration):
    dependencies = [("intake", "0005_exemption_catalogue")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
