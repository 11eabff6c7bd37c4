// The applicant's PDF copy on /completion (docs/behaviour.md, docs/api.md, docs/errors.md, docs/limits.md): polls, link, failure toast.
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { MESSAGES, type ApplicationPdfResponse } from '@admissions/api-contract';
import { theme } from '../src/config/theme';
import {
  PDF_POLL_MS,
  PDF_SETTLED_POLL_MS,
  pdfRefetchInterval,
} from '../src/features/application-pdf/api/get-application-pdf';
import {
  PDF_DOWNLOAD_LABEL,
  PDF_ERROR_TITLE,
  PDF_PREPARING_TEXT,
  PdfDownload,
} from '../src/features/application-pdf/components/pdf-download';
import { createQueryClient } from '../src/shared/api/query-client';
import { renderApp } from './support/render-app';
import { setLoginMarker, stubFetch, type RecordedCall } from './support/fetch-stub';
import { PROFILE } from './support/profile';
import { SLOW } from './support/slow';

const URL = '/api/pdf/file?download=abc';
const pending: ApplicationPdfResponse = { status: 'IN_PROGRESS', url: '', message: 'Generating' };
const completed: ApplicationPdfResponse = { status: 'COMPLETED', url: URL, message: 'Ready' };
const failed: ApplicationPdfResponse = {
  status: 'FAILED',
  url: '',
  message: 'The PDF could not be made.',
};

const pdfCalls = (calls: RecordedCall[]) => calls.filter((call) => call.url === '/api/pdf');

/** Answers each GET /api/pdf with the next response, the last one for ever after. */
function pdfServer(...responses: (ApplicationPdfResponse | 'network-error')[]) {
  let index = 0;
  return stubFetch({
    'GET /api/pdf': () => {
      const next = responses[Math.min(index, responses.length - 1)];
      index += 1;
      if (next === 'network-error') throw new TypeError('Failed to fetch');
      return { body: next };
    },
  });
}

/** The button alone in the real providers: fake timers need no lazy route to load. */
function renderButton() {
  const queryClient = createQueryClient();
  const view = render(
    <MantineProvider theme={theme} env="test">
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <PdfDownload />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...view, queryClient };
}

/**
 * The poll's clock only: TanStack Query's refetchInterval is a setInterval, while its batched
 * notifications and React's scheduling keep real timeouts, so the page renders as it would.
 */
function useFakeIntervals() {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
}

/** Lets the fetch answer and React render, without moving the poll's clock. */
async function settle() {
  await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
}

async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  await settle();
}

afterEach(() => {
  notifications.clean();
});

describe('the poll interval', () => {
  it('is 1000 ms while pending, 600000 ms once ready, failed or unreachable', () => {
    const state = (status: 'pending' | 'success' | 'error', data?: ApplicationPdfResponse) =>
      ({ state: { status, data } }) as unknown as Parameters<typeof pdfRefetchInterval>[0];
    expect(PDF_POLL_MS).toBe(1000);
    expect(PDF_SETTLED_POLL_MS).toBe(600_000);
    expect(pdfRefetchInterval(state('pending'))).toBe(1000);
    expect(pdfRefetchInterval(state('success', pending))).toBe(1000);
    expect(pdfRefetchInterval(state('success', { ...pending, status: 'UNPROCESSED' }))).toBe(1000);
    expect(pdfRefetchInterval(state('success', completed))).toBe(600_000);
    expect(pdfRefetchInterval(state('error'))).toBe(600_000);
  });
});

describe('the PDF download button', () => {
  it('polls every 1000 ms until the PDF is ready, then every 600000 ms, and links to it', async () => {
    useFakeIntervals();
    const { calls } = pdfServer(pending, pending, completed);
    renderButton();
    await settle();
    expect(pdfCalls(calls)).toHaveLength(1);
    // Generating: a disabled button with a spinner and a status line.
    expect(screen.getByRole('button', { name: PDF_DOWNLOAD_LABEL })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(PDF_PREPARING_TEXT);

    await advance(999);
    expect(pdfCalls(calls)).toHaveLength(1);
    await advance(1);
    expect(pdfCalls(calls)).toHaveLength(2);
    await advance(1000);
    expect(pdfCalls(calls)).toHaveLength(3);

    const link = screen.getByRole('link', { name: PDF_DOWNLOAD_LABEL });
    expect(link).toHaveAttribute('href', URL);
    expect(link).toHaveAttribute('download');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    // Ready: the next ask is ten minutes later (it keeps the short-lived link fresh).
    await advance(PDF_SETTLED_POLL_MS - 1);
    expect(pdfCalls(calls)).toHaveLength(3);
    await advance(1);
    expect(pdfCalls(calls)).toHaveLength(4);
  });

  it('shows the documented toast with the returned message when the PDF fails, then slows down', async () => {
    useFakeIntervals();
    const { calls } = pdfServer(pending, failed);
    renderButton();
    await settle();
    await advance(PDF_POLL_MS);
    expect(pdfCalls(calls)).toHaveLength(2);
    expect(screen.getByText(PDF_ERROR_TITLE)).toBeInTheDocument();
    expect(screen.getByText(failed.message)).toBeInTheDocument();
    // The button asks again when pressed; no link to a PDF that does not exist.
    expect(screen.queryByRole('link', { name: PDF_DOWNLOAD_LABEL })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: PDF_DOWNLOAD_LABEL })).toBeEnabled();
    await advance(PDF_POLL_MS * 5);
    expect(pdfCalls(calls)).toHaveLength(2);
    // A failure repeated by the slow poll does not stack a second toast.
    await advance(PDF_SETTLED_POLL_MS);
    expect(pdfCalls(calls)).toHaveLength(3);
    expect(screen.getAllByText(PDF_ERROR_TITLE)).toHaveLength(1);
  });

  it('shows the same toast when the request fails, and asks again when pressed', async () => {
    const { calls } = pdfServer('network-error', completed);
    renderButton();
    expect(await screen.findByText(PDF_ERROR_TITLE, undefined, SLOW)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.unexpected)).toBeInTheDocument();
    screen.getByRole('button', { name: PDF_DOWNLOAD_LABEL }).click();
    const link = await screen.findByRole('link', { name: PDF_DOWNLOAD_LABEL }, SLOW);
    expect(link).toHaveAttribute('href', URL);
    expect(pdfCalls(calls)).toHaveLength(2);
  });
});

describe('the completion page', () => {
  it('offers the PDF copy of the submitted application', async () => {
    setLoginMarker();
    const { calls } = stubFetch({
      'GET /api/profile': {
        body: {
          ...PROFILE,
          web_status: ['started', 'validating', 'submitted'].map((web_status) => ({ web_status })),
        },
      },
      'GET /api/pdf': { body: completed },
    });
    renderApp({ path: '/completion' });
    expect(await screen.findByText(MESSAGES.submitted, undefined, SLOW)).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: PDF_DOWNLOAD_LABEL }, SLOW);
    expect(link).toHaveAttribute('href', URL);
    expect(link).toHaveAttribute('download');
    expect(pdfCalls(calls)).toHaveLength(1);
  });
});
