import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

/** How a path answers: a status per request in turn (the last repeats), or `hang` (never). */
export type Answer = number | 'hang';

/**
 * A local webhook receiver on 127.0.0.1: records every request and answers each path as told
 * (200 unless `answer` says otherwise).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly answers = new Map<string, Answer[]>();
  private server: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({
          path,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
          receivedAt: Date.now(),
        });
        const queue = this.answers.get(path) ?? [200];
        const answer = queue.length > 1 ? queue.shift()! : queue[0];
        if (answer !== 'hang') {
          res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
        }
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** `answers` in turn for `path`, the last one from then on. */
  answer(path: string, ...answers: Answer[]): void {
    this.answers.set(path, answers);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
