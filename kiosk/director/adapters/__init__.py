"""The centre's other adapters: reservations and alternates as the desk runs them
(`bookings`), players from a CSV (`csv_import`), the desk's receipt printer
(`printing`), and the releases the tables are offered (`release_desk`).

May import the MQTT adapters, the views, the centre and the log.
"""
