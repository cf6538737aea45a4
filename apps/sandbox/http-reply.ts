/** An HTTP answer of one of the providers' APIs, written as it is. */
export interface HttpReply {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

export function jsonReply(
  status: number,
  payload: unknown,
  headers?: Record<string, string>,
): HttpReply {
  return {
    status,
    contentType: 'application/json',
    body: JSON.stringify(payload),
    ...(headers ? { headers } : {}),
  };
}

/** The `non_json` fault: a proxy's error page where JSON was due. */
export const NON_JSON_REPLY: HttpReply = {
  status: 200,
  contentType: 'text/html',
  body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
};

/** The `http_500` fault. */
export const HTTP_500_REPLY: HttpReply = {
  status: 500,
  contentType: 'text/plain',
  body: 'Internal Server Error',
};

/**
 * Answers the `timeout` fault holds back: the call took effect, only its answer is late, as with
 * a real upstream timeout. Released at once on shutdown, so a held answer never keeps the server
 * open.
 */
export class HeldAnswers {
  private readonly held = new Set<{ timer: NodeJS.Timeout; release: () => void }>();

  hold(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.held.delete(entry);
          resolve();
        }, ms),
        release: resolve,
      };
      entry.timer.unref();
      this.held.add(entry);
    });
  }

  releaseAll(): void {
    for (const entry of this.held) {
      clearTimeout(entry.timer);
      entry.release();
    }
    this.held.clear();
  }
}
