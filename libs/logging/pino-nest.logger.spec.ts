import { Writable } from 'node:stream';
import { pino } from 'pino';
import { PinoNestLogger } from './pino-nest.logger.js';

function capture(level = 'trace'): { lines: Record<string, unknown>[]; sut: PinoNestLogger } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, sut: new PinoNestLogger(pino({ level }, stream)) };
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

  it("hides Nest's start-up chatter at the default level and shows it at debug", () => {
    const atInfo = capture('info');
    atInfo.sut.log('Mapped {/v1/swaps, POST} route', 'RouterExplorer');
    atInfo.sut.log('ApiModule dependencies initialized', 'InstanceLoader');
    atInfo.sut.log('quote issued', 'QuotesService');
    expect(atInfo.lines.map((line) => line.msg)).toEqual(['quote issued']);

    const atDebug = capture('debug');
    atDebug.sut.log('Mapped {/v1/swaps, POST} route', 'RouterExplorer');
    expect(atDebug.lines[0]).toMatchObject({ context: 'RouterExplorer', level: 20 });
  });

  it('keeps warnings and errors from Nest itself at their level', () => {
    const { lines, sut } = capture('info');
    sut.warn('a data source with the default name is already registered', 'InstanceLoader');
    sut.error('Nest could not start', 'NestApplication');
    expect(lines.map((line) => line.level)).toEqual([40, 50]);
  });
});
