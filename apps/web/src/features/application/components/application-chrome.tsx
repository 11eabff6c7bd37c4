import type { ReactNode } from 'react';
import { useClosedMessage } from '../state/application-context';
import { MissingSummary } from './missing-summary';
import { RoundClosedBanner } from './round-closed-banner';
import { StepNav } from './step-nav';
import { WelcomeBanner } from './welcome-banner';

/**
 * What the frame shows above every form page. The app hands in the rounds' parts (issue #29):
 * `deadline` while the application can change, `whenClosed` below the closed round's message.
 */
export function ApplicationChrome({
  deadline,
  whenClosed,
}: {
  deadline?: ReactNode;
  whenClosed?: ReactNode;
}) {
  const closed = useClosedMessage() !== null;
  return (
    <>
      <StepNav />
      {closed ? <RoundClosedBanner>{whenClosed}</RoundClosedBanner> : deadline}
      <WelcomeBanner />
      <MissingSummary />
    </>
  );
}
