import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { WidgetKeysService } from '#app/widgets';

const DEMO_WIDGET_NAME = 'Demo widget';
const SEED_ACTOR = 'embedded-seed';

export interface DemoWidget {
  key: string;
  pageUrl: string;
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** A partner's page as a newcomer would write it: the snippet, pinned by its integrity hash. */
function demoPage(apiUrl: string, key: string, integrity: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Widget demo</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 560px; margin: 2rem auto">
<h1>A partner page with the swap widget</h1>
<p>The widget below runs in test mode: pick a pair, paste a test address, create the swap and
press "Simulate deposit".</p>
<div data-swap-widget data-key="${key}" data-from="btc" data-to="eth" data-amount="0.1"></div>
<script src="${apiUrl}/widget.js" integrity="${integrity}" crossorigin="anonymous"></script>
</body></html>
`;
}

/**
 * The embedded start's widget demo: a local page on an origin of its own (the api's port + 2
 * when free, else any) that embeds the loader with a test widget key of the demo organization.
 * The key is reused while it lists the page's origin; one that does not is revoked and replaced.
 */
export async function startDemoWidget(
  app: INestApplicationContext,
  organizationId: string,
  apiPort: number,
): Promise<DemoWidget> {
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  let html = '';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(html);
  });
  const port = await listen(server, apiPort > 0 ? apiPort + 2 : 0).catch(() => listen(server, 0));
  const origin = `http://127.0.0.1:${port}`;
  const widgetKeys = app.get(WidgetKeysService);
  const demoKeys = (await widgetKeys.list(organizationId)).filter(
    (k) => k.name === DEMO_WIDGET_NAME && k.mode === 'test' && k.revokedAt === null,
  );
  let key = demoKeys.find((k) => k.allowedOrigins.includes(origin))?.key;
  for (const stale of demoKeys.filter((k) => k.key !== key)) {
    await widgetKeys.revoke(stale.key, SEED_ACTOR);
  }
  key ??= (
    await widgetKeys.create(
      organizationId,
      { mode: 'test', name: DEMO_WIDGET_NAME, allowedOrigins: [origin] },
      SEED_ACTOR,
    )
  ).key;
  const loader = Buffer.from(await (await fetch(`${apiUrl}/widget.js`)).arrayBuffer());
  html = demoPage(apiUrl, key, `sha384-${createHash('sha384').update(loader).digest('base64')}`);
  return {
    key,
    pageUrl: `${origin}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
