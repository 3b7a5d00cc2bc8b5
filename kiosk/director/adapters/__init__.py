"""The centre's other adapters, each the I/O of one outside thing: players from a CSV
(`csv_import`), the desk's receipt printer (`printing`), and the releases the tables are
offered (`release_desk`).

May import the MQTT adapters, the views, the services, the centre and the log.
"""
