"""Maintenance scripts for the taskspec project (run from the repository root)."""
