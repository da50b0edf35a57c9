"""Miai: a server for Go with two or more colours and its territory-game cousins."""

__version__ = "0.1.0"
