"""The director's dashboard, TV clock and player pages (aiohttp): an adapter of the room's
service, built by the composition root (kiosk.director.service); also the floor roles,
the QR codes and the room API's client that `pokerkiosk room` uses.

May import every folder of the director below it: adapters, standby, views, centre.
"""
