// The upload widget on its own, in the real providers, with fetch stubbed at the network edge.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { MESSAGES as FORM_MESSAGES } from '@admissions/form';
import { DOCUMENT_MESSAGES, type ConversionStatusResponse } from '@admissions/api-contract';
import { theme } from '../src/config/theme';
import { createQueryClient } from '../src/shared/api/query-client';
import {
  ANONYMOUS_UPLOAD_MESSAGE,
  DELETE_CONFIRMATION,
  DocumentUpload,
} from '../src/features/application/inputs/document-upload';
import { FileUploadInProgressDialog } from '../src/shared/ui/file-upload-in-progress-dialog';
import { stubFetch } from './support/fetch-stub';

const KEY = 'personal_statement_doc';
const LABEL = 'Personal Statement';
const STATUS_URL = `GET /api/pdf/document-answer/${KEY}`;

function Harness({ loggedIn = true }: { loggedIn?: boolean }) {
  const [answer, setAnswer] = useState('unset');
  const [status, setStatus] = useState('');
  return (
    <>
      <DocumentUpload
        answerKey={KEY}
        label={LABEL}
        loggedIn={loggedIn}
        onAnswerChange={setAnswer}
        onStatusChange={setStatus}
        pollMs={50}
      />
      <output data-testid="answer">{answer}</output>
      <output data-testid="status">{status}</output>
    </>
  );
}

function renderWidget(loggedIn = true) {
  const queryClient = createQueryClient();
  const user = userEvent.setup();
  render(
    <MantineProvider theme={theme} env="test">
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <Harness loggedIn={loggedIn} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { user };
}

/** A server that converts after `polls` status calls, then answers `final`. */
function conversionServer(final: ConversionStatusResponse, polls = 2) {
  let state: 'none' | 'pending' | 'done' | 'deleted' = 'none';
  let seen = 0;
  const documents: Record<string, { file_name: string; file_size: number }> = {};
  const stub = stubFetch({
    [STATUS_URL]: () => {
      if (state === 'pending' && ++seen > polls) {
        state = 'done';
        if (final.status === 'COMPLETED')
          documents[KEY] = { file_name: 'essay.docx', file_size: 2048 };
      }
      if (state === 'pending') return { body: { status: 'IN_PROGRESS', message: 'Converting' } };
      if (state === 'done') return { body: final };
      return { body: { status: 'NOT_ANSWERED', message: 'none' } };
    },
    'GET /api/document-answer': () => ({ body: documents }),
    'POST /api/presigned-url': {
      body: {
        url: '/storage/upload',
        fields: { key: 'uploads/u/k/r', policy: 'p', signature: 's' },
      },
    },
    // S3 answers 204 (or 201 when asked); the stub cannot build a 204 with a body, so 201.
    'POST /storage/upload': { status: 201 },
    [`POST /api/pdf/document-answer/${KEY}`]: () => {
      state = 'pending';
      return { body: { status: 'UNPROCESSED', message: DOCUMENT_MESSAGES.waiting } };
    },
    [`DELETE /api/pdf/document-answer/${KEY}`]: () => {
      state = 'deleted';
      return { body: { message: DOCUMENT_MESSAGES.deleted } };
    },
    [`DELETE /api/document-answer/${KEY}`]: () => {
      delete documents[KEY];
      state = 'deleted';
      return { body: { message: DOCUMENT_MESSAGES.deleted } };
    },
  });
  return stub;
}

const docx = (size = 2048, name = 'essay.docx') =>
  new File([new Uint8Array(size)], name, {
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  });

describe('DocumentUpload', () => {
  beforeEach(() => notifications.clean());

  it('tells anonymous visitors to create an account instead of offering an upload', () => {
    stubFetch({});
    renderWidget(false);
    expect(screen.getByText(ANONYMOUS_UPLOAD_MESSAGE)).toBeInTheDocument();
    expect(document.querySelector('input[type=file]')).toBeNull();
  });

  it('uploads, shows the conversion, then the name and size; deletes after confirming', async () => {
    const { calls } = conversionServer({ status: 'COMPLETED', message: 'done' });
    const { user } = renderWidget();
    const input = await screen.findByLabelText(LABEL);
    await user.upload(input, docx());
    expect(await screen.findByTestId('upload-converting')).toBeInTheDocument();
    expect(await screen.findByText('essay.docx (2.0 KB)')).toBeInTheDocument();
    expect(screen.getByTestId('answer')).toHaveTextContent('ANSWERED');
    expect(screen.getByTestId('status')).toHaveTextContent('COMPLETED');
    const upload = calls.find((c) => c.url === '/storage/upload');
    expect(upload?.method).toBe('POST');
    expect(calls.find((c) => c.method === 'POST' && c.url.includes('/api/pdf/'))?.body).toEqual({
      file_key: 'uploads/u/k/r',
      file_name: 'essay.docx',
    });

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(DELETE_CONFIRMATION)).toBeInTheDocument();
    const dialogButtons = screen.getAllByRole('button', { name: 'Delete' });
    await user.click(dialogButtons[dialogButtons.length - 1]!);
    await waitFor(() => expect(screen.getByTestId('answer')).toHaveTextContent(/^$/));
    expect(await screen.findByLabelText(LABEL)).toBeInTheDocument();
  });

  it.each([
    [1, '1 page'],
    [3, '3 pages'],
  ])(
    'shows a converted document of %i page(s) as "%s" with a described picture of its first page',
    async (pages, words) => {
      const thumbnail = `/api/document-answer/${KEY}/thumbnail?v=0123456789abcdef`;
      conversionServer({
        status: 'COMPLETED',
        message: 'done',
        page_count: pages,
        thumbnail_url: thumbnail,
      });
      const { user } = renderWidget();
      await user.upload(await screen.findByLabelText(LABEL), docx());
      expect(await screen.findByText(words)).toBeInTheDocument();
      const picture = screen.getByRole('img', {
        name: 'First page of essay.docx as the admissions office will see it',
      });
      expect(picture).toHaveAttribute('src', thumbnail);
    },
  );

  it('shows a document converted without a picture by its name alone', async () => {
    conversionServer({ status: 'COMPLETED', message: 'done' });
    const { user } = renderWidget();
    await user.upload(await screen.findByLabelText(LABEL), docx());
    expect(await screen.findByText('essay.docx (2.0 KB)')).toBeInTheDocument();
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByTestId('upload-page-count')).toBeNull();
  });

  it('checks the file first with the documented messages, without uploading', async () => {
    const { calls } = conversionServer({ status: 'COMPLETED', message: 'done' });
    const { user } = renderWidget();
    const input = await screen.findByLabelText(LABEL);
    await user.upload(input, docx(1_048_577, `${'a'.repeat(28)}.docx`));
    expect(await screen.findByText(FORM_MESSAGES.fileTooLarge)).toBeInTheDocument();
    expect(screen.getByText(FORM_MESSAGES.fileNameTooLong)).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/api/presigned-url')).toBe(false);
  });

  it('shows a failed conversion in the widget with the file name, clears the answer and resets', async () => {
    const { calls } = conversionServer({
      status: 'FAILED',
      message: DOCUMENT_MESSAGES.unsafeContent,
    });
    const { user } = renderWidget();
    await user.upload(await screen.findByLabelText(LABEL), docx());
    const failure = await screen.findByTestId('upload-failure');
    // The server's message for the reason, verbatim, after the name of the file it concerns.
    expect(failure).toHaveTextContent(`${docx().name}: ${DOCUMENT_MESSAGES.unsafeContent}`);
    expect(failure).toHaveAttribute('role', 'alert');
    expect(screen.getByTestId('answer')).toHaveTextContent(/^$/);
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.url.includes('/api/pdf/'))).toBe(true),
    );
    expect(await screen.findByLabelText(LABEL)).toBeInTheDocument();
  });

  it('has the "File Upload in Progress" dialog for refused tab switches', async () => {
    stubFetch({});
    render(
      <MantineProvider theme={theme} env="test">
        <FileUploadInProgressDialog opened onClose={() => undefined} />
      </MantineProvider>,
    );
    expect(await screen.findByText('File Upload in Progress')).toBeInTheDocument();
    expect(
      screen.getByText('Please wait until the file upload has completed.'),
    ).toBeInTheDocument();
  });
});
