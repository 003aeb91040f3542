"""The use cases that change a match: each an object given its collaborators (DESIGN.md,
"Inside service/"); `service.matches.Matches` wires them for the edges.

- lobby.py: creating and importing matches, seats, result addresses, starting;
- intake.py: orders from the API, mail and forum posts;
- resolution.py: closing movements at their deadlines, the sweep, rematches, retries;
- batches.py: resolving a burst of due movements together;
- dueoffers.py: the due movements a draining worker offers to the others;
- quarantine.py: counting failed resolutions, the quarantined matches;
- refereeing.py: deadlines moved, referee actions, forfeits, pauses;
- archive.py: exporting a match as one archive and importing one read-only;
- inspection.py: the seed, a match's archive, corrections, audits and chain checks
  (a look at secrets recorded first);
- players.py: player identities: created, key reissued, address confirmed, a seat's player.
"""
