"""A room of one six-max daily on four tables, its log wherever `db` says (a SQLite
path or a PostgreSQL DSN): the store and leadership tests start from it."""

ROOM = """
[room]
name = "casino"
tables = 4

[director]
db = "{db}"

[[events]]
name = "daily"
structure = "turbo"
seed = 1
seats = 6
"""
