"""Tests of tools/run_examples.py (a package, so its module names never clash with other test folders)."""
