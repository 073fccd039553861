import { SecretBox } from '@crm/secrets';

/**
 * Seals with the current CREDENTIALS_KEY and opens what either the current or the
 * previous key sealed, so a key can be rotated without a moment where records are unreadable.
 */
export class Keyring {
  private readonly current: SecretBox;
  private readonly previous: SecretBox | null;

  constructor(currentKey: string, previousKey?: string) {
    this.current = new SecretBox(currentKey);
    this.previous = previousKey ? new SecretBox(previousKey) : null;
  }

  seal(plaintext: string, associatedData: string): string {
    return this.current.seal(plaintext, associatedData);
  }

  open(sealed: string, associatedData: string): string {
    if (this.previous && !this.current.sealedWithThisKey(sealed) && this.previous.sealedWithThisKey(sealed)) {
      return this.previous.open(sealed, associatedData);
    }
    return this.current.open(sealed, associatedData);
  }

  /** True when the value must be sealed again with the current key. */
  isStale(sealed: string): boolean {
    return !this.current.sealedWithThisKey(sealed);
  }
}
