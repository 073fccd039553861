import type { RequestHandler } from 'express';
import type { Pool } from '@crm/db';
import type { Logger } from '@crm/logging';
import { requestPath } from './authenticate';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface AuditEntry {
  principalId: string;
  principalName: string;
  method: string;
  path: string;
  status: number;
  requestId: string | null;
}

/** Appends one row to the service's `audit_log` (the table refuses UPDATE, DELETE and TRUNCATE). */
export async function appendAudit(pool: Pool, entry: AuditEntry): Promise<void> {
  await pool.query('INSERT INTO audit_log (principal_id, principal_name, method, path, status, request_id) VALUES ($1, $2, $3, $4, $5, $6)', [
    entry.principalId,
    entry.principalName,
    entry.method,
    entry.path,
    entry.status,
    entry.requestId,
  ]);
}

/**
 * Records every write request (POST, PUT, PATCH, DELETE) of an authenticated principal
 * once it is answered (or the client went away): who, what, the status and the request id. Mount it after
 * `authenticate`. A failed insert is logged as an error; the answer has already gone.
 */
export function auditWrites(pool: Pool, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const principal = req.principal;
    if (principal && WRITES.has(req.method)) {
      const path = requestPath(req);
      res.on('close', () => {
        const entry = { principalId: principal.id, principalName: principal.grant.name, method: req.method, path, status: res.statusCode, requestId: res.get('x-request-id') ?? null };
        appendAudit(pool, entry).catch((error: unknown) => logger.error('could not write the audit log', { ...entry, reason: (error as Error).message }));
      });
    }
    next();
  };
}
