import { Logger } from '@nestjs/common';
import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import { prettyStream, type LogFormat } from './log-format.js';
import { PinoNestLogger } from './pino-nest.logger.js';
import { requestContext } from './request-context.js';

/** Header and field names whose values never reach a log line. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-api-signature"]',
  'res.headers["set-cookie"]',
  '*.secret',
  '*.authorization',
  '*.privateKey',
];

/** Every line written inside a request carries its request id and org id; secrets are redacted. */
export function createRootLogger(level: string, destination: DestinationStream): Pino {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin() {
        const context = requestContext.getStore();
        return context ? { requestId: context.requestId, orgId: context.orgId } : {};
      },
    },
    destination,
  );
}

/**
 * Where a process's log lines go: JSON (to `output`, stdout by default) or readable lines for a
 * person at a terminal.
 */
export function logDestination(
  format: LogFormat,
  output?: NodeJS.WritableStream,
): DestinationStream {
  if (format === 'pretty') {
    return prettyStream(output ?? 1);
  }
  return output ?? pino.destination({ sync: false });
}

/** Creates the process logger and routes every Nest `Logger` (even before an app exists) to it. */
export function initProcessLogging(level: string, format: LogFormat): Pino {
  const logger = createRootLogger(level, logDestination(format));
  Logger.overrideLogger(new PinoNestLogger(logger));
  return logger;
}
