// Issue #29, the applicant's side of a deadline: the banner from a day before the round closes,
// the countdown in its last hour, and the read-only application once it has closed (by the
// server's clock, or because a save was refused with 409 ROUND_CLOSED).
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fillRoundMessage, ROUND_MESSAGES } from '@admissions/api-contract';
import { setLoginMarker, stubFetch, type RecordedCall } from './support/fetch-stub';
import { PROFILE } from './support/profile';
import { findCompleteFormPage, renderApp } from './support/render-app';
import { applicationsAt, EA_DEADLINE_TEXT, HOUR, MINUTE, submitted } from './support/rounds';
import { SLOW } from './support/slow';

// The machine runs other suites beside this one: a first form page can take a while to load.
const PAGE_MS = 45_000;
const TEST_MS = 120_000;
// The idle time-out is not what these tests are about; fake clocks run far past it.
const NO_IDLE = { timeoutMs: 48 * HOUR, warningMs: MINUTE, tickMs: 1000 };

const BANNER_TEXT = `The Early Action deadline is ${EA_DEADLINE_TEXT}. Submit your application before then.`;
/** What the server answers a write with after the deadline and its grace (ROUND_MESSAGES.closed). */
const CLOSED_MESSAGE = fillRoundMessage(ROUND_MESSAGES.closed, {
  round: 'Early Action',
  deadline: EA_DEADLINE_TEXT,
});

const writes = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url}`);

function stubRounds(msBeforeClose: number, own: Parameters<typeof stubFetch>[0] = {}) {
  setLoginMarker();
  return stubFetch({
    'GET /api/profile': { body: PROFILE },
    'GET /api/applications': () => ({ body: applicationsAt(msBeforeClose) }),
    ...own,
  });
}

/** Every input, select, textarea and button of the page's form. */
function listFormControls(): HTMLElement[] {
  const fields = screen.getByTestId('application-fields');
  return [...fields.querySelectorAll<HTMLElement>('input, select, textarea, button')];
}

afterEach(() => vi.restoreAllMocks());

describe('the deadline banner', () => {
  it(
    'names the round and its deadline from 24 hours before the round closes',
    async () => {
      stubRounds(23 * HOUR);
      renderApp({ path: '/about', idleConfig: NO_IDLE });
      const banner = await screen.findByTestId('deadline-banner', undefined, SLOW);
      expect(banner).toHaveTextContent(BANNER_TEXT);
      expect(banner).toHaveAttribute('data-phase', 'banner');
      // No countdown before the last hour, and nothing for a screen reader to hear yet.
      expect(screen.queryByTestId('deadline-countdown')).not.toBeInTheDocument();
      expect(screen.getByTestId('deadline-announcement')).toHaveTextContent('');
      await findCompleteFormPage(PAGE_MS);
      expect(screen.queryByTestId('round-closed')).not.toBeInTheDocument();
    },
    TEST_MS,
  );

  it(
    'is not there 25 hours before, nor for a submitted application',
    async () => {
      stubRounds(25 * HOUR);
      const early = renderApp({ path: '/about', idleConfig: NO_IDLE });
      await findCompleteFormPage(PAGE_MS);
      expect(screen.queryByTestId('deadline-banner')).not.toBeInTheDocument();
      early.unmount();

      stubRounds(23 * HOUR, {
        'GET /api/profile': {
          body: {
            ...PROFILE,
            web_status: ['started', 'validating', 'submitted'].map((s) => ({ web_status: s })),
          },
        },
        'GET /api/applications': () => ({
          body: applicationsAt(23 * HOUR, { applications: [submitted('EA')] }),
        }),
      });
      const done = renderApp({ path: '/about', idleConfig: NO_IDLE });
      await screen.findByRole('heading', { name: 'Application submitted' }, SLOW);
      expect(done.router.state.location.pathname).toBe('/completion');
      expect(screen.queryByTestId('deadline-banner')).not.toBeInTheDocument();
    },
    TEST_MS,
  );

  it(
    'counts down the last hour every second and tells a screen reader once a minute',
    async () => {
      // The fake clock moves with real time too (shouldAdvanceTime), so the page loads as usual.
      vi.useFakeTimers({
        shouldAdvanceTime: true,
        toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      });
      stubRounds(HOUR + 30_000);
      renderApp({ path: '/about', idleConfig: NO_IDLE });
      const banner = await screen.findByTestId('deadline-banner', undefined, SLOW);
      expect(banner).toHaveAttribute('data-phase', 'banner');
      expect(screen.queryByTestId('deadline-countdown')).not.toBeInTheDocument();

      await act(() => vi.advanceTimersByTimeAsync(31_000));
      expect(banner).toHaveAttribute('data-phase', 'countdown');
      expect(banner).toHaveTextContent(BANNER_TEXT);
      const countdown = screen.getByTestId('deadline-countdown');
      expect(countdown.textContent).toMatch(/^(59|60):\d\d$/);
      const announcement = screen.getByTestId('deadline-announcement');
      expect(announcement).toHaveAttribute('aria-live', 'polite');
      expect(announcement.textContent).toMatch(
        /^(59|60) minutes are left to submit your Early Action application\.$/,
      );
      // The visible mm:ss is not a live region: only the sentence of whole minutes is announced.
      expect(countdown.closest('[aria-live]')).toBeNull();

      const shown: string[] = [];
      const announced: string[] = [];
      for (let second = 0; second < 150; second += 1) {
        await act(() => vi.advanceTimersByTimeAsync(1000));
        shown.push(countdown.textContent ?? '');
        announced.push(announcement.textContent ?? '');
      }
      const changes = (values: string[]) => values.filter((v, i) => i > 0 && v !== values[i - 1]);
      // Every second a new mm:ss; at most three new sentences in two and a half minutes.
      expect(changes(shown).length).toBeGreaterThanOrEqual(140);
      expect(new Set(shown).size).toBeGreaterThanOrEqual(140);
      expect(changes(announced).length).toBeGreaterThanOrEqual(2);
      expect(changes(announced).length).toBeLessThanOrEqual(3);
      expect(shown.at(-1)).toMatch(/^5[67]:\d\d$/);
    },
    TEST_MS,
  );
});

describe('a closed round', () => {
  it(
    'shows the application read-only with the message after closes_at',
    async () => {
      const { calls } = stubRounds(-MINUTE);
      const { user } = renderApp({ path: '/about', idleConfig: NO_IDLE });
      expect(await screen.findByTestId('round-closed', undefined, SLOW)).toHaveTextContent(
        CLOSED_MESSAGE,
      );
      await findCompleteFormPage(PAGE_MS);
      expect(screen.queryByTestId('deadline-banner')).not.toBeInTheDocument();
      const controls = listFormControls();
      expect(controls.length).toBeGreaterThan(40);
      for (const control of controls) expect(control).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Save and Continue' })).toBeDisabled();
      expect(screen.queryByTestId('save-status')).not.toBeInTheDocument();
      // Typing does nothing, and the step links still lead through the pages to read them.
      await user.type(document.getElementById('first_name') as HTMLElement, 'Ruth');
      expect(document.getElementById('first_name')).toHaveValue('');
      await user.click(screen.getByRole('link', { name: /Step 3/ }));
      await screen.findByRole('heading', { level: 1, name: 'Final Steps' }, SLOW);
      await findCompleteFormPage(PAGE_MS);
      expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
      // Nothing is written: no start, no last page, no answer.
      expect(writes(calls)).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'turns read-only when the round closes while the page is open',
    async () => {
      vi.useFakeTimers({
        shouldAdvanceTime: true,
        toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      });
      const { calls } = stubRounds(20_000);
      renderApp({ path: '/about', idleConfig: NO_IDLE });
      await findCompleteFormPage(PAGE_MS);
      const firstName = document.getElementById('first_name') as HTMLInputElement;
      expect(firstName).toBeEnabled();
      expect(screen.getByTestId('deadline-banner')).toHaveAttribute('data-phase', 'countdown');

      await act(() => vi.advanceTimersByTimeAsync(21_000));
      expect(screen.getByTestId('round-closed')).toHaveTextContent(CLOSED_MESSAGE);
      expect(screen.queryByTestId('deadline-banner')).not.toBeInTheDocument();
      expect(firstName).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Save and Continue' })).toBeDisabled();
      expect(writes(calls).filter((w) => w === 'PUT /api/answer')).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'turns read-only with the server’s message when a save answers 409 ROUND_CLOSED',
    async () => {
      // The server's words, different from what the SPA would write itself: they are the ones shown.
      const serverMessage =
        'The Early Action round closed on January 15, 2027 at 11:59 PM CST. Your application in it can no longer be changed.';
      const { calls } = stubRounds(2 * HOUR, {
        'PUT /api/answer': {
          status: 409,
          body: { code: 'ROUND_CLOSED', message: serverMessage },
        },
      });
      const { user, router } = renderApp({ path: '/about', idleConfig: NO_IDLE });
      await findCompleteFormPage(PAGE_MS);
      const firstName = document.getElementById('first_name') as HTMLInputElement;
      await user.type(firstName, 'Ruth');
      await user.tab();
      expect(await screen.findByTestId('round-closed', undefined, SLOW)).toHaveTextContent(
        serverMessage,
      );
      expect(firstName).toBeDisabled();
      for (const control of listFormControls()) expect(control).toBeDisabled();
      expect(screen.queryByTestId('deadline-banner')).not.toBeInTheDocument();
      expect(screen.queryByTestId('save-status')).not.toBeInTheDocument();
      // A closed round is not a submitted application: the applicant stays on the page.
      expect(router.state.location.pathname).toBe('/about');

      // No second attempt, no Retry, no error toast, no "leave the page?" warning.
      const saves = () => calls.filter((c) => c.method === 'PUT' && c.url === '/api/answer');
      expect(saves()).toHaveLength(1);
      await act(() => new Promise((resolve) => setTimeout(resolve, 2000)));
      expect(saves()).toHaveLength(1);
      expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
      expect(screen.queryByText('Error')).not.toBeInTheDocument();
      const leaving = new Event('beforeunload', { cancelable: true });
      fireEvent(window, leaving);
      expect(leaving.defaultPrevented).toBe(false);
      await waitFor(() => expect(screen.getByTestId('round-closed')).toBeInTheDocument());
    },
    TEST_MS,
  );
});
