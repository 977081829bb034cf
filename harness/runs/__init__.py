"""Runs: many episodes, their recording, metrics, reports, exports and media."""
