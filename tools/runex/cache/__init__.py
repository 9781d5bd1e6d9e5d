"""What a run may skip because nothing changed: builds, verified results, pasted pages, schema findings; and the
pruning of entries no run has used for a month."""
