from django.urls import path

from review import apis

urlpatterns = [
    path(
        "submissions/<str:submission_id>/",
        apis.SubmissionDetailApi.as_view(),
        name="submission-detail",
    ),
    path(
        "submissions/<str:submission_id>/health",
        apis.SubmissionHealthApi.as_view(),
        name="submission-health",
    ),
    path("documents/<str:document_id>/", apis.DocumentDetailApi.as_view(), name="document-detail"),
    path(
        "documents/<str:document_id>/output",
        apis.DocumentOutputApi.as_view(),
        name="document-output",
    ),
    path(
        "documents/<str:document_id>/redaction-log.csv",
        apis.DocumentRedactionLogApi.as_view(),
        name="document-redaction-log",
    ),
]
