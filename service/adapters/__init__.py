"""The adapters the use cases run on: Redis (tokens and seeds, idempotent
requests, rate limits, webhooks) and rq (follow-up jobs, the sweeper), and
the embedded server for a machine with no Redis. ``service.wiring`` plugs
them into the use cases' ports."""
