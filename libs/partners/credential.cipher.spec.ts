import { randomBytes } from 'node:crypto';
import {
  CredentialCipher,
  newPublicKey,
  newSecret,
  PUBLIC_KEY_PATTERN,
  SECRET_PATTERN,
} from './credential.cipher.js';

describe(CredentialCipher.name, () => {
  const sut = new CredentialCipher(randomBytes(32));

  it('reveals the secret it sealed, and the sealed form does not contain it', () => {
    const secret = newSecret();
    const sealed = sut.encrypt(secret);
    expect(sealed).not.toContain(secret.slice(8));
    expect(sut.decrypt(sealed)).toBe(secret);
  });

  it('refuses a tampered ciphertext', () => {
    const sealed = Buffer.from(sut.encrypt(newSecret()), 'base64');
    sealed[sealed.length - 1] ^= 0xff;
    expect(() => sut.decrypt(sealed.toString('base64'))).toThrow();
  });

  it('matches only the right secret against a digest', () => {
    const secret = newSecret();
    const digest = sut.digest(secret);
    expect(sut.matches(secret, digest)).toBe(true);
    expect(sut.matches(newSecret(), digest)).toBe(false);
    expect(sut.matches(secret, 'not-a-digest')).toBe(false);
  });

  it('mints keys in the documented formats', () => {
    expect(newPublicKey()).toMatch(PUBLIC_KEY_PATTERN);
    expect(newSecret()).toMatch(SECRET_PATTERN);
  });
});
