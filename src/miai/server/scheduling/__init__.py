"""Scheduling: deadlines stored in the database, enforced by a loop inside the server."""
