import { ConfigError } from '#app/config';
import { AppError } from '#app/errors';
import { CliUsageError } from './cli-args.js';

/**
 * One stderr line per failure. Expected failures say what to fix; anything else gives only its
 * message, since a database error's detail may quote the data it was given.
 */
export function describeCliError(error: unknown): string {
  if (error instanceof AppError) {
    return `${error.code}: ${error.message}${error.param ? ` (param ${error.param})` : ''}`;
  }
  if (error instanceof ConfigError || error instanceof CliUsageError) {
    return error.message;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `admin command failed: ${message.split('\n')[0]}`;
}
