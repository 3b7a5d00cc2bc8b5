"""The director's dashboard, TV clock and player pages (aiohttp): an adapter of the room's
service, built by the composition root (kiosk.director.service). The app (`app`) gathers
the pages' routes (`routes/`, one module a page) over what it serves (`site`); every
route that acts goes through the one door (`door`: origin, session, CSRF token, role,
body, errors). Also the floor's logins and roles, the pages' HTML, the players' feed, the
QR codes and the room API's client that `pokerkiosk room` uses.

May import every folder of the director below it: adapters, standby, views, services,
centre (contract `director`); inside, the layers of contract `director-web`.
"""
