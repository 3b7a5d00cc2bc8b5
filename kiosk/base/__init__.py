"""What every part of kiosk/ may use: errors that reach a person as one line, CSV cells a
spreadsheet reads as data, TOML read with errors that name file and key, files written
whole with their mode.

Imports nothing of kiosk/: it is the bottom layer (pyproject.toml, contract `kiosk`). The
core may import the errors and the CSV cells, never the file helpers (`core-pure`).
"""
