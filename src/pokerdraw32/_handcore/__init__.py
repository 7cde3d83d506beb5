"""The hand's core (private): one chain of classes in Cython's pure-Python mode, compiled as the
``*_c`` modules beside each source (see docs/architecture.md).  Nothing here is imported by the package's
users: :mod:`pokerdraw32._kernels` picks the compiled or the pure modules."""
