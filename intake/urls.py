from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

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
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]
