"""One pure state machine per dealer flow: a hand, a bust, a clock call, a floor call,
moves, a chip count, a colour-up, the prompts that ask first, and undo.

The controller (kiosk.table.controller) drives them. They import only the table's pure
parts beside the controller (context, result, view, calls, moment, money entry) and the
core; no hardware, no MQTT, no Kivy.
"""
