from django.urls import path

from audit import apis

urlpatterns = [
    path("", apis.AuditEventListApi.as_view(), name="audit-events"),
]
