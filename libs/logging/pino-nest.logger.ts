import { LoggerService } from '@nestjs/common';
import type { Logger as Pino } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

const STACK_FRAME = /\n\s+at /;

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

  private write(level: Level, message: unknown, params: unknown[]): void {
    // Nest passes `(message, stack?, context?)` to `error`; a stack is recognised by its frames.
    const stack = params.find((p): p is string => typeof p === 'string' && STACK_FRAME.test(p));
    const rest = params.filter((p) => p !== stack);
    const context =
      rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
    const text = rest.find((p): p is string => typeof p === 'string');
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
