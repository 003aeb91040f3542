"""The store: eventsourcing's application underneath every use case, and what it is made of.

- application.py: `MatchStore`, the one subclass of eventsourcing's `Application`: opening
  a store, loading a match checked, saving with retries, the match cache, read models, tokens;
- loading.py: a match loaded from its stored rows and checked (snapshots it trusts, a
  tampered or truncated log named);
- eventwrite.py: the log's write in one statement on PostgreSQL (migration 0017's function);
- fastforward.py: the events stored after several kept matches, read in one query;
- matchcache.py: the matches a process keeps between commands;
- logguard.py: the write's guard against a log cut short;
- transcodings.py: how the Match's typed values are stored;
- tokens.py: who holds a token (seats, the referee, the operator);
- idempotency.py: the `IdempotencyKey` aggregate behind a create's idempotency key;
- pastreads.py: what reads of a match's past keep between requests;
- imported.py: which matches were imported from an archive (they are read-only).
"""
