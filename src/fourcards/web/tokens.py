"""Seat tokens: a secret per seat, kept by the seat's browser; the server keeps only its hash."""

from __future__ import annotations

import hashlib
import secrets

__all__ = ["new_token", "hash_token"]


def new_token() -> str:
    """A fresh secret seat token (32 URL-safe characters from :mod:`secrets`)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """SHA-256 hex of a seat token: what the database and memory keep."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
