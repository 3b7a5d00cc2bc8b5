"""Kiosk releases: signed sets of wheels the director serves and the tables install."""
