import {
  MESSAGES,
  type ApplicationPdfResponse,
  type ConversionStatus,
} from '@admissions/api-contract';
import { queryOptions, useQuery, type Query } from '@tanstack/react-query';
import { ServerError } from '../../../shared/api/errors';
import { callApi } from '../../../shared/api/call-api';

/** docs/behaviour.md, docs/limits.md: every 1000 ms until the first final result, then every 600000 ms. */
export const PDF_POLL_MS = 1000;
export const PDF_SETTLED_POLL_MS = 600_000;

const PENDING: readonly ConversionStatus[] = ['UNPROCESSED', 'IN_PROGRESS'];

export function isPdfPending(status: ConversionStatus | undefined): boolean {
  return status === undefined || PENDING.includes(status);
}

/** docs/api.md GET /api/pdf. A FAILED status raises an error with the returned message (docs/behaviour.md). */
export async function getApplicationPdf(): Promise<ApplicationPdfResponse> {
  const pdf = await callApi('GET /api/pdf');
  if (pdf.status === 'FAILED') throw new ServerError(pdf.message || MESSAGES.unexpected, 200);
  return pdf;
}

/**
 * Fast while the PDF is being made, slow once it is ready or failed. The slow poll keeps the
 * short-lived download link fresh; a result that goes back to pending (a new version being made)
 * polls fast again rather than leaving the button spinning for ten minutes.
 */
export function pdfRefetchInterval(
  query: Pick<Query<ApplicationPdfResponse, Error>, 'state'>,
): number {
  const { status, data } = query.state;
  if (status === 'error') return PDF_SETTLED_POLL_MS;
  return isPdfPending(data?.status) ? PDF_POLL_MS : PDF_SETTLED_POLL_MS;
}

export function applicationPdfQueryOptions() {
  return queryOptions({
    queryKey: ['application-pdf'],
    queryFn: getApplicationPdf,
    refetchInterval: pdfRefetchInterval,
    // A failure is a toast beside the button, not the error screen.
    throwOnError: false,
  });
}

export function useApplicationPdf() {
  return useQuery(applicationPdfQueryOptions());
}
