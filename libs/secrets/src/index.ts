import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const VERSION = 'v1';

/**
 * Encrypts secrets at rest with AES-256-GCM. The stored form is
 * `v1:<key id>:<iv>:<tag>:<ciphertext>` (base64 parts), so a key rotation can tell which
 * records still use an old key.
 */
export class SecretBox {
  private readonly key: Buffer;
  readonly keyId: string;

  constructor(base64Key: string) {
    this.key = Buffer.from(base64Key, 'base64');
    if (this.key.length !== 32) throw new Error('CREDENTIALS_KEY must be 32 bytes (base64)');
    // A short, non-secret fingerprint of the key: which key sealed a value, never the key itself.
    this.keyId = createCipheriv('aes-256-gcm', this.key, Buffer.alloc(12)).update(Buffer.alloc(6)).toString('hex');
  }

  seal(plaintext: string, associatedData = ''): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associatedData));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, this.keyId, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
  }

  /** Decrypts a sealed value; throws when it was sealed with another key or altered. */
  open(sealed: string, associatedData = ''): string {
    const [version, keyId, iv, tag, ciphertext] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
    if (keyId !== this.keyId) throw new Error('sealed with another key');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(associatedData));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  }

  sealedWithThisKey(sealed: string): boolean {
    return sealed.split(':')[1] === this.keyId;
  }
}

/** Shows enough of a secret to recognise it: `abcd…wxyz`. */
export function mask(secret: string): string {
  return secret.length <= 8 ? '…' : `${secret.slice(0, 4)}…${secret.slice(-4)}`;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Compares two secrets in constant time. Both are hashed first, so neither the content nor
 * the length of the expected one shows in the time taken.
 */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}
