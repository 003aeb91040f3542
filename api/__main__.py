"""`python -m api`: serves the API with werkzeug's threaded server (the embedded default).

`drts api` runs this. In production serve `api.wsgi:app` with gunicorn instead
(docs/api.md). Settings come from the environment (service/settings.py).
"""

from __future__ import annotations

import argparse

from werkzeug.serving import run_simple

from api.app import create_app


def main(argv: list[str] | None = None) -> None:
    """Parses --host and --port and serves until interrupted."""
    parser = argparse.ArgumentParser(prog="drts api", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    run_simple(args.host, args.port, create_app(), threaded=True)


if __name__ == "__main__":
    main()
