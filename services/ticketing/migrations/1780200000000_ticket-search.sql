-- Up Migration

-- Search (`GET /v1/tickets?q=`) answered from indexes: one search document per ticket, kept in
-- step with the ticket and its activities by statement-level triggers (set-based: a bulk insert
-- refreshes each ticket once), and indexes for the list filters that grow with the data.
-- pg_trgm is a trusted extension: a role with CREATE on the database may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The text-search configuration of a platform language tag (`en`, `pt-BR`): stemming for the
-- languages PostgreSQL ships; 'simple' (no stemming) when the language is unknown or other.
CREATE FUNCTION search_language(lang text) RETURNS regconfig LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE lower(split_part(COALESCE(lang, ''), '-', 1))
    WHEN 'en' THEN 'pg_catalog.english' WHEN 'de' THEN 'pg_catalog.german' WHEN 'fr' THEN 'pg_catalog.french'
    WHEN 'es' THEN 'pg_catalog.spanish' WHEN 'it' THEN 'pg_catalog.italian' WHEN 'pt' THEN 'pg_catalog.portuguese'
    WHEN 'nl' THEN 'pg_catalog.dutch' WHEN 'sv' THEN 'pg_catalog.swedish' WHEN 'da' THEN 'pg_catalog.danish'
    WHEN 'no' THEN 'pg_catalog.norwegian' WHEN 'nb' THEN 'pg_catalog.norwegian' WHEN 'fi' THEN 'pg_catalog.finnish'
    WHEN 'ru' THEN 'pg_catalog.russian' WHEN 'tr' THEN 'pg_catalog.turkish'
    ELSE 'pg_catalog.simple' END)::regconfig
$$;

-- What an agent's words mean against a document: the words as written ('simple') or stemmed in
-- any of the languages above, so "refunds" finds "refunded" in an English ticket. Quoted
-- phrases stay phrases (websearch syntax). A language that would drop one of the words (a stop
-- word of that language) is left out: every word given must match. Each distinct reading once.
CREATE AGGREGATE search_tsquery_or(tsquery) (SFUNC = tsquery_or, STYPE = tsquery);
CREATE FUNCTION ticket_search_query(words text) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT search_tsquery_or(DISTINCT reading) FROM (
    SELECT websearch_to_tsquery(config, words) AS reading
      FROM unnest('{pg_catalog.simple,pg_catalog.english,pg_catalog.german,pg_catalog.french,pg_catalog.spanish,pg_catalog.italian,pg_catalog.portuguese,pg_catalog.dutch,pg_catalog.swedish,pg_catalog.danish,pg_catalog.norwegian,pg_catalog.finnish,pg_catalog.russian,pg_catalog.turkish}'::regconfig[]) config
  ) readings
  WHERE numnode(reading) = numnode(websearch_to_tsquery('pg_catalog.simple', words))
$$;

-- Order numbers and @handles in a text, as exact keys: 'order:<digits>' for a run of 5-20 digits,
-- alone or after '#' and/or a short letter prefix ('#100234', 'ORD-100234'); '@<handle>' in lower
-- case (not inside an e-mail address). domain/ticket-search.ts reads a query the same way.
CREATE FUNCTION search_keys(content text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(array_agg(DISTINCT key), '{}') FROM (
    SELECT 'order:' || m[1] AS key
      FROM regexp_matches(content, '(?:^|[^[:alnum:]_])#?(?:[[:alpha:]]{1,6}-?)?([0-9]{5,20})(?![[:alnum:]_])', 'g') m
    UNION ALL
    SELECT '@' || lower(m[1])
      FROM regexp_matches(content, '(?:^|[^[:alnum:]_.])@([A-Za-z0-9_]{1,15})(?![[:alnum:]_])', 'g') m
  ) keys
$$;

CREATE AGGREGATE search_tsvector_agg(tsvector) (SFUNC = tsvector_concat, STYPE = tsvector);

-- One row per ticket: its words (subject weighted A, every activity's text as written and, where
-- the activity's language is known, stemmed), its order numbers and handles (the contact's
-- included), and its subject and contact names for substring (trigram) matches.
CREATE TABLE ticket_search (
  ticket_id  uuid PRIMARY KEY REFERENCES tickets (id) ON DELETE CASCADE,
  account_id text NOT NULL,
  document   tsvector NOT NULL,
  keys       text[] NOT NULL,
  names      text NOT NULL,
  -- The transaction whose commit last refreshed it for its activities (see below), else null.
  refreshed_in xid8
);
CREATE INDEX ticket_search_document_idx ON ticket_search USING gin (document);
CREATE INDEX ticket_search_keys_idx ON ticket_search USING gin (keys);
CREATE INDEX ticket_search_names_idx ON ticket_search USING gin (names gin_trgm_ops);

-- (Re)computes the documents of these tickets. Texts are capped (a tsvector holds at most 1 MB):
-- a ticket's first 200,000 characters of each language are searchable.
CREATE FUNCTION ticket_search_refresh(ticket_ids uuid[], marked xid8 DEFAULT NULL) RETURNS void LANGUAGE sql AS $$
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
               -- A merge's entries name the other tickets: they are not what this one says.
               WHERE a.ticket_id = t.id AND NOT a.deleted AND a.text IS NOT NULL AND a.kind NOT IN ('merged', 'unmerged')
               GROUP BY 1) per_language
    ) texts ON true
   WHERE t.id = ANY (ticket_ids)
  ON CONFLICT (ticket_id) DO UPDATE
    SET account_id = EXCLUDED.account_id, document = EXCLUDED.document, keys = EXCLUDED.keys, names = EXCLUDED.names,
        refreshed_in = EXCLUDED.refreshed_in
$$;

-- Activities: added, edited (text, language), deleted (flag or row), moved (merge, unmerge, threading).
-- Refreshed at commit, once per ticket and transaction: a delivery that records thousands of DMs
-- in one conversation statement by statement rebuilds that ticket's document once, not once per
-- DM (which grew with the square of the conversation). The first of a transaction's deferred
-- events for a ticket refreshes it with all of them and marks it with the transaction.
CREATE FUNCTION ticket_search_after_activity() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched uuid[] := CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW.ticket_id] WHEN 'DELETE' THEN ARRAY[OLD.ticket_id] ELSE ARRAY[OLD.ticket_id, NEW.ticket_id] END;
BEGIN
  PERFORM ticket_search_refresh(ARRAY(
    SELECT DISTINCT touched_id FROM unnest(touched) AS touched_id
     WHERE touched_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM ticket_search s WHERE s.ticket_id = touched_id AND s.refreshed_in = pg_current_xact_id())
  ), pg_current_xact_id());
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER ticket_search_activities_inserted AFTER INSERT ON activities DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.ticket_id IS NOT NULL AND NEW.text IS NOT NULL) EXECUTE FUNCTION ticket_search_after_activity();
CREATE CONSTRAINT TRIGGER ticket_search_activities_updated AFTER UPDATE ON activities DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.ticket_id IS DISTINCT FROM OLD.ticket_id OR NEW.text IS DISTINCT FROM OLD.text OR NEW.deleted <> OLD.deleted
                     OR (NEW.raw ->> 'lang') IS DISTINCT FROM (OLD.raw ->> 'lang'))
  EXECUTE FUNCTION ticket_search_after_activity();
CREATE CONSTRAINT TRIGGER ticket_search_activities_deleted AFTER DELETE ON activities DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.ticket_id IS NOT NULL AND OLD.text IS NOT NULL) EXECUTE FUNCTION ticket_search_after_activity();

-- Tickets: a new one is searchable by its subject at once; a changed subject, account or contact refreshes it.
CREATE FUNCTION ticket_search_after_tickets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ticket_search_refresh(ARRAY(SELECT id FROM new_rows));
  ELSE
    PERFORM ticket_search_refresh(ARRAY(
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
       WHERE n.subject <> o.subject OR n.account_id <> o.account_id OR n.contact_id IS DISTINCT FROM o.contact_id));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER ticket_search_tickets_inserted AFTER INSERT ON tickets REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_search_after_tickets();
CREATE TRIGGER ticket_search_tickets_updated AFTER UPDATE ON tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_search_after_tickets();

-- Contacts: a new screen name or name is searched for on their tickets.
CREATE FUNCTION ticket_search_after_contacts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_search_refresh(ARRAY(
    SELECT t.id FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN tickets t ON t.contact_id = n.id
     WHERE n.screen_name IS DISTINCT FROM o.screen_name OR n.name IS DISTINCT FROM o.name));
  RETURN NULL;
END $$;
CREATE TRIGGER ticket_search_contacts_updated AFTER UPDATE ON contacts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_search_after_contacts();

-- Existing tickets.
SELECT ticket_search_refresh(ARRAY(SELECT id FROM tickets));

-- Filters that grow with the data (plans in bench/RESULTS.md): an agent's tickets newest first,
-- the CRM's sync poll (`updatedSince`), and open work by queue or status.
DROP INDEX tickets_assignee_idx;
CREATE INDEX tickets_assignee_created_idx ON tickets (assignee, created_at DESC, id DESC) WHERE assignee IS NOT NULL;
CREATE INDEX tickets_updated_idx ON tickets (updated_at);
CREATE INDEX tickets_open_queue_idx ON tickets (queue, created_at DESC, id DESC) WHERE status IN ('open', 'pending');
CREATE INDEX tickets_status_created_idx ON tickets (status, created_at DESC, id DESC);

-- Down Migration

DROP INDEX tickets_status_created_idx;
DROP INDEX tickets_open_queue_idx;
DROP INDEX tickets_updated_idx;
DROP INDEX tickets_assignee_created_idx;
CREATE INDEX tickets_assignee_idx ON tickets (assignee) WHERE assignee IS NOT NULL;
DROP TRIGGER ticket_search_contacts_updated ON contacts;
DROP FUNCTION ticket_search_after_contacts();
DROP TRIGGER ticket_search_tickets_updated ON tickets;
DROP TRIGGER ticket_search_tickets_inserted ON tickets;
DROP FUNCTION ticket_search_after_tickets();
DROP TRIGGER ticket_search_activities_deleted ON activities;
DROP TRIGGER ticket_search_activities_updated ON activities;
DROP TRIGGER ticket_search_activities_inserted ON activities;
DROP FUNCTION ticket_search_after_activity();
DROP FUNCTION ticket_search_refresh(uuid[], xid8);
DROP TABLE ticket_search;
DROP AGGREGATE search_tsvector_agg(tsvector);
DROP FUNCTION search_keys(text);
DROP FUNCTION ticket_search_query(text);
DROP AGGREGATE search_tsquery_or(tsquery);
DROP FUNCTION search_language(text);
