"""Memory strategies, one module each, behind ``memory_demos.strategies.base.Strategy``."""
