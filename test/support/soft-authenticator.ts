import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

type CBORType = Parameters<typeof isoCBOR.encode>[0];

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

function sha256(data: Buffer | string): Buffer {
  return createHash('sha256').update(data).digest();
}

function b64url(data: Buffer): string {
  return data.toString('base64url');
}

interface StoredCredential {
  id: Buffer;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

/**
 * A software WebAuthn authenticator (ES256, `none` attestation) for service-level tests: it
 * answers the server's options as a browser and a security key would, so the server's checks run
 * on real signatures. The browser suites use Chromium's own virtual authenticator instead.
 */
export class SoftAuthenticator {
  readonly credentials: StoredCredential[] = [];
  /** Whether the "person" passes the PIN or biometric check. */
  userVerified = true;

  register(
    options: PublicKeyCredentialCreationOptionsJSON,
    origin: string,
  ): RegistrationResponseJSON {
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y ?? '', 'base64url'))],
      ]),
    );
    const id = randomBytes(32);
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([UP | AT | (this.userVerified ? UV : 0)]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      credentialIdLength,
      id,
      Buffer.from(coseKey),
    ]);
    const attestation = new Map<string, CBORType>();
    attestation.set('fmt', 'none');
    attestation.set('attStmt', new Map<string, CBORType>());
    attestation.set('authData', new Uint8Array(authData));
    const attestationObject = isoCBOR.encode(attestation);
    this.credentials.push({ id, rpId, userHandle: options.user.id, privateKey, counter: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData('webauthn.create', options.challenge, origin),
        attestationObject: b64url(Buffer.from(attestationObject)),
        transports: ['usb'],
      },
    };
  }

  /** Signs with the first stored credential the options allow (any, for a discoverable sign-in). */
  authenticate(
    options: PublicKeyCredentialRequestOptionsJSON,
    origin: string,
    credential = this.pick(options),
  ): AuthenticationResponseJSON {
    credential.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([
      sha256(options.rpId ?? credential.rpId),
      Buffer.from([UP | (this.userVerified ? UV : 0)]),
      counter,
    ]);
    const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON,
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    };
  }

  private pick(options: PublicKeyCredentialRequestOptionsJSON): StoredCredential {
    const allowed = options.allowCredentials?.map((c) => c.id);
    const found = this.credentials.find(
      (c) => allowed === undefined || allowed.length === 0 || allowed.includes(b64url(c.id)),
    );
    if (found === undefined) {
      throw new Error('the soft authenticator holds no credential these options allow');
    }
    return found;
  }
}

function clientData(type: string, challenge: string, origin: string): string {
  return b64url(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
}
