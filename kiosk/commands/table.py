"""`pokerkiosk table --config table.toml [--headless]`: run one table kiosk.

On its screen (Kivy), or `--headless` with dealer commands on standard input
(kiosk.table.headless lists them).
"""

from __future__ import annotations

import argparse

from kiosk.config.files import load_table_config


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", required=True, help="table.toml")
    p.add_argument("--headless", action="store_true",
                   help="no screen: same controller and link, commands on stdin")
    p.add_argument("--gpio", action="store_true", help="use the buttons even when headless")


def run(args: argparse.Namespace) -> int:
    cfg = load_table_config(args.config)
    if args.headless:
        from kiosk.table.headless import run_headless
        return run_headless(cfg, args.config, gpio=args.gpio)
    from kiosk.table.ui.env import prepare
    prepare(cfg.ui_size, fullscreen=cfg.fullscreen)
    from kiosk.table.ui.app import run_ui
    return run_ui(cfg, args.config)
