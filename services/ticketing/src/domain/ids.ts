const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ticketing's own ids (tickets, activities, contacts) are UUIDs. */
export const isUuid = (value: string) => UUID.test(value);
