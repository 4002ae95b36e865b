"""One module per ruleset, each registering its batch engine in :data:`tricklaw.batch.BATCH`."""
