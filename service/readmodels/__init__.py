"""Read models: projections of the Matches log into tables (match list, deadlines,
scoreboards, standings), kept up to date by catch-up, a live follower or a timer.

- tables.py: the tables, as SQLAlchemy metadata (what the migrations create);
- projections.py: what each event writes, per projection;
- heads.py: the match list's recorded heads, moved only along the chain (a break
  quarantines the match);
- recorders.py: the views (eventsourcing tracking recorders, PostgreSQL and SQLite);
- runner.py: catch-up, rebuild, the live follower and the timer;
- queries.py: the service's queries over the tables.

The views live in the event store's own database (and share its connection
pool): on PostgreSQL in the same schema, on SQLite in the same file, so one
migration run and one backup cover everything. The in-memory store
(`memory://`) keeps its views in a private in-memory SQLite database.
"""
