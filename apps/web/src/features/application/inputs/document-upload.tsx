// The upload widget of a file question (docs/behaviour.md "Uploaded file states", docs/validation.md "File upload", docs/errors.md).
// Self-contained: it talks to the document API itself and reports the answer and the conversion
// status upwards, so the form page only stores the answer and the tabs can refuse to switch.
import { useEffect, useId, useRef, useState } from 'react';
import { Button, Group, Input, Loader, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConversionStatus } from '@admissions/api-contract';
import { formatDocumentSize } from '@admissions/answer-view';
import {
  ALLOWED_FILE_EXTENSIONS,
  MAX_FILE_NAME_LENGTH,
  MAX_FILE_SIZE_BYTES,
  validateUploadFile,
} from '@admissions/form';
import {
  deleteConversion,
  deleteDocumentAnswer,
  getConversionStatus,
  getDocumentAnswers,
  getPresignedUrl,
  startConversion,
  uploadToPresignedUrl,
} from '../api/documents';
import { documentQueryKeys } from '../../../shared/api/document-query-keys';
import { AppModal } from '../../../shared/ui/app-modal';
import { showErrorToast } from '../../../shared/ui/notify';
import classes from './document-upload.module.css';

/** docs/behaviour.md: UNPROCESSED and IN_PROGRESS poll every 2000 ms; the others stop. */
export const CONVERSION_POLL_MS = 2000;
export const ANONYMOUS_UPLOAD_MESSAGE =
  'This question can be finished once you have created an account.';
export const DELETE_CONFIRMATION = 'Are you sure you want to delete your file?';

/** The rules shown beside the drop zone, from the same constants the checks use. */
export const UPLOAD_RULES = `${ALLOWED_FILE_EXTENSIONS.map((e) => `.${e}`).join(', ')} · up to ${
  MAX_FILE_SIZE_BYTES / (1024 * 1024)
} MB · file name up to ${MAX_FILE_NAME_LENGTH} characters`;
export const DROP_ZONE_TEXT = 'Drag your file here or';
export const DROP_ZONE_ACTION = 'choose a file';

/** "1 page" / "N pages": the converted PDF's length, beside its file name. */
export function formatPageCount(pages: number): string {
  return pages === 1 ? '1 page' : `${pages} pages`;
}

/** Says what the picture is for: the applicant's check of what the office will read. */
export function describeThumbnail(fileName: string): string {
  return `First page of ${fileName} as the admissions office will see it`;
}

const PENDING: readonly ConversionStatus[] = ['UNPROCESSED', 'IN_PROGRESS'];

export function isConversionPending(status: ConversionStatus | undefined): boolean {
  return status !== undefined && PENDING.includes(status);
}

export interface DocumentUploadProps {
  /** The file question's key (`*_doc`). */
  answerKey: string;
  /** The question's label; also names the field in error toasts. */
  label: string;
  description?: string;
  loggedIn: boolean;
  /** The answer to store: 'ANSWERED' once converted, '' when removed or failed. */
  onAnswerChange: (value: 'ANSWERED' | '') => void;
  /** The conversion status as it changes (tabs refuse to switch while it is pending). */
  onStatusChange?: (status: ConversionStatus) => void;
  error?: string;
  /** Poll interval; tests shorten it. */
  pollMs?: number;
}

export function DocumentUpload(props: DocumentUploadProps) {
  if (!props.loggedIn) {
    return (
      <Stack gap={4}>
        <Text fw={500}>{props.label}</Text>
        <Text c="dimmed" data-testid="upload-anonymous">
          {ANONYMOUS_UPLOAD_MESSAGE}
        </Text>
      </Stack>
    );
  }
  return <LoggedInUpload {...props} />;
}

function LoggedInUpload({
  answerKey,
  label,
  description,
  onAnswerChange,
  onStatusChange,
  error,
  pollMs = CONVERSION_POLL_MS,
}: DocumentUploadProps) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [dragging, setDragging] = useState(false);
  // The last failure, shown in the widget with the file it concerns until another file is chosen.
  const [failure, setFailure] = useState<{ fileName: string; message: string } | null>(null);
  const lastFileName = useRef('');
  const rulesId = useId();
  const labelId = useId();
  const toastTitle = `Error uploading file for ${label}`;

  const status = useQuery({
    queryKey: documentQueryKeys.conversion(answerKey),
    queryFn: () => getConversionStatus(answerKey),
    refetchInterval: (query) => (isConversionPending(query.state.data?.status) ? pollMs : false),
  });
  const documents = useQuery({ queryKey: documentQueryKeys.answers, queryFn: getDocumentAnswers });
  const current = status.data?.status;
  const document = documents.data?.[answerKey];

  // Report status changes; act once on each final status.
  const handled = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!status.data) return;
    onStatusChange?.(status.data.status);
    const signature = `${status.data.status}:${status.dataUpdatedAt}`;
    if (handled.current === signature) return;
    const previous = handled.current?.split(':')[0];
    handled.current = signature;
    if (status.data.status === 'COMPLETED' && previous && previous !== 'COMPLETED') {
      onAnswerChange('ANSWERED');
      void queryClient.invalidateQueries({ queryKey: documentQueryKeys.answers });
    } else if (status.data.status === 'FAILED') {
      // The server's message for the reason, verbatim, beside the file it concerns; the answer
      // is cleared and the conversion deleted, so another file can be chosen at once.
      setFailure({ fileName: lastFileName.current, message: status.data.message });
      onAnswerChange('');
      void deleteConversion(answerKey)
        .catch(() => undefined)
        .finally(() => {
          void queryClient.invalidateQueries({ queryKey: documentQueryKeys.conversion(answerKey) });
          void queryClient.invalidateQueries({ queryKey: documentQueryKeys.answers });
        });
    }
    // onAnswerChange/onStatusChange are the parent's callbacks; only the status drives this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status.data, status.dataUpdatedAt]);

  async function upload(file: File) {
    const messages = validateUploadFile({ name: file.name, size: file.size });
    setProblems(messages);
    setFailure(null);
    lastFileName.current = file.name;
    if (messages.length > 0) return;
    setUploading(true);
    try {
      const presigned = await getPresignedUrl(answerKey);
      await uploadToPresignedUrl(presigned, file);
      const started = await startConversion(answerKey, presigned.fields.key ?? '', file.name);
      handled.current = `${started.status}:start`;
      queryClient.setQueryData(documentQueryKeys.conversion(answerKey), started);
      onStatusChange?.(started.status);
    } catch (problem) {
      setFailure({ fileName: file.name, message: (problem as Error).message });
      onAnswerChange('');
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  async function remove() {
    setDeleting(true);
    try {
      await deleteDocumentAnswer(answerKey);
      onAnswerChange('');
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: documentQueryKeys.answers });
      await queryClient.invalidateQueries({ queryKey: documentQueryKeys.conversion(answerKey) });
    } catch (problem) {
      setConfirming(false);
      showErrorToast(toastTitle, (problem as Error).message);
    } finally {
      setDeleting(false);
    }
  }

  const converting = uploading || isConversionPending(current);
  const present = !converting && current === 'COMPLETED' && document !== undefined;
  const invalid = problems.length > 0 || failure !== null || Boolean(error);
  const loading = status.isPending || (current === 'COMPLETED' && documents.isPending);

  return (
    <Stack gap={6} data-testid={`upload-${answerKey}`}>
      <Text component="label" htmlFor={inputId} id={labelId} fw={500}>
        {label}
      </Text>
      {description ? (
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      ) : null}
      {loading ? (
        <Loader size="sm" role="status" aria-label="Loading" />
      ) : converting ? (
        <Group gap="xs" role="status" data-testid="upload-converting">
          <Loader size="sm" aria-hidden />
          <Text>Uploading and converting your file…</Text>
        </Group>
      ) : present ? (
        // The converted document as the office will read it: its first page and its length, so
        // a wrong or badly converted file is noticed before the application is submitted.
        <Group gap="sm" align="flex-start" data-testid="upload-present">
          {status.data?.thumbnail_url ? (
            <img
              className={classes.thumbnail}
              src={status.data.thumbnail_url}
              alt={describeThumbnail(document.file_name)}
              data-testid="upload-thumbnail"
            />
          ) : null}
          <Stack gap={6} align="flex-start" className={classes.details}>
            <Text className={classes.fileName}>
              {document.file_name} ({formatDocumentSize(document.file_size)})
            </Text>
            {status.data?.page_count ? (
              <Text size="sm" data-testid="upload-page-count">
                {formatPageCount(status.data.page_count)}
              </Text>
            ) : null}
            <Button variant="outline" color="red" size="xs" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          </Stack>
        </Group>
      ) : (
        // A second label of the input: a click anywhere on the box opens the browser's chooser,
        // and the input (focusable, visually hidden) keeps the keyboard behaviour it always had.
        <label
          htmlFor={inputId}
          className={classes.zone}
          data-dragging={dragging}
          data-invalid={invalid}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            // A closed round's application disables its fieldset: a drop is refused like a click.
            if (fileInput.current?.matches(':disabled')) return;
            const file = event.dataTransfer.files[0];
            if (file) void upload(file);
          }}
          data-testid="upload-drop-zone"
        >
          <input
            ref={fileInput}
            id={inputId}
            className={classes.input}
            type="file"
            accept={ALLOWED_FILE_EXTENSIONS.map((e) => `.${e}`).join(',')}
            aria-invalid={invalid}
            // Named by the question alone; the box's words are for the eye (rules: description).
            aria-labelledby={labelId}
            aria-describedby={rulesId}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (file) void upload(file);
            }}
          />
          <Text component="span" size="sm" display="block" aria-hidden="true">
            {DROP_ZONE_TEXT} <span className={classes.action}>{DROP_ZONE_ACTION}</span>
          </Text>
          <Text component="span" size="xs" c="dimmed" display="block" id={rulesId}>
            {UPLOAD_RULES}
          </Text>
        </label>
      )}
      {failure ? (
        <Input.Error role="alert" data-testid="upload-failure">
          <strong>{failure.fileName}</strong>
          {failure.fileName ? ': ' : ''}
          {failure.message}
        </Input.Error>
      ) : null}
      {/* The same red text as every other field's error. */}
      {[...problems, ...(error ? [error] : [])].map((message) => (
        <Input.Error key={message} role="alert">
          {message}
        </Input.Error>
      ))}
      <AppModal opened={confirming} onClose={() => setConfirming(false)} title="Delete file">
        <Text>{DELETE_CONFIRMATION}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button color="red" loading={deleting} onClick={() => void remove()}>
            Delete
          </Button>
        </Group>
      </AppModal>
    </Stack>
  );
}
