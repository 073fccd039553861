import { useEffect, useState } from 'react';
import { api } from './api';

export interface Agent {
  id: string;
  displayName: string;
  email: string;
  role: 'admin' | 'agent';
  teams: string[];
  disabled: boolean;
}

export interface Team {
  id: string;
  name: string;
  agentIds: string[];
}

/** One list (auth's agents or teams) per page load, shared by every picker; empty when it cannot be had (a launch session may not list them). */
const lists = new Map<string, Promise<unknown[]>>();

function listOf<T>(path: string): Promise<T[]> {
  let list = lists.get(path);
  if (!list) {
    list = api<{ items: T[] }>('GET', path).then(
      (answer) => answer.items,
      () => {
        lists.delete(path);
        return [];
      },
    );
    lists.set(path, list);
  }
  return list as Promise<T[]>;
}

function useList<T>(path: string): T[] {
  const [items, setItems] = useState<T[]>([]);
  useEffect(() => {
    let current = true;
    void listOf<T>(path).then((loaded) => current && setItems(loaded));
    return () => {
      current = false;
    };
  }, [path]);
  return items;
}

export const useAgents = () => useList<Agent>('/api/agents');
export const useTeams = () => useList<Team>('/api/teams');
