"""URLconf for bench/intake.py only: the service's URLs plus one bare endpoint that does
the irreducible work of an admission. Never part of the service: the benchmark starts
gunicorn with `DJANGO_SETTINGS_MODULE=bench.intake_settings` (the production settings
with this URLconf), and no settings module of the project names it.

The bare endpoint receives the multipart upload through Django's own upload handlers (as
the intake API does: memory under 2 MiB, a temporary file above), hashes it in 1 MiB
chunks, opens it with PyMuPDF and INSERTs one row, committed. Nothing else: no
authentication, validation, storage, audit or review item.
"""

import hashlib
import uuid

import pymupdf
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from config.urls import handler404  # noqa: F401
from config.urls import urlpatterns as service_urlpatterns

_TABLE_READY = False


@csrf_exempt
def bare_intake(request: HttpRequest) -> HttpResponse:
    global _TABLE_READY
    if not _TABLE_READY:
        with connection.cursor() as cursor:
            cursor.execute(
                "CREATE TABLE IF NOT EXISTS bench_baseline (id varchar(64), sha varchar(64))"
            )
        _TABLE_READY = True
    upload = request.FILES["files"]
    digest = hashlib.sha256()
    for chunk in upload.chunks(1 << 20):
        digest.update(chunk)
    local = getattr(upload, "temporary_file_path", None)
    if local is not None:
        doc = pymupdf.open(local())
    else:
        upload.seek(0)
        doc = pymupdf.open(stream=upload.read(), filetype="pdf")
    with doc:
        doc.page_count  # noqa: B018 - forces the open check
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO bench_baseline (id, sha) VALUES (%s, %s)",
            [uuid.uuid4().hex, digest.hexdigest()],
        )
    return HttpResponse(status=201)


urlpatterns = [path("bench/bare-intake/", bare_intake), *service_urlpatterns]
