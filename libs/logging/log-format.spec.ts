import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { ConfigError } from '#app/config';
import { createRootLogger } from './logger.factory.js';
import { prettyStream, resolveLogFormat } from './log-format.js';
import { requestContext } from './request-context.js';

class Captured extends Writable {
  text = '';

  override _write(chunk: Buffer | string, _encoding: string, done: () => void): void {
    this.text += stripVTControlCharacters(chunk.toString());
    done();
  }
}

async function prettyLines(write: (logger: ReturnType<typeof createRootLogger>) => void) {
  const output = new Captured();
  write(createRootLogger('info', prettyStream(output)));
  // The pretty stream is a transform piped into `output`: let it drain.
  await new Promise((resolve) => setImmediate(resolve));
  return output.text.trimEnd().split('\n');
}

describe(resolveLogFormat.name, () => {
  it('uses LOG_FORMAT when it is set', () => {
    expect(resolveLogFormat({ LOG_FORMAT: 'json' }, 'pretty')).toBe('json');
    expect(resolveLogFormat({ LOG_FORMAT: ' pretty ' }, 'json')).toBe('pretty');
  });

  it("falls back to the process's default when LOG_FORMAT is unset or blank", () => {
    expect(resolveLogFormat({}, 'pretty')).toBe('pretty');
    expect(resolveLogFormat({ LOG_FORMAT: '' }, 'json')).toBe('json');
  });

  it('rejects any other value, naming the variable', () => {
    expect(() => resolveLogFormat({ LOG_FORMAT: 'text' }, 'json')).toThrow(ConfigError);
    expect(() => resolveLogFormat({ LOG_FORMAT: 'text' }, 'json')).toThrow(/LOG_FORMAT/);
  });
});

describe(prettyStream.name, () => {
  it('writes one readable line per entry: level, [context] message, then the fields', async () => {
    const lines = await prettyLines((logger) =>
      requestContext.run({ requestId: 'req-1', orgId: 'org-1' }, () =>
        logger.info({ context: 'QuotesService', rateId: 'r1' }, 'fixed rate issued'),
      ),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[QuotesService\] fixed rate issued \{.*\}$/,
    );
    expect(JSON.parse(lines[0].slice(lines[0].indexOf('{')))).toEqual({
      requestId: 'req-1',
      orgId: 'org-1',
      rateId: 'r1',
    });
  });

  it('writes an access line as method, url, status and latency with its request id', async () => {
    const lines = await prettyLines((logger) =>
      logger.warn(
        {
          req: { method: 'POST', url: '/v1/swaps' },
          res: { statusCode: 415 },
          responseTime: 4,
          requestId: 'req-2',
        },
        'request completed',
      ),
    );
    expect(lines).toEqual([
      expect.stringMatching(/ WARN: POST \/v1\/swaps 415 4ms \{"requestId":"req-2"\}$/),
    ]);
  });

  it('redacts secrets exactly as the JSON output does', async () => {
    const lines = await prettyLines((logger) =>
      logger.info({ credential: { secret: 'sk_live_abc' } }, 'credential issued'),
    );
    expect(lines[0]).toContain('"secret":"[redacted]"');
    expect(lines[0]).not.toContain('sk_live_abc');
  });
});
