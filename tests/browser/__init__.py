"""Browser tests: the built site, served on 127.0.0.1, driven by playwright against Chromium.

This folder is a package on purpose: its conftest.py is then imported as `browser.conftest` and never takes the
module name `conftest`, which other test folders import their shared helpers from.
"""
