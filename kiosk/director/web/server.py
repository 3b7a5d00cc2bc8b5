"""Serving the dashboard: HTTPS when a certificate is configured, a busy port as one line."""

from __future__ import annotations

import logging
import ssl

from aiohttp import web as aioweb

from kiosk.base.errors import KioskError
from kiosk.director.web.app import Served, make_app

log = logging.getLogger("kiosk.director")


async def start_web(served: Served, url: str) -> aioweb.AppRunner:
    """The dashboard and the TV clock of the room `served`, listening at `url`; the runner
    to clean up."""
    c = served.config
    context = None
    if c.tls_cert and c.tls_key:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        try:
            context.load_cert_chain(c.tls_cert, c.tls_key)
        except (OSError, ssl.SSLError) as exc:
            raise KioskError(f"cannot load the dashboard certificate {c.tls_cert}: "
                             f"{exc}") from None
    runner = aioweb.AppRunner(make_app(served), access_log=None)
    await runner.setup()
    site = aioweb.TCPSite(runner, c.http_host, c.http_port, ssl_context=context)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        raise KioskError(f"cannot serve the dashboard on {c.http_host}:{c.http_port}: "
                         f"{exc.strerror or exc} (another program holds the port? "
                         "change [director] http)") from None
    log.info("dashboard on %s and clock on /clock", url)
    return runner
