import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** WebAuthn caps credential ids at 1023 bytes: 1364 base64url characters. */
const MAX_ID = 1364;
const MAX_CLIENT_DATA = 4096;
const MAX_AUTHENTICATOR_DATA = 4096;
/** Attestation statements with certificate chains run to a few kilobytes. */
const MAX_ATTESTATION_OBJECT = 32_768;
const MAX_SIGNATURE = 1024;
const MAX_USER_HANDLE = 128;
/** The transports WebAuthn Level 3 names; anything else is refused rather than stored. */
const TRANSPORTS: readonly string[] = [
  'ble',
  'cable',
  'hybrid',
  'internal',
  'nfc',
  'smart-card',
  'usb',
];
const ATTACHMENTS = ['platform', 'cross-platform'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function base64url(value: unknown, max: number): string | null {
  return typeof value === 'string' &&
    value.length > 0 &&
    value.length <= max &&
    BASE64URL.test(value)
    ? value
    : null;
}

function common(value: unknown): {
  id: string;
  response: Record<string, unknown>;
  rest: Partial<RegistrationResponseJSON>;
} | null {
  if (!isRecord(value) || value.type !== 'public-key' || !isRecord(value.response)) {
    return null;
  }
  const id = base64url(value.id, MAX_ID);
  if (id === null || value.rawId !== id) {
    return null;
  }
  const attachment = value.authenticatorAttachment;
  if (
    attachment !== undefined &&
    attachment !== null &&
    !ATTACHMENTS.includes(attachment as (typeof ATTACHMENTS)[number])
  ) {
    return null;
  }
  return {
    id,
    response: value.response,
    rest: {
      ...(typeof attachment === 'string'
        ? { authenticatorAttachment: attachment as (typeof ATTACHMENTS)[number] }
        : {}),
    },
  };
}

/**
 * A registration response as the browser sent it, copied field by field after checking each
 * (types, base64url, sizes); null when anything is off. Nothing else reaches the verifier.
 */
export function registrationResponseOf(value: unknown): RegistrationResponseJSON | null {
  const parts = common(value);
  if (parts === null) {
    return null;
  }
  const clientDataJSON = base64url(parts.response.clientDataJSON, MAX_CLIENT_DATA);
  const attestationObject = base64url(parts.response.attestationObject, MAX_ATTESTATION_OBJECT);
  const transports = parts.response.transports ?? [];
  if (
    clientDataJSON === null ||
    attestationObject === null ||
    !Array.isArray(transports) ||
    transports.length > TRANSPORTS.length ||
    !transports.every((t) => typeof t === 'string' && TRANSPORTS.includes(t))
  ) {
    return null;
  }
  return {
    id: parts.id,
    rawId: parts.id,
    type: 'public-key',
    clientExtensionResults: {},
    ...parts.rest,
    response: {
      clientDataJSON,
      attestationObject,
      transports: transports as string[],
    },
  };
}

/** An authentication (assertion) response, checked and copied as above; null when off. */
export function authenticationResponseOf(value: unknown): AuthenticationResponseJSON | null {
  const parts = common(value);
  if (parts === null) {
    return null;
  }
  const clientDataJSON = base64url(parts.response.clientDataJSON, MAX_CLIENT_DATA);
  const authenticatorData = base64url(parts.response.authenticatorData, MAX_AUTHENTICATOR_DATA);
  const signature = base64url(parts.response.signature, MAX_SIGNATURE);
  const rawHandle = parts.response.userHandle;
  const userHandle =
    rawHandle === undefined || rawHandle === null
      ? undefined
      : base64url(rawHandle, MAX_USER_HANDLE);
  if (
    clientDataJSON === null ||
    authenticatorData === null ||
    signature === null ||
    userHandle === null
  ) {
    return null;
  }
  return {
    id: parts.id,
    rawId: parts.id,
    type: 'public-key',
    clientExtensionResults: {},
    ...parts.rest,
    response: {
      clientDataJSON,
      authenticatorData,
      signature,
      ...(userHandle === undefined ? {} : { userHandle }),
    },
  };
}
