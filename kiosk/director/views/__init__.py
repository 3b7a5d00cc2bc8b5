"""The read side: what the dashboard, the TV clock, the players' pages and the leagues show,
as plain JSON-ready dicts (`views`, `room_views`, `money_views`, `player_views`,
`stall_views`, `leagues`), results read back from a log (`from_log`), the tables' own feed
(`table_feed`), the "something changed" fan-out to page connections (`hub`) and the
pages' outbox of each commit that feeds it (`page_notes`).

May import the centre and the log; never an adapter.
"""
