"""What every game of the package shares, and nothing that knows a game: the errors a user can cause,
the notation rule every reader applies, signal handling, atomic files, the digest-checked HDF5 table
container, releases and their downloads (with what the explorer's HTTP server shares with them), and
the drawing backends with their formats."""

#: Seeds of every sampling, search and engine, in both games and on every interface: 0 to this.
MAX_SEED = 2**32 - 1
