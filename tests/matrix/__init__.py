"""The matrix (issue 40): every view of every game at every stage of a match.

- games.py: the games, from the registry (every version), each with its short config;
- stages.py: the stages of a match's life, each built once a session in its own store
  (played by playing.py: one builder a stage);
- surfaces.py: the read surfaces, generated from the OpenAPI document, the page routes
  and the `drts match` click group, plus the channels (Public Display, result mail,
  forum posts, bot protocol) and the checks across them (agreement.py);
- cells.py: the one table of cells not run (NOT_RUN, with the reasons), the refusals a
  read may rightly give (REFUSALS) and the reads that are recorded looks (RECORDED);
- asking.py: what a stage's match offers to read, and each surface's reads, every
  declared parameter filled; reading.py: how each surface is read, and the invariants;
- test_matrix.py: one test a cell; test_generation.py: what is added later joins.

Extending it: a new game needs its short config in games.PLAYED; a new stage a builder
in playing.BUILDERS; a new GET endpoint, page route or command needs nothing unless it
takes a parameter asking.py cannot fill (its cells fail, saying so), a new page
blueprint its token kinds in surfaces.PAGE_TOKENS, a new write command a line in
cells.CLI_WRITES. `pytest tests/matrix` prints the matrix's figures at the end.
"""
