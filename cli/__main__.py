"""`python -m cli`: the `drts` command (how `drts run` starts its mail part)."""

from cli.main import main

main()
