from django.apps import AppConfig


class ServingConfig(AppConfig):
    name = "config.serving"
    label = "serving"
    verbose_name = "Serving"
