// Plain ESM, run by the global setup before anything loads `dist/`: process tests spawn
// `dist/apps/*/main.js`, the setup migrates with `dist/libs/persistence` and the api serves the
// browser's files from `dist/web`, so a run started with `npx jest …` right after an edit must not
// test the previous build.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = new URL('..', import.meta.url).pathname;
const SOURCES = ['apps', 'libs', 'bench', 'web'];
/** What a source is: TypeScript, and the browser's stylesheets, frozen scripts and images. */
const SOURCE_FILE = /\.(?:tsx?|css|js|svg)$/;
const CONFIG_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json'];
/** Written after every build this file makes: the build is as new as this or the tsc build info. */
const STAMP = join(ROOT, 'dist', '.built-at');
const BUILD_INFO = join(ROOT, 'dist', '.tsbuildinfo');
/** Held while one run builds, so two runs started together never write `dist/` at once. */
const LOCK = join(ROOT, 'dist', '.build.lock');
const LOCK_STALE_MS = 10 * 60_000;
/** Written last by `web/build.js`: a build without it (a bare `tsc`) lacks the browser's files. */
const WEB_MANIFEST = join(ROOT, 'dist', 'web', 'manifest.json');

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      newest = Math.max(newest, newestSource(path));
    } else if (SOURCE_FILE.test(entry.name)) {
      newest = Math.max(newest, mtime(path));
    }
  }
  return newest;
}

function isStale() {
  const built = Math.max(mtime(STAMP), mtime(BUILD_INFO));
  const sources = Math.max(
    ...SOURCES.map((dir) => newestSource(join(ROOT, dir))),
    ...CONFIG_FILES.map((file) => mtime(join(ROOT, file))),
  );
  return built === 0 || sources > built || mtime(WEB_MANIFEST) === 0;
}

async function takeLock() {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') {
        throw error;
      }
      if (Date.now() - mtime(LOCK) > LOCK_STALE_MS) {
        rmSync(LOCK, { recursive: true, force: true });
      } else {
        await sleep(500);
      }
    }
  }
}

/**
 * Builds as `npm run build` does (the project's own `tsc`, then `web/build.js`) when a source or
 * config file is newer than the build.
 */
export async function buildIfStale() {
  if (!isStale()) {
    return;
  }
  await takeLock();
  try {
    // Another run may have built while this one waited for the lock.
    if (isStale()) {
      const started = Date.now();
      process.stdout.write(
        'dist/ is older than the sources: building (tsc -p tsconfig.build.json, node web/build.js)\n',
      );
      execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], {
        cwd: ROOT,
        stdio: 'inherit',
      });
      execFileSync(process.execPath, [join(ROOT, 'web', 'build.js')], {
        cwd: ROOT,
        stdio: 'inherit',
      });
      writeFileSync(STAMP, `${new Date(started).toISOString()}\n`);
    }
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
