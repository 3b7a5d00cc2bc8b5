"""The files a room is set up with: event.toml and table.toml (`files`), room.toml
(`room`), the floor logins, which database the log lives in, the rule files' check, and
docs/config.md generated from the same schema (`doc`).

May import the base, the rules, the core (a money section is checked by its payout
rules), the protocol (topic names) and the printer (its port settings).
"""
