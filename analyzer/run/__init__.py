"""Running hands: chunks of hands on a backend (threads or Dask), their per-hand records and
integer tallies, the checkpoints a long run keeps, and the files a run writes."""
