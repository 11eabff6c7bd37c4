import type { Locator, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  createAccount,
  expectPage,
  expectVisible,
  field,
  logInThroughApi,
  readSavedAnswers,
  uniqueEmail,
  waitForSaved,
} from '../support/applicant';
import type { A11yFindings } from '../support/applicant';
import { useBrowserSuite } from '../support/suite';
import type { RunningServer } from '../support/server';

// Issue 5 in the browser: the education page's "Search for Your School" against the real
// /lookup/find, which the embedded default fills from services/api/data-samples/ (fictional
// schools, CEEB codes 99xxxx). The schools below are rows of sample-high-schools.csv.
const LINCOLN = {
  name: 'Abraham Lincoln High School',
  ceeb: '990001',
  street: '1200 Prairie Avenue',
  city: 'Springfield',
  state: 'IL',
  stateName: 'Illinois',
  zip: '62701',
  country: 'USA',
};
const KONIGIN = {
  name: 'Königin-Luise-Gymnasium',
  ceeb: '990029',
  street: 'Schulstraße 12',
  city: 'Köln',
  zip: '50667',
  country: 'DEU',
};
const NOT_LISTED = 'Quillmoor Valley Homeschool Cooperative';

const SCHOOL_LABEL = 'Search for Your School';
// Two cores shared with other suites: every wait is generous, none is a sleep.
const WAIT_MS = 30_000;

let server: RunningServer;
let page: Page;
let a11y: A11yFindings;

useBrowserSuite({ name: 'lookup', waitMs: WAIT_MS }, (suite) => {
  ({ server, page, a11y } = suite);
});

// ---------------------------------------------------------------- helpers

/** A logged-in applicant on "Your Academics", where the first high-school section is open. */
async function openEducationPage(name: string): Promise<void> {
  const email = uniqueEmail(name);
  await createAccount(page, server, email);
  await logInThroughApi(page, email);
  await page.goto('/education');
  await expectPage(page, '/education', 'Your Academics');
}

/** The school search of the first high-school section (its wrapper carries the key `hs_name`). */
function schoolSearch(): Locator {
  return field(page, 'hs_name').getByLabel(SCHOOL_LABEL);
}

/** The suggestion list the search controls. */
function suggestions(): Locator {
  return field(page, 'hs_name').getByRole('listbox');
}

/**
 * Holds every /lookup/find search (not the record fetch) until `release` is called, so the
 * transient "Loading..." state can be seen without racing a fast server.
 */
async function holdSearches(): Promise<{ release: () => Promise<void> }> {
  const held: Route[] = [];
  let holding = true;
  await page.route(
    (url) => url.pathname === '/lookup/find' && url.searchParams.has('text'),
    async (route) => {
      if (holding) held.push(route);
      else await route.continue();
    },
  );
  return {
    release: async () => {
      holding = false;
      await Promise.all(held.splice(0).map((route) => route.continue()));
    },
  };
}

/**
 * The school's address fields as the applicant sees them. `state: null` means no State/Province
 * question at all: it is only asked for the USA and Canada.
 */
async function expectSchoolAddress(expected: {
  street: string;
  city: string;
  state: string | null;
  zip: string;
  country: string;
}): Promise<void> {
  await expect.poll(() => field(page, 'hs_city').inputValue()).toBe(expected.city);
  const state = field(page, 'hs_state');
  expect({
    street: await field(page, 'hs_address_line_1').inputValue(),
    city: await field(page, 'hs_city').inputValue(),
    state: (await state.count()) === 0 ? null : await state.inputValue(),
    zip: await field(page, 'hs_zip').inputValue(),
    country: await field(page, 'hs_country').inputValue(),
  }).toEqual(expected);
}

// ---------------------------------------------------------------- tests

describe('the high-school lookup on the education page', () => {
  it('finds a school from part of its name and fills its code and address', async () => {
    await openEducationPage('lookup');
    const search = schoolSearch();
    await expectVisible(search);
    expect(await search.inputValue()).toBe('');
    await a11y.check('/education (empty school search)');

    const gate = await holdSearches();
    await search.pressSequentially('lincoln hi', { delay: 30 });
    // docs/limits.md: the widget says it is searching while the request is out.
    await expectVisible(field(page, 'hs_name').getByText('Loading...', { exact: true }));
    await a11y.check('/education (school search loading)');
    await gate.release();

    const option = suggestions().getByRole('option', { name: new RegExp(`^${LINCOLN.name}`) });
    await expectVisible(option);
    expect(await field(page, 'hs_name').getByText('Loading...').count()).toBe(0);
    // Under the name: where the school is and its CEEB code.
    expect(await option.innerText()).toContain(`Springfield, IL · CEEB ${LINCOLN.ceeb}`);
    // The typed text is not a school name, so it is offered as free text after the matches.
    await expectVisible(suggestions().getByRole('option', { name: 'Use: lincoln hi' }));
    await a11y.check('/education (school suggestions)');

    await option.click();
    await expect.poll(() => search.inputValue()).toBe(LINCOLN.name);
    await expectSchoolAddress({
      street: LINCOLN.street,
      city: LINCOLN.city,
      state: LINCOLN.state,
      zip: LINCOLN.zip,
      country: LINCOLN.country,
    });
    // The state select shows the state's name, not only its code.
    expect(await field(page, 'hs_state').locator('option:checked').innerText()).toBe(
      LINCOLN.stateName,
    );
    expect(await suggestions().isVisible()).toBe(false);
    await waitForSaved(page);
    await a11y.check('/education (school picked)');

    // The CEEB code is not a visible field: it travels with the saved answers.
    expect(await readSavedAnswers(page)).toMatchObject({
      hs_name: LINCOLN.name,
      hs_ceeb: LINCOLN.ceeb,
      hs_address_line_1: LINCOLN.street,
      hs_city: LINCOLN.city,
      hs_state: LINCOLN.state,
      hs_zip: LINCOLN.zip,
      hs_country: LINCOLN.country,
    });

    // A reload shows the same school and address from the server.
    await page.reload();
    await expectPage(page, '/education', 'Your Academics');
    await expect.poll(() => schoolSearch().inputValue()).toBe(LINCOLN.name);
    await expectSchoolAddress({
      street: LINCOLN.street,
      city: LINCOLN.city,
      state: LINCOLN.state,
      zip: LINCOLN.zip,
      country: LINCOLN.country,
    });
    await a11y.expectNone('lookup-pick');
  });

  it('ignores accents and case, and picks a suggestion with the keyboard', async () => {
    await openEducationPage('lookup-keys');
    const search = schoolSearch();
    await search.click();
    await search.pressSequentially('KONIGIN LU', { delay: 30 });
    const option = suggestions().getByRole('option', { name: new RegExp(`^${KONIGIN.name}`) });
    await expectVisible(option);
    expect(await option.innerText()).toContain(`Köln, Germany · CEEB ${KONIGIN.ceeb}`);

    // The highlighted suggestion is announced through aria-activedescendant.
    await search.press('ArrowDown');
    const optionId = await option.getAttribute('id');
    expect(optionId).toBeTruthy();
    await expect.poll(() => search.getAttribute('aria-activedescendant')).toBe(optionId);
    await search.press('Enter');
    await expect.poll(() => search.inputValue()).toBe(KONIGIN.name);
    // Outside the USA and Canada there is no state to choose.
    await expectSchoolAddress({
      street: KONIGIN.street,
      city: KONIGIN.city,
      state: null,
      zip: KONIGIN.zip,
      country: KONIGIN.country,
    });
    await waitForSaved(page);
    expect(await readSavedAnswers(page)).toMatchObject({
      hs_name: KONIGIN.name,
      hs_ceeb: KONIGIN.ceeb,
      hs_city: KONIGIN.city,
      hs_country: KONIGIN.country,
    });
    await a11y.expectNone('lookup-keyboard');
  });

  it('keeps a school that is not in the list through "Use: …"', async () => {
    await openEducationPage('lookup-free');
    const search = schoolSearch();
    // One change, so one search: the state checked below is the final one.
    await search.fill(NOT_LISTED);

    await expectVisible(field(page, 'hs_name').getByText('No options', { exact: true }));
    const useTyped = suggestions().getByRole('option', { name: `Use: ${NOT_LISTED}` });
    await expectVisible(useTyped);
    expect(await suggestions().getByRole('option').count()).toBe(1);
    await a11y.check('/education (no school found)');

    await useTyped.click();
    expect(await suggestions().isVisible()).toBe(false);
    expect(await search.inputValue()).toBe(NOT_LISTED);
    // Nothing was looked up, so the address is left for the applicant to type.
    await expectSchoolAddress({ street: '', city: '', state: null, zip: '', country: '' });
    await field(page, 'hs_city').fill('Quillmoor');
    await field(page, 'hs_city').blur();
    await waitForSaved(page);

    const saved = await readSavedAnswers(page);
    expect(saved).toMatchObject({ hs_name: NOT_LISTED, hs_city: 'Quillmoor' });
    expect(saved.hs_ceeb ?? '').toBe('');
    await a11y.check('/education (free-text school)');
    await a11y.expectNone('lookup-free-text');
  });
});
