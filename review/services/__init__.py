"""The queue's write operations, one module per responsibility. Each state-changing entry
point writes its audit event in the same transaction as the change (DESIGN rule 5).
Import a name from the module that owns it; this package re-exports nothing."""
