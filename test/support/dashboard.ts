import { randomBytes } from 'node:crypto';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import request from 'supertest';
import { type DashboardRole, DashboardAccountsService, type DashboardUser } from '#app/accounts';
import type { TestApi } from './api.js';
import type { SoftAuthenticator } from './soft-authenticator.js';
import { pacer } from './wait.js';

/** A password no list calls common, different each call. */
export function testPassword(): string {
  return `Tp-${randomBytes(12).toString('hex')}`;
}

export function testEmail(label = 'user'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.com`;
}

/** A dashboard user of `role`, made through an invitation as an operator or owner would. */
export async function createDashboardUser(
  api: TestApi,
  organizationId: string,
  role: DashboardRole,
  options: { email?: string; password?: string } = {},
): Promise<{ user: DashboardUser; email: string; password: string }> {
  const accounts = api.app.get(DashboardAccountsService);
  const email = options.email ?? testEmail(role);
  const password = options.password ?? testPassword();
  const { url } = await accounts.invite(
    { organizationId, email, role, invitedBy: 'test-harness' },
    api.url,
  );
  const user = await accounts.acceptInvitation(url.slice(url.lastIndexOf('/') + 1), password);
  return { user, email, password };
}

/** The message a page shows at its top (a flash from the last request, or a form's error). */
export function flashOf(html: string): string | null {
  return /class="flash (?:success|error|info)"[^>]*>([^<]*)</.exec(html)?.[1] ?? null;
}

/** The CSRF token of the first form of a page. */
export function csrfTokenIn(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) {
    throw new Error('no CSRF token in the page');
  }
  return match[1];
}

/**
 * Every client of a test file shares one pace: 100 requests a second at most, under the 120/s
 * per-IP limit of /partner that these tests do not test, however fast the machine answers.
 */
const pace = pacer(10);

/**
 * A browser-like client over plain HTTP: keeps cookies, sends forms with the page's CSRF token
 * and a same-origin `Origin`, as the dashboard's own pages do.
 */
export class DashboardClient {
  readonly agent: ReturnType<typeof request.agent>;
  csrf = '';

  constructor(readonly baseUrl: string) {
    this.agent = request.agent(baseUrl);
  }

  async get(path: string) {
    await pace();
    const res = await this.agent.get(path);
    const token = /name="_csrf" value="([^"]+)"/.exec(res.text ?? '');
    if (token) {
      this.csrf = token[1];
    }
    return res;
  }

  /** Posts a form; `options.csrf`/`options.origin` replace what a page would send (null: none). */
  async post(
    path: string,
    fields: Record<string, string>,
    options: { csrf?: string | null; origin?: string | null } = {},
  ) {
    if (this.csrf === '' && options.csrf === undefined) {
      await this.get('/partner/login');
    }
    await pace();
    const csrf = options.csrf === undefined ? this.csrf : options.csrf;
    const origin = options.origin === undefined ? this.baseUrl : options.origin;
    let req = this.agent.post(path).type('form');
    if (origin !== null) {
      req = req.set('Origin', origin);
    }
    return req.send(csrf === null ? fields : { _csrf: csrf, ...fields });
  }

  /** The `partner_session` cookie's value, as the browser holds it. */
  sessionId(): string | undefined {
    const jar = (
      this.agent as unknown as {
        jar: { getCookie(name: string, access: object): { value: string } | undefined };
      }
    ).jar;
    const url = new URL(this.baseUrl);
    return jar.getCookie('partner_session', {
      domain: url.hostname,
      path: '/partner',
      secure: false,
      script: false,
    })?.value;
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.get('/partner/login');
    const res = await this.post('/partner/login', { email, password });
    if (res.status !== 303) {
      throw new Error(`sign-in answered ${res.status}`);
    }
    await this.get('/partner');
  }
}

/** A signed-in client of a new user of `role` in `organizationId`. */
export async function signedInClient(
  api: TestApi,
  organizationId: string,
  role: DashboardRole,
): Promise<{ client: DashboardClient; user: DashboardUser; email: string; password: string }> {
  const made = await createDashboardUser(api, organizationId, role);
  const client = new DashboardClient(api.url);
  await client.signIn(made.email, made.password);
  return { client, ...made };
}

/** Where a user's second factors are managed. */
export const SECOND_FACTORS_PATH = '/partner/security/second-factors';

/**
 * Turns the authenticator app on through the Security pages, as a person with the app would:
 * `codeOf` is the app (the code it shows now for a secret). `proof` confirms it is the person
 * (for example the password), unless the session did lately.
 */
export async function enrolTotp(
  client: DashboardClient,
  codeOf: (secret: string) => string,
  proof: Record<string, string> = {},
): Promise<{ secret: string; recoveryCodes: string[]; enrolmentPage: string }> {
  await client.get(SECOND_FACTORS_PATH);
  const begin = await client.post(`${SECOND_FACTORS_PATH}/totp`, proof);
  if (begin.headers.location !== `${SECOND_FACTORS_PATH}/totp`) {
    throw new Error(`setting up the authenticator app answered ${begin.status}`);
  }
  const enrolmentPage = (await client.get(`${SECOND_FACTORS_PATH}/totp`)).text;
  const key = /Or enter this key by hand: <code>([A-Z2-7 ]+)<\/code>/.exec(enrolmentPage);
  if (!key) {
    throw new Error('no key on the enrolment page');
  }
  const secret = key[1].replace(/ /g, '');
  const confirmed = await client.post(`${SECOND_FACTORS_PATH}/totp/confirm`, {
    code: codeOf(secret),
  });
  const recoveryCodes = [
    ...confirmed.text.matchAll(/<code>([a-z2-7]{5}-[a-z2-7]{5})<\/code>/g),
  ].map((m) => m[1]);
  return { secret, recoveryCodes, enrolmentPage };
}

/**
 * Adds a passkey through the Security pages, `authenticator` playing the browser and its
 * security key; the client must use a domain name (localhost), where WebAuthn works.
 */
export async function addPasskey(
  client: DashboardClient,
  authenticator: SoftAuthenticator,
  name: string,
  proof: Record<string, string> = {},
): Promise<void> {
  await client.get(SECOND_FACTORS_PATH);
  const options = await client.post(`${SECOND_FACTORS_PATH}/passkeys/options`, proof);
  const answer = options.body as { options?: PublicKeyCredentialCreationOptionsJSON };
  if (!answer.options) {
    throw new Error(`no passkey options: ${JSON.stringify(options.body)}`);
  }
  const credential = authenticator.register(answer.options, client.baseUrl);
  const added = await client.post(`${SECOND_FACTORS_PATH}/passkeys`, {
    name,
    credential: JSON.stringify(credential),
  });
  if (added.status !== 303) {
    throw new Error(`adding a passkey answered ${added.status}`);
  }
}
