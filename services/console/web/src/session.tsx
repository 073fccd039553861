import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import { api, ApiError, onSessionEnded, setCsrfToken, type SessionInfo } from './api';

interface SessionState {
  session: SessionInfo | null;
  loading: boolean;
  refresh: () => Promise<void>;
}

const SessionContext = createContext<SessionState>({ session: null, loading: true, refresh: async () => undefined });

export function useSession(): SessionState {
  return useContext(SessionContext);
}

export function SessionProvider({ children }: { children: React.ReactNode }) {
  const [session, setSession] = useState<SessionInfo | null>(null);
  const [loading, setLoading] = useState(true);
  const refresh = useCallback(async () => {
    try {
      const info = await api<SessionInfo>('GET', '/api/session');
      setCsrfToken(info.csrfToken);
      setSession(info);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      setSession(null);
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  // Any call told the session has ended: back to signed out, so the page shows the sign-in.
  useEffect(() => onSessionEnded(() => setSession(null)), []);
  return <SessionContext.Provider value={{ session, loading, refresh }}>{children}</SessionContext.Provider>;
}
