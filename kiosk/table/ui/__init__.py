"""The dealer touchscreen (Kivy): renders the controller's view, sends taps to it.

The only place Kivy is imported; may import the rest of the table.
"""
