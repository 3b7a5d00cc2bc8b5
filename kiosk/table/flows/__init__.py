"""One pure state machine per dealer flow: a hand, a bust, a clock call, the shot clock,
a floor call, moves, a chip count, a colour-up, the prompts that ask first, and undo;
and the directions the room gives besides the plan (the schedule, the directories).

The controller (kiosk.table.controller) drives them. They import only the table's pure
parts beside the controller (context, result, view, calls, moment, money entry) and the
core; no hardware, no MQTT, no Kivy.
"""
