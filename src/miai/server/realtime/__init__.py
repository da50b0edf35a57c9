"""Realtime: the event hub (`hub.py`) that hands every published event to this process's subscribers and,
through Redis (`relay.py`), to every other server process's; spectator counts (`watchers.py`) and the
closing of a revoked credential's sockets (`revocation.py`) ride on it. The websocket endpoints that
subscribe to it are part of the edge: `api/ws.py`."""
