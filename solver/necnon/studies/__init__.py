"""Studies: the survey of boards and protocol settings.

* :mod:`~solver.necnon.studies.survey`: every board and protocol setting, solved and sampled.
"""

__all__ = ["survey"]
