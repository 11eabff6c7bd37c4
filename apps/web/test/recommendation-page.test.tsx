// The recommender's page, /recommend/:token (issue #30): no account, the link is the credential.
// What the recommender is told (who asks, FERPA, the link's end), the two questions and the
// letter, and the link's refusals in the server's words.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CHECKLIST_MESSAGES } from '@admissions/api-contract';
import { renderApp } from './support/render-app';
import { stubFetch, type RecordedCall } from './support/fetch-stub';
import { SLOW } from './support/slow';
import { RECOMMENDATION_TOKEN, recommendationPage } from './support/checklist';

const PATH = `/recommend/${RECOMMENDATION_TOKEN}`;
const API = `/public/recommendations/${RECOMMENDATION_TOKEN}`;

const posts = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method === 'POST' && call.url === API);

async function findForm() {
  return screen.findByRole('form', { name: 'Your recommendation' }, SLOW);
}

describe('the recommender’s page', () => {
  it('says who asks, for which school, and that the applicant waived the right to read the letter', async () => {
    const { calls } = stubFetch({ [`GET ${API}`]: { body: recommendationPage() } });
    renderApp({ path: PATH });
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Recommendation for Ada Lovelace' },
        SLOW,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'Dear Grace Hopper, Ada Lovelace has named you as one of their teachers and asks for your letter of recommendation for their application to Example University.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('recommendation-ferpa')).toHaveTextContent(
      'Ada Lovelace has waived the right to read this letter. Your letter is confidential: Ada Lovelace will not see it.',
    );
    expect(
      screen.getByText(/This link works until January 1, 2027 at 9:00 AM CST\./),
    ).toBeVisible();
    // No session: nothing but the page itself is asked for (the partner file aside).
    expect(calls.filter((call) => call.url.startsWith('/api/'))).toEqual([]);
  });

  it('says plainly when the applicant did not waive the right to read it', async () => {
    stubFetch({ [`GET ${API}`]: { body: recommendationPage({ ferpa_waived: false }) } });
    renderApp({ path: PATH });
    expect(await screen.findByTestId('recommendation-ferpa', undefined, SLOW)).toHaveTextContent(
      'Ada Lovelace has not waived the right to read this letter. If Ada Lovelace enrolls at Example University, they may ask to read it.',
    );
  });

  it.each([
    [403, 'RECOMMENDATION_LINK_INVALID', CHECKLIST_MESSAGES.linkInvalid],
    [410, 'RECOMMENDATION_LINK_EXPIRED', CHECKLIST_MESSAGES.linkExpired],
  ])('shows a %s refusal’s message', async (status, code, message) => {
    stubFetch({ [`GET ${API}`]: { status, body: { code, message } } });
    const { router } = renderApp({ path: PATH });
    expect(await screen.findByTestId('recommendation-refused', undefined, SLOW)).toHaveTextContent(
      message,
    );
    expect(screen.getByRole('heading', { name: 'This link cannot be used' })).toBeInTheDocument();
    expect(screen.queryByRole('form')).toBeNull();
    // Never the applicant's sign-in: the recommender has no account.
    expect(router.state.location.pathname).toBe(PATH);
  });

  it('refuses a link that is not one of ours without asking the server', async () => {
    const { calls } = stubFetch({});
    renderApp({ path: '/recommend/short' });
    expect(await screen.findByTestId('recommendation-refused', undefined, SLOW)).toHaveTextContent(
      CHECKLIST_MESSAGES.linkInvalid,
    );
    expect(calls.filter((call) => call.url.startsWith('/public/recommendations'))).toEqual([]);
  });

  it('checks the answers, then sends a typed letter with the counter and thanks the recommender', async () => {
    const { calls } = stubFetch({
      [`GET ${API}`]: { body: recommendationPage({ text_limit: 500 }) },
      [`POST ${API}`]: {
        body: { status: 'received', message: CHECKLIST_MESSAGES.letterReceived },
      },
    });
    const { user } = renderApp({ path: PATH });
    const form = await findForm();
    await user.type(
      within(form).getByLabelText(/How many years have you known the applicant\?/),
      '51',
    );
    await user.click(within(form).getByRole('button', { name: 'Submit recommendation' }));
    expect(
      within(form).getByText('Please enter a whole number of years from 0 to 50.'),
    ).toBeInTheDocument();
    expect(
      within(form).getByText('Please choose the capacity in which you know the applicant.'),
    ).toBeInTheDocument();
    expect(within(form).getByRole('alert')).toHaveTextContent(CHECKLIST_MESSAGES.letterMissing);
    expect(posts(calls)).toEqual([]);

    const years = within(form).getByLabelText(/How many years/);
    await user.clear(years);
    await user.type(years, '3');
    await user.selectOptions(within(form).getByLabelText(/In what capacity\?/), 'Teacher');
    await user.click(within(form).getByRole('radio', { name: 'Type the letter here' }));
    const letter = within(form).getByLabelText(/^Letter/);
    await user.type(letter, 'Ada is remarkable.');
    expect(within(form).getByTestId('character-count')).toHaveTextContent('18 of 500 characters');
    expect(letter).toHaveAttribute('maxlength', '500');
    await user.click(within(form).getByRole('button', { name: 'Submit recommendation' }));

    expect(await screen.findByTestId('recommendation-received', undefined, SLOW)).toHaveTextContent(
      CHECKLIST_MESSAGES.letterReceived,
    );
    expect(posts(calls)[0]?.body).toEqual({
      known_years: 3,
      capacity: 'Teacher',
      letter_text: 'Ada is remarkable.',
    });
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('uploads a letter, waits while it converts, shows a failed conversion’s message and takes another file', async () => {
    let page = recommendationPage();
    const { calls } = stubFetch({
      [`GET ${API}`]: () => ({ body: page }),
      [`POST ${API}`]: () => {
        // The server converts; the next reads say how that went.
        const first = posts(calls).length === 1;
        page = first
          ? recommendationPage({
              status: 'failed',
              message: 'The file could not be converted.',
            })
          : recommendationPage({ status: 'received', message: CHECKLIST_MESSAGES.letterReceived });
        return { body: { status: 'converting', message: CHECKLIST_MESSAGES.letterConverting } };
      },
    });
    const { user } = renderApp({ path: PATH });
    const form = await findForm();
    await user.type(within(form).getByLabelText(/How many years/), '2');
    await user.selectOptions(within(form).getByLabelText(/In what capacity\?/), 'Other');
    const input = within(form).getByLabelText('Letter file');
    await user.upload(input, new File(['PK-docx'], 'letter.docx'));
    expect(within(form).getByTestId('recommendation-file')).toHaveTextContent(
      'Chosen: letter.docx',
    );
    await user.click(within(form).getByRole('button', { name: 'Submit recommendation' }));

    expect(
      await screen.findByTestId('recommendation-converting', undefined, SLOW),
    ).toHaveTextContent(CHECKLIST_MESSAGES.letterConverting);
    expect(posts(calls)[0]?.body).toEqual({
      known_years: 2,
      capacity: 'Other',
      letter_file: { file_name: 'letter.docx', content_base64: btoa('PK-docx') },
    });

    // Polled until the conversion is done: it failed, and the form is back for another file.
    expect(await screen.findByTestId('recommendation-failed', undefined, SLOW)).toHaveTextContent(
      'The file could not be converted. Please upload the letter again.',
    );
    await findForm();
    // The answers stay; only the letter is chosen again.
    expect(within(form).getByLabelText(/How many years/)).toHaveValue(2);
    expect(within(form).getByLabelText(/In what capacity\?/)).toHaveValue('Other');
    expect(within(form).queryByTestId('recommendation-file')).toBeNull();
    await user.upload(within(form).getByLabelText('Letter file'), new File(['%PDF'], 'letter.pdf'));
    await user.click(within(form).getByRole('button', { name: 'Submit recommendation' }));
    expect(await screen.findByTestId('recommendation-received', undefined, SLOW)).toHaveTextContent(
      CHECKLIST_MESSAGES.letterReceived,
    );
    expect(posts(calls)).toHaveLength(2);
  });

  it('refuses a file the server would refuse, in the server’s words', async () => {
    const { calls } = stubFetch({ [`GET ${API}`]: { body: recommendationPage() } });
    const { user } = renderApp({ path: PATH });
    const form = await findForm();
    const big = new File([new Uint8Array(1024 * 1024 + 1)], 'letter.pdf');
    await user.upload(within(form).getByLabelText('Letter file'), big);
    expect(within(form).getByRole('alert')).toHaveTextContent(CHECKLIST_MESSAGES.fileTooLarge);
    expect(within(form).queryByTestId('recommendation-file')).toBeNull();
    expect(posts(calls)).toEqual([]);
  });

  it('says so when a letter was already submitted through the link', async () => {
    let submitted = false;
    stubFetch({
      [`GET ${API}`]: () => ({
        body: recommendationPage(
          submitted ? { status: 'received', message: CHECKLIST_MESSAGES.alreadySubmitted } : {},
        ),
      }),
      [`POST ${API}`]: () => {
        submitted = true;
        return {
          status: 409,
          body: { code: 'RECOMMENDATION_SUBMITTED', message: CHECKLIST_MESSAGES.alreadySubmitted },
        };
      },
    });
    const { user } = renderApp({ path: PATH });
    const form = await findForm();
    await user.type(within(form).getByLabelText(/How many years/), '1');
    await user.selectOptions(within(form).getByLabelText(/In what capacity\?/), 'Teacher');
    await user.click(within(form).getByRole('radio', { name: 'Type the letter here' }));
    await user.type(within(form).getByLabelText(/^Letter/), 'Hello.');
    await user.click(within(form).getByRole('button', { name: 'Submit recommendation' }));
    await waitFor(() =>
      expect(screen.getByTestId('recommendation-received')).toHaveTextContent(
        CHECKLIST_MESSAGES.alreadySubmitted,
      ),
    );
  });
});
