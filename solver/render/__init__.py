"""Text tables, documents (Markdown and HTML), pictures and the HTML report.
"""
