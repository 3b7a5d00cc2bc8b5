"""Tournament simulator: virtual tables playing through the core, in process or over MQTT,
the soak, and the demo room (`demo`).

May import the director (the demo and the soak run a real one) and everything below it;
never the table's screen.
"""
