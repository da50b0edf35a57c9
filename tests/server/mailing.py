"""A server that mails through a local SMTP port: the fixture of the account and address-change tests.

Named `client` in the tests that import it (`from tests.server.mailing import mailing_client`), where it
takes the place of conftest's server that mails nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from miai.server.app import create_app
from tests.server.processes import free_port
from tests.server.test_email import smtp_settings


@pytest.fixture(name="client")
def mailing_client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(smtp_settings(database_url, tmp_path, free_port()), background=False)
    with TestClient(app) as test_client:
        yield test_client
