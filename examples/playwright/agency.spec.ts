/** What an agency's own tests look like with `promo-emulator/playwright`: here, of the reference agency. */
import { expect, test } from 'promo-emulator/playwright';

/** The reference agency's consent form: tick what the terms ask for, then send. */
async function enter(page: import('@playwright/test').Page): Promise<void> {
  await page.getByLabel('I have read and accept the terms and conditions.').check();
  await page.getByLabel(/I confirm that I am at least \d+ years old\./).check();
  await page.locator('form[data-entry-form]').getByRole('button').click();
}

test('shows the prize', async ({ page, journey }) => {
  await journey.scan({ outcome: 'won' });
  await journey.authorize();
  await enter(page);
  await expect(page.getByRole('heading', { name: 'Congratulations!' })).toBeVisible();
  await expect(page.locator('[data-code]').first()).toBeVisible();
});

test('shows the non-winning result', async ({ page, journey }) => {
  await journey.scan({ outcome: 'lost' });
  await journey.authorize();
  await enter(page);
  await expect(page.getByRole('heading', { name: 'Not a winner this time' })).toBeVisible();
});

test('a pending prize shows once its delivery arrives', async ({ page, journey }) => {
  await journey.scan({ outcome: 'pending' });
  await journey.authorize();
  await enter(page);
  await expect(page.getByText('Its delivery is processing.')).toBeVisible();
  await journey.settleDelivery();
  await expect(page.getByRole('heading', { name: 'Congratulations!' })).toBeVisible();
});

test('a collector outside the campaign countries is told so', async ({ page, journey }) => {
  await journey.scan({ outcome: 'won', country: 'FR' });
  await journey.authorize();
  await page.getByLabel('I have read and accept the terms and conditions.').check();
  await page.locator('form[data-entry-form]').getByRole('button').click();
  await expect(page.getByRole('heading', { name: 'Not available in your location' })).toBeVisible();
});

test('asks to wait as long as Retry-After says when the service answers 429', async ({ page, journey, emulator }) => {
  const pack = await journey.scan({ outcome: 'won' });
  await journey.authorize();
  await emulator.faults.arm({ path: '/session/entry', status: 429, error: 'rate_limited', retry_after: 30, match: { pack: pack.code } });
  await enter(page);
  await expect(page.getByRole('status')).toContainText('Please wait 30 seconds');
});

test('an expired session asks to scan again', async ({ page, journey, emulator }) => {
  await journey.scan({ outcome: 'won' });
  await journey.authorize();
  await emulator.clock.advance('31m');
  await enter(page);
  await expect(page.getByRole('heading', { name: 'Please scan the pack again' })).toBeVisible();
});
