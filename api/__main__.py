"""`python -m api`: serves the API with werkzeug's threaded server (the embedded default).

`drts api` and `drts run` run this. In production serve `api.wsgi:app` with gunicorn
instead (docs/api.md). Settings come from the environment (service/settings.py).
The server is werkzeug's own (`make_server`), without `run_simple`'s start banner:
its warning that this is a development server is docs/api.md's advice already, and
under `drts run` it is not the user's to act on; `drts run` says where the API is.
"""

from __future__ import annotations

import argparse

from werkzeug.serving import make_server

from api.app import create_app


def main(argv: list[str] | None = None) -> None:
    """Parses --host and --port and serves until interrupted."""
    parser = argparse.ArgumentParser(prog="drts api", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    server = make_server(args.host, args.port, create_app(), threaded=True)
    server.serve_forever()  # until interrupted (werkzeug closes the socket then)


if __name__ == "__main__":
    main()
