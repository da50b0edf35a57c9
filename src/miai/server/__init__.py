"""The Miai server: ASGI app, storage, realtime, scheduling and notifications. Owns all effects."""
