import type { Request, Response } from 'express';
import { FLASH_COOKIE, dashboardCookie, readCookie } from './cookies.js';

export type FlashKind = 'success' | 'error' | 'info';

/** A one-time message shown on the next page (after a redirect). */
export interface FlashMessage {
  kind: FlashKind;
  text: string;
}

const KINDS: readonly FlashKind[] = ['success', 'error', 'info'];

/** Leaves a message for the next page this browser shows (a short-lived HttpOnly cookie). */
export function setFlash(req: Request, res: Response, message: FlashMessage): void {
  const value = Buffer.from(JSON.stringify(message), 'utf8').toString('base64url');
  res.cookie(FLASH_COOKIE, value, dashboardCookie(req, { maxAge: 60_000 }));
}

/** The waiting message, if any, and clears it. Text is escaped where it is shown. */
export function takeFlash(req: Request, res: Response): FlashMessage | null {
  const raw = readCookie(req, FLASH_COOKIE);
  if (raw === undefined) {
    return null;
  }
  res.clearCookie(FLASH_COOKIE, dashboardCookie(req));
  try {
    const parsed = JSON.parse(
      Buffer.from(raw, 'base64url').toString('utf8'),
    ) as Partial<FlashMessage>;
    return typeof parsed.text === 'string' &&
      parsed.text.length <= 500 &&
      KINDS.includes(parsed.kind as FlashKind)
      ? { kind: parsed.kind as FlashKind, text: parsed.text }
      : null;
  } catch {
    return null;
  }
}
