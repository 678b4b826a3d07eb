"""The web app: FastAPI (REST + websockets), server-rendered pages, live tables.

Start it with ``fourcards serve`` or build it with :func:`create_app`. ``create_app`` is imported
when first asked for: ``fourcards serve`` sets up the metrics' folder of its worker processes before
prometheus-client is imported (:mod:`fourcards.web.metrics`).
"""

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from fourcards.web.app import create_app

        return create_app
    raise AttributeError(f"module 'fourcards.web' has no attribute {name!r}")
