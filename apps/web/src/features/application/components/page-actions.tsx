import { useState } from 'react';
import { Button } from '@mantine/core';
import type { PageId } from '@admissions/form';
import { PATHS } from '../../../config/paths';
import { useApplicationActions } from '../state/application-context';
import { SaveStatus } from './save-status';
import { FinalStepsChecklist } from './final-steps-checklist';
import classes from './application-page.module.css';

// docs/screens-and-routes.md default sizes of the page action buttons.
export const SAVE_BUTTON_SIZE = { w: '15rem', h: '3rem' } as const;
export const SUBMIT_BUTTON_SIZE = { w: '10rem', h: '3rem' } as const;

function useBusy() {
  const [busy, setBusy] = useState(false);
  const run = (work: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    void work().finally(() => setBusy(false));
  };
  return [busy, run] as const;
}

/** Saves, then moves to `target` (if any). */
export function SaveButton({ target, label }: { target?: string; label: string }) {
  const actions = useApplicationActions();
  const [busy, run] = useBusy();
  return (
    <Button {...SAVE_BUTTON_SIZE} loading={busy} onClick={() => run(() => actions.save(target))}>
      {label}
    </Button>
  );
}

export function SubmitButton({ defaultRoute }: { defaultRoute?: string }) {
  const actions = useApplicationActions();
  const [busy, run] = useBusy();
  return (
    <Button
      {...SUBMIT_BUTTON_SIZE}
      loading={busy}
      onClick={() => run(() => actions.submit(defaultRoute))}
    >
      Submit
    </Button>
  );
}

/** The page-change button: like a step link, it saves, validates and moves on. */
export function ValidateButton({ target, label }: { target: string; label: string }) {
  const actions = useApplicationActions();
  const [busy, run] = useBusy();
  return (
    <Button
      variant="outline"
      {...SAVE_BUTTON_SIZE}
      loading={busy}
      onClick={() => run(() => actions.goToPage(target))}
    >
      {label}
    </Button>
  );
}

const NEXT: Readonly<Record<PageId, string | undefined>> = {
  about: PATHS.education,
  education: PATHS.finalSteps,
  'final-steps': undefined,
};

export function PageActions({ pageId }: { pageId: PageId }) {
  const next = NEXT[pageId];
  return (
    <>
      <div className={classes.actions}>
        <SaveStatus />
        {next ? (
          <SaveButton target={next} label="Save and Continue" />
        ) : (
          <>
            <SaveButton label="Save" />
            <SubmitButton />
          </>
        )}
      </div>
      {/* Issue #30: the checklist and the recommenders, below the questions and their buttons:
          the certification is followed by Save and Submit as before (a keyboard goes from the
          last answer to Submit), and inviting recommenders is not a step of submitting. */}
      {pageId === 'final-steps' && <FinalStepsChecklist />}
    </>
  );
}
