"""Compiled kernels (``jit``), the on-disk cache (``diskcache``) and worker processes (``parallel``).
"""
