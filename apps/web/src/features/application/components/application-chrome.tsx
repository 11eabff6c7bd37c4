import { MissingSummary } from './missing-summary';
import { StepNav } from './step-nav';
import { WelcomeBanner } from './welcome-banner';

/** What the frame shows above every form page. */
export function ApplicationChrome() {
  return (
    <>
      <StepNav />
      <WelcomeBanner />
      <MissingSummary />
    </>
  );
}
