"""``python -m umtali``: the ``umtali`` command, where its script is not on PATH."""

import sys

from umtali.cli import main

sys.exit(main())
