import pretty from 'pino-pretty';
import { ConfigError } from '#app/config';

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * `LOG_FORMAT` when set; otherwise the process's own default: JSON for services, readable lines
 * for a person who ran `npm start` at a terminal.
 */
export function resolveLogFormat(
  env: Readonly<Record<string, string | undefined>>,
  fallback: LogFormat,
): LogFormat {
  const raw = env.LOG_FORMAT?.trim() || fallback;
  if (!(LOG_FORMATS as readonly string[]).includes(raw)) {
    throw new ConfigError('LOG_FORMAT', `must be one of ${LOG_FORMATS.join(', ')}`);
  }
  return raw as LogFormat;
}

interface AccessLine {
  req: { method: string; url: string };
  res: { statusCode: number };
  responseTime: number;
}

function isAccessLine(log: Record<string, unknown>): log is Record<string, unknown> & AccessLine {
  return typeof log.req === 'object' && typeof log.res === 'object' && 'responseTime' in log;
}

/** An access line reads `GET /v1/swaps 201 12ms`; any other line `[Context] message`. */
export function describeLogLine(log: Record<string, unknown>, messageKey: string): string {
  if (isAccessLine(log)) {
    return `${log.req.method} ${log.req.url} ${log.res.statusCode} ${log.responseTime}ms`;
  }
  const message = typeof log[messageKey] === 'string' ? log[messageKey] : '';
  return typeof log.context === 'string' ? `[${log.context}] ${message}` : message;
}

/**
 * One readable line per entry: time, level, message, then the remaining fields (request id, org id,
 * swap id…) as compact JSON. pino has redacted the entry before it reaches this stream.
 */
export function prettyStream(destination: number | NodeJS.WritableStream): pretty.PrettyStream {
  return pretty({
    destination,
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res,responseTime',
    messageFormat: describeLogLine,
  });
}
