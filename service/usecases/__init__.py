"""The use cases that change a match: each an object given its collaborators (DESIGN.md,
"Inside service/"); `service.matches.Matches` wires them for the edges.

- lobby.py: creating and importing matches, seats, result addresses, starting;
- intake.py: orders from the API, mail and forum posts;
- resolution.py: closing movements at their deadlines, the sweep, rematches, retries;
- batches.py: resolving a burst of due movements together;
- quarantine.py: counting failed resolutions, the quarantined matches;
- refereeing.py: deadlines moved, referee actions, forfeits, pauses;
- disputes.py: what a dispute may cite, filing and ruling;
- corrections.py: corrections of a resolved movement, as the service runs them;
- archive.py: exporting a match as one archive and importing one read-only;
- imported.py: which matches were imported (they are read-only);
- players.py: player identities: created, key reissued, address confirmed, a seat's player.
"""
