"""``python -m pokerdraw32.cli``: the ``pokerdraw32`` command (:func:`pokerdraw32.cli.main`), as
``python -m pokerdraw32`` runs it (the command's module became a package; its old way to run stays)."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
