import { hmacSha1, parseOAuthHeader, signatureBaseString } from '@crm/social-platform-simulator/src/platform/oauth1';
import { ACTIONS } from '../../domain/actions';
import { basicCredentials, encodeParameters, OAuth1Signer } from './oauth1';

/** The platform's published worked example (docs/architecture.md, "The social platform"). */
const VECTOR = {
  consumer: { key: 'xvz1evFS4wEEPTGEFPHBog', secret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw' },
  token: { key: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb', secret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE' },
  overrides: { nonce: 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg', timestamp: 1318622958 },
  form: { status: 'Hello Ladies + Gentlemen, a signed OAuth request!' },
};

describe('OAuth 1.0a signing (oauth-1.0a, HMAC-SHA1 by node:crypto)', () => {
  const signer = new OAuth1Signer(VECTOR.consumer);

  it.each([
    ['https://api.x.com/1.1/statuses/update.json', 'Ls93hJiZbQ3akF3HF3x1Bz8/zU4='],
    ['https://api.twitter.com/1.1/statuses/update.json', 'hCtSmYh+iHYCEqBWrE7C7hYmtUk='],
  ])('passes the published worked example at %s', (base, expected) => {
    const signed = signer.authorize({ method: 'POST', url: `${base}?include_entities=true`, form: VECTOR.form }, VECTOR.token, VECTOR.overrides);
    expect(signed.oauth_signature).toBe(expected);
  });

  it('puts the signature and protocol parameters in the header, percent-encoded', () => {
    const header = signer.header({ method: 'POST', url: 'https://api.x.com/1.1/statuses/update.json?include_entities=true', form: VECTOR.form }, VECTOR.token, VECTOR.overrides);
    expect(header).toBe(
      'OAuth oauth_consumer_key="xvz1evFS4wEEPTGEFPHBog", oauth_nonce="kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", oauth_signature="Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1318622958", oauth_token="370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", oauth_version="1.0"',
    );
  });

  it('signs the request-token leg with the consumer secret and an empty token secret, oauth_callback in the header', () => {
    const header = signer.header({ method: 'POST', url: 'https://api.x.com/oauth/request_token', oauth: { oauth_callback: 'https://crm.example/cb?x=1' } }, undefined, VECTOR.overrides);
    expect(header).toContain('oauth_callback="https%3A%2F%2Fcrm.example%2Fcb%3Fx%3D1"');
    expect(header).not.toContain('oauth_token=');
  });

  it('makes a fresh, unguessable nonce per request', () => {
    const nonce = (h: string) => /oauth_nonce="([^"]+)"/.exec(h)![1];
    const a = nonce(signer.header({ method: 'GET', url: 'https://api.x.com/1.1/x.json' }, VECTOR.token));
    const b = nonce(signer.header({ method: 'GET', url: 'https://api.x.com/1.1/x.json' }, VECTOR.token));
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
  });

  it('encodes bodies and queries as RFC 3986 wants (spaces as %20, reserved characters escaped)', () => {
    expect(encodeParameters(VECTOR.form)).toBe('status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21');
  });

  it('builds the app-only token request credentials of the published example', () => {
    expect(basicCredentials('xvz1evFS4wEEPTGEFPHBog', 'L8qq9PZyRg6ieKGEKhZolGC0vJWLw8iEJ88DRdyOg')).toBe(
      'Basic eHZ6MWV2RlM0d0VFUFRHRUZQSEJvZzpMOHFxOVBaeVJnNmllS0dFS2hab2xHQzB2SldMdzhpRUo4OERSZHlPZw==',
    );
  });
});

describe('OAuth 1.0a user context on the v2 read routes (GET with a query string)', () => {
  const signer = new OAuth1Signer(VECTOR.consumer);
  const base = 'https://api.x.com';
  /** The URL as the platform client sends it: the query encoded as RFC 3986 wants. */
  const urlOf = (request: { path: string; query?: Record<string, string> }) => `${base}${request.path}${request.query && Object.keys(request.query).length ? `?${encodeParameters(request.query)}` : ''}`;
  /** The signature the platform computes for the header, independently (the simulator's implementation, RFC 5849 section 3.4). */
  function platformSignature(method: string, url: string, header: string): string {
    const oauth = parseOAuthHeader(header)!;
    const [path, query = ''] = url.split('?');
    const protocol = [...oauth].filter(([key]) => key !== 'oauth_signature');
    return hmacSha1(signatureBaseString(method, path!, [...protocol, ...new URLSearchParams(query)]), VECTOR.consumer.secret, VECTOR.token.secret);
  }

  const READS = [
    ['read_profile', {}],
    ['read_user', { screenName: '@ana' }],
    ['read_user_timeline', { userId: '12', count: 3, sinceId: '7', maxId: '99' }],
    ['read_home_timeline', { count: 150 }],
    ['read_following', { count: 2, cursor: 'next_ABC-1' }],
    ['read_lists', {}],
    ['read_subscribed_lists', { count: 500 }],
    ['read_list_posts', { listId: '3' }],
    ['read_dms', { count: 5 }],
    ['read_dm', { eventId: '6' }],
    ['search_posts', { query: `"late parcel" from:ana_b +refund & 50%=ok (why?) it's *really* late! 📦` }],
  ] as const;

  it('covers every read through v2', () => {
    expect(READS.map(([action]) => action).sort()).toEqual(
      Object.entries(ACTIONS)
        .filter(([, definition]) => definition.kind === 'read' && definition.api === 'v2')
        .map(([action]) => action)
        .sort(),
    );
  });

  it.each(READS)('signs %s with its query parameters (commas, dots in names, spaces, reserved characters), as the platform checks it', (action, input) => {
    const request = ACTIONS[action].request(input, '1');
    expect(request.method).toBe('GET');
    const url = urlOf(request);
    const header = signer.header({ method: 'GET', url }, VECTOR.token, VECTOR.overrides);
    expect(parseOAuthHeader(header)!.get('oauth_signature')).toBe(platformSignature('GET', url, header));
    // Only protocol parameters travel in the header; the query stays in the URL.
    expect([...parseOAuthHeader(header)!.keys()].every((key) => key.startsWith('oauth_'))).toBe(true);
  });
});
