// docs/api.md document calls: presigned upload, conversion start/status/delete, document answers.
import {
  API_ROUTES,
  MESSAGES,
  type ConversionStatusResponse,
  type DocumentAnswersResponse,
  type MessageResponse,
  type PresignedUrlResponse,
} from '@admissions/api-contract';
import { ServerError } from './errors';
import { fetchJson } from './fetch-handler';

const conversionUrl = (answerKey: string) =>
  API_ROUTES.documentConversion.replace(':key', encodeURIComponent(answerKey));
const documentUrl = (answerKey: string) =>
  API_ROUTES.documentAnswer.replace(':key', encodeURIComponent(answerKey));

export const documentQueryKeys = {
  answers: ['document-answer'] as const,
  conversion: (answerKey: string) => ['document-conversion', answerKey] as const,
};

export function getPresignedUrl(answerKey: string): Promise<PresignedUrlResponse> {
  return fetchJson(API_ROUTES.presignedUrl, 'POST', { answer_key: answerKey });
}

/**
 * POSTs the file with the presigned fields as multipart form data (docs/api.md). This is the one call
 * that is not JSON, so it cannot go through fetchJson; its errors read the same way.
 */
export async function uploadToPresignedUrl(
  presigned: PresignedUrlResponse,
  file: File,
): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(presigned.url, {
      method: 'POST',
      body: form,
      credentials: 'same-origin',
    });
  } catch {
    throw new ServerError(MESSAGES.unexpected, 0);
  }
  if (response.ok) return;
  let message: string = MESSAGES.unexpected;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      const body = (await response.json()) as { message?: unknown };
      if (typeof body.message === 'string' && body.message) message = body.message;
    } catch {
      // Keep the generic message.
    }
  }
  throw new ServerError(message, response.status);
}

export function startConversion(
  answerKey: string,
  fileKey: string,
  fileName: string,
): Promise<ConversionStatusResponse> {
  return fetchJson(conversionUrl(answerKey), 'POST', { file_key: fileKey, file_name: fileName });
}

export function getConversionStatus(answerKey: string): Promise<ConversionStatusResponse> {
  return fetchJson(conversionUrl(answerKey), 'GET');
}

export function deleteConversion(answerKey: string): Promise<MessageResponse> {
  return fetchJson(conversionUrl(answerKey), 'DELETE');
}

export function getDocumentAnswers(): Promise<DocumentAnswersResponse> {
  return fetchJson(API_ROUTES.documentAnswers, 'GET');
}

export function deleteDocumentAnswer(answerKey: string): Promise<MessageResponse> {
  return fetchJson(documentUrl(answerKey), 'DELETE');
}
