import { ApiProperty } from '@nestjs/swagger';
import { CREDENTIAL_MODES, type CredentialMode } from '#app/domain';

const MODE = {
  enum: CREDENTIAL_MODES,
  description: '`live` moves real funds; `test` works against the sandbox provider only.',
};

export class IssuedCredentialView {
  @ApiProperty({ example: 'pk_live_0123456789abcdef0123456789abcdef' })
  publicKey: string;

  @ApiProperty({ description: 'Shown here and by reveal only.' })
  secret: string;

  @ApiProperty(MODE)
  mode: CredentialMode;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class IssuedCredentialResponse {
  @ApiProperty({ type: IssuedCredentialView })
  credential: IssuedCredentialView;
}

export class CredentialView {
  @ApiProperty()
  publicKey: string;

  @ApiProperty(MODE)
  mode: CredentialMode;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revokedAt: string | null;
}

export class CredentialResponse {
  @ApiProperty({ type: CredentialView })
  credential: CredentialView;
}

export class CredentialListResponse {
  @ApiProperty({ type: [CredentialView] })
  credentials: CredentialView[];
}

export class RevealedCredentialView {
  @ApiProperty()
  publicKey: string;

  @ApiProperty()
  secret: string;
}

export class RevealedCredentialResponse {
  @ApiProperty({ type: RevealedCredentialView })
  credential: RevealedCredentialView;
}
