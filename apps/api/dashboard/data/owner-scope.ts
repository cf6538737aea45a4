import type { SignedIn } from '#app/accounts';
import type { OwnerScope } from '#app/domain';

/**
 * Whose data a signed-in page reads: the user's organization in the session's mode (the "Test
 * mode" switch). A session without a known mode reads nothing.
 */
export function ownerScopeOf(signedIn: SignedIn): OwnerScope {
  const { mode } = signedIn.session;
  if (mode !== 'live' && mode !== 'test') {
    throw new Error('a dashboard session without a mode');
  }
  return { organizationId: signedIn.organization.id, livemode: mode === 'live' };
}
