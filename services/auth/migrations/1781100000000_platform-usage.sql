-- Up Migration
-- What auth's platform calls cost each account: units and dollars per UTC day and rate-card kind
-- (read: resources answered; write: requests), priced from PLATFORM_RATE_CARD when the call was made.
CREATE TABLE platform_usage (
  account_id text NOT NULL CHECK (account_id ~ '^[0-9]{1,20}$'),
  day        date NOT NULL,
  kind       text NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_]{0,62}$'),
  units      bigint NOT NULL DEFAULT 0 CHECK (units >= 0),
  amount     numeric(16, 6) NOT NULL DEFAULT 0 CHECK (amount >= 0),
  PRIMARY KEY (account_id, day, kind)
);
CREATE INDEX platform_usage_day ON platform_usage (day);

-- The resources an account was charged for on a UTC day: the platform charges a resource read
-- twice in one day once. Rows of past days are deleted as the next day's are written.
CREATE TABLE platform_reads (
  account_id  text NOT NULL,
  kind        text NOT NULL,
  resource_id text NOT NULL,
  day         date NOT NULL,
  PRIMARY KEY (account_id, kind, resource_id, day)
);
CREATE INDEX platform_reads_day ON platform_reads (day);

-- An account's monthly budget (dollars, UTC calendar month). warn_at: the fraction of the limit at
-- which account.budget_warning is announced. warned_month / exhausted_month: the month ('2026-11')
-- whose warning and exhaustion were announced (once each per month).
CREATE TABLE account_budgets (
  account_id      text PRIMARY KEY CHECK (account_id ~ '^[0-9]{1,20}$'),
  monthly_limit   numeric(16, 6) NOT NULL CHECK (monthly_limit >= 0),
  warn_at         numeric(4, 3) NOT NULL CHECK (warn_at >= 0 AND warn_at <= 1),
  stop_essential  boolean NOT NULL DEFAULT false,
  warned_month    text,
  exhausted_month text,
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE account_budgets;
DROP TABLE platform_reads;
DROP TABLE platform_usage;
