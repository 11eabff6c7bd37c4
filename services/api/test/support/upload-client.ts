// Drives the document flow the way the SPA does: presigned URL, multipart POST, start, poll.
import { randomBytes } from 'node:crypto';
import type { ConversionStatusResponse, PresignedUrlResponse } from '@admissions/api-contract';
import type { TestRuntime } from './test-runtime';

export function multipartBody(
  fields: Record<string, string>,
  file: { name: string; bytes: Uint8Array } | null,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export function createUploadClient(t: TestRuntime) {
  const api = (
    jar: Record<string, string>,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ) => t.request({ method, url, body, cookies: jar });

  return {
    api,
    async presign(jar: Record<string, string>, answerKey: string): Promise<PresignedUrlResponse> {
      const response = await api(jar, 'POST', '/api/presigned-url', { answer_key: answerKey });
      if (response.statusCode !== 200) throw new Error(`presign: ${response.body}`);
      return response.json();
    },
    post(
      url: string,
      fields: Record<string, string>,
      file: { name: string; bytes: Uint8Array } | null,
    ) {
      const { payload, headers } = multipartBody(fields, file);
      return t.runtime.app.inject({ method: 'POST', url, payload, headers });
    },
    /** Presign, upload and start; returns the start response. */
    async upload(
      jar: Record<string, string>,
      answerKey: string,
      fileName: string,
      bytes: Uint8Array,
    ) {
      const { url, fields } = await this.presign(jar, answerKey);
      const uploaded = await this.post(url, fields, { name: fileName, bytes });
      if (uploaded.statusCode !== 204)
        throw new Error(`upload: ${uploaded.statusCode} ${uploaded.body}`);
      return api(jar, 'POST', `/api/pdf/document-answer/${answerKey}`, {
        file_key: fields.key,
        file_name: fileName,
      });
    },
    /** Polls like the SPA (but faster) until a final status. */
    async waitForResult(
      jar: Record<string, string>,
      answerKey: string,
      timeoutMs = 30_000,
    ): Promise<ConversionStatusResponse> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const response = await api(jar, 'GET', `/api/pdf/document-answer/${answerKey}`);
        const body = response.json() as ConversionStatusResponse;
        if (!['UNPROCESSED', 'IN_PROGRESS'].includes(body.status)) return body;
        if (Date.now() > deadline) throw new Error(`still ${body.status} after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
