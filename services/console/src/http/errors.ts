import type { Request } from 'express';
import type { RequestPart } from '@crm/http';

/** The code of a request the OpenAPI document refuses: the console's own codes for a bad parameter, credential or launch. */
export function invalidRequestCode(part: RequestPart, req: Request): string {
  if (part !== 'body') return 'invalid_parameter';
  if (req.path === '/api/session') return 'invalid_token';
  if (req.path === '/v1/launch-links') return 'invalid_launch';
  return 'invalid_request';
}
