import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createRootLogger } from '#app/logging';
import type { TestPartner } from './factories/partners.js';
import { testRedisPrefix } from './support/database.js';
import { startHarness, type Harness } from './support/harness.js';
import { waitUntil } from './support/wait.js';

type LogLine = Record<string, unknown>;

/** The api's JSON log lines, parsed as they are written. */
class CapturedLines extends Writable {
  readonly lines: LogLine[] = [];

  override _write(chunk: Buffer | string, _encoding: string, done: () => void): void {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      this.lines.push(JSON.parse(line) as LogLine);
    }
    done();
  }

  of(requestId: string): LogLine[] {
    return this.lines.filter((line) => line.requestId === requestId);
  }
}

const isAccessLine = (line: LogLine): boolean => 'responseTime' in line && 'res' in line;

describe('Logging (api over HTTP)', () => {
  let h: Harness;
  let url: string;
  let log: CapturedLines;
  let partner: TestPartner;
  const requestId = (label: string): string => `log-${label}-${randomBytes(4).toString('hex')}`;

  async function accessLineOf(id: string): Promise<LogLine> {
    await waitUntil(`the access line of ${id}`, () =>
      Promise.resolve(log.of(id).some(isAccessLine)),
    );
    const lines = log.of(id).filter(isAccessLine);
    expect(lines).toHaveLength(1);
    return lines[0];
  }

  beforeAll(async () => {
    log = new CapturedLines();
    h = await startHarness({
      logger: createRootLogger('info', log),
      // Its own prefix: a catalogue cached by another suite would skip the upstream call.
      api: { REDIS_KEY_PREFIX: `${testRedisPrefix()}log-${randomBytes(3).toString('hex')}:` },
      partner: { name: `Logging org ${randomBytes(3).toString('hex')}` },
    });
    url = h.api.url;
    partner = h.partner;
  });

  afterAll(async () => {
    await h?.close();
  });

  it('logs a body the api refuses before any route (415) once, at warn, with its request id', async () => {
    const id = requestId('415');
    await request(url)
      .post('/v1/quotes')
      .set('X-Request-Id', id)
      .set('Content-Type', 'text/plain')
      .send('from=btc')
      .expect(415);
    expect(await accessLineOf(id)).toMatchObject({
      level: 40,
      req: { method: 'POST', url: '/v1/quotes' },
      res: { statusCode: 415 },
      responseTime: expect.any(Number) as unknown,
    });
  });

  it('logs an oversized body (413) once, with its request id', async () => {
    const id = requestId('413');
    await request(url)
      .post('/v1/quotes')
      .set('X-Request-Id', id)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ pad: 'x'.repeat(65 * 1024) }))
      .expect(413);
    expect(await accessLineOf(id)).toMatchObject({ level: 40, res: { statusCode: 413 } });
  });

  it('puts the request id and the org id on every line written while serving a partner', async () => {
    const id = requestId('catalogue');
    await request(url)
      .get('/v1/currencies')
      .set('X-Request-Id', id)
      .set('Authorization', partner.authorization)
      .expect(200);
    const access = await accessLineOf(id);
    expect(access).toMatchObject({ level: 30, orgId: partner.organizationId });
    // The adapter names neither: both come from the request's context.
    const upstream = log.of(id).filter((line) => line.context === 'ChangellyAdapter');
    expect(upstream.length).toBeGreaterThan(0);
    for (const line of upstream) {
      expect(line).toMatchObject({ msg: 'upstream call', orgId: partner.organizationId });
    }
  });
});
