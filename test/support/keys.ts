import { generateKeyPairSync, KeyObject } from 'node:crypto';

export interface ProviderKeyPair {
  privateKey: KeyObject;
  privateKeyPem: string;
  publicKeyPem: string;
}

let cached: ProviderKeyPair | undefined;

/** One 2048-bit RSA pair per test process: the adapter signs with it, the sandbox verifies. */
export function providerKeyPair(): ProviderKeyPair {
  if (!cached) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    cached = {
      privateKey,
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
  }
  return cached;
}
