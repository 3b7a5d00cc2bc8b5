"""The room's log: its interface (`logstore`), SQLite and PostgreSQL stores (`store`
chooses), snapshots, the leader's lease in PostgreSQL (`lease`), scratch PostgreSQL
servers for tests and benches (`pg_admin`), and whole-log tools: a copy, a file set aside
(`maintenance`).

The bottom layer of the director: imports nothing of it, only the config and the core.
"""
