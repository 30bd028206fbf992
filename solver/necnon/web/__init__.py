"""NECNON's part of the explorer: its JSON API (:mod:`~solver.necnon.web.api`), its pages and palette
(:mod:`~solver.necnon.web.pages`)."""

__all__ = ["api", "pages"]
