from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from intake import apis
from review.apis import SubmissionHealthApi

urlpatterns = [
    path("submissions/", apis.SubmissionCreateApi.as_view(), name="submission-create"),
    path(
        "submissions/<str:submission_id>/",
        apis.SubmissionDetailApi.as_view(),
        name="submission-detail",
    ),
    path(
        "submissions/<str:submission_id>/health",
        SubmissionHealthApi.as_view(),
        name="submission-health",
    ),
    path("documents/<str:document_id>/", apis.DocumentDetailApi.as_view(), name="document-detail"),
    path(
        "documents/<str:document_id>/events/",
        apis.DocumentEventsApi.as_view(),
        name="document-events",
    ),
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
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]
