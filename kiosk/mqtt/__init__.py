"""The broker and the one place a paho-mqtt client is built: Mosquitto (or an embedded
broker) for the demo and the tests, and a client with its login, TLS, last will and the
move to the next broker.

May import the base and the config (the broker settings); the director, the table, the
simulator and the appliance's checks use it.
"""
