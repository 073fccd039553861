import axios, { type AxiosInstance } from 'axios';

/**
 * An HTTP client that behaves like one browser for the tests: it follows no redirect (tests
 * look at each hop) and keeps the cookies servers set, sending them back on every request.
 * Paths and domains are not told apart: every test browser talks to loopback servers only.
 */
export function browserSession(): AxiosInstance {
  const jar = new Map<string, string>();
  const client = axios.create({ validateStatus: () => true, maxRedirects: 0 });
  client.interceptors.request.use((config) => {
    if (jar.size > 0) config.headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    return config;
  });
  client.interceptors.response.use((response) => {
    for (const line of [response.headers['set-cookie'] ?? []].flat()) {
      const pair = line.split(';')[0]!;
      const split = pair.indexOf('=');
      if (split > 0) jar.set(pair.slice(0, split).trim(), pair.slice(split + 1).trim());
    }
    return response;
  });
  return client;
}
