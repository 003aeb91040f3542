"""The WSGI entry point for production servers: `gunicorn api.wsgi:app`.

Settings come from the environment (DRTS_DATABASE_URL, DRTS_OPERATOR_TOKEN,
DRTS_MAX_BODY_BYTES). Each gunicorn worker imports this module and so makes
its own Matches application: do not use gunicorn's --preload, which would
share one connection pool across the fork. Long polls hold a worker thread:
use threaded workers (`--worker-class gthread --threads 8`). The live streams
(`/matches/{id}/stream`, and the pages' `/ui/matches/{id}/*/stream`) are served by a
second gunicorn of this same app with `--worker-class gevent` (a viewer a greenlet), to
which the proxy sends them (docs/operations.md, Live streams).
"""

from api.app import create_app

app = create_app()
