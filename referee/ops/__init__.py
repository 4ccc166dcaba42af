"""Operations: Prometheus metrics (:mod:`.metrics`), JSON logs (:mod:`.logs`), the per-request
hooks that feed both (:mod:`.hooks`) and the match store's instrumentation (:mod:`.store`)."""
