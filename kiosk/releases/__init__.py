"""Kiosk releases: signed sets of wheels the director serves and the tables install.

Imports only the protocol and the base; shared by the director and the table, which it
never imports.
"""
