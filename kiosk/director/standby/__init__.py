"""Two directors on one PostgreSQL log: who leads, the standby's warm fold, the takeover
and the step-down (`leadership`), and the directors updating themselves (`self_update`).

May import the centre and the log (the lease).
"""
