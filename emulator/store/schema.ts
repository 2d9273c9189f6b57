/**
 * Migrations, applied in order; `PRAGMA user_version` records how many ran. Each area of the
 * emulator keeps its tables in its own module.
 */
import { AUDIENCE_SCHEMA } from './schema-audience.js';
import { BOUNDS_SCHEMA, CORE_SCHEMA, INTERACTION_ERROR_SCHEMA } from './schema-core.js';
import { JOURNEY_SCHEMA } from './schema-journey.js';
import { REPORTING_SCHEMA, SINK_ANSWER_SCHEMA, SINK_HEADERS_SCHEMA } from './schema-reporting.js';
import { WORLD_SCHEMA } from './schema-world.js';

export const MIGRATIONS: string[] = [CORE_SCHEMA, JOURNEY_SCHEMA, REPORTING_SCHEMA, WORLD_SCHEMA, SINK_HEADERS_SCHEMA, AUDIENCE_SCHEMA, INTERACTION_ERROR_SCHEMA, BOUNDS_SCHEMA, SINK_ANSWER_SCHEMA];
