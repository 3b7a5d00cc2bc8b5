"""The event's money: the pool, payouts, rebuys, locks, the bubble and deals (`money`),
knockouts and bounties (`knockouts`, `bounties`), and the deal calculators (`icm`).

Every amount is an integer. Imports only `kiosk.core.model` and `kiosk.core.calc`; the
money part and the knockouts part import neither each other nor another part.
"""
