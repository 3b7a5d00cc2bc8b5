"""poker-kiosk: run a live poker tournament from the tables.

Each folder is a part and a layer (pyproject.toml, contract `kiosk`), from the commands
at the top to the base; each folder's own docstring says what it holds and may import.
"""

__version__ = "0.1.0"
