import { modeUsableIn, type OrganizationStatus } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';

const REFUSALS = {
  pending_review: () =>
    new AppError(ErrorCode.OrgPendingReview, 'Your organization is under review.'),
  suspended: () => new AppError(ErrorCode.OrgSuspended, 'Your organization is suspended.'),
  rejected: () =>
    new AppError(ErrorCode.OrgRejected, 'Your organization application was not approved.'),
} as const;

/**
 * Throws the spec's 403 for an organization whose status does not allow credentials of this
 * mode (spec, Authentication 5): live ones need an active organization, test ones also work
 * while it is under review.
 */
export function assertModeUsable(status: OrganizationStatus, livemode: boolean): void {
  if (status !== 'active' && !modeUsableIn(status, livemode)) {
    throw REFUSALS[status]();
  }
}
