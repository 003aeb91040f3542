"""Integrity: what lets anyone check a match (docs/integrity.md).

- evidence.py: heads and receipts held outside the database, checked against a log;
- archive_events.py: a match's events rebuilt from their public JSON form.
"""
