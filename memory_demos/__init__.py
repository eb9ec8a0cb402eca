"""Memory Lab's UI-free core: providers, memory strategies, tracing, scenarios and replay."""
