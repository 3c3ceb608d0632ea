"""The three human roles and the intake service-account group (groups made by migration)."""

REVIEWER = "reviewer"
SENIOR_REVIEWER = "senior_reviewer"
COMPLIANCE_OFFICER = "compliance_officer"
INTAKE_CLIENT = "intake_client"

QUEUE_PERMISSIONS = {
    REVIEWER: ["review.review_queue"],
    SENIOR_REVIEWER: ["review.review_queue", "review.review_senior_queue"],
    COMPLIANCE_OFFICER: [
        "review.review_queue",
        "review.review_senior_queue",
        "review.review_compliance_queue",
    ],
}

# Compliance officers run the service from the admin: they see everything, edit the
# policy and the jurisdiction registry, and place legal holds. History stays read-only.
COMPLIANCE_ADMIN_PERMISSIONS = [
    "audit.view_auditevent",
    "intake.view_submission",
    "intake.view_document",
    "intake.view_rejectedsubmission",
    "intake.view_jurisdiction",
    "intake.change_jurisdiction",
    "intake.add_jurisdiction",
    "review.view_reviewitem",
    "review.view_claim",
    "review.view_proposal",
    "review.view_mark",
    "review.view_approval",
    "review.view_artifact",
    "review.view_deadletter",
    "review.view_legalhold",
    "review.add_legalhold",
    "review.view_policy",
    "review.add_policy",
    "review.change_policy",
]
