import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@admissions/api-contract';
import { formatPasteCut } from '@admissions/form';
import type { ProfileResponse } from '@admissions/api-contract';
import {
  findPlaceLookupPrefix,
  mapAddressRecord,
  mapLookupRecord,
} from '../src/features/application/inputs/autocomplete-field';
import { setServiceUser } from '../src/shared/lib/session';
import { MARKER_COOKIE, setLoginMarker, stubFetch, type RecordedCall } from './support/fetch-stub';
import { PROFILE } from './support/profile';
import { findCompleteFormPage, renderApp } from './support/render-app';
import { SLOW } from './support/slow';

const started = [{ web_status: 'started' }];

function profile(change: Partial<ProfileResponse>): ProfileResponse {
  return { ...PROFILE, web_status: started, ...change };
}

const callsTo = (calls: RecordedCall[], method: string, url: string) =>
  calls.filter((c) => c.method === method && c.url.startsWith(url)).map((c) => c.body);

const SCHOOL = {
  id: '142310',
  name: 'Springfield High School',
  ceeb: '142310',
  address_line_1: '101 School Road',
  city: 'Springfield',
  state: 'IL',
  state_desc: 'Illinois',
  zip: '62702',
  country: 'USA',
  country_desc: 'United States of America',
};

describe('the lookup autocomplete', () => {
  it('maps a school record onto the block’s answers, country before state', () => {
    expect(mapLookupRecord('hs_2_name', 'hs_2_ceeb', SCHOOL)).toEqual([
      ['hs_2_name', 'Springfield High School'],
      ['hs_2_ceeb', '142310'],
      ['hs_2_address_line_1', '101 School Road'],
      ['hs_2_city', 'Springfield'],
      ['hs_2_country', 'USA'],
      ['hs_2_state', 'IL'],
      ['hs_2_zip', '62702'],
    ]);
  });

  it('completes a place without erasing the typed street, and only the fields it knows', () => {
    const place = {
      id: 'city:IL:Springfield',
      city: 'Springfield',
      state: 'IL',
      state_desc: 'Illinois',
      zip: '',
      country: 'USA',
      country_desc: 'United States of America',
    };
    const typed = { address_line_1: '742 Evergreen Terrace', zip: '627' };
    expect(mapAddressRecord('', place, typed)).toEqual([
      ['city', 'Springfield'],
      ['country', 'USA'],
      ['state', 'IL'],
    ]);
    // A record with a street (an institution's address file) fills the line only while empty.
    const withStreet = { ...place, address_line_1: '1 Main St', zip: '62701' };
    expect(mapAddressRecord('', withStreet, typed)).not.toContainEqual([
      'address_line_1',
      '1 Main St',
    ]);
    expect(mapAddressRecord('', withStreet, {})).toContainEqual(['address_line_1', '1 Main St']);
    expect(mapAddressRecord('', withStreet, typed)).toContainEqual(['zip', '62701']);
    // Only the permanent address looks places up; other cities and ZIPs are plain text.
    expect(findPlaceLookupPrefix('city')).toBe('');
    expect(findPlaceLookupPrefix('zip')).toBe('');
    expect(findPlaceLookupPrefix('mailing_city')).toBeUndefined();
    expect(findPlaceLookupPrefix('birth_city')).toBeUndefined();
  });

  it('fills the school and its address from a picked suggestion', async () => {
    stubFetch({
      'GET /lookup/find': (call) => ({
        body: call.url.includes('id=')
          ? SCHOOL
          : [{ id: '142310', text: 'Springfield High School', sub_text: 'Springfield, IL' }],
      }),
    });
    const { user } = renderApp({ path: '/education' });
    const search = await screen.findByRole('textbox', { name: 'Search for Your School' }, SLOW);
    await user.type(search, 'Spring');
    await user.click(await screen.findByText('Springfield High School', undefined, SLOW));
    await waitFor(() =>
      expect(document.querySelector<HTMLInputElement>('#hs_city')?.value).toBe('Springfield'),
    );
    expect(document.querySelector<HTMLSelectElement>('#hs_state')?.value).toBe('IL');
    expect(search).toHaveValue('Springfield High School');
  });

  // The ZIP field is uncontrolled (@mantine/form) and nothing else about it changes here (the
  // country was already the U.S.): only its form key brings the picked place's ZIP into it.
  it('writes a picked place’s ZIP into the ZIP field', async () => {
    setLoginMarker();
    const place = {
      id: 'city:IL:Springfield',
      city: 'Springfield',
      state: 'IL',
      state_desc: 'Illinois',
      zip: '62701',
      country: 'USA',
      country_desc: 'United States of America',
    };
    const { calls } = stubFetch({
      'GET /api/profile': {
        body: profile({ answer: { country: 'USA', country_desc: 'United States of America' } }),
      },
      'GET /lookup/find': (call) => ({
        body: call.url.includes('id=')
          ? place
          : [{ id: place.id, text: 'Springfield, IL 62701', sub_text: 'United States' }],
      }),
    });
    const { user } = renderApp({ path: '/about' });
    const city = await screen.findByRole('textbox', { name: /^City/ }, SLOW);
    await user.type(city, 'Spring');
    await user.click(await screen.findByRole('option', { name: /Springfield, IL 62701/ }, SLOW));
    await waitFor(() =>
      expect(document.querySelector<HTMLInputElement>('#zip')?.value).toBe('62701'),
    );
    expect(document.querySelector<HTMLSelectElement>('#state')?.value).toBe('IL');
    await waitFor(() =>
      expect(callsTo(calls, 'PUT', '/api/answer')).toContainEqual(
        expect.objectContaining({ zip: '62701', state: 'IL' }),
      ),
    );
  });
});

describe('add-another and tabs', () => {
  it('adds a high school block for a logged-in applicant and stores the count', async () => {
    setLoginMarker();
    const { calls } = stubFetch({
      'GET /api/profile': { body: profile({}) },
      'PUT /api/add-another': { body: { message: 'Saved.' } },
    });
    const { user } = renderApp({ path: '/education' });
    const add = await screen.findByRole('button', { name: 'Add Another High School' }, SLOW);
    const before = screen.getAllByRole('textbox', { name: 'Search for Your School' }).length;
    await user.click(add);
    await waitFor(() =>
      expect(screen.getAllByRole('textbox', { name: 'Search for Your School' })).toHaveLength(
        before + 1,
      ),
    );
    expect(callsTo(calls, 'PUT', '/api/add-another')).toEqual([
      { button_id: 'high_schools', num_components: 2 },
    ]);
  });

  it('switches a statement to the essay tab, with its counter', async () => {
    setLoginMarker();
    const { calls } = stubFetch({
      'GET /api/profile': { body: profile({}) },
      'PUT /api/tabs': { body: { message: 'Saved.' } },
    });
    const { user } = renderApp({ path: '/education' });
    await findCompleteFormPage();
    const tabs = screen.getAllByRole('tab', { name: 'Type Your Response' });
    await user.click(tabs[tabs.length - 1] as HTMLElement);
    expect(callsTo(calls, 'PUT', '/api/tabs')).toEqual([
      { tab_id: 'personal_statement', chosen_tab: 'essay' },
    ]);
    const panel = await screen.findByRole('tabpanel');
    expect(within(panel).getByText('Character count: 0 / 7000')).toBeInTheDocument();
  });
});

describe('pasting into a text area', () => {
  // Issue 17: a 10,000-character essay pasted into a 7000-character box lost its last 3000
  // characters with nothing said.
  it('says how much of a paste that did not fit was left out', async () => {
    setLoginMarker();
    const { calls } = stubFetch({
      'GET /api/profile': { body: profile({}) },
      'PUT /api/tabs': { body: { message: 'Saved.' } },
    });
    const { user } = renderApp({ path: '/education' });
    await findCompleteFormPage();
    const tabs = screen.getAllByRole('tab', { name: 'Type Your Response' });
    await user.click(tabs[tabs.length - 1] as HTMLElement);
    const panel = await screen.findByRole('tabpanel');
    const essay = within(panel).getByRole('textbox');
    await user.click(essay);
    await user.paste('a'.repeat(10_000));
    expect(essay).toHaveAccessibleDescription(expect.stringContaining(formatPasteCut(7000, 3000)));
    // A paste that fits says nothing.
    await user.clear(essay);
    await user.paste('b'.repeat(100));
    expect(within(panel).queryByText(/were left out/)).not.toBeInTheDocument();
    // Saved on blur, so no save of this test is still on its way when the next one starts.
    await user.tab();
    await waitFor(() =>
      expect(callsTo(calls, 'PUT', '/api/answer')).toContainEqual({
        personal_statement_essay: 'b'.repeat(100),
      }),
    );
  });
});

describe('leaving with unsaved text', () => {
  it('saves what is being typed before the idle logout', async () => {
    setLoginMarker();
    const order: string[] = [];
    stubFetch({
      'GET /api/profile': {
        body: profile({ answer: { conviction: 'Y', conviction_desc: 'Yes' } }),
      },
      'PUT /api/answer': (call) => {
        order.push(`answer ${JSON.stringify(call.body)}`);
        return { body: { message: MESSAGES.answersSaved } };
      },
      'GET /api/logout': () => {
        order.push('logout');
        return {
          body: { message: MESSAGES.loggedOut },
          effect: () => {
            document.cookie = `${MARKER_COOKIE}=; Max-Age=0; Path=/`;
          },
        };
      },
    });
    const { user } = renderApp({
      path: '/final-steps',
      idleConfig: { timeoutMs: 1200, warningMs: 200, tickMs: 20 },
    });
    const comment = await screen.findByRole('textbox', {}, SLOW);
    await user.type(comment, 'Late');
    expect(await screen.findByTestId('error-message', undefined, SLOW)).toHaveTextContent(
      MESSAGES.idleLogout,
    );
    expect(order).toEqual(['answer {"conviction_comment":"Late"}', 'logout']);
  });
});

describe('a frozen application', () => {
  it('goes to /completion when a save answers 409 (submitted in another tab)', async () => {
    setLoginMarker();
    stubFetch({
      'GET /api/profile': { body: profile({}) },
      'PUT /api/answer': { status: 409, body: { message: MESSAGES.alreadySubmitted } },
    });
    const { user, router } = renderApp({ path: '/final-steps' });
    await user.click(await screen.findByRole('checkbox', {}, SLOW));
    expect(await screen.findByText(MESSAGES.submitted, undefined, SLOW)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/completion');
  });
});

describe('tabs and uploads', () => {
  it('refuses to leave a tab whose file is still converting', async () => {
    setLoginMarker();
    const { calls } = stubFetch({
      'GET /api/profile': { body: profile({}) },
      'GET /api/pdf/document-answer/personal_statement_doc': {
        body: { status: 'IN_PROGRESS', message: '' },
      },
    });
    const { user } = renderApp({ path: '/education' });
    await screen.findByTestId('upload-converting', undefined, SLOW);
    const tabs = screen.getAllByRole('tab', { name: 'Type Your Response' });
    await user.click(tabs[tabs.length - 1] as HTMLElement);
    expect(
      await screen.findByRole('dialog', { name: 'File Upload in Progress' }, SLOW),
    ).toHaveTextContent('Please wait until the file upload has completed.');
    expect(callsTo(calls, 'PUT', '/api/tabs')).toEqual([]);
  });
});

describe('per-field errors while validating', () => {
  it('marks a select invalid and combines a month-year’s errors under both selects', async () => {
    setLoginMarker();
    stubFetch({
      'GET /api/profile': {
        body: profile({
          web_status: [{ web_status: 'started' }, { web_status: 'validating' }],
          answer: { hs_attend_from_month: '9', hs_attend_from_month_desc: 'September' },
        }),
      },
    });
    renderApp({ path: '/education' });
    await screen.findByTestId('missing-summary', undefined, SLOW);
    await findCompleteFormPage();
    const term = document.querySelector<HTMLSelectElement>('#entry_term');
    expect(term).toHaveAttribute('aria-invalid', 'true');
    expect(term).toHaveAccessibleDescription('When do you plan to enroll?');
    const month = document.querySelector('#hs_attend_from_month');
    const year = document.querySelector('#hs_attend_from_year');
    for (const select of [month, year]) {
      expect(select).toHaveAttribute('aria-invalid', 'true');
      expect(select).toHaveAccessibleDescription(/Please choose both a month and a year\./);
    }
  });
});

describe('the service-user view', () => {
  it('has no step navigation and no account popover', async () => {
    setLoginMarker();
    setServiceUser(true);
    try {
      stubFetch({ 'GET /api/profile': { body: profile({}) } });
      renderApp({ path: '/final-steps' });
      await screen.findByRole('heading', { level: 1, name: 'Final Steps' }, SLOW);
      expect(screen.queryByRole('navigation', { name: 'Application steps' })).toBeNull();
      expect(screen.queryByRole('button', { name: /Account/ })).toBeNull();
    } finally {
      setServiceUser(false);
    }
  });
});
