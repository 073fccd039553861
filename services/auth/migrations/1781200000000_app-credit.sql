-- Up Migration
-- Whether the platform refuses the app for spent credit (402 credits-depleted): one row, kept
-- across restarts, so every replica holds commands until credit is back.
CREATE TABLE app_credit (
  id            boolean PRIMARY KEY DEFAULT true CHECK (id),
  out_of_credit boolean NOT NULL DEFAULT false,
  since         timestamptz,
  updated_at    timestamptz NOT NULL DEFAULT now()
);
INSERT INTO app_credit (id) VALUES (true);

-- The broker commands held while the app is out of credit, in the order they arrived (seq,
-- across every account); each is sent once credit is back and deleted once it has a result.
-- The command's record (commands) stays pending meanwhile: its id is still the idempotency key.
CREATE TABLE held_commands (
  seq        bigserial PRIMARY KEY,
  command_id text NOT NULL UNIQUE REFERENCES commands (command_id) ON DELETE CASCADE,
  command    jsonb NOT NULL,
  held_at    timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE held_commands;
DROP TABLE app_credit;
