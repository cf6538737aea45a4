import type { Children } from '@kitajs/html';
import { asset } from '../../platform/assets/asset.registry.js';
import type { PageContext } from '../common/dashboard-request.js';
import { FlashBanner } from './flash.js';
import { Form } from './form.js';

/** The navigation, in this order; every signed-in page shows it. */
export const NAV_LINKS: readonly { href: string; label: string }[] = [
  { href: '/partner', label: 'Overview' },
  { href: '/partner/get-started', label: 'Get started' },
  { href: '/partner/api-keys', label: 'API keys' },
  { href: '/partner/swaps', label: 'Swaps' },
  { href: '/partner/earnings', label: 'Earnings' },
  { href: '/partner/webhooks', label: 'Webhooks' },
  { href: '/partner/events', label: 'Events' },
  { href: '/partner/widget', label: 'Widget' },
  { href: '/partner/team', label: 'Team' },
  { href: '/partner/audit-log', label: 'Audit log' },
  { href: '/partner/security', label: 'Security' },
];

function isCurrent(href: string, path: string): boolean {
  return href === '/partner'
    ? path === '/partner' || path === '/partner/'
    : path === href || path.startsWith(`${href}/`);
}

function Head({ title }: { title: string }): JSX.Element {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="referrer" content="same-origin" />
      {/* htmx would otherwise add an inline <style>, which the CSP refuses. */}
      <meta name="htmx-config" content='{"includeIndicatorStyles":false}' />
      <title safe>{`${title} · Swap Partners`}</title>
      <link rel="icon" href={asset('favicon.svg').url} type="image/svg+xml" />
      <link rel="stylesheet" href={asset('dashboard.css').url} />
      <script src={asset('htmx.js').url} defer></script>
    </head>
  );
}

/** The "Test mode" switch: a POST form, so it works without script. */
function ModeSwitch({ ctx }: { ctx: PageContext }): JSX.Element {
  const test = ctx.signedIn?.session.mode === 'test';
  return (
    <Form ctx={ctx} action="/partner/mode">
      <input type="hidden" name="mode" value={test ? 'live' : 'test'} />
      <input type="hidden" name="next" value={ctx.path} />
      <button type="submit" role="switch" aria-checked={test ? 'true' : 'false'}>
        Test mode
      </button>
    </Form>
  );
}

/**
 * A signed-in page: header with the organization, the "Test mode" switch and "Sign out", the
 * navigation, the test-mode banner, the flash message, then the page.
 */
export function Layout({
  ctx,
  title,
  children,
}: {
  ctx: PageContext;
  title: string;
  children?: Children;
}): JSX.Element {
  const signedIn = ctx.signedIn;
  return (
    <>
      {'<!doctype html>'}
      <html lang="en">
        <Head title={title} />
        <body>
          <a class="skip-link" href="#main">
            Skip to content
          </a>
          {signedIn ? (
            <>
              <header class="top">
                <span class="brand" safe>
                  {signedIn.organization.name}
                </span>
                <div class="top-actions">
                  <span class="who" safe>
                    {`${signedIn.user.email} (${signedIn.user.role})`}
                  </span>
                  <ModeSwitch ctx={ctx} />
                  <Form ctx={ctx} action="/partner/logout">
                    <button type="submit" class="secondary">
                      Sign out
                    </button>
                  </Form>
                </div>
              </header>
              <nav class="main" aria-label="Dashboard">
                <ul>
                  {NAV_LINKS.map((link) => (
                    <li>
                      <a
                        href={link.href}
                        aria-current={isCurrent(link.href, ctx.path) ? 'page' : undefined}
                        safe
                      >
                        {link.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
              {signedIn.session.mode === 'test' ? (
                <div class="test-banner" role="status">
                  Test mode: you are looking at test keys, swaps, events and webhooks. Nothing here
                  moves real funds.
                </div>
              ) : (
                ''
              )}
            </>
          ) : (
            <header class="top">
              <span class="brand">Swap Partners</span>
            </header>
          )}
          <main id="main" class={signedIn ? undefined : 'narrow'}>
            <FlashBanner flash={ctx.flash} />
            {children}
          </main>
        </body>
      </html>
    </>
  );
}
