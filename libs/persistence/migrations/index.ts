import { InitialSchema1763700000000 } from './1763700000000-initial-schema.js';

/** Every migration, in order. A new migration is added here (see README, "Adding a migration"). */
export const MIGRATIONS = [InitialSchema1763700000000];
