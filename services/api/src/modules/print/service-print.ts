import type { ServicePrintResponse } from '@admissions/api-contract';
import { formatApplicantName } from '@admissions/answer-view';
import type { PartnerConfig } from '@admissions/form';
import type { ApplicationSnapshot } from './read-application';
import { buildPrintView, listShownKeys } from './render-application';
import type { PdfShownKeys } from './schema';

/**
 * GET /service/tmp-pdf's body: the finished view model, built here once as for the staff PDF.
 * Only what the view shows leaves: answers hidden by other answers are left out, and the sealed
 * answers are masked ("***-**-6789"), so staff see that an SSN was given, not its value. `shown`
 * lists the keys it shows, for the audit.
 */
export function buildServicePrint(
  snapshot: ApplicationSnapshot,
  partner: PartnerConfig,
): { print: ServicePrintResponse; shown: PdfShownKeys } {
  const view = buildPrintView(snapshot, partner, 'service');
  return {
    print: {
      view,
      applicant: {
        name: formatApplicantName(snapshot.answers) || snapshot.email,
        application_id: snapshot.userId,
        email: snapshot.email,
        submitted_at: snapshot.submittedAt?.toISOString() ?? null,
      },
    },
    shown: listShownKeys(view),
  };
}
