"""The arithmetic the rules need, on plain values: which table breaks or gives a player
(`balance`), the button and blinds (`button`), the clock's anchor (`clock`), payout tables
(`payouts`), places from groups of busts (`places`) and a table's own pace: levels counted
in hands and orbits (`pace`).

Imports nothing of the core (the rules' data only): every layer above may use it.
"""
