#!/usr/bin/env node
/** Placeholder until `harness verify` lands (issue 6): says so and exits 2, "could not run". */
process.stderr.write('[harness] not built yet: `harness verify` arrives with the harness issue. Until then, use `npx emulator start` and the README.\n');
process.exit(2);
