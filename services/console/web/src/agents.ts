import { useEffect, useState } from 'react';
import { auth, ok, type AuthSchemas } from './client';

export type Agent = AuthSchemas['Agent'];
export type Team = AuthSchemas['Team'];

/** A list read once per page load and shared by every picker; empty when it cannot be had (a launch session may not list them), and asked again next time. */
function sharedList<T>(read: () => Promise<T[]>): () => Promise<T[]> {
  let list: Promise<T[]> | null = null;
  return () => {
    list ??= read().catch(() => {
      list = null;
      return [];
    });
    return list;
  };
}

const agents = sharedList(async () => (await ok(auth.GET('/v1/agents'))).items);
const teams = sharedList(async () => (await ok(auth.GET('/v1/teams'))).items);

function useList<T>(list: () => Promise<T[]>): T[] {
  const [items, setItems] = useState<T[]>([]);
  useEffect(() => {
    let current = true;
    void list().then((loaded) => current && setItems(loaded));
    return () => {
      current = false;
    };
  }, [list]);
  return items;
}

export const useAgents = () => useList(agents);
export const useTeams = () => useList(teams);
