// The applicant's checklist (issue #30) on /completion and Final Steps: what the applicant sees of
// each item and recommender, and what the buttons send.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  CHECKLIST_MESSAGES,
  type ChecklistResponse,
  type ProfileResponse,
} from '@admissions/api-contract';
import { findCompleteFormPage, renderApp } from './support/render-app';
import { setLoginMarker, stubFetch, type RecordedCall } from './support/fetch-stub';
import { PROFILE } from './support/profile';
import { SLOW } from './support/slow';
import { checklist, COUNSELOR_ID, item, recommender, TEACHER_ID } from './support/checklist';

const SUBMITTED: ProfileResponse = {
  ...PROFILE,
  web_status: ['started', 'validating', 'submitted'].map((web_status) => ({ web_status })),
};

const calls = (recorded: RecordedCall[], method: string, prefix: string) =>
  recorded.filter((call) => call.method === method && call.url.startsWith(prefix));

function renderCompletion(handlers: Parameters<typeof stubFetch>[0]) {
  setLoginMarker();
  const stub = stubFetch({ 'GET /api/profile': { body: SUBMITTED }, ...handlers });
  return { ...stub, ...renderApp({ path: '/completion' }) };
}

async function findChecklist(): Promise<HTMLElement> {
  return screen.findByTestId('applicant-checklist', undefined, SLOW).then(async (panel) => {
    await within(panel).findByTestId('checklist-items', undefined, SLOW);
    return panel;
  });
}

function findItem(panel: HTMLElement, id: string): HTMLElement {
  const found = panel.querySelector<HTMLElement>(`[data-item="${id}"]`);
  if (!found) throw new Error(`no item ${id}`);
  return found;
}

describe('the checklist on /completion', () => {
  it('shows each item with its status and date, whether it is required, and the office’s message', async () => {
    renderCompletion({
      'GET /api/checklist': {
        body: checklist({
          items: [
            ...checklist().items,
            item({
              id: 'request-1',
              title: 'Official transcript',
              message: 'Please upload your final transcript.\nA scan is fine.',
              uploadable: true,
            }),
          ],
        }),
      },
    });
    const panel = await findChecklist();
    // Below the success message the page already shows.
    expect(screen.getByText('Application submitted')).toBeInTheDocument();
    expect(within(panel).getByRole('heading', { name: 'Your checklist' })).toBeInTheDocument();

    const application = findItem(panel, 'application');
    expect(within(application).getByText('Received')).toBeInTheDocument();
    expect(within(application).getByText('November 20, 2026 at 10:00 AM CST')).toBeInTheDocument();
    expect(within(application).getByText('Required')).toBeInTheDocument();

    const waived = findItem(panel, 'teacher-2');
    expect(within(waived).getByText('Waived')).toBeInTheDocument();
    expect(within(waived).getByText('November 21, 2026 at 10:00 AM CST')).toBeInTheDocument();
    expect(within(waived).getByText('Optional')).toBeInTheDocument();

    const counselor = findItem(panel, 'counselor');
    expect(within(counselor).getByText('Awaiting')).toBeInTheDocument();
    expect(
      within(counselor).getByText('No one is invited for this letter yet.'),
    ).toBeInTheDocument();

    const teacher = findItem(panel, 'teacher-1');
    expect(within(teacher).getByTestId('recommender')).toHaveTextContent(
      'Grace Hopper (Teacher, grace@school.example.org)',
    );
    expect(within(teacher).getByTestId('recommender-status')).toHaveTextContent(
      'Invited November 2, 2026 · the link works until January 1, 2099',
    );
    expect(
      within(teacher).getByText('You waived the right to read this letter (FERPA).'),
    ).toBeInTheDocument();

    const transcript = findItem(panel, 'request-1');
    expect(within(transcript).getByText('Message from the admissions office')).toBeInTheDocument();
    expect(
      within(transcript).getByText(/Please upload your final transcript\./),
    ).toBeInTheDocument();
    expect(within(panel).getByTestId('checklist-progress')).toHaveTextContent(
      '1 of 4 required items received or waived.',
    );
  });

  it('keeps Remind disabled until remind_after, saying how long, and then sends a reminder', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const now = Date.now();
    const remindAfter = new Date(now + 3 * 60 * 1000).toISOString();
    const waiting = checklist({
      recommenders: [recommender({ reminders_sent: 1, remind_after: remindAfter })],
    });
    const reminded = checklist({
      recommenders: [
        recommender({
          // The applicant's reminder is not an automatic one: only the next one waits a day.
          reminders_sent: 1,
          remind_after: new Date(now + 27 * 60 * 60 * 1000).toISOString(),
        }),
      ],
    });
    const stub = renderCompletion({
      'GET /api/checklist': { body: waiting },
      [`POST /api/recommenders/${TEACHER_ID}/remind`]: { body: reminded },
    });
    const panel = await findChecklist();
    const remind = within(panel).getByRole('button', { name: 'Remind Grace Hopper' });
    expect(remind).toBeDisabled();
    const wait = within(panel).getByTestId('reminder-wait');
    expect(wait).toHaveTextContent(/^You can send another reminder in 3 minutes \(.+ at .+\)\.$/);
    expect(remind).toHaveAccessibleDescription(wait.textContent ?? '');
    expect(within(panel).getByTestId('recommender-status')).toHaveTextContent(
      '1 automatic reminder sent',
    );

    // A minute later the wait has counted down; once remind_after has passed, the button is back.
    await act(() => vi.advanceTimersByTimeAsync(60 * 1000));
    expect(within(panel).getByTestId('reminder-wait')).toHaveTextContent('in 2 minutes');
    await act(() => vi.advanceTimersByTimeAsync(2 * 60 * 1000 + 1000));
    await waitFor(() => expect(remind).toBeEnabled());
    expect(within(panel).queryByTestId('reminder-wait')).not.toBeInTheDocument();
    vi.useRealTimers();

    remind.click();
    expect(await within(panel).findByText(CHECKLIST_MESSAGES.reminderSent)).toBeInTheDocument();
    expect(calls(stub.calls, 'POST', `/api/recommenders/${TEACHER_ID}/remind`)).toHaveLength(1);
    expect(within(panel).getByRole('button', { name: 'Remind Grace Hopper' })).toBeDisabled();
    expect(within(panel).getByTestId('reminder-wait')).toHaveTextContent(/in 2[67] hours/);
    expect(within(panel).getByTestId('recommender-status')).toHaveTextContent(
      '1 automatic reminder sent',
    );
  });

  it('shows the server’s refusal of a reminder', async () => {
    const { user } = renderCompletion({
      'GET /api/checklist': { body: checklist() },
      [`POST /api/recommenders/${TEACHER_ID}/remind`]: {
        status: 429,
        body: { code: 'REMINDER_TOO_SOON', message: CHECKLIST_MESSAGES.reminderTooSoon },
      },
    });
    const panel = await findChecklist();
    await user.click(within(panel).getByRole('button', { name: 'Remind Grace Hopper' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      CHECKLIST_MESSAGES.reminderTooSoon,
    );
  });

  it('reads the checklist again on each visit: Final Steps’ copy does not stand for /completion', async () => {
    // The first read: before the application's submit was recorded; the second: after.
    let reads = 0;
    const before = checklist({
      submitted: false,
      items: checklist().items.map(({ received_at: _, ...entry }) =>
        entry.id === 'application' ? { ...entry, status: 'awaiting' as const } : entry,
      ),
    });
    const stub = renderCompletion({
      'GET /api/checklist': () => ({ body: reads++ === 0 ? before : checklist() }),
    });
    let panel = await findChecklist();
    expect(findItem(panel, 'application')).toHaveAttribute('data-status', 'awaiting');
    // Another page (the staff print view, which asks nothing without its token), then back.
    await act(() => stub.router.navigate('/print'));
    await waitFor(() => expect(screen.queryByTestId('applicant-checklist')).toBeNull(), SLOW);
    await act(() => stub.router.navigate('/completion'));
    panel = await findChecklist();
    await waitFor(() =>
      expect(findItem(panel, 'application')).toHaveAttribute('data-status', 'received'),
    );
    expect(calls(stub.calls, 'GET', '/api/checklist')).toHaveLength(2);
  });

  it('says when a link has expired, and that Remind sends a new one', async () => {
    renderCompletion({
      'GET /api/checklist': {
        body: checklist({
          recommenders: [recommender({ link_expires_at: '2026-01-01T15:00:00.000Z' })],
        }),
      },
    });
    const panel = await findChecklist();
    expect(within(panel).getByTestId('recommender-status')).toHaveTextContent(
      'the link expired January 1, 2026',
    );
    expect(within(panel).getByTestId('link-expired')).toHaveTextContent(
      'The link has expired: Remind sends Grace Hopper a new one.',
    );
    expect(within(panel).getByRole('button', { name: 'Remind Grace Hopper' })).toBeEnabled();
  });

  it('offers no reminder, change or removal for a letter already received', async () => {
    renderCompletion({
      'GET /api/checklist': {
        body: checklist({
          recommenders: [
            recommender({ status: 'received', received_at: '2026-11-25T16:00:00.000Z' }),
          ],
        }),
      },
    });
    const panel = await findChecklist();
    expect(within(panel).getByTestId('recommender-status')).toHaveTextContent(
      'Letter received November 25, 2026',
    );
    expect(within(panel).queryByRole('button', { name: /Remind|Change|Remove/ })).toBeNull();
  });

  it('shows a failed conversion with the converter’s message and takes another file', async () => {
    const failed = checklist({
      items: [
        item({
          id: 'request-1',
          title: 'Official transcript',
          uploadable: true,
          upload: {
            status: 'failed',
            message: 'The file could not be read as a PDF.',
            file_name: 'transcript.pdf',
          },
        }),
      ],
    });
    const converting = checklist({
      items: [
        item({
          id: 'request-1',
          title: 'Official transcript',
          uploadable: true,
          upload: { status: 'converting', message: '', file_name: 'scan.pdf' },
        }),
      ],
    });
    const received = checklist({
      items: [
        item({
          id: 'request-1',
          title: 'Official transcript',
          uploadable: true,
          status: 'received',
          received_at: '2026-11-26T16:00:00.000Z',
        }),
      ],
    });
    let polled = 0;
    const stub = renderCompletion({
      'GET /api/checklist': () => ({ body: polled++ === 0 ? failed : received }),
      'POST /api/checklist/request-1/document': { body: converting },
    });
    // The drop zone also takes a dropped file, which no `accept` filters.
    const user = userEvent.setup({ applyAccept: false });
    const panel = await findChecklist();
    expect(within(panel).getByTestId('checklist-upload-failure')).toHaveTextContent(
      'transcript.pdf: The file could not be read as a PDF.',
    );

    // The browser refuses what the server would, in the server's words, and sends nothing.
    const input = within(panel).getByLabelText('Upload Official transcript');
    await user.upload(input, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(within(panel).getByTestId('checklist-upload-failure')).toHaveTextContent(
      `notes.txt: ${CHECKLIST_MESSAGES.fileTypeRefused}`,
    );
    const large = new File([new Uint8Array(1024 * 1024 + 1)], 'big.pdf', {
      type: 'application/pdf',
    });
    await user.upload(input, large);
    expect(within(panel).getByTestId('checklist-upload-failure')).toHaveTextContent(
      `big.pdf: ${CHECKLIST_MESSAGES.fileTooLarge}`,
    );
    expect(calls(stub.calls, 'POST', '/api/checklist/')).toHaveLength(0);

    await user.upload(input, new File(['%PDF-1.4'], 'scan.pdf', { type: 'application/pdf' }));
    expect(
      await within(panel).findByTestId('checklist-upload-converting', undefined, SLOW),
    ).toHaveTextContent('Converting scan.pdf…');
    const [posted] = calls(stub.calls, 'POST', '/api/checklist/request-1/document');
    expect(posted?.body).toEqual({ file_name: 'scan.pdf', content_base64: btoa('%PDF-1.4') });

    // Polled until the conversion is done; the change is announced.
    const transcript = findItem(panel, 'request-1');
    await waitFor(() => expect(transcript).toHaveAttribute('data-status', 'received'), SLOW);
    expect(within(transcript).getByText('November 26, 2026 at 10:00 AM CST')).toBeInTheDocument();
    expect(within(transcript).queryByTestId('checklist-upload-drop-zone')).toBeNull();
    expect(screen.getByTestId('checklist-announcement')).toHaveTextContent(
      'Official transcript: received.',
    );
  });

  it('invites a recommender, says the FERPA answer goes along, and shows a refusal', async () => {
    const added = checklist({
      recommenders: [
        recommender(),
        recommender({
          id: COUNSELOR_ID,
          type: 'counselor',
          name: 'Alan Turing',
          email: 'alan@school.example.org',
        }),
      ],
      items: checklist().items.map((entry) =>
        entry.id === 'counselor' ? { ...entry, recommender_id: COUNSELOR_ID } : entry,
      ),
    });
    let refuse = true;
    const stub = renderCompletion({
      'GET /api/checklist': { body: checklist() },
      'POST /api/recommenders': () =>
        refuse
          ? {
              status: 409,
              body: { code: 'RECOMMENDER_LIMIT', message: CHECKLIST_MESSAGES.recommenderLimit },
            }
          : { body: added },
    });
    const { user } = stub;
    const panel = await findChecklist();
    const form = within(panel).getByTestId('add-recommender');
    expect(within(form).getByTestId('ferpa-answer')).toHaveTextContent(
      'Your answer to the FERPA question goes with each invitation: you waived your right to read the letter',
    );
    // The one teacher place left and the counselor's are open; the first with room is chosen.
    expect(within(form).getByLabelText(/Kind of recommender/)).toHaveValue('counselor');

    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(within(form).getByText("Please enter the recommender's name.")).toBeInTheDocument();
    expect(within(form).getByText('Please enter a valid e-mail address.')).toBeInTheDocument();
    expect(calls(stub.calls, 'POST', '/api/recommenders')).toHaveLength(0);

    await user.type(within(form).getByLabelText(/^Name/), 'Alan Turing');
    await user.type(within(form).getByLabelText(/^E-mail address/), 'alan@school.example.org');
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      CHECKLIST_MESSAGES.recommenderLimit,
    );

    refuse = false;
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(
      await within(form).findByText(
        'We e-mailed Alan Turing a link to send their letter. It works for 60 days.',
      ),
    ).toBeInTheDocument();
    expect(calls(stub.calls, 'POST', '/api/recommenders').at(-1)?.body).toEqual({
      type: 'counselor',
      name: 'Alan Turing',
      email: 'alan@school.example.org',
    });
    expect(within(findItem(panel, 'counselor')).getByTestId('recommender')).toHaveTextContent(
      'Alan Turing (School counselor, alan@school.example.org)',
    );
    // Both counselor places are taken now: the kind offers it no more.
    expect(
      within(form).getByRole('option', { name: 'School counselor (all 1 invited)' }),
    ).toBeDisabled();
  });

  it('changes a recommender’s e-mail, saying a new link goes out and the old one stops', async () => {
    const changed: ChecklistResponse = checklist({
      recommenders: [recommender({ email: 'g.hopper@school.example.org' })],
    });
    const stub = renderCompletion({
      'GET /api/checklist': { body: checklist() },
      [`PUT /api/recommenders/${TEACHER_ID}`]: { body: changed },
    });
    const { user } = stub;
    const panel = await findChecklist();
    await user.click(within(panel).getByRole('button', { name: 'Change Grace Hopper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change recommender' }, SLOW);
    expect(
      within(dialog).getByText(
        'If you change the e-mail address, we send a new link to the new address and the old link stops working.',
      ),
    ).toBeInTheDocument();
    const email = within(dialog).getByLabelText(/^E-mail address/);
    await user.clear(email);
    await user.type(email, 'g.hopper@school.example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Save and send a new link' }));
    expect(
      await within(panel).findByText(
        'We sent a new link to g.hopper@school.example.org. The link sent to grace@school.example.org no longer works.',
      ),
    ).toBeInTheDocument();
    expect(calls(stub.calls, 'PUT', '/api/recommenders/').at(-1)?.body).toEqual({
      type: 'teacher',
      name: 'Grace Hopper',
      email: 'g.hopper@school.example.org',
    });
  });

  it('removes a recommender once confirmed', async () => {
    const removed = checklist({
      recommenders: [],
      items: checklist().items.map(({ recommender_id: _, ...entry }) => entry),
    });
    const stub = renderCompletion({
      'GET /api/checklist': { body: checklist() },
      [`DELETE /api/recommenders/${TEACHER_ID}`]: { body: removed },
    });
    const { user } = stub;
    const panel = await findChecklist();
    await user.click(within(panel).getByRole('button', { name: 'Remove Grace Hopper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove recommender' }, SLOW);
    expect(
      within(dialog).getByText(/Remove Grace Hopper\? Their link stops working/),
    ).toBeVisible();
    expect(calls(stub.calls, 'DELETE', '/api/recommenders/')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(
      await within(panel).findByText(CHECKLIST_MESSAGES.recommenderRemoved),
    ).toBeInTheDocument();
    expect(within(panel).queryByTestId('recommender')).toBeNull();
    expect(calls(stub.calls, 'DELETE', `/api/recommenders/${TEACHER_ID}`)).toHaveLength(1);
  });
});

describe('the checklist on Final Steps', () => {
  it('asks for the FERPA answer before an invitation, and reads the checklist again once it is saved', async () => {
    setLoginMarker();
    let answered = false;
    const stub = stubFetch({
      'GET /api/profile': {
        body: { ...PROFILE, web_status: [{ web_status: 'started' }] },
      },
      'GET /api/checklist': () => ({
        body: checklist({ submitted: false, ferpa_waived: answered ? false : null }),
      }),
      'PUT /api/answer': (call) => {
        if ((call.body as Record<string, string>).counselor_waiver_request) answered = true;
        return { body: { message: 'Your answers were saved.' } };
      },
    });
    const { user } = renderApp({ path: '/final-steps' });
    await findCompleteFormPage();
    const panel = await findChecklist();
    expect(
      within(panel).getByRole('heading', { name: 'Recommendations and checklist' }),
    ).toBeInTheDocument();
    const prompt = within(panel).getByTestId('ferpa-unanswered');
    expect(prompt).toHaveTextContent(CHECKLIST_MESSAGES.ferpaUnanswered);
    expect(within(prompt).getByRole('link', { name: 'Go to the FERPA question' })).toHaveAttribute(
      'href',
      '/final-steps#counselor_waiver_request',
    );
    expect(within(panel).getByRole('button', { name: 'Send invitation' })).toBeDisabled();
    // Below the questions and their Save and Submit buttons.
    const submit = screen.getByRole('button', { name: 'Submit' });
    expect(panel.compareDocumentPosition(submit) & Node.DOCUMENT_POSITION_PRECEDING).toBeTruthy();

    const waiver = screen.getByRole('radiogroup', { name: /waive your right under FERPA/ });
    await user.click(within(waiver).getByRole('radio', { name: 'No' }));
    expect(await within(panel).findByTestId('ferpa-answer', undefined, SLOW)).toHaveTextContent(
      'you did not waive your right to read the letter',
    );
    expect(within(panel).getByRole('button', { name: 'Send invitation' })).toBeEnabled();
    expect(calls(stub.calls, 'GET', '/api/checklist').length).toBeGreaterThanOrEqual(2);
  });

  it('shows no checklist to a visitor without an account', async () => {
    const stub = stubFetch({});
    renderApp({ path: '/final-steps' });
    await findCompleteFormPage();
    expect(screen.queryByTestId('applicant-checklist')).toBeNull();
    expect(calls(stub.calls, 'GET', '/api/checklist')).toHaveLength(0);
  });
});
