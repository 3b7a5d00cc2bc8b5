"""The build step that compiles each language's `.po` into its `.mo` (pyproject.toml,
`[tool.setuptools.cmdclass]`): a wheel, and so the appliance image, ships compiled
catalogues. An editable install has none and reads the `.po` (kiosk.lang.catalogue).
Needs only Babel: it runs inside the build, before the package is installed."""

from __future__ import annotations

from pathlib import Path

from setuptools.command.build_py import build_py


def compile_tree(locale: Path) -> list[Path]:
    """Every `<lang>/LC_MESSAGES/*.po` under `locale` compiled beside itself."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    done = []
    for po in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            cat = read_po(f, locale=po.parent.parent.name)
        mo = po.with_suffix(".mo")
        with mo.open("wb") as f:
            write_mo(f, cat, use_fuzzy=False)
        done.append(mo)
    return done


class BuildPy(build_py):
    """setuptools' build_py, then the catalogues of the built tree compiled."""

    def run(self) -> None:
        super().run()
        locale = Path(self.build_lib) / "kiosk" / "lang" / "locale"
        if locale.is_dir():
            for mo in compile_tree(locale):
                self.announce(f"compiled {mo}", level=2)
