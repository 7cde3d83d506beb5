"""``python -m pokerdraw32``: the ``pokerdraw32`` command (:func:`pokerdraw32.cli.main`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
