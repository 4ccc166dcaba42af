"""referee: an impartial rules arbiter for tabletop card games, served as a REST API."""

__version__ = "0.1.0"
