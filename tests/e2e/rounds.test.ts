import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  fillRoundMessage,
  ROUND_MESSAGES,
  type ApplicationsResponse,
} from '../../packages/api-contract/src/index';
import { formatRoundTime, type PartnerRound } from '../../packages/form/src/index';
import {
  createAccount,
  expectPage,
  field,
  logInThroughApi,
  readSavedAnswers,
  uniqueEmail,
  waitForSaved,
} from '../support/applicant';
import type { A11yFindings } from '../support/applicant';
import type { RunningServer } from '../support/server';
import { useBrowserSuite } from '../support/suite';

// Issue #29 in the browser: an applicant in a round that closes while they watch. The deadline
// banner counts down, the application turns read-only with the server's ROUND_CLOSED message,
// and the round picker starts the other open round from the last application. axe on each screen.

const TIME_ZONE = 'America/Chicago';
/** Early Action closes this long after the partner file is written (just before the server starts). */
// Server start, sign-up, the first page and a save take about 70 s at most on a loaded machine.
const CLOSES_IN_MS = 110_000;
// Two cores shared with other suites: generous waits, never sleeps.
const WAIT_MS = 60_000;

const EARLY = { code: 'EA', name: 'Early Action' };
const REGULAR = { code: 'RD', name: 'Regular Decision' };
let earlyDeadline = '';

let server: RunningServer;
let page: Page;
let a11y: A11yFindings;
let partnerDir = '';

/** A partner file with Early Action open and closing soon, and Regular Decision open for a month. */
async function writePartnerFile(): Promise<Record<string, string>> {
  const now = Date.now();
  const at = (ms: number) => new Date(now + ms).toISOString();
  earlyDeadline = at(CLOSES_IN_MS);
  const rounds: PartnerRound[] = [
    {
      ...EARLY,
      entryTerm: '2027FA',
      opensAt: at(-24 * 3600_000),
      deadline: earlyDeadline,
      graceMinutes: 0,
    },
    {
      ...REGULAR,
      entryTerm: '2027FA',
      opensAt: at(-24 * 3600_000),
      deadline: at(30 * 24 * 3600_000),
      graceMinutes: 0,
    },
  ];
  partnerDir = await mkdtemp(path.join(os.tmpdir(), 'admissions-rounds-'));
  const file = path.join(partnerDir, 'partner.json');
  await writeFile(file, JSON.stringify({ timeZone: TIME_ZONE, rounds }));
  return { PARTNER_CONFIG_FILE: file };
}

useBrowserSuite({ name: 'rounds', waitMs: WAIT_MS, env: writePartnerFile }, (suite) => {
  ({ server, page, a11y } = suite);
});

afterAll(async () => {
  if (partnerDir) await rm(partnerDir, { recursive: true, force: true });
});

async function readApplications(): Promise<ApplicationsResponse> {
  const response = await page.request.get('/api/applications');
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as ApplicationsResponse;
}

describe('a round closing while the applicant watches', () => {
  it(
    'counts down, turns read-only with the message, then starts the other round',
    async () => {
      const closedMessage = fillRoundMessage(ROUND_MESSAGES.closed, {
        round: EARLY.name,
        deadline: formatRoundTime(earlyDeadline, TIME_ZONE),
      });
      const email = uniqueEmail('rounds');
      await createAccount(page, server, email);
      await logInThroughApi(page, email);
      // Whatever round a new account starts in, this applicant works in Early Action.
      const chosen = await page.request.put('/api/application', { data: { round: EARLY.code } });
      expect(chosen.ok(), await chosen.text()).toBe(true);

      await page.goto('/about');
      await expectPage(page, '/about', 'About You');
      const banner = page.getByTestId('deadline-banner');
      await banner.waitFor();
      expect(await banner.getAttribute('data-phase')).toBe('countdown');
      expect(await banner.textContent()).toContain(
        `The ${EARLY.name} deadline is ${formatRoundTime(earlyDeadline, TIME_ZONE)}.`,
      );
      expect(await page.getByTestId('deadline-countdown').textContent()).toMatch(/^\d\d:\d\d$/);
      await a11y.check('/about (countdown)');

      // An answer saved before the deadline: "start from my last application" copies it.
      await field(page, 'first_name').fill('Ruth');
      await field(page, 'last_name').focus();
      await waitForSaved(page);

      // The round closes (no grace): the page turns read-only by itself, with the server's words.
      const closed = page.getByTestId('round-closed');
      await closed.waitFor({ timeout: CLOSES_IN_MS + WAIT_MS });
      expect(await closed.textContent()).toContain(closedMessage);
      expect(await banner.count()).toBe(0);
      expect(await field(page, 'first_name').isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Save and Continue' }).isDisabled()).toBe(true);
      // What the page says is what the server answers a write with.
      const refused = await page.request.put('/api/answer', { data: { first_name: 'Late' } });
      expect(refused.status()).toBe(409);
      expect(await refused.json()).toMatchObject({ code: 'ROUND_CLOSED', message: closedMessage });

      const picker = page.getByTestId('round-picker');
      await picker.waitFor();
      await a11y.check('/about (closed, round picker)');
      await picker.getByRole('checkbox', { name: 'Start from my last application' }).check();
      await picker.getByRole('button', { name: `Start ${REGULAR.name} application` }).click();

      // Regular Decision's application: open, and it starts from the Early Action answers.
      await closed.waitFor({ state: 'detached' });
      await expectPage(page, '/about', 'About You');
      await expect.poll(() => field(page, 'first_name').inputValue()).toBe('Ruth');
      expect(await field(page, 'first_name').isEnabled()).toBe(true);
      const after = await readApplications();
      expect(after.current).toBe(REGULAR.code);
      expect(after.applications.map((a) => a.round).sort()).toEqual([EARLY.code, REGULAR.code]);
      expect(await readSavedAnswers(page)).toMatchObject({ first_name: 'Ruth' });
      await a11y.check('/about (Regular Decision)');
      await a11y.expectNone('rounds');
    },
    6 * WAIT_MS + CLOSES_IN_MS,
  );
});
