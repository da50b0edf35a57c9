"""Notifications: the e-mail outbox sender."""
