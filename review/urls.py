from django.urls import path

from review import views

app_name = "review"

urlpatterns = [
    path("", views.queue, name="queue"),
    path("claim-next/", views.claim_next, name="claim_next"),
    path("items/<int:item_id>/", views.item, name="item"),
    path("items/<int:item_id>/pages/<int:page>.png", views.page_image, name="page_image"),
    path("items/<int:item_id>/decisions/", views.decisions, name="decisions"),
    path("items/<int:item_id>/heartbeat/", views.heartbeat, name="heartbeat"),
    path("items/<int:item_id>/claim-again/", views.claim_again, name="claim_again"),
    path("items/<int:item_id>/release/", views.release, name="release"),
    path("items/<int:item_id>/approve/", views.approve, name="approve"),
    path("items/<int:item_id>/escalate/", views.escalate, name="escalate"),
    path("ops/", views.ops_runs, name="ops_runs"),
    path("ops/runs/<uuid:submission_id>/", views.ops_run, name="ops_run"),
    path("ops/items/<int:item_id>/", views.ops_item_timeline, name="ops_item"),
    path("documents/<uuid:document_id>/output", views.document_output, name="document_output"),
    path(
        "documents/<uuid:document_id>/redaction-log.csv",
        views.document_redaction_log,
        name="document_redaction_log",
    ),
]
