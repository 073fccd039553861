-- Up Migration

-- A search's page is its newest matches (the list's order: created_at, then id, descending). With
-- the ticket's created_at on its search document, a search walks the newest documents of the
-- accounts it may read in that order (ticket_search_account_created_idx, or
-- ticket_search_created_idx for every account) testing each, or takes a rare word's matches from
-- the GIN index and orders them, without reading tickets first (plans in bench/ticketing/RESULTS.md).
-- created_at never changes once a ticket is made, so no trigger needs more than the refresh it runs.
-- The UPDATE writes every document again: until a vacuum (autovacuum, soon after; or VACUUM
-- ANALYZE ticket_search once deployed) the indexes also point at the old versions, and a walk
-- of the newest documents steps over a million of them (1.1 s instead of 7 ms at a million tickets).
ALTER TABLE ticket_search ADD COLUMN created_at timestamptz;
UPDATE ticket_search s SET created_at = t.created_at FROM tickets t WHERE t.id = s.ticket_id;
ALTER TABLE ticket_search ALTER COLUMN created_at SET NOT NULL;
CREATE INDEX ticket_search_created_idx ON ticket_search (created_at DESC, ticket_id DESC);
CREATE INDEX ticket_search_account_created_idx ON ticket_search (account_id, created_at DESC, ticket_id DESC);

CREATE OR REPLACE FUNCTION ticket_search_refresh(ticket_ids uuid[], marked xid8 DEFAULT NULL) RETURNS void LANGUAGE sql AS $$
  INSERT INTO ticket_search (ticket_id, account_id, created_at, document, keys, names, refreshed_in)
  SELECT t.id, t.account_id, t.created_at,
         setweight(to_tsvector('pg_catalog.simple', t.subject), 'A')
           || to_tsvector('pg_catalog.simple', left(COALESCE(texts.content, ''), 200000))
           || COALESCE(texts.stemmed, ''::tsvector),
         search_keys(t.subject || E'\n' || COALESCE(texts.content, ''))
           || CASE WHEN c.screen_name IS NULL THEN '{}'::text[] ELSE ARRAY['@' || lower(c.screen_name)] END,
         concat_ws(' ', t.subject, '@' || c.screen_name, c.name),
         marked
    FROM tickets t
    LEFT JOIN contacts c ON c.id = t.contact_id
    LEFT JOIN LATERAL (
      SELECT string_agg(per_language.body, E'\n') AS content,
             search_tsvector_agg(CASE WHEN per_language.config = 'pg_catalog.simple'::regconfig THEN NULL
                                      ELSE to_tsvector(per_language.config, per_language.body) END) AS stemmed
        FROM (SELECT search_language(a.raw ->> 'lang') AS config,
                     left(string_agg(a.text, E'\n' ORDER BY a.occurred_at, a.id), 200000) AS body
                FROM activities a
               -- A merge's entries name the other tickets: they are not what this one says.
               WHERE a.ticket_id = t.id AND NOT a.deleted AND a.text IS NOT NULL AND a.kind NOT IN ('merged', 'unmerged')
               GROUP BY 1) per_language
    ) texts ON true
   WHERE t.id = ANY (ticket_ids)
  ON CONFLICT (ticket_id) DO UPDATE
    SET account_id = EXCLUDED.account_id, created_at = EXCLUDED.created_at, document = EXCLUDED.document, keys = EXCLUDED.keys,
        names = EXCLUDED.names, refreshed_in = EXCLUDED.refreshed_in
$$;

-- Down Migration

CREATE OR REPLACE FUNCTION ticket_search_refresh(ticket_ids uuid[], marked xid8 DEFAULT NULL) RETURNS void LANGUAGE sql AS $$
  INSERT INTO ticket_search (ticket_id, account_id, document, keys, names, refreshed_in)
  SELECT t.id, t.account_id,
         setweight(to_tsvector('pg_catalog.simple', t.subject), 'A')
           || to_tsvector('pg_catalog.simple', left(COALESCE(texts.content, ''), 200000))
           || COALESCE(texts.stemmed, ''::tsvector),
         search_keys(t.subject || E'\n' || COALESCE(texts.content, ''))
           || CASE WHEN c.screen_name IS NULL THEN '{}'::text[] ELSE ARRAY['@' || lower(c.screen_name)] END,
         concat_ws(' ', t.subject, '@' || c.screen_name, c.name),
         marked
    FROM tickets t
    LEFT JOIN contacts c ON c.id = t.contact_id
    LEFT JOIN LATERAL (
      SELECT string_agg(per_language.body, E'\n') AS content,
             search_tsvector_agg(CASE WHEN per_language.config = 'pg_catalog.simple'::regconfig THEN NULL
                                      ELSE to_tsvector(per_language.config, per_language.body) END) AS stemmed
        FROM (SELECT search_language(a.raw ->> 'lang') AS config,
                     left(string_agg(a.text, E'\n' ORDER BY a.occurred_at, a.id), 200000) AS body
                FROM activities a
               WHERE a.ticket_id = t.id AND NOT a.deleted AND a.text IS NOT NULL AND a.kind NOT IN ('merged', 'unmerged')
               GROUP BY 1) per_language
    ) texts ON true
   WHERE t.id = ANY (ticket_ids)
  ON CONFLICT (ticket_id) DO UPDATE
    SET account_id = EXCLUDED.account_id, document = EXCLUDED.document, keys = EXCLUDED.keys, names = EXCLUDED.names,
        refreshed_in = EXCLUDED.refreshed_in
$$;
DROP INDEX ticket_search_account_created_idx;
DROP INDEX ticket_search_created_idx;
ALTER TABLE ticket_search DROP COLUMN created_at;
