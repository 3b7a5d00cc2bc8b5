"""`python -m kiosk ...`: the `pokerkiosk` command without its console script."""

import sys

from kiosk.commands.main import main

sys.exit(main())
