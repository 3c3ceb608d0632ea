"""Driving the reviewer's pages over HTTP, as a person would, for pipeline tests."""

from django.test import Client


def review_over_http(capture, reviewer) -> int:
    """Claim next, view every page, accept every mark, save, approve: through the
    reviewer's pages.

    `capture` is pytest-django's django_capture_on_commit_callbacks: rendering and signing
    queued on commit run right away (django-q2 is in sync mode). Returns the item id.
    """
    client = Client()
    client.force_login(reviewer)
    with capture(execute=True):
        item_url = client.post("/claim-next/")["Location"]
    item_id = int(item_url.strip("/").split("/")[-1])
    page = client.get(item_url)
    config = page.context["review_config"]
    for number in range(len(page.context["pages"])):
        assert client.get(f"/items/{item_id}/pages/{number}.png").status_code == 200
    saved = accept_every_mark(client, item_id, page)
    with capture(execute=True):
        approved = client.post(
            f"/items/{item_id}/approve/",
            {
                "claim_id": config["claim_id"],
                "proposal_version": saved["version"],
                "preview_sha256": saved["preview_sha256"],
            },
        )
    assert approved.status_code == 302, approved
    return item_id


def accept_every_mark(client: Client, item_id: int, page) -> dict:  # noqa: ANN001
    """Save "accepted" for every mark of the item `page` (its item page) shows; returns
    the save's answer (the new version and preview hash)."""
    config = page.context["review_config"]
    return client.post(
        f"/items/{item_id}/decisions/",
        data={
            "claim_id": config["claim_id"],
            "base_version": config["base_version"],
            "changes": {m["key"]: {"decision": "accepted"} for m in page.context["marks"]},
        },
        content_type="application/json",
    ).json()
