import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import {
  type ReauthFactor,
  ReauthenticationService,
  type ReauthOutcome,
  type SignedIn,
} from '#app/accounts';
import { relyingPartyFor, type RelyingParty } from '#app/dashboard-factors';
import { DASHBOARD_SETTINGS, type DashboardSettings } from './dashboard.config.js';

/** What a sensitive form asks so the person proves who they are (none within 5 minutes). */
export interface ReauthPrompt {
  /** False within 5 minutes of a re-authentication: the form asks nothing. */
  needed: boolean;
  /** An authenticator code is offered beside the password. */
  totp: boolean;
  /** "Confirm with a passkey" is offered: the user has one and WebAuthn can work here. */
  passkey: boolean;
}

/** A refused re-authentication. */
export type ReauthRefusal = Exclude<ReauthOutcome, { ok: true }>;

/** Null where WebAuthn cannot work (an IP address, plain http on a domain). */
export function requestRelyingParty(
  settings: DashboardSettings,
  req: Request,
): RelyingParty | null {
  return relyingPartyFor({
    publicUrl: settings.publicUrl,
    protocol: req.protocol,
    host: req.get('host'),
  });
}

/** The prompt of a signed-in user's sensitive forms, for the page a request renders. */
@Injectable()
export class ReauthPrompts {
  constructor(
    private readonly reauth: ReauthenticationService,
    @Inject(DASHBOARD_SETTINGS) private readonly settings: DashboardSettings,
  ) {}

  async for(signedIn: SignedIn, req: Request): Promise<ReauthPrompt> {
    if (this.reauth.reauthenticatedWithin(signedIn)) {
      return { needed: false, totp: false, passkey: false };
    }
    const factors = await this.reauth.factorsOf(signedIn);
    return {
      needed: true,
      totp: factors.includes('totp'),
      passkey: factors.includes('passkey') && requestRelyingParty(this.settings, req) !== null,
    };
  }
}

const OFFERED: Record<ReauthFactor, string> = {
  password: 'your password',
  totp: 'an authentication code',
  passkey: 'a passkey',
};

const TRIED: Record<ReauthFactor, string> = {
  password: 'password',
  totp: 'code',
  passkey: 'passkey',
};

function either(words: string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/**
 * What a refused re-authentication tells the person: what to give (`purpose`: "to change the
 * team"), that what they tried is not right, or to wait.
 */
export function reauthRefusalText(refusal: ReauthRefusal, purpose: string): string {
  switch (refusal.refusal) {
    case 'missing':
      return `Confirm with ${either(refusal.factors.map((f) => OFFERED[f]))} ${purpose}.`;
    case 'wrong':
      return `That ${either(refusal.tried.map((f) => TRIED[f]))} is not right.`;
    case 'throttled':
      return 'Too many wrong attempts. Wait a few minutes, then try again.';
  }
}
