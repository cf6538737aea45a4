import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
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

/** Writes the envelope of `appError` straight to the socket and closes it. */
function endWithEnvelope(socket: Duplex, appError: AppError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
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
}

/**
 * Requests Node's HTTP parser rejects never reach the app (oversized headers, a body shorter than
 * its Content-Length, malformed request lines); they too get the envelope and a request id. So
 * does `CONNECT`, which Node hands to a `connect` listener instead of the app and, with none,
 * answers by dropping the connection: this server is no proxy.
 */
export function answerClientErrorsWithEnvelope(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    endWithEnvelope(socket, appErrorFor(error.code));
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    endWithEnvelope(
      socket,
      new AppError(ErrorCode.MethodNotAllowed, 'CONNECT is not supported: this is no proxy.'),
    );
  });
}
