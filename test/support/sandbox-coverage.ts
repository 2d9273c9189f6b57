/** The six sandbox calls before an approval: the Playwright fixtures' own, shared with the tests. */
export { type ExperiencePost, coverSandbox, fetchPost } from '../../playwright/sandbox.js';
