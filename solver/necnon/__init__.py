"""NECNON (Richard Moxham, 2018), a placement game related to Go on square and hexagonal grids: its
rules, positions, exact solver, tables, and what reads them (queries, lines, pictures, play, records
and annotation, survey)."""
