import { randomBytes } from 'node:crypto';
import { mask, sameSecret, SecretBox } from './index';

const key = () => randomBytes(32).toString('base64');

describe('SecretBox', () => {
  it('round-trips and never stores the plaintext', () => {
    const box = new SecretBox(key());
    const sealed = box.seal('consumer-secret-value', 'app:1');
    expect(sealed).not.toContain('consumer-secret-value');
    expect(box.open(sealed, 'app:1')).toBe('consumer-secret-value');
  });

  it('gives a different ciphertext each time', () => {
    const box = new SecretBox(key());
    expect(box.seal('x')).not.toBe(box.seal('x'));
  });

  it('refuses another key, other associated data and tampering', () => {
    const box = new SecretBox(key());
    const sealed = box.seal('secret', 'a');
    expect(() => new SecretBox(key()).open(sealed, 'a')).toThrow('another key');
    expect(() => box.open(sealed, 'b')).toThrow();
    const parts = sealed.split(':');
    parts[4] = Buffer.from('tampered!').toString('base64');
    expect(() => box.open(parts.join(':'), 'a')).toThrow();
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16).toString('base64'))).toThrow('32 bytes');
  });
});

describe('mask', () => {
  it('keeps four characters at each end', () => {
    expect(mask('abcdefghijklmnopwxyz')).toBe('abcd…wxyz');
    expect(mask('short')).toBe('…');
  });
});

describe('sameSecret', () => {
  it('is true only for equal strings, whatever their lengths', () => {
    expect(sameSecret('token-value', 'token-value')).toBe(true);
    expect(sameSecret('', '')).toBe(true);
    expect(sameSecret('token-value', 'token-valuf')).toBe(false);
    expect(sameSecret('token-value', 'token-value-longer')).toBe(false);
    expect(sameSecret('token', '')).toBe(false);
    expect(sameSecret('ünïcode', 'ünïcode')).toBe(true);
  });
});
