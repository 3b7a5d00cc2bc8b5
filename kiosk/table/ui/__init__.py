"""The dealer touchscreen (Kivy): renders the controller's view, sends taps to it."""
