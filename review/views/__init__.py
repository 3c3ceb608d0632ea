"""The review app's HTML pages, as `review/urls.py` names them: the reviewer's
workbench (`workbench.py`) and the compliance officers' downloads and ops pages
(`compliance.py`). What they share (the request type, the no-store headers) is in
`shared.py`."""

from review.views.compliance import (
    document_output,
    document_redaction_log,
    ops_item_timeline,
    ops_run,
    ops_runs,
)
from review.views.workbench import (
    approve,
    claim_again,
    claim_next,
    decisions,
    escalate,
    heartbeat,
    item,
    page_image,
    queue,
    release,
)

__all__ = [
    "approve",
    "claim_again",
    "claim_next",
    "decisions",
    "document_output",
    "document_redaction_log",
    "escalate",
    "heartbeat",
    "item",
    "ops_item_timeline",
    "ops_run",
    "ops_runs",
    "page_image",
    "queue",
    "release",
]
