"""Alembic migrations of the fourcards schema (run by :func:`fourcards.store.db.migrate`)."""
