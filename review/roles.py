"""The three human roles and the intake service-account group (groups made by migration).
The names live with the authorization matrix (`common.authz`)."""

from common.authz import COMPLIANCE_OFFICER, REVIEWER, SENIOR_REVIEWER
from intake.roles import INTAKE_CLIENT

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
    "intake.view_exemption",
    "intake.change_exemption",
    "intake.add_exemption",
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
    "review.view_retentionpolicy",
    "review.add_retentionpolicy",
    "review.change_retentionpolicy",
    "review.view_disposal",
]


def install_roles(Group, Permission) -> None:  # noqa: N803 - model classes, as migrations pass them
    """Create the role groups with their permissions (idempotent). Takes the model
    classes, so the data migration can pass its historical models."""

    def permissions(names: list[str]) -> list:
        result = []
        for name in names:
            app_label, codename = name.split(".")
            action, _, model = codename.partition("_")
            if action in {"add", "change", "delete", "view"} and not _model_exists(
                Permission, app_label, model
            ):
                continue  # an earlier migration: the one adding the model grants these
            result.append(
                Permission.objects.get(content_type__app_label=app_label, codename=codename)
            )
        return result

    for role, names in QUEUE_PERMISSIONS.items():
        extra = COMPLIANCE_ADMIN_PERMISSIONS if role == COMPLIANCE_OFFICER else []
        group, _ = Group.objects.get_or_create(name=role)
        group.permissions.set(permissions(names + extra))
    Group.objects.get_or_create(name=INTAKE_CLIENT)


def _model_exists(Permission, app_label: str, model: str) -> bool:  # noqa: N803
    try:
        Permission._meta.apps.get_model(app_label, model)
    except LookupError:
        return False
    return True
