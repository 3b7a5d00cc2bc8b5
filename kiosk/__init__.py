"""poker-kiosk: run a live poker tournament from the tables."""

__version__ = "0.1.0"
