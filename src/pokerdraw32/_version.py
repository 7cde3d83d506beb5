"""The package's version, in a module of its own: the modules that record it (snapshots, the
command line) import it from here, never from the package's ``__init__`` above them."""

__version__ = "0.1.0"
