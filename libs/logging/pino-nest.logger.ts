import { LoggerService } from '@nestjs/common';
import type { Logger as Pino } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

const STACK_FRAME = /\n\s+at /;

/**
 * Nest's start-up chatter: a line per module, per controller and per route. Written at `debug`, so
 * `LOG_LEVEL=debug` still shows how routes were mapped while the default level stays readable.
 */
const NEST_STARTUP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * Routes Nest's `Logger` calls to pino. `logger.log({ swapId }, 'created')` writes the object's
 * fields and the message; the trailing context (the class name) becomes `context`.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Pino) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(requested: Level, message: unknown, params: unknown[]): void {
    // Nest passes `(message, stack?, context?)` to `error`; a stack is recognised by its frames.
    const stack = params.find((p): p is string => typeof p === 'string' && STACK_FRAME.test(p));
    const rest = params.filter((p) => p !== stack);
    const context =
      rest.length > 0 && typeof rest[rest.length - 1] === 'string'
        ? (rest.pop() as string)
        : undefined;
    const text = rest.find((p): p is string => typeof p === 'string');
    const level =
      requested === 'info' && context !== undefined && NEST_STARTUP_CONTEXTS.has(context)
        ? 'debug'
        : requested;
    if (message !== null && typeof message === 'object' && !(message instanceof Error)) {
      this.pino[level]({ context, stack, ...(message as Record<string, unknown>) }, text);
    } else if (message instanceof Error) {
      this.pino[level](
        { context, err: { name: message.name, message: message.message, stack: message.stack } },
        text ?? message.message,
      );
    } else {
      this.pino[level]({ context, stack }, String(message));
    }
  }
}
