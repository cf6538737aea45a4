import type { SignedIn } from '#app/accounts';
import { modeUsableIn } from '#app/domain';

/**
 * Why no new `what` ("keys", "widget keys") of the session's mode can be made now, or undefined
 * when they can: live ones need an active organization, test ones also work under review.
 */
export function issuingBlockedReason(me: SignedIn, what: string): string | undefined {
  const { status } = me.organization;
  if (modeUsableIn(status, me.session.mode === 'live')) {
    return undefined;
  }
  return status === 'pending_review'
    ? `Live ${what} can be created once your organization is approved. Switch on "Test mode" to create test ${what} meanwhile.`
    : `Your organization is ${status.replace('_', ' ')}: no new ${what} can be created.`;
}
