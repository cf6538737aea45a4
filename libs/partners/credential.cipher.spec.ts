import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import {
  CredentialCipher,
  newPublicKey,
  newSecret,
  PUBLIC_KEY_PATTERN,
  SECRET_PATTERN,
} from './credential.cipher.js';

/** A secret sealed as before: one key for every purpose, nothing bound. */
function sealedTheFormerWay(master: Buffer, secret: string): string {
  const key = Buffer.from(
    hkdfSync('sha256', master, Buffer.alloc(0), 'swap-partners/credential-encryption', 32),
  );
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

describe(CredentialCipher.name, () => {
  const master = randomBytes(32);
  const sut = new CredentialCipher(master);
  const row = { purpose: 'credential', rowId: 'pk_live_0123456789abcdef0123456789abcdef' } as const;

  it('reveals the secret it sealed, and the sealed form does not contain it', () => {
    const secret = newSecret();
    const sealed = sut.encrypt(secret, row);
    expect(sealed).not.toContain(secret.slice(8));
    expect(sut.decrypt(sealed, row)).toBe(secret);
  });

  it('refuses a tampered ciphertext', () => {
    const sealed = sut.encrypt(newSecret(), row);
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1] ^= 0xff;
    expect(() => sut.decrypt(`v2.${raw.toString('base64')}`, row)).toThrow();
  });

  it.each([
    ['another row', { purpose: 'credential', rowId: 'pk_live_ffffffffffffffffffffffffffffffff' }],
    ['another purpose', { purpose: 'webhook', rowId: row.rowId }],
  ] as const)('refuses a ciphertext moved to %s', (_case, elsewhere) => {
    const sealed = sut.encrypt(newSecret(), row);
    expect(() => sut.decrypt(sealed, elsewhere)).toThrow();
  });

  it('seals each purpose with its own key: a webhook secret opens under no credential', () => {
    const webhook = { purpose: 'webhook', rowId: 'we_0123456789abcdef01234567' } as const;
    const sealed = sut.encrypt('whsec_x', webhook);
    expect(sut.decrypt(sealed, webhook)).toBe('whsec_x');
    expect(() => sut.decrypt(sealed, { ...webhook, purpose: 'credential' })).toThrow();
  });

  it('re-seals a secret of the former scheme for its row, and opens no former one directly', () => {
    const secret = newSecret();
    const former = sealedTheFormerWay(master, secret);
    expect(sut.isFormer(former)).toBe(true);
    expect(() => sut.decrypt(former, row)).toThrow();
    const resealed = sut.reseal(former, row);
    expect(sut.isFormer(resealed)).toBe(false);
    expect(sut.decrypt(resealed, row)).toBe(secret);
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
