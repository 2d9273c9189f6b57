/**
 * The reference agency's defect matrix (defects.test.ts): each defect on the build it needs
 * (`build`), and defects of every build on a shape too.
 */
import { DEFECTS, type DefectName, type Shape } from '../../fixtures/agency-reference/defects.js';

/**
 * Defects of every build run on a shape too (issue 47): the consent form's age box left out where a
 * page before it asks the date of birth; a page polling the API's origin for ever from the pages'.
 * Each named `shape:defect`.
 */
const ON_SHAPES = [
  { shape: 'agePage', defect: 'age-not-asked' },
  { shape: 'twoOrigins', defect: 'page-polls-forever' },
] as const satisfies ReadonlyArray<{ shape: keyof Shape; defect: DefectName }>;

export const REFERENCE_CASES = [
  ...DEFECTS.map((defect) => ({ name: defect.name, check: defect.check, options: { defects: [defect.name], ...('build' in defect ? { agency: defect.build } : {}) } })),
  ...ON_SHAPES.map(({ shape, defect }) => ({ name: `${shape}:${defect}`, check: DEFECTS.find((candidate) => candidate.name === defect)!.check, options: { defects: [defect], agency: { [shape]: true } } })),
];

