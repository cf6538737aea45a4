import type { CredentialMode } from '#app/domain';
import type { CredentialEntity } from '#app/persistence';
import type { IssuedCredential, RevealedCredential } from './organizations.service.js';

/** A credential as listed or revoked: never the secret, its ciphertext or its digest. */
export interface CredentialView {
  publicKey: string;
  mode: CredentialMode;
  createdAt: string;
  revokedAt: string | null;
}

/** A credential just issued: the only answer besides reveal that carries the secret. */
export interface IssuedCredentialView {
  publicKey: string;
  secret: string;
  mode: CredentialMode;
  createdAt: string;
}

export interface RevealedCredentialView {
  publicKey: string;
  secret: string;
}

export function toCredentialView(credential: CredentialEntity): CredentialView {
  return {
    publicKey: credential.publicKey,
    mode: credential.mode,
    createdAt: credential.createdAt.toISOString(),
    revokedAt: credential.revokedAt?.toISOString() ?? null,
  };
}

export function toIssuedCredentialView(issued: IssuedCredential): IssuedCredentialView {
  return {
    publicKey: issued.publicKey,
    secret: issued.secret,
    mode: issued.mode,
    createdAt: issued.createdAt.toISOString(),
  };
}

export function toRevealedCredentialView(revealed: RevealedCredential): RevealedCredentialView {
  return { publicKey: revealed.publicKey, secret: revealed.secret };
}
