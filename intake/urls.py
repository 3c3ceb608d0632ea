from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from intake import apis

urlpatterns = [
    path("submissions/", apis.SubmissionCreateApi.as_view(), name="submission-create"),
    path(
        "documents/<str:document_id>/events/",
        apis.DocumentEventsApi.as_view(),
        name="document-events",
    ),
    path(
        "documents/<str:document_id>/evidence",
        apis.DocumentEvidenceApi.as_view(),
        name="document-evidence",
    ),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves the start-up script as a file: the CSP allows no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
]
