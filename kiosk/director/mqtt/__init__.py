"""The MQTT adapters: the one door out (`wire`), the inbox of the tables' reports
(`inbox`) with per-table budgets (`budget`), what is published and when (`publisher`),
the clock's beat (`ticker`), and the broker connection (`mqtt_link`).

May import the views, the centre, the log, and kiosk.mqtt and kiosk.protocol.
"""
