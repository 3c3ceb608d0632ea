"""django-q2 tasks: thin. Primitive ids in, one service call."""

from review.services import PermanentFailure, artifact_render, dead_letter_record, proposal_detect


def detect_document(item_id: int) -> None:
    proposal_detect(item_id=item_id, actor="service:detector")


def render_and_sign(item_id: int) -> None:
    try:
        artifact_render(item_id=item_id, actor="service:renderer")
    except PermanentFailure as failure:
        # Retrying cannot fix a failed release gate: park the item for a human.
        dead_letter_record(item_id=item_id, reason=failure.reason, actor="service:renderer")
