"""Shared by every app and below all of them: the domain error base, the API error shape
and content-addressed storage. Imports no app."""
