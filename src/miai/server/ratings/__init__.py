"""Ratings: Glicko-2 for one-on-one games, OpenSkill for team and multi-colour games, per kind key."""
