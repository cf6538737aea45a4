import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, ErrorCode, toEnvelope } from '#app/errors';

const PARSER_ERRORS: Record<string, () => AppError> = {
  HPE_HEADER_OVERFLOW: () =>
    new AppError(ErrorCode.HeadersTooLarge, 'The request headers are too large.'),
  ERR_HTTP_REQUEST_TIMEOUT: () =>
    new AppError(ErrorCode.RequestTimeout, 'The request was not received in time.'),
};

function appErrorFor(code: string | undefined): AppError {
  const known = code === undefined ? undefined : PARSER_ERRORS[code];
  return known ? known() : new AppError(ErrorCode.InvalidRequest, 'The request is not valid HTTP.');
}

/**
 * Requests Node's HTTP parser rejects never reach the app (oversized headers, a body shorter than
 * its Content-Length, malformed request lines); they too get the envelope and a request id.
 */
export function answerClientErrorsWithEnvelope(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const appError = appErrorFor(error.code);
    const body = JSON.stringify(toEnvelope(appError));
    socket.end(
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status] ?? 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        'Cache-Control: no-store\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
