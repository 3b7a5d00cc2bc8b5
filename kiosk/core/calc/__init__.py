"""The arithmetic the rules need, on plain values: which table breaks or gives a player
(`balance`), the button and blinds (`button`), the clock's anchor (`clock`), payout tables
(`payouts`) and places from groups of busts (`places`).

Imports nothing of the core (the rules' data only): every layer above may use it.
"""
