"""The solve's tables on disk: parquet files and their metadata (``files``), the memory-mapped query
index (``index``), and reading option lists back from them (``reader``).
"""
