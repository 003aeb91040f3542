"""The public streams of live matches (issue 47): one reader of the log's tail a process,
fanned out to every viewer of a match.

- `tail.py` (`LogTail`): which matches the log holds new events for, read from one
  position on; woken by the event store's NOTIFY on PostgreSQL (one LISTEN connection a
  process), by a cheap poll of the log's newest position elsewhere (SQLite, memory).
- `hub.py` (`LiveFeed`, `Watch`): the process's channels, one a watched match, each
  holding the public feed entries (`Matches.event_page`, rendered once) of its latest
  events; a viewer takes what follows its last event from there, and reads the log only
  to catch up after it connects.
"""
