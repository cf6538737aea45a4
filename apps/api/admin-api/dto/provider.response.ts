import { ApiProperty } from '@nestjs/swagger';
import { PROVIDER_NAMES, type ProviderName } from '#app/domain';
import type { ProviderView } from '#app/provider-control';
import type { CircuitState } from '#app/routing';

const CIRCUIT_STATES: CircuitState[] = ['closed', 'open', 'half_open'];

/** One provider of `PROVIDERS`, live mode, its counts over the last 24 h across every replica. */
export class ProviderResource implements ProviderView {
  @ApiProperty({ enum: PROVIDER_NAMES, description: 'The provider, as `PROVIDERS` names it.' })
  id: ProviderName;

  @ApiProperty({
    description: 'In routing: new quotes and swaps may go to it. Its swaps are polled either way.',
  })
  enabled: boolean;

  @ApiProperty({
    enum: CIRCUIT_STATES,
    description:
      '`open` after five failed calls in a row: skipped while another provider is healthy; ' +
      '`half_open` once 15 s have passed: the next call probes it.',
  })
  circuit: CircuitState;

  @ApiProperty({ type: 'integer', description: 'Quote calls it was asked.' })
  quotes24h: number;

  @ApiProperty({ type: 'integer', description: 'Quotes it won (the best one on offer).' })
  wins24h: number;

  @ApiProperty({
    type: 'integer',
    description: 'Quote and create calls that failed (a refused amount or pair is no error).',
  })
  errors24h: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 200,
    description:
      'Median latency of its quote and create calls, as the upper bound of the bucket holding it ' +
      '(25, 50, 100, 200, 400, 800, 1600, 3200, 6400 ms; 12800 beyond); null with no call.',
  })
  p50LatencyMs: number | null;

  @ApiProperty({ type: 'integer', description: 'Swaps created at it.' })
  swaps24h: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '0.99850000',
    description:
      'Median, over its float swaps finished in the last 24 h, of the rate delivered over the ' +
      'rate quoted, `(amountActualTo / amountActualFrom) / (expected amountTo / amountFrom)`; ' +
      'null when none finished.',
  })
  fidelity24h: string | null;
}

export class ProviderResponse {
  @ApiProperty({ type: ProviderResource })
  provider: ProviderResource;
}

export class ProviderListResponse {
  @ApiProperty({ type: [ProviderResource], description: 'In `PROVIDERS` order.' })
  providers: ProviderResource[];
}
