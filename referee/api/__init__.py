"""The HTTP layer: one blueprint per area, each view a few lines (parse, call, serialise)."""
