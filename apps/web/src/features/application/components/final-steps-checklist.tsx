// Final Steps shows the checklist (issue #30) below its questions, so recommenders can be invited
// before submit. It comes with the page's sections (page-body.ts), itself loaded on demand: none
// of it weighs on a form page's first visit.
import { lazy, Suspense } from 'react';
import { useAnswerValue, useIsLoggedIn, useSaveState } from '../state/application-context';

const ApplicantChecklist = lazy(() =>
  import('../../checklist').then((module) => ({ default: module.ApplicantChecklist })),
);

/** The FERPA question: its answer goes with every invitation (packages/form, Final Steps). */
const FERPA_KEY = 'counselor_waiver_request';

export function FinalStepsChecklist() {
  // A visitor without an account has no checklist (and the call would end in /login).
  if (!useIsLoggedIn()) return null;
  return <LoggedInChecklist />;
}

function LoggedInChecklist() {
  const ferpa = useAnswerValue(FERPA_KEY);
  const saveState = useSaveState();
  // The server reads the saved answer: hand it over once saving is done.
  const saved = saveState === 'saved' || saveState === 'idle' ? ferpa : undefined;
  return (
    <Suspense fallback={null}>
      <ApplicantChecklist place="final-steps" ferpaAnswer={saved} />
    </Suspense>
  );
}
