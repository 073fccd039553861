-- Up Migration
-- The W3C trace context (traceparent, tracestate) of the work that stored a message, so the relay
-- publishes it in that trace and the consumer's work joins it. Null for rows stored untraced.
ALTER TABLE outbox ADD COLUMN trace_context jsonb;

-- Down Migration
ALTER TABLE outbox DROP COLUMN trace_context;
