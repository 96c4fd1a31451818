"""``python -m doppelx`` runs the ``doppelx`` command."""

import sys

from doppelx.cli import main

sys.exit(main())
