"""The read side: what the dashboard, the TV clock, the players' pages and the leagues show,
as plain JSON-ready dicts (`views`, `room_views`, `money_views`, `player_views`,
`leagues`), results read back from a log (`from_log`), the tables' own feed
(`table_feed`) and the "something changed" fan-out to page connections (`hub`).

May import the centre and the log; never an adapter.
"""
