"""The web pages: server-rendered HTML under /ui/ (docs/pages.md)."""
