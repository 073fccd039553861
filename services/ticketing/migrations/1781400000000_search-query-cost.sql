-- Up Migration
-- Cost-aware search queries: current_interval_seconds is the interval the next run waits (it
-- doubles after a run that finds nothing, up to a cap, and is back to interval_seconds after one
-- that finds posts; null: interval_seconds); cost_per_run the recent dollars per successful run
-- (posts read at the platform's price, an exponential moving average; null before the first).
ALTER TABLE search_queries
  ADD COLUMN current_interval_seconds integer CHECK (current_interval_seconds > 0),
  ADD COLUMN cost_per_run numeric(14, 6) CHECK (cost_per_run >= 0);

-- Down Migration
ALTER TABLE search_queries DROP COLUMN current_interval_seconds, DROP COLUMN cost_per_run;
