import { createHash, createPublicKey, KeyObject, sign, verify } from 'node:crypto';

export interface ProviderAuthHeaders {
  'X-Api-Key': string;
  'X-Api-Signature': string;
}

/** base64(SHA-256(public key as PKCS#1 DER)); accepts the private key or the public key. */
export function providerApiKey(key: KeyObject | string): string {
  const publicKey = key instanceof KeyObject && key.type === 'public' ? key : createPublicKey(key);
  const der = publicKey.export({ type: 'pkcs1', format: 'der' });
  return createHash('sha256').update(der).digest('base64');
}

/** base64 RSA-SHA256 (PKCS#1 v1.5) signature of the exact body bytes. */
export function signProviderBody(privateKey: KeyObject, body: string | Uint8Array): string {
  return sign('sha256', typeof body === 'string' ? Buffer.from(body) : body, privateKey).toString(
    'base64',
  );
}

export function providerAuthHeaders(
  privateKey: KeyObject,
  body: string | Uint8Array,
): ProviderAuthHeaders {
  return {
    'X-Api-Key': providerApiKey(privateKey),
    'X-Api-Signature': signProviderBody(privateKey, body),
  };
}

/** The provider side: the key header names this public key and the signature covers these bytes. */
export function verifyProviderRequest(
  publicKey: KeyObject,
  body: Uint8Array,
  apiKey: string | undefined,
  signature: string | undefined,
): boolean {
  if (!apiKey || !signature || apiKey !== providerApiKey(publicKey)) {
    return false;
  }
  try {
    return verify('sha256', body, publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
