"""Where phones reach the director: the address the players' QR codes carry.

`[director] public_url`, else the dashboard's own address, which phones cannot reach when
it is this machine's loopback; `pokerkiosk doctor` warns of that, and the demo finds the
machine's address on its network instead.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any
from urllib.parse import quote, urlsplit

# a documentation address (RFC 5737) no packet is sent to: a UDP socket `connect`ed to it
# only picks the interface a route to the network would leave by
UNROUTED = ("192.0.2.1", 9)


def public_base(config: Any) -> str:
    """The room's address for players: `public_url`, else the dashboard's own address."""
    base = str(getattr(config, "public_url", "") or "")
    if not base:
        scheme = "https" if getattr(config, "https", False) else "http"
        base = f"{scheme}://{config.http_host}:{config.http_port}"
    return base.rstrip("/")


def player_page_url(config: Any, event: str) -> str:
    """The public player page of `event` (a room config or an event config)."""
    return f"{public_base(config)}/p/{quote(event, safe='')}"


def network_address() -> str | None:
    """This machine's IPv4 address on its network, found without sending anything;
    None when it has none (no route off the machine)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(UNROUTED)
            found = str(s.getsockname()[0])
        except OSError:
            return None
    return None if unreachable(found) else found


def unreachable(host: str) -> bool:
    """A host no phone can reach this machine at: loopback, or every address (0.0.0.0)."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False           # a name: whether phones resolve it is the room's to say
    return ip.is_loopback or ip.is_unspecified


def phones_cannot_reach(config: Any) -> str | None:
    """Why the players' QR codes lead nowhere (their address is this machine's own), or
    None when they point at an address phones may reach."""
    base = public_base(config)
    host = urlsplit(base).hostname or ""
    if not unreachable(host):
        return None
    return (f"the QR codes on the TV clock and the seat cards point phones at {base}, "
            "which only this machine reaches")
