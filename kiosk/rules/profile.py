"""A rule profile: every way the house rule sets differ, as plain data.

The core reads these fields and never asks which profile it is running, so a sixth
house profile is one more TOML file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

BustOrder = Literal["stack", "tie"]   # busts on one hand: by stack, or tied


@dataclass(frozen=True)
class ClockCallRules:
    seconds: int               # time to act once the clock is on
    countdown: int             # final count after `seconds`
    min_wait: int = 0          # a call can start only this long after it is raised
    needs_approval: bool = True  # a floor person approves before the countdown runs
    called_by: Literal["player", "dealer"] = "player"  # any player asks, or dealer/TD only
    rule: str = ""


@dataclass(frozen=True)
class ButtonRules:
    dead_button: bool = True   # False: the button moves to the next occupied seat
    start: Literal["random", "seat1", "high_card"] = "random"  # high card: by suit S>H>D>C
    redraw_new_fraction: float | None = None  # re-draw the button when this share is new
    high_card_final_tables: int = 0  # draw the button at the last N tables' start
    # newcomers who sit out until the button passes: "between" the button and the small
    # blind only (TDA 9), or also on the "button_and_sb" seats (Sheridan's r.10)
    newcomer_waits: Literal["between", "button_and_sb"] = "between"
    rule: str = ""


@dataclass(frozen=True)
class Tolerance:
    tables_at_least: int
    spread: int


@dataclass(frozen=True)
class FinalTableSize:
    """The final table of an event dealt `seats`-handed seats `final` (TDA 2024 RP-9)."""

    seats: int
    final: int


@dataclass(frozen=True)
class BalanceRules:
    mode: Literal["tda", "minimum"] = "tda"  # keep spread within tolerance, or only top up
    halt_short: int | None = 3  # short tables this many behind the longest halt
    # ... only once the empty seats reach their blinds (TDA 2024 r.11D); False: at once
    halt_on_blinds: bool = False
    tolerance: tuple[Tolerance, ...] = (Tolerance(5, 2), Tolerance(1, 1))
    min_players: int = 2       # "minimum" mode: a table plays down to this many
    added_tables_break_first: bool = False
    # TDA 10C's predetermined procedure for which table breaks next: "fewest" (the table
    # with the fewest players, ties by the published order) or "published" (the
    # published order alone: highest number first)
    break_order: Literal["fewest", "published"] = "fewest"
    final_table_extra: int = 1
    final_table_max: int = 10
    final_tables: tuple[FinalTableSize, ...] = ()   # by table size, before the rule above
    rule: str = ""

    def allowed_spread(self, tables: int) -> int:
        for tol in self.tolerance:
            if tables >= tol.tables_at_least:
                return tol.spread
        return self.tolerance[-1].spread

    def final_table_size(self, seats: int) -> int:
        """The size listed for `seats` (TDA 2024 RP-9: nine for 9- and 8-handed events,
        seven for 7- and 6-handed), else TDA 2017 r.11: a full table plus one, at most
        ten; heads-up events excepted."""
        listed = next((f.final for f in self.final_tables if f.seats == seats), None)
        if listed is not None:
            return listed
        if seats <= 2:
            return seats
        return min(seats + self.final_table_extra, self.final_table_max)


@dataclass(frozen=True)
class LateRegRules:
    until_level: int | None = 6     # open through the end of this level (1-based)
    until_raises: int | None = None  # or: until the blinds have gone up this many times
    through_break: bool = False     # stay open over the break after `until_level`
    stack: Literal["full", "docked"] = "full"
    dock_big_blinds: int = 0        # docked stacks lose this many current big blinds
    rule: str = ""


@dataclass(frozen=True)
class EntryRules:
    reentry: bool = True
    rebuy: bool = False
    rebuy_levels: int = 0          # rebuys allowed through the end of this level
    addon: bool = False            # an add-on at the end of the rebuy period
    addon_stacks: int = 2          # the add-on is this many starting stacks
    forfeited_chips_leave: bool = True
    playing_behind: bool = True
    rule: str = ""


@dataclass(frozen=True)
class BustRules:
    same_table: BustOrder = "stack"      # several busts on one hand at one table
    across_tables: BustOrder = "tie"     # busts on the same hand at different tables (H4H)
    hand_for_hand_same_table: BustOrder = "tie"
    rule: str = ""


@dataclass(frozen=True)
class HandForHandRules:
    runoff_seconds: int | None = 120  # None: the clock runs as usual
    runoff_max_seconds: int | None = None  # the most a hand may run off (TDA 2024 RP-8B)
    players_stay_seated: bool = False
    rule: str = ""


@dataclass(frozen=True)
class PenaltyRules:
    kinds: tuple[str, ...] = ("warning", "hands", "rounds", "disqualify")
    minutes_ladder: tuple[int, ...] = ()   # time penalties by strike: 10, 20, 40
    strikes_out: int | None = None         # this strike disqualifies
    leaving_live_hand_hands: int | None = None  # Irish r.30: 2 hands, repeat one round
    rule: str = ""


@dataclass(frozen=True)
class ChipRaceRules:
    mode: str = "race"          # "race" | "round_up" | "race_by_card"
    start_seat: int = 1
    max_one_chip: bool = True
    nobody_raced_out: bool = True
    # a player left with nothing gets one chip of the smallest denomination left:
    # "extra" on top of the chips the race gives (TDA 24A), or "first", out of them,
    # before anyone else is awarded a chip (the home rules after Roberts)
    rescue: Literal["extra", "first"] = "extra"
    rule: str = ""


@dataclass(frozen=True)
class EndOfDayRules:
    hands: tuple[int, int] | None = None   # inclusive range of extra hands
    rule: str = ""


@dataclass(frozen=True)
class AnteRules:
    """How antes are posted and scheduled (TDA 2024 RP-11)."""

    big_blind_first: bool = False   # a big blind short of blind and ante covers the blind first
    never_reduced: bool = False     # no level's ante below the one before, final table included
    rule: str = ""


@dataclass(frozen=True)
class DealingRules:
    """The dealers' procedures the tables and the rotation follow."""

    push_hold_seconds: int = 0      # no push this long before a level change or break (RP-7)
    prior_level_after_push: bool = False  # a level starting during a push: one hand at the
                                          # prior level (TDA 2024 r.23)
    handover: bool = False          # the incoming dealer is shown what the outgoing tells
                                    # (TDA 2024 RP-15A)
    prepare_decks_seconds: int = 0  # "prepare your decks" before play starts or resumes;
                                    # the start waits this long (TDA 2024 RP-20)
    rule: str = ""


@dataclass(frozen=True)
class StallingRules:
    """The tools against stalling (TDA RP-19) this rule set lets a house use: a shot clock
    on every decision with time-bank cards, orbit for orbit (soft hand-for-hand) and
    levels counted in hands. All three by default; a house set that refuses one says so,
    and an event that asks for it is refused when it loads."""

    shot_clock: bool = True
    orbit_for_orbit: bool = True
    hands_per_level: bool = True
    rule: str = ""


@dataclass(frozen=True)
class Profile:
    id: str
    name: str
    source: str
    clock_call: ClockCallRules
    button: ButtonRules
    balance: BalanceRules
    late_reg: LateRegRules
    entries: EntryRules
    busts: BustRules
    hand_for_hand: HandForHandRules | None
    penalties: PenaltyRules
    chip_race: ChipRaceRules
    end_of_day: EndOfDayRules
    bubble_deal: Literal["secret_red_black", "unanimous"] | None
    ante: AnteRules = AnteRules()
    dealing: DealingRules = DealingRules()
    stalling: StallingRules = StallingRules()
