"""``python -m umtali``: the ``umtali`` command, for when the console script is not on PATH."""

import sys

from umtali.cli.main import main

sys.exit(main())
