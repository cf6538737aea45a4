import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { CREDENTIAL_MODES, type CredentialMode } from '#app/domain';
import { Field } from '#app/input';

/**
 * `POST /admin/organizations/{id}/widget_keys`. The fields' rules are the widget keys service's,
 * the one place the admin API, the CLI and the dashboard's form share; each is required, so null
 * reaches that service and is refused there.
 */
export class CreateWidgetKeyDto {
  @ApiProperty({
    type: String,
    enum: CREDENTIAL_MODES,
    description: '`live` needs an active organization.',
  })
  @Field({}, Allow())
  mode: unknown;

  @ApiProperty({ type: String, maxLength: 100, example: 'Shop checkout' })
  @Field({}, Allow())
  name: unknown;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: 20,
    example: ['https://shop.example'],
    description:
      'Exact origins (`scheme://host[:port]`, http or https) allowed to embed the widget.',
  })
  @Field({}, Allow())
  allowedOrigins: unknown;
}

export class CreatedWidgetKeyView {
  @ApiProperty({ example: 'wk_test_0123456789abcdef0123456789abcdef' })
  key: string;

  @ApiProperty({ enum: CREDENTIAL_MODES })
  mode: CredentialMode;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: [String] })
  allowedOrigins: string[];

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class CreatedWidgetKeyResponse {
  @ApiProperty({ type: CreatedWidgetKeyView })
  widgetKey: CreatedWidgetKeyView;
}

export class WidgetKeyView {
  @ApiProperty({ example: 'wk_test_0123456789abcdef0123456789abcdef' })
  key: string;

  @ApiProperty({ enum: CREDENTIAL_MODES })
  mode: CredentialMode;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: [String] })
  allowedOrigins: string[];

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revokedAt: string | null;
}

export class WidgetKeyResponse {
  @ApiProperty({ type: WidgetKeyView })
  widgetKey: WidgetKeyView;
}

export class WidgetKeyListResponse {
  @ApiProperty({ type: [WidgetKeyView] })
  widgetKeys: WidgetKeyView[];
}
