"""Realtime: the event hub and the websocket endpoints."""
