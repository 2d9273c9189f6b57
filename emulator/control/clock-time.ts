/** The times the clock can be frozen at: ISO 8601 with `Z` or an offset. The control plane and the CLI check with this one schema. */
import { z } from 'zod';

export const ClockTime = z.iso.datetime({ offset: true });
