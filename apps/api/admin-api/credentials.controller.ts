import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import {
  OrganizationsService,
  toCredentialView,
  toIssuedCredentialView,
  toRevealedCredentialView,
} from '#app/partners';
import { ADMIN_ACTOR } from '../platform/auth/admin-actor.js';
import { AdminApi } from '../platform/auth/admin-api.decorator.js';
import { OrganizationIdPipe, PublicKeyPipe } from './admin-params.js';
import {
  CredentialListResponse,
  CredentialResponse,
  IssuedCredentialResponse,
  RevealedCredentialResponse,
} from './dto/credential.response.js';
import { CreateCredentialDto } from './dto/create-credential.dto.js';
import { ApiErrors, JSON_BODY_ERRORS } from '../platform/contract/api-errors.decorator.js';

/**
 * Issue, list, reveal and revoke partner credentials. Issue takes an optional body
 * (`{"mode":"test"}` for a test credential); reveal and revoke are bodyless POSTs. The answers
 * that carry a secret are `no-store` like every other (`configureHttpApp`).
 */
@ApiTags('admin')
@AdminApi()
@Controller('admin')
export class AdminCredentialsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post('organizations/:id/credentials')
  @ApiOperation({
    summary: 'Issue a credential',
    description:
      'Issues a live credential, or a test one with `{"mode":"test"}` (`pk_test_…:sk_test_…`). The secret is shown in this answer.',
  })
  @ApiErrors(...JSON_BODY_ERRORS, ErrorCode.NotFound)
  @ApiCreatedResponse({
    type: IssuedCredentialResponse,
    description: 'The new credential, with its secret.',
  })
  async issue(
    @Param('id', OrganizationIdPipe) id: string,
    @Body() body: CreateCredentialDto,
  ): Promise<IssuedCredentialResponse> {
    const issued = await this.organizations.issueCredential(id, ADMIN_ACTOR, body.mode);
    return { credential: toIssuedCredentialView(issued) };
  }

  @Get('organizations/:id/credentials')
  @ApiOperation({
    summary: "List an organization's credentials",
    description: 'Live and test credentials, revoked ones included, without secrets.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiOkResponse({ type: CredentialListResponse, description: "The organization's credentials." })
  async list(@Param('id', OrganizationIdPipe) id: string): Promise<CredentialListResponse> {
    const credentials = await this.organizations.listCredentials(id);
    return { credentials: credentials.map(toCredentialView) };
  }

  @Post('credentials/:publicKey/reveal')
  @ApiOperation({
    summary: 'Reveal a secret',
    description:
      'Answers the secret of a credential again; audited. A revoked or expired credential ' +
      'answers 409 `conflict`: its secret is never shown again.',
  })
  @ApiErrors(ErrorCode.NotFound, ErrorCode.Conflict)
  @HttpCode(200)
  @ApiOkResponse({
    type: RevealedCredentialResponse,
    description: 'The credential with its secret.',
  })
  async reveal(
    @Param('publicKey', PublicKeyPipe) publicKey: string,
  ): Promise<RevealedCredentialResponse> {
    const revealed = await this.organizations.revealCredential(publicKey, ADMIN_ACTOR);
    return { credential: toRevealedCredentialView(revealed) };
  }

  @Post('credentials/:publicKey/revoke')
  @ApiOperation({
    summary: 'Revoke a credential',
    description: 'The credential stops authenticating at once; audited.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @HttpCode(200)
  @ApiOkResponse({ type: CredentialResponse, description: 'The revoked credential.' })
  async revoke(@Param('publicKey', PublicKeyPipe) publicKey: string): Promise<CredentialResponse> {
    const credential = await this.organizations.revokeCredential(publicKey, ADMIN_ACTOR);
    return { credential: toCredentialView(credential) };
  }
}
