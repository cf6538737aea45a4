import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, ErrorCode } from '#app/errors';

export const BODY_LIMIT_BYTES = 64 * 1024;

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Writes with a body must be JSON (docs/decisions.md, "JSON content type"). A bodyless POST outside
 * `/v1` (admin actions such as revoke) needs no content type; every partner write carries a body
 * and so must declare it.
 */
export function requireJsonContentType(req: Request, _res: Response, next: NextFunction): void {
  if (isFormPath(req.path)) {
    next();
    return;
  }
  const needsJson =
    METHODS_WITH_BODY.has(req.method) && (hasBody(req) || req.path.startsWith('/v1/'));
  if (needsJson && !req.is('application/json')) {
    next(
      new AppError(ErrorCode.UnsupportedMediaType, 'Content-Type must be application/json.', {
        param: 'Content-Type',
      }),
    );
    return;
  }
  next();
}

/**
 * The partner dashboard's pages post HTML forms (`application/x-www-form-urlencoded`), so they
 * work without script; anything else they are sent is left unparsed and fails their checks.
 */
export function isFormPath(path: string): boolean {
  return path === '/partner' || path.startsWith('/partner/');
}

/** Far above any body the API takes (the deepest, a legacy swap import, nests 3 levels). */
export const MAX_BODY_DEPTH = 32;

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) {
    return true;
  }
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Iterative, so the check itself cannot overflow the stack it protects. */
export function nestingExceeds(body: unknown, maxDepth: number): boolean {
  const pending: [unknown, number][] = [[body, 0]];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const [value, depth] = item;
    if (!isContainer(value)) {
      continue;
    }
    if (depth >= maxDepth) {
      return true;
    }
    for (const child of Object.values(value)) {
      pending.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Strict JSON (objects and arrays only), 64 KiB at most, nested at most `MAX_BODY_DEPTH` deep:
 * 64 KiB of `[` parses fine but overflows the stack of the recursive DTO transformation (a 500).
 */
export function jsonBodyParser(): RequestHandler {
  const parse = express.json({ limit: BODY_LIMIT_BYTES, strict: true, type: 'application/json' });
  const parseForm = express.urlencoded({
    limit: BODY_LIMIT_BYTES,
    extended: false,
    parameterLimit: 100,
    type: 'application/x-www-form-urlencoded',
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (isFormPath(req.path)) {
      parseForm(req, res, next);
      return;
    }
    parse(req, res, (error?: unknown) => {
      if (error !== undefined) {
        next(error);
        return;
      }
      next(
        nestingExceeds(req.body, MAX_BODY_DEPTH)
          ? new AppError(ErrorCode.InvalidJson, 'The request body is nested too deeply.')
          : undefined,
      );
    });
  };
}
