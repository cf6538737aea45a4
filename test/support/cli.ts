import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { runAdminCommand } from '../../apps/cli/cli.run.js';
import { testApiEnv } from './api.js';

const run = promisify(execFile);

/**
 * The longest one CLI command may take: a process start, migrations and Nest's boot, which take
 * seconds on a quiet machine and many times that on a loaded one. A test's bound is this times the
 * commands it runs, not a guess.
 */
export const CLI_RUN_MS = 45_000;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (`npm run admin`) with exactly `env` (plus PATH); never throws. */
export async function runCli(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/apps/cli/main.js', ...args], {
      env: { ...env, PATH: process.env.PATH },
      timeout: CLI_RUN_MS,
    });
    return { code: 0, stdout, stderr };
  } catch (error: unknown) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Runs the built CLI against the per-run test database. */
export function admin(...args: string[]): Promise<CliResult> {
  return runCli(args, testApiEnv());
}

/** A stream that keeps what is written to it, as text. */
class Collected extends Writable {
  text = '';

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += String(chunk);
    done();
  }
}

/**
 * Runs an admin command in this process, through the CLI's own entry function, against the
 * per-run test database: what `admin` answers, without starting Node for each command.
 */
export async function adminInProcess(...args: string[]): Promise<CliResult> {
  const stdout = new Collected();
  const stderr = new Collected();
  const code = await runAdminCommand(args, testApiEnv(), { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
