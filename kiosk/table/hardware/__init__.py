"""The table's devices behind thin adapters: the GPIO buttons and lights (gpiozero), the
serial card reader (pyserial), and which of them a table starts.

May import the table's service; the controller and the flows never import these.
"""
