"""The one error a table command raises: :class:`TableError` (an HTTP status and a sentence)."""

from __future__ import annotations

__all__ = ["TableError"]


class TableError(Exception):
    """A command the table refuses, with ``status`` (the HTTP status a server answers with:
    403 not yours to do, 404 no such seat or request, 409 not now, 422 malformed) and
    ``detail`` (one sentence naming the problem, in the table's words). Nothing changed."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
