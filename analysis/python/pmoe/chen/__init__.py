"""Chen et al.'s experiment: the published table and curves from a result file (report) and the
agreement with an independent peer (agreement)."""
