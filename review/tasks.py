"""django-q2 tasks: thin. Primitive ids in, one service call."""

from review.services import proposal_detect


def detect_document(item_id: int) -> None:
    proposal_detect(item_id=item_id, actor="service:detector")
