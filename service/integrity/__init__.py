"""Integrity: what lets anyone check a match (docs/integrity.md).

- evidence.py: heads and receipts held outside the database, checked against a log;
- audit.py: re-adjudicating a stored match from its orders;
- inspection.py: the seed, a match's archive, corrections, audits and chain checks, as reads;
- archive_events.py: a match's events rebuilt from their public JSON form.
"""
