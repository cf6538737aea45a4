import { Writable } from 'node:stream';
import { pino } from 'pino';
import { PinoNestLogger } from './pino-nest.logger.js';

function capture(): { lines: Record<string, unknown>[]; sut: PinoNestLogger } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, sut: new PinoNestLogger(pino({ level: 'trace' }, stream)) };
}

describe(PinoNestLogger.name, () => {
  it('writes an object message as fields with the text and the context', () => {
    const { lines, sut } = capture();
    sut.log({ swapId: 'abc' }, 'swap created', 'SwapsService');
    expect(lines[0]).toMatchObject({
      swapId: 'abc',
      msg: 'swap created',
      context: 'SwapsService',
      level: 30,
    });
  });

  it('keeps a stack apart from the context', () => {
    const { lines, sut } = capture();
    sut.error('query failed', 'Error: boom\n    at x (y.js:1:1)', 'TypeOrmModule');
    expect(lines[0]).toMatchObject({ msg: 'query failed', context: 'TypeOrmModule', level: 50 });
    expect(lines[0].stack).toContain('at x');
  });
});
