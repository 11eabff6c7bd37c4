import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { A11yFindings, openPage, recordFailure } from './applicant';
import { launchBrowser } from './browser';
import { startServer, type RunningServer } from './server';

/** What a test of a browser suite works with; a fresh context and page for every test. */
export interface BrowserSuite {
  server: RunningServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  a11y: A11yFindings;
  /** Uncaught errors of the page; a test that opens another page may add that one's too. */
  pageErrors: string[];
}

/**
 * The set-up every page-level suite shares: one real server (its own DATA_DIR and PGlite) and one
 * Chromium for the file, a new context per test with `waitMs` as its default time-out, and after
 * each test a screenshot and the server log's path on failure, accessibility findings printed,
 * and no uncaught error in the page. `bind` hands the suite's objects to the test file before
 * each test.
 */
export function useBrowserSuite(
  options: {
    name: string;
    waitMs: number;
    /** More of the server's environment, made just before it starts (a partner file's times). */
    env?: () => Promise<Record<string, string>>;
  },
  bind: (suite: BrowserSuite) => void,
): void {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let current: BrowserSuite | undefined;

  beforeAll(async () => {
    const env = (await options.env?.()) ?? {};
    server = await startServer({ PUBLIC_RATE_LIMIT: '1000', ...env }, { name: options.name });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    const opened = await openPage(browser!, server!, options.waitMs);
    current = {
      ...opened,
      server: server!,
      browser: browser!,
      a11y: new A11yFindings(opened.page),
    };
    bind(current);
  });

  afterEach(async ({ task }) => {
    if (!current) return;
    if (task.result?.state === 'fail') {
      await recordFailure(current.page, current.server, `${options.name}-${task.name}`);
      current.a11y.warnIfAny(task.name);
    }
    await current.context.close();
    expect(current.pageErrors, 'uncaught errors in the page').toEqual([]);
  });
}
