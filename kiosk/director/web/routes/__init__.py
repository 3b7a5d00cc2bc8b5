"""The dashboard's routes, one module a page: `session` (log in and out), `room` (the room
page and its actions), `event` (one event's dashboard, the TV clock, the floor's commands),
`live` (their websocket feed), `sections`, `dealers`, `money`, `printer`, `releases`,
`leagues`, `players` (the players' public pages), `reservations` and `texts` (the
pages' texts in each language).

Each module holds a class built from the app's `Site` whose `routes()` lists its reads
and its actions, every action declared with its `Action` so the door
(kiosk.director.web.door) checks it. May import the rest of kiosk.director.web below the
app (the door, the site, the pages, auth, roles, the player feed, the QR codes, the rate
limits) and the director's folders below the web; a page imports no other page, but the
event's commands hand the desk's reservation commands to `reservations` (contract
`director-web-routes`).
"""
