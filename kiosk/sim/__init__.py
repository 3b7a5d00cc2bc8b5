"""Tournament simulator: virtual tables playing through the core, in process or over MQTT,
the soak, and the demo room (`demo`) with its dealers badging in (`demo_dealers`).

May import the director (the demo and the soak run a real one) and everything below it;
never the table's screen.
"""
