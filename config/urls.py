from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.serving.otp import verify as otp_verify
from review.metrics import metrics_view

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/audit/", include("audit.urls")),
    path("api/v1/", include("intake.urls")),
    path("api/v1/", include("review.api_urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/verify/", otp_verify, name="otp_verify"),
    path("metrics", metrics_view, name="metrics"),
    path("", include("review.urls")),
]

admin.site.site_header = "Redaction Review Queue"
admin.site.site_title = "Redaction Review Queue"


def handler404(request, exception):  # noqa: ARG001 - Django's handler signature
    """JSON in the API's error shape under /api/, Django's page elsewhere."""
    from django.http import JsonResponse
    from django.views.defaults import page_not_found

    if request.path.startswith("/api/"):
        return JsonResponse(
            {"code": "not_found", "message": "no such resource", "errors": []}, status=404
        )
    return page_not_found(request, exception)
