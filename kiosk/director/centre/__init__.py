"""The centre of the director's hexagon: the room's application service (`room_service`)
decides, writes one transaction (`transactions`, `batch`) and says what changed, over the
aggregates it holds (`repository`: the room's `room_aggregate` and one `event_aggregate`
per event, each with its stream of the log), through the small Protocols of `ports`.

Knows no broker, page, printer or lease (contract `director-centre-pure`): it imports only
the core, the config and `kiosk.director.log`.
"""
