"""Queries: reads of a match and of its past, which never change it.

- reads.py: a match's summary, state, scores, display, event log and listings;
- views.py: the folds behind them (summary, state at any movement, the event log, display);
- replays.py: a stored log folded again from the first and checked, and its snapshots;
- listings.py: the match list, scoreboards, standings, the due movements and rematches,
  from the read models;
- ratings.py: players' OpenSkill ratings, rebuilt from the finished rated matches;
- movements.py: past movements and receipts, read from the log;
- phases.py: the state after each phase of a resolved movement, run again on demand;
- eventfilter.py: which events of a log a reader asks for;
- polling.py: long polling without holding a database connection;
- corrections.py: a corrected match's timelines read from the log, the match as it stood;
- disputes.py: what a dispute may cite and its public form, the list's pages;
- audit.py: a stored match re-adjudicated from its orders, and the report;
- legal.py: what a seat may order now in the open movement.
"""
