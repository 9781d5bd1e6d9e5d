#!/usr/bin/env python3
"""Build, run and verify every example under examples/, write answer keys, and paste them into docs/.

    python tools/run_examples.py            regenerate answer keys and pasted blocks
    python tools/run_examples.py --check    verify everything and write nothing (CI)

Run with --help for every option and the exit codes.
"""

import sys

from runex.cli import main  # tools/, this script's folder, is the first entry of sys.path

if __name__ == "__main__":
    sys.exit(main())
