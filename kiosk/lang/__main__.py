"""`python -m kiosk.lang ...`: see kiosk.lang.tool."""

import sys

from kiosk.lang.tool import main

sys.exit(main())
