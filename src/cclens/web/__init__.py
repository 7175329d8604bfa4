"""The local web app: projects, sessions, search and live updates, served on 127.0.0.1.

``create_app(Settings(db_path=...))`` gives the Starlette app; :mod:`cclens.web.server` runs it
under uvicorn. See docs/web.md for the pages, the JSON API and the safety rules.
"""

from .app import create_app
from .server import RunningServer, start
from .settings import DEFAULT_HOST, DEFAULT_PORT, Settings

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "RunningServer", "Settings", "create_app", "start"]
