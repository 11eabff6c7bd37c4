import { Profiler, type ProfilerOnRenderCallback } from 'react';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ProfileResponse } from '@admissions/api-contract';
import type {
  InputComponent,
  InputProps,
  InputRegistry,
} from '../src/features/application/inputs/input-props';
import type * as Registry from '../src/features/application/inputs/registry';
import { setLoginMarker, stubFetch } from './support/fetch-stub';
import { PROFILE } from './support/profile';
import { findCompleteFormPage, renderApp } from './support/render-app';
import { SLOW } from './support/slow';

/** Commits per question, keyed by question key; filled by one <Profiler> around each question. */
const commits = new Map<string, number>();

const countCommit: ProfilerOnRenderCallback = (id) => {
  commits.set(id, (commits.get(id) ?? 0) + 1);
};

// Every question's input, whatever its type, is rendered inside a Profiler named by its key:
// React calls onRender for each commit in which anything in that question's subtree rendered.
vi.mock('../src/features/application/inputs/registry', async (importOriginal) => {
  const { INPUT_REGISTRY } = await importOriginal<typeof Registry>();
  const profiled = (Input: InputComponent): InputComponent =>
    function ProfiledInput(props: InputProps) {
      return (
        <Profiler id={props.question.key} onRender={countCommit}>
          <Input {...props} />
        </Profiler>
      );
    };
  const wrapped = Object.fromEntries(
    Object.entries(INPUT_REGISTRY).map(([type, Input]) => [type, profiled(Input)]),
  ) as unknown as InputRegistry;
  return { INPUT_REGISTRY: wrapped };
});

function otherQuestionCommits(changed: readonly string[]): Record<string, number> {
  return Object.fromEntries([...commits].filter(([key]) => !changed.includes(key)));
}

async function openAboutYou(profile: ProfileResponse | undefined) {
  if (profile) {
    setLoginMarker();
    stubFetch({ 'GET /api/profile': { body: profile } });
  } else {
    stubFetch({});
  }
  const view = renderApp({ path: '/about' });
  await screen.findByRole('heading', { level: 1, name: 'About You' }, SLOW);
  // The page's sections are revealed one per transition: count only once all are in.
  await findCompleteFormPage();
  // Let the start-up work (web status, last page) settle before counting.
  await waitFor(() => expect(document.getElementById('first_name')).toBeInTheDocument());
  await new Promise((resolve) => setTimeout(resolve, 50));
  return view;
}

describe('keystrokes on /about (issue 16)', () => {
  it('re-render only the question typed into, not the rest of the page', async () => {
    const { user } = await openAboutYou({ ...PROFILE, web_status: [{ web_status: 'started' }] });
    const field = document.getElementById('first_name') as HTMLInputElement;
    const questionsOnPage = commits.size;
    // The page shows dozens of questions; each has rendered once.
    expect(questionsOnPage).toBeGreaterThan(20);
    commits.clear();

    await user.type(field, 'Ruth');

    expect(field).toHaveValue('Ruth');
    // The field is uncontrolled (@mantine/form): the input holds the text and the form its value,
    // so not even the question typed into renders again (a controlled field: once per key) …
    expect(commits.get('first_name') ?? 0).toBe(0);
    // … and no other question on the page does.
    expect(otherQuestionCommits(['first_name'])).toEqual({});
  });

  it('re-render only the question typed into for an anonymous visitor too', async () => {
    const { user } = await openAboutYou(undefined);
    commits.clear();
    const field = document.getElementById('last_name') as HTMLInputElement;
    await user.type(field, 'Okafor');
    expect(field).toHaveValue('Okafor');
    expect(commits.get('last_name') ?? 0).toBe(0);
    expect(otherQuestionCommits(['last_name'])).toEqual({});
  });

  it('re-render a question whose rule reads the changed answer once, when its rule flips', async () => {
    const { user } = await openAboutYou({ ...PROFILE, web_status: [{ web_status: 'started' }] });
    const homeLabel = () => document.querySelector('label[for="phone_home"]')?.textContent;
    // docs/validation.md: the home phone is required unless a cell or international number is
    // given; its asterisk says so.
    expect(homeLabel()).toMatch(/\*$/);
    commits.clear();

    await user.type(document.getElementById('phone_mobile') as HTMLInputElement, '555');

    expect(homeLabel()).toBe('Home Phone');
    // The typed number is formatted in its input, and saved as formatted.
    expect(document.getElementById('phone_mobile')).toHaveValue('(555');
    expect(commits.get('phone_mobile') ?? 0).toBe(0);
    expect(commits.get('phone_home')).toBe(1);
    expect(otherQuestionCommits(['phone_mobile', 'phone_home'])).toEqual({});
  });
});
