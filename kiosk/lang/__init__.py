"""The languages a room speaks: one gettext catalogue for every text a person reads.

`codes` (the shipped languages and how a code is checked and negotiated), `catalogue`
(the `.po`/`.mo` files read, a message looked up by its text or by its key, a missing
entry falling back to English and counted), `formats` (numbers, chips, blinds, money,
times and plurals by CLDR through Babel), `active` (the language a kiosk speaks now),
`pages` (a catalogue as JSON for the pages), `fonts` (the font a script needs),
`pseudo` (the pseudo-locale that finds unmarked text), `extract` and `tool` (extract,
update, compile and check the catalogues: `python -m kiosk.lang`), `build` (the `.mo`
files compiled when the package is built).

Below the config and the printer, above the protocol: may import kiosk.base and Babel,
nothing else of kiosk/ (pyproject.toml, contracts `kiosk` and `lang`). The core never
imports it: it raises and returns message keys (kiosk.base.texts) and never translates.
The command line and the logs stay English.
"""
