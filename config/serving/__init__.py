"""Serving the project in production: login throttling's answer, the second factor
(middleware, verification page, enrolment command) and the worker clusters' clean stop
(a `qcluster` command that wraps django-q2's). An app, so its commands are found."""
