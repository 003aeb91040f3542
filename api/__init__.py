"""The HTTP API: a Flask app factory with flask-smorest blueprints (see api.app)."""
