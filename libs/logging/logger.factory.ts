import { Logger } from '@nestjs/common';
import { pino, Logger as Pino } from 'pino';
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

/** JSON logs; every line written inside a request carries its request id and org id. */
export function createRootLogger(level: string, destination?: NodeJS.WritableStream): Pino {
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
    destination ?? pino.destination({ sync: false }),
  );
}

/** Creates the process logger and routes every Nest `Logger` (even before an app exists) to it. */
export function initProcessLogging(level: string): Pino {
  const logger = createRootLogger(level);
  Logger.overrideLogger(new PinoNestLogger(logger));
  return logger;
}
