"""The declared records of the core and the frame its parts are built on: every event and
command of every stream (`events`, `commands`, `room_events`, `room_commands`,
`reservation_events`, `stall_events`, the report payloads), the records a fold fills
(`state`), what the decisions changed (`changes`), a part's base (`component`), what a part
is given (`host`), and late registration's windows.

May import only `kiosk.core.calc` (and the rules, the base's errors): the parts, the event
and the room are built on it.
"""
