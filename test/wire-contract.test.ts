/**
 * The control plane's wire contract (emulator/wire-contract.ts) against what the emulator
 * answers and accepts: the harness reads only the contract's types, so a field renamed on either
 * side must fail here. These are type assertions: `npm run typecheck` (tsc over test/) is what
 * fails on a drift; the run below only records that they were compiled.
 */
import { expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { Checklist as ConsoleChecklist } from '../emulator/use-cases/console/checklist.js';
import type { promotionSummaries } from '../emulator/use-cases/console/reads.js';
import type { Checklist, Env, FaultSpec, Pack, PackKind, Promotion, SandboxScenario, Terms } from '../emulator/wire-contract.js';
import type { EnvValues } from '../emulator/use-cases/control/env-values.js';
import type { FaultBody } from '../emulator/control/fault-rows.js';
import type { Terms as FixtureTerms } from '../emulator/fixture.js';
import type { ExpectedOutcome } from '../emulator/domain/draw.js';
import type { Scenario } from '../emulator/use-cases/sandbox.js';
import type { KnownPack } from '../emulator/store/known-packs.js';

it('every contract type is what the emulator answers (env, promotions, packs, terms, checklist) or accepts (faults); secrets are checked where they are answered', () => {
  expectTypeOf<EnvValues>().toExtend<Env>();
  expectTypeOf<ReturnType<typeof promotionSummaries>[number]>().toExtend<Promotion>();
  expectTypeOf<KnownPack>().toExtend<Pack>();
  expectTypeOf<ExpectedOutcome>().toExtend<PackKind>();
  expectTypeOf<FixtureTerms>().toEqualTypeOf<Terms>();
  expectTypeOf<ConsoleChecklist>().toExtend<Checklist>();
  expectTypeOf<FaultSpec>().toExtend<z.input<typeof FaultBody>['next']>();
  expectTypeOf<Scenario>().toEqualTypeOf<SandboxScenario>();
});
