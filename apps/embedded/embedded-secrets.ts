import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Secrets the embedded start invents on first run and keeps under the data directory. */
export interface EmbeddedSecrets {
  adminToken: string;
  credentialEncryptionKey: string;
  postgresPassword: string;
  providerPrivateKeyPem: string;
  providerPublicKeyPem: string;
}

export function loadOrCreateSecrets(dataDir: string): EmbeddedSecrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    return JSON.parse(readFileSync(file, 'utf8')) as EmbeddedSecrets;
  }
  mkdirSync(dataDir, { recursive: true });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const secrets: EmbeddedSecrets = {
    adminToken: randomBytes(24).toString('hex'),
    credentialEncryptionKey: randomBytes(32).toString('base64'),
    postgresPassword: randomBytes(16).toString('hex'),
    providerPrivateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    providerPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
