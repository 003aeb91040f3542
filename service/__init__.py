"""The service layer: the use cases of playing a match, over eventsourcing's store
(DESIGN.md, "Inside service/"; docs/architecture.md has the map of every module).

- matches.py: `Matches`, the facade the edges (api, workers, cli) use: it wires the use
  cases once and names their methods;
- store/: the one eventsourcing `Application` (`MatchStore`) and what loading and saving
  are made of;
- usecases/: the commands, one object a use case (lobby, intake, resolution, refereeing,
  disputes, corrections, archive, players, ...);
- queries/: reads of a match and its past, which never change it;
- readmodels/: the projections the listings are served from;
- integrity/: evidence, audits and inspection (docs/integrity.md);
- channels/: mail, forum and the bot protocol;
- scenarios/: the scenario runner, its driver and the demo, apart from the use cases;
- pairing/: tournaments' pure, versioned pairing and standings;
- migrations/: Alembic's migrations (service/schema.py runs them);
- the shared parts beside them: settings.py (the one reader of the environment),
  errors.py, results.py (what use cases return), limits.py (what callers may send),
  eventjson.py (an event's public JSON form), schema.py (the database schema, run by
  Alembic's migrations),
  clock.py, scheduling.py (the port for work later), workpolicy.py (when a worker runs
  what), health.py, sessions.py (the pages' sign-ins), maps.py (the maps' data files).
"""
