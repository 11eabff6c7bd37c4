import type { ServicePrintResponse } from '@admissions/api-contract';
import { formatApplicantName, maskIdentifier, resolveChosenTabs } from '@admissions/answer-view';
import {
  APPLICATION_DEFINITION,
  IDENTIFIER_ANSWER_KEYS,
  clearHiddenAnswers,
  type PartnerConfig,
} from '@admissions/form';
import type { ApplicationSnapshot } from './read-application';
import { buildPrintView, listShownKeys } from './render-application';
import type { PdfShownKeys } from './schema';

const IDENTIFIER_KEYS: ReadonlySet<string> = new Set(IDENTIFIER_ANSWER_KEYS);

/**
 * The documented fields of GET /service/tmp-pdf: the answers the print view may show (hidden ones
 * left out, as the view leaves them out; empty ones dropped), the SSN and alien registration
 * number masked as printed ("***-**-6789"), the add-another counts, the documents and each tab
 * group's effective choice.
 */
function buildDocumentedFields(
  snapshot: ApplicationSnapshot,
): Pick<ServicePrintResponse, 'answer' | 'add_another' | 'document_answer' | 'tabs'> {
  const tabs = resolveChosenTabs(APPLICATION_DEFINITION, snapshot.answers, snapshot.tabs);
  const visible = clearHiddenAnswers(APPLICATION_DEFINITION, snapshot.answers, { tabs });
  const answer: Record<string, string> = {};
  for (const [key, value] of Object.entries(visible)) {
    if (typeof value !== 'string' || value === '') continue;
    answer[key] = IDENTIFIER_KEYS.has(key) ? maskIdentifier(value) : value;
  }
  return {
    answer,
    add_another: { ...snapshot.addAnother },
    document_answer: Object.fromEntries(
      snapshot.documents.map((d) => [
        d.answerKey,
        { file_name: d.fileName, file_size: d.fileSize },
      ]),
    ),
    tabs,
  };
}

/**
 * GET /service/tmp-pdf's body: the documented fields, and beside them the finished view model,
 * built here once as for the staff PDF, which the SPA's print view lays out. Only what the view
 * may show leaves, with the sealed answers masked, so staff see that an SSN was given, not its
 * value. `shown` lists every answer key the body carries, for the audit.
 */
export function buildServicePrint(
  snapshot: ApplicationSnapshot,
  partner: PartnerConfig,
): { print: ServicePrintResponse; shown: PdfShownKeys } {
  const view = buildPrintView(snapshot, partner, 'service');
  const documented = buildDocumentedFields(snapshot);
  const shown = listShownKeys(view);
  return {
    print: {
      ...documented,
      view,
      applicant: {
        name: formatApplicantName(snapshot.answers) || snapshot.email,
        application_id: snapshot.applicationId,
        email: snapshot.email,
        submitted_at: snapshot.submittedAt?.toISOString() ?? null,
      },
    },
    shown: {
      answers: [...new Set([...shown.answers, ...Object.keys(documented.answer)])],
      documents: [...new Set([...shown.documents, ...Object.keys(documented.document_answer)])],
    },
  };
}
