"""Every `pokerkiosk` subcommand, one module a command (`main` dispatches to them).

A command module parses its arguments and calls into the part that does the work; it is
imported only when chosen, so `pokerkiosk sim` never loads Kivy or aiohttp. The top layer:
it may import any part of kiosk/, and no part imports it.
"""
