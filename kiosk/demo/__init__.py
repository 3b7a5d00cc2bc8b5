"""`pokerkiosk demo`: a whole room on one machine (`room`), its simulated tables' buttons
(`buttons`) and update state (`versions`), and its dealers badging in (`dealers`).

May import the simulator, the director (the demo runs a real one) and everything below
them; never the table's screen (a real kiosk joins as its own process).
"""
