"""Memory strategies, one module each, behind ``memory_demos.strategies.base.Strategy``.

``registry.py`` lists them (one line per module); ``shared/`` holds the bases and stores several use.
"""
