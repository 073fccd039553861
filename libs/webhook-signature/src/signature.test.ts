import { crcResponse, isPlausibleCrcToken, sign, verifySignature } from './index';

// The platform's published webhook vectors (docs/architecture.md, "The social platform").
describe('webhook cryptography', () => {
  it('answers the published CRC vector', () => {
    expect(crcResponse('DDD', 'some_random').response_token).toBe('sha256=VE19eUk6krbdSqWPdvH71xtFhApBAU81uPW3UT65vOs=');
  });

  it.each([
    ['test', '{"test_number":1,"test_string":"two"}', 'sha256=YWHphPn/JFq43jkF0y4/w8R/SelmLjvpunhVFY8JhlI='],
    ['DDD', '{"for_user_id":123,"key":"value"}', 'sha256=JjEmBe1lVKT8XldrYUKibF+D5ehp8f0jDk3PXZSHEWI='],
  ])('signs and verifies the published delivery vector for secret %s', (secret, body, expected) => {
    expect(sign(secret, Buffer.from(body))).toBe(expected);
    expect(verifySignature(secret, Buffer.from(body), expected)).toBe(true);
  });

  it('rejects a re-serialised body: escaped characters change the bytes', () => {
    const received = Buffer.from('{"for_user_id":"123","text":"a \\u003c b \\u0026 c"}');
    const header = sign('DDD', received);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(received.toString())));
    expect(reserialised.equals(received)).toBe(false);
    expect(verifySignature('DDD', received, header)).toBe(true);
    expect(verifySignature('DDD', reserialised, header)).toBe(false);
  });

  it('rejects a missing, malformed or wrong-key signature', () => {
    const body = Buffer.from('{"for_user_id":123,"key":"value"}');
    expect(verifySignature('DDD', body, undefined)).toBe(false);
    expect(verifySignature('DDD', body, 'JjEmBe1lVKT8XldrYUKibF+D5ehp8f0jDk3PXZSHEWI=')).toBe(false);
    expect(verifySignature('DDD', body, 'sha256=short')).toBe(false);
    expect(verifySignature('other', body, 'sha256=JjEmBe1lVKT8XldrYUKibF+D5ehp8f0jDk3PXZSHEWI=')).toBe(false);
  });

  it('only treats token-like strings as CRC tokens', () => {
    expect(isPlausibleCrcToken('some_random')).toBe(false); // 11 chars: below the minimum
    expect(isPlausibleCrcToken('Tm9uY2VBbmRUb2tlbjEyMzQ1Ng==')).toBe(true);
    expect(isPlausibleCrcToken('{"for_user_id":123}')).toBe(false);
    expect(isPlausibleCrcToken('a'.repeat(129))).toBe(false);
    expect(isPlausibleCrcToken(['a'.repeat(20)])).toBe(false);
  });
});
