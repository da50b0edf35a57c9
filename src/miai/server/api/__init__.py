"""The server's edge: the REST API under /api/v1 and the websocket endpoints (`ws.py`)."""
