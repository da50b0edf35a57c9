"""A client that closes its socket right after a command, before the ack is sent: the ack is dropped, not
raised (it showed as a server traceback in a benchmark whose client closed after its last move)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi import WebSocketDisconnect
from starlette.websockets import WebSocketState

from miai.server.api import ws


class GoneClient:
    application_state = WebSocketState.CONNECTED

    def __init__(self, error: BaseException) -> None:
        self.error = error

    async def send_json(self, payload: Any) -> None:
        raise self.error


@pytest.mark.parametrize(
    "error", [WebSocketDisconnect(1006), RuntimeError("closed"), ConnectionResetError("reset by peer")]
)
def test_an_ack_to_a_client_that_has_gone_is_dropped(error: BaseException) -> None:
    asyncio.run(ws._send(GoneClient(error), {"t": "ack", "d": {"id": 1}}))  # type: ignore[arg-type]
