"""What exercises the product without shipping in it: the soak (`soak`, `soak_dealers`),
failover rehearsals (`failover`), whole rooms driven in process (`room_loop`), scratch
PostgreSQL servers (`pg_admin`) and a virtual clock (`sim_clock`).

bench/ scripts import it as `harness` (their folder is on the path); tests/ through
pytest's `pythonpath`. It may import anything of kiosk/; kiosk/ never imports it.
"""
