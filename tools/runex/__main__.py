"""`python -m runex`: the same command as tools/run_examples.py and the `run-examples` script."""

import sys

from .cli import main

sys.exit(main())
