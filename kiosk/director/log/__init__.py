"""The room's log: its interface (`logstore`), SQLite and PostgreSQL stores (`store`
chooses), snapshots, the leader's lease in PostgreSQL (`lease`), and whole-log tools: a
copy, a file set aside (`maintenance`). Scratch PostgreSQL servers for tests and benches
are the harness's (bench/harness/pg_admin.py), not the product's.

The bottom layer of the director: imports nothing of it, only the config and the core.
"""
