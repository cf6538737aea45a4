import { Logger } from '@nestjs/common';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';

const logger = new Logger('CsvDownload');

/**
 * Sends CSV chunks as a download. The first chunk is read before anything is written, so a
 * refusal (too many exports running) still answers as an error page; after that the chunks
 * stream with backpressure, and a closed download stops the reading (its cursor is released).
 */
export async function sendCsv(
  res: Response,
  filename: string,
  chunks: AsyncGenerator<string, void, undefined>,
): Promise<void> {
  const first = await chunks.next();
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  async function* all(): AsyncGenerator<string, void, undefined> {
    if (!first.done) {
      yield first.value;
    }
    yield* chunks;
  }
  try {
    await pipeline(Readable.from(all()), res);
  } catch (error: unknown) {
    // The client went away, or a read failed mid-file: the response is cut short either way.
    logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'CSV download ended early',
    );
  }
}

/** `swaps-live-2026-11-25.csv` */
export function csvFilename(what: string, livemode: boolean, now = new Date()): string {
  return `${what}-${livemode ? 'live' : 'test'}-${now.toISOString().slice(0, 10)}.csv`;
}
