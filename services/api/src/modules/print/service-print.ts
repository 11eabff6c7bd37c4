import type { ServicePrintResponse } from '@admissions/api-contract';
import {
  APPLICATION_DEFINITION,
  IDENTIFIER_ANSWER_KEYS,
  clearHiddenAnswers,
} from '@admissions/form';
import { formatApplicantName, maskIdentifier, resolveChosenTabs } from '@admissions/answer-view';
import type { ApplicationSnapshot } from './read-application';

/**
 * GET /service/tmp-pdf's body. Only what the print view can show leaves: answers hidden by other
 * answers are dropped (as the view drops them), and the identifiers are masked ("***-**-6789",
 * as the print view and the PDF show them), so staff see that an SSN was given, not its value.
 */
export function buildServicePrint(snapshot: ApplicationSnapshot): ServicePrintResponse {
  const tabs = resolveChosenTabs(APPLICATION_DEFINITION, snapshot.answers, snapshot.tabs);
  const visible = clearHiddenAnswers(APPLICATION_DEFINITION, snapshot.answers, { tabs });
  const answer: Record<string, string> = {};
  for (const [key, value] of Object.entries(visible)) {
    if (value === '') continue;
    answer[key] = IDENTIFIER_ANSWER_KEYS.includes(key) ? maskIdentifier(value) : value;
  }
  return {
    answer,
    add_another: snapshot.addAnother,
    document_answer: Object.fromEntries(
      snapshot.documents.map((d) => [
        d.answerKey,
        { file_name: d.fileName, file_size: d.fileSize },
      ]),
    ),
    tabs,
    applicant: {
      name: formatApplicantName(snapshot.answers) || snapshot.email,
      application_id: snapshot.userId,
      email: snapshot.email,
      submitted_at: snapshot.submittedAt?.toISOString() ?? null,
    },
  };
}
