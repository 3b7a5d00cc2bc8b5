"""Rule profiles and blind structures as data (TOML and CSV), with their loaders, and
which tools against stalling a profile and a structure can take together (`stalling`).

Imports only kiosk.base: the core and the config read the rules.
"""
