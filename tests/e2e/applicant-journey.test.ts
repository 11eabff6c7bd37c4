import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAccount, expectPage, logInThroughApi, uniqueEmail } from '../support/applicant';
import { useBrowserSuite } from '../support/suite';
import type { RunningServer } from '../support/server';

// Issue 17, second pass: what a new applicant still tripped on when using the running build on a
// 375 px phone and a 1280 px desktop.

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 740 },
] as const;

let server: RunningServer;
let page: Page;

useBrowserSuite({ name: 'applicant-journey', waitMs: 60_000 }, (suite) => {
  ({ server, page } = suite);
});

describe.each(VIEWPORTS)('on a $name ($width px)', (viewport) => {
  it('opens the next step at its top after Save and Continue', async () => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const email = uniqueEmail(`scroll-${viewport.name}`);
    await createAccount(page, server, email);
    await logInThroughApi(page, email);
    await page.goto('/about');
    await expectPage(page, '/about', 'About You');
    // The button is at the end of a long page: the applicant has scrolled down to reach it.
    const save = page.getByRole('button', { name: 'Save and Continue' });
    await save.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await save.click();
    await expectPage(page, '/education', 'Your Academics');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    const title = await page
      .getByRole('heading', { level: 1, name: 'Your Academics' })
      .boundingBox();
    expect(title && title.y + title.height).toBeLessThanOrEqual(viewport.height);
  });
});
