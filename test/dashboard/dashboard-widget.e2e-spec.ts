import request from 'supertest';
import type { DataSource } from 'typeorm';
import { WidgetKeysService } from '#app/widgets';
import { asset } from '../../apps/api/platform/assets/asset.registry.js';
import { type DashboardClient, signedInClient } from '../support/dashboard.js';
import { waitUntil } from '../support/wait.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const WIDGET_KEY = /wk_(?:live|test)_[0-9a-f]{32}/;
const SHOP = 'https://shop.example';
const OTHER_SHOP = 'http://localhost:8080';

/** Text as it reads in the page's markup (the page escapes what it shows). */
function decoded(html: string): string {
  return html
    .replace(/&#34;|&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The snippet's textarea of a page, as the person would copy it. */
function snippetIn(html: string): string {
  const match = /<textarea id="widget-snippet"[^>]*>([^<]*)<\/textarea>/.exec(html);
  if (!match) {
    throw new Error('no snippet on the page');
  }
  return decoded(match[1]);
}

/** The opening tag of the form control named `name`. */
function controlTag(html: string, name: string): string {
  const tag = new RegExp(`<(?:input|textarea)[^>]* name="${name}"[^>]*>`).exec(html)?.[0];
  if (!tag) {
    throw new Error(`no control named ${name} on the page`);
  }
  return tag;
}

/**
 * The Widget page over plain HTTP, as a browser without script would use it: keys created with
 * their origins (the admin API's checks), listed in their mode, previewed and revoked; roles,
 * CSRF, other organizations' keys and hostile input in every field and parameter.
 */
describe('Dashboard Widget page', () => {
  let harness: Harness;
  let db: DataSource;
  let orgId: string;
  let owner: { client: DashboardClient; email: string };
  let developer: { client: DashboardClient; email: string };
  let viewer: { client: DashboardClient };

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    db = harness.db;
    orgId = await createOrganization(harness.api.app, { name: 'Widget Shop Ltd' });
    owner = await signedInClient(harness.api, orgId, 'owner');
    developer = await signedInClient(harness.api, orgId, 'developer');
    viewer = await signedInClient(harness.api, orgId, 'viewer');
  });

  afterAll(async () => {
    await harness.close();
  });

  /** Creates a key through the page's form; answers its key and the page it leads to. */
  async function createKey(
    client: DashboardClient,
    name: string,
    origins: string[] = [SHOP],
  ): Promise<{ key: string; html: string }> {
    await client.get('/partner/widget');
    const res = await client.post('/partner/widget', {
      name,
      allowedOrigins: origins.join('\r\n'),
    });
    expect(res.status).toBe(303);
    const location = String(res.headers.location);
    const key = WIDGET_KEY.exec(location)?.[0];
    if (!key) {
      throw new Error(`no widget key in ${location}`);
    }
    const page = await client.get(location);
    expect(page.status).toBe(200);
    return { key, html: page.text };
  }

  async function widgetStatus(key: string): Promise<number> {
    return (await request(harness.api.url).get(`/widget?key=${key}`)).status;
  }

  it('creates a key with its origins, lists it and previews it with the snippet to paste', async () => {
    const { key, html } = await createKey(developer.client, 'Shop checkout', [
      SHOP,
      '',
      ` ${OTHER_SHOP} `,
    ]);

    expect(key).toMatch(/^wk_live_/);
    expect(html).toContain('Widget key Shop checkout created');
    expect(html).toContain(`<code class="mono">${key}</code>`);
    expect(html).toContain(`<code class="mono">${SHOP}</code>`);
    expect(html).toContain(`<code class="mono">${OTHER_SHOP}</code>`);
    expect(html).toContain('Preview of Shop checkout');
    expect(html).toContain(`src="/widget?key=${key}&theme=light"`);
    expect(snippetIn(html)).toBe(
      [
        `<div data-swap-widget data-key="${key}"></div>`,
        '<script',
        `  src="${harness.api.url}/widget/v1.js"`,
        `  integrity="${asset('loader-v1.js').integrity}"`,
        '  crossorigin="anonymous"',
        '></script>',
      ].join('\n'),
    );
    const page = await developer.client.get('/partner/widget');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("frame-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(page.headers['cache-control']).toContain('no-store');

    // The preview: the hosted widget lets the service's own pages frame it, besides the origins.
    const widget = await request(harness.api.url).get(`/widget?key=${key}`).expect(200);
    expect(widget.headers['content-security-policy']).toContain(
      `frame-ancestors ${SHOP} ${OTHER_SHOP} 'self'`,
    );

    const audit = await db.query<{ actor: string; organization_id: string }[]>(
      `SELECT actor, organization_id FROM audit_log
        WHERE action = 'widget_key.create' AND target_id = $1`,
      [key],
    );
    expect(audit).toEqual([{ actor: `dashboard:${developer.email}`, organization_id: orgId }]);
    expect((await owner.client.get('/partner/audit-log')).text).toContain(key);
  });

  it('shows the preview in the chosen theme and accent, and the snippet with them', async () => {
    const { key } = await createKey(owner.client, 'Dark shop');

    const dark = await owner.client.get(`/partner/widget?key=${key}&theme=dark&accent=F59E0B`);
    expect(dark.status).toBe(200);
    expect(dark.text).toContain(`src="/widget?key=${key}&theme=dark&accent=%23f59e0b"`);
    expect(snippetIn(dark.text)).toContain(
      `<div data-swap-widget data-key="${key}" data-theme="dark" data-accent="#f59e0b"></div>`,
    );

    const badAccent = await owner.client.get(`/partner/widget?key=${key}&accent=orange`);
    expect(badAccent.status).toBe(200);
    expect(badAccent.text).toContain('Enter a hex colour such as #2563eb');
    expect(badAccent.text).toContain(`src="/widget?key=${key}&theme=light"`);
    expect(snippetIn(badAccent.text)).not.toContain('data-accent');
  });

  it.each([
    ['no origin at all', [], 'List 1 to 20 allowed origins'],
    ['a path', [`${SHOP}/checkout`], 'Allowed origin 1 is not an origin'],
    ['a trailing slash', [SHOP, `${OTHER_SHOP}/`], 'Allowed origin 2 is not an origin'],
    ['a wildcard', ['https://*.shop.example'], 'Allowed origin 1 is not an origin'],
    ['another scheme', ['ftp://shop.example'], 'Allowed origin 1 is not an origin'],
    ['no scheme', ['shop.example'], 'Allowed origin 1 is not an origin'],
    [
      'more than 20',
      Array.from({ length: 21 }, (_, i) => `https://s${i}.example`),
      'List at most 20 allowed origins',
    ],
  ])('refuses %s with the error under "Allowed origins"', async (_, origins, message) => {
    const before = await harness.api.app.get(WidgetKeysService).list(orgId);

    const res = await owner.client.post('/partner/widget', {
      name: 'Refused',
      allowedOrigins: origins.join('\n'),
    });

    expect(res.status).toBe(400);
    const textarea = controlTag(res.text, 'allowedOrigins');
    expect(textarea).toContain('aria-invalid="true"');
    // The error is the one the field points to, under the field labelled "Allowed origins".
    const id = /id="([^"]+)"/.exec(textarea)?.[1] ?? '';
    expect(res.text).toContain(`<label for="${id}">Allowed origins</label>`);
    expect(textarea).toMatch(new RegExp(`aria-describedby="[^"]*${id}-error`));
    expect(res.text).toContain(`<p class="error" id="${id}-error">${message}`);
    // The form keeps what was typed.
    expect(res.text).toContain('value="Refused"');
    expect(await harness.api.app.get(WidgetKeysService).list(orgId)).toHaveLength(before.length);
  });

  it('refuses a missing name with the error under "Name"', async () => {
    const res = await owner.client.post('/partner/widget', { name: ' ', allowedOrigins: SHOP });

    expect(res.status).toBe(400);
    expect(controlTag(res.text, 'name')).toContain('aria-invalid="true"');
    expect(res.text).toContain('Give the key a name of 1 to 100 printable characters.');
    expect(res.text).toContain(SHOP);
  });

  it('revokes a key: the hosted widget refuses it within 5 s, and the revocation is audited', async () => {
    const { key } = await createKey(owner.client, 'To revoke');
    expect(await widgetStatus(key)).toBe(200);

    const res = await owner.client.post(`/partner/widget/${key}/revoke`, {});

    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/partner/widget');
    await waitUntil(
      'the revoked key to be refused',
      async () => (await widgetStatus(key)) === 404,
      5000,
    );
    const page = await owner.client.get('/partner/widget');
    expect(page.text).toContain('Widget key To revoke revoked');
    expect(page.text).toContain('Revoked <time');
    const chosen = await owner.client.get(`/partner/widget?key=${key}`);
    expect(chosen.status).toBe(200);
    expect(chosen.text).toContain('is revoked: the widget no longer loads with it');
    expect(chosen.text).not.toContain('<iframe');
    const audit = await db.query<{ actor: string }[]>(
      `SELECT actor FROM audit_log WHERE action = 'widget_key.revoke' AND target_id = $1`,
      [key],
    );
    expect(audit).toEqual([{ actor: `dashboard:${owner.email}` }]);
  });

  it('shows a viewer the keys, preview and snippet without a form or button, and refuses its posts', async () => {
    const { key } = await createKey(owner.client, 'Seen by a viewer');

    const page = await viewer.client.get(`/partner/widget?key=${key}`);

    expect(page.status).toBe(200);
    expect(page.text).toContain(key);
    expect(page.text).toContain('<iframe');
    expect(snippetIn(page.text)).toContain(key);
    for (const absent of ['Create widget key', '>Revoke<', 'name="allowedOrigins"']) {
      expect(page.text).not.toContain(absent);
    }
    for (const [path, fields] of [
      ['/partner/widget', { name: 'Viewer key', allowedOrigins: SHOP }],
      [`/partner/widget/${key}/revoke`, {}],
    ] as const) {
      const res = await viewer.client.post(path, fields);
      expect(res.status).toBe(403);
    }
    expect(await widgetStatus(key)).toBe(200);
    const names = (await harness.api.app.get(WidgetKeysService).list(orgId)).map((k) => k.name);
    expect(names).not.toContain('Viewer key');
  });

  it("never shows nor touches another organization's keys, nor the other mode's", async () => {
    const otherOrg = await createOrganization(harness.api.app, { name: 'Other Shop' });
    const other = await signedInClient(harness.api, otherOrg, 'owner');
    const theirs = await createKey(other.client, 'Theirs');

    expect((await owner.client.get('/partner/widget')).text).not.toContain(theirs.key);
    expect((await owner.client.get(`/partner/widget?key=${theirs.key}`)).status).toBe(404);
    expect((await owner.client.post(`/partner/widget/${theirs.key}/revoke`, {})).status).toBe(404);
    expect(await widgetStatus(theirs.key)).toBe(200);

    // The owner's live key is unknown in test mode, and a test key made there is test.
    const live = await createKey(owner.client, 'Live only');
    await owner.client.post('/partner/mode', { mode: 'test', next: '/partner/widget' });
    try {
      const testPage = await owner.client.get('/partner/widget');
      expect(testPage.text).not.toContain(live.key);
      expect(testPage.text).toContain('No test widget keys yet.');
      expect((await owner.client.get(`/partner/widget?key=${live.key}`)).status).toBe(404);
      expect((await owner.client.post(`/partner/widget/${live.key}/revoke`, {})).status).toBe(404);
      const test = await createKey(owner.client, 'Sandbox shop');
      expect(test.key).toMatch(/^wk_test_/);
    } finally {
      await owner.client.post('/partner/mode', { mode: 'live', next: '/partner/widget' });
    }
    expect(await widgetStatus(live.key)).toBe(200);
  });

  it('creates live keys only for an active organization, test keys meanwhile', async () => {
    const pendingOrg = await createOrganization(harness.api.app, { status: 'pending_review' });
    const { client } = await signedInClient(harness.api, pendingOrg, 'owner');
    await client.post('/partner/mode', { mode: 'live', next: '/partner/widget' });

    const livePage = await client.get('/partner/widget');
    expect(livePage.text).not.toContain('Create widget key');
    expect(livePage.text).toContain(
      'Live widget keys can be created once your organization is approved.',
    );
    const refused = await client.post('/partner/widget', { name: 'Early', allowedOrigins: SHOP });
    expect(refused.status).toBe(403);
    expect(await harness.api.app.get(WidgetKeysService).list(pendingOrg)).toEqual([]);

    await client.post('/partner/mode', { mode: 'test', next: '/partner/widget' });
    const { key } = await createKey(client, 'Sandbox');
    expect(key).toMatch(/^wk_test_/);
  });

  it('needs the CSRF token and the same origin on every form', async () => {
    const { key } = await createKey(owner.client, 'Guarded');
    for (const [path, fields] of [
      ['/partner/widget', { name: 'Forged', allowedOrigins: SHOP }],
      [`/partner/widget/${key}/revoke`, {}],
    ] as const) {
      const missing = await owner.client.post(path, fields, { csrf: null });
      const foreign = await owner.client.post(path, fields, { origin: 'https://evil.example' });
      expect([missing.status, foreign.status]).toEqual([403, 403]);
    }
    expect(await widgetStatus(key)).toBe(200);
    const names = (await harness.api.app.get(WidgetKeysService).list(orgId)).map((k) => k.name);
    expect(names).not.toContain('Forged');
  });

  it('answers hostile input in every field and parameter with a page, never a 500', async () => {
    const { key } = await createKey(owner.client, 'Fuzzed');
    const hostile = [
      '',
      ' ',
      'a\u0000b',
      '\u0007bell',
      'x'.repeat(100_000),
      '\ud800',
      '<script>alert(1)</script>',
      '"><img src=x onerror=alert(1)>',
      "'; DROP TABLE widget_keys; --",
      '😀'.repeat(101),
      '\u202eevil',
      '%00',
      '../../etc/passwd',
      'https://shop.example\u0000.evil',
      'javascript:alert(1)',
      `${SHOP}\n`.repeat(5_000),
    ];
    for (const value of hostile) {
      for (const fields of [
        { name: value, allowedOrigins: SHOP },
        { name: 'Fuzz', allowedOrigins: value },
      ]) {
        const created = await owner.client.post('/partner/widget', fields);
        expect(created.status).toBeLessThan(500);
        expect(created.text).not.toContain('<script>alert(1)</script>');
        expect(created.text).not.toContain('<img src=x');
      }
      // A lone surrogate cannot be percent-encoded as UTF-8: send the bytes it would have been.
      const encoded = value === '\ud800' ? '%ED%A0%80' : encodeURIComponent(value);
      const revoked = await owner.client.post(`/partner/widget/${encoded}/revoke`, {});
      expect(revoked.status).toBeLessThan(500);
      for (const query of [`key=${encoded}`, `key=${key}&theme=${encoded}&accent=${encoded}`]) {
        const page = await owner.client.get(`/partner/widget?${query}`);
        expect(page.status).toBeLessThan(500);
        expect(page.text).not.toContain('<script>alert(1)</script>');
        expect(page.text).not.toContain('<img src=x');
      }
    }
    for (const query of [
      'key[]=x',
      `key=${key}&key=${key}`,
      'key[a]=b',
      `key=${key}&theme[]=dark`,
    ]) {
      expect((await owner.client.get(`/partner/widget?${query}`)).status).toBeLessThan(500);
    }
    const repeated = await owner.client.agent
      .post('/partner/widget')
      .set('Origin', harness.api.url)
      .type('form')
      .send(
        `_csrf=${encodeURIComponent(owner.client.csrf)}&name=a&name=b&allowedOrigins[x]=${SHOP}`,
      );
    expect(repeated.status).toBe(400);
    expect(await widgetStatus(key)).toBe(200);
  });
});
