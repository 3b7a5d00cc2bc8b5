"""The director: owns the room, logs every decision, publishes plans.

A hexagon in folders (docs/architecture.md, "The director"): `running` (what
`pokerkiosk director` runs) over the composition root `service`, which wires the adapters
(`web`, `adapters`, `standby`, `mqtt`) around the read side (`views`), the centre
(`centre`) and the log (`log`). Each folder imports only those below it (contract
`director`); the director may import every part of kiosk/ but the table and the sim.
"""
