// docs/api.md document calls: presigned upload, conversion start/status/delete, document answers.
import {
  MESSAGES,
  type ConversionStatusResponse,
  type DocumentAnswersResponse,
  type MessageResponse,
  type PresignedUrlResponse,
} from '@admissions/api-contract';
import { ServerError } from '../../../shared/api/errors';
import { callApi } from '../../../shared/api/call-api';

export function getPresignedUrl(answerKey: string): Promise<PresignedUrlResponse> {
  return callApi('POST /api/presigned-url', { body: { answer_key: answerKey } });
}

/**
 * POSTs the file with the presigned fields as multipart form data (docs/api.md). This is the one call
 * that is not JSON, so it cannot go through callApi; its errors read the same way.
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
  return callApi('POST /api/pdf/document-answer/:key', {
    params: { key: answerKey },
    body: { file_key: fileKey, file_name: fileName },
  });
}

export function getConversionStatus(answerKey: string): Promise<ConversionStatusResponse> {
  return callApi('GET /api/pdf/document-answer/:key', { params: { key: answerKey } });
}

export function deleteConversion(answerKey: string): Promise<MessageResponse> {
  return callApi('DELETE /api/pdf/document-answer/:key', { params: { key: answerKey } });
}

export function getDocumentAnswers(): Promise<DocumentAnswersResponse> {
  return callApi('GET /api/document-answer');
}

export function deleteDocumentAnswer(answerKey: string): Promise<MessageResponse> {
  return callApi('DELETE /api/document-answer/:key', { params: { key: answerKey } });
}
