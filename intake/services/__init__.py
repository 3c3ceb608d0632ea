"""Intake's write operations: checks of what arrives, admission, folder ingest. Import a
name from the module that owns it."""
