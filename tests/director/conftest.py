"""The director's tests, in folders by the part they test (browser, web, languages, money,
dealers, room, config, store, protocol). What several of them share lives here, beside
this file, and is imported by name: a room director and its room file (room_kit,
room_process, small_room), the pages' and the browser's checks (web_kit, browser_kit,
pseudo_check), and each part's own (dealer_kit, dealer_mqtt_kit, languages_kit,
league_kit, money_helpers, player_kit, printer_kit, reservations_kit)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))   # the kits above, from any folder below
