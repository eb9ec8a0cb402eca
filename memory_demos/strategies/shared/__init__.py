"""What several strategies share and no strategy is by itself: base classes, stores, middleware, paging.

Each module beside this package in ``strategies/`` is one strategy; the parts they build on live here.
"""
