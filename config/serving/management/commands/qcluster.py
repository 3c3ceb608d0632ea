"""`manage.py qcluster`: django-q2's command with a clean stop on SIGINT and SIGTERM
(config/serving/workers.py says what goes wrong without it). This app comes before
django_q in INSTALLED_APPS, so this command is the one `manage.py qcluster` runs."""

import os

from django.conf import settings
from django_q.management.commands.qcluster import Command as DjangoQCommand

from config.serving.workers import Cluster, use_clean_stop


class Command(DjangoQCommand):
    def handle(self, *args: object, **options: object) -> None:
        settings.SECRET_KEY  # noqa: B018 - as django-q2's: no cluster without a signing key
        if options.get("cluster_name"):
            os.environ["Q_CLUSTER_NAME"] = str(options["cluster_name"])
        use_clean_stop()
        cluster = Cluster()
        cluster.start()
        if options.get("run_once", False):
            cluster.stop()
