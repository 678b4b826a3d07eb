"""The web app: FastAPI (REST + websockets), server-rendered pages, live tables.

Start it with ``fourcards serve`` or build it with :func:`create_app`.
"""

from fourcards.web.app import create_app

__all__ = ["create_app"]
