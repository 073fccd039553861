/**
 * The platform's rule for a webhook URL: HTTPS, on the default port (no port in the URL).
 * `allowLocal` (the local stack, which serves webhook-ingest over plain http on a port) lifts
 * it; the URL must still be http(s). The problem, or null when the URL may be registered.
 */
export function webhookUrlProblem(url: string, allowLocal: boolean): string | null {
  if (!URL.canParse(url)) return `${url} is not a URL`;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return `${url} is not an http(s) URL`;
  if (allowLocal) return null;
  if (parsed.protocol !== 'https:') return `the platform takes HTTPS webhook URLs only, not ${url}`;
  if (parsed.port !== '') return `the platform takes webhook URLs without a port, not ${url}`;
  return null;
}
