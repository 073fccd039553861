const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** ticketing's own ids (tickets, activities, contacts) are UUIDs: anything else names nothing of ours. */
export const isUuid = (value: string) => UUID.test(value);
