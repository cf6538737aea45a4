import { ApiProperty } from '@nestjs/swagger';
import { DASHBOARD_ROLES, type DashboardRole } from '#app/accounts';

export class DashboardUserView {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  organizationId: string;

  @ApiProperty({ format: 'email' })
  email: string;

  @ApiProperty({ enum: DASHBOARD_ROLES })
  role: DashboardRole;

  @ApiProperty({ description: 'A disabled user cannot sign in; their sessions ended.' })
  disabled: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  disabledAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class DashboardUserListResponse {
  @ApiProperty({ type: [DashboardUserView] })
  users: DashboardUserView[];
}

export class DashboardUserResponse {
  @ApiProperty({ type: DashboardUserView })
  user: DashboardUserView;
}

export class InvitationView {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'email' })
  email: string;

  @ApiProperty({ enum: DASHBOARD_ROLES })
  role: DashboardRole;

  @ApiProperty({
    format: 'uri',
    description: 'Opens the page that sets the password; single use, valid 7 days. Also mailed.',
  })
  url: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
}

export class InvitationResponse {
  @ApiProperty({ type: InvitationView })
  invitation: InvitationView;
}
