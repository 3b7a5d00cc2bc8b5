"""Whole rooms over real brokers and processes, in folders by what they run: mqtt (a
tournament between a director process and tables), failover, room, demo, cli. mqtt_kit,
beside this file, plays a tournament over MQTT for the folders that need one."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))   # mqtt_kit, from any folder below
