"""Gnoming A Round: a golf-style card game of 3×3 layouts (rules: shared/rules/gnoming.md)."""
