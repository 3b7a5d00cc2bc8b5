"""The director's dashboard, TV clock and player pages (aiohttp): an adapter of the room's
service, built by the composition root (kiosk.director.service)."""
