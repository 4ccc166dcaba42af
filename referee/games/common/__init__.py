"""Pieces shared by several games: seeded shuffles, seat rotation."""
