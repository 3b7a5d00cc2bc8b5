"""Kivy settings that must be in place before the first `import kivy`.

Headless (tests, bench, CI) renders through SDL2's offscreen video driver: real GL
drawing into an invisible window, so `export_to_png` gives true screenshots.
"""

from __future__ import annotations

import os


def prepare(size: str = "800x480", *, headless: bool = False, fullscreen: bool = False) -> None:
    """Set Kivy's environment and window config; call before importing kivy modules."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")          # our argv is not Kivy's
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")    # log through `logging`
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "offscreen"
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from kivy.config import Config
    w, _, h = size.partition("x")
    Config.set("graphics", "width", w)
    Config.set("graphics", "height", h)
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "show_cursor", "0" if fullscreen else "1")
    Config.set("kivy", "exit_on_escape", "0")
    # SDL also turns touches into mouse events: drop those while a finger is down, or a
    # tap on the real screen could land twice (firmware_cfg/kivy_config.ini does the same)
    Config.set("input", "mouse", "mouse,disable_on_activity,disable_multitouch")
