"""Checks of the developer's machine (tool versions) and project (detection and findings)."""
