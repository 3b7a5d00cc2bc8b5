"""A part's routing comes from its handlers' signatures; a handler that does not say what
it handles is refused when the part is declared, not when an event first reaches it."""

from __future__ import annotations

import pytest

from kiosk.core.event.tournament import Tournament
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component
from kiosk.core.play.floor import Floor


def test_a_part_folds_and_decides_what_its_handlers_are_annotated_with() -> None:
    assert Floor.FOLDS[ev_.FloorAcked] is Floor._on_floor_acked
    assert Floor.DECIDES[cmd_.Penalty] is Floor._do_penalty
    assert Tournament.FOLDS[ev_.FloorAcked] == (Floor, Floor._on_floor_acked)


def test_a_handler_annotated_with_no_particular_event_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Vague\._on_anything: its argument 'ev' must be "
                                        r"annotated with one Event class"):
        class Vague(Component):
            def _on_anything(self, ev: ev_.Event) -> None:
                pass


def test_a_command_handled_twice_in_one_part_is_refused() -> None:
    with pytest.raises(TypeError, match="Twice: Penalty is handled twice"):
        class Twice(Component):
            def _do_penalty(self, cmd: cmd_.Penalty, t: float) -> None:
                pass

            def _do_penalty_again(self, cmd: cmd_.Penalty, t: float) -> None:
                pass
