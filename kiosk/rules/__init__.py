"""Rule profiles and blind structures as data (TOML and CSV), with their loaders.

Imports only kiosk.base: the core and the config read the rules.
"""
