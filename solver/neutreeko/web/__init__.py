"""Neutreeko's part of the explorer: its JSON API (:mod:`~solver.neutreeko.web.api`), with the
summaries of its tables (:mod:`~solver.neutreeko.web.summaries`) and the training page's part
(:mod:`~solver.neutreeko.web.training`); its pages and palette (:mod:`~solver.neutreeko.web.pages`)."""

__all__ = ["api", "pages", "summaries", "training"]
