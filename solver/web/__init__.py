"""The tablebase explorer in the browser: a JSON API over the tables (:mod:`solver.web.api`), the HTTP
server that carries it with the page (:mod:`solver.web.server`) and the page's files
(:mod:`solver.web.assets`, ``static/``). A layer above the games and below the command line."""
