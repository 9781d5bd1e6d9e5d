#!/usr/bin/env python3
"""Build, run and verify every example under examples/, write answer keys, and paste them into docs/.

    python tools/run_examples.py            regenerate answer keys and pasted blocks
    python tools/run_examples.py --check    verify everything and write nothing (CI)

Run with --help for every option and the exit codes.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from runex.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
