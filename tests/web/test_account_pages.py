"""Account pages in a real browser: the address verification link, a forgotten password reset by the mailed
link, and the password change on the settings page.

The server here has SMTP pointing at a closed port, so the mails wait in the stored outbox; the test reads
the links from there, as the user would from their inbox.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.web.support import PASSWORD, free_port, miai_server
from tests.web.ui import open_browser


@pytest.fixture(scope="module")
def mail_server(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("miai-accounts")
    port = free_port()
    settings = {
        "MIAI_SMTP_HOST": "127.0.0.1",
        "MIAI_SMTP_PORT": str(free_port()),
        "MIAI_BASE_URL": f"http://127.0.0.1:{port}",
    }
    with miai_server(data, port=port, **settings) as base:
        yield base, data / "miai.db"


def last_link(database: Path, to: str, subject: str) -> str:
    """The path and fragment of the link in the newest mail to `to` whose subject contains `subject`."""
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "SELECT body FROM outbox WHERE to_address = ? AND subject LIKE ? ORDER BY id DESC",
            (to, f"%{subject}%"),
        ).fetchall()
    assert rows, f"no mail '{subject}' to {to}"
    found = re.search(r"http://127\.0\.0\.1:\d+(/[a-z-]+#token=\S+)", rows[0][0])
    assert found is not None, rows[0][0]
    return found.group(1)


def test_verify_reset_and_change_the_password(browser: Browser, mail_server: tuple[str, Path]) -> None:
    base, database = mail_server
    user = open_browser(browser, base, "forgetful")
    page = user.page
    page.goto("/register")
    page.fill("#username", "forgetful")
    page.fill("#password", PASSWORD)
    page.fill("#email", "forgetful@example.org")
    page.click("#auth-submit")
    expect(page.locator("#nav-user")).to_have_text("forgetful")
    page.goto("/settings")
    expect(page.locator("#email-status")).to_contain_text("Not confirmed yet")

    # The verification link from the mail, followed while logged in.
    page.goto(last_link(database, "forgetful@example.org", "confirm your e-mail"))
    expect(page.locator("#verify-done")).to_contain_text("Miai may now mail forgetful@example.org")
    assert "token" not in page.url  # taken out of the address bar
    page.goto("/settings")
    expect(page.locator("#email-status")).to_have_text("Verified.")

    # A forgotten password: the link is mailed to the verified address; the new password logs in.
    page.click("#logout")
    expect(page.locator("#nav-user")).to_have_count(0)
    page.goto("/login")
    page.click("text=Forgotten password?")
    page.fill("#login", "forgetful@example.org")
    page.click("#forgot-submit")
    expect(page.locator("#forgot-done")).to_contain_text("a link is on its way")
    page.goto(last_link(database, "forgetful@example.org", "reset your password"))
    page.fill("#password", "a brand new password")
    page.click("#reset-submit")
    expect(page.locator("#reset-done")).to_contain_text("Your new password is set")
    page.goto("/login")
    page.fill("#username", "forgetful")
    page.fill("#password", "a brand new password")
    page.click("#auth-submit")
    expect(page.locator("#nav-user")).to_have_text("forgetful")

    # The settings page changes the password with the current one.
    page.goto("/settings")
    page.fill("#current-password", "not the password")
    page.fill("#new-password", "yet another password")
    page.click("#change-password")
    expect(page.locator("#password-form .error")).to_have_text("The current password is wrong.")
    page.fill("#current-password", "a brand new password")
    page.click("#change-password")
    expect(page.locator("#toast")).to_contain_text("Password changed.")
    assert user.errors == []


def forget_password_checks(database: Path) -> None:
    """Every session's last password check is long past (as 15 minutes after logging in)."""
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE sessions SET password_checked_at = NULL")


def test_a_new_address_asks_for_the_password_and_the_old_one_can_undo_it(
    browser: Browser, mail_server: tuple[str, Path]
) -> None:
    base, database = mail_server
    user = open_browser(browser, base, "mover")
    page = user.page
    page.goto("/register")
    page.fill("#username", "mover")
    page.fill("#password", PASSWORD)
    page.fill("#email", "mover@example.org")
    page.click("#auth-submit")
    expect(page.locator("#nav-user")).to_have_text("mover")
    page.goto(last_link(database, "mover@example.org", "confirm your e-mail"))
    expect(page.locator("#verify-done")).to_be_visible()

    # Long after logging in, a new address needs the password again: cancelled, then wrong, then right.
    forget_password_checks(database)
    page.goto("/settings")
    page.fill("#email", "mover@example.net")
    page.click("#save-settings")
    expect(page.locator("#sudo-dialog")).to_be_visible()
    page.click("#sudo-cancel")
    expect(page.locator("#sudo-dialog")).to_have_count(0)
    expect(page.locator("#settings-form .error")).to_contain_text("the password was not confirmed")
    page.click("#save-settings")
    page.fill("#sudo-password", "not the password")
    page.click("#sudo-submit")
    expect(page.locator("#sudo-error")).to_have_text("The password is wrong.")
    page.fill("#sudo-password", PASSWORD)
    page.click("#sudo-submit")
    expect(page.locator("#toast")).to_have_text("Settings saved.")
    expect(page.locator("#sudo-dialog")).to_have_count(0)
    expect(page.locator("#email-status")).to_contain_text("Not confirmed yet")
    page.fill("#email", "mover@example.com")  # within the window now: no question
    page.click("#save-settings")
    expect(page.locator("#toast")).to_have_text("Settings saved.")
    expect(page.locator("#sudo-dialog")).to_have_count(0)

    # The old, verified address was told, with a link that puts it back and logs everybody out.
    page.goto(last_link(database, "mover@example.org", "address was changed"))
    expect(page.locator("#undo-submit")).to_be_visible()
    assert "token" not in page.url  # taken out of the address bar
    page.click("#undo-submit")
    expect(page.locator("#undo-done")).to_contain_text("mover@example.org is your account's address again")
    expect(page.locator("#nav-user")).to_have_count(0)
    page.goto("/login")
    page.fill("#username", "mover")
    page.fill("#password", PASSWORD)
    page.click("#auth-submit")
    expect(page.locator("#nav-user")).to_have_text("mover")
    page.goto("/settings")
    expect(page.locator("#email")).to_have_value("mover@example.org")
    expect(page.locator("#email-status")).to_have_text("Verified.")
    assert user.errors == []
