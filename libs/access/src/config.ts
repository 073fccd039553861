import { wholeNumber } from '@crm/config';

/** The settings of the CRM API's access control, the same in every service that has one. */
export function accessSpecs() {
  return {
    API_RATE_LIMIT_PER_MINUTE: wholeNumber(0)({ default: 600, desc: 'Requests one API credential may send per minute (429 with Retry-After beyond); 0 turns the limit off. CRM_API_TOKENS are not limited.' }),
    AUTH_FAILURES_PER_MINUTE: wholeNumber(0)({ default: 60, desc: 'Failed authentications one client address may make per minute; beyond, its API credentials are refused with 429 unchecked (CRM_API_TOKENS still pass). 0 turns it off.' }),
    CREDENTIAL_CACHE_TTL_MS: wholeNumber(0)({ default: 30_000, desc: "How long an API credential's check is remembered; a revoked credential keeps working at most this long. 0 asks every time." }),
  };
}
