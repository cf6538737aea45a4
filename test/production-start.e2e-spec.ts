import { spawnSync } from 'node:child_process';
import { testApiEnv } from './support/api.js';

/**
 * The built api started as production starts it, with `overrides` in its environment. A refused
 * start takes seconds on a busy machine (17 s seen at load 20): the bound is far above that, and
 * spawnSync holds the event loop, so Jest's own timeout does not cut it short.
 */
function startApi(overrides: Record<string, string | undefined>) {
  return spawnSync(process.execPath, ['dist/apps/api/main.js'], {
    env: {
      ...testApiEnv({
        APP_ENV: 'production',
        PUBLIC_URL: 'https://swaps.example.com',
        SMTP_URL: 'smtp://127.0.0.1:9',
        ...overrides,
      }),
      PATH: process.env.PATH,
    },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

/**
 * Without `PUBLIC_URL` a request's `Host` would choose the links mailed to people, and without
 * `SMTP_URL` every reset and invitation link would go to the log: production does not start.
 */
describe('The api in production', () => {
  it.each([
    ['PUBLIC_URL', { PUBLIC_URL: undefined }],
    ['SMTP_URL', { SMTP_URL: undefined }],
    ['PUBLIC_URL and SMTP_URL', { PUBLIC_URL: '', SMTP_URL: undefined }],
  ])('refuses to start without %s, in one line naming it', (missing, overrides) => {
    const result = startApi(overrides);

    expect(result.error).toBeUndefined();
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `Invalid configuration: ${missing} ${missing.includes(' and ') ? 'are' : 'is'} required when APP_ENV is production`,
    ]);
    expect(result.stdout).toBe('');
  });
});
