"""Test and benchmark data built the way the service builds it: generated PDFs (the
labelled detection corpus, the leak corpus) and database rows for volume set-ups. Used
by `tests/` and `bench/` alike; never imported by the service."""
