import type { ValueTransformer } from 'typeorm';

/**
 * `bigint` columns whose values stay far below 2^53 (time steps, signature counters): pg returns
 * them as strings, the entity holds numbers.
 */
export const BIGINT_AS_NUMBER: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
